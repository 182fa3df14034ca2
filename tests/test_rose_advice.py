"""The Rose advisor, the ``advised`` bot and ``suggest``'s situations.

The hand position: two players, ana red (the observer), bob black (his
``identity`` line in ana's log), ana's blue, white and grey markers
revealed. Bob knows he is black, so to him ana is red or orange, one
chance in two: her exposure is 6 of the 12 clue points a right guess costs
at two players. Revealing orange would give her away (12, so +6 shown);
revealing black tells bob nothing new (0 shown).
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from random import Random

import pytest
from click.testing import CliRunner
from rose_random import rose
from test_rose_simulate import first_observation

from deduce.cli.main import cli
from deduce.errors import DeduceError
from deduce.games.rose.advice import Advisor, Option, describe, ranked
from deduce.games.rose.advised import Advised, AdvisedPlay, likely
from deduce.games.rose.bots import Point, gain
from deduce.games.rose.engine import RoseGame
from deduce.games.rose.exposure import exposure_of
from deduce.games.rose.simulate import BOTS, play, record_game
from deduce.games.rose.situation import USAGE, parse_situation, suggestion
from deduce.games.rose.solve import solve_rose
from deduce.games.simulate import simulate
from deduce.logs.formats.rose import COLOURS
from deduce.logs.io import format_log
from deduce.logs.model import GameLog

HAND = (
    "ana bob",
    "ana",
    "identity ana red",
    "identity bob black",
    "reveal ana blue",
    "reveal ana white",
    "reveal ana grey",
)
HELP_RED = Point("red", "clue", -3, "william")
HELP_ORANGE = Point("orange", "clue", -3, "william")


def advisor(log: GameLog, guesser: str = "markers") -> Advisor:
    found = exposure_of(log, solve_rose(log), guesser)
    assert found is not None
    return Advisor.of(found)


@pytest.fixture(scope="module")
def hand() -> GameLog:
    return rose(*HAND)


# --------------------------------------------------------------------------
# the advisor's values


@pytest.mark.parametrize("guesser", ["markers", "play"])
def test_a_reveal_that_gives_your_colour_away_costs_its_exposure(hand, guesser):
    found = advisor(hand, guesser)
    assert float(found.exposure.expected) == 6
    black, orange = found.reveal("black"), found.reveal("orange")
    assert black.shown == 0 and orange.shown == 6
    assert black.saved == orange.saved == gain("black", "clue", 2, "red")
    assert [o.action for o in ranked([orange, black])] == ["black", "orange"]


def test_the_markers_reading_sees_nothing_in_points(hand):
    found = advisor(hand)
    for point in (HELP_RED, HELP_ORANGE, Point("red", "suspicion", 5, "move")):
        option = found.choice([point])
        assert option.shown == 0
        assert option.value == option.saved == gain(*point[:3], "red")


def test_the_play_reading_sees_a_choice_for_your_monk(hand):
    found = advisor(hand, "play")
    assert found.choice([HELP_RED]).shown == 6  # bob now guesses red
    assert found.choice([HELP_ORANGE]).shown == -6  # bob now guesses orange
    assert found.worth(HELP_RED) == gain("red", "clue", -3, "red") - 6


def test_choices_of_one_kind_show_the_same_whatever_their_points(hand):
    found = advisor(hand, "play")
    small, large = Point("red", "suspicion", -1, "move"), Point("red", "suspicion", -5, "move")
    assert found.choice([small]).shown == found.choice([large]).shown > 0
    assert found.choice([Point("red", "suspicion", 0, "move")]).shown == 0  # no event


def test_an_option_is_worth_what_it_saves_less_what_it_shows():
    option = Option("red", 1.5, 0.25)
    assert option.value == 1.25
    assert option.to_json() == {"action": "red", "saved": 1.5, "shown": 0.25, "value": 1.25}
    assert describe([Point("red", "clue", 1, "bonus"), Point("blue", "clue", 1, "bonus")]) == (
        "red +1, blue +1 clue"
    )


def test_the_bot_leaves_out_unlikely_colours():
    row = {"red": Fraction(1, 200), "blue": Fraction(99, 200)}
    assert likely(row, Fraction(1, 100)) == {"blue": 1}
    assert likely({"red": Fraction(1, 2), "blue": Fraction(1, 2)}, Fraction(1, 100)) == {
        "red": Fraction(1, 2),
        "blue": Fraction(1, 2),
    }


# --------------------------------------------------------------------------
# the advised bot


def observation(decision: str, context: dict | None = None):
    """Ana's observation of the hand position, asked ``decision``."""
    obs = first_observation(2)
    log = (
        {"type": "identity", "player": "ana", "colour": "red"},
        {"type": "identity", "player": "bob", "colour": "black"},
        *({"type": "reveal", "player": "ana", "colour": c} for c in ("blue", "white", "grey")),
    )
    return replace(
        obs, seat=0, player="ana", identity="red", log=log, decision=decision, context=context or {}
    )


def test_the_bot_reveals_the_marker_that_shows_least():
    bot = Advised(RoseGame.create(2), 0)
    assert bot(observation("reveal"), ["black", "orange"], Random(1)) == "black"


def test_the_bot_weighs_a_choice_by_what_it_shows_to_its_reading():
    william = observation("william", {"monk": "red", "points": 3})
    assert Advised(RoseGame.create(2), 0)(william, [1, -1], Random(1)) == -1
    # read for play, helping red would show it: 3 saved, 6 shown
    assert AdvisedPlay(RoseGame.create(2), 0)(william, [1, -1], Random(1)) == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_advised_bot_plays_only_legal_moves(players):
    """apply_action raises on an illegal action, so finishing every game is the test."""
    game = RoseGame.create(players)
    for index in range(players):
        lineup = ["monk"] * players
        lineup[index] = "advised"
        state = play(game, index, 5, lineup)
        assert state.is_terminal() and len(state.guesses) == players
    state = play(game, 0, 6, ["advised"] * players)
    assert state.is_terminal()


def test_the_play_reading_bot_plays_only_legal_moves():
    state = play(RoseGame.create(2), 1, 5, ["advised-play", "monk"])
    assert state.is_terminal()


def test_the_advised_bot_is_registered_and_its_games_follow_their_seed():
    assert BOTS["advised"] is Advised
    lineup = ("advised", "monk", "monk", "advised")
    game = RoseGame.create(4)
    once = list(simulate(record_game, game, 3, 9, lineup))
    assert once == list(simulate(record_game, game, 3, 9, lineup))
    assert once != list(simulate(record_game, game, 3, 10, lineup))


def test_simulate_seats_the_advised_bot(tmp_path):
    out = tmp_path / "games"
    result = CliRunner().invoke(
        cli,
        ["simulate", "rose", "--games", "1", "--bots", "advised,monk,monk,monk", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    truth = json.loads((out / "game-0001" / "truth.json").read_text())
    assert list(truth["bots"].values()) == ["advised", "monk", "monk", "monk"]


# --------------------------------------------------------------------------
# suggest


@pytest.mark.parametrize(
    ("text", "kind", "choices"),
    [
        ("reveal", "reveal", 0),
        ("move red-3 blue+4 grey+0", "move", 3),
        ("william red", "william", 2),
        ("adson blue 10", "adson", 2),
        ("bonus", "bonus", 21),
        ("awkward 4", "awkward", 6),
        ("guess", "guess", 0),
    ],
)
def test_situations_are_read(text, kind, choices):
    situation = parse_situation(text)
    assert situation.kind == kind and len(situation.choices) == choices


def test_situation_points_are_the_rules():
    assert parse_situation("william red").choices == (
        (Point("red", "clue", 3, "william"),),
        (Point("red", "clue", -3, "william"),),
    )
    assert parse_situation("adson red 10").choices[1] == (Point("red", "suspicion", -10, "adson"),)
    assert parse_situation("move red-3").choices == ((Point("red", "suspicion", -3, "move"),),)
    assert parse_situation("bonus").choices[-1] == (
        Point("black", "clue", 1, "bonus"),
        Point("orange", "clue", 1, "bonus"),
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", f"expected {USAGE}"),
        ("dance", f"expected {USAGE}"),
        ("move", "expected move MONK+N"),
        ("move red", "expected move MONK+N"),
        ("move purple-3", "unknown monk 'purple'"),
        ("william", "expected william MONK [N]"),
        ("william red 0", "N a whole number >= 1"),
        ("awkward", "expected awkward N"),
        ("bonus red", "bonus takes nothing more"),
    ],
)
def test_a_bad_situation_is_a_one_line_error(text, message):
    with pytest.raises(DeduceError) as error:
        parse_situation(text)
    assert message in str(error.value) and "\n" not in str(error.value)


def _suggest(log: GameLog, tmp_path, *options: str) -> dict:
    path = tmp_path / "ana.jsonl"
    path.write_text(format_log(log), encoding="utf-8")
    result = CliRunner().invoke(cli, ["suggest", str(path), "--json", *options])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_suggest_ranks_the_situation_at_hand(hand, tmp_path):
    data = _suggest(hand, tmp_path, "--situation", "reveal")
    situation = data["situation"]
    assert situation["kind"] == "reveal" and situation["colour"] == "red"
    assert situation["guesser"] == "markers"
    assert [c["action"] for c in situation["choices"]] == ["black", "orange"]
    assert [c["shown"] for c in situation["choices"]] == [0, 6]
    william = _suggest(hand, tmp_path, "--situation", "william red")["situation"]["choices"]
    assert [c["action"] for c in william] == ["red -3 clue", "red +3 clue"]


def test_suggest_advises_the_reveal_while_markers_are_left(tmp_path):
    early = rose("ana bob cai", "ana", "identity ana red", "reveal ana blue")
    data = _suggest(early, tmp_path)
    assert {"guesses", "expected_right", "reveal"} <= set(data)
    assert {c["action"] for c in data["reveal"]["choices"]} == {"white", "grey", "black", "orange"}
    assert "reveal" not in _suggest(rose(*HAND, "reveal ana orange"), tmp_path)


def test_suggest_without_your_colour_gives_the_guesses_only(tmp_path):
    log = rose("ana bob", "ana", "reveal bob red")
    assert "reveal" not in _suggest(log, tmp_path)
    solution = solve_rose(log)
    with pytest.raises(DeduceError, match="no colour of yours"):
        suggestion(solution, "william red", 10)


def test_suggest_lists_the_best_options_first(hand, tmp_path):
    path = tmp_path / "ana.jsonl"
    path.write_text(format_log(hand), encoding="utf-8")
    result = CliRunner().invoke(cli, ["suggest", str(path), "--situation", "bonus"])
    assert result.exit_code == 0
    assert "Which monks get the bonus (you are red" in result.output
    assert "... 11 more" in result.output
    values = [float(line.split()[-1]) for line in result.output.splitlines() if line[:1].isdigit()]
    assert values == sorted(values, reverse=True)
    assert all(f"{colour} +2 clue" in result.output for colour in COLOURS if colour != "red")
