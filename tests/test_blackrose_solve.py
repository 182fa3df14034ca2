"""The Black Rose solver: agreement with the brute force, hand examples, conflicts, advice, CLI."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction

import pytest
from click.testing import CliRunner
from constraint import Domain
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracles.blackrose import brute_joint, brute_styles, weighted_states

from deduce.cli.main import cli
from deduce.cli.status import EXIT_INCONSISTENT
from deduce.errors import DeduceError
from deduce.games.blackrose.advisor import advise, binary_entropy, draw_information
from deduce.games.blackrose.claims import ClaimsModel, Level
from deduce.games.blackrose.csp import (
    FIRST,
    SECOND,
    Hidden,
    InnocentDeadConstraint,
    NotThisPairConstraint,
    Setting,
    facts,
    solutions,
)
from deduce.games.blackrose.report import tables
from deduce.games.blackrose.solve import solve_blackrose
from deduce.games.blackrose.views import with_views
from deduce.logs.formats.blackrose import ROLES
from deduce.logs.io import parse_log
from deduce.logs.model import GameLog

NAMES = ("ana", "bob", "cai", "dee", "eve")
SUSPECTS = ("s1", "s2", "s3", "s4", "s5", "s6", "s7")
HARD = ("role", "proof", "accuse", "goal")
fast = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def blackrose(players: str, rector: str, me: str | None, *events: str) -> GameLog:
    """A log in the line syntax (``me`` None: a spectator): header on lines 1-4, events after."""
    observer = "spectator" if me is None else f"me {me}"
    text = "\n".join([f"game blackrose\nplayers {players}\nrector {rector}\n{observer}", *events])
    return parse_log(text + "\n", "t.log")


def only(log: GameLog, lines: set[int]) -> GameLog:
    """The log with only the events on ``lines`` and every kill (the game's structure)."""
    return replace(log, events=tuple(e for e in log.events if e.line in lines or e.type == "kill"))


# --------------------------------------------------------------------------
# random logs


@st.composite
def blackrose_logs(
    draw: st.DrawFn,
    max_events: int = 9,
    honest: bool | None = None,
    sizes: tuple[int, ...] = (3, 4, 5),
) -> GameLog:
    """``sizes``: the player counts; if honest (None: drawn), every hard event is true.

    Claims are always random. Dishonest events are random too, but a role event rarely
    names the Rector and a goal never asks more innocent dead than there are dead, so that
    most conflicts are not one event on its own.
    """
    players = NAMES[: draw(st.sampled_from(sizes))]
    rector = draw(st.sampled_from(players))
    me = draw(st.sampled_from([None, *players]))
    seats = [p for p in players if p != rector]
    pair = set(draw(st.permutations(SUSPECTS))[:2])
    possessed = draw(st.sampled_from([*seats, *([None] if len(players) == 3 else [])]))
    if honest is None:
        honest = draw(st.booleans())
    dead: set[str] = set()
    lines = []
    for _ in range(draw(st.integers(0, max_events))):
        kind = draw(
            st.sampled_from(
                (
                    "role",
                    "proof",
                    "proof",
                    "accuse",
                    "kill",
                    "kill",
                    "kill",
                    "goal",
                    "claim",
                    "claim",
                )
            )
        )
        suspect = draw(st.sampled_from(SUSPECTS))
        player = draw(st.sampled_from(players))
        if kind == "role":
            role = (
                "rector"
                if player == rector
                else "possessed"
                if player == possessed
                else "investigator"
            )
            if not honest:
                player, role = draw(
                    st.sampled_from(
                        [(p, r) for p in seats for r in ROLES[:2]]
                        + [(rector, "investigator"), (seats[0], "rector")]
                    )
                )
            lines.append(f"role {player} {role}")
        elif kind == "proof":
            if honest:
                suspect = draw(st.sampled_from([s for s in SUSPECTS if s not in pair]))
            by = draw(st.sampled_from(["", f" by {player}"]))
            lines.append(f"proof {suspect}{by}")
        elif kind == "accuse":
            accused = draw(st.permutations(SUSPECTS))[:2]
            right = set(accused) == pair if honest else draw(st.booleans())
            lines.append(f"accuse {accused[0]} {accused[1]} {'right' if right else 'wrong'}")
        elif kind == "kill":
            dead.add(suspect)
            lines.append(f"kill {suspect}")
        elif kind == "goal":
            k = draw(st.sampled_from(range(len(dead - pair if honest else dead) + 1)))
            lines.append(f"goal mac innocent_dead_at_least {k}")
        else:
            verdict = draw(st.sampled_from(["innocent", "guilty"]))
            lines.append(f"claim {player} {suspect} {verdict}")
    return blackrose(" ".join(players), rector, me, *lines)


rates = st.floats(0.01, 0.99)
role_rates = st.builds(
    lambda e, lam, r: {"investigator": e, "possessed": lam, "rector": r}, rates, rates, rates
)
models = st.builds(ClaimsModel.single, role_rates)
#: Two or three levels, independent or exchangeable (the brute force sums every vector),
#: each with or without its own rates of claims of guilt and of their falsehood, the
#: chance of each claim's very suspect or only of its truth.
mixtures = st.builds(
    lambda levels, concentration, per_suspect: ClaimsModel(
        tuple(Level(f"l{i}", r, p, "", g, f) for i, (r, p, g, f) in enumerate(levels)),
        concentration,
        per_suspect=per_suspect,
    ),
    st.lists(
        st.tuples(
            role_rates,
            st.floats(0.05, 1),
            st.one_of(st.none(), role_rates),
            st.one_of(st.none(), role_rates),
        ),
        min_size=2,
        max_size=3,
    ),
    st.one_of(st.none(), st.floats(0.1, 5)),
    st.booleans(),
)


def marginals(joint: dict[Hidden, Fraction]) -> tuple[dict, dict, dict]:
    """Pair, suspect and Possessed marginals of a joint posterior (positive entries only)."""
    pairs: dict = {}
    suspects: dict = {}
    possessed: dict = {}
    for hidden, p in joint.items():
        pairs[hidden.pair] = pairs.get(hidden.pair, 0) + p
        possessed[hidden.possessed] = possessed.get(hidden.possessed, 0) + p
        for s in hidden.pair:
            suspects[s] = suspects.get(s, 0) + p
    return pairs, suspects, possessed


@settings(fast, max_examples=150)
@given(blackrose_logs())
def test_hard_solution_is_the_brute_force_exactly(log):
    solution = solve_blackrose(log, hard=True)
    expected = brute_joint(log)
    assert solution.consistent == (expected is not None)
    setting = Setting.of(log.header)
    assert set(solutions(setting, facts(log.events))) == {h for h, _ in weighted_states(log)}
    if expected is not None:
        assert solution.joint == expected
        pairs, suspects, possessed = marginals(expected)
        assert solution.pairs == pairs and solution.possessed == possessed
        assert {s: p for s, p in solution.suspects.items() if p} == suspects
        assert list(solution.suspects) == list(SUSPECTS)
        ranked = list(solution.pairs.items())
        assert ranked == sorted(ranked, key=lambda item: (-item[1], item[0]))


@settings(fast, max_examples=100)
@given(blackrose_logs(), models)
def test_soft_solution_is_the_brute_force(log, model):
    solution = solve_blackrose(log, model=model)
    expected = brute_joint(log, model)
    assert solution.consistent == (expected is not None)
    assume(expected is not None)
    assert set(solution.joint) == set(expected)
    for hidden, p in expected.items():
        assert math.isclose(solution.joint[hidden], p, rel_tol=1e-9, abs_tol=1e-12)
    assert solution.weighed == sum(e.type == "claim" for e in log.events)


@settings(fast, max_examples=20)
@given(blackrose_logs(max_events=7, sizes=(3, 4)), mixtures)
def test_levels_summed_out_are_the_brute_force_exactly(log, model):
    """The brute force sums every (pair, role deal, level vector of every player)."""
    solution = solve_blackrose(log, model=model)
    expected = brute_joint(log, model)
    assume(expected is not None)
    assert solution.joint == expected
    styles = brute_styles(log, model)
    claimers = {e.get("player") for e in log.events if e.type == "claim"}
    assert set(solution.styles) == claimers
    for player, row in solution.styles.items():
        assert row == {level.name: p for level, p in zip(model.levels, styles[player].values())}
    assert list(solution.styles) == [p for p in log.header.players if p in claimers]


@settings(fast, max_examples=60)
@given(blackrose_logs())
def test_half_rates_are_the_hard_solution_exactly(log):
    # every claim then weighs 1/2 whatever the state
    half = solve_blackrose(log, model=ClaimsModel.single(dict.fromkeys(ROLES, 0.5)))
    hard = solve_blackrose(log, hard=True)
    assert (half.joint, half.conflict) == (hard.joint, hard.conflict)


@settings(
    fast,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(blackrose_logs(max_events=12, honest=False))  # about a quarter are inconsistent
def test_conflicts_are_minimal_and_real(log):
    solution = solve_blackrose(log, hard=True)
    assume(not solution.consistent)
    lines = set(solution.conflict)
    assert lines and lines <= {e.line for e in log.events if e.type in HARD}
    assert brute_joint(only(log, lines)) is None
    for line in lines:
        assert brute_joint(only(log, lines - {line})) is not None
    assert solution.explanation[0] == "These events cannot all be true:"
    assert len(solution.explanation) == len(lines) + 2
    assert solution.to_json() == {
        "game": "blackrose",
        "consistent": False,
        "exact": True,
        "conflict": sorted(lines),
    }


@pytest.mark.parametrize("k", range(5))
@pytest.mark.parametrize(
    "extra",
    [
        "",
        "proof s1",
        "accuse s1 s2 wrong",
        "accuse s1 s4 right",
        "proof s4",
        "goal gem innocent_dead_at_least 1",
    ],
)
def test_goals_against_the_brute_force(k, extra):
    # three dead, so every case of the goal constraint: impossible, all innocent, at most
    # one accomplice among them (searched with forward checking), always met
    log = blackrose(
        "ana bob cai",
        "cai",
        "ana",
        "kill s1",
        "kill s2",
        "proof s6",
        "kill s3",
        f"goal mac innocent_dead_at_least {k}",
        *([extra] if extra else []),
    )
    solution = solve_blackrose(log, hard=True)
    expected = brute_joint(log)
    assert solution.consistent == (expected is not None)
    if expected is not None:
        assert solution.joint == expected


# --------------------------------------------------------------------------
# the constraints' forward checking


def test_goal_constraint_prunes_the_other_accomplice_once_one_is_dead():
    goal = InnocentDeadConstraint({"s1", "s2", "s3"}, 2)
    domains = {FIRST: Domain(["s1"]), SECOND: Domain(["s2", "s4", "s5"])}
    assert goal([FIRST, SECOND], domains, {FIRST: "s1"}, [domains[SECOND]])
    assert list(domains[SECOND]) == ["s4", "s5"]
    domains = {FIRST: Domain(["s4"]), SECOND: Domain(["s1", "s5"])}
    assert goal([FIRST, SECOND], domains, {FIRST: "s4"}, [domains[SECOND]])
    assert list(domains[SECOND]) == ["s1", "s5"]  # one dead accomplice is still allowed
    assert not goal([FIRST, SECOND], domains, {FIRST: "s1", SECOND: "s2"})


def test_goal_constraint_prunes_before_the_search():
    goal = InnocentDeadConstraint({"s1", "s2"}, 2)
    domains = {FIRST: Domain(SUSPECTS), SECOND: Domain(SUSPECTS)}
    constraints = [(goal, [FIRST, SECOND])]
    vconstraints = {FIRST: list(constraints), SECOND: list(constraints)}
    goal.preProcess([FIRST, SECOND], domains, constraints, vconstraints)
    assert list(domains[FIRST]) == list(domains[SECOND]) == ["s3", "s4", "s5", "s6", "s7"]
    assert constraints == [] and vconstraints == {FIRST: [], SECOND: []}


def test_wrong_accusation_constraint_prunes_the_partner():
    wrong = NotThisPairConstraint(("s1", "s2"))
    domains = {FIRST: Domain(["s1"]), SECOND: Domain(["s2", "s3"])}
    assert wrong([FIRST, SECOND], domains, {FIRST: "s1"}, [domains[SECOND]])
    assert list(domains[SECOND]) == ["s3"]
    domains = {FIRST: Domain(["s1"]), SECOND: Domain(["s2"])}
    assert not wrong([FIRST, SECOND], domains, {SECOND: "s2"}, [domains[FIRST]])
    assert not wrong([FIRST, SECOND], domains, {FIRST: "s1", SECOND: "s2"})


# --------------------------------------------------------------------------
# hand examples


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        ("ana bob cai", {"ana": Fraction(1, 3), "bob": Fraction(1, 3), None: Fraction(1, 3)}),
        ("ana bob cai dee", dict.fromkeys(["ana", "bob", "dee"], Fraction(1, 3))),
        ("ana bob cai dee eve", dict.fromkeys(["ana", "bob", "dee", "eve"], Fraction(1, 4))),
    ],
)
def test_role_prior(players, expected):
    solution = solve_blackrose(blackrose(players, "cai", "ana"))
    assert solution.possessed == expected
    assert solution.pairs == {pair: Fraction(1, 21) for pair in solution.pairs}
    assert len(solution.pairs) == 21
    assert solution.suspects == dict.fromkeys(SUSPECTS, Fraction(2, 7))


def test_three_players_a_real_investigator_leaves_the_other_or_nobody():
    solution = solve_blackrose(blackrose("ana bob cai", "cai", "ana", "role ana investigator"))
    assert solution.possessed == {"bob": Fraction(1, 2), None: Fraction(1, 2)}
    assert solution.to_json()["possessed"] == {"bob": 0.5, "none": 0.5}


def test_goal_keeps_the_pairs_with_enough_innocent_dead():
    # 3 dead, at least 2 innocent: at most one of s1 s2 s3 is an accomplice (21 - 3 pairs);
    # the wrong accusation of s4 s5 rules out one more.
    log = blackrose(
        "ana bob cai dee",
        "dee",
        "ana",
        "kill s1",
        "kill s2",
        "kill s3",
        "goal mac innocent_dead_at_least 2",
        "kill s4",
        "accuse s4 s5 wrong",
    )
    solution = solve_blackrose(log)
    assert len(solution.pairs) == 17
    assert set(solution.pairs.values()) == {Fraction(1, 17)}
    assert ("s1", "s2") not in solution.pairs and ("s1", "s4") in solution.pairs
    assert solution.suspects["s1"] == Fraction(4, 17)  # with s4 to s7, not s2 or s3
    assert solution.suspects["s6"] == Fraction(6, 17)  # with anyone


def test_a_goal_with_every_dead_innocent_rules_the_dead_out():
    log = blackrose(
        "ana bob cai",
        "cai",
        "ana",
        "kill s1",
        "kill s2",
        "goal mac innocent_dead_at_least 2",
        "proof s3",
        "proof s4",
    )
    solution = solve_blackrose(log)
    assert solution.pairs == {
        ("s5", "s6"): Fraction(1, 3),
        ("s5", "s7"): Fraction(1, 3),
        ("s6", "s7"): Fraction(1, 3),
    }


def test_a_claim_contradicted_by_a_proof_points_at_its_author():
    log = blackrose(
        "ana bob cai dee",
        "dee",
        "ana",
        "role ana investigator",
        "proof s1 by ana",
        "claim bob s1 guilty",
    )
    eps, lam = 0.0625, 0.5
    model = ClaimsModel.single({"investigator": eps, "possessed": lam, "rector": 0.5})
    soft = solve_blackrose(log, model=model).possessed
    assert math.isclose(soft["bob"], lam / (lam + eps), rel_tol=1e-12)
    assert math.isclose(soft["cai"], eps / (lam + eps), rel_tol=1e-12)
    hard = solve_blackrose(log, hard=True).possessed
    assert hard == {"bob": Fraction(1, 2), "cai": Fraction(1, 2)}
    assert soft["bob"] > hard["bob"]
    assert solve_blackrose(log, model=model).pairs == solve_blackrose(log, hard=True).pairs


def test_a_trusted_claim_tilts_the_pairs():
    # ana is a real investigator and says s1 is guilty: pairs with s1 weigh 1 - ε, others ε.
    log = blackrose("ana bob cai", "cai", "bob", "role ana investigator", "claim ana s1 guilty")
    eps = Fraction(0.1)
    solution = solve_blackrose(
        log, model=ClaimsModel.single({"investigator": 0.1, "possessed": 0.5, "rector": 0.5})
    )
    total = 6 * (1 - eps) + 15 * eps
    assert solution.pairs[("s1", "s2")] == (1 - eps) / total
    assert solution.pairs[("s2", "s3")] == eps / total
    assert list(solution.pairs)[:6] == [("s1", s) for s in SUSPECTS[1:]]


def test_me_as_the_rector_sees_every_investigator():
    log = blackrose(
        "ana bob cai dee",
        "ana",
        "ana",
        "role ana rector",
        "role bob possessed",
        "accuse s2 s6 right",
    )
    out = solve_blackrose(log).to_json()
    assert out["accomplices"] == {"candidates": [["s2", "s6"]], "probabilities": {"s2+s6": 1.0}}
    assert out["possessed"] == {"bob": 1.0}
    assert out["suspects"] == {s: float(s in ("s2", "s6")) for s in SUSPECTS}


def test_spectator_sees_the_exact_json_with_its_own_suspects():
    text = (
        "game blackrose\nplayers ana bob cai\nrector bob\nspectator\n"
        "suspects gui ada ben cy dan eli fay\n"
        "proof gui\nproof ada\nproof ben\nproof cy\naccuse dan eli wrong\n"
    )
    out = solve_blackrose(parse_log(text, "t.log")).to_json()
    assert out == {
        "game": "blackrose",
        "consistent": True,
        "exact": True,
        "accomplices": {
            "candidates": [["dan", "fay"], ["eli", "fay"]],
            "probabilities": {"dan+fay": 0.5, "eli+fay": 0.5},
        },
        "suspects": {
            "gui": 0.0,
            "ada": 0.0,
            "ben": 0.0,
            "cy": 0.0,
            "dan": 0.5,
            "eli": 0.5,
            "fay": 1.0,
        },
        "possessed": {"ana": 1 / 3, "cai": 1 / 3, "none": 1 / 3},
    }
    assert list(out) == ["game", "consistent", "exact", "accomplices", "suspects", "possessed"]


@pytest.mark.parametrize(
    ("events", "lines", "reason"),
    [
        (
            ["role bob rector"],
            [5],
            "but the header names cai as the Rector, who holds no role card and is nobody else's",
        ),
        (
            ["role cai investigator"],
            [5],
            "but the header names cai as the Rector, who holds no role card and is nobody else's",
        ),
        (
            ["role ana possessed", "proof s1", "role bob possessed"],
            [5, 7],
            "but there is only one Possessed card",
        ),
        (
            ["role ana possessed", "role ana investigator"],
            [5, 6],
            "so ana would be the Possessed and a real investigator at once",
        ),
        (
            ["role ana investigator", "role bob investigator", "role dee investigator"],
            [5, 6, 7],
            "so nobody is left to be the Possessed, and a 4-player game always has one",
        ),
        (
            ["kill s1", "goal mac innocent_dead_at_least 2"],
            [6],
            "but only 1 suspect had died by then, fewer than 2",
        ),
        (
            ["accuse s1 s2 right", "proof s3", "proof s2"],
            [5, 7],
            "so no pair of suspects can be the two accomplices",
        ),
    ],
)
def test_conflict_reasons(events, lines, reason):
    solution = solve_blackrose(blackrose("ana bob cai dee", "cai", "ana", *events))
    assert list(solution.conflict) == lines
    assert solution.explanation[-1] == reason


def test_conflict_sentences():
    log = blackrose(
        "ana bob cai",
        "cai",
        "ana",
        "kill s1",
        "kill s2",
        "goal mac innocent_dead_at_least 1",
        "accuse s1 s2 wrong",
        "proof s3 by bob",
        "accuse s1 s2 right",
    )
    assert solve_blackrose(log).explanation == (
        "These events cannot all be true:",
        "line 7 says the Rector played mac: at least 1 of the dead (s1 and s2) are innocent",
        "line 10 says s1 and s2 are the accomplices (a correct accusation)",
        "so no pair of suspects can be the two accomplices",
    )


def test_tables():
    log = blackrose(
        "ana bob cai",
        "cai",
        "ana",
        "role ana investigator",
        "proof s1",
        "proof s2",
        "proof s3",
        "proof s4",
        "claim bob s5 innocent",
    )
    pairs, possessed, suspects = tables(solve_blackrose(log, hard=True))
    assert pairs.title == "Accomplice pairs (3 pairs tied at 33.3%)"
    assert pairs.rows == [["s5 + s6", "33.3%"], ["s5 + s7", "33.3%"], ["s6 + s7", "33.3%"]]
    assert possessed.rows == [["bob", "50.0%"], ["nobody", "50.0%"]]
    assert suspects.rows[0] == ["s1", "0%"] and suspects.rows[6] == ["s7", "66.7%"]
    assert tables(solve_blackrose(log))[0].title == "Accomplice pairs (weighing 1 claim)"


# --------------------------------------------------------------------------
# advice


def test_draw_information_by_hand():
    # s1-s3 proved: 6 pairs of s4-s7, each leaving 2 unseen Proofs among N cards. A Proof
    # (chance 2/N) halves the pairs (1 bit); any other card says nothing: 2/N bits.
    log = blackrose("ana bob cai", "cai", "ana", "proof s1", "proof s2", "proof s3", "kill s4")
    for unseen in (2, 5, 10):
        advice = advise(log, unseen)
        assert math.isclose(advice.draw_bits, 2 / unseen, rel_tol=1e-12)
    assert advice.piles == ("s1", "s2", "s3", "s5", "s6", "s7", None)
    assert advise(log, 10, empty={None, "s2"}).piles == ("s1", "s3", "s5", "s6", "s7")


def test_draw_information_when_a_non_proof_card_tells_something():
    # Two pairs alike, s1 s2 s3 unproved, 3 unseen cards. {s1,s2} leaves s3's Proof and two
    # other cards; {s6,s7} leaves the Proofs of s1, s2 and s3. s1's or s2's Proof (1/6 each)
    # and a non-Proof card (1/3) each settle the pair (1 bit); s3's Proof (1/3) says nothing.
    pairs = {("s1", "s2"): Fraction(1, 2), ("s6", "s7"): Fraction(1, 2)}
    assert math.isclose(draw_information(pairs, ["s1", "s2", "s3"], 3), 2 / 3)
    # Same counts of unseen Proofs: {s1,s2} leaves s3 s4 s5, {s3,s4} leaves s1 s2 s5; of 4
    # cards, each of s1 to s4's Proofs (1/8) settles it, s5's and the other card say nothing.
    pairs = {("s1", "s2"): Fraction(1, 2), ("s3", "s4"): Fraction(1, 2)}
    assert math.isclose(draw_information(pairs, ["s1", "s2", "s3", "s4", "s5"], 4), 0.5)


def test_accuse_the_most_probable_pair():
    log = blackrose(
        "ana bob cai", "cai", "ana", *(f"proof s{i}" for i in range(1, 5)), "accuse s5 s6 wrong"
    )
    advice = advise(log, 6)
    assert advice.accuse == ("s5", "s7") and advice.probability == Fraction(1, 2)
    assert advice.answer_bits == 1.0 and advice.wrong_bits == 1.0
    assert math.isclose(binary_entropy(0.25), 0.8112781244591328)
    sure = advise(
        blackrose(
            "ana bob cai",
            "cai",
            "ana",
            *(f"proof s{i}" for i in range(1, 5)),
            "accuse s5 s6 wrong",
            "accuse s5 s7 wrong",
        ),
        6,
    )
    assert sure.accuse == ("s6", "s7") and sure.probability == 1
    assert sure.answer_bits == 0.0 and sure.wrong_bits is None


def test_advice_refuses_impossible_counts_and_inconsistent_logs():
    log = blackrose("ana bob cai", "cai", "ana", "proof s1")
    with pytest.raises(DeduceError, match="3 unseen clue cards cannot hold the 4 Proofs"):
        advise(log, 3)
    with pytest.raises(DeduceError, match=r"inconsistent \(lines 5, 6\)"):
        advise(blackrose("ana bob cai", "cai", "ana", "proof s1", "accuse s1 s2 right"), 9)
    assert (
        advise(
            blackrose("ana bob cai", "cai", "ana", *(f"proof s{i}" for i in range(1, 6))), 0
        ).piles
        == ()
    )


# --------------------------------------------------------------------------
# CLI

SOFT_LOG = (
    "game blackrose\nplayers ana bob cai dee\nrector dee\nme ana\nproof s1 by ana\n"
    "claim bob s1 guilty\n"
)
BAD_LOG = (
    "game blackrose\nplayers ana bob cai\nrector cai\nme ana\nproof s1\nproof s2\n"
    "accuse s1 s3 right\n"
)


def test_cli_table(log_file):
    result = CliRunner().invoke(cli, ["solve", log_file(SOFT_LOG)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Accomplice pairs (weighing 1 claim; 15 pairs tied at 6.7%)\n")
    assert "The Possessed" in result.output and "Suspects" in result.output


def test_cli_json_hard_and_model(log_file):
    path = log_file(SOFT_LOG)
    soft = json.loads(CliRunner().invoke(cli, ["solve", path, "--json"]).output)
    hard = json.loads(CliRunner().invoke(cli, ["solve", path, "--json", "--hard"]).output)
    log = parse_log(SOFT_LOG, path)
    assert soft == with_views(solve_blackrose(log), log).to_json()
    assert soft["possessed"]["bob"] > 1 / 3  # bob's claim is false whatever the pair
    assert hard["possessed"] == dict.fromkeys(["ana", "bob", "cai"], 1 / 3)
    assert list(hard) == [
        "game",
        "consistent",
        "exact",
        "accomplices",
        "suspects",
        "possessed",
        "table_suspects",
    ]
    model = log_file(
        json.dumps({"false_rate": {"investigator": 0.25, "possessed": 0.75, "rector": 0.5}}),
        "m.json",
    )
    custom = json.loads(CliRunner().invoke(cli, ["solve", path, "--json", "--model", model]).output)
    assert custom["possessed"]["bob"] == pytest.approx(0.75 / 1.25)


def test_cli_bad_model_file(log_file):
    model = log_file('{"false_rate": {"investigator": 1}}', "m.json")
    result = CliRunner().invoke(cli, ["solve", log_file(SOFT_LOG), "--model", model])
    assert result.exit_code != 0
    assert "'false_rate' must be an object with exactly the keys" in str(result.exception)


def test_cli_inconsistent_log_exits_3_with_the_conflict(log_file):
    path = log_file(BAD_LOG)
    result = CliRunner().invoke(cli, ["solve", path])
    assert result.exit_code == EXIT_INCONSISTENT
    assert "line 5 says s1 is innocent (a Proof of s1 was seen)" in result.output
    assert "line 7 says s1 and s3 are the accomplices (a correct accusation)" in result.output
    result = CliRunner().invoke(cli, ["solve", path, "--json"])
    assert result.exit_code == EXIT_INCONSISTENT
    assert json.loads(result.output) == {
        "game": "blackrose",
        "consistent": False,
        "exact": True,
        "conflict": [5, 7],
    }
