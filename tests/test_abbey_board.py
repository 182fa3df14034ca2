"""The default abbey board meets the rulebook; pawn moves; every board validation error."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from deduce.data import bundled_json
from deduce.errors import LogError
from deduce.games.abbey.rules.board import (
    KIND_COUNTS,
    Board,
    Room,
    board_from_json,
    default_board,
)


def default_raw() -> dict[str, Any]:
    return bundled_json("abbey-board.json")


def small_board(doors: list[tuple[str, str]]) -> Board:
    ids = sorted({r for d in doors for r in d})
    return Board(tuple(Room(i, "empty", None) for i in ids), frozenset(frozenset(d) for d in doors))


# --------------------------------------------------------------------------
# The default board against the rulebook


def test_default_board_has_the_rulebook_rooms() -> None:
    board = default_board()
    for kind, count in KIND_COUNTS.items():
        if count is not None:
            assert len(board.of_kind(kind)) == count, kind
    assert board.of_kind("chapel") == (board.room("ecclesia"),)
    assert board.of_kind("courtyard") == (board.room("aula"),)
    assert len({r.id for r in board.of_kind("cloister")}) == 4
    assert len({r.id for r in board.rooms}) == len(board.rooms)


def test_default_board_confessionals() -> None:
    board = default_board()
    confessionals = board.of_kind("confessional")
    courtyard_only = [c for c in confessionals if board.neighbours(c.id) == ("aula",)]
    from_chapel = [c for c in confessionals if "ecclesia" in board.neighbours(c.id)]
    assert len(courtyard_only) == 1
    assert len(from_chapel) == 1
    assert courtyard_only != from_chapel
    assert courtyard_only[0].id not in board.neighbours("ecclesia")


def test_default_board_cells_have_seats_0_to_5() -> None:
    board = default_board()
    cells = board.of_kind("cell")
    assert sorted(c.seat for c in cells) == [0, 1, 2, 3, 4, 5]
    for seat in range(6):
        assert board.cell_of(seat).kind == "cell"
        assert board.cell_of(seat).seat == seat
    with pytest.raises(KeyError):
        board.cell_of(6)
    assert all(r.seat is None for r in board.rooms if r.kind != "cell")


def test_default_board_is_connected_and_moves_take_a_few_turns() -> None:
    board = default_board()
    dist = board.distances("ecclesia")
    assert set(dist) == {r.id for r in board.rooms}
    others = [d for room, d in dist.items() if room != "ecclesia"]
    assert sum(3 <= d <= 6 for d in others) > len(others) / 2
    assert max(others) <= 6


def test_default_board_dead_ends() -> None:
    board = default_board()
    for kind in ("confessional", "cell", "library", "crypt"):
        for room in board.of_kind(kind):
            assert len(board.neighbours(room.id)) == 1, room.id


def test_default_board_note_says_it_is_a_default() -> None:
    note = default_raw()["note"]
    assert "default" in note.lower()
    assert "not the printed board" in note


def test_board_accessors() -> None:
    board = default_board()
    assert board.room("aula") == Room("aula", "courtyard", None)
    for room in board.rooms:
        near = board.neighbours(room.id)
        assert list(near) == sorted(near)
        for other in near:
            assert room.id in board.neighbours(other)
    with pytest.raises(KeyError):
        board.room("attic")
    with pytest.raises(KeyError):
        board.neighbours("attic")
    assert board.of_kind("attic") == ()


def test_board_json_round_trip() -> None:
    board = default_board()
    assert board_from_json(board.to_json(), "x.json") == board


# --------------------------------------------------------------------------
# Moves


def test_destinations_on_a_line() -> None:
    board = small_board([("a", "b"), ("b", "c"), ("c", "d")])
    assert board.destinations("a", 1) == ("b",)
    assert board.destinations("a", 2) == ("b", "c")
    assert board.destinations("a", 3) == ("b", "c", "d")
    assert board.destinations("b", 1) == ("a", "c")
    assert board.destinations("b", 2) == ("a", "c", "d")


def test_distances_count_doors_breadth_first() -> None:
    triangle = small_board([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    assert triangle.distances("a") == {"a": 0, "b": 1, "c": 1, "d": 2}
    assert small_board([("a", "b"), ("b", "c"), ("c", "d")]).distances("d")["a"] == 3


def test_destinations_never_go_straight_back_nor_end_at_start() -> None:
    # a - b is a dead end: a -> b -> a is forbidden, and would end at the start.
    board = small_board([("a", "b")])
    assert board.destinations("a", 2) == ("b",)
    assert board.destinations("b", 3) == ("a",)
    # In a triangle, a -> b -> c -> a is a legal walk but a move never ends at its start.
    triangle = small_board([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    assert triangle.destinations("a", 1) == ("b", "c")
    assert triangle.destinations("a", 2) == ("b", "c", "d")
    assert triangle.destinations("a", 3) == ("b", "c", "d")


def test_destinations_with_a_dead_end_spur() -> None:
    # hub - spur (dead end), hub - x - y: from spur the only way out is through hub.
    board = small_board([("hub", "spur"), ("hub", "x"), ("x", "y")])
    assert board.destinations("spur", 1) == ("hub",)
    assert board.destinations("spur", 2) == ("hub", "x")
    assert board.destinations("spur", 3) == ("hub", "x", "y")
    assert board.destinations("x", 2) == ("hub", "spur", "y")


def test_destinations_are_the_rooms_within_reach_on_the_default_board() -> None:
    board = default_board()
    for room in board.rooms:
        dist = board.distances(room.id)
        for steps in (1, 2, 3):
            expected = tuple(sorted(r for r, d in dist.items() if 1 <= d <= steps))
            assert board.destinations(room.id, steps) == expected
    assert board.destinations("ecclesia", 2) == (
        "claustrum-e",
        "claustrum-n",
        "claustrum-w",
        "confessorium-ecclesiae",
    )


def test_destinations_edge_cases() -> None:
    board = default_board()
    assert board.destinations("ecclesia", 0) == ()
    with pytest.raises(KeyError):
        board.destinations("attic", 2)


# --------------------------------------------------------------------------
# Validation: one case per message


def room_of(raw: dict[str, Any], rid: str) -> dict[str, Any]:
    return next(r for r in raw["rooms"] if r["id"] == rid)


def rename(raw: dict[str, Any], old: str, new: str) -> None:
    room_of(raw, old)["id"] = new
    raw["doors"] = [[new if r == old else r for r in d] for d in raw["doors"]]


def redoor(raw: dict[str, Any], room: str, old: str, new: str) -> None:
    raw["doors"] = [[room, new] if sorted(d) == sorted([room, old]) else d for d in raw["doors"]]


def drop(raw: dict[str, Any], key: str) -> None:
    del raw[key]


Mutation = Callable[[dict[str, Any]], Any]

CASES: list[tuple[str, Mutation, str]] = [
    ("top-key", lambda raw: raw.update(colour="red"), "unknown key 'colour' in board file"),
    ("note", lambda raw: raw.update(note=3), "board 'note' must be a string"),
    ("no-rooms", lambda raw: drop(raw, "rooms"), "board 'rooms' must be a non-empty list of rooms"),
    (
        "empty-rooms",
        lambda raw: raw.update(rooms=[]),
        "board 'rooms' must be a non-empty list of rooms",
    ),
    (
        "room-not-object",
        lambda raw: raw["rooms"].insert(2, "aula"),
        "board room 3 must be an object with id and kind",
    ),
    (
        "room-key",
        lambda raw: raw["rooms"][0].update(name="Chapel"),
        "board room 1: unknown key 'name'",
    ),
    (
        "room-id",
        lambda raw: raw["rooms"][0].update(id="Ecclesia"),
        "board room 1: id must match [a-z0-9][a-z0-9_-]*",
    ),
    (
        "room-no-id",
        lambda raw: raw["rooms"][0].pop("id"),
        "board room 1: id must match [a-z0-9][a-z0-9_-]*",
    ),
    (
        "kind",
        lambda raw: room_of(raw, "culina").update(kind="kitchen"),
        "board room 'culina': unknown kind 'kitchen' (kinds: chapel, confessional, cell,",
    ),
    (
        "kind-list",
        lambda raw: room_of(raw, "culina").update(kind=["empty"]),
        "board room 'culina': unknown kind ['empty']",
    ),
    (
        "seat-missing",
        lambda raw: room_of(raw, "cellula-2").pop("seat"),
        "board room 'cellula-2': a cell needs a seat from 0 to 5",
    ),
    (
        "seat-range",
        lambda raw: room_of(raw, "cellula-2").update(seat=6),
        "board room 'cellula-2': a cell needs a seat from 0 to 5",
    ),
    (
        "seat-bool",
        lambda raw: room_of(raw, "cellula-1").update(seat=True),
        "board room 'cellula-1': a cell needs a seat from 0 to 5",
    ),
    (
        "seat-not-cell",
        lambda raw: room_of(raw, "culina").update(seat=0),
        "board room 'culina': only cells have a seat",
    ),
    (
        "duplicate-id",
        lambda raw: raw["rooms"].append({"id": "culina", "kind": "empty"}),
        "duplicate id 'culina'",
    ),
    (
        "no-doors",
        lambda raw: drop(raw, "doors"),
        "board 'doors' must be a non-empty list of [room, room] pairs",
    ),
    (
        "door-shape",
        lambda raw: raw["doors"].append(["aula", "culina", "capitulum"]),
        "must be a pair of room ids",
    ),
    ("door-not-str", lambda raw: raw["doors"].append(["aula", 3]), "must be a pair of room ids"),
    (
        "door-unknown",
        lambda raw: raw["doors"].append(["aula", "hortus"]),
        "names unknown room 'hortus'",
    ),
    ("door-self", lambda raw: raw["doors"].append(["aula", "aula"]), "leads from 'aula' to itself"),
    (
        "door-twice",
        lambda raw: raw["doors"].append(["claustrum-n", "ecclesia"]),
        "between 'claustrum-n' and 'ecclesia' is listed twice",
    ),
    (
        "count-cloister",
        lambda raw: room_of(raw, "claustrum-s").update(kind="empty"),
        "a board needs 4 cloister rooms, this one has 3",
    ),
    (
        "count-crypt",
        lambda raw: room_of(raw, "culina").update(kind="crypt"),
        "a board needs 1 crypt room, this one has 2",
    ),
    (
        "count-cell",
        lambda raw: (
            raw["rooms"].remove(room_of(raw, "cellula-5"))
            or raw["doors"].remove(["novitiatus", "cellula-5"])
        ),
        "a board needs 6 cell rooms, this one has 5",
    ),
    (
        "chapel-id",
        lambda raw: rename(raw, "ecclesia", "church"),
        "the chapel must have id 'ecclesia', not 'church'",
    ),
    (
        "courtyard-id",
        lambda raw: rename(raw, "aula", "court"),
        "the courtyard must have id 'aula', not 'court'",
    ),
    (
        "seat-twice",
        lambda raw: room_of(raw, "cellula-2").update(seat=1),
        "seat 1 must have exactly one cell, it has 2",
    ),
    (
        "courtyard-confessional",
        lambda raw: raw["doors"].append(["confessorium-aulae", "claustrum-w"]),
        "one confessional must have a single door, to the courtyard 'aula' (rulebook)",
    ),
    (
        "courtyard-confessional-moved",
        lambda raw: redoor(raw, "confessorium-aulae", "aula", "claustrum-w"),
        "one confessional must have a single door, to the courtyard 'aula' (rulebook)",
    ),
    (
        "chapel-confessional",
        lambda raw: redoor(raw, "confessorium-ecclesiae", "ecclesia", "claustrum-n"),
        "the other confessional must have a door to the chapel 'ecclesia' (rulebook)",
    ),
    (
        "isolated-room",
        lambda raw: raw["rooms"].append({"id": "hortus", "kind": "empty"}),
        "room 'hortus' cannot be reached from the chapel (the board must be connected)",
    ),
    (
        "two-parts",
        lambda raw: (
            raw["doors"].remove(["claustrum-e", "capitulum"])
            or raw["doors"].remove(["claustrum-e", "sacristia"])
            or raw["doors"].remove(["infirmaria", "novitiatus"])
        ),
        "room 'crypta' cannot be reached from the chapel",
    ),
]


@pytest.mark.parametrize(("mutate", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_board_validation_errors(mutate: Mutation, message: str) -> None:
    raw = copy.deepcopy(default_raw())
    mutate(raw)
    with pytest.raises(LogError) as info:
        board_from_json(raw, "my-board.json")
    assert message in info.value.message
    assert info.value.path == "my-board.json"
    assert info.value.line is None
    assert str(info.value).startswith("my-board.json: ")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("raw", [[], "board", None])
def test_a_board_must_be_an_object(raw: Any) -> None:
    with pytest.raises(LogError, match="a board must be an object with 'rooms' and 'doors'"):
        board_from_json(raw, "my-board.json")


def test_user_boards_need_no_dead_ends() -> None:
    raw = default_raw()
    raw["doors"] += [
        ["cellula-0", "cellula-1"],
        ["crypta", "capitulum"],
        ["confessorium-ecclesiae", "claustrum-n"],
    ]
    board = board_from_json(raw, "b.json")
    assert board.neighbours("crypta") == ("capitulum", "sacristia")


def test_empty_rooms_are_optional() -> None:
    raw = default_raw()
    empties = {r["id"] for r in raw["rooms"] if r["kind"] == "empty"}
    raw["rooms"] = [r for r in raw["rooms"] if r["kind"] != "empty"]
    raw["doors"] = [d for d in raw["doors"] if not empties & set(d)]
    raw["doors"] += [
        ["claustrum-e", "crypta"],
        ["capitulum", "cellula-0"],
        ["capitulum", "cellula-1"],
        ["capitulum", "cellula-2"],
        ["claustrum-s", "cellula-3"],
        ["claustrum-s", "cellula-4"],
        ["claustrum-s", "cellula-5"],
    ]
    board = board_from_json(raw, "b.json")
    assert board.of_kind("empty") == ()
    assert board.destinations("ecclesia", 3)
