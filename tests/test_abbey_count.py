"""The card-by-card count on arrays: float64 against exact integers, and the capped estimate.

Exact counts are checked against the brute-force enumerator in
``test_abbey_agreement.py``; here the float64 count must give the same
probabilities as the exact fractions, a cap that never binds must give the
exact answer, resampling must keep what it promises, and the estimate's
bound must cover the exact value on fixed positions with fixed seeds. The
capped forward filter over complete states is held to the same.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from abbey_random import corrupted_games, timeline_or_skip
from hypothesis import assume, given, settings

from deduce.games.abbey.solver.count.cardwise import count_by_cards
from deduce.games.abbey.solver.count.estimate import STUDENT, Replicate, estimate_histories, pool
from deduce.games.abbey.solver.count.forward import count_forward
from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.count.resample import Cap, resample
from deduce.games.abbey.solver.count.turns import drive
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import AbbeyPosition, build_timeline
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import read_log

checks = settings(deadline=None, max_examples=30, derandomize=True)
TINY = {"min_cards": 8, "max_cards": 10, "max_deals": 80_000, "max_events": 12}
CASES = Path(__file__).parent / "data" / "cases"


def _model(setup, events):
    timeline = timeline_or_skip(setup, events)
    model = build_model(AbbeyPosition(setup, tuple(events), timeline))
    assume(propagate(model))
    return model, [t for t in model.tallies if not t.redundant]


def _table(total, rows, holders):
    return np.array([[row.get(h, 0) / total for h in range(holders)] for row in rows], dtype=float)


@checks
@given(corrupted_games(**TINY))
def test_float64_counts_give_the_exact_probabilities(game):
    setup, events, _ = game
    model, _ = _model(setup, events)
    exact = count_histories(model, ["cards"], narrowed=True)
    floats = count_histories(model, ["cards"], narrowed=True, exact=False)
    assert isinstance(exact.total, int) and isinstance(floats.total, float)
    assert floats.total == pytest.approx(exact.total, rel=1e-12)
    for fractions, approx in zip(exact.probabilities(), floats.probabilities()):
        assert set(fractions) == set(approx)
        for h, p in fractions.items():
            assert approx[h] == pytest.approx(float(p), abs=1e-12)


#: The two capped counts, by the way they are called.
CAPPED = {
    "cards": lambda model, tallies, cap: count_by_cards(model.domains, tallies, cap=cap),
    "forward": lambda model, tallies, cap: count_forward(
        model.domains, tallies, model.timeline, cap=cap
    ),
}


@pytest.mark.parametrize("method", sorted(CAPPED))
@checks
@given(game=corrupted_games(**TINY))
def test_a_cap_that_never_binds_counts_exactly(method, game):
    setup, events, _ = game
    model, tallies = _model(setup, events)
    exact = drive(count_by_cards(model.domains, tallies))
    cap = Cap(10**9, np.random.default_rng(0))
    capped = drive(CAPPED[method](model, tallies, cap))
    assert not cap.cut
    assert capped[0] == pytest.approx(exact[0], rel=1e-12)
    if exact[0]:
        holders = 2 + len(setup.players)
        assert np.allclose(_table(*capped, holders), _table(*exact, holders), atol=1e-12)


def test_resampling_keeps_at_most_the_cap_and_is_unbiased():
    rng = np.random.default_rng(3)
    weights = rng.pareto(1.5, size=500) + np.r_[np.zeros(50), np.ones(450)]
    cap = 60
    sums = []
    for seed in range(400):
        kept, factor = resample(weights, cap, np.random.default_rng(seed))
        assert len(kept) <= cap and np.all(np.diff(kept) > 0)
        assert np.all(weights[kept] > 0) and np.all(factor >= 1)
        sums.append(float((weights[kept] * factor).sum()))
    heaviest = np.argsort(weights)[-5:]
    assert set(heaviest) <= set(kept)  # the heaviest states are kept surely
    # the kept weights times their survival factors add up to the total, on average
    assert np.mean(sums) == pytest.approx(weights.sum(), rel=0.01)


def test_few_states_are_kept_as_they_are():
    weights = np.array([0.0, 2.0, 1.0, 0.5])
    kept, factor = resample(weights, 5, np.random.default_rng(0))
    assert kept.tolist() == [1, 2, 3] and factor.tolist() == [1.0, 1.0, 1.0]


def _position(name, events):
    log = read_log(str(CASES / name))
    setup = setup_from_header(log.header, log.path, None)
    cut = log.events[:events]
    timeline = build_timeline(setup, cut, log.path)
    model = build_model(AbbeyPosition(setup, tuple(cut), timeline))
    assert propagate(model)
    supports = sat_model(AbbeyPosition(setup, tuple(cut), timeline)).supports()
    return setup, model, [t for t in model.tallies if not t.redundant], supports


@pytest.mark.parametrize("with_supports", [True, False])
def test_the_capped_forward_filter_is_unbiased(with_supports):
    """A cap that binds at every layer: the mean of many runs is the exact total, within noise."""
    _, model, tallies, supports = _position("abbey-4p-00.jsonl", 24)
    supports = supports if with_supports else None
    exact = drive(count_by_cards(model.domains, tallies, exact=False))[0]
    totals = []
    for seed in range(40):
        cap = Cap(64, np.random.default_rng(seed))
        totals.append(
            drive(count_forward(model.domains, tallies, model.timeline, supports, cap=cap))[0]
        )
        assert cap.cut
    mean, spread = np.mean(totals), np.std(totals, ddof=1) / np.sqrt(len(totals))
    assert abs(mean - exact) <= 4 * spread and spread < 0.5 * exact


@pytest.mark.parametrize("methods", [("cards",), ("forward",), ("cards", "forward")])
@pytest.mark.parametrize(("name", "events"), [("abbey-3p-01.jsonl", 32), ("abbey-4p-00.jsonl", 24)])
def test_the_estimate_s_bound_covers_the_exact_value(name, events, methods):
    """With a cap that binds, fixed seeds: the bounds hold, the culprit's bound is its own."""
    setup, model, tallies, supports = _position(name, events)
    holders = 2 + len(setup.players)
    total, rows = drive(count_by_cards(model.domains, tallies, exact=False))
    exact = _table(total, rows, holders)
    covered = 0
    for seed in range(4):
        found = drive(
            estimate_histories(
                model.domains,
                tallies,
                holders,
                float("inf"),
                seed=seed,
                first_cap=512,
                last_cap=1024,
                methods=methods,
                timeline=model.timeline,
                supports=supports,
            )
        )
        assert found is not None and not found.exact and found.cap == 1024
        table = np.array([[row.get(h, 0.0) for h in range(holders)] for row in found.probabilities])
        assert found.culprit_error <= found.error
        covered += (
            np.abs(table - exact).max() <= found.error
            and np.abs(table[:, 0] - exact[:, 0]).max() <= found.culprit_error
        )
    assert covered >= 3


def _replicate(cap, total, culprit_share):
    """A cut replicate of one card and two holders (the culprit slot, 0, and one other)."""
    return Replicate(
        cap, total, np.array([[culprit_share * total, (1 - culprit_share) * total]]), True
    )


def test_pooled_replicates_weigh_by_cap_and_bound_by_their_spread_within_rounds():
    """Two steady rounds: the answer weighs each replicate by its cap; the bound by hand."""
    first = [_replicate(1, 10.0, p) for p in (0.2, 0.4)]
    second = [_replicate(2, 10.0, p) for p in (0.3, 0.5)]
    found = pool(first + second, 2)
    assert not found.exact and found.cap == 2
    assert found.probabilities[0][0] == pytest.approx((0.2 + 0.4 + 2 * 0.3 + 2 * 0.5) / 6)
    # Per unit of cap: 1 * (0.1^2 + 0.1^2) + 2 * (0.1^2 + 0.1^2) over 4 - 2 degrees of freedom,
    # then over the 6 units of cap pooled.
    half = STUDENT[1] * np.sqrt(0.06 / 2 / 6)
    assert found.culprit_error == pytest.approx(half)
    assert found.error == pytest.approx(half)


def test_a_round_whose_totals_scatter_is_judged_alone_and_never_narrower_than_its_replicates():
    """Totals with a heavy tail: the round does not pool, and the farthest replicate bounds it."""
    steady = [_replicate(1, 10.0, p) for p in (0.5, 0.5, 0.5)]
    wild = [_replicate(2, total, p) for total, p in ((1.0, 0.9), (1.0, 0.9), (50.0, 0.1))]
    found = pool(steady + wild, 2)
    mean = (0.9 + 0.9 + 50 * 0.1) / 52
    assert found.probabilities[0][0] == pytest.approx(mean)  # the steady round left out
    assert found.culprit_error >= 0.9 - mean


def test_a_round_cut_short_after_one_replicate_pools_with_the_steady_rounds():
    """The deadline left one replicate of the last cap: it joins the answer, not the spread."""
    steady = [_replicate(1, 10.0, p) for p in (0.2, 0.4)]
    found = pool([*steady, _replicate(4, 10.0, 0.3)], 2)
    assert found.probabilities[0][0] == pytest.approx((0.2 + 0.4 + 4 * 0.3) / 6)
    assert found.culprit_error == pytest.approx(STUDENT[0] * np.sqrt(0.02 / 1 / 6))
    assert pool([_replicate(4, 10.0, 0.3)], 2).culprit_error == 1.0


def test_an_uncut_replicate_is_exact():
    exact = Replicate(8, 4.0, np.array([[1.0, 3.0]]), False)
    found = pool([_replicate(4, 10.0, 0.9), exact], 2)
    assert found.exact and found.error == 0 and found.probabilities[0] == {0: 0.25, 1: 0.75}


def test_an_estimate_that_never_cuts_is_exact():
    setup, model, tallies, _ = _position("abbey-3p-01.jsonl", 12)
    holders = 2 + len(setup.players)
    found = drive(estimate_histories(model.domains, tallies, holders, float("inf")))
    assert found is not None and found.exact and found.error == 0
    total, rows = drive(count_by_cards(model.domains, tallies))
    table = np.array([[row.get(h, 0.0) for h in range(holders)] for row in found.probabilities])
    assert np.allclose(table, _table(total, rows, holders), atol=1e-12)


def test_each_round_but_the_last_is_reported_as_it_is_made():
    """Rounds at caps 256, 512 and 1024: the first two come on the way, each pooling the ones
    before; the answer is the third, the same as without a listener."""
    setup, model, tallies, supports = _position("abbey-4p-00.jsonl", 24)
    holders = 2 + len(setup.players)
    made = []
    found = drive(
        estimate_histories(
            model.domains,
            tallies,
            holders,
            float("inf"),
            first_cap=256,
            last_cap=1024,
            methods=("forward",),
            timeline=model.timeline,
            supports=supports,
            progress=made.append,
        )
    )
    assert [e.cap for e in made] == [256, 512] and not any(e.exact for e in made)
    alone = drive(
        estimate_histories(
            model.domains,
            tallies,
            holders,
            float("inf"),
            first_cap=256,
            last_cap=1024,
            methods=("forward",),
            timeline=model.timeline,
            supports=supports,
        )
    )
    assert found == alone and found.cap == 1024


def test_rounds_past_the_largest_cap_keep_it_with_streams_of_their_own(monkeypatch):
    """At the largest cap the rounds go on at it, each with new random streams."""
    monkeypatch.setattr("deduce.games.abbey.solver.count.estimate.MOST_CAP", 512)
    setup, model, tallies, supports = _position("abbey-4p-00.jsonl", 24)
    holders = 2 + len(setup.players)
    made = []

    class Enough(Exception):
        pass

    def listen(estimate):
        made.append(estimate)
        if len(made) == 4:
            raise Enough

    with pytest.raises(Enough):
        drive(
            estimate_histories(
                model.domains,
                tallies,
                holders,
                float("inf"),
                first_cap=256,
                methods=("forward",),
                timeline=model.timeline,
                supports=supports,
                progress=listen,
            )
        )
    assert [e.cap for e in made] == [256, 512, 512, 512]
    assert len({e.probabilities[0].get(0) for e in made}) == 4  # new replicates each round
