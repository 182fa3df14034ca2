"""The exact value of each Abbey option agrees with brute force on tiny random games.

For every option the joint law of (culprit, answer) is rebuilt from the
brute-force list of consistent histories, straight from the option's
definition, and its mutual information must equal the exact advice's.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from abbey_random import games
from hypothesis import assume, given, settings
from oracles.abbey import consistent_histories

from deduce.games.abbey.advice.exact import exact_advice, information
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import AbbeyPosition, build_timeline
from deduce.logs.formats.abbey import AbbeySetup
from deduce.logs.io import read_log
from deduce.logs.model import Event

ROOT = Path(__file__).resolve().parent.parent
checks = settings(deadline=None, max_examples=40, derandomize=True)
#: Small enough to list every history one by one.
LISTABLE = {"min_cards": 6, "max_cards": 8, "max_deals": 3_000, "max_events": 8}


def _final_states(setup: AbbeySetup, events: list[Event]) -> dict[tuple[str, ...], Fraction]:
    """Each possible final state (holder per card, deck order) with its posterior weight."""
    weights: dict[tuple[str, ...], Fraction] = defaultdict(Fraction)
    for weight, path in consistent_histories(setup, events):
        weights[tuple(path[-1][c] for c in setup.deck.ids)] += weight
    total = sum(weights.values())
    return {state: w / total for state, w in weights.items()}


def _brute_joint(
    setup: AbbeySetup,
    states: dict[tuple[str, ...], Fraction],
    kind: str,
    target: str,
    detail: tuple[str, ...],
) -> dict[tuple[int, object], float]:
    """The joint law of the culprit and the option's answer, from the final states."""
    ids = setup.deck.ids
    joint: dict[tuple[int, object], float] = defaultdict(float)
    for state, p in states.items():
        culprit = state.index("culprit")
        held = [x for x, holder in enumerate(state) if holder == target]
        if kind == "has":
            joint[culprit, state[ids.index(detail[0])] == target] += float(p)
        elif kind == "count":
            joint[culprit, sum(setup.deck.card(ids[x]).has_traits(detail) for x in held)] += float(
                p
            )
        else:  # take or draw: one of the target's cards, uniformly
            for x in held:
                joint[culprit, x] += float(p) / len(held)
    return joint


@checks
@given(games(**LISTABLE))
def test_every_option_matches_brute_force(game):
    setup, events, _ = game
    states = _final_states(setup, events)
    advice = exact_advice(AbbeyPosition.of(setup, events, "<log>"))
    assert advice is not None
    assert all(o.exact for o in advice.options)
    for option in advice.options:
        holder = "pile" if option.kind == "draw" else option.target
        expected = information(_brute_joint(setup, states, option.kind, holder, option.detail))
        assert option.gain == pytest.approx(expected, abs=1e-9), option
    culprits = defaultdict(float)
    for state, p in states.items():
        culprits[setup.deck.ids[state.index("culprit")]] += float(p)
    assert advice.culprit == pytest.approx(dict(culprits))


@checks
@given(games(**LISTABLE))
def test_kinds_offered(game):
    setup, events, _ = game
    advice = exact_advice(AbbeyPosition.of(setup, events, "<log>"))
    others = [p for p in setup.players if p != setup.me]
    kinds = {(o.kind, o.target) for o in advice.options}
    for player in others:
        assert ("count", player) in kinds and ("has", player) in kinds
    assert not any(o.target == setup.me for o in advice.options)
    assert [o.gain for o in advice.options] == sorted(
        (o.gain for o in advice.options), reverse=True
    )


def test_bundled_example_ranks_the_deciding_question_first():
    advice = exact_advice(AbbeyPosition.of_log(read_log(str(ROOT / "examples" / "abbey-4p.log"))))
    best = advice.options[0]
    assert best.gain > 0.9 and best.gain <= advice.entropy
    assert all(o.gain <= advice.entropy + 1e-12 for o in advice.options)


def test_gives_up_past_the_deadline():
    hard = read_log(str(ROOT / "tests" / "data" / "cases" / "abbey-6p-00.jsonl"))
    assert exact_advice(AbbeyPosition.of_log(hard), deadline=0.0) is None


@checks
@given(games(**LISTABLE))
def test_a_certain_culprit_leaves_every_option_worth_nothing(game):
    setup, events, _ = game
    states = _final_states(setup, events)
    assume(len({state.index("culprit") for state in states}) == 1)
    timeline = build_timeline(setup, events, "game")
    witness = sat_model(AbbeyPosition(setup, tuple(events), timeline)).witness()
    counted, settled = (
        exact_advice(AbbeyPosition.of(setup, events, "<log>")),
        exact_advice(AbbeyPosition.of(setup, events, "<log>"), witness=witness),
    )
    assert counted is not None and settled is not None
    assert {(o.kind, o.target, o.detail) for o in settled.options} == {
        (o.kind, o.target, o.detail) for o in counted.options
    }
    assert all(o.gain == 0 and o.exact for o in settled.options)
    assert all(o.gain == pytest.approx(0, abs=1e-9) for o in counted.options)
    assert settled.culprit == counted.culprit and settled.entropy == 0
