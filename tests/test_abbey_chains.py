"""The block Gibbs chains against brute force: one move, long chains, pools, processes.

One move must draw the block's paths from their exact law given the rest
(checked against every completion of the rest, enumerated), in Python and
in C; long chains must find the exact chances within their bounds; the
pool's sets must be smallest; chains run in processes must give what the
same chains give one after another.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product
from time import perf_counter

import numpy as np
import pytest
from abbey_random import random_game, random_spectator_game
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from deduce.errors import LogError
from deduce.games.abbey.solver import gibbs
from deduce.games.abbey.solver.chains import (
    GROUPS,
    MOST_BATCHES,
    Batches,
    Carry,
    Farm,
    estimating_by_chains,
    halves,
    plan_chains,
    pooled,
)
from deduce.games.abbey.solver.count.estimate import STUDENT, Estimate
from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.count.turns import drive
from deduce.games.abbey.solver.gibbs import Blocks, Compiled, Layout, Walk
from deduce.games.abbey.solver.model import build_model, is_history
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.changes import changing_sets, nearest
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.solve import FarmWatch, Reporter
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition, build_timeline

checks = settings(deadline=None, max_examples=25, derandomize=True)
TINY = {"min_cards": 8, "max_cards": 10, "max_deals": 80_000, "max_events": 12}
needs_kernel = pytest.mark.skipif(not gibbs.compiled(), reason="the C kernel was not built")


def _game(seed):
    """A tiny game (player's or spectator's, by seed), modelled, with a SAT model; or None."""
    rng = random.Random(seed)
    setup, events, _ = random_spectator_game(rng) if seed % 2 else random_game(rng, **TINY)
    try:
        timeline = build_timeline(setup, events, "game")
    except LogError:
        return None
    position = AbbeyPosition(setup, tuple(events), timeline)
    model = build_model(position)
    if not propagate(model):
        return None
    sat = sat_model(position)
    possible = sat.closure()
    if possible is None or len(Layout(model).free) < 2:
        return None
    return model, sat, possible


def _games(seeds):
    """The games of :func:`_game` for ``seeds``, those with a history."""
    return (game for game in map(_game, seeds) if game is not None)


def _completions(model, history, block):
    """Every consistent history that differs from ``history`` only on ``block``: brute force."""
    found = []
    for paths in product(*(model.domains[c].paths() for c in block)):
        candidate = list(history)
        for c, path in zip(block, paths):
            candidate[c] = path
        if is_history(model, candidate):
            found.append(tuple(candidate[c] for c in block))
    return found


@checks
@given(st.integers(0, 10**6), st.integers(2, 3))
def test_one_move_draws_the_blocks_exact_law_given_the_rest(seed, size):
    game = _game(seed)
    assume(game is not None)
    model, sat, _ = game
    layout = Layout(model)
    rng = random.Random(seed)
    start = sat.witness(rng=rng)
    block = sorted(rng.sample(layout.free, min(size, len(layout.free))))
    completions = _completions(model, start, block)
    assume(len(completions) <= 40)
    # the recorded law of the block's current holders is exact
    walk = Walk(layout, start, random.Random(seed))
    walk.redraw(block)
    sums = walk.take()
    for i, c in enumerate(block):
        exact = Counter(paths[i][-1] for paths in completions)
        for h in range(layout.holders):
            assert sums[c][h] == pytest.approx(exact[h] / len(completions))
    # and the drawn paths are uniform over the completions
    draws = Counter()
    for n in range(60 * len(completions)):
        walk = Walk(layout, start, random.Random(n))
        walk.redraw(block)
        assert is_history(model, walk.paths)
        draws[tuple(walk.paths[c] for c in block)] += 1
    assert set(draws) <= set(completions)
    expected = 60
    assert all(abs(draws[paths] - expected) < 5 * expected**0.5 for paths in completions)


def _long_run(model, sat, possible, seed, python):
    layout = Layout(model)
    plan = plan_chains(layout, sat, possible, seed, chains=6)
    if python:
        chains = []
        for r in range(6):
            chain = plan.chain(r)
            chain.walk = Walk(
                layout, plan.starts[r], random.Random(plan.seeds[r]), Blocks(layout.free, plan.pool)
            )
            chains.append(chain)
    else:
        chains = [plan.chain(r) for r in range(6)]
    for _ in range(40):
        for chain in chains:
            chain.run(20)
    for chain in chains:
        assert is_history(model, [tuple(int(h) for h in p) for p in chain.walk.paths])
    return pooled([chain.batches for chain in chains])


@pytest.mark.parametrize("python", [True, pytest.param(False, marks=needs_kernel)])
def test_long_chains_find_the_exact_chances_within_their_bounds(python):
    """On tiny games, pooled chains match the exact count, the culprit within its bound."""
    pairs = covered = games = 0
    worst = 0.0
    for seed in range(40 if not python else 16):
        game = _game(seed)
        if game is None:
            continue
        model, sat, possible = game
        exact = count_histories(model)
        found = _long_run(model, sat, possible, seed, python)
        assert found is not None
        games += 1
        for c, row in enumerate(exact.probabilities()):
            for h, p in row.items():
                error = abs(float(p) - found.probabilities[c].get(h, 0.0))
                worst = max(worst, error)
                if h == CULPRIT:
                    pairs += 1
                    covered += error <= found.culprit_error
    assert games >= 10
    assert covered >= 0.9 * pairs
    assert worst < 0.15


@needs_kernel
def test_the_compiled_walk_keeps_consistent_histories_and_its_tallies():
    for seed, (model, sat, possible) in enumerate(_games(range(30))):
        layout = Layout(model)
        plan = plan_chains(layout, sat, possible, seed, chains=2)
        walk = Compiled(layout, plan.starts[0], random.Random(1), Blocks(layout.free, plan.pool))
        for _ in range(20):
            walk.advance(10)
            paths = [tuple(int(h) for h in p) for p in walk.paths]
            assert is_history(model, paths)
            assert list(walk.value) == [
                sum(1 for c in o.cards if paths[c][o.time] == o.holder) for o in layout.observations
            ]
            assert paths[walk.culprit][-1] == CULPRIT
        sums = walk.take()
        assert sum(map(sum, sums)) == pytest.approx(200 * layout.cards)


def _differs(history, other):
    return {c for c, (a, b) in enumerate(zip(history, other)) if a != b}


@checks
@given(st.integers(0, 10**6))
def test_the_pool_sets_are_the_fewest_cards_that_change_the_culprit(seed):
    game = _game(seed)
    assume(game is not None)
    model, sat, possible = game
    layout = Layout(model)
    start = sat.witness(rng=random.Random(seed))
    culprit = next(c for c, p in enumerate(start) if p[-1] == CULPRIT)
    for y in [c for c, row in enumerate(possible) if CULPRIT in row and c != culprit][:2]:
        (found,) = changing_sets(sat, start, [y])
        assert {culprit, y} <= found
        ways = [
            paths
            for paths in _completions(model, start, sorted(found))
            if paths[sorted(found).index(y)][-1] == CULPRIT
        ]
        if len(found) <= 3:
            assert ways, "the set's cards can make y the culprit"
        if len(found) - 1 <= 2:
            for smaller in combinations(layout.free, len(found) - 1):
                assert not any(
                    paths[list(smaller).index(y)][-1] == CULPRIT
                    for paths in _completions(model, start, list(smaller))
                    if y in smaller
                )


def test_chains_in_processes_give_what_the_same_chains_give_in_turns():
    model, sat, possible = next(_games(range(20)))
    plan = plan_chains(Layout(model), sat, possible, 3, chains=4)
    alone = drive(estimating_by_chains(plan, float("inf"), most=30))
    farm = Farm(plan, 2, perf_counter() + 60, most=30)
    try:
        while farm.running:
            farm.collect(1.0)
    finally:
        farm.close()
    assert [len(b) for b in farm.batches] == [30] * 4
    apart = pooled(farm.batches)
    assert alone is not None and apart is not None
    assert apart.probabilities == alone.probabilities
    assert (apart.error, apart.culprit_error) == (alone.error, alone.culprit_error)
    assert not any(worker.is_alive() for worker in farm.workers)


def test_a_consistent_history_is_its_own_nearest_and_a_stale_one_is_mended():
    for seed, (model, sat, _) in enumerate(_games(range(20))):
        start = sat.witness(rng=random.Random(seed))
        assert nearest(sat, start) == start
        # every card moved to another holder at the last epoch: mended to a consistent one
        stale = [(*path[:-1], (path[-1] + 1) % len(model.timeline.holders)) for path in start]
        mended = nearest(sat, stale)
        assert mended is not None and is_history(model, mended)


def _prefix_game(seed):
    """A tiny game whose last event is a transfer, and its position without that event."""
    rng = random.Random(seed)
    setup, events, _ = random_spectator_game(rng)
    while events and events[-1].type not in ("draw", "take", "mass"):
        events.pop()
    if len(events) < 3:
        return None
    try:
        return [AbbeyPosition.of(setup, events[:k], "game") for k in (len(events) - 1, len(events))]
    except LogError:
        return None


def test_chains_carried_to_the_next_event_agree_with_fresh_ones_and_the_truth():
    """On small logs, chains carried over an appended transfer find the exact chances."""
    pairs = covered = games = 0
    for seed in range(1, 60, 2):
        positions = _prefix_game(seed)
        if positions is None:
            continue
        models = [build_model(p) for p in positions]
        if not all(propagate(m) for m in models):
            continue
        sats = [sat_model(p) for p in positions]
        possible = [s.closure() for s in sats]
        if possible[1] is None or sum(CULPRIT in row for row in possible[1]) < 2:
            continue
        latest = []
        drive(
            estimating_by_chains(
                plan_chains(Layout(models[0]), sats[0], possible[0], seed),
                float("inf"),
                most=20,
                latest=latest,
            )
        )
        carried = Carry(tuple(latest))
        plan = plan_chains(Layout(models[1]), sats[1], possible[1], seed, carried=carried)
        assert len(plan.starts) == len(latest)  # every chain goes on
        for start in plan.starts:
            assert is_history(models[1], start)
        found = drive(estimating_by_chains(plan, float("inf"), most=40))
        fresh = drive(
            estimating_by_chains(
                plan_chains(Layout(models[1]), sats[1], possible[1], seed + 1),
                float("inf"),
                most=40,
            )
        )
        exact = count_histories(models[1]).probabilities()
        for c, row in enumerate(exact):
            if CULPRIT in possible[1][c]:
                p = float(row.get(CULPRIT, 0))
                mine = found.probabilities[c].get(CULPRIT, 0.0)
                theirs = fresh.probabilities[c].get(CULPRIT, 0.0)
                pairs += 1
                covered += abs(mine - p) <= found.culprit_error
                assert abs(mine - theirs) <= found.culprit_error + fresh.culprit_error + 0.02
        games += 1
    assert games >= 5
    assert covered >= 0.9 * pairs


def test_a_long_run_keeps_few_batches_of_one_size_and_every_move():
    kept = Batches()
    for n in range(5 * MOST_BATCHES + 3):
        kept.add(20, np.full((2, 3), float(n)))
    batches = list(kept)
    assert len(kept) == len(batches) < 2 * MOST_BATCHES
    assert sum(m for m, _ in batches) == 20 * (5 * MOST_BATCHES + 3)
    assert sum(s for _, s in batches)[0, 0] == sum(range(5 * MOST_BATCHES + 3))
    assert len({m for m, _ in batches[:-1]}) == 1  # all of one size, but the one being made


def test_each_half_width_takes_the_degrees_of_freedom_of_its_own_spread():
    means = np.array([[0.2], [0.4], [0.3], [0.5]])  # four chains, one value each
    errors = np.full((4, 1), 0.01)
    between, within = halves(means, errors)
    assert between[0] == pytest.approx(STUDENT[2] * np.std(means, ddof=1) / 2)
    freedom = 4 * (GROUPS - 1)  # 28: each chain's groups less one
    assert within[0] == pytest.approx(STUDENT[freedom - 1] * np.sqrt(0.04) / 4)


class _DoneFarm:
    """A farm whose workers have all finished, with nothing sent."""

    running = False

    def __init__(self) -> None:
        self.latest: list[np.ndarray] = []
        self.batches: list[Batches] = []

    def collect(self, timeout: float = 0.0) -> bool:
        return False

    def close(self) -> None:
        pass


def test_the_chains_lead_only_with_a_smaller_bound_on_the_culprit_then_on_every_holder():
    model, _, possible = next(_games(range(20)))
    reporter = Reporter(model.setup, model, possible, None)
    watch = FarmWatch(_DoneFarm(), reporter)  # type: ignore[arg-type]
    watch.close()
    capped = Estimate([{}], False, 0.2, 0.08, 0)
    assert not watch.leads([capped])  # no estimate from the chains yet
    watch.found = Estimate([{}], False, 0.1, 0.05, 0)
    assert watch.leads([]) and watch.leads([capped])
    assert not watch.leads([capped, Estimate([{}], False, 0.3, 0.04, 0)])
