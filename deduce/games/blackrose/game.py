"""The Black Rose behind the game protocol (:class:`deduce.games.protocol.Game`).

The main question is the pair of accomplices: an answer is the two
suspects in alphabetical order, joined by ``+`` (:func:`pair_label`).

``why SUSPECT`` asks why the suspect cannot be an accomplice. "The suspect
is an accomplice" is no event of the log format, but it is a constraint the
model already has: with the other six suspects as the dead, a Goal's "at
least five of the dead are innocent" says that at most one of the six is an
accomplice, so (two accomplices among seven) that the suspect is one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from deduce.data.located import Invalid
from deduce.errors import DeduceError, InconsistentLog
from deduce.games.blackrose import bots, cards, check, claims, csp, report, simulate, views
from deduce.games.blackrose.advisor import advise, claim_options, possessed_kill
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.blackrose.solve import BlackRoseSolution, minimal_conflict, solve_blackrose
from deduce.games.protocol import (
    AdviceOptions,
    CheckOptions,
    CheckReport,
    FromScratch,
    Game,
    Query,
    Question,
    Revealed,
    SolveOptions,
    Suggestion,
)
from deduce.games.simulate import Files, Simulator
from deduce.games.words import arity, next_line, pick
from deduce.logs.formats.blackrose import CONDITIONS, ROLES, default_suspect_ids, suspects_of
from deduce.logs.model import Event, GameLog, Header
from deduce.report import Table, percent
from deduce.workers import Workers

USAGE = "why SUSPECT|PLAYER"


def pair_label(suspects: Sequence[str]) -> str:
    """A Black Rose answer: the two suspects in alphabetical order, joined by ``+``."""
    return "+".join(sorted(suspects))


def _correct_accusation(event: Event) -> bool:
    """Whether ``event`` is an accusation the log says was right."""
    return event.type == "accuse" and event.get("correct") is True


def _build(players: int, files: Files) -> BlackRoseGame:
    """The engine's game for ``players`` seats with the user's cards file."""
    path = files.get("cards")
    return BlackRoseGame.create(players, cards.load_cards_file(path) if path else None)


def unseen_bound(log: GameLog, data: cards.CardData) -> int:
    """At most how many clue cards the observer has not seen.

    That is the clue cards of the game, less the two accomplices' Proofs
    (out of the deck) and the Proofs seen in the log.
    """
    proofs = {e.get("suspect") for e in log.events if e.type == "proof"}
    return max(0, len(data.used_clues(len(log.header.players))) - 2 - len(proofs))


def _possessed_advice(log: GameLog, options: SolveOptions) -> tuple[dict[str, Any], list[Table]]:
    """The Possessed's advice: claims with their exposure, the vote, the Night's kill.

    As JSON keys (``claims``, advised first; ``vote``; ``kill`` and its
    ``kill_chance``) and as tables.
    """
    claims = claim_options(log, options.model, options.hard)
    dead = {e.get("suspect") for e in log.events if e.type == "kill"}
    living = [s for s in suspects_of(log.header) if s not in dead]
    kill = possessed_kill(log, living, options.model, options.hard)
    data = {
        "claims": [
            {
                "claim": None if o.said is None else {"suspect": o.said[0], "innocent": o.said[1]},
                "suspected": {player: float(p) for player, p in o.suspected.items()},
                "exposure": float(o.exposure),
                "right": float(o.right),
            }
            for o in claims
        ],
        "vote": None,
        "kill": None if kill is None else kill[0],
        "kill_chance": 0.0 if kill is None else float(kill[1]),
    }
    return data, [report.claims_table(claims), report.vote_table(), report.kill_table(kill)]


class BlackRose(FromScratch):
    """The Black Rose (see :class:`deduce.games.protocol.Game`)."""

    name = "blackrose"
    question = "accomplices"
    pick = "the most probable"
    accusation = "the first correct accusation"
    soft = True
    engines: tuple[str, ...] = ()
    owned: Mapping[str, tuple[str, ...]] = {
        "play": ("model_file",),
        "solve": ("model_file",),
        "analyze": ("model_file",),
        "suggest": ("unseen", "cards_file", "model_file", "hard"),
        "check": ("model_file",),
    }
    why_usage = USAGE
    why_meaning = (
        "why SUSPECT: why SUSPECT cannot be an accomplice; "
        "why PLAYER: why PLAYER cannot be the Possessed."
    )
    why_arguments: tuple[tuple[str, ...], ...] = (("suspect", "player"),)
    simulator = Simulator(
        "blackrose", bots.BOTS, "advised", ("cards",), _build, simulate.record_game
    )

    def load(self, kind: str, path: str) -> Any:
        """The claims model (``model``) or the clue and Rector cards (``cards``)."""
        if kind == "model":
            return claims.load_model_file(path)
        if kind == "cards":
            return cards.load_cards_file(path)
        raise DeduceError(f"{path}: blackrose has no {kind} file")

    def solve(  # noqa: D102
        self,
        log: GameLog,
        options: SolveOptions,
        warm: Any = None,
    ) -> BlackRoseSolution:
        solution = solve_blackrose(log, hard=options.hard, model=options.model)
        return views.with_views(solution, log, options.hard, options.model)

    def tables(self, solution: BlackRoseSolution) -> list[Table]:  # noqa: D102
        return report.tables(solution)

    def compact_tables(self, solution: BlackRoseSolution) -> list[Table]:  # noqa: D102
        return report.compact_tables(solution)

    def answers(  # noqa: D102
        self,
        solution: BlackRoseSolution,
    ) -> tuple[Mapping[str, Any], bool]:
        return {pair_label(pair): p for pair, p in solution.pairs.items()}, True

    def picks(self, solution: BlackRoseSolution) -> tuple[str, ...]:
        """The most probable pairs: no other pick (a wrong accusation costs nothing)."""
        return ()

    def revealed(self, log: GameLog) -> Revealed | None:
        """The first correct accusation."""
        for event in log.events:
            if _correct_accusation(event):
                return Revealed(pair_label(event.get("suspects")), event.line)
        return None

    def is_accusation(self, event: Event) -> bool:  # noqa: D102
        return _correct_accusation(event)

    def truth_answer(self, log: GameLog, raw: Any) -> str:  # noqa: D102
        key = "accomplices"
        value = raw.get(key)
        if isinstance(value, list) and len(value) == 2 and all(isinstance(s, str) for s in value):
            return pair_label(value)
        raise Invalid((key,) if key in raw else (), f"{key!r} is missing or malformed")

    def query(self, log: GameLog, words: Sequence[str]) -> Query:
        """``why PLAYER``: role PLAYER possessed; ``why SUSPECT``: the suspect is an accomplice."""
        arity(words, USAGE, 1, 1)
        setting = csp.Setting.of(log.header)
        line = next_line(log)
        if words[0] in setting.players:
            statement = f"{words[0]} is the Possessed"
            hypothesis = csp.Fact(Event("role", {"player": words[0], "role": "possessed"}, line))
        else:
            suspect = pick(words[0], setting.suspects, "suspect")
            others = tuple(s for s in setting.suspects if s != suspect)
            statement = f"{suspect} is an accomplice"
            hypothesis = csp.Fact(
                Event(
                    "goal",
                    {"card": "why", "condition": {"innocent_dead_at_least": len(others) - 1}},
                    line,
                ),
                others,
            )
        known = csp.facts(log.events)

        def consistent(kept: Collection[int]) -> bool:
            return csp.is_consistent(setting, [*(f for f in known if f.line in kept), hypothesis])

        def minimal() -> set[int]:
            found = minimal_conflict(setting, [*known, hypothesis])
            return {f.line for f in found if f is not hypothesis}

        return Query(
            statement,
            tuple(f.line for f in known),
            consistent,
            minimal,
            lambda: csp.is_consistent(setting, known),
        )

    def words(self, header: Header, path: str) -> dict[str, tuple[str, ...]]:  # noqa: D102
        goals = tuple(card.id for card in cards.default_cards().rector if card.kind == "goal")
        suspects = suspects_of(header)
        return {
            "role": ROLES,
            "suspect": suspects,
            "suspects": suspects,
            "card": goals,
            "condition": tuple(CONDITIONS),
        }

    def questions(self, players: tuple[str, ...]) -> tuple[Question, ...]:
        """The Rector and, optionally, the seven suspects."""
        bundled = " ".join(default_suspect_ids())
        return (
            Question("rector", "Who is the Rector", "player"),
            Question(
                "suspects",
                f"The seven suspects (Enter: the bundled {bundled})",
                "ids",
                required=False,
            ),
        )

    def openings(self, me: str) -> tuple[Question, ...]:
        """Your role, when you are not the Rector: the log's first event."""
        return (
            Question(
                f"role {me}",
                "Your role: investigator or possessed (Enter to skip)",
                "ids",
                required=False,
            ),
        )

    def suggest(
        self,
        log: GameLog,
        options: SolveOptions,
        advice: AdviceOptions,
        solution: BlackRoseSolution | None = None,
    ) -> Suggestion:
        """Where to investigate and which pair to accuse; the Possessed: what to say, vote, kill."""
        if not (solution or self.solve(log, options)).consistent:
            raise InconsistentLog(f"{log.path}: no history fits the log")
        unseen = advice.unseen
        if unseen is None:
            unseen = unseen_bound(log, advice.cards or cards.default_cards())
        found = advise(log, unseen, options.model, hard=options.hard)
        piles = ["the Graveyard" if p is None else p for p in found.piles]
        data = {
            "game": "blackrose",
            "investigate": piles,
            "bits": found.draw_bits,
            "unseen": unseen,
            "accuse": list(found.accuse),
            "probability": float(found.probability),
            "answer_bits": found.answer_bits,
        }
        rows = [[p, f"{found.draw_bits:.3f}"] for p in piles]
        title = (
            f"Investigate (any of these: every pile is worth the same, {unseen} clue cards unseen)"
        )
        investigate = Table(title, ["pile", "bits"], rows)
        if views.own_role(log) == "possessed":
            extra, tables = _possessed_advice(log, options)
            return Suggestion({**data, **extra}, [investigate, *tables])
        first, second = found.accuse
        accuse = Table(
            "Accusation (a wrong one costs nothing: accuse when allowed)",
            ["pair", "chance", "answer bits"],
            [[f"{first} + {second}", percent(found.probability), f"{found.answer_bits:.3f}"]],
        )
        return Suggestion(data, [investigate, accuse])

    def check(  # noqa: D102
        self,
        table: BlackRoseGame,
        games: int,
        seed: int,
        lineup: Sequence[str],
        workers: Workers,
        options: CheckOptions,
    ) -> Iterator[Any]:
        return check.check_games(table, games, seed, lineup, options.model, workers)

    def check_report(self, players: int, results: Sequence[Any]) -> CheckReport:  # noqa: D102
        summary = check.CheckSummary.of(players, list(results))
        return CheckReport(summary.to_json(), report.check_tables(summary), len(summary.failures))


#: The game behind the protocol (typed, so that mypy checks it meets ``Game``).
GAME: Game[BlackRoseSolution] = BlackRose()
