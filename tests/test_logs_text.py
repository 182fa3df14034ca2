"""The typed line syntax: every event type, the header, notes, comments and line numbers."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from deduce.errors import LogError
from deduce.logs.formats import FORMATS
from deduce.logs.jsonl import format_jsonl, parse_jsonl
from deduce.logs.model import Event, GameLog
from deduce.logs.text import format_text, parse_text, show_event, usage

HEADERS = {
    "abbey": (
        '{"game": "abbey", "players": ["ana", "bob", "cai", "dee"], "me": "ana"}',
        "game abbey\nplayers ana bob cai dee\nme ana\n",
    ),
    "rose": (
        '{"game": "rose", "players": ["ana", "bob", "cai"], "me": "ana"}',
        "game rose\nplayers ana bob cai\nme ana\n",
    ),
    "blackrose": (
        '{"game": "blackrose", "players": ["ana", "bob", "cai", "dee"], '
        '"rector": "dee", "me": "ana"}',
        "game blackrose\nplayers ana bob cai dee\nrector dee\nme ana\n",
    ),
}


def from_json(game: str, *events: dict) -> GameLog:
    lines = [HEADERS[game][0], *(json.dumps(e) for e in events)]
    return parse_jsonl("\n".join(lines) + "\n", "log.jsonl")


def from_text(game: str, *lines: str) -> GameLog:
    return parse_text(HEADERS[game][1] + "".join(f"{line}\n" for line in lines), "log.txt")


def same(a: GameLog, b: GameLog) -> bool:
    """Compare two logs ignoring line numbers and paths."""

    def strip(log: GameLog) -> GameLog:
        return GameLog(
            replace(log.header, line=0), tuple(replace(e, line=0) for e in log.events), ""
        )

    return strip(a) == strip(b)


VALID = [
    (
        "abbey",
        {"type": "hand", "player": "ana", "cards": ["aymeric", "baldwin"]},
        "hand ana aymeric baldwin",
    ),
    ("abbey", {"type": "hand", "player": "bob", "cards": []}, "hand bob"),
    ("abbey", {"type": "has", "player": "bob", "card": "conrad"}, "has bob conrad"),
    ("abbey", {"type": "lacks", "player": "cai", "card": "conrad"}, "lacks cai conrad"),
    (
        "abbey",
        {"type": "count", "player": "bob", "traits": ["hooded", "fat"], "n": 2},
        "count bob hooded+fat 2",
    ),
    (
        "abbey",
        {"type": "count", "player": "bob", "traits": ["templar"], "n": 0},
        "count bob templar 0",
    ),
    (
        "abbey",
        {"type": "show", "player": "bob", "to": "ana", "card": "aymeric"},
        "show bob to ana aymeric",
    ),
    (
        "abbey",
        {"type": "show", "player": "bob", "to": "ana", "traits": ["hooded"]},
        "show bob to ana hooded",
    ),
    (
        "abbey",
        {"type": "show", "player": "bob", "to": "cai", "traits": ["novice", "franciscan"]},
        "show bob to cai novice+franciscan",
    ),
    ("abbey", {"type": "draw", "player": "bob"}, "draw bob"),
    ("abbey", {"type": "draw", "player": "ana", "card": "dagobert"}, "draw ana dagobert"),
    ("abbey", {"type": "take", "player": "bob", "from": "cai"}, "take bob from cai"),
    (
        "abbey",
        {"type": "take", "player": "ana", "from": "cai", "card": "hugues"},
        "take ana from cai hugues",
    ),
    ("abbey", {"type": "mass", "n": 1}, "mass 1"),
    (
        "abbey",
        {"type": "mass", "n": 2, "gave": ["aymeric", "baldwin"], "got": ["conrad"]},
        "mass 2 gave aymeric baldwin got conrad",
    ),
    ("abbey", {"type": "mass", "n": 2, "gave": []}, "mass 2 gave"),
    ("abbey", {"type": "mass", "n": 3, "got": []}, "mass 3 got"),
    (
        "abbey",
        {"type": "accuse", "player": "bob", "card": "eustache", "correct": True},
        "accuse bob eustache right",
    ),
    (
        "abbey",
        {"type": "accuse", "player": "bob", "card": "eustache", "correct": False},
        "accuse bob eustache wrong",
    ),
    (
        "abbey",
        {
            "type": "accuse",
            "player": "bob",
            "card": "eustache",
            "correct": False,
            "shown_by": "cai",
        },
        "accuse bob eustache wrong by cai",
    ),
    ("abbey", {"type": "culprit", "card": "konrad"}, "culprit konrad"),
    ("rose", {"type": "identity", "player": "ana", "colour": "red"}, "identity ana red"),
    ("rose", {"type": "reveal", "player": "bob", "colour": "orange"}, "reveal bob orange"),
    (
        "rose",
        {"type": "guess", "player": "bob", "of": "cai", "colour": "grey"},
        "guess bob of cai grey",
    ),
    (
        "rose",
        {
            "type": "points",
            "player": "bob",
            "monk": "grey",
            "track": "clue",
            "n": -3,
            "cause": "william",
        },
        "points bob grey clue -3 william",
    ),
    (
        "rose",
        {
            "type": "points",
            "player": "cai",
            "monk": "red",
            "track": "suspicion",
            "n": 7,
            "cause": "move",
        },
        "points cai red suspicion 7 move",
    ),
    (
        "blackrose",
        {"type": "role", "player": "ana", "role": "investigator"},
        "role ana investigator",
    ),
    ("blackrose", {"type": "role", "player": "bob", "role": "possessed"}, "role bob possessed"),
    ("blackrose", {"type": "role", "player": "dee", "role": "rector"}, "role dee rector"),
    ("blackrose", {"type": "proof", "suspect": "s3"}, "proof s3"),
    ("blackrose", {"type": "proof", "suspect": "s3", "player": "bob"}, "proof s3 by bob"),
    (
        "blackrose",
        {"type": "accuse", "suspects": ["s1", "s2"], "correct": False},
        "accuse s1 s2 wrong",
    ),
    (
        "blackrose",
        {"type": "accuse", "suspects": ["s7", "s2"], "correct": True},
        "accuse s7 s2 right",
    ),
    ("blackrose", {"type": "kill", "suspect": "s5"}, "kill s5"),
    (
        "blackrose",
        {"type": "goal", "card": "mac-snor", "condition": {"innocent_dead_at_least": 3}},
        "goal mac-snor innocent_dead_at_least 3",
    ),
    (
        "blackrose",
        {"type": "claim", "player": "cai", "suspect": "s4", "innocent": True},
        "claim cai s4 innocent",
    ),
    (
        "blackrose",
        {"type": "claim", "player": "cai", "suspect": "s4", "innocent": False},
        "claim cai s4 guilty",
    ),
]


@pytest.mark.parametrize(
    ("game", "event", "line"),
    VALID,
    ids=[f"{g}-{e['type']}-{i}" for i, (g, e, _) in enumerate(VALID)],
)
def test_event_reads_the_same_in_both_syntaxes(game: str, event: dict, line: str) -> None:
    from_j, from_t = from_json(game, event), from_text(game, line)
    assert same(from_j, from_t)
    (parsed,) = from_t.events
    assert parsed.type == event["type"]
    assert set(parsed.fields) == set(event) - {"type"}
    assert format_text(from_j).splitlines()[-1] == line
    assert format_jsonl(from_t).splitlines()[-1] == json.dumps(event, ensure_ascii=False)


def test_every_event_type_has_a_line_syntax() -> None:
    for game, form in FORMATS.items():
        assert set(form.grammar) == set(form.events)
        for type_, schema in form.events.items():
            keys = {k for e in form.grammar[type_] for k in e.keys}
            assert keys == {f.name for f in schema.fields}, (game, type_)


def test_lists_become_tuples() -> None:
    log = from_text("abbey", "hand ana aymeric baldwin", "count bob hooded+fat 2")
    assert log.events[0].fields["cards"] == ("aymeric", "baldwin")
    assert log.events[1].fields["traits"] == ("hooded", "fat")


def test_absent_optional_keys_stay_absent() -> None:
    log = from_text("abbey", "draw bob", "take bob from cai", "mass 2")
    assert [dict(e.fields) for e in log.events] == [
        {"player": "bob"},
        {"player": "bob", "from": "cai"},
        {"n": 2},
    ]


def test_show_token_is_card_or_traits() -> None:
    log = from_text("abbey", "show bob to ana aymeric", "show bob to ana fat")
    assert log.events[0].get("card") == "aymeric" and "traits" not in log.events[0].fields
    assert log.events[1].get("traits") == ("fat",) and "card" not in log.events[1].fields


def test_keywords_can_be_player_ids_in_fixed_positions() -> None:
    text = "game abbey\nplayers to from by of\nme to\ntake to from from\nshow by to to fat\n"
    log = parse_text(text, "k.txt")
    assert dict(log.events[0].fields) == {"player": "to", "from": "from"}
    assert dict(log.events[1].fields) == {"player": "by", "to": "to", "traits": ("fat",)}


# --------------------------------------------------------------------------
# Header


def test_header_lines_in_any_order_with_comments() -> None:
    text = (
        "# a game at the club\n"
        "me bob   # that's me\n"
        "players ana bob cai\n"
        "\n"
        "game abbey # Friday night\n"
        "version 1\n"
        "deck default\n"
        "pile 5\n"
        "hand 6\n"
        "has ana aymeric\n"
    )
    log = parse_text(text, "h.txt")
    header = log.header
    assert (header.game, header.players, header.me, header.version) == (
        "abbey",
        ("ana", "bob", "cai"),
        "bob",
        1,
    )
    assert dict(header.extra) == {"deck": "default", "pile": 5, "hand": 6}
    assert header.note == "Friday night"
    assert header.line == 5
    assert log.events[0].line == 10


def test_spectator_means_me_is_null() -> None:
    log = parse_text("game rose\nplayers ana bob\nspectator\nreveal ana red\n", "s.txt")
    assert log.header.me is None
    assert format_text(log).splitlines()[3] == "spectator"


def test_inline_deck_cards() -> None:
    from deduce.logs.formats.abbey import default_deck

    cards = default_deck().cards[:9]
    lines = [f"card {c.id} {' '.join(sorted(c.traits))} {c.name}" for c in cards]
    text = (
        "\n".join(
            [
                "game abbey",
                "players ana bob",
                "me ana",
                *lines,
                "pile 2",
                "hand 3",
                "has bob baldwin",
            ]
        )
        + "\n"
    )
    log = parse_text(text, "d.txt")
    deck = log.header.extra["deck"]
    assert [c["id"] for c in deck] == [c.id for c in cards]
    assert deck[0] == {
        "id": "aymeric",
        "name": "Father Aymeric",
        "traits": ("templar", "father", "hooded", "bearded", "fat"),
    }
    assert same(parse_jsonl(format_jsonl(log), "d.jsonl"), log)


def test_card_name_defaults_to_id_and_odd_names_round_trip() -> None:
    text = (
        "game abbey\nplayers ana bob\nme ana\npile 0\nhand 1\n"
        "card xa templar father hooded bearded fat\n"
        'card xb franciscan brother bareheaded shaven thin "  Brother # Two\\n"\n'
        "card xc benedictine novice hooded shaven fat Novice  Three # comment\n"
    )
    log = parse_text(text, "n.txt")
    names = [c["name"] for c in log.header.extra["deck"]]
    assert names == ["xa", "  Brother # Two\n", "Novice  Three"]
    again = parse_text(format_text(log), "n.txt")
    assert same(again, log)


def test_hand_in_header_part_is_the_hand_size_unless_it_names_a_player() -> None:
    base = "game abbey\nplayers ana bob 5\nme ana\n"
    log = parse_text(base + "hand 5\n", "x.txt")
    assert "hand" not in log.header.extra
    assert dict(log.events[0].fields) == {"player": "5", "cards": ()}
    log = parse_text("game abbey\nhand 5\nplayers ana bob 5 7\nme ana\npile 3\nhand 5\n", "y.txt")
    assert log.header.extra["hand"] == 5
    assert log.events[0].fields["player"] == "5"


def test_hand_size_equal_to_a_player_id_round_trips() -> None:
    log = parse_text("game abbey\nhand 5\nplayers ana bob 5 7\nme ana\npile 3\nhand 7\n", "y.txt")
    text = format_text(log)
    assert text.index("hand 5") < text.index("players")
    assert same(parse_text(text, "y.txt"), log)


# --------------------------------------------------------------------------
# Notes, comments and line numbers


@pytest.mark.parametrize(
    ("suffix", "note"),
    [
        (" # saw it myself", "saw it myself"),
        (" #saw it", "saw it"),
        (" #  two spaces", " two spaces"),
        (" #", ""),
        (' #"  padded\\n"', "  padded\n"),
        (' # "quoted \\u00e9"', "quoted é"),
        (" # a # b", "a # b"),
    ],
)
def test_event_notes(suffix: str, note: str) -> None:
    log = from_text("abbey", "has bob conrad" + suffix)
    assert log.events[0].note == note
    assert same(parse_text(format_text(log), "x.txt"), log)


@pytest.mark.parametrize(
    "note", ["", " x", "x ", "a\nb", '"q"', "tab\there", "é ü 漢字", "# hash", "\u2028", "\x00"]
)
def test_awkward_notes_are_written_as_json_strings(note: str) -> None:
    log = from_json("rose", {"type": "reveal", "player": "bob", "colour": "red", "note": note})
    text = format_text(log)
    assert len(text.splitlines()) == 6
    assert parse_text(text, "n.txt").events[0].note == note


def test_plain_notes_are_written_plainly() -> None:
    log = from_json(
        "rose", {"type": "reveal", "player": "bob", "colour": "red", "note": "he hesitated # a lot"}
    )
    assert format_text(log).splitlines()[-1] == "reveal bob red # he hesitated # a lot"


def test_comments_on_header_lines_other_than_game_are_dropped() -> None:
    log = parse_text("game rose\nplayers ana bob # seats\nme ana # me\n", "c.txt")
    assert log.header.note is None


def test_line_numbers_count_blank_and_comment_lines() -> None:
    text = (
        "# header\n\ngame rose\nplayers ana bob cai\n\nme ana\n"
        "# day one\nreveal bob red\n\n   # indented comment\nreveal cai blue\r\n"
    )
    log = parse_text(text, "l.txt")
    assert log.header.line == 3
    assert [e.line for e in log.events] == [8, 11]


def test_error_line_numbers_count_blank_and_comment_lines() -> None:
    text = "game rose\n\n# c\nplayers ana bob\nme ana\n\n#\nreveal bob red\nreveal bobb red\n"
    with pytest.raises(LogError) as info:
        parse_text(text, "l.txt")
    assert str(info.value) == (
        "l.txt:9: unknown player 'bobb' (did you mean 'bob'? players: ana, bob)"
    )


def test_header_errors_point_at_the_header_line_of_the_key() -> None:
    text = "game rose\n# seats\nplayers ana ana\nme ana\n"
    with pytest.raises(LogError) as info:
        parse_text(text, "h.txt")
    assert info.value.line == 3


# --------------------------------------------------------------------------
# Errors of the line syntax itself


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("has bob", "too few words (usage: has PLAYER CARD)"),
        ("has bob conrad extra", "unexpected 'extra' (usage: has PLAYER CARD)"),
        ("show bob ana conrad", "expected 'to', got 'ana'"),
        ("take bob cai", "expected 'from', got 'cai'"),
        ("accuse bob conrad maybe", "'correct' must be right or wrong, got 'maybe'"),
        ("mass 2 got aymeric gave baldwin", "unexpected 'gave'"),
        ("count bob hooded+fat", "too few words"),
        ("players ana bob", "header line 'players' after the first event"),
        (
            "card zz templar father hooded bearded fat Zed",
            "header line 'card' after the first event",
        ),
        ('has bob conrad #"unclosed', "a note that starts with '\"' must be one JSON string"),
        ('has bob conrad #"a" b', "a note that starts with '\"' must be one JSON string"),
    ],
)
def test_line_syntax_errors(line: str, message: str) -> None:
    with pytest.raises(LogError) as info:
        from_text("abbey", "has ana aymeric", line)
    assert info.value.line == 5
    assert message in info.value.message


def test_flag_words_for_claim() -> None:
    with pytest.raises(LogError, match="'innocent' must be innocent or guilty, got 'right'"):
        from_text("blackrose", "claim cai s4 right")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            "game rose\ngame rose\n",
            2,
            "'game' repeats the header key 'game' (first given on line 1)",
        ),
        ("game rose\nplayers a b\nme a\nspectator\n", 4, "repeats the header key 'me'"),
        ("game rose\nme a b\n", 2, "'me' takes exactly one value, got 2"),
        ("game rose\nspectator a\n", 2, "'spectator' takes no value"),
        (
            "game abbey\ndeck default\ncard aa templar father hooded bearded fat\n",
            3,
            "card lines cannot follow 'deck default'",
        ),
        ("game abbey\ncard aa templar father hooded\n", 2, "a card line is: card ID TRAIT"),
        (
            'game abbey\ncard aa templar father hooded bearded fat "x" y\n',
            2,
            "a card name that starts with '\"' must be one JSON string",
        ),
        ("game rose\nplyers ana bob\n", 2, "unknown line 'plyers' (header lines: game, version"),
        ("players ana bob\nme ana\n", 1, "the header needs 'game'"),
        ("has ana aymeric\n", 1, "the header needs 'game'"),
    ],
)
def test_header_syntax_errors(text: str, line: int, message: str) -> None:
    with pytest.raises(LogError) as info:
        parse_text(text, "h.txt")
    assert info.value.line == line
    assert message in info.value.message


def test_usage_lines() -> None:
    assert usage("abbey", "mass") == "mass N [gave CARD...] [got CARD...]"
    assert usage("abbey", "accuse") == "accuse PLAYER CARD right|wrong [by PLAYER]"
    assert usage("blackrose", "proof") == "proof SUSPECT [by PLAYER]"


def test_mass_with_a_card_named_like_a_keyword_cannot_be_written() -> None:
    from deduce.logs.formats.abbey import default_deck

    cards = [c.to_json() for c in default_deck().cards]
    cards[0]["id"] = "got"
    header = {"game": "abbey", "players": ["ana", "bob", "cai"], "me": "ana", "deck": cards}
    event = {"type": "mass", "n": 1, "gave": ["got"]}
    log = parse_jsonl(json.dumps(header) + "\n" + json.dumps(event) + "\n", "m.jsonl")
    with pytest.raises(LogError, match=r"m\.jsonl:2: cannot write this mass event"):
        format_text(log)


def test_show_event_falls_back_to_json_when_the_line_syntax_cannot_say_it():
    plain = Event("count", {"player": "bob", "traits": ("fat",), "n": 1}, 5)
    assert show_event(plain, "abbey") == "count bob fat 1"
    clash = Event("mass", {"n": 1, "gave": ("got",), "got": ("aymeric",)}, 6)
    assert json.loads(show_event(clash, "abbey")) == {
        "type": "mass",
        "n": 1,
        "gave": ["got"],
        "got": ["aymeric"],
    }
