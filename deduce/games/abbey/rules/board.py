"""The abbey's rooms and doors: board validation, pawn moves and the bundled default board.

The rulebook names the rooms and a few facts about them (the pawns start in the
chapel, one confessional is entered only from the courtyard and the other from
the chapel, the cloister is four spaces, each player has a cell) but does not
print the board's room connections. The bundled board
(``deduce/data/abbey-board.json``) is a default that honours every printed
statement; it is not the printed board. Users replace it with their own file.

In the default board the confessionals, cells, library and crypt are dead ends
(exactly one door each). User boards need not follow that choice, but they must
be connected and meet every rulebook count.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from deduce.data import bundled_json
from deduce.data.located import lines_of, read_located
from deduce.errors import LogError
from deduce.logs.ids import ID_PATTERN

#: Every room kind, with how many rooms of it a board holds (``None``: any number).
KIND_COUNTS: dict[str, int | None] = {
    "chapel": 1,
    "confessional": 2,
    "cell": 6,
    "scriptorium": 1,
    "library": 1,
    "parlor": 1,
    "crypt": 1,
    "chapter": 1,
    "courtyard": 1,
    "cloister": 4,
    "empty": None,
}
ROOM_KINDS: tuple[str, ...] = tuple(KIND_COUNTS)

#: The fixed ids of the chapel (where pawns start) and the courtyard.
CHAPEL = "ecclesia"
COURTYARD = "aula"
#: Seats whose cells a board must provide: one cell per seat, 0 to 5.
SEATS: tuple[int, ...] = tuple(range(6))

DEFAULT_BOARD_FILE = "abbey-board.json"


@dataclass(frozen=True)
class Room:
    """A room: lowercase id, kind (see ``ROOM_KINDS``) and, for a cell, its owner's seat."""

    id: str
    kind: str
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The room as written in a board file."""
        raw: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.seat is not None:
            raw["seat"] = self.seat
        return raw


@dataclass(frozen=True)
class Board:
    """Rooms and undirected doors. Build it with ``board_from_json`` to have it validated."""

    rooms: tuple[Room, ...]
    doors: frozenset[frozenset[str]]
    _by_id: dict[str, Room] = field(init=False, repr=False, compare=False, hash=False)
    _adjacent: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False, hash=False)
    _moves: dict[tuple[str, int], tuple[str, ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        by_id = {r.id: r for r in self.rooms}
        links: dict[str, set[str]] = {r.id: set() for r in self.rooms}
        for door in self.doors:
            a, b = sorted(door)
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
        object.__setattr__(self, "_by_id", by_id)
        object.__setattr__(self, "_adjacent", {k: tuple(sorted(v)) for k, v in links.items()})
        object.__setattr__(self, "_moves", {})

    def room(self, room_id: str) -> Room:
        """The room with this id (``KeyError`` if absent)."""
        return self._by_id[room_id]

    def neighbours(self, room_id: str) -> tuple[str, ...]:
        """Sorted ids of the rooms one door away (``KeyError`` for an unknown room)."""
        return self._adjacent[room_id]

    def of_kind(self, kind: str) -> tuple[Room, ...]:
        """The rooms of this kind, in board order."""
        return tuple(r for r in self.rooms if r.kind == kind)

    def cell_of(self, seat: int) -> Room:
        """The cell of the player in this seat (``KeyError`` if the board has none)."""
        for room in self.rooms:
            if room.kind == "cell" and room.seat == seat:
                return room
        raise KeyError(seat)

    def distances(self, start: str) -> dict[str, int]:
        """Doors between ``start`` and every room (breadth-first)."""
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self._adjacent[here]:
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist

    def destinations(self, start: str, max_steps: int) -> tuple[str, ...]:
        """Sorted rooms where a move of 1 to ``max_steps`` steps from ``start`` can end.

        Each step goes through one door, and no step goes straight back into the
        room the pawn has just left (A -> B -> A is forbidden anywhere in the
        move). A move never ends in ``start``. Occupancy is not considered.
        Since every length up to ``max_steps`` counts, and a shortest way never
        turns back, this is every room within ``max_steps`` doors of ``start``
        except ``start`` itself. An unknown ``start`` raises ``KeyError``;
        ``max_steps < 1`` allows no move.
        """
        key = (start, max_steps)
        if key not in self._moves:
            self._moves[key] = tuple(
                sorted(room for room, d in self.distances(start).items() if 1 <= d <= max_steps)
            )
        return self._moves[key]

    def to_json(self) -> dict[str, Any]:
        """The board as written in a board file (doors sorted)."""
        return {
            "rooms": [r.to_json() for r in self.rooms],
            "doors": sorted(sorted(d) for d in self.doors),
        }


def _fail(path: str, message: str) -> LogError:
    return LogError(path, None, message)


def _parse_room(item: Any, i: int, path: str) -> Room:
    """Validate one entry of the ``rooms`` list."""
    if not isinstance(item, dict):
        raise _fail(path, f"board room {i} must be an object with id and kind")
    unknown = set(item) - {"id", "kind", "seat"}
    if unknown:
        raise _fail(path, f"board room {i}: unknown key {sorted(unknown)[0]!r}")
    rid, kind = item.get("id"), item.get("kind")
    if not isinstance(rid, str) or not ID_PATTERN.match(rid):
        raise _fail(path, f"board room {i}: id must match [a-z0-9][a-z0-9_-]*")
    if not isinstance(kind, str) or kind not in KIND_COUNTS:
        raise _fail(
            path, f"board room {rid!r}: unknown kind {kind!r} (kinds: {', '.join(ROOM_KINDS)})"
        )
    seat = item.get("seat")
    if kind == "cell":
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
            raise _fail(path, f"board room {rid!r}: a cell needs a seat from 0 to 5")
    elif "seat" in item:
        raise _fail(path, f"board room {rid!r}: only cells have a seat")
    return Room(rid, kind, seat)


def _parse_doors(raw: Any, ids: set[str], path: str) -> frozenset[frozenset[str]]:
    """Validate the ``doors`` list: pairs of known, distinct rooms, each listed once."""
    if not isinstance(raw, list) or not raw:
        raise _fail(path, "board 'doors' must be a non-empty list of [room, room] pairs")
    doors: set[frozenset[str]] = set()
    for i, pair in enumerate(raw, 1):
        with lines_of(pair):  # a board file's errors name the door's line
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(x, str) for x in pair)
            ):
                raise _fail(path, f"board door {i} must be a pair of room ids")
            for rid in pair:
                if rid not in ids:
                    raise _fail(path, f"board door {i} names unknown room {rid!r}")
            a, b = pair
            if a == b:
                raise _fail(path, f"board door {i} leads from {a!r} to itself")
            door = frozenset(pair)
            if door in doors:
                raise _fail(path, f"board door {i} between {a!r} and {b!r} is listed twice")
        doors.add(door)
    return frozenset(doors)


def _check_counts(rooms: list[Room], path: str) -> None:
    """Raise unless every kind has its rulebook count and the fixed ids and seats are right."""
    counts = Counter(r.kind for r in rooms)
    for kind, expected in KIND_COUNTS.items():
        if expected is not None and counts[kind] != expected:
            raise _fail(
                path,
                f"a board needs {expected} {kind} room"
                f"{'s' if expected > 1 else ''}, this one has {counts[kind]}",
            )
    for kind, rid in (("chapel", CHAPEL), ("courtyard", COURTYARD)):
        room = next(r for r in rooms if r.kind == kind)
        if room.id != rid:
            raise _fail(path, f"the {kind} must have id {rid!r}, not {room.id!r}")
    seats = Counter(r.seat for r in rooms if r.kind == "cell")
    for seat in SEATS:
        if seats[seat] != 1:
            raise _fail(path, f"seat {seat} must have exactly one cell, it has {seats[seat]}")


def _check_confessionals(board: Board, path: str) -> None:
    """One confessional is entered only from the courtyard, the other from the chapel."""
    first, second = board.of_kind("confessional")
    for courtyard_one, chapel_one in ((first, second), (second, first)):
        if board.neighbours(courtyard_one.id) == (COURTYARD,) and CHAPEL in board.neighbours(
            chapel_one.id
        ):
            return
    if not any(board.neighbours(c.id) == (COURTYARD,) for c in (first, second)):
        raise _fail(
            path,
            f"one confessional must have a single door, to the courtyard {COURTYARD!r} (rulebook)",
        )
    raise _fail(
        path, f"the other confessional must have a door to the chapel {CHAPEL!r} (rulebook)"
    )


def _check_connected(board: Board, path: str) -> None:
    """Raise unless every room can be reached from the chapel."""
    seen = board.distances(CHAPEL)
    missing = [r.id for r in board.rooms if r.id not in seen]
    if missing:
        raise _fail(
            path,
            f"room {missing[0]!r} cannot be reached from the chapel (the board must be connected)",
        )


def board_from_json(raw: Any, path: str) -> Board:
    """Build a board from its JSON object form, checking it against every rulebook statement.

    Checked: known keys and kinds, unique ids, doors between known distinct rooms,
    the number of rooms of each kind, the chapel ``ecclesia`` and the courtyard
    ``aula``, one cell per seat 0-5, one confessional whose only door leads to
    the courtyard and the other with a door to the chapel, and connectivity.
    Dead ends are not required. Each problem raises ``LogError(path, None, ...)``.
    """
    if not isinstance(raw, dict):
        raise _fail(path, "a board must be an object with 'rooms' and 'doors'")
    unknown = set(raw) - {"note", "rooms", "doors"}
    if unknown:
        raise _fail(path, f"unknown key {sorted(unknown)[0]!r} in board file")
    if "note" in raw and not isinstance(raw["note"], str):
        raise _fail(path, "board 'note' must be a string")
    items = raw.get("rooms")
    if not isinstance(items, list) or not items:
        raise _fail(path, "board 'rooms' must be a non-empty list of rooms")
    rooms: list[Room] = []
    seen: set[str] = set()
    for i, item in enumerate(items, 1):
        with lines_of(item):  # a board file's errors name the room's line
            room = _parse_room(item, i, path)
            if room.id in seen:
                raise _fail(path, f"board room {i}: duplicate id {room.id!r}")
        seen.add(room.id)
        rooms.append(room)
    with lines_of(raw.get("doors")):
        doors = _parse_doors(raw.get("doors"), seen, path)
    _check_counts(rooms, path)
    board = Board(tuple(rooms), doors)
    _check_confessionals(board, path)
    _check_connected(board, path)
    return board


@cache
def default_board() -> Board:
    """The bundled default board (not the printed board: see the module docstring)."""
    return board_from_json(bundled_json(DEFAULT_BOARD_FILE), DEFAULT_BOARD_FILE)


def load_board_file(path: str) -> Board:
    """Read and validate a board file (the JSON object form of ``board_from_json``)."""
    raw = read_located(path, "board file")
    with lines_of(raw):
        return board_from_json(raw, path)
