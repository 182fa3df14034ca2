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
  :meth:`RoseSolution.best_guesses`) is right;
- *reliability* by decile (:mod:`deduce.games.reliability`): every colour
  given a chance strictly between 0 and 1 (certainties left out), and how
  often the colours of each decile were the truth;
- *styles*: the mean style posterior the reading gave (styles model only).

Every score is also kept per bot of the guessed player (``by_bot``): a
table of mixed bots says how the reading does on each way of playing.

The same cut logs, with their truths, are the samples the behaviour model is
fitted on (:func:`samples`): fit on one run's seeds, check on another's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from time import perf_counter
from typing import Any

from deduce.games.reliability import Reliability
from deduce.games.rose.behaviour import BehaviourModel, Sample
from deduce.games.rose.engine import RoseGame
from deduce.games.rose.simulate import record_game
from deduce.games.rose.solve import RoseSolution, solve_rose
from deduce.games.rose.styles import STYLES, StyleModel
from deduce.games.simulate import GameRecord, run_games
from deduce.logs.formats.rose import COLOURS
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import GameLog
from deduce.workers import Workers

#: The two readings compared: with the behaviour model, and hard events only.
READINGS: tuple[str, ...] = ("behaviour", "hard")


@dataclass(frozen=True)
class Tally:
    """Scores of one reading over some (log, other player) guesses.

    ``styles``: the summed style posterior of the ``styled`` guessed players
    who had one (empty when the reading has no styles); ``by_bot``: the same
    scores per bot of the guessed player (its own tallies have no ``by_bot``).
    """

    guesses: int = 0
    brier: float = 0.0
    right: int = 0
    joint_right: int = 0
    failures: tuple[str, ...] = ()
    reliability: Reliability = Reliability()
    styles: Mapping[str, float] = field(default_factory=dict)
    styled: int = 0
    by_bot: Mapping[str, Tally] = field(default_factory=dict)

    def __add__(self, other: Tally) -> Tally:
        styles = {
            s: self.styles.get(s, 0.0) + other.styles.get(s, 0.0)
            for s in STYLES
            if s in self.styles or s in other.styles
        }
        by_bot = {
            bot: self.by_bot.get(bot, Tally()) + other.by_bot.get(bot, Tally())
            for bot in sorted({*self.by_bot, *other.by_bot})
        }
        return Tally(
            self.guesses + other.guesses,
            self.brier + other.brier,
            self.right + other.right,
            self.joint_right + other.joint_right,
            self.failures + other.failures,
            self.reliability + other.reliability,
            styles,
            self.styled + other.styled,
            by_bot,
        )

    def to_json(self) -> dict[str, Any]:
        """Means over the guesses: Brier score, accuracy of both guesses; failures; tables."""
        n = self.guesses or 1
        gap = self.reliability.worst_gap()
        data = {
            "guesses": self.guesses,
            "brier": round(self.brier / n, 4),
            "accuracy": round(self.right / n, 4),
            "day7_accuracy": round(self.joint_right / n, 4),
            "soundness_failures": len(self.failures),
            "failures": list(self.failures[:20]),
            "reliability": self.reliability.to_json("colour_share"),
            "worst_gap": None if gap is None else round(gap, 4),
        }
        if self.styles:
            data["styles"] = {s: round(p / self.styled, 4) for s, p in self.styles.items()}
        if self.by_bot:
            data["by_bot"] = {bot: t.to_json() for bot, t in self.by_bot.items()}
        return data


def cut_before_guesses(log: GameLog) -> GameLog:
    """The log up to (not including) its first ``guess`` line."""
    events = log.events
    end = next((i for i, e in enumerate(events) if e.type == "guess"), len(events))
    return replace(log, events=events[:end])


def samples(record: GameRecord) -> list[Sample]:
    """Each player's log of the game cut before the guesses, with the true identities."""
    truth = record.truth["identities"]
    return [
        Sample(cut_before_guesses(parse_jsonl(text, f"game-{record.index:04d}/{p}.jsonl")), truth)
        for p, text in record.logs.items()
    ]


def score(
    solution: RoseSolution,
    truth: Mapping[str, str],
    where: str,
    bots: Mapping[str, str] | None = None,
) -> Tally:
    """One reading of one log, scored against the truth for every reported player.

    ``bots``: each player's bot, for the scores per bot (``bot`` when not given).
    """
    if not solution.consistent:
        return Tally(failures=(f"{where}: the solver found the log inconsistent",))
    joint = solution.best_guesses()
    tally = Tally()
    for player in solution.players:
        row, colour = solution.probabilities[player], truth[player]
        chances = {c: float(p) for c, p in row.items()}
        brier = sum((chances.get(c, 0.0) - (c == colour)) ** 2 for c in COLOURS)
        failure = () if colour in row else (f"{where}: {player}'s colour {colour} eliminated",)
        uncertain = {c: p for c, p in chances.items() if 0 < p < 1}
        styles = solution.styles.get(player, {})
        one = Tally(
            1,
            brier,
            solution.guess[player] == colour,
            joint[player] == colour,
            failure,
            Reliability().add(uncertain, colour),
            styles,
            int(bool(styles)),
        )
        tally += replace(one, by_bot={(bots or {}).get(player, "bot"): one})
    return tally


@dataclass(frozen=True)
class GameCheck:
    """One game's tallies, per reading, over every player's log."""

    index: int
    tallies: dict[str, Tally]
    seconds: float


def check_game(
    game: RoseGame,
    index: int,
    seed: int,
    lineup: Sequence[str],
    model: BehaviourModel | StyleModel | None,
) -> GameCheck:
    """Play game ``index`` of run ``seed``; score both readings of every player's log."""
    started = perf_counter()
    record = record_game(game, index, seed, lineup)
    bots = record.truth["bots"]
    tallies = dict.fromkeys(READINGS, Tally())
    for sample in samples(record):
        where = f"game {index}, {sample.log.header.me}"
        for reading in READINGS:
            solution = solve_rose(sample.log, hard=reading == "hard", model=model)
            tallies[reading] += score(solution, sample.truth, where, bots)
    return GameCheck(index, tallies, perf_counter() - started)


def check_games(
    game: RoseGame,
    games: int,
    seed: int,
    lineup: Sequence[str],
    model: BehaviourModel | StyleModel | None = None,
    workers: Workers | int = 1,
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
        return {
            "game": "rose",
            "players": self.players,
            "games": self.games,
            "soundness_failures": len(self.failures),
            **{r: self.tallies[r].to_json() for r in READINGS},
            "seconds": round(self.seconds, 3),
        }
