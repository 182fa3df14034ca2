"""The solvers agree with the brute-force enumerator on tiny random games.

Counts, culprit and holder probabilities must match exactly (as fractions);
the python-constraint closure must equal the support of the counts; an
inconsistent log's conflict must be inconsistent and minimal, and what its
explanation says the other lines force must hold in every history they allow.
"""

from __future__ import annotations

from itertools import islice

import pytest
from abbey_random import corrupted_games, games, timeline_or_skip
from hypothesis import assume, given, settings
from oracles.abbey import consistent_histories, enumerate_posterior

from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.sat.conflict import Clash, find_clash, minimal_conflict
from deduce.games.abbey.solver.search.csp import CspEngine
from deduce.games.abbey.solver.timeline import TRANSFERS, AbbeyPosition

# Derandomized: the same examples on every run, so the suite's time is stable in CI.
checks = settings(deadline=None, max_examples=30, derandomize=True)
#: The issue's tiny decks: 8 to 10 cards, 2 or 3 players, masses and thefts included.
TINY = {"min_cards": 8, "max_cards": 10, "max_deals": 80_000, "max_events": 12}
#: python-constraint refutes impossible holders by search, slowly: 6 to 8 cards.
SMALL = {"min_cards": 6, "max_cards": 8, "max_events": 10}


def _solve(setup, events):
    timeline = timeline_or_skip(setup, events)
    model = build_model(AbbeyPosition(setup, tuple(events), timeline))
    return timeline, model, count_histories(model)


def _named(timeline, counts, setup):
    return {
        card: {timeline.holders[h]: p for h, p in row.items()}
        for card, row in zip(setup.deck.ids, counts.probabilities())
        if row
    }


def _matches_brute_force(setup, events):
    """Assert the default count equals the brute force exactly; return its named holders."""
    timeline, _, counts = _solve(setup, events)
    brute = enumerate_posterior(setup, events)
    assert counts.total == brute.histories
    holders = _named(timeline, counts, setup)
    assert holders == brute.holders
    culprit = {c: row["culprit"] for c, row in holders.items() if "culprit" in row}
    assert culprit == brute.culprit
    return holders


@checks
@given(games(**TINY))
def test_counts_match_brute_force(game):
    setup, events, truth = game
    holders = _matches_brute_force(setup, events)
    assert all(holders[card][holder] > 0 for card, holder in truth.holders.items())
    assert holders[truth.culprit]["culprit"] > 0


def _by_method(method, model):
    """Counts from one method alone, or skip the example when it takes over 500 slices."""
    counts = count_histories(model, [method], max_slices=500)
    assume(counts is not None)
    return counts


@pytest.mark.parametrize("method", ["cards", "epochs", "paths"])
@checks
@given(game=corrupted_games(**TINY))
def test_each_method_matches_brute_force(method, game):
    setup, events, _ = game
    timeline, model, _ = _solve(setup, events)
    counts = _by_method(method, model)
    brute = enumerate_posterior(setup, events)
    assert counts.total == brute.histories
    assert _named(timeline, counts, setup) == brute.holders


@checks
@given(corrupted_games(**TINY))
def test_corrupted_logs_match_brute_force(game):
    setup, events, _ = game
    _matches_brute_force(setup, events)


@settings(deadline=None, max_examples=25, derandomize=True)
@given(corrupted_games(**SMALL))
def test_csp_closure_is_the_support_of_the_counts(game):
    setup, events, _ = game
    _, model, counts = _solve(setup, events)
    closure = CspEngine(model).closure()
    support = [set(row) for row in counts.holders]
    if counts.total == 0:
        assert closure is None
    else:
        assert closure == support


def _conflict(setup, events):
    """The timeline and minimal conflict of an inconsistent log (None when it is consistent)."""
    if enumerate_posterior(setup, events).consistent:
        return None
    timeline = timeline_or_skip(setup, events)
    return timeline, minimal_conflict(AbbeyPosition(setup, tuple(events), timeline))


@settings(deadline=None, max_examples=25, derandomize=True)
@given(corrupted_games(**TINY))
def test_conflicts_are_minimal(game):
    setup, events, _ = game
    found = _conflict(setup, events)
    if found is None:
        return
    _, conflict = found
    lines = conflict.lines
    assert lines
    assert {e.line for e in events if e.line in conflict.transfers} <= {
        e.line for e in events if e.type in TRANSFERS
    }

    def keep(kept):
        return [e for e in events if e.type in TRANSFERS or e.line in kept]

    assert not enumerate_posterior(setup, keep(set(lines))).consistent
    observations = {e.line for e in events if e.type not in TRANSFERS}
    for line in (line for line in lines if line in observations):
        assert enumerate_posterior(setup, keep(set(lines) - {line})).consistent


#: Every history of the other lines is listed, so the games are smaller still.
CLASH = {"min_cards": 7, "max_cards": 8, "max_deals": 20_000, "max_events": 12}
#: Past this many histories of the other lines, the example is too big to list: drawn again.
CLASH_HISTORIES = 20_000


@settings(deadline=None, max_examples=25, derandomize=True)
@given(corrupted_games(**CLASH))
def test_what_a_clash_says_holds_in_every_history_of_its_other_lines(game):
    setup, events, _ = game
    found = _conflict(setup, events)
    if found is None:
        return
    timeline, conflict = found
    clash = find_clash(AbbeyPosition(setup, tuple(events), timeline), conflict)
    if clash is None:
        return
    kept = [
        _stripped(e) if e.type in TRANSFERS and e.line not in clash.given else e
        for e in events
        if e.type in TRANSFERS or e.line in clash.given
    ]
    after = {"at": clash.line - 1, "before": clash.line - 1, "after": clash.line}[clash.when]
    index = sum(1 for e in kept if e.line <= after)
    histories = islice(consistent_histories(setup, kept), CLASH_HISTORIES + 1)
    states = [path[index] for _, path in histories]
    assume(len(states) <= CLASH_HISTORIES)
    assert states, "the other lines of a minimal conflict agree with some history"
    ids, holder = setup.deck.ids, timeline.holders[clash.holder]
    target = next(e for e in events if e.line == clash.line)
    traits = target.fields.get("traits", ())
    counted = {c for c, card in enumerate(setup.deck.cards) if card.has_traits(traits)}
    _check_clash(clash, states, ids, holder, timeline, counted)


def _stripped(event):
    """A transfer without the cards it names: only its public structure."""
    fields = {k: v for k, v in event.fields.items() if k not in ("card", "gave", "got")}
    return type(event)(event.type, fields, event.line)


def _check_clash(clash: Clash, states, ids, holder, timeline, counted):
    """The claim of each kind of clash, over every state the other lines allow.

    ``counted`` are the cards with the traits of the clashing count, if any.
    """
    seen = {timeline.holders[h] for h in clash.holders}
    if clash.kind == "only":
        assert {s[ids[clash.card]] for s in states} == seen and holder not in seen
    elif clash.kind == "forced":
        assert all(s[ids[clash.card]] == holder for s in states)
    elif clash.kind == "culprit":
        assert all(s[ids[clash.cards[0]]] == "culprit" for s in states)
    elif clash.kind == "at_most":  # no other counted card is ever with the holder
        for s in states:
            assert {c for c in counted if s[ids[c]] == holder} <= set(clash.cards)
    else:  # full, at_least, room: these cards are all with the holder
        for s in states:
            assert all(s[ids[c]] == holder for c in clash.cards)
        if clash.kind == "full":
            assert len(clash.cards) >= timeline.sizes[clash.epoch][clash.holder]
