"""The Name of the Rose behind the game protocol (:class:`deduce.games.protocol.Game`).

The main question is the colour of every other player at once: an answer
is ``player=colour`` for each of them, in seat order, joined by spaces
(:func:`colouring_label`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from deduce.data.located import Invalid
from deduce.errors import DeduceError, InconsistentLog
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
from deduce.games.rose import check, csp, report, simulate, situation, styles
from deduce.games.rose.data import load_data_file
from deduce.games.rose.engine import REVEALS, RoseGame
from deduce.games.rose.exposure import DEFAULT_GUESSER, exposure_of
from deduce.games.rose.solve import RoseSolution, minimal_conflict, solve_rose
from deduce.games.simulate import Files, Simulator
from deduce.games.words import arity, next_line, pick
from deduce.logs.formats.rose import CAUSES, COLOURS, TRACKS
from deduce.logs.model import Event, GameLog, Header
from deduce.report import Table
from deduce.workers import Workers

USAGE = "why PLAYER COLOUR"


def colouring_label(players: tuple[str, ...], colours: tuple[str, ...]) -> str:
    """A Rose answer: ``player=colour`` for each player, in order, joined by spaces."""
    return " ".join(f"{p}={c}" for p, c in zip(players, colours))


def reported_players(log: GameLog) -> tuple[str, ...]:
    """The players whose colours the answer names: every seat but ``me``, in order."""
    return tuple(p for p in log.header.players if p != log.header.me)


def _build(players: int, files: Files) -> RoseGame:
    """The engine's game for ``players`` seats with the user's data file."""
    data = files.get("data")
    return RoseGame.create(players, load_data_file(data) if data else None)


class Rose(FromScratch):
    """The Name of the Rose (see :class:`deduce.games.protocol.Game`)."""

    name = "rose"
    question = "colours"
    pick = "the day-7 guess"
    accusation = "the first day-7 guess"
    soft = True
    engines: tuple[str, ...] = ()
    owned: Mapping[str, tuple[str, ...]] = {
        "play": ("model_file", "guesser"),
        "solve": ("model_file", "guesser"),
        "analyze": ("model_file",),
        "suggest": ("model_file", "hard", "situation", "guesser"),
        "check": ("model_file",),
    }
    why_usage = USAGE
    why_meaning = "why PLAYER COLOUR: why PLAYER cannot be COLOUR."
    why_arguments: tuple[tuple[str, ...], ...] = (("player",), ("colour",))
    simulator = Simulator("rose", simulate.BOTS, "monk", ("data",), _build, simulate.record_game)

    def load(self, kind: str, path: str) -> Any:
        """The behaviour model (``model``): a styles file, a single-style file or a name."""
        if kind == "model":
            return styles.load_model_file(path)
        raise DeduceError(f"{path}: rose has no {kind} file")

    def solve(
        self,
        log: GameLog,
        options: SolveOptions,
        warm: Any = None,
    ) -> RoseSolution:
        """The solution, with the observer's exposure (see :mod:`deduce.games.rose.exposure`)."""
        solution = solve_rose(log, hard=options.hard, model=options.model)
        guesser = options.guesser or DEFAULT_GUESSER
        exposure = exposure_of(log, solution, guesser, options.model)
        return replace(solution, exposure=exposure)

    def tables(self, solution: RoseSolution) -> list[Table]:  # noqa: D102
        return report.tables(solution)

    def compact_tables(self, solution: RoseSolution) -> list[Table]:  # noqa: D102
        return [report.compact_table(solution)]

    def answers(self, solution: RoseSolution) -> tuple[Mapping[str, Any], bool]:  # noqa: D102
        return {
            colouring_label(solution.players, colours): p for colours, p in solution.joint.items()
        }, True

    def picks(self, solution: RoseSolution) -> tuple[str, ...]:
        """The day-7 guesses (see :meth:`RoseSolution.tied_guesses`), as colourings."""
        return tuple(
            colouring_label(solution.players, tuple(g[p] for p in solution.players))
            for g in solution.tied_guesses()
        )

    def revealed(self, log: GameLog) -> Revealed | None:
        """The colouring, when every reported player's ``identity`` is in the log (first ones)."""
        reported = reported_players(log)
        first: dict[str, Event] = {}
        for event in log.events:
            if event.type == "identity":
                first.setdefault(event.get("player"), event)
        if any(p not in first for p in reported):
            return None
        label = colouring_label(reported, tuple(first[p].get("colour") for p in reported))
        return Revealed(label, max(first[p].line for p in reported))

    def is_accusation(self, event: Event) -> bool:  # noqa: D102
        return event.type == "guess"

    def truth_answer(self, log: GameLog, raw: Any) -> str:  # noqa: D102
        key = "identities"
        value = raw.get(key)
        if isinstance(value, dict):
            reported = reported_players(log)
            missing = [p for p in reported if not isinstance(value.get(p), str)]
            if missing:
                raise Invalid((key,), f"no colour for {missing[0]!r} in {key!r}")
            return colouring_label(reported, tuple(value[p] for p in reported))
        raise Invalid((key,) if key in raw else (), f"{key!r} is missing or malformed")

    def query(self, log: GameLog, words: Sequence[str]) -> Query:
        """``why PLAYER COLOUR``: identity PLAYER COLOUR."""
        arity(words, USAGE, 2, 2)
        player = pick(words[0], log.header.players, "player")
        colour = pick(words[1], COLOURS, "colour")
        hypothesis = Event("identity", {"player": player, "colour": colour}, next_line(log))
        seats = log.header.players
        hard = csp.hard_events(log.events)

        def consistent(kept: Collection[int]) -> bool:
            return csp.is_consistent(seats, [*(e for e in hard if e.line in kept), hypothesis])

        def minimal() -> set[int]:
            return set(minimal_conflict(seats, [*log.events, hypothesis])) - {hypothesis.line}

        return Query(
            f"{player} is {colour}",
            tuple(e.line for e in hard),
            consistent,
            minimal,
            lambda: csp.is_consistent(seats, log.events),
        )

    def words(self, header: Header, path: str) -> dict[str, tuple[str, ...]]:  # noqa: D102
        return {"colour": COLOURS, "monk": COLOURS, "track": TRACKS, "cause": CAUSES}

    def questions(self, players: tuple[str, ...]) -> tuple[Question, ...]:  # noqa: D102
        return ()

    def openings(self, me: str) -> tuple[Question, ...]:
        """Your colour (your identity card): the log's first event."""
        return (
            Question(
                f"identity {me}",
                f"Your colour: {', '.join(COLOURS[:-1])} or {COLOURS[-1]} (Enter to skip)",
                "ids",
                required=False,
            ),
        )

    def warnings(self, log: GameLog, options: SolveOptions) -> tuple[tuple[int, str], ...]:
        """A fourth reveal of one player: the rulebook has each reveal three markers."""
        seen: dict[str, int] = {}
        found = []
        for event in log.events:
            if event.type == "reveal":
                player = event.get("player")
                seen[player] = seen.get(player, 0) + 1
                if seen[player] == REVEALS + 1:
                    found.append(
                        (
                            event.line,
                            f"{player}'s fourth reveal: the rulebook has each "
                            f"player reveal {REVEALS} markers (after the first, third and "
                            "fifth days)",
                        )
                    )
        return tuple(found)

    def suggest(
        self,
        log: GameLog,
        options: SolveOptions,
        advice: AdviceOptions,
        solution: RoseSolution | None = None,
    ) -> Suggestion:
        """The decision at hand (``advice.situation``) ranked, or the reveal and the guesses.

        See :mod:`deduce.games.rose.situation`.
        """
        solution = solution or self.solve(log, options)
        if not solution.consistent:
            raise InconsistentLog(f"{log.path}: no history fits the log")
        return situation.suggestion(solution, advice.situation, advice.top)

    def check(  # noqa: D102
        self,
        table: RoseGame,
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
GAME: Game[RoseSolution] = Rose()
