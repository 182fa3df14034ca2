"""The Rose styles: the posterior with styles summed out against brute force, and how it reads.

The brute force here is written from the definitions in
:mod:`deduce.games.rose.styles`, by other means than the solver: every deal
of colours (weighted by the hard events, :func:`weighted_deals`), every
style of every player other than the observer, every decoy of every
contrarian, bluffer and own player, every choice's target (their colour or
their decoy), and the prior as a Pólya urn (each player's style drawn in turn
with chance ``(α_s + earlier players of s) / (A + earlier players)``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from itertools import product

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracles.rose import weighted_deals
from rose_random import rose, rose_logs

from deduce.cli.main import cli
from deduce.errors import LogError
from deduce.games.rose import behaviour
from deduce.games.rose.behaviour import KINDS, BehaviourModel, kind_of
from deduce.games.rose.check import CheckSummary, check_games, samples
from deduce.games.rose.engine import RoseGame
from deduce.games.rose.simulate import record_game
from deduce.games.rose.solve import solve_rose
from deduce.games.rose.styles import (
    STYLES,
    StyleModel,
    default_model,
    fit_counts,
    load_model_file,
    model_from_json,
)
from deduce.logs.formats.rose import COLOURS
from deduce.logs.model import Event, GameLog

fast = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _shares(draw: st.DrawFn) -> tuple[float, ...]:
    raw = draw(st.lists(st.floats(0.05, 1.0), min_size=len(KINDS), max_size=len(KINDS)))
    return tuple(r / math.fsum(raw) for r in raw)


@st.composite
def style_models(draw: st.DrawFn) -> StyleModel:
    theta = tuple(draw(st.lists(st.floats(-3, 3), min_size=len(KINDS), max_size=len(KINDS))))
    prior = {s: draw(st.floats(0.05, 3.0)) for s in STYLES}
    bluff = draw(st.sampled_from([0.0, 0.3, 0.9]))
    return StyleModel(_shares(draw), theta, bluff, _shares(draw), prior)


def _for(model: StyleModel, event: Event, colour: str) -> float:
    """P(kind, monk) for a choice made for ``colour``."""
    k = KINDS.index(kind_of(event))
    odds = math.exp(model.theta[k])
    return model.own_share[k] * (odds if event.get("monk") == colour else 1.0) / (odds + 5)


BLUFF_RATES = {"own": None, "honest": 0.0, "bluffs": 0.5, "contrarian": 1.0}


def _likelihood(model: StyleModel, events: Sequence[Event], colour: str, style: str) -> float:
    """P(one player's soft events | their colour, their style): every decoy, every target."""
    if style == "indifferent":
        return math.prod(model.indifferent_share[KINDS.index(kind_of(e))] / 6 for e in events)
    bluff = BLUFF_RATES[style]
    bluff = model.bluff if bluff is None else bluff
    decoys = [d for d in COLOURS if d != colour]
    total = 0.0
    for decoy in decoys:
        for targets in product((colour, decoy), repeat=len(events)):
            total += math.prod(
                (1 - bluff if t == colour else bluff) * _for(model, e, t)
                for e, t in zip(events, targets)
            )
    return total / len(decoys)


def _urn(model: StyleModel, styles: Sequence[str]) -> float:
    """The prior of a style vector, drawn player by player from the Pólya urn."""
    total, chance, seen = math.fsum(model.prior.values()), 1.0, []
    for style in styles:
        chance *= (model.prior[style] + seen.count(style)) / (total + len(seen))
        seen.append(style)
    return chance


def brute(log: GameLog, model: StyleModel) -> tuple[dict, dict]:
    """Each reported player's colour and style probabilities, by enumeration."""
    players = log.header.players
    others = [p for p in players if p != log.header.me]
    soft = {
        p: [e for e in log.events if e.type == "points" and e.get("player") == p] for p in others
    }
    colours: dict[str, dict[str, float]] = {p: {} for p in others}
    styles: dict[str, dict[str, float]] = {p: dict.fromkeys(STYLES, 0.0) for p in others}
    total = 0.0
    for deal, hard in weighted_deals(log):
        colour_of = dict(zip(players, deal))
        for vector in product(STYLES, repeat=len(others)):
            weight = (
                float(hard)
                * _urn(model, vector)
                * math.prod(
                    _likelihood(model, soft[p], colour_of[p], s) for p, s in zip(others, vector)
                )
            )
            total += weight
            for player, style in zip(others, vector):
                colours[player][colour_of[player]] = (
                    colours[player].get(colour_of[player], 0.0) + weight
                )
                styles[player][style] += weight
    return (
        {p: {c: w / total for c, w in row.items()} for p, row in colours.items()},
        {p: {s: w / total for s, w in row.items()} for p, row in styles.items()},
    )


@settings(fast, max_examples=30)
@given(rose_logs(max_events=5), style_models())
def test_styles_summed_out_agree_with_brute_force(log, model):
    assume(len(log.header.players) <= 4)  # the brute force is 3 ** players × deals
    solution = solve_rose(log, model=model)
    assume(solution.consistent)
    colours, styles = brute(log, model)
    assert {p: sorted(row) for p, row in solution.probabilities.items()} == {
        p: sorted(c for c, w in row.items() if w > 0) for p, row in colours.items()
    }
    for player, row in colours.items():
        for colour, p in row.items():
            assert math.isclose(
                solution.probabilities[player][colour], p, rel_tol=1e-9, abs_tol=1e-12
            )
    if solution.weighed:
        for player, row in styles.items():
            for style, p in row.items():
                assert math.isclose(solution.styles[player][style], p, rel_tol=1e-9, abs_tol=1e-12)
    else:
        assert solution.styles == {}


def test_styles_never_change_the_candidates():
    log = rose(
        "ana bob cai",
        "ana",
        "identity ana red",
        "reveal bob blue",
        *["points bob orange clue -3 william" for _ in range(30)],
    )
    soft, hard = solve_rose(log), solve_rose(log, hard=True)
    assert {p: set(r) for p, r in soft.probabilities.items()} == {
        p: set(r) for p, r in hard.probabilities.items()
    }
    # 30 choices for orange and none for another: bob never bluffs for orange, or is a
    # contrarian whose decoy it is
    bob = soft.styles["bob"]
    assert max(bob, key=bob.__getitem__) == "honest" and bob["honest"] + bob["contrarian"] > 0.99
    assert soft.probabilities["bob"]["orange"] > 0.7 and soft.probabilities["bob"]["white"] > 0


def _random_table_logs(games: int) -> list[tuple[str, dict[str, float]]]:
    """(bot, style posterior) for every guessed player of every log of random-bot games."""
    found = []
    for index in range(games):
        record = record_game(RoseGame.create(4), index, 77, ["random", "random", "monk", "random"])
        for sample in samples(record):
            solution = solve_rose(sample.log)
            found += [
                (record.truth["bots"][p], {s: float(q) for s, q in row.items()})
                for p, row in solution.styles.items()
            ]
    return found


def test_a_player_who_plays_at_random_reads_as_indifferent():
    read = _random_table_logs(8)
    random_players = [row for bot, row in read if bot == "random"]
    assert len(random_players) == 8 * 9  # three random bots, each read by three others
    favoured = [max(row, key=row.__getitem__) for row in random_players]
    # a random player's choices fit its own colour by chance now and then: most, not all
    assert favoured.count("indifferent") / len(favoured) > 0.75
    assert sum(row["indifferent"] for row in random_players) / len(random_players) > 0.7
    # the monk among them reads as playing for a colour, though its table pulls it the other way
    monk = [row for bot, row in read if bot == "monk"]
    assert sum(row["indifferent"] for row in monk) / len(monk) < 0.3


def test_the_styles_on_random_bots_do_no_worse_than_the_hard_events():
    game = RoseGame.create(4)
    summary = CheckSummary.of(4, list(check_games(game, 60, 4242, ["random"] * 4)))
    data = summary.to_json()
    assert data["soundness_failures"] == 0
    assert data["behaviour"]["brier"] <= data["hard"]["brier"] + 0.01
    assert data["behaviour"]["styles"]["indifferent"] > 0.8
    single = CheckSummary.of(
        4, list(check_games(game, 60, 4242, ["random"] * 4, behaviour.default_model()))
    ).to_json()
    assert single["behaviour"]["brier"] > data["behaviour"]["brier"] + 0.05  # what styles fix


def test_check_scores_each_bot_apart():
    game = RoseGame.create(3)
    data = CheckSummary.of(
        3, list(check_games(game, 5, 1, ["monk", "random", "bluffer"]))
    ).to_json()["behaviour"]
    assert sorted(data["by_bot"]) == ["bluffer", "monk", "random"]
    assert sum(t["guesses"] for t in data["by_bot"].values()) == data["guesses"] == 5 * 3 * 2
    rows = data["reliability"]
    assert sum(r["candidates"] for r in rows) == sum(
        sum(r["candidates"] for r in t["reliability"]) for t in data["by_bot"].values()
    )
    assert all(set(t["styles"]) == set(STYLES) for t in data["by_bot"].values())


# --------------------------------------------------------------------------
# files


def test_the_bundled_model_round_trips():
    model = default_model()
    assert model_from_json(json.loads(json.dumps(model.to_json())), "x.json") == model
    assert 0 < model.bluff < 0.5 and set(model.prior) == set(STYLES)


def test_load_model_file_reads_styles_single_style_files_and_names(tmp_path):
    styles_file = tmp_path / "styles.json"
    styles_file.write_text(json.dumps(default_model().to_json()))
    assert load_model_file(str(styles_file)) == default_model()
    theta_file = tmp_path / "theta.json"
    theta_file.write_text(json.dumps(behaviour.default_model().to_json()))
    assert isinstance(load_model_file(str(theta_file)), BehaviourModel)
    assert load_model_file("monk") == behaviour.default_model()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["prior"].update(own=0), "prior own must be a positive number"),
        (lambda d: d["own"]["share"]["william"].update(help=0.5), "sum to"),
        (lambda d: d.update(extra=1), "unknown key 'extra'"),
        (lambda d: d["indifferent"]["share"].pop("adson"), "has no 'adson'"),
    ],
)
def test_a_bad_styles_file_is_a_one_line_error(tmp_path, change, message):
    data = default_model().to_json()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, indent=2))
    with pytest.raises(LogError, match=rf"^{path}:\d+: .*{message}") as error:
        load_model_file(str(path))
    assert "\n" not in str(error.value)


def test_solve_shows_and_prints_each_players_style(tmp_path):
    log = tmp_path / "t.log"
    log.write_text(
        "game rose\nplayers ana bob cai\nme ana\nidentity ana red\n"
        + "points bob blue clue -3 william\n" * 6
    )
    text = CliRunner().invoke(cli, ["solve", str(log)]).output
    assert "How each player plays (what their choices say)" in text
    data = json.loads(CliRunner().invoke(cli, ["solve", str(log), "--json"]).output)
    assert set(data["styles"]) == {"bob", "cai"}
    assert math.isclose(sum(data["styles"]["bob"].values()), 1.0)
    bob = data["styles"]["bob"]
    assert max(bob, key=bob.__getitem__) == "honest"  # six choices, all for blue


def test_the_fit_finds_the_bluff_rate_and_theta_it_was_drawn_from():
    rng = np.random.default_rng(5)
    theta, bluff, people = np.array([2.5, -0.5, 1.5, 0.0] * 2), 0.35, 3000
    counts = np.zeros((people, len(COLOURS), len(KINDS)))
    truths = rng.integers(len(COLOURS), size=people)
    for p in range(people):
        decoy = rng.choice([c for c in range(len(COLOURS)) if c != truths[p]])
        for _ in range(12):
            kind = rng.integers(len(KINDS))
            target = decoy if rng.random() < bluff else truths[p]
            weights = np.ones(len(COLOURS))
            weights[target] = math.exp(theta[kind])
            counts[p, rng.choice(len(COLOURS), p=weights / weights.sum()), kind] += 1
    fitted = fit_counts(counts, truths)
    assert fitted.bluff == pytest.approx(bluff, abs=0.03)
    assert np.allclose(fitted.theta, theta, atol=0.25)
