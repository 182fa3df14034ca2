"""The Rose solver: agreement with the brute force, hand examples, conflicts and the CLI."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracles.rose import brute_marginals, weighted_deals
from rose_random import only, rose, rose_logs

from deduce.cli.main import cli
from deduce.cli.status import EXIT_INCONSISTENT
from deduce.games.rose.behaviour import KINDS, BehaviourModel, default_model
from deduce.games.rose.csp import assignments
from deduce.games.rose.report import tables
from deduce.games.rose.solve import RoseSolution, solve_rose
from deduce.logs.formats.rose import COLOURS
from deduce.logs.model import GameLog

fast = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


models = st.lists(st.floats(-3, 3), min_size=len(KINDS), max_size=len(KINDS)).map(
    lambda theta: BehaviourModel(dict(zip(KINDS, theta)))
)


def reported(log: GameLog, marginals: dict[str, dict[str, Fraction]]) -> dict:
    return {p: row for p, row in marginals.items() if p != log.header.me}


@settings(fast, max_examples=150)
@given(rose_logs())
def test_hard_solution_is_the_brute_force_exactly(log):
    solution = solve_rose(log, hard=True)
    expected = brute_marginals(log)
    assert solution.consistent == (expected is not None)
    assert set(assignments(log.header.players, log.events)) == {
        deal for deal, _ in weighted_deals(log)
    }
    if expected is not None:
        assert solution.probabilities == reported(log, expected)
        assert list(solution.probabilities) == list(solution.players)


@settings(fast, max_examples=100)
@given(rose_logs(), models)
def test_soft_solution_is_the_brute_force(log, model):
    solution = solve_rose(log, model=model)
    expected = brute_marginals(log, model)
    assert solution.consistent == (expected is not None)
    assume(expected is not None)
    expected = reported(log, expected)
    assert {p: list(row) for p, row in solution.probabilities.items()} == {
        p: list(row) for p, row in expected.items()
    }
    for player, row in expected.items():
        for colour, p in row.items():
            assert math.isclose(
                solution.probabilities[player][colour], p, rel_tol=1e-9, abs_tol=1e-12
            )


@settings(fast, max_examples=60)
@given(rose_logs())
def test_zero_theta_is_the_hard_solution_exactly(log):
    zero = solve_rose(log, model=BehaviourModel(dict.fromkeys(KINDS, 0.0)))
    hard = solve_rose(log, hard=True)
    assert (zero.probabilities, zero.conflict) == (hard.probabilities, hard.conflict)


@settings(
    fast,
    max_examples=100,  # inconsistent logs are a minority of those drawn
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(rose_logs(max_events=12))
def test_conflicts_are_minimal_and_real(log):
    solution = solve_rose(log, hard=True)
    assume(not solution.consistent)
    lines = set(solution.conflict)
    hard_lines = {e.line for e in log.events if e.type in ("identity", "reveal")}
    assert lines and lines <= hard_lines
    assert brute_marginals(only(log, lines)) is None
    for line in lines:
        assert brute_marginals(only(log, lines - {line})) is not None
    assert solution.explanation[0] == "These events cannot all be true:"
    assert len(solution.explanation) == len(lines) + 2
    assert solution.to_json() == {
        "game": "rose",
        "consistent": False,
        "exact": True,
        "conflict": sorted(lines),
    }


# --------------------------------------------------------------------------
# hand examples

TWO_OF_TWO = rose(
    "ana bob cai",
    None,
    *(f"reveal {p} {c}" for p in ("ana", "bob") for c in ("white", "grey", "black", "orange")),
)


def test_two_players_left_with_two_colours_take_them_from_everyone_else():
    solution = solve_rose(TWO_OF_TWO)
    half, quarter = Fraction(1, 2), Fraction(1, 4)
    assert solution.probabilities == {
        "ana": {"red": half, "blue": half},
        "bob": {"red": half, "blue": half},
        "cai": {"white": quarter, "grey": quarter, "black": quarter, "orange": quarter},
    }
    assert solution.guess == {"ana": "red", "bob": "red", "cai": "white"}  # ties: COLOURS order
    assert solution.best_guesses() == {"ana": "red", "bob": "blue", "cai": "white"}


def test_reveals_only_probabilities_by_hand():
    # a in {white grey black orange}: 4; b not red, not a: 4; c not a, not b: 4 -> 64 deals.
    solution = solve_rose(
        rose("ana bob cai", None, "reveal ana red", "reveal ana blue", "reveal bob red")
    )
    rest = ("white", "grey", "black", "orange")
    assert solution.probabilities == {
        "ana": dict.fromkeys(rest, Fraction(1, 4)),
        "bob": {"blue": Fraction(16, 64), **dict.fromkeys(rest, Fraction(12, 64))},
        "cai": {
            "red": Fraction(16, 64),
            "blue": Fraction(12, 64),
            **dict.fromkeys(rest, Fraction(9, 64)),
        },
    }


def test_me_is_left_out_and_my_colour_is_nobody_elses():
    solution = solve_rose(rose("ana bob cai", "ana", "identity ana red", "reveal bob blue"))
    assert solution.players == ("bob", "cai")
    out = solution.to_json()
    assert list(out["players"]) == ["bob", "cai"] and list(out["guess"]) == ["bob", "cai"]
    assert out["players"]["bob"] == {
        "candidates": ["white", "grey", "black", "orange"],
        "probabilities": dict.fromkeys(["white", "grey", "black", "orange"], 0.25),
    }
    assert out["players"]["cai"]["candidates"] == ["blue", "white", "grey", "black", "orange"]
    assert out["players"]["cai"]["probabilities"]["blue"] == 0.25
    assert out["players"]["cai"]["probabilities"]["white"] == 0.1875


def test_spectator_sees_everyone_with_the_exact_json():
    out = solve_rose(rose("ana bob", None, "identity ana orange")).to_json()
    bob = dict.fromkeys(["red", "blue", "white", "grey", "black"], 0.2)
    assert out == {
        "game": "rose",
        "consistent": True,
        "exact": True,
        "players": {
            "ana": {"candidates": ["orange"], "probabilities": {"orange": 1.0}},
            "bob": {"candidates": list(bob), "probabilities": bob},
        },
        "guess": {"ana": "orange", "bob": "red"},
        "day7_guess": {"ana": "orange", "bob": "red"},
        "day7_tied": 5,
    }


@pytest.mark.parametrize(("n", "kind"), [(-3, ("william", "help")), (3, ("william", "harm"))])
def test_soft_evidence_moves_the_probability_the_way_theta_says(n, kind):
    log = rose(
        "ana bob",
        "ana",
        "identity ana red",
        f"points bob orange clue {n} william",
        "guess bob of ana red",
    )
    theta = default_model().theta[kind]
    odds = math.exp(theta)
    soft = solve_rose(log, model=default_model()).probabilities["bob"]
    assert math.isclose(soft["orange"], odds / (odds + 4), rel_tol=1e-12)
    assert math.isclose(soft["blue"], 1 / (odds + 4), rel_tol=1e-12)
    hard = solve_rose(log, hard=True).probabilities["bob"]
    assert hard["orange"] == Fraction(1, 5)
    assert (soft["orange"] > hard["orange"]) == (theta > 0)


def test_soft_events_about_impossible_colours_change_nothing():
    log = rose(
        "ana bob",
        "ana",
        "identity ana red",
        "reveal bob blue",
        "points bob blue suspicion 5 adson",
        "points bob red clue -3 william",
    )
    assert solve_rose(log).probabilities == solve_rose(log, hard=True).probabilities
    assert solve_rose(log).weighed == 2


def test_a_marker_revealed_twice_is_a_conflict():
    solution = solve_rose(
        rose("ana bob", "ana", "reveal bob red", "reveal ana blue", "reveal bob red")
    )
    assert solution.conflict == (4, 6)
    assert solution.explanation[-1] == "bob has a single red marker, which cannot be revealed twice"


def test_conflict_is_found_in_the_shortest_inconsistent_prefix():
    solution = solve_rose(
        rose(
            "ana bob cai",
            "ana",
            "identity ana red",
            "identity bob red",
            "identity cai blue",
            "identity bob blue",
        )
    )
    assert solution.conflict == (4, 5)
    assert solution.explanation == (
        "These events cannot all be true:",
        "line 4 says ana is red",
        "line 5 says bob is red",
        "so ana and bob have only red left between them: 1 colour for 2 players, "
        "who are all different monks",
    )
    assert solution.best_guesses() == {}


def test_one_player_without_a_colour():
    solution = solve_rose(rose("ana bob", "ana", "identity bob red", "reveal bob red"))
    assert solution.explanation[1:] == (
        "line 4 says bob is red",
        "line 5 says bob revealed red, so is not red",
        "so bob can be no colour at all",
    )


def test_tables():
    guesses, matrix = tables(solve_rose(TWO_OF_TWO))
    assert guesses.rows == [
        ["ana", "red", "50.0%", "red", "50.0%"],
        ["bob", "red", "50.0%", "blue", "50.0%"],
        ["cai", "white", "25.0%", "white", "25.0%"],
    ]
    assert matrix.title == "Who is which monk"
    assert matrix.rows[2] == ["cai", "", "", "25.0%", "25.0%", "25.0%", "25.0%"]


def test_a_day_7_guess_may_be_impossible_colour():
    solution = RoseSolution(
        ("bob", "cai"), True, {"bob": {"red": Fraction(1)}, "cai": {"red": Fraction(1)}}
    )
    assert solution.best_guesses() == {"bob": "red", "cai": "blue"}
    assert tables(solution)[0].rows[1] == ["cai", "red", "100%", "blue", "0%"]


# --------------------------------------------------------------------------
# CLI

SOFT_LOG = (
    "game rose\nplayers ana bob cai\nme ana\nidentity ana red\npoints bob blue clue -3 william\n"
)
BAD_LOG = (
    "game rose\nplayers ana bob cai\nme ana\nidentity ana red\nreveal bob blue\nidentity bob red\n"
)


def test_cli_table_of_the_single_style_model(log_file):
    result = CliRunner().invoke(cli, ["solve", log_file(SOFT_LOG), "--model", "monk"])
    assert result.exit_code == 0, result.output
    assert "Who is which monk (weighing 1 behaviour event)" in result.output
    assert result.output.startswith(
        "Guesses (the day-7 guess: expected right 0.70 of 2, "
        "all right 12.0%; tied with 3 other guesses)\n"
    )
    assert "How each player plays" not in result.output  # one style: nothing to tell


def test_cli_json_and_hard(log_file):
    path = log_file(SOFT_LOG)
    single = json.loads(
        CliRunner().invoke(cli, ["solve", path, "--json", "--model", "monk"]).output
    )
    hard = json.loads(CliRunner().invoke(cli, ["solve", path, "--json", "--hard"]).output)
    theta = math.exp(default_model().theta["william", "help"])
    assert single["guess"]["bob"] == "blue" and "styles" not in single
    assert single["players"]["bob"]["probabilities"]["blue"] == pytest.approx(theta / (theta + 4))
    assert hard["players"]["bob"]["probabilities"] == dict.fromkeys(COLOURS[1:], 0.2)
    assert list(hard) == [
        "game",
        "consistent",
        "exact",
        "players",
        "guess",
        "day7_guess",
        "day7_tied",
        "exposure",
        "exposure_points",
    ]
    assert hard["day7_tied"] == 20  # five colours for two players, all equally likely


def test_cli_inconsistent_log_exits_3_with_the_conflict(log_file):
    path = log_file(BAD_LOG)
    result = CliRunner().invoke(cli, ["solve", path])
    assert result.exit_code == EXIT_INCONSISTENT
    assert "line 4 says ana is red" in result.output
    assert "line 6 says bob is red" in result.output
    result = CliRunner().invoke(cli, ["solve", path, "--json"])
    assert result.exit_code == EXIT_INCONSISTENT
    assert json.loads(result.output)["conflict"] == [4, 6]
