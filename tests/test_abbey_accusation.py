"""The solver bot's accusations: advised by the draws, checked by the exact count."""

from __future__ import annotations

from pathlib import Path

from deduce.games.abbey.advisor import (
    ACCUSE_POINTS,
    ESTIMATED_ACCUSE_AT,
    Advice,
    confirmed_accusation,
)
from deduce.games.abbey.solve import solve_abbey
from deduce.logs.io import read_log

EXAMPLE = Path(__file__).parent.parent / "examples" / "abbey-4p.log"


def _advice(culprit: dict[str, float]) -> Advice:
    return Advice(culprit, 0.0, (), {})


def test_an_advised_accusation_goes_to_the_exact_favourite_if_it_is_worth_it():
    log = read_log(str(EXAMPLE))
    exact = solve_abbey(log)
    favourite = exact.candidates[0]
    other = exact.candidates[-1]
    worth_it = 6 * exact.culprit[favourite] - 2 >= ACCUSE_POINTS
    # the draws insist on the least likely suspect; the exact count decides
    assert confirmed_accusation(log, _advice({other: 1.0})) == (favourite if worth_it else None)


def test_no_accusation_unless_the_draws_advise_one():
    log = read_log(str(EXAMPLE))
    assert confirmed_accusation(log, _advice({"a": 0.5, "b": 0.5})) is None


def test_without_an_exact_count_only_a_near_certain_draw_accuses():
    log = read_log(str(EXAMPLE))
    card = solve_abbey(log).candidates[0]
    sure = _advice({card: ESTIMATED_ACCUSE_AT, "other": 1 - ESTIMATED_ACCUSE_AT})
    likely = _advice({card: 0.8, "other": 0.2})
    assert confirmed_accusation(log, sure, slices=0) == card
    assert confirmed_accusation(log, likely, slices=0) is None
