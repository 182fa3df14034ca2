"""Canonical JSON Lines: reading, canonical writing, round trips and file input/output."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.logs.formats.abbey import RULEBOOK_SIZES, TRAIT_GROUPS, default_deck
from deduce.logs.formats.blackrose import default_suspect_ids, default_suspects
from deduce.logs.io import detect_syntax, format_log, read_log, write_log
from deduce.logs.jsonl import format_jsonl, parse_jsonl
from deduce.logs.model import Event, GameLog, Header
from deduce.logs.text import format_text, parse_text

ABBEY = """\
{"game": "abbey", "version": 1, "players": ["ana", "bob", "cai", "dee"], "me": "ana", \
"deck": "default", "pile": 3, "hand": 5, "note": "club night"}
{"type": "hand", "player": "ana", "cards": ["aymeric", "baldwin", "conrad", "dagobert", "eustache"]}

{"type": "show", "player": "bob", "to": "ana", "card": "foulques"}
{"type": "show", "player": "cai", "to": "bob", "traits": ["hooded", "fat"]}
{"type": "count", "player": "dee", "traits": ["templar"], "n": 1, "note": "asked by ana"}
{"type": "has", "player": "dee", "card": "geoffroi"}
{"type": "lacks", "player": "cai", "card": "hugues"}
{"type": "draw", "player": "ana", "card": "ignatius"}
{"type": "draw", "player": "bob"}
{"type": "take", "player": "cai", "from": "ana", "card": "aymeric"}
{"type": "take", "player": "dee", "from": "bob"}
{"type": "mass", "n": 2, "gave": ["baldwin", "conrad"], "got": ["jacopo", "leonardo"]}
{"type": "mass", "n": 1}
{"type": "accuse", "player": "bob", "card": "matteo", "correct": false, "shown_by": "cai"}
{"type": "accuse", "player": "cai", "card": "nicola", "correct": true}
{"type": "culprit", "card": "nicola", "note": "revealed after the game"}
"""

ROSE = """\
{"game": "rose", "version": 1, "players": ["ana", "bob", "cai", "dee", "eve"], "me": null}
{"type": "reveal", "player": "bob", "colour": "red"}
{"type": "reveal", "player": "bob", "colour": "white", "note": "second marker"}
{"type": "guess", "player": "ana", "of": "cai", "colour": "grey"}
{"type": "identity", "player": "dee", "colour": "orange"}
"""

BLACKROSE = """\
{"game": "blackrose", "version": 1, "players": ["ana", "bob", "cai"], "me": "bob", \
"rector": "cai", "suspects": ["abel", "bruno", "clara", "dario", "elia", "fabio", "gino"]}
{"type": "role", "player": "bob", "role": "investigator"}
{"type": "proof", "suspect": "abel", "player": "bob"}
{"type": "proof", "suspect": "clara"}
{"type": "kill", "suspect": "dario"}
{"type": "goal", "card": "mac-snor", "condition": {"innocent_dead_at_least": 3}}
{"type": "claim", "player": "ana", "suspect": "elia", "innocent": true}
{"type": "accuse", "suspects": ["fabio", "gino"], "correct": false}
"""

LOGS = {"abbey": ABBEY, "rose": ROSE, "blackrose": BLACKROSE}


def strip_lines(log: GameLog) -> GameLog:
    """Return the log with line numbers and path cleared, for comparisons."""
    return GameLog(replace(log.header, line=0), tuple(replace(e, line=0) for e in log.events), "")


def assert_round_trips(log: GameLog) -> None:
    """Check both conversions are lossless and both writers are stable."""
    canonical = format_jsonl(log)
    again = parse_jsonl(canonical, "x.jsonl")
    assert strip_lines(again) == strip_lines(log)
    assert format_jsonl(again) == canonical
    typed = format_text(log)
    from_text = parse_text(typed, "x.txt")
    assert strip_lines(from_text) == strip_lines(log)
    assert format_text(from_text) == typed
    assert format_jsonl(from_text) == canonical


@pytest.mark.parametrize("game", LOGS)
def test_hand_written_logs_round_trip(game: str) -> None:
    log = parse_jsonl(LOGS[game], f"{game}.jsonl")
    assert log.header.game == game
    assert_round_trips(log)


@pytest.mark.parametrize("game", LOGS)
def test_canonical_logs_are_written_back_byte_identical(game: str) -> None:
    text = LOGS[game].replace("\n\n", "\n")
    assert format_jsonl(parse_jsonl(text, "x.jsonl")) == text


def test_values_and_line_numbers() -> None:
    log = parse_jsonl(ABBEY, "a.jsonl")
    header = log.header
    assert header == Header(
        "abbey",
        ("ana", "bob", "cai", "dee"),
        "ana",
        1,
        {"deck": "default", "pile": 3, "hand": 5},
        "club night",
        1,
    )
    assert log.events[0] == Event(
        "hand",
        {"player": "ana", "cards": ("aymeric", "baldwin", "conrad", "dagobert", "eustache")},
        2,
    )
    assert log.events[1].line == 4  # the blank line counts
    assert log.events[3].note == "asked by ana"
    assert log.events[-1].line == 17
    assert log.path == "a.jsonl"


def test_absent_keys_are_absent() -> None:
    log = parse_jsonl(ABBEY, "a.jsonl")
    assert dict(log.events[7].fields) == {"player": "bob"}
    assert "card" not in log.events[9].fields
    assert log.events[9].get("card") is None


def test_header_extra_holds_only_keys_present() -> None:
    log = parse_jsonl('{"game": "abbey", "players": ["a", "b", "c"], "me": "a"}\n', "x.jsonl")
    assert log.header.extra == {}
    assert log.header.version == 1
    assert format_jsonl(log) == (
        '{"game": "abbey", "version": 1, "players": ["a", "b", "c"], "me": "a"}\n'
    )


def test_blackrose_default_suspects() -> None:
    assert default_suspect_ids() == ("s1", "s2", "s3", "s4", "s5", "s6", "s7")
    assert len({s.name for s in default_suspects()}) == 7
    header = '{"game": "blackrose", "players": ["a", "b", "c"], "me": "a", "rector": "c"}'
    log = parse_jsonl(header + '\n{"type": "kill", "suspect": "s7"}\n', "b.jsonl")
    assert "suspects" not in log.header.extra


def test_keys_are_written_in_schema_order() -> None:
    text = (
        '{"me": "ana", "players": ["ana", "bob", "cai"], "note": "n", "game": "rose"}\n'
        '{"note": "x", "colour": "red", "of": "bob", "player": "ana", "type": "guess"}\n'
    )
    assert format_jsonl(parse_jsonl(text, "r.jsonl")) == (
        '{"game": "rose", "version": 1, "players": ["ana", "bob", "cai"], "me": "ana", '
        '"note": "n"}\n'
        '{"type": "guess", "player": "ana", "of": "bob", "colour": "red", "note": "x"}\n'
    )


def test_non_ascii_kept_and_line_breaks_escaped() -> None:
    text = (
        '{"game": "rose", "players": ["a", "b"], "me": "a"}\n'
        '{"type": "reveal", "player": "b", "colour": "red", "note": "café\\u2028x"}\n'
    )
    out = format_jsonl(parse_jsonl(text, "r.jsonl"))
    assert "café\\u2028x" in out
    assert len(out.splitlines()) == 2


def test_crlf_and_bom_are_accepted() -> None:
    text = "\ufeff" + ROSE.replace("\n", "\r\n")
    assert strip_lines(parse_jsonl(text, "r.jsonl")) == strip_lines(parse_jsonl(ROSE, "r.jsonl"))


def test_inline_deck_is_normalised() -> None:
    cards = [c.to_json() for c in default_deck().cards[:9]]
    cards[0]["traits"] = list(reversed(cards[0]["traits"]))
    del cards[1]["name"]
    header = {
        "game": "abbey",
        "players": ["ana", "bob"],
        "me": "ana",
        "deck": cards,
        "pile": 2,
        "hand": 3,
    }
    log = parse_jsonl(json.dumps(header) + "\n", "d.jsonl")
    deck = log.header.extra["deck"]
    assert deck[0]["traits"] == ("templar", "father", "hooded", "bearded", "fat")
    assert deck[1]["name"] == "baldwin"
    assert_round_trips(log)


def test_deck_override_replaces_the_default_deck() -> None:
    from deduce.logs.formats.abbey import Deck

    cards = default_deck().cards
    renamed = Deck(tuple(replace(c, id=f"x{c.id}") for c in cards))
    text = (
        '{"game": "abbey", "players": ["a", "b", "c"], "me": "a"}\n'
        '{"type": "has", "player": "b", "card": "xaymeric"}\n'
    )
    log = parse_jsonl(text, "o.jsonl", supplied=renamed)
    assert log.events[0].get("card") == "xaymeric"
    assert (
        parse_text(format_text(log), "o.txt", supplied=renamed).events[0].get("card") == "xaymeric"
    )


# --------------------------------------------------------------------------
# Random abbey logs

IDS = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,5}", fullmatch=True)
CARDS = default_deck().ids
NOTES = st.none() | st.text(max_size=12)


@st.composite
def traits(draw: st.DrawFn) -> list[str]:
    groups = draw(st.lists(st.sampled_from(list(TRAIT_GROUPS)), min_size=1, unique=True))
    return [draw(st.sampled_from(TRAIT_GROUPS[g])) for g in groups]


@st.composite
def abbey_event(draw: st.DrawFn, players: list[str], me: str | None) -> dict:
    kind = draw(
        st.sampled_from(
            ["hand", "has", "lacks", "count", "show", "draw", "take", "mass", "accuse", "culprit"]
        )
    )
    player = draw(st.sampled_from(players))
    other = draw(st.sampled_from([p for p in players if p != player]))
    card = draw(st.sampled_from(CARDS))
    cards = st.lists(st.sampled_from(CARDS), unique=True, max_size=5)
    event: dict = {"type": kind}
    if kind not in ("mass", "culprit"):
        event["player"] = player
    if kind == "hand":
        event["cards"] = draw(cards)
    elif kind in ("has", "lacks", "culprit"):
        event["card"] = card
    elif kind == "count":
        event.update(traits=draw(traits()), n=draw(st.integers(0, 6)))
    elif kind == "show":
        event["to"] = other
        event.update({"card": card} if draw(st.booleans()) else {"traits": draw(traits())})
    elif kind in ("draw", "take"):
        if kind == "take":
            event["from"] = other
        if draw(st.booleans()):
            event["card"] = card
    elif kind == "mass":
        event["n"] = draw(st.integers(1, 4))
        for key in ("gave", "got"):
            if me is not None and draw(st.booleans()):
                event[key] = draw(cards)
    elif kind == "accuse":
        event.update(card=card, correct=draw(st.booleans()))
        if not event["correct"] and draw(st.booleans()):
            event["shown_by"] = other
    note = draw(NOTES)
    if note is not None:
        event["note"] = note
    return event


@st.composite
def abbey_logs(draw: st.DrawFn) -> str:
    n = draw(st.integers(3, 6))
    players = draw(st.lists(IDS, min_size=n, max_size=n, unique=True))
    me = draw(st.none() | st.sampled_from(players))
    header: dict = {"game": "abbey", "players": players, "me": me}
    if draw(st.booleans()):
        header["version"] = 1
    deck = draw(st.sampled_from(["absent", "default", "inline"]))
    if deck == "default":
        header["deck"] = "default"
    elif deck == "inline":
        names = st.text(min_size=1, max_size=8).filter(str.strip)
        header["deck"] = [{**c.to_json(), "name": draw(names)} for c in default_deck().cards]
    if draw(st.booleans()):
        header["pile"], header["hand"] = RULEBOOK_SIZES[n]
    note = draw(NOTES)
    if note is not None:
        header["note"] = note
    events = draw(st.lists(abbey_event(players, me), max_size=10))
    lines = [json.dumps(header), *(json.dumps(e) for e in events)]
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(abbey_logs())
def test_random_abbey_logs_round_trip(text: str) -> None:
    log = parse_jsonl(text, "r.jsonl")
    assert_round_trips(log)


@st.composite
def rose_or_blackrose_logs(draw: st.DrawFn) -> str:
    game = draw(st.sampled_from(["rose", "blackrose"]))
    players = draw(st.lists(IDS, min_size=3, max_size=5, unique=True))
    header: dict = {
        "game": game,
        "players": players,
        "me": draw(st.none() | st.sampled_from(players)),
    }
    suspects = list(default_suspect_ids())
    if game == "blackrose":
        header["rector"] = draw(st.sampled_from(players))
        if draw(st.booleans()):
            suspects = draw(st.lists(IDS, min_size=7, max_size=7, unique=True))
            header["suspects"] = suspects
    who = st.sampled_from(players)
    colour = st.sampled_from(["red", "blue", "white", "grey", "black", "orange"])
    suspect = st.sampled_from(suspects)
    if game == "rose":
        event = st.one_of(
            st.builds(lambda p, c: {"type": "identity", "player": p, "colour": c}, who, colour),
            st.builds(lambda p, c: {"type": "reveal", "player": p, "colour": c}, who, colour),
            st.builds(
                lambda ps, c: {"type": "guess", "player": ps[0], "of": ps[1], "colour": c},
                st.lists(who, min_size=2, max_size=2, unique=True),
                colour,
            ),
        )
    else:
        event = st.one_of(
            st.builds(
                lambda p, r: {"type": "role", "player": p, "role": r},
                who,
                st.sampled_from(["investigator", "possessed", "rector"]),
            ),
            st.builds(lambda s: {"type": "proof", "suspect": s}, suspect),
            st.builds(lambda s, p: {"type": "proof", "suspect": s, "player": p}, suspect, who),
            st.builds(
                lambda ss, c: {"type": "accuse", "suspects": ss, "correct": c},
                st.lists(suspect, min_size=2, max_size=2, unique=True),
                st.booleans(),
            ),
            st.builds(lambda s: {"type": "kill", "suspect": s}, suspect),
            st.builds(
                lambda c, k: {
                    "type": "goal",
                    "card": c,
                    "condition": {"innocent_dead_at_least": k},
                },
                IDS,
                st.integers(0, 7),
            ),
            st.builds(
                lambda p, s, i: {"type": "claim", "player": p, "suspect": s, "innocent": i},
                who,
                suspect,
                st.booleans(),
            ),
        )
    events = draw(st.lists(event, max_size=8))
    return "\n".join(json.dumps(x) for x in [header, *events]) + "\n"


@settings(max_examples=100, deadline=None)
@given(rose_or_blackrose_logs())
def test_random_rose_and_blackrose_logs_round_trip(text: str) -> None:
    assert_round_trips(parse_jsonl(text, "r.jsonl"))


# --------------------------------------------------------------------------
# Files


def test_detect_syntax() -> None:
    assert detect_syntax(ROSE) == "jsonl"
    assert detect_syntax('\n  # comment\n\n  {"game": 1}') == "jsonl"
    assert detect_syntax("# {\ngame rose\n") == "text"
    assert detect_syntax("") == "text"


@pytest.mark.parametrize("syntax", ["jsonl", "text"])
@pytest.mark.parametrize("game", LOGS)
def test_write_then_read(tmp_path: Path, game: str, syntax: str) -> None:
    log = parse_jsonl(LOGS[game], "x.jsonl")
    path = tmp_path / f"{game}.{syntax}"
    write_log(log, path, syntax)
    assert path.read_text("utf-8") == format_log(log, syntax)
    back = read_log(path)
    assert back.path == str(path)
    assert strip_lines(back) == strip_lines(log)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temp file left


def test_write_replaces_and_keeps_permissions(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text("old", "utf-8")
    os.chmod(path, 0o600)
    write_log(parse_jsonl(ROSE, "r.jsonl"), path)
    assert path.read_text("utf-8") == ROSE
    assert path.stat().st_mode & 0o777 == 0o600


def test_write_into_a_missing_folder_is_a_log_error(tmp_path: Path) -> None:
    from deduce.errors import LogError

    with pytest.raises(LogError, match="cannot write log"):
        write_log(parse_jsonl(ROSE, "r.jsonl"), tmp_path / "nope" / "log.jsonl")


def test_unknown_syntax_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown log syntax"):
        write_log(parse_jsonl(ROSE, "r.jsonl"), tmp_path / "x", "yaml")  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_read_log_passes_the_deck_override(tmp_path: Path) -> None:
    from deduce.logs.formats.abbey import Deck

    renamed = Deck(tuple(replace(c, id=f"x{c.id}") for c in default_deck().cards))
    path = tmp_path / "o.txt"
    path.write_text("game abbey\nplayers a b c\nme a\nhas b xconrad\n", "utf-8")
    assert read_log(path, renamed).events[0].get("card") == "xconrad"


def test_atomic_write_follows_a_symbolic_link(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "log.jsonl").write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real / "log.jsonl")
    write_log(parse_jsonl(ROSE, "r.jsonl"), link)
    assert link.is_symlink()
    assert (real / "log.jsonl").read_text(encoding="utf-8") == ROSE
