"""The forward filter over complete states, the SAT supports and the state predictor.

The filter's counts must equal the brute-force enumerator's and the other
exact methods' on tiny random games, consistent or not, seen by a player
or a spectator, with or without the SAT supports, in exact integers and in
floats; the supports must be exactly the holders that consistent histories
pass through at each epoch; the predictor must count the states that fit
the supports and sizes, and bound the states consistent histories reach.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from abbey_random import (
    corrupted_games,
    corrupted_spectator_games,
    games,
    random_spectator_game,
    spectator_games,
    timeline_or_skip,
)
from hypothesis import assume, given, settings
from oracles.abbey import consistent_histories, enumerate_posterior

from deduce.games.abbey.solver.count import forward
from deduce.games.abbey.solver.count.forward import count_forward, predict_states, predicted_peak
from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.count.lookahead import Ahead, Lookahead
from deduce.games.abbey.solver.count.turns import drive
from deduce.games.abbey.solver.model import Tally, build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import TRANSFERS, AbbeyPosition
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import read_log

checks = settings(deadline=None, max_examples=40, derandomize=True)
#: Tiny decks as in the agreement tests: 8 to 10 cards, 2 or 3 players.
TINY = {"min_cards": 8, "max_cards": 10, "max_deals": 80_000, "max_events": 12}
#: Spectators' games: 9 or 10 cards, several masses and thefts, few enough deals for brute force.
SPECTATOR = {"max_deals": 20_000, "masses": (2, 3), "thefts": (1, 3)}
#: Every history listed one by one: smaller still.
LISTED = {"min_cards": 6, "max_cards": 8, "max_deals": 5_000, "max_events": 8}
REGRESSION = Path(__file__).parent / "data" / "abbey-spectator-masses.jsonl"


def _prepared(setup, events):
    """(timeline, propagated model or None, its tallies, SAT supports) of a log."""
    timeline = timeline_or_skip(setup, events)
    model = build_model(AbbeyPosition(setup, tuple(events), timeline))
    supports = sat_model(AbbeyPosition(setup, tuple(events), timeline)).supports()
    if not propagate(model):
        return timeline, None, [], supports
    return timeline, model, [t for t in model.tallies if not t.redundant], supports


def _forward(setup, events, with_supports=True, exact=True):
    """(timeline, total, holders) from the filter.

    A model that propagation refutes, or (with supports) that the SAT model
    refutes, counts 0 without the filter; otherwise the filter must find 0.
    """
    timeline, model, tallies, supports = _prepared(setup, events)
    if model is None or (with_supports and supports is None):
        return timeline, 0 if exact else 0.0, tuple({} for _ in setup.deck.ids)
    found = drive(
        count_forward(model.domains, tallies, timeline, supports if with_supports else None, exact)
    )
    return timeline, *found


def _named(timeline, setup, total, holders):
    """Each card's holder probabilities by holder name (exact fractions)."""
    return {
        card: {timeline.holders[h]: Fraction(n, total) for h, n in row.items()}
        for card, row in zip(setup.deck.ids, holders)
        if row
    }


def _matches_brute_force(setup, events, with_supports=True):
    timeline, total, holders = _forward(setup, events, with_supports)
    brute = enumerate_posterior(setup, events)
    assert total == brute.histories
    if total:
        assert _named(timeline, setup, total, holders) == brute.holders
    else:
        assert holders == tuple({} for _ in setup.deck.ids)
    return timeline, total, holders


@checks
@given(corrupted_games(**TINY))
def test_counts_match_brute_force_with_supports(game):
    setup, events, _ = game
    _matches_brute_force(setup, events)


@checks
@given(corrupted_games(**TINY))
def test_counts_match_brute_force_on_the_domains_alone(game):
    setup, events, _ = game
    _matches_brute_force(setup, events, with_supports=False)


@checks
@given(games(**TINY))
def test_the_truth_is_always_counted(game):
    setup, events, truth = game
    timeline, total, holders = _forward(setup, events)
    assert total > 0
    index = {name: h for h, name in enumerate(timeline.holders)}
    for c, card in enumerate(setup.deck.ids):
        assert holders[c][index[truth.holders[card]]] > 0


@pytest.mark.parametrize("with_supports", [True, False], ids=["supports", "domains"])
@settings(deadline=None, max_examples=12, derandomize=True)
@given(game=corrupted_spectator_games(**SPECTATOR))
def test_spectator_games_match_brute_force(with_supports, game):
    setup, events, _ = game
    assert setup.me is None
    _matches_brute_force(setup, events, with_supports)


def test_spectator_games_have_several_masses_and_thefts():
    for seed in range(20):
        setup, events, _ = random_spectator_game(random.Random(seed), **SPECTATOR)
        kinds = [e.type for e in events]
        assert setup.me is None and 9 <= len(setup.deck) <= 10
        assert kinds.count("mass") + kinds.count("take") >= 3 and kinds.count("mass") >= 2
        assert not any(
            "gave" in e.fields or "card" in e.fields for e in events if e.type in TRANSFERS
        )


@settings(deadline=None, max_examples=25, derandomize=True)
@given(corrupted_games(**TINY))
def test_floats_agree_with_exact_integers(game):
    setup, events, _ = game
    _, total, holders = _forward(setup, events)
    _, approx, approx_holders = _forward(setup, events, exact=False)
    assert isinstance(approx, float) and approx == pytest.approx(total, rel=1e-12)
    for row, approx_row in zip(holders, approx_holders):
        assert set(row) == set(approx_row)
        for h, n in row.items():
            assert approx_row[h] == pytest.approx(n, rel=1e-12)


def _agrees_with_count_histories(setup, events):
    timeline, model, tallies, supports = _prepared(setup, events)
    if model is None:
        return
    counts = count_histories(model, max_slices=2_000)
    assume(counts is not None)
    total, holders = drive(count_forward(model.domains, tallies, timeline, supports))
    assert total == counts.total
    assert holders == counts.holders


@settings(deadline=None, max_examples=25, derandomize=True)
@given(corrupted_games(**TINY))
def test_counts_match_count_histories(game):
    _agrees_with_count_histories(*game[:2])


@settings(deadline=None, max_examples=10, derandomize=True)
@given(spectator_games(**SPECTATOR))
def test_spectator_counts_match_count_histories(game):
    _agrees_with_count_histories(*game[:2])


#: Module settings that change how the work is cut, never the counts: a few rows per
#: slice and per merge; keys of several words; their mixes all colliding; weights as
#: Python integers from the start.
RECUTS = [{"ROWS": 3, "PENDING": 5}, {"WORD": 5}, {"WORD": 5, "_MIX": (0, 0, 0, 0)}, {"SAFE": 1.0}]


@pytest.mark.parametrize("recut", RECUTS, ids=lambda recut: "+".join(recut))
@settings(deadline=None, max_examples=12, derandomize=True)
@given(game=corrupted_games(**TINY))
def test_the_way_work_is_cut_leaves_the_counts_alone(recut, game):
    setup, events, _ = game
    expected = _forward(setup, events)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in recut.items():
            patch.setattr(forward, name, value)
        assert _forward(setup, events) == expected
        _, approx, _ = _forward(setup, events, exact=False)
        assert approx == pytest.approx(expected[1], rel=1e-12)


def _renumbered(events):
    """The events with lines 2, 3, ... (the header is line 1)."""
    return [type(e)(e.type, e.fields, line) for line, e in enumerate(events, 2)]


@settings(deadline=None, max_examples=30, derandomize=True)
@given(games(**TINY))
def test_narrower_supports_count_the_histories_they_allow(game):
    """Taking a player out of a card's support at one epoch counts as a `lacks` there."""
    setup, events, _ = game
    timeline, model, tallies, supports = _prepared(setup, events)
    assert model is not None and supports is not None
    rng = random.Random(len(events))
    spots = [
        (e, c, h)
        for e, row in enumerate(supports)
        for c, holders in enumerate(row)
        for h in holders
        if h >= 2 and len(holders) > 1
    ]
    assume(spots)
    epoch, card, holder = rng.choice(spots)
    narrower = [[set(holders) for holders in row] for row in supports]
    narrower[epoch][card].discard(holder)
    total, holders = drive(count_forward(model.domains, tallies, timeline, narrower))
    after = [i for i, e in enumerate(events) if e.type in TRANSFERS][epoch - 1] + 1 if epoch else 0
    lacks = type(events[0])(
        "lacks", {"player": timeline.holders[holder], "card": setup.deck.ids[card]}, 0
    )
    brute = enumerate_posterior(setup, _renumbered([*events[:after], lacks, *events[after:]]))
    assert total == brute.histories
    assert (_named(timeline, setup, total, holders) if total else {}) == brute.holders


@settings(deadline=None, max_examples=20, derandomize=True)
@given(games(**TINY))
def test_supports_that_strand_a_card_leave_no_history(game):
    """A card that must stay with a player through a transfer, taken out of that player's
    support after it: no history is left."""
    setup, events, _ = game
    timeline, model, tallies, supports = _prepared(setup, events)
    assert model is not None and supports is not None
    stuck = [
        (e, c)
        for e in range(1, len(supports))
        for c in range(len(setup.deck))
        if len(supports[e - 1][c]) == 1
        and supports[e - 1][c] == supports[e][c]
        and min(supports[e][c]) >= 2
    ]
    assume(stuck)
    epoch, card = stuck[0]
    narrower = [[set(holders) for holders in row] for row in supports]
    narrower[epoch][card] = set()
    assert drive(count_forward(model.domains, tallies, timeline, narrower)) == (
        0,
        tuple({} for _ in setup.deck.ids),
    )


def test_observation_tallies_must_count_holders():
    setup, events = _regression()
    timeline, model, tallies, supports = _prepared(setup, events)
    assert model is not None
    moves = [Tally("move", 1, 1, 4, frozenset({0}), 0, 1, line=3)]
    with pytest.raises(ValueError, match="kind 'move'"):
        count_forward(model.domains, [*tallies, *moves], timeline, supports)


def _states_by_epoch(setup, events):
    """The set of states that consistent histories pass through, epoch by epoch."""
    indices = [0] + [i + 1 for i, e in enumerate(events) if e.type in TRANSFERS]
    epochs: list[set[tuple[str, ...]]] = [set() for _ in indices]
    for _, path in consistent_histories(setup, events):
        for e, i in enumerate(indices):
            epochs[e].add(tuple(path[i][card] for card in setup.deck.ids))
    return epochs


@settings(deadline=None, max_examples=40, derandomize=True)
@given(corrupted_games(**LISTED))
def test_supports_are_the_holders_consistent_histories_pass_through(game):
    setup, events, _ = game
    timeline = timeline_or_skip(setup, events)
    supports = sat_model(AbbeyPosition(setup, tuple(events), timeline)).supports()
    states = _states_by_epoch(setup, events)
    if not any(states):
        assert supports is None
        return
    assert supports is not None and len(supports) == len(states)
    for epoch, (row, seen) in enumerate(zip(supports, states)):
        for c in range(len(setup.deck)):
            named = {timeline.holders[h] for h in row[c]}
            assert named == {state[c] for state in seen}, (epoch, c)


def _fitting(nodes, sizes):
    """Every assignment of the cards to holders that fits the per-card nodes and the sizes."""

    def fill(holder, free, placed):
        if holder == len(sizes):
            yield tuple(placed[c] for c in range(len(nodes)))
            return
        able = [c for c in free if holder in nodes[c]]
        for chosen in combinations(able, sizes[holder]):
            here = dict.fromkeys(chosen, holder)
            yield from fill(holder + 1, free - set(chosen), {**placed, **here})

    return list(fill(0, frozenset(range(len(nodes))), {}))


def _meets(state, tallies, epoch):
    """Whether a state meets every observation tally of ``epoch``."""
    return all(
        t.lo <= sum(state[c] == t.holder for c in t.cards) <= t.hi
        for t in tallies
        if t.line is not None and t.time == epoch
    )


@settings(deadline=None, max_examples=30, derandomize=True)
@given(games(**LISTED))
def test_predicted_states_fit_the_supports_and_bound_the_reached_states(game):
    setup, events, _ = game
    timeline, model, tallies, supports = _prepared(setup, events)
    assert model is not None and supports is not None
    predicted = predict_states(supports, timeline.sizes)
    observed = predict_states(supports, timeline.sizes, tallies)
    index = {name: h for h, name in enumerate(timeline.holders)}
    for epoch, states in enumerate(_states_by_epoch(setup, events)):
        fitting = _fitting(supports[epoch], timeline.sizes[epoch])
        assert predicted[epoch] == len(fitting)
        assert observed[epoch] == sum(_meets(state, tallies, epoch) for state in fitting)
        assert predicted[epoch] >= observed[epoch] >= len(states)
        assert all(_meets(tuple(index[h] for h in state), tallies, epoch) for state in states)
    assert all(d >= s for d, s in zip(predict_states(model.domains, timeline.sizes), predicted))
    assert predicted_peak(supports, timeline.sizes, tallies) == max(observed)
    assert predicted_peak(supports, timeline.sizes, tallies, deadline=0.0) is None


def _regression():
    log = read_log(str(REGRESSION))
    setup = setup_from_header(log.header, log.path)
    return setup, list(log.events)


def test_the_spectator_log_that_hung_the_solver_is_counted():
    setup, events = _regression()
    assert setup.me is None
    timeline, total, holders = _matches_brute_force(setup, events)
    assert total == 22_425_984
    named = _named(timeline, setup, total, holders)
    assert "culprit" not in named["hebert"]  # a wrong accusation, shown by bob
    assert sum(row.get("culprit", 0) for row in named.values()) == 1


@pytest.mark.parametrize("recut", [{}, {"ROWS": 50, "PENDING": 100}], ids=["whole", "sliced"])
def test_a_layer_past_max_states_declines(recut, monkeypatch):
    for name, value in recut.items():
        monkeypatch.setattr(forward, name, value)
    setup, events = _regression()
    timeline, model, tallies, supports = _prepared(setup, events)
    assert model is not None
    peak = max(predict_states(supports, timeline.sizes))
    for cap in (100, 2_000):  # the deal has 1,260 states; a later layer 2,326
        assert (
            drive(count_forward(model.domains, tallies, timeline, supports, max_states=cap)) is None
        )
    assert (
        drive(count_forward(model.domains, tallies, timeline, supports, max_states=peak))
        is not None
    )


def test_states_without_a_key_word_merge_into_one():
    code = forward.StateCode([{1}, {3}], 8)
    merged = forward.merge_states(np.zeros((0, 3), dtype=np.uint64), np.array([1, 2, 3]), code)
    assert merged.keys.shape == (0, 1) and merged.weights.tolist() == [6]


def test_one_word_sorts_with_and_without_the_packed_index():
    rng = np.random.default_rng(7)
    for bits in (10, 60, 64):
        key = rng.integers(0, 1 << min(bits, 63), 1000, dtype=np.int64).astype(np.uint64)
        ordered, order = forward._sorted(key.copy(), bits)
        assert (ordered == np.sort(key)).all() and (key[order] == ordered).all()


def _lookahead(setup, events):
    """(each epoch's states of consistent histories, the filter's look-ahead) of a game.

    The states are ``states[epoch][card]``: the card's holder in each history.
    """
    timeline, model, tallies, supports = _prepared(setup, events)
    assume(model is not None and supports is not None)
    allowed = [
        [set(d.nodes[e]) & supports[e][c] for c, d in enumerate(model.domains)]
        for e in range(len(timeline.sizes))
    ]
    observed = forward._observations(tallies, len(timeline.sizes))
    ahead = [
        Ahead(e, obs.holder, obs.cards, obs.lo, obs.hi)
        for e, row in enumerate(observed)
        for obs in row
    ]
    indices = [0] + [i + 1 for i, e in enumerate(events) if e.type in TRANSFERS]
    paths = [path for _, path in consistent_histories(setup, events)]
    states = [
        [
            np.array([timeline.holder(path[i][card]) for path in paths], dtype=np.intp)
            for card in setup.deck.ids
        ]
        for i in indices
    ]
    return states, Lookahead(model.domains, allowed, ahead, timeline)


@checks
@given(games(**LISTED))
def test_the_look_ahead_never_calls_a_consistent_history_dead(game):
    """At every epoch, the states of consistent histories get a finite guide, at most 1."""
    setup, events, _ = game
    states, lookahead = _lookahead(setup, events)
    assume(len(states[0][0]))
    for epoch, held in enumerate(states):
        log = lookahead.log_guide(epoch, held.__getitem__, len(held[0]))
        assert np.isfinite(log).all() and (log <= 0).all()
        alone = [
            lookahead.log_guide(epoch, [where[i : i + 1] for where in held].__getitem__, 1)[0]
            for i in range(min(len(log), 5))
        ]  # states that look alike share a guide
        assert np.allclose(alone, log[: len(alone)], rtol=1e-12, atol=1e-12)
