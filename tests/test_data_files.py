"""Users' data files (deck, board, cards): read, validated, and every problem one clear line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deduce.data import bundled_json
from deduce.errors import LogError
from deduce.games.abbey.rules.board import default_board, load_board_file
from deduce.games.abbey.rules.cards import default_cards, load_cards_file
from deduce.logs.formats.abbey import default_deck, load_deck_file


def _break_board(raw):
    raw["rooms"][0]["kind"] = "church"
    return "board room 'ecclesia': unknown kind"


def _break_cards(raw):
    raw["crypt"] = -1
    return "'crypt' must be a positive number"


def _break_deck(raw):
    raw["cards"][0]["traits"] = ["templar"]
    return "deck card"


KINDS = [
    ("board", "abbey-board.json", load_board_file, default_board, _break_board),
    ("cards", "abbey-cards.json", load_cards_file, default_cards, _break_cards),
    ("deck", "abbey-deck.json", load_deck_file, default_deck, _break_deck),
]


@pytest.fixture(params=KINDS, ids=[k[0] for k in KINDS])
def kind(request):
    return request.param


def test_a_copy_of_the_default_loads_as_the_default(kind, tmp_path: Path) -> None:
    what, bundled, load, default, _ = kind
    path = tmp_path / f"{what}.json"
    path.write_text(json.dumps(bundled_json(bundled)), encoding="utf-8")
    loaded = load(str(path))
    assert loaded == default() or loaded.cards == default().cards


def test_bad_json_names_the_file_and_line(kind, tmp_path: Path) -> None:
    what, _, load, _, _ = kind
    path = tmp_path / f"{what}.json"
    path.write_text('{\n "rooms": [\n  {"id": "x",, "kind": "chapel"}\n ]\n}\n', encoding="utf-8")
    with pytest.raises(LogError) as info:
        load(str(path))
    assert info.value.line == 3
    assert str(info.value).startswith(f"{path}:3: {what} file is not valid JSON: ")


def test_unreadable_files_name_the_file(kind, tmp_path: Path) -> None:
    what, _, load, _, _ = kind
    missing = tmp_path / "missing.json"
    with pytest.raises(LogError, match=f"cannot read {what} file") as info:
        load(str(missing))
    assert info.value.path == str(missing)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LogError, match=f"{what} file is not UTF-8 text"):
        load(str(binary))


def test_invalid_content_names_the_file(kind, tmp_path: Path) -> None:
    what, bundled, load, _, spoil = kind
    raw = bundled_json(bundled)
    message = spoil(raw)
    path = tmp_path / f"{what}.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(LogError) as info:
        load(str(path))
    assert str(info.value).startswith(f"{path}:1: {message}")  # all on one line
    path.write_text(json.dumps(raw, indent=1), encoding="utf-8")
    with pytest.raises(LogError) as info:
        load(str(path))
    assert info.value.line is not None and info.value.message.startswith(message)
