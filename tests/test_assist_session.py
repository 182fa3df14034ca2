"""The log being played: appending, undoing and trying events; new logs and their headers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deduce.assist import session as session_module
from deduce.assist.newlog import free_name, header_text, questions, raw_header
from deduce.assist.session import Session, syntax_for
from deduce.errors import DeduceError, LogError
from deduce.logs.canonical import dump_object
from deduce.logs.io import parse_log, read_log
from deduce.logs.jsonl import event_to_json

ABBEY = """\
# a comment before the header
game abbey
players ana bob cai dee
me ana

hand ana aymeric baldwin conrad dagobert eustache   # my hand
# a comment between events
show bob to ana foulques
"""

ROSE_JSONL = (
    '{"game": "rose", "version": 1, "players": ["ana", "bob", "cai"], "me": "ana"}\n'
    '{"type": "identity", "player": "ana", "colour": "red"}\n'
)


def _bytes(path: str) -> bytes:
    return Path(path).read_bytes()


def test_add_appends_the_canonical_line_and_nothing_else(log_file):
    path = log_file(ABBEY)
    session = Session(path)
    event = session.add("count   bob bearded+novice    1   # asked by cai")
    assert _bytes(path) == (ABBEY + "count bob bearded+novice 1 # asked by cai\n").encode()
    assert event.line == ABBEY.count("\n") + 1
    assert event.fields == {"player": "bob", "traits": ("bearded", "novice"), "n": 1}
    assert event.note == "asked by cai"
    assert read_log(path).events[-1] == event


def test_add_to_a_jsonl_log_writes_the_canonical_json_line(log_file):
    path = log_file(ROSE_JSONL, "g.jsonl")
    session = Session(path)
    event = session.add("reveal bob blue")
    expected = dump_object(event_to_json(event, "rose"))
    assert expected == '{"type": "reveal", "player": "bob", "colour": "blue"}'
    assert _bytes(path) == (ROSE_JSONL + expected + "\n").encode()
    assert session.syntax == "jsonl"
    assert event.line == 3


def test_add_syncs_the_file_before_returning(log_file, monkeypatch):
    path = log_file(ABBEY)
    synced: list[int] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.fstat(fd).st_size)
        real(fd)

    monkeypatch.setattr(session_module.os, "fsync", fsync)
    Session(path).add("lacks bob gregor")
    assert synced == [os.path.getsize(path)]


def test_a_file_without_a_final_newline_gets_one_first(log_file):
    path = log_file(ABBEY.rstrip("\n"))
    Session(path).add("lacks bob gregor")
    assert _bytes(path) == (ABBEY + "lacks bob gregor\n").encode()


def test_crlf_and_byte_order_mark_are_kept_by_add_and_undo(tmp_path):
    original = ("\ufeff" + ABBEY.replace("\n", "\r\n")).encode()
    path = tmp_path / "g.log"
    path.write_bytes(original)
    session = Session(str(path))
    session.add("lacks bob gregor")
    assert path.read_bytes() == original + b"lacks bob gregor\r\n"
    session.undo()
    assert path.read_bytes() == original


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("has bobb aymeric", "unknown player 'bobb'"),
        ("has bob", "too few words (usage: has PLAYER CARD)"),
        ("count bob fatt 1", "unknown trait 'fatt'"),
        ("accuse bob aymeric maybe", "'correct' must be right or wrong"),
        ("hand bob aymeric", "hand lists 1 card but bob holds 5 at this point"),
        ("draw ana", "ana is the observer: their own draw needs its card"),
        ("players ana bob", "not an event line"),
        ("identity bob red", "not an event line"),
    ],
)
def test_invalid_lines_are_refused_with_the_readers_message_and_never_written(
    log_file, typed, message
):
    path = log_file(ABBEY)
    before = _bytes(path)
    with pytest.raises(LogError) as caught:
        Session(path).add(typed)
    line = ABBEY.count("\n") + 1
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert message in str(caught.value)
    assert _bytes(path) == before


def test_the_same_line_in_the_file_gets_the_same_message_from_the_reader(log_file):
    path = log_file(ABBEY)
    with pytest.raises(LogError) as typed:
        Session(path).add("show bob to bob foulques")
    with pytest.raises(LogError) as read:
        parse_log(ABBEY + "show bob to bob foulques\n", path)
    assert str(typed.value) == str(read.value)


def test_extended_checks_the_whole_log_but_writes_nothing(log_file):
    path = log_file(ABBEY)
    before = _bytes(path)
    text, log = Session(path).extended("culprit gregor")
    assert text == ABBEY + "culprit gregor\n"
    assert [e.type for e in log.events] == ["hand", "show", "culprit"]
    assert _bytes(path) == before


def test_undo_removes_only_the_last_event_line(log_file):
    path = log_file(ABBEY + "\n# a trailing comment\n")
    session = Session(path)
    session.add("lacks bob gregor")
    removed = session.undo()
    assert removed.type == "lacks"
    assert _bytes(path) == (ABBEY + "\n# a trailing comment\n").encode()
    removed = session.undo()
    assert removed.type == "show"
    assert (
        _bytes(path)
        == (ABBEY.replace("show bob to ana foulques\n", "") + "\n# a trailing comment\n").encode()
    )
    session.undo()
    with pytest.raises(DeduceError, match="nothing to undo"):
        session.undo()


def test_every_operation_sees_edits_made_meanwhile(log_file):
    path = log_file(ABBEY)
    session = Session(path)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("lacks cai gregor\n")
    session.undo()
    assert _bytes(path) == ABBEY.encode()


def test_create_writes_the_header_and_refuses_an_existing_file(tmp_path):
    path = str(tmp_path / "new.jsonl")
    header = header_text(raw_header("rose", "ana bob cai", "bob"), path, syntax_for(path))
    session = Session.create(path, header)
    assert _bytes(path) == (
        b'{"game": "rose", "version": 1, "players": ["ana", "bob", "cai"], "me": "bob"}\n'
    )
    assert session.syntax == "jsonl" and session.log.events == ()
    with pytest.raises(DeduceError, match="the file exists"):
        Session.create(path, header)
    assert session.add("reveal cai red").line == 2


def test_new_headers_in_the_line_syntax_and_what_each_game_asks(tmp_path):
    path = str(tmp_path / "g.log")
    assert questions("rose", ("a", "b")) == ()
    assert questions("abbey", ("a", "b", "c")) == ()
    assert [q.key for q in questions("abbey", ("a", "b"))] == ["pile", "hand"]
    assert [(q.key, q.required) for q in questions("blackrose", ("a", "b", "c"))] == [
        ("rector", True),
        ("suspects", False),
    ]
    text = header_text(
        raw_header("blackrose", "ana, bob cai", "spectator", {"rector": "cai", "suspects": ""}),
        path,
        "text",
    )
    assert text == "game blackrose\nversion 1\nplayers ana bob cai\nspectator\nrector cai\n"
    text = header_text(
        raw_header("abbey", "ana bob", "ana", {"pile": "3", "hand": "10"}), path, "text"
    )
    assert parse_log(text, path).header.extra == {"pile": 3, "hand": 10}


@pytest.mark.parametrize(
    ("game", "players", "me", "answers", "message"),
    [
        ("rose", "ana bob", "zed", {}, "unknown player 'zed'"),
        ("rose", "ana", "ana", {}, "a rose game needs 2 to 5 players, got 1"),
        ("blackrose", "ana bob cai", "ana", {"rector": "dan"}, "unknown player 'dan'"),
        (
            "blackrose",
            "ana bob cai",
            "ana",
            {"rector": "ana", "suspects": "a b"},
            "'suspects' must list exactly 7 ids, got 2",
        ),
        ("abbey", "ana bob", "ana", {"pile": "x", "hand": "3"}, "pile must be a whole number"),
        ("abbey", "ana bob", "ana", {"pile": "3", "hand": "3"}, "the deck has 24 cards"),
    ],
)
def test_bad_answers_get_the_readers_message(tmp_path, game, players, me, answers, message):
    with pytest.raises(DeduceError, match=message):
        header_text(raw_header(game, players, me, answers), str(tmp_path / "g.log"), "text")


def test_free_name_never_names_an_existing_file(tmp_path):
    assert free_name(str(tmp_path)) == "game.log"
    (tmp_path / "game.log").write_text("x")
    (tmp_path / "game-2.log").write_text("x")
    assert free_name(str(tmp_path)) == "game-3.log"


def test_insert_puts_the_canonical_line_before_the_event_and_nothing_else(log_file):
    path = log_file(ABBEY)
    session = Session(path)
    event = session.insert(8, "count   bob fat 1   # asked by cai")  # before the show
    assert (
        _bytes(path)
        == ABBEY.replace("show bob", "count bob fat 1 # asked by cai\nshow bob").encode()
    )
    assert (event.type, event.line, event.note) == ("count", 8, "asked by cai")
    assert [(e.type, e.line) for e in read_log(path).events] == [
        ("hand", 6),
        ("count", 8),
        ("show", 9),
    ]
    assert session.log.events[1] == event
    session.insert(6, "lacks bob gregor")  # before the first event, after the blank line
    assert (
        _bytes(path)
        == ABBEY.replace("\nhand ana", "\nlacks bob gregor\nhand ana")
        .replace("show bob", "count bob fat 1 # asked by cai\nshow bob")
        .encode()
    )


def test_insert_into_a_jsonl_log_writes_the_canonical_json_line(log_file):
    path = log_file(
        ROSE_JSONL + '{"type": "reveal", "player": "bob", "colour": "blue"}\n', "g.jsonl"
    )
    event = Session(path).insert(3, "reveal cai grey")
    assert (
        _bytes(path)
        == (
            ROSE_JSONL + '{"type": "reveal", "player": "cai", "colour": "grey"}\n'
            '{"type": "reveal", "player": "bob", "colour": "blue"}\n'
        ).encode()
    )
    assert event.line == 3 and [e.line for e in read_log(path).events] == [2, 3, 4]


def test_insert_keeps_crlf_and_the_byte_order_mark(tmp_path):
    original = "\ufeff" + ABBEY.replace("\n", "\r\n")
    path = tmp_path / "g.log"
    path.write_bytes(original.encode())
    Session(str(path)).insert(8, "lacks bob gregor")
    assert (
        path.read_bytes() == original.replace("show bob", "lacks bob gregor\r\nshow bob").encode()
    )


DRAWS = (
    "game abbey\nplayers ana bob cai dee\nme ana\n# the pile holds 3\ndraw bob\ndraw cai\n"
    "draw dee\n"
)


@pytest.mark.parametrize(
    ("line", "typed", "message"),
    [
        (6, "draw bob", "g.log:8: draw from an empty pile"),  # the whole log is checked again
        (6, "hand bob aymeric", "g.log:6: hand lists 1 card but bob holds 6 at this point"),
        (5, "has bobb aymeric", "g.log:5: unknown player 'bobb'"),
        (5, "players ana bob", "g.log:5: not an event line"),
        (4, "has bob aymeric", "g.log: line 4 holds no event"),  # a comment
        (1, "has bob aymeric", "g.log: line 1 holds no event"),
        (9, "has bob aymeric", "g.log: line 9 holds no event"),
    ],
)
def test_an_insert_that_breaks_the_log_leaves_the_file_alone(log_file, line, typed, message):
    path = log_file(DRAWS)
    session = Session(path)
    with pytest.raises(DeduceError) as caught:
        session.insert(line, typed)
    assert str(caught.value).startswith(path.removesuffix("g.log") + message)
    assert _bytes(path) == DRAWS.encode()
    assert session.log == read_log(path)
