"""Whole simulated games: bots, logs on disk, the check against the truth, the advisor."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.errors import DeduceError
from deduce.games.abbey.advice.advisor import _information, estimated_advice
from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.sim.bots import SolverBot, crossed_out
from deduce.games.abbey.sim.check import Calibration, CheckSummary, check_games, check_log
from deduce.games.abbey.sim.simulate import BOTS, play, record_game
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.solve import solve_abbey
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition, build_timeline
from deduce.games.simulate import bot_lineup, simulate, write_game
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import read_log
from deduce.logs.jsonl import parse_jsonl

PLAYERS = (3, 4, 5, 6)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("bot", ["random", "notepad"])
def test_bots_play_100_games_without_an_illegal_move(players, bot):
    """apply_action raises on an illegal action, so finishing every game is the test."""
    game = AbbeyGame.create(players, max_turns=150)
    for index in range(1, 101):
        state = play(game, index, 11, bot_lineup([bot], players, BOTS))
        assert state.is_terminal()
        assert sum(map(len, state.hands)) + len(state.pile) == 23


@pytest.mark.parametrize("players", PLAYERS)
def test_the_solver_bot_plays_legally_against_the_others(players):
    game = AbbeyGame.create(players, max_turns=60)
    lineup = ["solver", "notepad", "random", "notepad", "random", "solver"][:players]
    for index in range(1, 3):
        state = play(game, index, 5, lineup)
        assert state.is_terminal()


def test_the_solver_bot_accuses_when_one_candidate_is_left():
    game = AbbeyGame.create(3)
    state = play(game, 1, 2, ["solver", "solver", "solver"])
    accusations = [e for e in state.events if e["type"] == "accuse"]
    assert state.finder is not None and accusations[-1]["correct"]


def test_lineups():
    assert bot_lineup(["notepad"], 3, BOTS) == ("notepad",) * 3
    assert bot_lineup(["solver", "random", "notepad"], 3, BOTS) == ("solver", "random", "notepad")
    with pytest.raises(DeduceError, match="unknown bot 'genius'"):
        bot_lineup(["genius"], 3, BOTS)
    with pytest.raises(DeduceError, match="one bot for every seat or 4 bots, not 2"):
        bot_lineup(["random", "notepad"], 4, BOTS)
    assert set(BOTS) == {"random", "notepad", "solver", "advised", "advised-race"}


def test_the_same_seed_gives_the_same_games():
    game = AbbeyGame.create(4, max_turns=80)
    lineup = ("solver", "notepad", "random", "notepad")
    first = [record_game(game, i, 3, lineup) for i in (1, 2)]
    again = list(simulate(record_game, game, 2, 3, lineup, workers=1))
    assert first == again
    assert list(simulate(record_game, game, 2, 3, ("notepad",) * 4, workers=2)) == [
        record_game(game, i, 3, ("notepad",) * 4) for i in (1, 2)
    ]
    other = record_game(game, 1, 4, ("notepad",) * 4)
    assert other.logs != first[0].logs


def test_the_racing_bot_plays_legal_moves_and_the_same_seed_gives_the_same_game():
    """The engine takes only legal actions; two runs of one seed are one game."""
    game = AbbeyGame.create(4, max_turns=120)
    lineup = ("advised-race", "notepad", "notepad", "random")
    first = record_game(game, 1, 5, lineup)
    assert first == record_game(game, 1, 5, lineup)
    assert first.truth["bots"][game.players[0]] == "advised-race"
    assert first.logs != record_game(game, 1, 6, lineup).logs  # another seed, another game


def test_written_games_hold_the_truth_and_one_canonical_log_per_player(tmp_path):
    game = AbbeyGame.create(4)
    record = record_game(game, 7, 1, ("notepad", "random", "notepad", "random"))
    folder = write_game(record, tmp_path)
    assert folder.name == "game-0007"
    truth = json.loads((folder / "truth.json").read_text())
    assert truth["game"] == "abbey" and truth["seed"] == 1
    assert truth["culprit"] in game.deck.ids
    hands = truth["deal"]["hands"]
    assert sorted(hands) == sorted(game.players)
    assert {
        truth["culprit"],
        *truth["deal"]["pile"],
        *(c for h in hands.values() for c in h),
    } == set(game.deck.ids)
    for player in game.players:
        path = folder / f"{player}.jsonl"
        log = read_log(path)
        assert log.header.me == player
        assert log.events[0].type == "hand"
        assert set(log.events[0].get("cards")) == set(hands[player])
        assert log.events[-1].type == "culprit"
        assert log.events[-1].get("card") == truth["culprit"]
        assert path.read_text() == record.logs[player]


def test_each_log_holds_exactly_what_its_player_saw():
    game = AbbeyGame.create(5)
    state = play(game, 1, 9, ("notepad",) * 5)
    public = None
    for seat, player in enumerate(game.players):
        lines = [e for e in state.logs[seat] if e["type"] in ("count", "has", "lacks", "accuse")]
        public = public or lines
        assert lines == public
        for event in state.logs[seat]:
            if event["type"] in ("draw", "take") and "card" in event:
                assert player in (event["player"], event.get("from"))
            if event["type"] == "show" and "card" in event:
                assert player in (event["to"], event["player"])


def test_the_engine_records_every_cards_holder_after_each_transfer():
    game = AbbeyGame.create(4)
    state = play(game, 3, 1, ("notepad",) * 4)
    snapshots = state.holders_after
    assert sorted(snapshots) == [
        i for i, e in enumerate(state.events) if e["type"] in ("deal", "draw", "take", "mass")
    ]
    assert snapshots[max(snapshots)] == {c: state.holder_of(c) for c in game.deck.ids}
    for i in sorted(snapshots)[1:]:
        event, before = state.events[i], snapshots[max(t for t in snapshots if t < i)]
        if event["type"] in ("draw", "take"):
            moved = {c for c in game.deck.ids if snapshots[i][c] != before[c]}
            assert moved == {event["card"]} and snapshots[i][event["card"]] == event["player"]


def test_check_finds_no_soundness_failure_in_120_games():
    """The propagated model keeps the true history of every log, at its end and along it."""
    checks, games = [], 0
    for players, count in ((3, 40), (4, 40), (5, 20), (6, 20)):
        lineup = bot_lineup((["notepad", "random"] * 3)[:players], players, BOTS)
        for run in check_games(
            AbbeyGame.create(players, max_turns=100),
            count,
            21,
            lineup,
            budget=0,
            every=50,
            fast=True,
        ):
            checks += run
            games += 1
    summary = CheckSummary.of(checks)
    assert games == 120
    assert summary.failures == ()
    assert summary.positions > 1.5 * summary.logs  # the ends and cuts along the way


def test_check_with_the_solve_finds_the_culprit_and_no_failure():
    game = AbbeyGame.create(3)
    state = play(game, 2, 3, ("notepad",) * 3)
    check = check_log(state, 2, 0, budget=0.5, every=10, fast=False)
    assert check.failures == ()
    assert check.exact >= 1
    assert 1 <= check.calibration.positions <= check.exact  # exact, before the reveal
    # every other cut before the reveal is scored by its estimates, with their bounds
    events = len(state.logs[0])
    cuts = {*range(10, events + 1, 10), events}
    scored = sum(cut <= check.before_reveal for cut in cuts)
    assert check.calibration.positions + check.estimated.positions == scored
    assert (check.estimated.error > 0) == (check.estimated.positions > 0)
    assert check.after_catch == 0  # notepad bots never catch
    assert sum(n for n, _, _ in check.calibration.bins.bins) >= check.calibration.positions
    # the culprit is indeed the only candidate of the log cut where the check says so
    assert check.determined is not None and check.determined % 10 == 0
    log = parse_jsonl(game.log_text("ana", state.logs[0][: check.determined]), "ana.jsonl")
    assert candidates_of(log) == [state.culprit]


def test_check_counts_the_positions_scored_after_a_caught_intruder():
    # Game 47 of run 1 with random bots: ana is caught in cai's cell and gives a card back.
    game = AbbeyGame.create(3)
    state = play(game, 47, 1, ("random",) * 3)
    [catch] = state.catches
    assert state.events[catch - 1] == {"type": "penance", "player": "ana"}
    assert state.events[catch]["type"] == "take" and state.events[catch]["from"] == "ana"
    check = check_log(state, 47, 1, budget=0.05, every=40, fast=False)
    scored = check.calibration.positions + check.estimated.positions
    assert 1 <= check.after_catch < scored  # the cut at event 40 came before the catch
    assert check.catches == 1
    # the run counts each game's catches once, not once per log
    summary = CheckSummary.of([check, replace(check, player="bob"), replace(check, game=48)])
    assert summary.catches == 2 and summary.after_catch == 3 * check.after_catch


def test_calibration_scores_by_hand():
    # Two positions: a sure right favourite, then a tie of three with the culprit among them.
    one = Calibration().add({"a": 1.0}, "a")
    both = one.add({"a": 0.5, "b": 0.25, "c": 0.25}, "b")
    assert both.positions == 2
    assert both.brier == pytest.approx(0 + (0.25 + 0.5625 + 0.0625))
    assert both.favourite == pytest.approx(1.0)  # a sure hit, then a miss (a led alone)
    assert both.bins.bins[9] == (1, 1.0, 1) and both.bins.bins[5] == (1, 0.5, 0)
    assert both.bins.bins[2] == (2, 0.5, 1)
    assert both.uniform == pytest.approx(0 + 2 / 3)  # 1 - 1/k for k equal candidates
    assert both.expected == pytest.approx(1.5)  # the favourites' chances: 1, then 0.5
    tie = Calibration().add({"a": 0.5, "b": 0.5}, "b", error=0.02)
    assert tie.favourite == pytest.approx(0.5) and tie.error == pytest.approx(0.02)
    data = (both + tie).to_json()
    assert data["positions"] == 3 and data["favourite_share"] == pytest.approx(0.5)
    assert data["expected_favourite_share"] == pytest.approx(2 / 3, abs=1e-4)
    assert data["uniform_brier"] == pytest.approx((2 / 3 + 0.5) / 3, abs=1e-4)
    assert data["mean_error"] == pytest.approx(0.02 / 3, abs=1e-4)
    # a culprit ruled out scores as if every candidate were wrong, plus its own miss
    gone = Calibration().add({"a": 0.5, "b": 0.5}, "c")
    assert gone.brier == pytest.approx(1.5) and gone.uniform == pytest.approx(1.5)
    assert data["reliability"][5] == {
        "decile": "50-60%",
        "candidates": 3,
        "mean_probability": 0.5,
        "culprit_share": 0.3333,
    }


def test_check_reports_a_model_that_drops_the_truth(monkeypatch):
    """A deliberately broken count answer must show up as a soundness failure."""
    game = AbbeyGame.create(3)
    state = play(game, 2, 3, ("notepad",) * 3)
    seat = 0
    count = next(i for i, e in enumerate(state.logs[seat]) if e["type"] == "count")
    state.logs[seat][count] = {
        **state.logs[seat][count],
        "n": 0 if state.logs[seat][count]["n"] else 1,
    }
    check = check_log(state, 2, seat, budget=0.1, every=1000, fast=True)
    assert check.failures
    assert "excludes the true history" in check.failures[0] or "no history" in check.failures[0]


def analyse(log, draws, seed=0):
    """The closure's culprit candidates and the estimated advice of a log."""
    setup = setup_from_header(log.header, log.path)
    timeline = build_timeline(setup, log.events, log.path)
    sat = sat_model(AbbeyPosition(setup, tuple(log.events), timeline))
    possible = sat.closure()
    if possible is None:
        return [], None
    found = [c for c, row in zip(setup.deck.ids, possible) if CULPRIT in row]
    return found, estimated_advice(
        AbbeyPosition(setup, tuple(log.events), timeline), sat, draws, seed, True
    )


def candidates_of(log):
    return analyse(log, draws=10)[0]


def test_information_of_answers():
    # a fair coin answer that determines the culprit among two: one bit, less the bias term
    joint = {(0, "a"): 500.0, (1, "b"): 500.0}
    assert _information(joint, 1000) == pytest.approx(1.0, abs=0.01)
    # an answer independent of the culprit tells nothing
    independent = {(c, a): 250.0 for c in (0, 1) for a in ("a", "b")}
    assert _information(independent, 1000) == 0.0


def test_advice_on_a_real_log_ranks_options_and_knows_the_trivial_cases():
    game = AbbeyGame.create(4)
    state = play(game, 1, 4, ("notepad",) * 4)
    log = parse_jsonl(game.log_text("ana", state.logs[0][:12]), "ana.jsonl", game.deck)
    candidates, advice = analyse(log, draws=300, seed=1)
    assert advice is not None
    gains = [o.gain for o in advice.options]
    assert gains == sorted(gains, reverse=True)
    assert math.isclose(sum(advice.culprit.values()), 1.0)
    assert set(advice.culprit) <= set(candidates)
    # asking about a card the observer holds tells nothing; nobody else can hold it
    mine = log.events[0].get("cards")[0]
    assert all(o.gain == 0 for o in advice.options if o.kind == "has" and o.detail == (mine,))
    assert advice.entropy <= math.log2(len(candidates)) + 1e-9


def test_cli_simulate_writes_games_and_check_prints_the_summary(tmp_path):
    runner = CliRunner()
    out = tmp_path / "games"
    result = runner.invoke(
        cli,
        [
            "simulate",
            "abbey",
            "--players",
            "3",
            "--games",
            "2",
            "--seed",
            "5",
            "--bots",
            "notepad,random,notepad",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["game-0001", "game-0002"]
    first = (out / "game-0001" / "ana.jsonl").read_bytes()
    again = tmp_path / "again"
    runner.invoke(
        cli,
        [
            "simulate",
            "abbey",
            "--players",
            "3",
            "--games",
            "2",
            "--seed",
            "5",
            "--bots",
            "notepad,random,notepad",
            "--out",
            str(again),
        ],
    )
    assert (again / "game-0001" / "ana.jsonl").read_bytes() == first
    result = runner.invoke(
        cli,
        [
            "check",
            "abbey",
            "--players",
            "3",
            "--games",
            "2",
            "--every",
            "20",
            "--budget",
            "0.05",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 2 and data["logs"] == 6 and data["soundness_failures"] == 0
    assert len(data["calibration"]["reliability"]) == 10
    result = runner.invoke(
        cli, ["check", "abbey", "--players", "3", "--games", "1", "--fast", "--every", "30"]
    )
    assert result.exit_code == 0 and "soundness failures" in result.output


def test_cli_rejects_bad_bots(tmp_path):
    result = CliRunner().invoke(
        cli, ["simulate", "abbey", "--bots", "oracle", "--out", str(tmp_path)]
    )
    assert isinstance(result.exception, DeduceError)
    assert "unknown bot 'oracle'" in str(result.exception)


def test_cli_simulates_with_the_users_data_files(tmp_path):
    board = json.loads(Path("deduce/data/abbey-board.json").read_text())
    board["doors"].append(["ecclesia", "aula"])  # a shortcut of the user's own board
    mine = tmp_path / "board.json"
    mine.write_text(json.dumps(board))
    out = tmp_path / "games"
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            "abbey",
            "--players",
            "3",
            "--games",
            "1",
            "--board",
            str(mine),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert (out / "game-0001" / "truth.json").exists()
    (tmp_path / "bad.json").write_text('{"rooms": []}')
    result = CliRunner().invoke(
        cli, ["simulate", "abbey", "--board", str(tmp_path / "bad.json"), "--out", str(out)]
    )
    assert isinstance(result.exception, DeduceError)
    assert str(result.exception).startswith(f"{tmp_path / 'bad.json'}:1: board 'rooms'")


def test_the_solver_bot_accuses_only_among_a_few_exact_candidates():
    game = AbbeyGame.create(4, max_turns=120)
    checked = 0
    for index in (1, 2, 3):
        record = record_game(game, index, 9, ("solver", "notepad", "solver", "random"))
        for seat in (0, 2):
            player = game.players[seat]
            log = parse_jsonl(record.logs[player], f"{player}.jsonl", game.deck)
            for i, event in enumerate(log.events):
                if event.type == "accuse" and event.get("player") == player:
                    candidates = solve_abbey(replace(log, events=log.events[:i])).candidates
                    assert event.get("card") in candidates
                    assert len(candidates) <= SolverBot.ACCUSE_AMONG
                    checked += 1
    assert checked


def test_the_solver_bots_sheet_is_the_exact_candidates_within_the_notepads():
    game = AbbeyGame.create(3)
    record = record_game(game, 1, 2, ("solver", "notepad", "notepad"))
    player = game.players[0]
    log = parse_jsonl(record.logs[player], f"{player}.jsonl", game.deck)
    lines = [{"type": e.type, **e.fields} for e in log.events]
    for seen in range(0, len(log.events) + 1, 10):
        part = replace(log, events=log.events[:seen])
        candidates = solve_abbey(part).candidates
        assert record.truth["culprit"] in candidates
        assert set(candidates) <= set(crossed_out(game.deck.ids, lines[:seen]))
