"""The Rose solver against the truth of simulated games: soundness, Brier score, guesses.

Each player's log of a finished game is cut where the seventh day's guesses
begin (its first ``guess`` line): the moment that player must guess every
other player's colour. The solver reads that position twice, with the
behaviour model (soft evidence) and with the hard events only, and each
reading is scored for every other player:

- *soundness*: the true colour is a candidate (a failure otherwise: the
  solver eliminated the truth; there must be none);
- *Brier score*: ``Σ over the six colours of (p - [colour is the truth])²``:
  0 for a sure right answer, 2 for a sure wrong one, 5/6 for knowing
  nothing beyond "one of six";
- *accuracy*: whether the most probable colour is the truth, and whether the
  day-7 guess (one colour per player, all different, best in expectation;
  :meth:`RoseSolution.best_guesses`) is right.

The same cut logs, with their truths, are the samples the behaviour model is
fitted on (:func:`samples`): fit on one run's seeds, check on another's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from time import perf_counter
from typing import Any

from deduce.games.rose.behaviour import BehaviourModel, Sample
from deduce.games.rose.engine import RoseGame
from deduce.games.rose.simulate import record_game
from deduce.games.rose.solve import RoseSolution, solve_rose
from deduce.games.simulate import GameRecord, run_games
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import GameLog
from deduce.logs.vocabulary.rose import COLOURS
from deduce.workers import Workers

#: The two readings compared: with the behaviour model, and hard events only.
READINGS: tuple[str, ...] = ("behaviour", "hard")


@dataclass(frozen=True)
class Tally:
    """Scores of one reading over some (log, other player) guesses."""

    guesses: int = 0
    brier: float = 0.0
    right: int = 0
    joint_right: int = 0
    failures: tuple[str, ...] = ()

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.guesses + other.guesses, self.brier + other.brier,
                     self.right + other.right, self.joint_right + other.joint_right,
                     self.failures + other.failures)

    def to_json(self) -> dict[str, Any]:
        """Means over the guesses: Brier score, accuracy of both guesses; failures."""
        n = self.guesses or 1
        return {"guesses": self.guesses, "brier": round(self.brier / n, 4),
                "accuracy": round(self.right / n, 4),
                "day7_accuracy": round(self.joint_right / n, 4),
                "soundness_failures": len(self.failures), "failures": list(self.failures[:20])}


def cut_before_guesses(log: GameLog) -> GameLog:
    """The log up to (not including) its first ``guess`` line."""
    events = log.events
    end = next((i for i, e in enumerate(events) if e.type == "guess"), len(events))
    return replace(log, events=events[:end])


def samples(record: GameRecord) -> list[Sample]:
    """Each player's log of the game cut before the guesses, with the true identities."""
    truth = record.truth["identities"]
    return [Sample(cut_before_guesses(parse_jsonl(text, f"game-{record.index:04d}/{p}.jsonl")),
                   truth) for p, text in record.logs.items()]


def score(solution: RoseSolution, truth: Mapping[str, str], where: str) -> Tally:
    """One reading of one log, scored against the truth for every reported player."""
    if not solution.consistent:
        return Tally(failures=(f"{where}: the solver found the log inconsistent",))
    joint = solution.best_guesses()
    tally = Tally()
    for player in solution.players:
        row, colour = solution.probabilities[player], truth[player]
        brier = sum((float(row.get(c, Fraction(0))) - (c == colour)) ** 2 for c in COLOURS)
        failure = () if colour in row else (f"{where}: {player}'s colour {colour} eliminated",)
        tally += Tally(1, brier, solution.guess[player] == colour, joint[player] == colour,
                       failure)
    return tally


@dataclass(frozen=True)
class GameCheck:
    """One game's tallies, per reading, over every player's log."""

    index: int
    tallies: dict[str, Tally]
    seconds: float


def check_game(game: RoseGame, index: int, seed: int, lineup: Sequence[str],
               model: BehaviourModel | None) -> GameCheck:
    """Play game ``index`` of run ``seed``; score both readings of every player's log."""
    started = perf_counter()
    record = record_game(game, index, seed, lineup)
    tallies = dict.fromkeys(READINGS, Tally())
    for sample in samples(record):
        where = f"game {index}, {sample.log.header.me}"
        for reading in READINGS:
            solution = solve_rose(sample.log, hard=reading == "hard", model=model)
            tallies[reading] += score(solution, sample.truth, where)
    return GameCheck(index, tallies, perf_counter() - started)


def check_games(game: RoseGame, games: int, seed: int, lineup: Sequence[str],
                model: BehaviourModel | None = None, workers: Workers | int = 1
                ) -> Iterator[GameCheck]:
    """Check ``games`` games in order, where ``workers`` says (see ``run_games``)."""
    return run_games(check_game, game, games, seed, lineup, model, workers=workers)


@dataclass(frozen=True)
class CheckSummary:
    """Totals of a check run, per reading."""

    players: int
    games: int
    tallies: dict[str, Tally] = field(default_factory=dict)
    seconds: float = 0.0

    @classmethod
    def of(cls, players: int, checks: Sequence[GameCheck]) -> CheckSummary:
        """Sum the games' tallies."""
        tallies = {r: sum((c.tallies[r] for c in checks), Tally()) for r in READINGS}
        return cls(players, len(checks), tallies, sum(c.seconds for c in checks))

    @property
    def failures(self) -> tuple[str, ...]:
        """Every soundness failure, of either reading."""
        return tuple(f for r in READINGS for f in self.tallies[r].failures)

    def to_json(self) -> dict[str, Any]:
        """The summary as ``deduce check rose --json`` prints it."""
        return {"game": "rose", "players": self.players, "games": self.games,
                "soundness_failures": len(self.failures),
                **{r: self.tallies[r].to_json() for r in READINGS},
                "seconds": round(self.seconds, 3)}
