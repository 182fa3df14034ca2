"""The SAT model and the Markov chain sampler against the brute-force enumerator.

The SAT closure must equal the support of the brute-force posterior (it is
what the candidate sets are made of, exact even when probabilities are
not), on consistent and inconsistent logs; a warm model grown event by
event must answer as a model built at once; every history that the solver
or a chain produces must agree with every event; the estimate must be close
to the exact probabilities; and a solve that runs out of budget must say so
and still give the exact candidates.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from time import perf_counter

import pytest
from abbey_random import corrupted_games, random_game
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracles.abbey import enumerate_posterior

from deduce.errors import LogError
from deduce.games.abbey.solver.count.estimate import Estimate
from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.model import build_model, is_history
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sample import Chain, sample_histories
from deduce.games.abbey.solver.sat.cnf import SatModel, Warm, sat_model
from deduce.games.abbey.solver.solve import solve_position
from deduce.games.abbey.solver.timeline import TRANSFERS, AbbeyPosition, build_timeline
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import read_log
from deduce.logs.model import Event

checks = settings(deadline=None, max_examples=30, derandomize=True)
TINY = {"min_cards": 8, "max_cards": 10, "max_deals": 80_000, "max_events": 12}


def _timeline(setup, events):
    try:
        return build_timeline(setup, events, "game")
    except LogError:
        assume(False)


def _named(timeline, setup, possible):
    return {
        card: {timeline.holders[h] for h in holders}
        for card, holders in zip(setup.deck.ids, possible)
        if holders
    }


def _brute_support(brute):
    return {card: set(row) for card, row in brute.holders.items()}


@checks
@given(corrupted_games(**TINY))
def test_closure_is_the_support_of_the_brute_force_posterior(game):
    setup, events, _ = game
    timeline = _timeline(setup, events)
    brute = enumerate_posterior(setup, events)
    sat = sat_model(AbbeyPosition(setup, tuple(events), timeline))
    possible = sat.closure()
    if not brute.consistent:
        assert possible is None
        assert sat.witness() is None and not sat.satisfiable()
        return
    assert possible is not None
    assert _named(timeline, setup, possible) == _brute_support(brute)
    model = build_model(AbbeyPosition(setup, tuple(events), timeline))
    for seed in (None, 1, 2):
        history = sat.witness(rng=None if seed is None else random.Random(seed))
        assert history is not None and is_history(model, history)


@checks
@given(corrupted_games(**TINY))
def test_a_warm_model_grown_event_by_event_answers_as_a_fresh_one(game):
    setup, events, _ = game
    _timeline(setup, events)
    warm = Warm()
    for k in range(len(events) + 1):
        prefix = events[:k]
        timeline = build_timeline(setup, prefix, "game")
        grown = warm.model_of(AbbeyPosition(setup, tuple(prefix), timeline))
        fresh = sat_model(AbbeyPosition(setup, tuple(prefix), timeline))
        assert grown.closure() == fresh.closure()
        assert len(grown.events) == k


def test_a_model_that_is_not_continued_is_built_afresh():
    setup, events, _ = random_game(random.Random(4), **TINY)
    timeline = build_timeline(setup, events, "game")
    warm = Warm()
    old = warm.model_of(AbbeyPosition(setup, tuple(events), timeline))
    shorter = events[:-1]
    again = warm.model_of(AbbeyPosition.of(setup, shorter, "game"))
    assert again is not old and again.events == list(shorter)


@checks
@given(corrupted_games(**TINY), st.randoms(use_true_random=False))
def test_skipping_lines_answers_for_the_log_without_them(game, rng):
    setup, events, _ = game
    timeline = _timeline(setup, events)
    sat = sat_model(AbbeyPosition(setup, tuple(events), timeline))
    skip = {e.line for e in events if e.type not in TRANSFERS and rng.random() < 0.4}
    kept = [e for e in events if e.line not in skip]
    expected = enumerate_posterior(setup, kept).consistent
    assert sat.satisfiable(skip) == expected
    if expected:
        possible = sat.closure(skip)
        assert _named(timeline, setup, possible) == _brute_support(enumerate_posterior(setup, kept))


def test_every_solver_and_encoding_gives_the_same_closure():
    setup, events, _ = random_game(
        random.Random(11), min_cards=10, max_cards=10, max_deals=80_000, max_events=14
    )
    timeline = build_timeline(setup, events, "game")
    closures = [
        sat_model(AbbeyPosition(setup, tuple(events), timeline), solver, encoding).closure()
        for solver, encoding in (
            ("minicard", "native"),
            ("glucose4", "seqcounter"),
            ("minisat22", "totalizer"),
            ("gluecard4", "native"),
        )
    ]
    assert all(c == closures[0] for c in closures)
    assert closures[0] is not None


CASES = Path(__file__).parent / "data" / "cases"


@pytest.mark.parametrize("case", ["abbey-3p-00", "abbey-4p-04", "abbey-6p-00"])
def test_queries_past_the_budget_get_the_same_answers_from_the_backup(case):
    log = read_log(CASES / f"{case}.jsonl")
    setup = setup_from_header(log.header, log.path)
    timeline = build_timeline(setup, log.events, log.path)
    plain = sat_model(AbbeyPosition(setup, tuple(log.events), timeline), budget=None)
    tight = sat_model(AbbeyPosition(setup, tuple(log.events), timeline), budget=5)
    assert tight.closure() == plain.closure()
    assert tight.supports() == plain.supports()
    assert tight.backup_model is not None  # five conflicts were too few somewhere
    assert tight.backup_model.events == plain.events


def test_the_supports_give_up_at_their_deadline():
    log = read_log(CASES / "abbey-6p-01.jsonl")
    setup = setup_from_header(log.header, log.path)
    timeline = build_timeline(setup, log.events, log.path)
    whole = sat_model(AbbeyPosition(setup, tuple(log.events), timeline)).supports()
    assert whole is not None
    assert (
        sat_model(AbbeyPosition(setup, tuple(log.events), timeline)).supports(perf_counter() + 3600)
        == whole
    )
    assert (
        sat_model(AbbeyPosition(setup, tuple(log.events), timeline)).supports(perf_counter() - 1)
        is None
    )


def test_the_backup_grows_with_the_log():
    log = read_log(CASES / "abbey-5p-01.jsonl")
    setup = setup_from_header(log.header, log.path)
    tight = SatModel(setup, budget=5)
    for k in range(0, len(log.events) + 1, 11):
        prefix = log.events[:k]
        timeline = build_timeline(setup, prefix, log.path)
        tight.extend(timeline, prefix)
        assert (
            tight.closure()
            == sat_model(AbbeyPosition(setup, tuple(prefix), timeline), budget=None).closure()
        )
    assert tight.backup_model is not None and tight.backup_model.events == tight.events


def _with_history(setup, events):
    """Timeline, propagated model and a SAT model; skips games without a history."""
    timeline = _timeline(setup, events)
    model = build_model(AbbeyPosition(setup, tuple(events), timeline))
    assume(propagate(model))
    sat = sat_model(AbbeyPosition(setup, tuple(events), timeline))
    assume(sat.satisfiable())
    return timeline, model, sat


@checks
@given(corrupted_games(**TINY))
def test_every_chain_move_keeps_a_consistent_history(game):
    setup, events, _ = game
    _, model, sat = _with_history(setup, events)
    chain = Chain(model, sat.witness(rng=random.Random(0)), random.Random(2))
    for _ in range(150):
        chain.step()
        assert is_history(model, chain.paths)


def test_drawn_histories_follow_the_uniform_law_over_histories():
    """Over tiny games the chains' draws of the current holders match the exact chances."""
    worst, games = [], 0
    for seed in range(30):
        setup, events, _ = random_game(random.Random(seed), **TINY)
        try:
            timeline = build_timeline(setup, events, "game")
        except LogError:
            continue
        model = build_model(AbbeyPosition(setup, tuple(events), timeline))
        exact = count_histories(model)
        base = model.copy()
        if not exact.total or not propagate(base):
            continue
        sat = sat_model(AbbeyPosition(setup, tuple(events), timeline))
        starts = sat.witnesses(sat.closure(), 4, random.Random(seed))
        draws = sample_histories(base, starts, 400, seed=seed, thin=25, burn=200)
        worst.append(
            max(
                abs(float(p) - sum(d[c] == h for d in draws) / len(draws))
                for c, row in enumerate(exact.probabilities())
                for h, p in row.items()
            )
        )
        games += 1
    assert games >= 20
    assert sorted(worst)[int(0.9 * games)] < 0.1  # 400 draws: a standard error of 0.025 at most
    assert max(worst) < 0.2


@checks
@given(corrupted_games(**TINY))
def test_drawn_histories_lie_in_the_closure_and_stop_at_the_deadline(game):
    setup, events, _ = game
    timeline, model, sat = _with_history(setup, events)
    possible = sat.closure()
    start = sat.witness()
    draws = sample_histories(model, [start, start], 40, seed=5, thin=5, burn=10)
    for draw in draws:
        assert all(h in possible[card] for card, h in enumerate(draw))
        assert list(draw).count(timeline.holder("culprit")) == 1
    # past the deadline, the first whole round of the two chains with at least 7 draws
    late = sample_histories(model, [start, start], 40, seed=5, thin=5, burn=10, deadline=(0.0, 7))
    assert late == draws[:8]


def _position(setup, events):
    return AbbeyPosition.of(setup, events, "game")


def test_an_exhausted_budget_gives_a_labelled_estimate_with_exact_candidates(monkeypatch):
    setup, events, _ = random_game(
        random.Random(7), min_cards=9, max_cards=9, max_deals=80_000, max_events=12
    )
    timeline = build_timeline(setup, events, "game")
    model = build_model(AbbeyPosition(setup, tuple(events), timeline))
    exact = count_histories(model)
    assert exact.total
    position = _position(setup, events)
    with monkeypatch.context() as patch:  # the candidates alone: no time for the SAT supports
        patch.setattr(SatModel, "supports", lambda *a: pytest.fail("supports computed"))
        solution = solve_position(position, budget=0.0)
    assert not solution.exact
    assert 0 < solution.error <= 1
    out = solution.to_json()
    assert out["exact"] is False and out["error"] == round(solution.error, 6)
    support = {
        card: {timeline.holders[h] for h in row}
        for card, row in zip(setup.deck.ids, exact.holders)
        if row
    }
    assert {card: set(row) for card, row in solution.holders.items()} == support
    exact_culprits = {card for card, row in support.items() if "culprit" in row}
    assert set(out["culprit"]["candidates"]) == exact_culprits
    assert abs(sum(solution.culprit.values()) - 1) < 1e-9
    unlimited = solve_position(position)
    assert unlimited.exact and all(isinstance(p, Fraction) for p in unlimited.culprit.values())


@pytest.mark.parametrize(
    ("budget", "share"), [(1.0, 0.8), (2.0, 0.8), (5.0, 0.6), (30.0, 0.6), (120.0, 20 / 120)]
)
def test_a_short_budget_goes_to_the_exact_count(monkeypatch, budget, share):
    """Up to 2 s no estimate would come in time: the exact count gets 80% of the budget.

    Past 2 s it gets 60%, and never more than 20 s.
    """
    setup, events, _ = random_game(
        random.Random(7), min_cards=9, max_cards=9, max_deals=80_000, max_events=12
    )
    seen = []
    real = count_histories

    def spy(model, **options):
        seen.append(options["deadline"])
        return real(model)

    monkeypatch.setattr("deduce.games.abbey.solver.solve.count_histories", spy)
    monkeypatch.setattr("deduce.games.abbey.solver.solve.perf_counter", lambda: 100.0)
    assert solve_position(_position(setup, events), budget=budget).exact
    assert seen == [pytest.approx(100.0 + share * budget)]


def test_the_estimates_on_the_way_reach_the_listener_as_solutions(monkeypatch):
    """An exact count that gives up, two rounds of estimates: the first comes on the way."""
    setup, events, _ = random_game(
        random.Random(7), min_cards=9, max_cards=9, max_deals=80_000, max_events=12
    )
    exact = solve_position(_position(setup, events))
    names = _timeline(setup, events).holders
    even = [
        {h: 1.0 / len(row) for h, name in enumerate(names) if name in row}
        for row in exact.holders.values()
    ]

    def rounds(*args, progress=None, **options):
        progress(Estimate(even, False, 0.3, 0.2, 4096))
        yield
        return Estimate(even, False, 0.1, 0.05, 8192)

    def no_chains(*args, **options):
        yield
        return None

    monkeypatch.setattr("deduce.games.abbey.solver.solve.count_histories", lambda *a, **k: None)
    monkeypatch.setattr("deduce.games.abbey.solver.solve.estimate_histories", rounds)
    monkeypatch.setattr("deduce.games.abbey.solver.solve.estimating_by_chains", no_chains)
    made = []
    answer = solve_position(_position(setup, events), budget=10.0, progress=made.append)
    assert [(s.error, s.culprit_bound) for s in made] == [(0.3, 0.2)]
    assert (answer.error, answer.culprit_bound) == (0.1, 0.05)
    assert made[0].holders == answer.holders and set(made[0].culprit) == set(exact.culprit)


def test_an_inconsistent_log_is_a_conflict_whatever_the_budget(monkeypatch):
    setup, events, truth = random_game(
        random.Random(3), min_cards=8, max_cards=8, max_deals=80_000, max_events=8
    )
    card = next(iter(truth.holders))
    wrong = next(h for h in ("culprit", *setup.players) if h != truth.holders[card])
    line = len(events) + 2
    fact = (
        Event("culprit", {"card": card}, line)
        if wrong == "culprit"
        else Event("has", {"player": wrong, "card": card}, line)
    )
    position = _position(setup, [*events, fact])
    assert not enumerate_posterior(setup, position.events).consistent
    quick, full = solve_position(position, budget=0.0), solve_position(position)
    assert not quick.consistent and not full.consistent
    assert quick.conflict == full.conflict


def test_every_engine_agrees_on_a_small_game(monkeypatch):
    setup, events, _ = random_game(
        random.Random(5), min_cards=8, max_cards=8, max_deals=80_000, max_events=10
    )
    position = _position(setup, events)
    solutions = [solve_position(position, engine=engine) for engine in ("sat", "count", "csp")]
    assert all(s == solutions[0] for s in solutions)
