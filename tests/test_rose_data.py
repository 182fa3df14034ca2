"""The Name of the Rose's default data and the user data file loader's errors."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from data_edits import assert_refused, item_edit, set_key

from deduce.data import bundled_json
from deduce.errors import LogError
from deduce.games.rose.data import (
    EVENT_IDS,
    ActionCard,
    data_from_json,
    default_data,
    load_data_file,
)
from deduce.logs.formats.rose import COLOURS

BUILDINGS = (
    "library",
    "scriptorium",
    "stables",
    "dormitory",
    "workshops",
    "refectory",
    "kitchen",
    "gatehouse",
    "hospital",
    "bathhouse",
    "church",
    "chapter-house",
    "cloister",
    "gardens",
)
BUNDLED = Path(__file__).resolve().parent.parent / "deduce" / "data" / "rose-game.json"


def default_raw() -> dict[str, Any]:
    return bundled_json("rose-game.json")


# --------------------------------------------------------------------------
# The default data


def test_default_buildings() -> None:
    assert default_data().buildings == BUILDINGS


def test_default_cards_have_the_rulebook_counts_and_documented_times() -> None:
    cards = default_data().cards
    assert len(cards) == 60
    assert len({c.id for c in cards}) == 60
    by_kind = Counter(c.kind for c in cards)
    assert by_kind == {"monk": 24, "building": 28, "william-adson": 8}
    for colour in COLOURS:
        assert sorted(c.time for c in cards if c.target == colour) == [1, 2, 3, 4]
    times = {b: sorted(c.time for c in cards if c.target == b) for b in BUILDINGS}
    assert [times[b] for b in BUILDINGS] == [[1, 3]] * 7 + [[2, 4]] * 7
    assert all(c.time is None and c.target is None for c in cards if c.kind == "william-adson")
    assert default_data().card("orange-2") == ActionCard("orange-2", "monk", "orange", 2)
    assert default_data().card("church-4") == ActionCard("church-4", "building", "church", 4)


def test_default_task_tiles() -> None:
    tasks = default_data().tasks
    assert len(tasks) == 42
    for colour in COLOURS:
        assert sorted(v for c, v in tasks if c == colour) == [1, 2, 2, 3, 3, 4, 5]


def test_default_event_tiles() -> None:
    assert default_data().events == EVENT_IDS
    assert len(EVENT_IDS) == 14


def test_the_bundled_file_says_it_is_not_the_printed_components() -> None:
    assert "not the printed components" in default_raw()["note"]


# --------------------------------------------------------------------------
# User files


def test_a_copy_of_the_default_loads_as_the_default(tmp_path: Path) -> None:
    path = tmp_path / "rose.json"
    path.write_text(json.dumps(default_raw()), encoding="utf-8")
    assert load_data_file(str(path)) == default_data()


def test_a_smaller_variant_loads(tmp_path: Path) -> None:
    raw = default_raw()
    raw["buildings"] = [*raw["buildings"][:10], "church"]
    raw["cards"] = [c for c in raw["cards"] if c.get("building", "church") in raw["buildings"]]
    raw["events"] = raw["events"][:6]
    del raw["note"]
    data = data_from_json(raw, "r.json")
    assert len(data.buildings) == 11 and len(data.events) == 6


def test_bad_json_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "rose.json"
    path.write_text('{\n "buildings": [\n  "library",, "church"\n ]\n}\n', encoding="utf-8")
    with pytest.raises(LogError) as info:
        load_data_file(str(path))
    assert info.value.line == 3
    assert str(info.value).startswith(f"{path}:3: rose data file is not valid JSON: ")


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "none.json"
    with pytest.raises(LogError, match=r"none\.json: cannot read rose data file"):
        load_data_file(str(path))


_card = item_edit("cards")
_set = set_key


BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("unknown key", _set("x", 1), "unknown key 'x' in rose data file"),
    ("missing", lambda raw: raw.pop("tasks"), "rose data file has no 'tasks'"),
    ("note", _set("note", 3), "'note' must be a string"),
    (
        "few buildings",
        _set("buildings", ["library", "church"]),
        "'buildings' must be a list of at least 8 ids",
    ),
    (
        "bad building id",
        lambda raw: raw["buildings"].__setitem__(2, "Stables"),
        "'buildings': 'Stables' is not an id",
    ),
    (
        "duplicate building",
        lambda raw: raw["buildings"].__setitem__(2, "library"),
        "'buildings': duplicate id 'library'",
    ),
    (
        "no church",
        lambda raw: raw["buildings"].__setitem__(10, "chapel"),
        "'buildings' has no 'church' (an event tile names it)",
    ),
    (
        "few cards",
        lambda raw: raw.__setitem__("cards", raw["cards"][:14]),
        "'cards' must be a list of at least 15 cards",
    ),
    (
        "card not object",
        lambda raw: raw["cards"].__setitem__(3, "red-4"),
        "card 4 must be an object with id and kind",
    ),
    (
        "card kind",
        _card(0, kind="abbot"),
        "card 1: kind must be one of monk, building, william-adson, not 'abbot'",
    ),
    ("card kind list", _card(0, kind=["monk"]), "card 1: kind must be one of"),
    ("card unknown key", _card(0, colour="red"), "card 1: unknown key 'colour'"),
    ("card missing key", lambda raw: raw["cards"][0].pop("time"), "card 1: missing key 'time'"),
    ("william time", _card(59, time=5), "card 60: unknown key 'time'"),
    ("card id", _card(1, id="Red 2"), "card 2: id must match [a-z0-9][a-z0-9_-]*"),
    ("duplicate card", _card(1, id="red-1"), "card 2: duplicate id 'red-1'"),
    ("card monk", _card(0, monk="pink"), "card 'red-1': unknown monk 'pink'"),
    ("card building", _card(24, building="crypt"), "card 'library-1': unknown building 'crypt'"),
    ("card time", _card(0, time=0), "card 'red-1': time must be an integer from 1 to 24, not 0"),
    (
        "card time bool",
        _card(0, time=True),
        "card 'red-1': time must be an integer from 1 to 24, not True",
    ),
    ("tasks shape", _set("tasks", [1, 2]), "'tasks' must be an object: colour -> list"),
    (
        "task colour",
        lambda raw: raw["tasks"].__setitem__("pink", [1]),
        "'tasks': unknown colour 'pink'",
    ),
    (
        "task value",
        lambda raw: raw["tasks"].__setitem__("red", [1, 0]),
        "'tasks' of red: tile values must be a list of positive integers",
    ),
    (
        "few tasks",
        lambda raw: raw.__setitem__("tasks", {"red": [1] * 27}),
        "'tasks' has 27 tiles; two for each of the 14 buildings need 28",
    ),
    ("few events", _set("events", ["caught"]), "'events' must be a list of at least 6 ids"),
    (
        "unknown event",
        lambda raw: raw["events"].__setitem__(0, "sleepy"),
        "'events': unknown event tile 'sleepy'",
    ),
    (
        "duplicate event",
        lambda raw: raw["events"].__setitem__(0, "caught"),
        "'events': duplicate id 'caught'",
    ),
]


@pytest.mark.parametrize(("name", "change", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_every_problem_is_one_line(
    name: str, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    assert_refused(data_from_json, default_raw(), change, message)


def test_a_data_file_that_is_not_an_object() -> None:
    with pytest.raises(LogError, match=r"r\.json: a rose data file must be an object"):
        data_from_json([], "r.json")


def _line_with(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(
    ("old", "new", "line_of", "message"),
    [
        (
            '"id": "blue-3", "kind": "monk", "monk": "blue", "time": 3',
            '"id": "blue-3", "kind": "monk", "monk": "blue", "time": 30',
            '"blue-3"',
            "card 'blue-3': time must be an integer from 1 to 24, not 30",
        ),
        (
            '"grey": [1, 2, 2, 3, 3, 4, 5]',
            '"grey": [1, 2, -2]',
            '"grey": [',
            "'tasks' of grey: tile values must be a list of positive integers",
        ),
        (
            '    "hospital",\n',
            '    "hospital", "hospital",\n',
            '"buildings"',
            "'buildings': duplicate id 'hospital'",
        ),
    ],
)
def test_file_errors_name_the_line(
    tmp_path: Path, old: str, new: str, line_of: str, message: str
) -> None:
    """The line of the object or list at fault (a card, a colour's tiles, the buildings)."""
    text = BUNDLED.read_text(encoding="utf-8")
    assert old in text
    broken = text.replace(old, new)
    path = tmp_path / "rose.json"
    path.write_text(broken, encoding="utf-8")
    line = _line_with(broken, line_of)
    with pytest.raises(LogError) as info:
        load_data_file(str(path))
    assert str(info.value) == f"{path}:{line}: {message}"
