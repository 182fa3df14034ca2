"""Whole simulated Rose games: the bots, the folders on disk, the check and the fit."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.errors import DeduceError
from deduce.games.rose.behaviour import fit
from deduce.games.rose.bots import Monk, gain, move_value
from deduce.games.rose.check import CheckSummary, check_games, cut_before_guesses, samples
from deduce.games.rose.engine import Observation, RoseGame
from deduce.games.rose.simulate import play, record_game
from deduce.games.simulate import simulate
from deduce.logs.formats.rose import COLOURS
from deduce.logs.jsonl import parse_jsonl


def first_observation(players: int = 4) -> Observation:
    """The observation of the first player to decide in a fresh game."""
    state = RoseGame.create(players).new_state()
    rng = Random(3)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return state.observation(state.current_player())


class Honest(Monk):
    """The monk bot that never bluffs: every choice is for its own monk."""

    BLUFF = 0.0


def decide(obs: Observation, legal, seed: int = 0):
    bot = Honest(RoseGame.create(len(obs.time_tiles)), obs.seat)
    return bot(obs, legal, Random(seed))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_bot_plays_50_games_without_an_illegal_move(players):
    """apply_action raises on an illegal action, so finishing every game is the test."""
    game = RoseGame.create(players)
    lineup = (["monk", "solver", "random", "bluffer"] * 2)[:players]
    for index in range(1, 51):
        state = play(game, index, 7, lineup[index % players :] + lineup[: index % players])
        assert state.is_terminal() and len(state.guesses) == players


def test_the_monk_bot_helps_its_own_monk_and_harms_the_others():
    obs = first_observation()
    own, other = obs.identity, next(c for c in COLOURS if c != obs.identity)
    william = replace(obs, decision="william", context={"monk": own, "points": 3})
    assert decide(william, [1, -1]) == -1
    assert decide(replace(william, context={"monk": other, "points": 3}), [1, -1]) == 1
    adson = replace(obs, decision="adson", context={"monk": own, "points": 5})
    assert decide(adson, [1, -1]) == -1
    task = replace(obs, decision="task", context={"monk": own, "building": "church"})
    assert decide(task, [(own, 2), (own, 5)]) == (own, 5)
    bonus = replace(obs, decision="bonus", context={"event": "heels"})
    options = [(c,) for c in COLOURS] + [(own, other)]
    assert own not in decide(bonus, options)
    awkward = replace(obs, decision="awkward", context={"points": 4})
    assert decide(awkward, list(COLOURS)) != own


def _own_help_share(bot: str) -> float:
    """Of 40 four-player games of ``bot``, the share of choices about a player's own monk
    that help it."""
    helped = about_own = 0
    for record in simulate(record_game, RoseGame.create(4), 40, 11, (bot,) * 4):
        truth = record.truth["identities"]
        log = samples(record)[0].log
        for event in log.events:
            if event.type == "points" and truth[event.get("player")] == event.get("monk"):
                about_own += 1
                helped += event.get("n") < 0
    return helped / about_own


def test_the_bluffer_helps_its_own_monk_less_often_than_the_monk_bot():
    assert _own_help_share("bluffer") < _own_help_share("monk") - 0.05


def test_move_values_follow_the_rules_actions():
    obs = first_observation()
    own = obs.identity
    tasks = dict(
        obs.tasks,
        church=((own, 3), ("blue" if own != "blue" else "red", 2)),
        library=(("white" if own != "white" else "red", 4), ("grey", 1)),
    )
    positions = dict(obs.positions, william="gardens", **{own: "cloister"})
    obs = replace(obs, tasks=tasks, positions=positions)
    assert move_value(obs, (own, "church"), own) == gain(own, "suspicion", -3, own) > 0
    assert move_value(obs, (own, "library"), own) == gain(own, "suspicion", 5, own) < 0
    met = [m for m in COLOURS if positions[m] == "cloister"]
    assert move_value(obs, ("william", "cloister"), own) == sum(
        max(gain(m, "clue", 3, own), gain(m, "clue", -3, own)) for m in met
    )


def test_the_monk_bot_avoids_ending_the_day():
    obs = first_observation()
    game = RoseGame.create(4)
    cards = [c for c in game.data.cards if c.kind == "monk" and c.time in (1, 4)]
    low = next(c for c in cards if c.time == 1)
    high = next(c for c in cards if c.time == 4 and c.target == low.target)
    late = replace(obs, time=21, decision="play", hand=(low.id, high.id), usable=0)
    assert decide(late, [(low.id, None, 0), (high.id, None, 0)]) == (low.id, None, 0)


def test_guesses_are_different_colours_from_the_solver():
    state = play(RoseGame.create(4), 1, 3, ["solver", "monk", "monk", "random"])
    for guess in state.guesses.values():
        assert len(set(guess)) == 3


def test_the_same_seed_gives_the_same_games():
    game = RoseGame.create(3)
    lineup = ("solver", "monk", "random")
    once = list(simulate(record_game, game, 4, 9, lineup, workers=1))
    assert once == list(simulate(record_game, game, 4, 9, lineup, workers=2))
    assert once != list(simulate(record_game, game, 4, 10, lineup, workers=1))


def test_samples_are_the_logs_cut_before_the_guesses():
    record = record_game(RoseGame.create(3), 1, 4, ("monk",) * 3)
    cut = samples(record)
    assert [s.log.header.me for s in cut] == ["ana", "bob", "cai"]
    for sample in cut:
        full = parse_jsonl(record.logs[sample.log.header.me], "x.jsonl")
        assert cut_before_guesses(full).events == sample.log.events
        assert {e.type for e in sample.log.events} <= {"identity", "reveal", "points"}
        assert sum(e.type == "identity" for e in sample.log.events) == 1
        assert sample.truth == record.truth["identities"]


def test_the_fit_finds_that_helping_a_monk_points_at_its_player():
    training = [
        s
        for r in simulate(record_game, RoseGame.create(4), 30, 500, ("monk",) * 4)
        for s in samples(r)
    ]
    theta = fit(training).theta
    assert theta["william", "help"] > 0.5 and theta["move", "help"] > 0.5
    assert theta["move", "harm"] < 0


def test_the_check_finds_no_failure_and_behaviour_beats_hard_facts():
    summary = CheckSummary.of(4, list(check_games(RoseGame.create(4), 40, 2, ("monk",) * 4)))
    data = summary.to_json()
    assert data["soundness_failures"] == 0 and data["games"] == 40
    assert data["hard"]["guesses"] == data["behaviour"]["guesses"] == 40 * 4 * 3
    assert data["behaviour"]["brier"] < data["hard"]["brier"]
    assert data["behaviour"]["accuracy"] > data["hard"]["accuracy"]


def test_cli_simulates_and_checks_rose(tmp_path):
    runner = CliRunner()
    out = tmp_path / "games"
    result = runner.invoke(
        cli,
        [
            "simulate",
            "rose",
            "--players",
            "3",
            "--games",
            "2",
            "--seed",
            "5",
            "--bots",
            "solver,monk,random",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    truth = json.loads((out / "game-0002" / "truth.json").read_text())
    assert truth["game"] == "rose" and sorted(truth["identities"]) == ["ana", "bob", "cai"]
    assert sorted(p.name for p in (out / "game-0001").iterdir()) == [
        "ana.jsonl",
        "bob.jsonl",
        "cai.jsonl",
        "truth.json",
    ]
    result = runner.invoke(cli, ["solve", str(out / "game-0001" / "bob.jsonl"), "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["game"] == "rose"
    result = runner.invoke(cli, ["check", "rose", "--players", "2", "--games", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 3 and data["behaviour"]["guesses"] == 6
    result = runner.invoke(cli, ["check", "rose", "--players", "2", "--games", "2"])
    assert result.exit_code == 0 and "Brier score" in result.output


def test_cli_rose_data_and_model_files(tmp_path):
    runner = CliRunner()
    data = json.loads(Path("deduce/data/rose-game.json").read_text())
    data["tasks"] = {c: [v + 1 for v in values] for c, values in data["tasks"].items()}
    mine = tmp_path / "rose.json"
    mine.write_text(json.dumps(data))
    result = runner.invoke(
        cli,
        [
            "simulate",
            "rose",
            "--players",
            "2",
            "--games",
            "1",
            "--data",
            str(mine),
            "--out",
            str(tmp_path / "g"),
        ],
    )
    assert result.exit_code == 0, result.output
    model = tmp_path / "model.json"
    model.write_text(json.dumps({"theta": {"move": {"help": 3.0}}}))
    result = runner.invoke(
        cli, ["check", "rose", "--players", "2", "--games", "1", "--model", str(model), "--json"]
    )
    assert result.exit_code == 0, result.output
    log = str(tmp_path / "g" / "game-0001" / "ana.jsonl")
    assert runner.invoke(cli, ["solve", log, "--model", str(model)]).exit_code == 0
    result = runner.invoke(cli, ["simulate", "rose", "--deck", "x.json", "--out", "o"])
    assert isinstance(result.exception, DeduceError)
    assert "--deck does not apply to rose (rose data options: --data)" in str(result.exception)
    result = runner.invoke(cli, ["simulate", "rose", "--players", "6", "--out", "o"])
    assert "a rose game needs 2 to 5 players" in str(result.exception)
