"""The search closure and the Markov chain sampler against the brute-force enumerator.

The closure must equal the support of the brute-force posterior (it is what
the candidate sets are made of, exact even when probabilities are not); every
history the search or a chain produces must agree with every event; the
estimate must be close to the exact probabilities; and a solve that runs out
of budget must say so and still give the exact candidates.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from abbey_random import corrupted_games, random_game
from hypothesis import assume, given, settings

from deduce.errors import LogError
from deduce.games.abbey.brute import enumerate_posterior
from deduce.games.abbey.count import count_histories
from deduce.games.abbey.model import build_model
from deduce.games.abbey.propagate import propagate
from deduce.games.abbey.repair import relaxed, repair
from deduce.games.abbey.sample import Chain, sample_histories, sample_holders
from deduce.games.abbey.search import SearchTimeout, closure, find_history, is_history
from deduce.games.abbey.solve import solve_abbey
from deduce.games.abbey.timeline import build_timeline
from deduce.logs.model import Event, GameLog, Header

checks = settings(deadline=None, max_examples=60, derandomize=True)
TINY = {"min_cards": 8, "max_cards": 10, "max_deals": 80_000, "max_events": 12}


def _model(setup, events):
    try:
        timeline = build_timeline(setup, events, "game")
    except LogError:
        assume(False)
    return timeline, build_model(setup, timeline, events)


def _propagated_with_history(setup, events, of=lambda model: model, seed=None):
    """Timeline, propagated model and one history of ``of(model)``; skips games without one."""
    timeline, model = _model(setup, events)
    assume(propagate(model))
    start = find_history(of(model), None if seed is None else random.Random(seed))
    assume(start is not None)
    return timeline, model, start


def _named(timeline, setup, possible):
    return {card: {timeline.holders[h] for h in holders}
            for card, holders in zip(setup.deck.ids, possible) if holders}


@checks
@given(corrupted_games(**TINY))
def test_closure_is_the_support_of_the_brute_force_posterior(game):
    setup, events, _ = game
    timeline, model = _model(setup, events)
    brute = enumerate_posterior(setup, events)
    found = closure(model, rng=random.Random(0))
    if not brute.consistent:
        assert found is None
        assert find_history(model) is None
        return
    assert found is not None and found.exact
    assert _named(timeline, setup, found.possible) == {
        card: set(row) for card, row in brute.holders.items()}
    history = find_history(model, random.Random(1))
    assert history is not None and is_history(model, history)


@checks
@given(corrupted_games(**TINY))
def test_every_chain_move_keeps_a_consistent_history(game):
    setup, events, _ = game
    _, model, start = _propagated_with_history(setup, events)
    chain = Chain(model, start, random.Random(2))
    for _ in range(150):
        chain.step()
        assert is_history(model, chain.paths)


def test_estimates_fall_within_their_error_bound():
    """Over tiny games the estimate stays within its 95% bound of the exact answer."""
    within = worst = 0
    games = 0
    for seed in range(30):
        setup, events, _ = random_game(random.Random(seed), min_cards=8, max_cards=10,
                                       max_deals=80_000, max_events=12)
        try:
            timeline = build_timeline(setup, events, "game")
        except LogError:
            continue
        model = build_model(setup, timeline, events)
        exact = count_histories(model)
        base = model.copy()
        if not exact.total or not propagate(base):
            continue
        starts = [find_history(base, random.Random(s)) for s in range(4)]
        found = sample_holders(base, starts, seed=seed, moves=1500)
        error = max(abs(float(p) - found.probabilities[c].get(h, 0.0))
                    for c, row in enumerate(exact.probabilities()) for h, p in row.items())
        games += 1
        within += error <= found.error
        worst = max(worst, error)
    assert games >= 20
    assert within >= 0.9 * games
    assert worst < 0.2


def _log(setup, events):
    header = Header(game="abbey", players=setup.players, me=setup.me)
    return GameLog(header, list(events), "game")


def test_an_exhausted_budget_gives_a_labelled_estimate_with_exact_candidates(monkeypatch):
    setup, events, _ = random_game(random.Random(7), min_cards=9, max_cards=9,
                                   max_deals=80_000, max_events=12)
    timeline = build_timeline(setup, events, "game")
    model = build_model(setup, timeline, events)
    exact = count_histories(model)
    assert exact.total
    monkeypatch.setattr("deduce.games.abbey.solve.setup_from_header", lambda *a: setup)
    log = _log(setup, events)
    solution = solve_abbey(log, budget=0.0)
    assert not solution.exact
    assert 0 < solution.error <= 1
    out = solution.to_json()
    assert out["exact"] is False and out["error"] == round(solution.error, 6)
    support = {card: {timeline.holders[h] for h in row}
               for card, row in zip(setup.deck.ids, exact.holders) if row}
    assert {card: set(row) for card, row in solution.holders.items()} == support
    exact_culprits = {card for card, row in support.items() if "culprit" in row}
    assert set(out["culprit"]["candidates"]) == exact_culprits
    assert abs(sum(solution.culprit.values()) - 1) < 1e-9
    unlimited = solve_abbey(log)
    assert unlimited.exact and all(isinstance(p, Fraction) for p in unlimited.culprit.values())


def test_an_inconsistent_log_is_a_conflict_whatever_the_budget(monkeypatch):
    setup, events, truth = random_game(random.Random(3), min_cards=8, max_cards=8,
                                       max_deals=80_000, max_events=8)
    card = next(iter(truth.holders))
    wrong = next(h for h in ("culprit", *setup.players) if h != truth.holders[card])
    line = len(events) + 2
    fact = (Event("culprit", {"card": card}, line) if wrong == "culprit"
            else Event("has", {"player": wrong, "card": card}, line))
    monkeypatch.setattr("deduce.games.abbey.solve.setup_from_header", lambda *a: setup)
    log = _log(setup, [*events, fact])
    assert not enumerate_posterior(setup, log.events).consistent
    quick, full = solve_abbey(log, budget=0.0), solve_abbey(log)
    assert not quick.consistent and not full.consistent
    assert quick.conflict == full.conflict


@checks
@given(corrupted_games(**TINY))
def test_a_closure_cut_short_keeps_every_possible_holder(game):
    setup, events, _ = game
    timeline, model = _model(setup, events)
    brute = enumerate_posterior(setup, events)
    assume(brute.consistent)
    for deadline in (0.0, None):  # already over, and none
        found = closure(model, rng=random.Random(0), deadline=deadline)
        if found is None:  # no history in time is only possible without a deadline
            assert deadline is not None
            continue
        named = _named(timeline, setup, found.possible)
        for card, row in brute.holders.items():
            assert set(row) <= named.get(card, set())
        assert found.exact == (deadline is None) or named == {
            card: set(row) for card, row in brute.holders.items()}


@checks
@given(corrupted_games(**TINY))
def test_local_search_finds_only_true_histories(game):
    setup, events, _ = game
    _, model, start = _propagated_with_history(setup, events, relaxed, seed=2)
    found = repair(model, start, random.Random(3), steps=2_000)
    if found is not None:
        assert is_history(model, found)
    elif enumerate_posterior(setup, events).consistent:
        assert find_history(model, random.Random(4)) is not None


@checks
@given(corrupted_games(**TINY))
def test_drawn_histories_lie_in_the_closure(game):
    setup, events, _ = game
    timeline, model, start = _propagated_with_history(setup, events, seed=1)
    possible = closure(model).possible
    for draw in sample_histories(model, [start, start], 40, seed=5, thin=5, burn=10):
        assert all(h in possible[card] for card, h in enumerate(draw))
        assert list(draw).count(timeline.holder("culprit")) == 1


def test_a_search_out_of_nodes_says_so():
    setup, events, _ = random_game(random.Random(7), min_cards=9, max_cards=9,
                                   max_deals=80_000, max_events=12)
    _, model = _model(setup, events)
    with pytest.raises(SearchTimeout):
        find_history(model, random.Random(0), nodes=0)
    assert find_history(model, random.Random(0), nodes=10_000) is not None


def test_a_solve_that_must_keep_to_its_budget_lists_every_possible_holder(monkeypatch):
    setup, events, _ = random_game(random.Random(7), min_cards=9, max_cards=9,
                                   max_deals=80_000, max_events=12)
    monkeypatch.setattr("deduce.games.abbey.solve.setup_from_header", lambda *a: setup)
    brute = enumerate_posterior(setup, events)
    solution = solve_abbey(_log(setup, events), budget=0.0, exact_candidates=False)
    assert not solution.exact
    for card, row in brute.holders.items():
        assert set(row) <= set(solution.holders[card])
    assert abs(sum(solution.culprit.values()) - 1) < 1e-9
