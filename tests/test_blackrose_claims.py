"""The Black Rose liar model: claims, likelihood, files, and fitting rates back from samples."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from deduce.errors import DeduceError, LogError
from deduce.games.blackrose.claims import (
    Claim,
    ClaimsModel,
    Sample,
    claims_of,
    default_model,
    fit,
    likelihood,
    load_model_file,
    role_of,
)
from deduce.games.blackrose.csp import Hidden
from deduce.logs.io import parse_log
from deduce.solving import SolveOptions, solve_log

SUSPECTS = ("s1", "s2", "s3", "s4", "s5", "s6", "s7")
PLAYERS = ("ana", "bob", "cai", "dee")
TRUE_RATES = {"investigator": 0.05, "possessed": 0.4, "rector": 0.7}


def synthetic_sample(rng: random.Random, claims: int = 10) -> Sample:
    """A game drawn from the model: dee is the Rector, one other player the Possessed."""
    pair = tuple(sorted(rng.sample(SUSPECTS, 2)))
    possessed = rng.choice(PLAYERS[:3])
    roles = {p: role_of(p, possessed, "dee") for p in PLAYERS}
    made = []
    for _ in range(claims):
        player, suspect = rng.choice(PLAYERS), rng.choice(SUSPECTS)
        lies = rng.random() < TRUE_RATES[roles[player]]
        made.append(Claim(player, suspect, (suspect not in pair) != lies))
    return Sample(made, roles, pair)


def test_fit_recovers_the_rates_the_games_were_drawn_from():
    # 20000 claims: 10000 by investigators, 5000 each by the Possessed and the Rector, so the
    # standard deviations are at most 0.007 and the smoothing bias under 0.001.
    rng = random.Random(3)
    fitted = fit([synthetic_sample(rng) for _ in range(2000)])
    for role, rate in TRUE_RATES.items():
        found = fitted.levels[0].false_rate[role]
        assert abs(found - rate) < 0.03, (role, found)
    assert fitted.fitted.startswith("fitted on 2000 games (")


def test_fit_is_the_smoothed_share_of_false_claims():
    sample = Sample(
        [Claim("ana", "s1", True), Claim("ana", "s1", False), Claim("bob", "s2", True)],
        {"ana": "investigator", "bob": "possessed"},
        ("s1", "s2"),
    )
    model = fit([sample])
    assert model.levels[0].false_rate == {
        "investigator": 2 / 4,
        "possessed": 2 / 3,
        "rector": 1 / 2,
    }
    assert model.fitted == (
        "fitted on 1 games (2 by the investigator, 1 by the possessed, "
        "0 by the rector): share of false claims per role with add-one "
        "smoothing"
    )
    assert fit([]).levels[0].false_rate == {"investigator": 0.5, "possessed": 0.5, "rector": 0.5}


def test_fit_needs_every_claimers_role():
    sample = Sample([Claim("eve", "s1", True)], {"ana": "investigator"}, ("s1", "s2"))
    with pytest.raises(DeduceError, match="sample 1: the true role of eve is None"):
        fit([sample])


def test_claims_roles_and_likelihood():
    log = parse_log(
        "game blackrose\nplayers ana bob cai\nrector cai\nme ana\nproof s1\n"
        "claim bob s1 guilty\nclaim cai s3 innocent\n",
        "t.log",
    )
    made = claims_of(log.events)
    assert made == (Claim("bob", "s1", False), Claim("cai", "s3", True))
    assert not made[0].is_true(("s2", "s3")) and made[0].is_true(("s1", "s2"))
    assert [role_of(p, "bob", "cai") for p in ("ana", "bob", "cai")] == [
        "investigator",
        "possessed",
        "rector",
    ]
    model = ClaimsModel.single({"investigator": 0.125, "possessed": 0.5, "rector": 0.25})
    assert likelihood(model, made, Hidden("s2", "s3", "bob"), "cai") == Fraction(1, 2 * 4)
    assert likelihood(model, made, Hidden("s2", "s4", None), "cai") == Fraction(1, 8) * 3 / 4


def test_the_bot_fitted_model_is_the_named_model_bots():
    model = load_model_file("bots")
    assert model.fitted.startswith("fitted on") and "seed 1000" in model.fitted
    rates = model.levels[0].false_rate
    assert rates["investigator"] < 0.01 < rates["possessed"] < 0.5
    assert rates["rector"] == 0.5  # the Rector bots make no claims


def test_one_claim_of_the_default_model_moves_the_odds_at_most_three_fold():
    """The random level (prior 0.7) explains any claim: one claim is never decisive."""
    model = default_model()
    chances = [
        likelihood(model, [Claim("ana", suspect, innocent)], Hidden("s1", "s2", who), "dee")
        for suspect in ("s1", "s3")
        for innocent in (True, False)
        for who in ("ana", "bob", None)
    ]
    assert 2 < max(chances) / min(chances) < 3
    assert likelihood(model, [Claim("dee", "s1", True)], Hidden("s1", "s2", "ana"), "dee") > 0


def test_one_claim_never_moves_a_pair_past_95_percent():
    """Three pairs left by the hard facts; one claim of a known investigator."""
    text = (
        "game blackrose\nplayers ana bob cai dee\nme ana\nrector dee\nrole ana possessed\n"
        "proof s1\nproof s2\nproof s3\nproof s4\n"
    )
    for claim in ("claim bob s6 innocent", "claim bob s7 guilty", "claim cai s5 innocent"):
        solution = solve_log(parse_log(text + claim + "\n", "g.log"))
        assert max(solution.pairs.values()) <= Fraction(95, 100)
    # "s6 is innocent" leaves one pair, s5+s7: the bots' rates all but decide it
    with_bots = solve_log(
        parse_log(text + "claim bob s6 innocent\n", "g.log"),
        SolveOptions(model=load_model_file("bots")),
    )
    assert with_bots.pairs["s5", "s7"] > Fraction(999, 1000)


def test_model_file_round_trip(tmp_path):
    model = ClaimsModel.single({"investigator": 0.1, "possessed": 0.25, "rector": 0.75}, "by hand")
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model.to_json()), encoding="utf-8")
    assert load_model_file(str(path)) == model


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"false_rate": {,}}', "m.json:1: claims file is not valid JSON"),
        ("[]", "m.json:1: claims file must be an object"),
        (
            '{"rates": {}}',
            "m.json:1: unknown key 'rates' in claims file "
            "(expected: fitted, levels, concentration)",
        ),
        ('{"fitted": 3, "false_rate": {}}', "m.json:1: 'fitted' must be a string"),
        (
            '{"false_rate": {"investigator": 0.1, "possessed": 0.5}}',
            "m.json:1: 'false_rate' must be an object with exactly the keys "
            "investigator, possessed, rector",
        ),
        (
            '{"false_rate": {"investigator": 0, "possessed": 0.5, "rector": 0.5}}',
            "m.json:1: false_rate investigator must be a number strictly between 0 and 1, not 0",
        ),
        (
            '{"false_rate": {"investigator": 0.1, "possessed": true, "rector": 0.5}}',
            "m.json:1: false_rate possessed must be a number strictly between 0 and 1, not True",
        ),
        (
            '{"false_rate": {"investigator": 0.1, "possessed": 0.5, "rector": "half"}}',
            "m.json:1: false_rate rector must be a number strictly between 0 and 1, not 'half'",
        ),
    ],
)
def test_bad_model_files_give_one_line(tmp_path, text, message):
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LogError) as caught:
        load_model_file(str(path))
    assert str(caught.value).startswith(str(tmp_path / message))


def test_a_bad_rate_names_its_line(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(
        '{\n  "fitted": "mine",\n  "false_rate": {\n    "investigator": 0.1,\n'
        '    "possessed": 2,\n    "rector": 0.5\n  }\n}\n',
        encoding="utf-8",
    )
    with pytest.raises(LogError) as caught:
        load_model_file(str(path))
    assert str(caught.value) == (
        f"{path}:3: false_rate possessed must be a number strictly between 0 and 1, not 2"
    )
