"""The solvers agree with the brute-force enumerator on tiny random games.

Counts, culprit and holder probabilities must match exactly (as fractions);
the python-constraint closure must equal the support of the counts; an
inconsistent log's conflict must be inconsistent and minimal.
"""

from __future__ import annotations

from abbey_random import corrupted_games, games
from hypothesis import assume, given, settings

from deduce.errors import LogError
from deduce.games.abbey.brute import enumerate_posterior
from deduce.games.abbey.conflict import minimal_conflict
from deduce.games.abbey.count import count_histories
from deduce.games.abbey.csp import CspEngine
from deduce.games.abbey.model import build_model
from deduce.games.abbey.timeline import TRANSFERS, build_timeline

checks = settings(deadline=None, max_examples=60)


def _timeline(setup, events):
    """The timeline, or skip the example when a corrupted log breaks the public sizes."""
    try:
        return build_timeline(setup, events, "game")
    except LogError:
        assume(False)


def _solve(setup, events):
    timeline = _timeline(setup, events)
    model = build_model(setup, timeline, events)
    return timeline, model, count_histories(model)


def _named(timeline, counts, setup):
    return {card: {timeline.holders[h]: p for h, p in row.items()}
            for card, row in zip(setup.deck.ids, counts.probabilities()) if row}


@checks
@given(games())
def test_counts_match_brute_force(game):
    setup, events, truth = game
    timeline, _, counts = _solve(setup, events)
    brute = enumerate_posterior(setup, events)
    assert counts.total == brute.histories > 0
    holders = _named(timeline, counts, setup)
    assert holders == brute.holders
    culprit = {c: row["culprit"] for c, row in holders.items() if "culprit" in row}
    assert culprit == brute.culprit
    assert truth.culprit in culprit


@checks
@given(corrupted_games())
def test_corrupted_logs_match_brute_force(game):
    setup, events, _ = game
    timeline, _, counts = _solve(setup, events)
    brute = enumerate_posterior(setup, events)
    assert counts.total == brute.histories
    assert _named(timeline, counts, setup) == brute.holders


@checks
@given(corrupted_games())
def test_csp_closure_is_the_support_of_the_counts(game):
    setup, events, _ = game
    _, model, counts = _solve(setup, events)
    closure = CspEngine(model).closure()
    support = [set(row) for row in counts.holders]
    if counts.total == 0:
        assert closure is None
    else:
        assert closure == support


@settings(deadline=None, max_examples=40)
@given(corrupted_games())
def test_conflicts_are_minimal(game):
    setup, events, _ = game
    if enumerate_posterior(setup, events).consistent:
        return
    timeline = _timeline(setup, events)
    conflict = minimal_conflict(setup, timeline, events)
    lines = conflict.lines
    assert lines
    assert {e.line for e in events if e.line in conflict.transfers} <= {
        e.line for e in events if e.type in TRANSFERS}

    def keep(kept):
        return [e for e in events if e.type in TRANSFERS or e.line in kept]

    assert not enumerate_posterior(setup, keep(set(lines))).consistent
    observations = {e.line for e in events if e.type not in TRANSFERS}
    for line in (line for line in lines if line in observations):
        assert enumerate_posterior(setup, keep(set(lines) - {line})).consistent
