"""A game's log format is one module: a small game plugged in here reads and writes
with no change anywhere else in the log layer (docs/adding-a-game.md)."""

from __future__ import annotations

import pytest

from deduce.assist.complete import event_words as completion_words
from deduce.errors import LogError
from deduce.logs.formats import FORMATS, event_types, games
from deduce.logs.grammar import Flag, HeaderWord, Maybe, Number, Word
from deduce.logs.io import parse_log
from deduce.logs.jsonl import format_jsonl
from deduce.logs.kinds import choice
from deduce.logs.schema import EventSchema, LogFormat, events, opt, req
from deduce.logs.text import format_text, usage

FACES = ("one", "two", "three")

#: A made-up game: players roll named faces and may bluff about them.
DICE = LogFormat(
    game="dice",
    events=events(
        EventSchema("roll", (req("player", "player"), req("face", "face"), opt("n", "positive"))),
        EventSchema("bluff", (req("player", "player"), req("honest", "bool"))),
    ),
    grammar={
        "roll": (Word("player", "PLAYER"), Word("face", "FACE"), Maybe(Number("n", "N"))),
        "bluff": (Word("player", "PLAYER"), Flag("honest", "honest|lying", "honest", "lying")),
    },
    header=(opt("sides", "positive"),),
    header_words={"sides": HeaderWord("sides", "number")},
    kinds={"face": choice("face", FACES)},
    soft_events=("bluff",),
    players=(2, 3),
    reserved_names=("table",),
)

TEXT = """game dice
players ana bob
me ana
sides 6

roll ana two 3
bluff bob lying # a guess
"""


@pytest.fixture(autouse=True)
def dice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(FORMATS, "dice", DICE)


def test_the_new_game_is_a_game_of_the_format() -> None:
    assert games()[-1] == "dice"
    assert event_types("dice") == ("roll", "bluff")
    assert usage("dice", "roll") == "roll PLAYER FACE [N]"


def test_its_logs_read_and_write_in_both_syntaxes() -> None:
    log = parse_log(TEXT, "d.log")
    assert log.header.extra == {"sides": 6}
    assert [(e.type, dict(e.fields)) for e in log.events] == [
        ("roll", {"player": "ana", "face": "two", "n": 3}),
        ("bluff", {"player": "bob", "honest": False}),
    ]
    assert log.events[1].note == "a guess"
    jsonl = format_jsonl(log)
    assert jsonl.splitlines()[1] == '{"type": "roll", "player": "ana", "face": "two", "n": 3}'
    again = parse_log(jsonl, "d.jsonl")
    assert format_text(again) == format_text(log)
    rewritten = parse_log(format_text(again), "d.log")
    assert [(e.type, e.fields, e.note) for e in rewritten.events] == [
        (e.type, e.fields, e.note) for e in log.events
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("roll ana two 3", "roll ana six"), "d.log:6: unknown face 'six'"),
        (("players ana bob", "players ana bob cy dan"), "d.log:2: a dice game needs 2 to 3"),
        (("players ana bob", "players ana table"), "d.log:2: 'table' cannot be a player's name"),
        (("sides 6", "sides 0"), "d.log:4: 'sides' must be an integer >= 1"),
        (("bluff bob lying", "draw bob"), "d.log:7: unknown event type 'draw' for dice"),
    ],
)
def test_its_own_checks_apply(change: tuple[str, str], message: str) -> None:
    with pytest.raises(LogError) as caught:
        parse_log(TEXT.replace(*change), "d.log")
    assert str(caught.value).startswith(message)


def test_completion_offers_its_words() -> None:
    vocab = {"player": ("ana", "bob"), "face": FACES}
    assert completion_words("dice", vocab, ["roll"]) == ["ana", "bob"]
    assert completion_words("dice", vocab, ["roll", "ana"]) == list(FACES)
    assert completion_words("dice", vocab, ["bluff", "bob"]) == ["honest", "lying"]
