"""Every refused input gives one ``LogError`` with the right line and message, in both syntaxes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.errors import LogError
from deduce.logs.io import parse_log, read_log
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.text import parse_text

HEADERS = {
    "abbey": (
        {"game": "abbey", "players": ["ana", "bob", "cai", "dee"], "me": "ana"},
        "game abbey\nplayers ana bob cai dee\nme ana\n",
    ),
    "spectator": (
        {"game": "abbey", "players": ["ana", "bob", "cai", "dee"], "me": None},
        "game abbey\nplayers ana bob cai dee\nspectator\n",
    ),
    "rose": (
        {"game": "rose", "players": ["ana", "bob", "cai"], "me": "ana"},
        "game rose\nplayers ana bob cai\nme ana\n",
    ),
    "blackrose": (
        {
            "game": "blackrose",
            "players": ["ana", "bob", "cai", "dee"],
            "rector": "dee",
            "me": "ana",
        },
        "game blackrose\nplayers ana bob cai dee\nrector dee\nme ana\n",
    ),
}


def json_error(header: str, event: dict) -> LogError:
    text = json.dumps(HEADERS[header][0]) + "\n\n" + json.dumps(event) + "\n"
    with pytest.raises(LogError) as info:
        parse_jsonl(text, "game.jsonl")
    assert info.value.line == 3
    return info.value


FIRST_EVENT = {
    "abbey": "has ana conrad",
    "spectator": "draw bob",
    "rose": "reveal bob red",
    "blackrose": "kill s1",
}


def text_error(header: str, line: str) -> LogError:
    """Parse the header, a valid event, a comment, then ``line``; return the error."""
    text = f"{HEADERS[header][1]}{FIRST_EVENT[header]}\n# a comment\n{line}\n"
    with pytest.raises(LogError) as info:
        parse_text(text, "game.txt")
    assert info.value.line == text.count("\n")
    return info.value


# (header, JSON event, the same event as a typed line, expected message)
BOTH = [
    (
        "abbey",
        {"type": "has", "player": "bobb", "card": "aymeric"},
        "has bobb aymeric",
        "unknown player 'bobb' (did you mean 'bob'? players: ana, bob, cai, dee)",
    ),
    (
        "abbey",
        {"type": "has", "player": "bob", "card": "aymerc"},
        "has bob aymerc",
        "unknown card 'aymerc' (did you mean 'aymeric'?)",
    ),
    (
        "abbey",
        {"type": "lacks", "player": "bob", "card": "zzz"},
        "lacks bob zzz",
        "unknown card 'zzz' (not one of the 24 cards)",
    ),
    (
        "abbey",
        {"type": "hand", "player": "ana", "cards": ["aymeric", "aymeric"]},
        "hand ana aymeric aymeric",
        "'cards' lists 'aymeric' twice",
    ),
    (
        "abbey",
        {"type": "hand", "player": "ana", "cards": ["aymeric", "x"]},
        "hand ana aymeric x",
        "unknown card 'x' in 'cards'",
    ),
    (
        "abbey",
        {"type": "count", "player": "bob", "traits": ["hooded", "bareheaded"], "n": 1},
        "count bob hooded+bareheaded 1",
        "'traits' name two traits of the hood group",
    ),
    (
        "abbey",
        {"type": "count", "player": "bob", "traits": ["hoody"], "n": 1},
        "count bob hoody 1",
        "unknown trait 'hoody'",
    ),
    (
        "abbey",
        {"type": "count", "player": "bob", "traits": ["fat"], "n": -1},
        "count bob fat -1",
        "'n' must be an integer >= 0, got -1",
    ),
    (
        "abbey",
        {"type": "count", "player": "bob", "traits": ["fat"], "n": "two"},
        "count bob fat two",
        "'n' must be an integer >= 0, got 'two'",
    ),
    (
        "abbey",
        {"type": "show", "player": "bob", "to": "bob", "card": "aymeric"},
        "show bob to bob aymeric",
        "'to' must be a different player from 'player' (both 'bob')",
    ),
    (
        "abbey",
        {"type": "show", "player": "bob", "to": "cai", "card": "hooded-x"},
        "show bob to cai hooded-x",
        "unknown card 'hooded-x'",
    ),
    (
        "abbey",
        {"type": "show", "player": "bob", "to": "cai", "traits": ["fat", "fatt"]},
        "show bob to cai fat+fatt",
        "unknown trait 'fatt'",
    ),
    (
        "abbey",
        {"type": "draw", "player": "bob", "card": "nobody"},
        "draw bob nobody",
        "unknown card 'nobody'",
    ),
    (
        "abbey",
        {"type": "take", "player": "bob", "from": "bob"},
        "take bob from bob",
        "'from' must be a different player from 'player' (both 'bob')",
    ),
    (
        "abbey",
        {"type": "take", "player": "bob", "from": "eve"},
        "take bob from eve",
        "unknown player 'eve' in 'from' (players: ana, bob, cai, dee)",
    ),
    ("abbey", {"type": "mass", "n": 0}, "mass 0", "'n' must be an integer >= 1, got 0"),
    (
        "abbey",
        {"type": "mass", "n": 1, "got": ["conrad", "conrad"]},
        "mass 1 got conrad conrad",
        "'got' lists 'conrad' twice",
    ),
    (
        "spectator",
        {"type": "mass", "n": 1, "gave": ["conrad"]},
        "mass 1 gave conrad",
        "'gave' needs an observer, and this log has none ('me' is null)",
    ),
    (
        "spectator",
        {"type": "mass", "n": 1, "got": []},
        "mass 1 got",
        "'got' needs an observer, and this log has none",
    ),
    (
        "abbey",
        {"type": "accuse", "player": "bob", "card": "conrad", "correct": True, "shown_by": "cai"},
        "accuse bob conrad right by cai",
        "'shown_by' is only allowed when 'correct' is false",
    ),
    (
        "abbey",
        {"type": "accuse", "player": "bob", "card": "conrad", "correct": False, "shown_by": "zed"},
        "accuse bob conrad wrong by zed",
        "unknown player 'zed' in 'shown_by'",
    ),
    ("abbey", {"type": "culprit", "card": "ana"}, "culprit ana", "unknown card 'ana'"),
    (
        "abbey",
        {"type": "hnad", "player": "ana"},
        "hnad ana",
        "unknown event type 'hnad' for abbey (types: hand, has, lacks, count, show, draw, take, "
        "mass, accuse, culprit)",
    ),
    (
        "abbey",
        {"type": "identity", "player": "ana", "colour": "red"},
        "identity ana red",
        "unknown event type 'identity' for abbey",
    ),
    (
        "rose",
        {"type": "identity", "player": "ana", "colour": "pink"},
        "identity ana pink",
        "unknown colour 'pink' (colours: red, blue, white, grey, black, orange)",
    ),
    (
        "rose",
        {"type": "reveal", "player": "dan", "colour": "red"},
        "reveal dan red",
        "unknown player 'dan' (players: ana, bob, cai)",
    ),
    (
        "rose",
        {"type": "guess", "player": "bob", "of": "bob", "colour": "red"},
        "guess bob of bob red",
        "'of' must be a different player from 'player'",
    ),
    (
        "rose",
        {
            "type": "points",
            "player": "bob",
            "monk": "grey",
            "track": "clue",
            "n": 0,
            "cause": "william",
        },
        "points bob grey clue 0 william",
        "'n' must be a non-zero integer, got 0",
    ),
    (
        "rose",
        {
            "type": "points",
            "player": "bob",
            "monk": "grey",
            "track": "fame",
            "n": 3,
            "cause": "william",
        },
        "points bob grey fame 3 william",
        "unknown track 'fame' (tracks: clue, suspicion)",
    ),
    (
        "rose",
        {
            "type": "points",
            "player": "bob",
            "monk": "grey",
            "track": "clue",
            "n": 3,
            "cause": "luck",
        },
        "points bob grey clue 3 luck",
        "unknown cause 'luck' (causes: william, adson, move, bonus)",
    ),
    (
        "rose",
        {
            "type": "points",
            "player": "bob",
            "monk": "pink",
            "track": "clue",
            "n": 3,
            "cause": "move",
        },
        "points bob pink clue 3 move",
        "unknown colour 'pink' in 'monk'",
    ),
    (
        "blackrose",
        {"type": "role", "player": "ana", "role": "monk"},
        "role ana monk",
        "unknown role 'monk' (roles: investigator, possessed, rector)",
    ),
    (
        "blackrose",
        {"type": "proof", "suspect": "s8"},
        "proof s8",
        "unknown suspect 's8' (suspects: s1, s2, s3, s4, s5, s6, s7)",
    ),
    (
        "blackrose",
        {"type": "proof", "suspect": "s1", "player": "zed"},
        "proof s1 by zed",
        "unknown player 'zed'",
    ),
    (
        "blackrose",
        {"type": "accuse", "suspects": ["s1", "s1"], "correct": True},
        "accuse s1 s1 right",
        "'suspects' lists 's1' twice",
    ),
    (
        "blackrose",
        {"type": "accuse", "suspects": ["s1", "x"], "correct": True},
        "accuse s1 x right",
        "unknown suspect 'x' in 'suspects'",
    ),
    ("blackrose", {"type": "kill", "suspect": "ana"}, "kill ana", "unknown suspect 'ana'"),
    (
        "blackrose",
        {"type": "goal", "card": "Mac", "condition": {"innocent_dead_at_least": 3}},
        "goal Mac innocent_dead_at_least 3",
        "'card': 'Mac' is not an id",
    ),
    (
        "blackrose",
        {"type": "goal", "card": "mac", "condition": {"dead_at_least": 3}},
        "goal mac dead_at_least 3",
        "unknown condition 'dead_at_least' (conditions: innocent_dead_at_least)",
    ),
    (
        "blackrose",
        {"type": "goal", "card": "mac", "condition": {"innocent_dead_at_least": -2}},
        "goal mac innocent_dead_at_least -2",
        "'innocent_dead_at_least' must be an integer >= 0, got -2",
    ),
    (
        "blackrose",
        {"type": "claim", "player": "bob", "suspect": "s9", "innocent": True},
        "claim bob s9 innocent",
        "unknown suspect 's9'",
    ),
]


@pytest.mark.parametrize(
    ("header", "event", "line", "message"),
    BOTH,
    ids=[f"{i}-{e['type']}" for i, (_, e, _, _) in enumerate(BOTH)],
)
def test_both_syntaxes_refuse_the_same_way(
    header: str, event: dict, line: str, message: str
) -> None:
    from_json, from_text = json_error(header, event), text_error(header, line)
    assert message in from_json.message
    assert from_text.message == from_json.message
    assert str(from_json) == f"game.jsonl:3: {from_json.message}"


# Events that only JSON can get wrong (the line syntax cannot express them)
JSON_ONLY = [
    ("abbey", {"type": "has", "player": "bob"}, "a has event needs 'card'"),
    (
        "abbey",
        {"type": "has", "player": "bob", "card": "conrad", "cardd": "x"},
        "unknown key 'cardd' in a has event (keys: type, player, card, note)",
    ),
    (
        "abbey",
        {"type": "show", "player": "bob", "to": "cai"},
        "a show event needs exactly one of 'card' or 'traits' (got 0)",
    ),
    (
        "abbey",
        {"type": "show", "player": "bob", "to": "cai", "card": "conrad", "traits": ["fat"]},
        "a show event needs exactly one of 'card' or 'traits' (got 2)",
    ),
    (
        "abbey",
        {"type": "count", "player": "bob", "traits": [], "n": 1},
        "'traits' must be a non-empty list of traits",
    ),
    (
        "abbey",
        {"type": "count", "player": "bob", "traits": ["fat"], "n": True},
        "'n' must be an integer >= 0, got true",
    ),
    (
        "abbey",
        {"type": "count", "player": "bob", "traits": ["fat"], "n": 2.0},
        "'n' must be an integer >= 0, got 2.0",
    ),
    (
        "abbey",
        {"type": "hand", "player": "bob", "cards": "conrad"},
        "'cards' must be a list, got 'conrad'",
    ),
    (
        "abbey",
        {"type": "hand", "player": 3, "cards": []},
        "'player' must be a player id (a string), got 3",
    ),
    (
        "abbey",
        {"type": "accuse", "player": "bob", "card": "conrad", "correct": "no"},
        "'correct' must be true or false, got 'no'",
    ),
    (
        "abbey",
        {"type": "accuse", "player": "bob", "card": "conrad", "correct": 0},
        "'correct' must be true or false, got 0",
    ),
    ("abbey", {"player": "bob"}, "an event needs a 'type' key"),
    (
        "abbey",
        {"game": "abbey", "players": ["a"], "me": None},
        "an event needs a 'type' key (a log has one header",
    ),
    ("abbey", {"type": 5}, "'type' must be a string, got 5"),
    ("abbey", {"type": "draw", "player": "bob", "note": 5}, "'note' must be a string, got 5"),
    (
        "abbey",
        {"type": "draw", "player": "bob", "note": "\ud800"},
        "'note' contains a lone surrogate",
    ),
    (
        "blackrose",
        {"type": "accuse", "suspects": ["s1"], "correct": True},
        "'suspects' must list exactly 2 ids, got 1",
    ),
    (
        "blackrose",
        {"type": "goal", "card": "mac", "condition": 3},
        "'condition' must be an object with one key (conditions: innocent_dead_at_least), got 3",
    ),
    (
        "blackrose",
        {"type": "goal", "card": "mac", "condition": {"innocent_dead_at_least": 1, "x": 2}},
        "'condition' must be an object with one key",
    ),
]


@pytest.mark.parametrize(("header", "event", "message"), JSON_ONLY)
def test_json_event_errors(header: str, event: dict, message: str) -> None:
    assert message in json_error(header, event).message


# --------------------------------------------------------------------------
# Headers

HEADER_CASES = [
    (
        {"game": "chess", "players": ["a", "b"], "me": "a"},
        "game chess\nplayers a b\nme a\n",
        "unknown game 'chess' (games: abbey, rose, blackrose)",
    ),
    (
        {"game": "rose", "version": 2, "players": ["a", "b"], "me": "a"},
        "game rose\nversion 2\nplayers a b\nme a\n",
        "unsupported version 2 (this reader knows version 1)",
    ),
    (
        {"game": "rose", "players": ["a", "a"], "me": "a"},
        "game rose\nplayers a a\nme a\n",
        "'players' lists 'a' twice",
    ),
    (
        {"game": "rose", "players": ["Ana", "b"], "me": "b"},
        "game rose\nplayers Ana b\nme b\n",
        "'players': 'Ana' is not an id",
    ),
    (
        {"game": "rose", "players": [], "me": None},
        "game rose\nplayers\nspectator\n",
        "'players' must not be empty",
    ),
    (
        {"game": "rose", "players": ["a", "b", "c", "d", "e", "f"], "me": "a"},
        "game rose\nplayers a b c d e f\nme a\n",
        "a rose game needs 2 to 5 players, got 6",
    ),
    (
        {"game": "blackrose", "players": ["a", "b"], "me": "a", "rector": "b"},
        "game blackrose\nplayers a b\nme a\nrector b\n",
        "a blackrose game needs 3 to 5 players, got 2",
    ),
    (
        {"game": "blackrose", "players": ["a", "b", "c"], "me": "a"},
        "game blackrose\nplayers a b c\nme a\n",
        "the header needs 'rector'",
    ),
    (
        {"game": "blackrose", "players": ["a", "b", "c"], "me": "a", "rector": "d"},
        "game blackrose\nplayers a b c\nme a\nrector d\n",
        "unknown player 'd' in 'rector' (players: a, b, c)",
    ),
    (
        {
            "game": "blackrose",
            "players": ["a", "b", "c"],
            "me": "a",
            "rector": "c",
            "suspects": ["p", "q", "r", "s", "t", "u"],
        },
        "game blackrose\nplayers a b c\nme a\nrector c\nsuspects p q r s t u\n",
        "'suspects' must list exactly 7 ids, got 6",
    ),
    (
        {
            "game": "blackrose",
            "players": ["a", "b", "c"],
            "me": "a",
            "rector": "c",
            "suspects": ["p", "q", "r", "s", "t", "u", "p"],
        },
        "game blackrose\nplayers a b c\nme a\nrector c\nsuspects p q r s t u p\n",
        "'suspects' lists 'p' twice",
    ),
    (
        {"game": "rose", "players": ["a", "b"], "me": "c"},
        "game rose\nplayers a b\nme c\n",
        "unknown player 'c' in 'me' (players: a, b)",
    ),
    (
        {"game": "rose", "players": ["a", "b"]},
        "game rose\nplayers a b\n",
        "the header needs 'me' (the observer's player id, or null for a spectator)",
    ),
    (
        {"game": "abbey", "players": list("abcdefg"), "me": "a"},
        "game abbey\nplayers a b c d e f g\nme a\n",
        "pile and hand are required",
    ),
    (
        {"game": "abbey", "players": ["a", "b", "c"], "me": "a", "pile": 3, "hand": 6},
        "game abbey\nplayers a b c\nme a\npile 3\nhand 6\n",
        "the deck has 24 cards but 1 culprit + pile 3 + 3 players x hand 6 = 22",
    ),
    (
        {"game": "abbey", "players": ["a", "b", "c"], "me": "a", "pile": -1, "hand": 6},
        "game abbey\nplayers a b c\nme a\npile -1\nhand 6\n",
        "'pile' must be an integer >= 0",
    ),
    (
        {"game": "abbey", "players": ["a", "b", "c"], "me": "a", "deck": "mine"},
        "game abbey\nplayers a b c\nme a\ndeck mine\n",
        "'deck' must be \"default\" or a list of cards, got 'mine'",
    ),
    (
        {
            "game": "abbey",
            "players": ["a", "b"],
            "me": "a",
            "pile": 0,
            "hand": 1,
            "deck": [
                {"id": "x", "name": "X", "traits": ["templar", "father", "hooded", "fat", "thin"]},
                {
                    "id": "y",
                    "name": "Y",
                    "traits": ["templar", "father", "hooded", "fat", "shaven"],
                },
                {
                    "id": "z",
                    "name": "Z",
                    "traits": ["templar", "father", "hooded", "fat", "shaven"],
                },
            ],
        },
        "game abbey\nplayers a b\nme a\npile 0\nhand 1\n"
        "card x templar father hooded fat thin X\n"
        "card y templar father hooded fat shaven Y\ncard z templar father hooded fat shaven Z\n",
        "deck card 'x' traits name two traits of the girth group",
    ),
    (
        {"game": "rose", "players": ["a", "b"], "me": "a", "rector": "b"},
        "game rose\nplayers a b\nme a\nrector b\n",
        "unknown key 'rector' in the rose header (keys: game, version, players, me, note)",
    ),
    (
        {"game": "abbey", "players": ["a", "pile", "c"], "me": "a"},
        "game abbey\nplayers a pile c\nme a\n",
        "'pile' cannot be a player's name in abbey logs: the output uses it beside the players",
    ),
    (
        {"game": "blackrose", "players": ["a", "none", "c"], "me": "a", "rector": "c"},
        "game blackrose\nplayers a none c\nme a\nrector c\n",
        "'none' cannot be a player's name in blackrose logs: the output uses it beside the players",
    ),
]


@pytest.mark.parametrize(("raw", "text", "message"), HEADER_CASES)
def test_header_errors_in_both_syntaxes(raw: dict, text: str, message: str) -> None:
    with pytest.raises(LogError) as from_json:
        parse_jsonl(json.dumps(raw) + "\n", "h.jsonl")
    assert from_json.value.line == 1
    assert message in from_json.value.message
    with pytest.raises(LogError) as from_text:
        parse_text(text, "h.txt")
    assert from_text.value.message == from_json.value.message


def test_header_json_only_errors() -> None:
    cases = [
        (
            {"game": "abbey", "players": ["a", "b", "c"], "me": "a", "pille": 3},
            "unknown key 'pille' in the abbey header (keys: game, version, players, me, deck, "
            "pile, hand, note)",
        ),
        (
            {"game": "rose", "version": True, "players": ["a", "b"], "me": "a"},
            "unsupported version true",
        ),
        ({"players": ["a", "b"], "me": "a"}, "the header needs 'game'"),
        (
            {"type": "hand", "player": "a", "cards": []},
            "the log must start with its header, not a 'hand' event",
        ),
        ({"game": "rose", "players": "a b", "me": "a"}, "'players' must be a list, got 'a b'"),
        (
            {"game": "rose", "players": ["a", "b"], "me": "a", "note": ["x"]},
            "'note' must be a string",
        ),
    ]
    for raw, message in cases:
        with pytest.raises(LogError) as info:
            parse_jsonl(json.dumps(raw) + "\n", "h.jsonl")
        assert message in info.value.message, raw


def test_inline_deck_differing_from_override() -> None:
    from dataclasses import replace

    from deduce.logs.formats.abbey import Deck, default_deck

    cards = [c.to_json() for c in default_deck().cards]
    raw = {"game": "abbey", "players": ["a", "b", "c"], "me": "a", "deck": cards}
    other = Deck(tuple(replace(c, id=f"x{c.id}") for c in default_deck().cards))
    with pytest.raises(LogError, match="the log carries its own deck"):
        parse_jsonl(json.dumps(raw) + "\n", "h.jsonl", supplied=other)


# --------------------------------------------------------------------------
# Malformed JSON Lines


ROSE = '{"game": "rose", "players": ["a", "b"], "me": "a"}\n'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"type": "reveal", "player": "a"', "malformed JSON: Expecting ',' delimiter (column 33)"),
        ("reveal a red", "malformed JSON: Expecting value (column 1)"),
        (
            '{"type": "reveal", "player": "b", "colour": "red", "colour": "blue"}',
            "malformed JSON: duplicate key 'colour'",
        ),
        ('{"type": "reveal", "player": "b", "colour": NaN}', "malformed JSON: NaN is not allowed"),
        (
            '{"type": "reveal", "player": "b", "colour": -Infinity}',
            "malformed JSON: -Infinity is not allowed",
        ),
        ("[1, 2]", "expected a JSON object, got a list"),
        ('"reveal"', "expected a JSON object, got a string"),
        ("3", "expected a JSON object, got a number"),
        ("null", "expected a JSON object, got null"),
        ('{"type": "reveal"} {"x": 1}', "malformed JSON: Extra data"),
        ("[" * 200_000, "malformed JSON: nested too deeply"),
        ('{"type": "reveal", "n": ' + "9" * 5000 + "}", "malformed JSON: a number has too many"),
        (
            '{"type": "reveal", "player": "b", "colour": "red", "note": "a\tb"}',
            "malformed JSON: Invalid control character",
        ),
    ],
)
def test_malformed_json_lines(line: str, message: str) -> None:
    with pytest.raises(LogError) as info:
        parse_jsonl(ROSE + "\n" + line + "\n", "m.jsonl")
    assert info.value.line == 3
    assert message in info.value.message


def test_comment_lines_are_not_json_lines() -> None:
    with pytest.raises(LogError, match=r"m\.jsonl:2: malformed JSON"):
        parse_jsonl(ROSE + "# a comment\n", "m.jsonl")


# --------------------------------------------------------------------------
# Files that are not logs


def write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_bytes(data)
    return path


def read_error(path: Path) -> LogError:
    with pytest.raises(LogError) as info:
        read_log(path)
    return info.value


def test_missing_file(tmp_path: Path) -> None:
    error = read_error(tmp_path / "nope.jsonl")
    assert str(error) == f"{tmp_path / 'nope.jsonl'}: cannot read log: No such file or directory"


def test_directory(tmp_path: Path) -> None:
    assert "cannot read log" in read_error(tmp_path).message


@pytest.mark.parametrize("data", [b"", b"\n\n  \n", b"\r\n\t\n", b"# only\n# comments\n"])
def test_empty_logs(tmp_path: Path, data: bytes) -> None:
    path = write(tmp_path, data)
    assert str(read_error(path)) == f"{path}:1: empty log: no header"


def test_empty_text_is_empty_in_both_parsers() -> None:
    for parse in (parse_jsonl, parse_text):
        with pytest.raises(LogError, match=r"^x:1: empty log: no header$"):
            parse("\n \n", "x")


def test_nul_bytes(tmp_path: Path) -> None:
    error = read_error(write(tmp_path, ROSE.encode() + b'\n{"type\x00": 1}\n'))
    assert (error.line, error.message) == (3, "binary data (a NUL byte): this is not a text log")


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    error = read_error(write(tmp_path, ROSE.encode() + b'\n\n{"note": "caf\xe9"}\n'))
    assert (error.line, error.message) == (4, "not UTF-8 text (byte 0xe9)")


def test_binary_junk(tmp_path: Path) -> None:
    junk = bytes(range(256)) * 4
    assert read_error(write(tmp_path, junk)).line == 1


@pytest.mark.parametrize("head", [ROSE, "game rose\nplayers a b\nme a\n"])
def test_five_megabyte_line_fails_fast(tmp_path: Path, head: str) -> None:
    path = write(tmp_path, head.encode() + b'{"note": "' + b"x" * 5_000_000 + b'"}\n')
    error = read_error(path)
    assert error.line == head.count("\n") + 1
    assert error.message == "line is longer than 1 MiB: not a log line"


def test_five_megabyte_first_line_fails_fast(tmp_path: Path) -> None:
    assert read_error(write(tmp_path, b"[" * 5_000_000)).line == 1
    assert read_error(write(tmp_path, "é".encode() * 600_000)).line == 1


def test_a_line_just_under_the_limit_is_read(tmp_path: Path) -> None:
    note = "x" * (1024 * 1024 - 100)
    line = json.dumps({"type": "reveal", "player": "b", "colour": "red", "note": note})
    log = read_log(write(tmp_path, (ROSE + line + "\n").encode()))
    assert log.events[0].note == note


def test_header_that_is_not_a_header(tmp_path: Path) -> None:
    error = read_error(write(tmp_path, b'\n{"type": "reveal", "player": "a", "colour": "red"}\n'))
    assert error.line == 2
    assert error.message.startswith("the log must start with its header")


def test_log_error_string_format(tmp_path: Path) -> None:
    path = write(
        tmp_path, (ROSE + '{"type": "reveal", "player": "bobb", "colour": "red"}\n').encode()
    )
    assert str(read_error(path)) == f"{path}:2: unknown player 'bobb' (players: a, b)"


# --------------------------------------------------------------------------
# Nothing but LogError, whatever the input


VALID_TEXT = (
    "game abbey # night\nplayers ana bob cai\nme ana\n"
    "hand ana aymeric baldwin conrad dagobert eustache foulques\n"
    "show bob to ana hooded+fat # hm\nmass 2 gave aymeric got hugues\n"
    "accuse cai konrad wrong by bob\n"
)
VALID_JSONL = ROSE + '{"type": "guess", "player": "a", "of": "b", "colour": "red"}\n'


@settings(max_examples=300, deadline=None)
@given(base=st.sampled_from([VALID_TEXT, VALID_JSONL]), data=st.data())
def test_mutated_logs_only_ever_raise_log_errors(base: str, data: st.DataObject) -> None:
    text = base
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        insert = data.draw(
            st.text(
                alphabet=st.sampled_from(
                    [*' \n#"{}[],:+0123456789abcdefghijklmnopqrstuvwxyz\\', "\u00e9", "\x00"]
                ),
                max_size=4,
            )
        )
        text = text[:at] + insert + text[at + cut :]
    try:
        parse_log(text, "fuzz")
    except LogError as exc:
        assert "\n" not in str(exc)
        assert str(exc).startswith("fuzz")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_random_text_only_ever_raises_log_errors(text: str) -> None:
    for parse in (parse_jsonl, parse_text):
        try:
            parse(text, "fuzz")
        except LogError:
            pass


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "has bobb aymeric",
            "unknown player 'bobb' (did you mean 'bob'? players: ana, bob, cai, dee)",
        ),
        ("has eve aymeric", "unknown player 'eve' (players: ana, bob, cai, dee)"),  # nothing near
        ("has bob aymerix", "unknown card 'aymerix' (did you mean 'aymeric'?)"),
        ("count bob fatt 1", "unknown trait 'fatt' (did you mean 'fat'? traits: "),
    ],
)
def test_typos_get_a_did_you_mean(line, message):
    with pytest.raises(LogError) as info:
        parse_log(f"game abbey\nplayers ana bob cai dee\nme ana\n{line}\n", "g.log")
    assert message in info.value.message
