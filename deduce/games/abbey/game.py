"""Mystery of the Abbey behind the game protocol: the one place that joins its wings.

The rules (:mod:`~deduce.games.abbey.rules`) and the solver
(:mod:`~deduce.games.abbey.solver`) never import each other; this object,
the advice and the simulation (:mod:`~deduce.games.abbey.sim`) use both.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from deduce.data.located import Invalid
from deduce.errors import DeduceError
from deduce.games.abbey import report
from deduce.games.abbey.advice import suggest
from deduce.games.abbey.rules.board import load_board_file
from deduce.games.abbey.rules.cards import load_cards_file
from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.sim import check, simulate
from deduce.games.abbey.sim.check import LogCheck
from deduce.games.abbey.solver import query
from deduce.games.abbey.solver.chains import Carry
from deduce.games.abbey.solver.opponents import Race, could_be_sure, race
from deduce.games.abbey.solver.sat.cnf import Warm
from deduce.games.abbey.solver.solve import (
    ENGINES,
    OPPONENTS_SECONDS,
    AbbeySolution,
    solve_abbey,
)
from deduce.games.abbey.solver.timeline import PILE, AbbeyPosition
from deduce.games.protocol import (
    AdviceOptions,
    CheckOptions,
    CheckReport,
    Game,
    Query,
    Question,
    Revealed,
    SolveOptions,
    Suggestion,
)
from deduce.games.simulate import Files, Simulator
from deduce.logs.formats.abbey import (
    RULEBOOK_SIZES,
    TRAITS,
    deck_template,
    load_deck_file,
    setup_from_header,
    supplied_deck,
)
from deduce.logs.model import Event, GameLog, Header
from deduce.report import Table, plural
from deduce.workers import Workers


def _build(players: int, files: Files) -> AbbeyGame:
    """The engine's game for ``players`` seats with the user's deck, board and cards."""
    deck, board, cards = (files.get(k) for k in ("deck", "board", "cards"))
    return AbbeyGame.create(
        players,
        load_deck_file(deck) if deck else None,
        load_board_file(board) if board else None,
        load_cards_file(cards) if cards else None,
    )


def _correct_accusation(event: Event) -> bool:
    """Whether ``event`` is an accusation the log says was right."""
    return event.type == "accuse" and event.get("correct") is True


class Abbey:
    """Mystery of the Abbey (see :class:`deduce.games.protocol.Game`)."""

    name = "abbey"
    question = "culprit"
    pick = "the most probable"
    accusation = "the first correct accusation"
    soft = False
    engines: tuple[str, ...] = ENGINES
    owned: Mapping[str, tuple[str, ...]] = {
        "play": ("deck_file",),
        "solve": ("deck_file", "engine", "budget", "seed", "opponents"),
        "analyze": ("budget", "seed", "deck_file"),
        "suggest": ("budget", "seed", "top", "deck_file", "situation"),
        "check": ("budget", "every", "fast"),
    }
    why_usage = query.USAGE
    why_meaning = query.MEANING
    why_arguments: tuple[tuple[str, ...], ...] = (("card",), ("player",))
    simulator = Simulator(
        "abbey", simulate.BOTS, "notepad", ("deck", "board", "cards"), _build, simulate.record_game
    )

    log_files: tuple[str, ...] = ("deck",)
    knows_others: bool = True

    def load(self, kind: str, path: str) -> Any:
        """The deck file (``deck``): the suspect cards of the player's box."""
        if kind == "deck":
            return load_deck_file(path)
        raise DeduceError(f"{path}: abbey has no {kind} file")

    def inline(self, supplied: object) -> dict[str, Any]:
        """A new log carries the player's deck in its header."""
        deck = supplied_deck(supplied)
        return {} if deck is None else {"deck": deck.to_json()}

    def template(self, kind: str) -> str:
        """The deck file to fill in with the cards of the player's box."""
        if kind == "deck":
            return deck_template()
        raise DeduceError(f"abbey has no {kind} template")

    def warm(self) -> Warm:  # noqa: D102
        return Warm()

    def solve(  # noqa: D102
        self,
        log: GameLog,
        options: SolveOptions,
        warm: Warm | None = None,
    ) -> AbbeySolution:
        return solve_abbey(
            log,
            supplied_deck(options.deck),
            options.engine,
            budget=options.budget,
            seed=options.seed,
            warm=warm,
            progress=options.progress,
            jobs=options.jobs,
            carry=options.carry if isinstance(options.carry, Carry) else None,
            opponents=options.opponents,
        )

    def others(self, log: GameLog, options: SolveOptions) -> Race:
        """Who may be sure of the culprit (:mod:`~deduce.games.abbey.solver.opponents`)."""
        position = AbbeyPosition.of_log(log, supplied_deck(options.deck))
        return race(position, options.budget or OPPONENTS_SECONDS, options.seed)

    def could_be_sure(self, log: GameLog, options: SolveOptions) -> dict[str, bool]:
        """Who is sure of the culprit in some history (:func:`~opponents.could_be_sure`)."""
        position = AbbeyPosition.of_log(log, supplied_deck(options.deck))
        return could_be_sure(position, seed=options.seed)

    def tables(self, solution: AbbeySolution) -> list[Table]:  # noqa: D102
        return report.tables(solution)

    def compact_tables(self, solution: AbbeySolution) -> list[Table]:  # noqa: D102
        return [report.compact_table(solution)]

    def answers(self, solution: AbbeySolution) -> tuple[Mapping[str, Any], bool]:  # noqa: D102
        return (
            {card: solution.culprit[card] for card in solution.candidates},
            solution.culprit_exact,
        )

    def picks(self, solution: AbbeySolution) -> tuple[str, ...]:
        """The most probable culprits: no other pick."""
        return ()

    def weighed(self, solution: AbbeySolution) -> bool:  # noqa: D102
        return False

    def error(self, solution: AbbeySolution) -> float:  # noqa: D102
        return solution.culprit_bound

    def revealed(self, log: GameLog) -> Revealed | None:
        """A ``culprit`` event or a correct accusation."""
        for event in log.events:
            if event.type == "culprit" or _correct_accusation(event):
                return Revealed(event.get("card"), event.line)
        return None

    def is_accusation(self, event: Event) -> bool:  # noqa: D102
        return _correct_accusation(event)

    def truth_answer(self, log: GameLog, raw: Any) -> str:  # noqa: D102
        value = raw.get("culprit")
        if isinstance(value, str):
            return value
        raise Invalid(("culprit",) if "culprit" in raw else (), "'culprit' is missing or malformed")

    def query(self, log: GameLog, words: Sequence[str]) -> Query:  # noqa: D102
        return query.query(log, words)

    def words(self, header: Header, path: str) -> dict[str, tuple[str, ...]]:  # noqa: D102
        ids = setup_from_header(header, path).deck.ids
        return {"card": ids, "cards": ids, "gave": ids, "got": ids, "traits": TRAITS}

    def questions(self, players: tuple[str, ...]) -> tuple[Question, ...]:
        """The pile and hand sizes, when the rulebook's do not apply."""
        if len(players) not in RULEBOOK_SIZES:
            return (
                Question("pile", "Cards in the face-down pile", "count"),
                Question("hand", "Cards per player", "count"),
            )
        return ()

    def warnings(self, log: GameLog, options: SolveOptions) -> tuple[tuple[int, str], ...]:
        """Accusations while cards are left in the pile (the rulebook forbids them)."""
        timeline = AbbeyPosition.of_log(log, supplied_deck(options.deck)).timeline
        found = []
        for event in log.events:
            left = timeline.sizes[timeline.epoch_of[event.line]][PILE]
            if event.type == "accuse" and left:
                found.append(
                    (
                        event.line,
                        f"an accusation while {plural(left, 'card')} "
                        f"{'is' if left == 1 else 'are'} left in the pile: the rulebook "
                        "allows accusing only once the pile is empty",
                    )
                )
        return tuple(found)

    def openings(self, me: str) -> tuple[Question, ...]:
        """Your hand: the log's first event."""
        return (
            Question(f"hand {me}", "Your hand (card ids; Enter to skip)", "ids", required=False),
        )

    def check_input(self, log: GameLog) -> None:
        """The public sizes: a draw from an empty pile, a hand of the wrong size..."""
        AbbeyPosition.of_log(log)

    def impossible(self, log: GameLog, warm: Warm | None = None) -> bool:
        """One SAT solve (on ``warm``'s model if given)."""
        return not (warm or Warm()).model_of(AbbeyPosition.of_log(log)).satisfiable()

    def suggest(  # noqa: D102
        self,
        log: GameLog,
        options: SolveOptions,
        advice: AdviceOptions,
        solution: AbbeySolution | None = None,
    ) -> Suggestion:
        return suggest.suggest(log, options, advice.top, solution, advice.situation)

    def check(  # noqa: D102
        self,
        table: AbbeyGame,
        games: int,
        seed: int,
        lineup: Sequence[str],
        workers: Workers,
        options: CheckOptions,
    ) -> Iterator[list[LogCheck]]:
        return check.check_games(
            table, games, seed, lineup, options.budget, options.every, options.fast, workers
        )

    def check_report(  # noqa: D102
        self,
        players: int,
        results: Sequence[list[LogCheck]],
    ) -> CheckReport:
        summary = check.CheckSummary.of([c for run in results for c in run])
        return CheckReport(summary.to_json(), report.check_tables(summary), len(summary.failures))


#: The game behind the protocol (typed, so that mypy checks it meets ``Game``).
GAME: Game[AbbeySolution] = Abbey()
