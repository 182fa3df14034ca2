"""The Name of the Rose's components as data: buildings, action cards, task tiles, event tiles.

The rulebook gives how many components there are (14 buildings, 60 action
cards: 2 per building, 4 per monk and 8 William/Adson cards; 42 task tiles;
14 event tiles) but not the cards' time values nor the tiles' values. The
bundled file (``deduce/data/rose-game.json``) is a documented default written
for deduce, not the printed components:

- buildings: ``library scriptorium stables dormitory workshops refectory
  kitchen gatehouse hospital bathhouse church chapter-house cloister gardens``;
- monk cards: 4 per monk, time 1, 2, 3 and 4 (ids ``red-1``...);
- building cards: 2 per building, time 1 and 3 for the first seven buildings,
  2 and 4 for the other seven (ids ``library-1``...);
- 8 William/Adson cards (``william-adson-1``...): their time is the rule's,
  5 when William moves and 0 when Adson does;
- task tiles: 7 per colour, values 1, 2, 2, 3, 3, 4, 5;
- the 14 event tiles, by id (see ``EVENT_IDS``).

A user file has the same shape: an object with ``buildings`` (a list of
ids), ``cards`` (objects ``{"id", "kind": "monk", "monk", "time"}``,
``{"id", "kind": "building", "building", "time"}`` or ``{"id", "kind":
"william-adson"}``), ``tasks`` (colour -> list of tile values), ``events``
(event tile ids) and an optional ``note``. Every problem is a one-line
``LogError`` naming the file and, when the problem lies in one object or
list of the file, its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from deduce.data import bundled_json
from deduce.data.located import Invalid, Where, check_top, load_data, parse_data
from deduce.logs.formats.rose import COLOURS
from deduce.logs.ids import ID_PATTERN

DEFAULT_DATA_FILE = "rose-game.json"
#: What a data file is called in messages.
WHAT = "rose data file"
#: The event tiles the engine implements, by id (rulebook, "The Event Tiles").
EVENT_IDS: tuple[str, ...] = (
    "communicative",
    "heels",
    "hurry",
    "ostentation",
    "mysterious",
    "studious",
    "incredulous",
    "awkward",
    "tricky",
    "dubious",
    "forbidden",
    "caught",
    "inquiring",
    "suspicious",
)
#: Buildings the event tiles name ("Forbidden": library; "Incredulous": church).
LIBRARY, CHURCH = "library", "church"
NAMED_BUILDINGS: tuple[str, ...] = (LIBRARY, CHURCH)
#: Card kinds with the key naming the card's target (``None``: no target, no time).
CARD_KINDS: dict[str, str | None] = {"monk": "monk", "building": "building", "william-adson": None}
#: Fewest buildings (the eight pawns start on different ones), cards (three for
#: each of five players) and face-down event tiles (one for each of six days).
MIN_BUILDINGS, MIN_CARDS, MIN_EVENTS = 8, 15, 6
#: Time values a monk or building card may have (the sundial's 24 spaces).
MAX_TIME = 24


@dataclass(frozen=True)
class ActionCard:
    """An action card: ``kind`` (see ``CARD_KINDS``), its monk or building, its time value.

    A William/Adson card has no target and no time: the rule gives 5 when
    William moves and 0 when Adson does.
    """

    id: str
    kind: str
    target: str | None = None
    time: int | None = None


@dataclass(frozen=True)
class RoseData:
    """Buildings, action cards, task tiles ``(colour, value)`` and event tile ids of a game."""

    buildings: tuple[str, ...]
    cards: tuple[ActionCard, ...]
    tasks: tuple[tuple[str, int], ...]
    events: tuple[str, ...]
    _by_id: dict[str, ActionCard] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})

    def card(self, card_id: str) -> ActionCard:
        """The action card with this id."""
        return self._by_id[card_id]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ids(raw: Any, where: Where, what: str, least: int) -> tuple[str, ...]:
    """A list of at least ``least`` distinct lowercase ids."""
    if not isinstance(raw, list) or len(raw) < least:
        raise Invalid(where, f"{what} must be a list of at least {least} ids")
    for item in raw:
        if not isinstance(item, str) or not ID_PATTERN.match(item):
            raise Invalid(where, f"{what}: {item!r} is not an id ([a-z0-9][a-z0-9_-]*)")
        if raw.count(item) > 1:
            raise Invalid(where, f"{what}: duplicate id {item!r}")
    return tuple(raw)


def _buildings(raw: Any) -> tuple[str, ...]:
    buildings = _ids(raw, ("buildings",), "'buildings'", MIN_BUILDINGS)
    missing = [b for b in NAMED_BUILDINGS if b not in buildings]
    if missing:
        raise Invalid(("buildings",), f"'buildings' has no {missing[0]!r} (an event tile names it)")
    return buildings


def _card(raw: Any, index: int, buildings: tuple[str, ...], seen: set[str]) -> ActionCard:
    """Card ``index`` (from 0) of the list, checked: keys, unique id, kind, target, time."""
    where, what = ("cards", index), f"card {index + 1}"
    if not isinstance(raw, dict):
        raise Invalid(where, f"{what} must be an object with id and kind")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in CARD_KINDS:
        raise Invalid(where, f"{what}: kind must be one of {', '.join(CARD_KINDS)}, not {kind!r}")
    target = CARD_KINDS[kind]
    keys = {"id", "kind"} | ({target, "time"} if target else set())
    extra, missing = sorted(set(raw) - keys), sorted(keys - set(raw))
    if extra or missing:
        problem = f"unknown key {extra[0]!r}" if extra else f"missing key {missing[0]!r}"
        raise Invalid(where, f"{what}: {problem}")
    cid = raw["id"]
    if not isinstance(cid, str) or not ID_PATTERN.match(cid):
        raise Invalid(where, f"{what}: id must match [a-z0-9][a-z0-9_-]*")
    if cid in seen:
        raise Invalid(where, f"{what}: duplicate id {cid!r}")
    seen.add(cid)
    if target is None:
        return ActionCard(cid, kind)
    allowed = COLOURS if target == "monk" else buildings
    if raw[target] not in allowed:
        raise Invalid(where, f"card {cid!r}: unknown {target} {raw[target]!r}")
    time = raw["time"]
    if not _is_int(time) or not 1 <= time <= MAX_TIME:
        raise Invalid(
            where, f"card {cid!r}: time must be an integer from 1 to {MAX_TIME}, not {time!r}"
        )
    return ActionCard(cid, kind, raw[target], time)


def _cards(raw: Any, buildings: tuple[str, ...]) -> tuple[ActionCard, ...]:
    if not isinstance(raw, list) or len(raw) < MIN_CARDS:
        raise Invalid(
            ("cards",),
            f"'cards' must be a list of at least {MIN_CARDS} cards "
            "(three for each of five players)",
        )
    seen: set[str] = set()
    return tuple(_card(item, i, buildings, seen) for i, item in enumerate(raw))


def _tasks(raw: Any, buildings: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Task tiles: at least two for each building, every value a positive integer."""
    if not isinstance(raw, dict):
        raise Invalid(("tasks",), "'tasks' must be an object: colour -> list of tile values")
    tiles: list[tuple[str, int]] = []
    for colour, values in raw.items():
        if colour not in COLOURS:
            raise Invalid(
                ("tasks",), f"'tasks': unknown colour {colour!r} (colours: {', '.join(COLOURS)})"
            )
        if not isinstance(values, list) or not all(_is_int(v) and v > 0 for v in values):
            raise Invalid(
                ("tasks", colour),
                f"'tasks' of {colour}: tile values must be a list of positive integers",
            )
        tiles += [(colour, v) for v in values]
    if len(tiles) < 2 * len(buildings):
        raise Invalid(
            ("tasks",),
            f"'tasks' has {len(tiles)} tiles; two for each of the "
            f"{len(buildings)} buildings need {2 * len(buildings)}",
        )
    return tuple(tiles)


def _events(raw: Any) -> tuple[str, ...]:
    events = _ids(raw, ("events",), "'events'", MIN_EVENTS)
    unknown = [e for e in events if e not in EVENT_IDS]
    if unknown:
        raise Invalid(
            ("events",),
            f"'events': unknown event tile {unknown[0]!r} (tiles: {', '.join(EVENT_IDS)})",
        )
    return events


def _parse(raw: Any) -> RoseData:
    """Check the whole file's object (see the module docstring)."""
    raw = check_top(raw, ("buildings", "cards", "tasks", "events"), WHAT)
    buildings = _buildings(raw["buildings"])
    return RoseData(
        buildings,
        _cards(raw["cards"], buildings),
        _tasks(raw["tasks"], buildings),
        _events(raw["events"]),
    )


def data_from_json(raw: Any, path: str) -> RoseData:
    """Build the game data from its JSON object form; a problem is ``LogError(path, None, ...)``."""
    return parse_data(_parse, raw, path)


@cache
def default_data() -> RoseData:
    """The bundled default data (not the printed components: see the module docstring)."""
    return data_from_json(bundled_json(DEFAULT_DATA_FILE), DEFAULT_DATA_FILE)


def load_data_file(path: str) -> RoseData:
    """Read and check a user's data file; errors name the file and, where known, the line."""
    return load_data(_parse, path, WHAT)
