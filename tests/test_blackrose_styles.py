"""Black Rose lying levels on real games: the default mixture, the liar bot, the check's tables."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from oracles.blackrose import brute_joint

from deduce.cli.main import cli
from deduce.games.blackrose.check import CheckSummary, check_games
from deduce.games.blackrose.claims import ClaimsModel, default_model, load_model_file
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.blackrose.simulate import play
from deduce.games.blackrose.solve import solve_blackrose
from deduce.logs.io import parse_log
from deduce.logs.jsonl import parse_jsonl

#: The older one-level claims file (the default before the levels), as it was shipped.
OLD_FILE = {
    "fitted": "not fitted: conservative default rates for people",
    "false_rate": {"investigator": 0.0625, "possessed": 0.5, "rector": 0.5},
}
LOG = (
    "game blackrose\nplayers ana bob cai dee\nrector dee\nme ana\nproof s1 by ana\n"
    "claim bob s1 guilty\nclaim cai s2 innocent\nclaim bob s3 innocent\n"
)


def final_log(players: int, index: int, seed: int, bots: str, seat: int = 1):
    """Seat ``seat``'s whole log of one game of ``bots`` at every seat."""
    game = BlackRoseGame.create(players)
    state = play(game, index, seed, (bots,) * players)
    player = game.players[seat]
    return parse_jsonl(game.log_text(player, state.logs[seat]), f"{player}.jsonl")


def test_the_default_is_a_mixture_with_a_fitted_truthful_level_and_a_random_one():
    model = default_model()
    assert [level.name for level in model.levels] == ["truthful", "random"]
    assert model.concentration is not None
    assert "fitted on" in model.fitted and "not fitted" in model.fitted
    assert model.per_suspect
    random = model.levels[1]
    # any claim of any role: 1/14 (a suspect of seven, a verdict of two), up to the floats
    for role in ("investigator", "possessed", "rector"):
        for innocent in (True, False):
            for true in (True, False):
                alike = 5 if innocent == true else 2
                chance = random.chance(role, innocent, true) / alike
                assert abs(chance - Fraction(1, 14)) < Fraction(1, 10**15)


@pytest.mark.parametrize("index", [1, 2, 3, 4, 5])
def test_a_random_claimer_ends_favouring_the_random_level(index):
    log = final_log(4, index, 7, "random")
    styles = solve_blackrose(log).styles
    assert styles  # random bots claim nearly every time they may
    for row in styles.values():
        assert row["random"] > Fraction(9, 10) > row["truthful"]


@pytest.mark.parametrize("index", [1, 3, 5])
def test_an_advised_claimer_ends_favouring_the_truthful_level(index):
    for row in solve_blackrose(final_log(4, index, 7, "advised")).styles.values():
        assert row["truthful"] > Fraction(3, 4)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_claims_on_random_bots_stay_within_the_hard_reading(players):
    """A small fixed test set: the claims never mislead by more than 0.01 of Brier."""
    checks = list(check_games(BlackRoseGame.create(players), 60, 4242, ("random",) * players))
    data = CheckSummary.of(players, checks).to_json()
    for score in ("accomplices_brier", "possessed_brier"):
        assert data["claims"][score] <= data["hard"][score] + 0.01, score


def test_an_old_single_level_file_loads_and_gives_the_old_answers(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps(OLD_FILE), encoding="utf-8")
    model = load_model_file(str(path))
    assert model == ClaimsModel.single(OLD_FILE["false_rate"], OLD_FILE["fitted"])
    assert model.to_json() == OLD_FILE
    log = parse_log(LOG, "g.log")
    solution = solve_blackrose(log, model=model)
    assert solution.joint == brute_joint(log, model)
    assert not solution.styles  # one level: nothing to say about styles
    # bob's claim about s1 is false whatever the pair: 1/2 against 1/16 for cai, 1/2 for him
    # cai's and bob's claims of innocence: each 15/16 true, 1/16 false for an investigator
    assert solution.possessed["bob"] > Fraction(1, 3) > solution.possessed["cai"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_liar_games_are_legal_and_the_same_for_a_seed(players):
    """apply_action raises on an illegal action, so finishing every game is the legality."""
    game = BlackRoseGame.create(players)
    for index in range(1, 6):
        first = play(game, index, 11, ("liar",) * players)
        again = play(game, index, 11, ("liar",) * players)
        assert first.is_terminal() and first.winner is not None
        assert first.events == again.events and first.logs == again.logs


def test_the_liar_possessed_lies_on_every_claim():
    game = BlackRoseGame.create(4)
    for index in range(1, 6):
        state = play(game, index, 11, ("liar",) * 4)
        possessed = next(game.players[s] for s, r in state.roles.items() if r == "possessed")
        for event in state.events:
            if event["type"] == "claim" and event["player"] == possessed and not event["innocent"]:
                assert event["suspect"] not in state.accomplices  # framing an innocent


def test_check_json_holds_the_reliability_tables():
    result = CliRunner().invoke(
        cli,
        [
            "check",
            "blackrose",
            "--players",
            "4",
            "--games",
            "3",
            "--bots",
            "advised,random,liar,advised",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for reading in ("claims", "hard"):
        tables = data[reading]["reliability"]
        assert set(tables) == {"accomplices", "possessed", "possessed_by_bot", "worst_gap"}
        assert set(tables["worst_gap"]) == {"accomplices", "possessed"}
        assert set(tables["possessed_by_bot"]) <= {"advised", "random", "liar", "nobody"}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            '{\n "levels": {\n  "a": {\n   "false_rate": '
            '{"investigator": 0.1, "possessed": 0.5, "rector": 0.5},\n   '
            '"guilty_rate": {"investigator": 1, "possessed": 0.5, "rector": 0.5}'
            "\n  }\n }\n}\n",
            5,
            "guilty_rate investigator must be a number strictly between 0 and 1",
        ),
        (
            '{\n "levels": {\n  "a": {"prior": 1}\n }\n}\n',
            3,
            "'false_rate' must be an object with exactly the keys investigator, possessed, rector",
        ),
        (
            '{\n "levels": {\n  "a": {"false_rate": {"investigator": 0.1, "possessed": 0.5, '
            '"rector": 0.5},\n   "guilty_false_rate": {"investigator": 0.1}}\n }\n}\n',
            4,
            "'guilty_false_rate' must be an object with exactly the keys",
        ),
        (
            '{\n "levels": {},\n "concentration": 1\n}\n',
            2,
            "'levels' must be an object of at least",
        ),
        (
            '{\n "levels": {"a": {"false_rate": {"investigator": 0.1, "possessed": 0.5, '
            '"rector": 0.5}}},\n "concentration": -1\n}\n',
            1,
            "'concentration' must be a positive",
        ),
    ],
)
@pytest.mark.parametrize("command", ["solve", "check"])
def test_a_bad_claims_file_is_one_line_naming_file_and_line(log_file, text, line, message, command):
    """The line is where the innermost object holding the problem starts."""
    model = log_file(text, "m.json")
    args = (
        [command, log_file(LOG)] if command == "solve" else [command, "blackrose", "--games", "1"]
    )
    result = CliRunner().invoke(cli, [*args, "--model", model])
    assert result.exit_code != 0
    output = result.output or str(result.exception)
    assert "Traceback" not in output
    error = [row for row in output.splitlines() if row.strip()]
    assert len(error) == 1 and f"{model}:{line}: " in error[0] and message in error[0]
