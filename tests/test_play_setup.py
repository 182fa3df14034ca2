"""Starting a log at the table: real cards, your own hand or role, forgiving answers; and
editing or dropping a recorded line without touching any other byte."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deduce.assist.session import Session
from deduce.cli.main import cli
from deduce.logs.formats.abbey import RULEBOOK_TOTALS, load_deck_file
from deduce.logs.io import read_log

ROOT = Path(__file__).resolve().parent.parent


def play(tmp_path, answers, *args):
    return CliRunner().invoke(
        cli, ["play", *args], input="\n".join(answers) + "\n", catch_exceptions=False
    )


@pytest.fixture
def my_deck(tmp_path):
    result = CliRunner().invoke(cli, ["deck", "template"])
    raw = json.loads(result.output)
    assert all(str(n) in raw["note"] for n in RULEBOOK_TOTALS.values())
    for card in raw["cards"]:
        card["id"], card["name"] = "my-" + card["id"], "Monk " + card["name"]
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(raw))
    return path


def test_a_new_abbey_log_with_my_deck_and_my_hand(tmp_path, my_deck):
    log = tmp_path / "g.log"
    hand = "my-foulques, my-hugues my-matteo my-nicola my-benedikt"
    result = play(
        tmp_path,
        ["Abbey", "Ana, Bob, CAI, dee", "Ana", hand, "quit"],
        str(log),
        "--deck",
        str(my_deck),
    )
    assert result.exit_code == 0, result.output
    game = read_log(str(log))
    assert game.header.players == ("ana", "bob", "cai", "dee") and game.header.me == "ana"
    assert game.header.extra["deck"][0]["id"].startswith("my-")  # the deck is inline
    (event,) = game.events
    assert event.type == "hand" and event.get("cards")[0] == "my-foulques"
    assert load_deck_file(str(my_deck)).ids == tuple(c["id"] for c in game.header.extra["deck"])


def test_a_wrong_hand_is_asked_again(tmp_path):
    log = tmp_path / "g.log"
    result = play(tmp_path, ["abbey", "ana bob cai dee", "ana", "nobody", "", "quit"], str(log))
    assert result.exit_code == 0 and "Error:" in result.output
    assert read_log(str(log)).events == ()


def test_a_new_black_rose_log_asks_my_role(tmp_path):
    log = tmp_path / "g.log"
    result = play(
        tmp_path, ["blackrose", "ana bob cai dee", "bob", "ana", "", "possessed", "quit"], str(log)
    )
    assert result.exit_code == 0, result.output
    (event,) = read_log(str(log)).events
    assert (event.type, event.get("player"), event.get("role")) == ("role", "bob", "possessed")


def test_an_empty_file_starts_a_new_game(tmp_path):
    log = tmp_path / "g.log"
    log.write_text("\n")
    result = play(tmp_path, ["rose", "ana bob", "ana", "", "quit"], str(log))
    assert result.exit_code == 0, result.output
    assert read_log(str(log)).header.game == "rose"


def test_deck_is_refused_for_a_log_that_exists(tmp_path, my_deck):
    log = tmp_path / "g.log"
    log.write_text("game abbey\nplayers ana bob cai dee\nme ana\n")
    result = CliRunner().invoke(cli, ["play", str(log), "--deck", str(my_deck)], input="quit\n")
    assert result.exit_code == 2 and "header names its deck" in result.output


TEXT = (
    "game abbey\r\nplayers ana bob cai dee\r\nme ana\r\n# the deal\r\n"
    "hand ana foulques hugues matteo nicola benedikt\r\n"
    "count bob fat 1   # asked in the library\r\nhas cai orlando\r\n"
)


def test_edit_and_drop_keep_every_other_byte(tmp_path):
    path = tmp_path / "g.log"
    path.write_bytes(TEXT.encode())
    session = Session(str(path))
    old, new = session.edit(7, "lacks cai orlando")
    assert (old.type, new.type, new.line) == ("has", "lacks", 7)
    assert path.read_bytes().decode() == TEXT.replace("has cai orlando", "lacks cai orlando")
    dropped = session.drop(6)
    assert dropped.type == "count"
    assert path.read_bytes().decode() == TEXT.replace(
        "count bob fat 1   # asked in the library\r\n", ""
    ).replace("has cai", "lacks cai")


def test_an_edit_that_breaks_the_log_leaves_the_file_alone(tmp_path):
    path = tmp_path / "g.log"
    path.write_bytes(TEXT.encode())
    session = Session(str(path))
    with pytest.raises(Exception, match=r"g\.log:7: unknown card 'nobody'"):
        session.edit(7, "has cai nobody")
    with pytest.raises(Exception, match="line 4 holds no event"):
        session.drop(4)
    assert path.read_bytes().decode() == TEXT


def test_edit_and_drop_at_the_prompt(tmp_path):
    path = tmp_path / "g.log"
    path.write_bytes(TEXT.encode())
    result = CliRunner().invoke(
        cli, ["play", str(path)], input="edit 7 lacks cai orlando\ndrop 6\ndrop 4\nquit\n"
    )
    assert "Replaced line 7: has cai orlando" in result.output
    assert "Removed line 6: count bob fat 1" in result.output
    assert "line 4 holds no event" in result.output
    assert path.read_bytes().decode() == TEXT.replace(
        "count bob fat 1   # asked in the library\r\n", ""
    ).replace("has cai", "lacks cai")


def test_insert_at_the_prompt(tmp_path):
    path = tmp_path / "g.log"
    path.write_bytes(TEXT.encode())
    result = CliRunner().invoke(
        cli,
        ["play", str(path)],
        input="insert 7 lacks dee orlando\n"
        "insert 4 lacks dee orlando\ninsert 7\nhelp insert\nquit\n",
    )
    assert "Inserted line 7: lacks dee orlando (the lines from there on moved down one)" in (
        result.output
    )
    assert "line 4 holds no event" in result.output
    assert "usage: insert LINE EVENT" in result.output
    assert "Command: insert LINE EVENT" in result.output
    assert path.read_bytes().decode() == TEXT.replace("has cai", "lacks dee orlando\r\nhas cai")
    assert [e.line for e in read_log(str(path)).events] == [5, 6, 7, 8]
