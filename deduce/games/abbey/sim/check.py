"""The solver against the truth: simulated games, every player's log, position by position.

For each game, each player's log is cut after every ``every``-th event (the
whole log always included) and each cut is checked against what was true
at that moment (the engine records every card's holder after each transfer):

- the *model check* builds the constraint model of the cut, propagates it
  and asks whether the true history (every card's holder at every epoch)
  still satisfies it: a failure means a rule or an inference eliminated
  the truth;
- the *solve check* (unless ``fast``) runs the whole solve within
  ``budget`` seconds and fails if the true culprit or any card's true
  current holder is missing, or given probability 0 by an exact answer.

Each solve made before the culprit became public also scores the culprit
probabilities against the truth (:class:`Calibration`), exact positions and
estimated ones apart: the Brier score beside that of equal chances, the
share of positions whose favourite was the culprit beside the share the
chances predicted, and a reliability table by probability decile. The
spec's prior assumes random choices; the bots choose (which cards to pass
at Mass, where to go), and a caught intruder gives back the very card taken
while the log records a random ``take``, so this measures how far that
matters; positions after such a catch are counted.

It also records how many events each log needed before the culprit was
the only candidate left (counting only events before the culprit became
public by a correct accusation or the reveal): by the solve, or with
``fast`` by propagation alone, which may see it later than the solve.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from time import perf_counter
from typing import Any

from deduce.games.abbey.rules.engine import AbbeyGame, AbbeyState
from deduce.games.abbey.sim.simulate import play
from deduce.games.abbey.solver.model import build_model, is_history
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import Warm
from deduce.games.abbey.solver.solve import AbbeySolution, solve_abbey
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition, holder_names
from deduce.games.reliability import Reliability
from deduce.games.simulate import run_games
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import GameLog
from deduce.workers import Workers


@dataclass(frozen=True)
class Calibration:
    """How culprit probabilities held against the truth, summed over positions.

    ``brier``: the sum over positions of ``sum_c (p_c - [c is the culprit])^2``;
    ``uniform``: the same if every candidate had been equally likely (what
    the candidates alone say, without the prior's weights); ``favourite``:
    positions whose most probable suspect was the culprit (a tie of ``k``
    counts ``1/k``), and ``expected``: the same as the chances predicted it
    (the sum of the favourite's chance); ``error``: the sum of each
    position's error bound (0 for exact chances); ``bins``: the
    reliability table of the candidates' chances (see
    :mod:`deduce.games.reliability`).
    """

    positions: int = 0
    brier: float = 0.0
    uniform: float = 0.0
    favourite: float = 0.0
    expected: float = 0.0
    error: float = 0.0
    bins: Reliability = Reliability()

    def add(self, culprit: dict[str, float], truth: str, error: float = 0.0) -> Calibration:
        """The calibration with one more position (``culprit``: the candidates' chances)."""
        brier = sum((p - (card == truth)) ** 2 for card, p in culprit.items())
        brier += 0.0 if truth in culprit else 1.0  # the truth ruled out: a soundness failure
        uniform = 1 - 1 / len(culprit) if truth in culprit else 1 + 1 / len(culprit)
        top = max(culprit.values())
        leaders = [c for c, p in culprit.items() if p == top]
        return Calibration(
            self.positions + 1,
            self.brier + brier,
            self.uniform + uniform,
            self.favourite + (truth in leaders) / len(leaders),
            self.expected + top,
            self.error + error,
            self.bins.add(culprit, truth),
        )

    def __add__(self, other: Calibration) -> Calibration:
        return Calibration(
            self.positions + other.positions,
            self.brier + other.brier,
            self.uniform + other.uniform,
            self.favourite + other.favourite,
            self.expected + other.expected,
            self.error + other.error,
            self.bins + other.bins,
        )

    def to_json(self) -> dict[str, Any]:
        """Brier scores, favourite shares and the reliability table, as ``check --json`` prints."""
        n = max(self.positions, 1)
        return {
            "positions": self.positions,
            "brier": round(self.brier / n, 4),
            "uniform_brier": round(self.uniform / n, 4),
            "favourite_share": round(self.favourite / n, 4),
            "expected_favourite_share": round(self.expected / n, 4),
            "mean_error": round(self.error / n, 4),
            "reliability": self.bins.to_json("culprit_share"),
        }


@dataclass(frozen=True)
class LogCheck:
    """The checks of one player's log in one game."""

    game: int
    player: str
    before_reveal: int  # events before the culprit became public
    positions: int
    exact: int
    failures: tuple[str, ...]
    determined: int | None
    seconds: float
    calibration: Calibration = Calibration()  # the exact positions
    estimated: Calibration = Calibration()  # the estimated ones, by their point estimates
    after_catch: int = 0  # scored positions that came after an intruder was caught
    catches: int = 0  # intruders caught owing a card back, in the whole game


def check_log(
    state: AbbeyState, index: int, seat: int, budget: float, every: int, fast: bool
) -> LogCheck:
    """Check one player's log of a finished game at every ``every``-th cut and the end."""
    started = perf_counter()
    game = state.game
    player = game.players[seat]
    log = parse_jsonl(
        game.log_text(player, state.logs[seat]), f"game-{index:04d}/{player}.jsonl", game.deck
    )
    snapshots = state.holders_after
    transfers = sorted(snapshots)
    public = _public_from(log)
    failures: list[str] = []
    positions = exact = 0
    determined = None
    calibration = estimated = Calibration()
    after_catch = 0
    cuts = sorted({*range(every, len(log.events) + 1, every), len(log.events)})
    warm = Warm()
    for cut in cuts:
        prefix = replace(log, events=log.events[:cut])
        source = state.sources[seat][cut - 1]
        epochs = [snapshots[t] for t in transfers if t <= source]
        where = f"game {index}, {player}, after line {log.events[cut - 1].line}"
        positions += 1
        problems, candidates = _model_check(prefix, epochs, where)
        failures += problems
        if fast:
            if determined is None and cut <= public and candidates == 1:
                determined = cut
            continue
        solution = solve_abbey(prefix, game.deck, budget=budget, seed=index, warm=warm)
        exact += solution.exact
        failures += _solve_check(solution, epochs[-1], where)
        if solution.consistent and cut <= public:
            truth = next(c for c, h in epochs[-1].items() if h == "culprit")
            chances = {c: float(p) for c, p in solution.culprit.items()}
            if solution.exact:
                calibration = calibration.add(chances, truth)
            else:
                estimated = estimated.add(chances, truth, solution.error)
            after_catch += any(catch <= source for catch in state.catches)
        if determined is None and cut <= public and len(solution.culprit) == 1:
            determined = cut
    return LogCheck(
        index,
        player,
        public,
        positions,
        exact,
        tuple(failures),
        determined,
        perf_counter() - started,
        calibration,
        estimated,
        after_catch,
        len(state.catches),
    )


def _public_from(log: GameLog) -> int:
    """Events before the culprit became public (a correct accusation or the reveal)."""
    for i, event in enumerate(log.events):
        if event.type == "culprit" or (event.type == "accuse" and event.get("correct")):
            return i
    return len(log.events)


def _model_check(
    log: GameLog, epochs: Sequence[dict[str, str]], where: str
) -> tuple[list[str], int]:
    """Whether the propagated model of ``log`` still holds the true history; its candidates."""
    position = AbbeyPosition.of_log(log)
    setup = position.setup
    model = build_model(position)
    index = {name: i for i, name in enumerate(holder_names(setup))}
    history = [tuple(index[epoch[card]] for epoch in epochs) for card in setup.deck.ids]
    if not propagate(model):
        return [f"{where}: the model has no history at all"], 0
    candidates = sum(CULPRIT in d.nodes[-1] for d in model.domains)
    if not is_history(model, history):
        return [f"{where}: the model excludes the true history"], candidates
    return [], candidates


def _solve_check(solution: AbbeySolution, holders: dict[str, str], where: str) -> list[str]:
    """Whether the solve kept the truth: the culprit and every card's true holder."""
    if not solution.consistent:
        return [f"{where}: the solve found the log inconsistent"]
    problems = []
    for card, holder in holders.items():
        row = solution.holders.get(card, {})
        if holder not in row or (solution.exact and not row[holder]):
            problems.append(f"{where}: {card}'s true holder {holder} was eliminated")
    return problems


def check_game(
    game: AbbeyGame,
    index: int,
    seed: int,
    lineup: Sequence[str],
    budget: float,
    every: int,
    fast: bool,
) -> list[LogCheck]:
    """Play game ``index`` of run ``seed`` and check every player's log."""
    state = play(game, index, seed, lineup)
    return [check_log(state, index, seat, budget, every, fast) for seat in range(len(game.players))]


def check_games(
    game: AbbeyGame,
    games: int,
    seed: int,
    lineup: Sequence[str],
    budget: float,
    every: int = 1,
    fast: bool = False,
    workers: Workers | int = 1,
) -> Iterator[list[LogCheck]]:
    """Check ``games`` games in order, where ``workers`` says (see ``run_games``)."""
    return run_games(check_game, game, games, seed, lineup, budget, every, fast, workers=workers)


@dataclass(frozen=True)
class CheckSummary:
    """Totals over checked logs: failures, exactness and events until the culprit was known."""

    games: int
    logs: int
    positions: int
    exact: int
    failures: tuple[str, ...]
    determined: tuple[int, ...]
    undetermined: int
    seconds: float
    calibration: Calibration = Calibration()
    estimated: Calibration = Calibration()
    after_catch: int = 0
    catches: int = 0

    @classmethod
    def of(cls, checks: Sequence[LogCheck]) -> CheckSummary:
        """Summarise a run's log checks."""
        found = sorted(c.determined for c in checks if c.determined is not None)
        return cls(
            len({c.game for c in checks}),
            len(checks),
            sum(c.positions for c in checks),
            sum(c.exact for c in checks),
            tuple(f for c in checks for f in c.failures),
            tuple(found),
            len(checks) - len(found),
            sum(c.seconds for c in checks),
            sum((c.calibration for c in checks), Calibration()),
            sum((c.estimated for c in checks), Calibration()),
            sum(c.after_catch for c in checks),
            sum({c.game: c.catches for c in checks}.values()),
        )

    def spread(self) -> dict[str, float | None]:
        """Events until the culprit was known: min, quartiles, 90th percentile, max."""
        if not self.determined:
            return dict.fromkeys(("min", "q1", "median", "q3", "p90", "max"))
        values = list(self.determined)
        cuts = (
            statistics.quantiles(values, n=20, method="inclusive")
            if len(values) > 1
            else [values[0]] * 19
        )
        return {
            "min": values[0],
            "q1": cuts[4],
            "median": statistics.median(values),
            "q3": cuts[14],
            "p90": cuts[17],
            "max": values[-1],
        }

    def to_json(self) -> dict[str, Any]:
        """The summary as ``deduce check --json`` prints it."""
        return {
            "game": "abbey",
            "games": self.games,
            "logs": self.logs,
            "positions": self.positions,
            "soundness_failures": len(self.failures),
            "failures": list(self.failures[:20]),
            "exact_positions": self.exact,
            "determined_logs": len(self.determined),
            "undetermined_logs": self.undetermined,
            "events_to_culprit": self.spread(),
            "calibration": self.calibration.to_json(),
            "calibration_estimated": self.estimated.to_json(),
            "catches": self.catches,
            "positions_after_catch": self.after_catch,
            "seconds": round(self.seconds, 3),
        }
