"""Whole simulated Black Rose games: the bots' policies, the folders on disk, the check, the fit."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.games.blackrose.check import (
    SIDES,
    CheckSummary,
    check_games,
    claim_samples,
    vote_cuts,
)
from deduce.games.blackrose.claims import fit
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.blackrose.simulate import play, record_game
from deduce.games.simulate import simulate
from deduce.logs.jsonl import parse_jsonl

LINEUP = ("advised", "cautious", "random", "advised", "cautious")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_bot_plays_100_games_without_an_illegal_move(players):
    """apply_action raises on an illegal action, so finishing every game is the test."""
    game = BlackRoseGame.create(players)
    for index in range(1, 101):
        shift = index % players
        state = play(game, index, 8, (LINEUP[shift:] + LINEUP[:shift])[:players])
        assert state.is_terminal() and state.winner is not None


def games(players: int, count: int, bots: str = "advised", seed: int = 3):
    game = BlackRoseGame.create(players)
    return [play(game, i, seed, (bots,) * players) for i in range(1, count + 1)]


def test_real_investigators_tell_the_truth_and_the_possessed_lies_at_its_rate():
    true_claims = {"investigator": 0, "possessed": 0}
    all_claims = {"investigator": 0, "possessed": 0}
    for state in games(4, 60):
        names = {state.game.players[s]: r for s, r in state.roles.items()}
        for event in state.events:
            if event["type"] == "claim":
                role = names[event["player"]]
                all_claims[role] += 1
                true_claims[role] += event["innocent"] == (
                    event["suspect"] not in state.accomplices
                )
    assert (
        all_claims["investigator"] > 50
        and true_claims["investigator"] == all_claims["investigator"]
    )
    lies = 1 - true_claims["possessed"] / all_claims["possessed"]
    assert 0.25 < lies < 0.75


def test_the_rector_kills_only_innocents():
    for state in games(5, 30):
        rector = state.game.players[state.game.rector]
        for event in state.events:
            if event["type"] == "night_kill" and event["player"] == rector:
                assert event["suspect"] not in state.accomplices


def test_advised_investigators_win_more_than_cautious_ones():
    advised = sum(s.winner == "investigators" for s in games(4, 60, "advised"))
    cautious = sum(s.winner == "investigators" for s in games(4, 60, "cautious"))
    assert advised > cautious


def test_votes_are_cut_where_the_logs_stood():
    state = games(4, 1, seed=11)[0]
    votes = sum(e["type"] == "votes" for e in state.events)
    for seat in range(4):
        cuts = vote_cuts(state, seat)
        assert len(cuts) == votes and cuts == sorted(cuts)
        assert all(c <= len(state.logs[seat]) for c in cuts)


def test_the_check_finds_no_failure_and_claims_help():
    summary = CheckSummary.of(
        4, list(check_games(BlackRoseGame.create(4), 30, 2, ("advised",) * 4))
    )
    data = summary.to_json()
    assert data["soundness_failures"] == 0 and data["claims"]["positions"] > 30
    assert data["claims"]["possessed_brier"] <= data["hard"]["possessed_brier"]
    assert sum(summary.winners.values()) == 30 and set(data["wins"]) == set(SIDES)


def test_the_fit_finds_the_possessed_lies_and_investigators_do_not():
    model = fit(claim_samples(state) for state in games(4, 60, seed=5))
    rates = model.levels[0].false_rate
    assert rates["investigator"] < 0.05
    assert 0.25 < rates["possessed"] < 0.75


def test_cli_simulates_and_checks_blackrose(tmp_path):
    runner = CliRunner()
    out = tmp_path / "games"
    result = runner.invoke(
        cli,
        [
            "simulate",
            "blackrose",
            "--players",
            "4",
            "--games",
            "2",
            "--seed",
            "5",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    truth = json.loads((out / "game-0001" / "truth.json").read_text())
    assert truth["game"] == "blackrose" and len(truth["accomplices"]) == 2
    assert sorted(truth["roles"].values()).count("possessed") == 1
    log = parse_jsonl((out / "game-0001" / "bob.jsonl").read_text(), "bob.jsonl")
    assert log.header.extra["rector"] == "ana"
    again = list(simulate(record_game, BlackRoseGame.create(4), 2, 5, ("advised",) * 4))
    assert again[0].logs["bob"] == (out / "game-0001" / "bob.jsonl").read_text()
    result = runner.invoke(cli, ["check", "blackrose", "--players", "3", "--games", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 4 and data["soundness_failures"] == 0
    result = runner.invoke(
        cli, ["check", "blackrose", "--players", "5", "--games", "2", "--bots", "cautious"]
    )
    assert result.exit_code == 0 and "Brier" in result.output


@pytest.mark.parametrize(
    ("game", "players"), [("abbey", "-2"), ("blackrose", "1"), ("abbey", "2"), ("blackrose", "6")]
)
def test_cli_refuses_player_counts_the_game_does_not_have(tmp_path, game, players):
    result = CliRunner().invoke(
        cli, ["simulate", game, "--players", players, "--out", str(tmp_path)]
    )
    assert result.exit_code != 0
    message = result.output or str(result.exception)
    assert "players" in message and "Traceback" not in message
