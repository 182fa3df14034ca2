"""The Rose behaviour model: kinds, files, and fitting θ back from synthetic games."""

from __future__ import annotations

import json
import math
import random

import pytest

from deduce.errors import DeduceError, LogError
from deduce.games.rose.behaviour import (
    KINDS,
    BehaviourModel,
    Sample,
    default_model,
    fit,
    kind_of,
    load_model_file,
)
from deduce.logs.formats.rose import COLOURS
from deduce.logs.io import parse_log

PLAYERS = ("ana", "bob", "cai", "dee")
HEADER = "game rose\nplayers ana bob cai dee\nme ana\n"
#: The θ the synthetic games are drawn from; ("bonus", "help") never occurs.
TRUE_THETA = {
    ("william", "help"): 1.5,
    ("william", "harm"): -1.0,
    ("adson", "help"): 1.0,
    ("adson", "harm"): 0.0,
    ("move", "help"): 0.7,
    ("move", "harm"): -0.7,
    ("bonus", "harm"): -1.5,
}
#: Track and size of the points each cause gives.
POINTS = {
    "william": ("clue", 3),
    "adson": ("suspicion", 5),
    "move": ("suspicion", 2),
    "bonus": ("clue", 2),
}


def synthetic_sample(rng: random.Random, index: int, choices: int = 16) -> Sample:
    """A game drawn from the model: a random deal, 2-3 true reveals each, and point choices.

    Each choice's kind is uniform; its monk is drawn with weight ``e^θ`` for the
    chooser's own colour and 1 for each other colour, so P(deal | events) is
    exactly the model's posterior with θ = ``TRUE_THETA``.
    """
    truth = dict(zip(PLAYERS, rng.sample(COLOURS, len(PLAYERS))))
    lines = [f"identity ana {truth['ana']}"]
    for player in PLAYERS[1:]:
        hidden = [c for c in COLOURS if c != truth[player]]
        lines += [f"reveal {player} {c}" for c in rng.sample(hidden, rng.randint(2, 3))]
    for _ in range(choices):
        player = rng.choice(PLAYERS)
        cause, sign = rng.choice(list(TRUE_THETA))
        own = math.exp(TRUE_THETA[cause, sign])
        monk = rng.choices(COLOURS, [own if c == truth[player] else 1.0 for c in COLOURS])[0]
        track, n = POINTS[cause]
        lines.append(f"points {player} {monk} {track} {-n if sign == 'help' else n} {cause}")
    return Sample(parse_log(HEADER + "\n".join(lines) + "\n", f"s{index}.log"), truth)


def test_fit_recovers_the_parameters_the_games_were_drawn_from():
    # Over seeds, each estimate's standard deviation is at most 0.11 (bonus harm: the
    # rarest informative choice) and its bias under 0.05: 0.4 is over 3.5 deviations.
    rng = random.Random(5)
    fitted = fit([synthetic_sample(rng, i) for i in range(1500)])
    for kind, theta in TRUE_THETA.items():
        assert abs(fitted.theta[kind] - theta) < 0.4, (kind, fitted.theta[kind])
    assert fitted.theta["bonus", "help"] == 0.0
    assert fitted.fitted == "fitted on 1500 logs by maximum conditional likelihood (L2 penalty 0.1)"


def test_fit_without_soft_events_is_all_zero():
    sample = Sample(
        parse_log(HEADER + "reveal bob red\n", "s.log"),
        dict(zip(PLAYERS, ("red", "blue", "white", "grey"))),
    )
    assert fit([sample]).vector() == (0.0,) * len(KINDS)


def test_fit_refuses_a_truth_the_log_rules_out():
    sample = Sample(
        parse_log(HEADER + "reveal bob blue\n", "s.log"),
        dict(zip(PLAYERS, ("red", "blue", "white", "grey"))),
    )
    with pytest.raises(DeduceError, match=r"^s\.log: the true identities"):
        fit([sample])


def test_fit_needs_a_positive_penalty():
    with pytest.raises(DeduceError, match="L2 penalty must be positive"):
        fit([], l2=0)


@pytest.mark.parametrize(("n", "sign"), [(-3, "help"), (-10, "help"), (2, "harm"), (6, "harm")])
def test_kind_is_cause_and_sign(n, sign):
    log = parse_log(HEADER + f"points bob red clue {n} william\n", "k.log")
    assert kind_of(log.events[0]) == ("william", sign)


def test_default_model_is_fitted_on_simulated_games():
    model = default_model()
    assert model.fitted.startswith("fitted on") and "seed" in model.fitted
    assert model.theta["william", "help"] > 0 and model.theta["move", "help"] > 0
    assert model.theta["move", "harm"] < 0 and model.theta["bonus", "harm"] < 0
    assert model.theta["bonus", "help"] == 0  # never seen: bonus points only harm
    assert len(model.vector()) == len(KINDS) == 8


def test_model_file_round_trip(tmp_path):
    model = BehaviourModel({("move", "help"): 0.25, ("adson", "harm"): -2.0}, "by hand")
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model.to_json()), encoding="utf-8")
    loaded = load_model_file(str(path))
    assert loaded.vector() == model.vector()
    assert loaded.fitted == "by hand"


def test_missing_causes_and_signs_are_zero(tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{"theta": {"move": {"help": 1}}}', encoding="utf-8")
    assert load_model_file(str(path)).vector() == (0, 0, 0, 0, 1.0, 0, 0, 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"theta": {"move": {"help": 1,}}}', "m.json:1: behaviour file is not valid JSON"),
        ("[]", "m.json:1: behaviour file must be an object"),
        (
            '{"thetas": {}}',
            "m.json:1: unknown key 'thetas' in behaviour file (expected: fitted, theta)",
        ),
        ('{"theta": {"clue": {}}}', "m.json:1: unknown key 'clue' in 'theta'"),
        ('{"theta": {"move": {"helps": 1}}}', "m.json:1: unknown key 'helps' in 'theta' 'move'"),
        ('{"theta": {"move": {"help": "1"}}}', "m.json:1: theta move help must be a finite number"),
        (
            '{"theta": {"move": {"help": true}}}',
            "m.json:1: theta move help must be a finite number",
        ),
        ('{"theta": {"move": {"help": NaN}}}', "m.json:1: theta move help must be a finite number"),
        ('{"fitted": 3}', "m.json:1: 'fitted' must be a string"),
    ],
)
def test_bad_model_files_give_one_line(tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.json").write_text(text, encoding="utf-8")
    with pytest.raises(LogError) as info:
        load_model_file("m.json")
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_missing_model_file(tmp_path):
    with pytest.raises(LogError, match="cannot read behaviour file"):
        load_model_file(str(tmp_path / "none.json"))


def test_a_bad_weight_names_its_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.json").write_text(
        '{\n  "fitted": "mine",\n  "theta": {\n    "move": {\n'
        '      "help": "much"\n    }\n  }\n}\n',
        encoding="utf-8",
    )
    with pytest.raises(LogError) as info:
        load_model_file("m.json")
    assert str(info.value) == "m.json:4: theta move help must be a finite number, not 'much'"
