"""The Black Rose solver against the truth of simulated games: soundness, Brier scores, wins.

The positions checked are the votes: at every Lying Down that comes to a
vote, each non-Rector player's log as it stood when they voted (that Lying
Down's claims included). The solver reads each position twice, weighing the
claims with the liar model and with hard events only, and each reading is
scored against the truth:

- *soundness*: the true pair and the true Possessed (or nobody) keep a
  positive probability (a failure otherwise; there must be none);
- *Brier score of the accomplices*: the mean over the seven suspects of
  ``(p - [the suspect is an accomplice])²``;
- *Brier score of the Possessed*: ``Σ over the possible answers (each
  non-Rector player, and nobody with 3 players) of (p - [it is the truth])²``;
- how often the most probable pair is the true one;
- *reliability tables* by decile (:mod:`deduce.games.reliability`): one of
  the suspects' accomplice chances, each suspect a yes/no guess whose
  chance ``p`` is the one answer added (so a decile's true share is how
  often its suspects were accomplices), and one of the Possessed chances
  (every possible answer of a position, nobody included). Certain chances
  (0 or 1: the hard facts) are left out: they are right by construction,
  and would swamp the first and last deciles. The Possessed table is also
  broken down by the bot of the player each chance is about
  (``possessed_by_bot``; ``nobody`` for the hidden card).

Each game also says which side won and in which round, so a run compares
the investigators' win rate between bots that follow the advice and bots
that do not (``--bots advised`` against ``--bots cautious``).

The same games' claims, with the true roles and pair, are the samples the
liar model is fitted on (:func:`claim_samples`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from time import perf_counter
from typing import Any, cast

from deduce.games.blackrose.claims import ClaimsModel, Sample, claims_of, default_model
from deduce.games.blackrose.csp import Pair
from deduce.games.blackrose.engine import BlackRoseGame, BlackRoseState
from deduce.games.blackrose.observe import observe
from deduce.games.blackrose.simulate import play
from deduce.games.blackrose.solve import NOBODY, BlackRoseSolution, solve_blackrose
from deduce.games.reliability import Reliability
from deduce.games.simulate import run_games
from deduce.logs.jsonl import parse_jsonl
from deduce.workers import Workers

#: The two readings compared: weighing the claims, and hard events only.
READINGS: tuple[str, ...] = ("claims", "hard")
#: The sides that can win.
SIDES: tuple[str, ...] = ("investigators", "possessed", "rector")


def _uncertain(chance: float) -> bool:
    """Whether a chance is neither 0 nor 1 (a certainty is left out of the reliability)."""
    return 0 < chance < 1


def _merge(a: Mapping[str, Reliability], b: Mapping[str, Reliability]) -> dict[str, Reliability]:
    """Two tables per bot, summed bot by bot."""
    return {
        bot: a.get(bot, Reliability()) + b.get(bot, Reliability())
        for bot in dict.fromkeys([*a, *b])
    }


@dataclass(frozen=True)
class Tally:
    """Scores of one reading over some positions."""

    positions: int = 0
    suspects_brier: float = 0.0
    possessed_brier: float = 0.0
    pair_right: int = 0
    failures: tuple[str, ...] = ()
    accomplices: Reliability = Reliability()
    possessed: Reliability = Reliability()
    possessed_by_bot: Mapping[str, Reliability] = field(default_factory=dict)

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.positions + other.positions,
            self.suspects_brier + other.suspects_brier,
            self.possessed_brier + other.possessed_brier,
            self.pair_right + other.pair_right,
            self.failures + other.failures,
            self.accomplices + other.accomplices,
            self.possessed + other.possessed,
            _merge(self.possessed_by_bot, other.possessed_by_bot),
        )

    def to_json(self) -> dict[str, Any]:
        """Means over the positions, the failures and the reliability tables."""
        n = self.positions or 1
        gaps = {
            "accomplices": self.accomplices.worst_gap(),
            "possessed": self.possessed.worst_gap(),
        }
        return {
            "positions": self.positions,
            "accomplices_brier": round(self.suspects_brier / n, 4),
            "possessed_brier": round(self.possessed_brier / n, 4),
            "pair_accuracy": round(self.pair_right / n, 4),
            "soundness_failures": len(self.failures),
            "failures": list(self.failures[:20]),
            "reliability": {
                "accomplices": self.accomplices.to_json("accomplice_share"),
                "possessed": self.possessed.to_json("possessed_share"),
                "possessed_by_bot": {
                    bot: table.to_json("possessed_share")
                    for bot, table in sorted(self.possessed_by_bot.items())
                },
                "worst_gap": {k: None if g is None else round(g, 4) for k, g in gaps.items()},
            },
        }


def vote_cuts(state: BlackRoseState, seat: int) -> list[int]:
    """How many lines ``seat``'s log had at each vote of the game."""
    player, players = state.game.players[seat], state.game.players
    lines, cuts = 0, []
    for event in state.events:
        if event["type"] == "votes":
            cuts.append(lines)
        lines += len(observe(event, player, players))
    return cuts


def score(
    solution: BlackRoseSolution,
    pair: Pair,
    possessed: str | None,
    where: str,
    bots: Mapping[str, str] | None = None,
) -> Tally:
    """One reading of one position, scored against the true pair and Possessed.

    ``bots``: each player's bot, for the Possessed table per bot (``bot`` when not given).
    """
    if not solution.consistent:
        return Tally(1, failures=(f"{where}: the solver found the log inconsistent",))
    failures = []
    if not solution.pairs.get(pair):
        failures.append(f"{where}: the true accomplices {'+'.join(pair)} eliminated")
    if not solution.possessed.get(possessed):
        failures.append(f"{where}: the true Possessed ({possessed or 'nobody'}) eliminated")
    suspects = sum((float(p) - (s in pair)) ** 2 for s, p in solution.suspects.items())
    answers = set(solution.possessed) | {possessed}
    possessed_brier = sum(
        (float(solution.possessed.get(a, Fraction(0))) - (a == possessed)) ** 2 for a in answers
    )
    best = next(iter(solution.pairs))
    accomplices = Reliability()
    for suspect, p in solution.suspects.items():
        if _uncertain(float(p)):
            accomplices = accomplices.add({"yes": float(p)}, "yes" if suspect in pair else "no")
    truth = NOBODY if possessed is None else possessed
    chances = {
        NOBODY if who is None else who: float(p)
        for who, p in solution.possessed.items()
        if _uncertain(float(p))
    }
    by_bot: dict[str, Reliability] = {}
    for who, chance in chances.items():
        bot = "nobody" if who == NOBODY else (bots or {}).get(who, "bot")
        by_bot[bot] = by_bot.get(bot, Reliability()).add({who: chance}, truth)
    return Tally(
        1,
        suspects / len(solution.suspects),
        possessed_brier,
        best == pair,
        tuple(failures),
        accomplices,
        Reliability().add(chances, truth),
        by_bot,
    )


@dataclass(frozen=True)
class GameCheck:
    """One game: its tallies per reading, the side that won and the rounds played."""

    index: int
    tallies: dict[str, Tally]
    winner: str | None
    rounds: int
    seconds: float


def _true_pair(state: BlackRoseState) -> Pair:
    """The Rector's two accomplices, sorted (chosen at setup, so known in any played game)."""
    return cast(Pair, tuple(sorted(state.accomplices)))


def _truth(state: BlackRoseState) -> tuple[Pair, str | None]:
    """The true pair (sorted) and the Possessed's name (None: nobody)."""
    names = state.game.players
    possessed = next((names[s] for s, r in state.roles.items() if r == "possessed"), None)
    return _true_pair(state), possessed


def check_game(
    game: BlackRoseGame, index: int, seed: int, lineup: Sequence[str], model: ClaimsModel | None
) -> GameCheck:
    """Play game ``index`` of run ``seed``; score both readings of every vote position."""
    started = perf_counter()
    state = play(game, index, seed, lineup)
    pair, possessed = _truth(state)
    bots = dict(zip(game.players, lineup))
    tallies = dict.fromkeys(READINGS, Tally())
    for seat, player in enumerate(game.players):
        if seat == game.rector:
            continue
        log = parse_jsonl(game.log_text(player, state.logs[seat]), f"{player}.jsonl")
        for cut in vote_cuts(state, seat):
            position = replace(log, events=log.events[:cut])
            where = f"game {index}, {player}, after {cut} events"
            for reading in READINGS:
                solution = solve_blackrose(
                    position, hard=reading == "hard", model=model or default_model(), styles=False
                )
                tallies[reading] += score(solution, pair, possessed, where, bots)
    return GameCheck(index, tallies, state.winner, state.round, perf_counter() - started)


def check_games(
    game: BlackRoseGame,
    games: int,
    seed: int,
    lineup: Sequence[str],
    model: ClaimsModel | None = None,
    workers: Workers | int = 1,
) -> Iterator[GameCheck]:
    """Check ``games`` games in order, where ``workers`` says (see ``run_games``)."""
    return run_games(check_game, game, games, seed, lineup, model, workers=workers)


def claim_samples(state: BlackRoseState) -> Sample:
    """The claims of a finished game, with every player's true role and the true pair."""
    game = state.game
    log = parse_jsonl(
        game.log_text(game.players[game.rector], state.logs[game.rector]), "rector.jsonl"
    )
    roles = {game.players[s]: r for s, r in state.roles.items()}
    return Sample(claims_of(log.events), roles, _true_pair(state))


@dataclass(frozen=True)
class CheckSummary:
    """Totals of a check run: tallies per reading and the winning sides."""

    players: int
    games: int
    tallies: dict[str, Tally] = field(default_factory=dict)
    winners: Mapping[str, int] = field(default_factory=dict)
    rounds: float = 0.0
    seconds: float = 0.0

    @classmethod
    def of(cls, players: int, checks: Sequence[GameCheck]) -> CheckSummary:
        """Sum the games' tallies and count the winners."""
        tallies = {r: sum((c.tallies[r] for c in checks), Tally()) for r in READINGS}
        winners = Counter(c.winner or "nobody" for c in checks)
        rounds = sum(c.rounds for c in checks) / (len(checks) or 1)
        return cls(
            players, len(checks), tallies, dict(winners), rounds, sum(c.seconds for c in checks)
        )

    @property
    def failures(self) -> tuple[str, ...]:
        """Every soundness failure, of either reading."""
        return tuple(f for r in READINGS for f in self.tallies[r].failures)

    def win_rates(self) -> dict[str, float]:
        """The share of games each side won."""
        return {side: round(self.winners.get(side, 0) / (self.games or 1), 4) for side in SIDES}

    def to_json(self) -> dict[str, Any]:
        """The summary as ``deduce check blackrose --json`` prints it."""
        return {
            "game": "blackrose",
            "players": self.players,
            "games": self.games,
            "soundness_failures": len(self.failures),
            **{r: self.tallies[r].to_json() for r in READINGS},
            "wins": self.win_rates(),
            "mean_rounds": round(self.rounds, 3),
            "seconds": round(self.seconds, 3),
        }
