"""What a log may contain, per game: header keys and event types, as data.

Every key has a *kind* naming how its value is checked; ``deduce.logs.validate``
has one checker per kind, shared by both syntaxes:

===============  ===========================================================
kind             value
===============  ===========================================================
``game``         one of ``GAMES``
``version``      the int 1
``players``      a non-empty list of distinct ids, in turn order
``observer``     a player id or null
``player``       a player id of the header
``card``         an id of the game's deck (abbey)
``cards``        a list of distinct deck ids (may be empty)
``traits``       a non-empty list of traits, at most one per group
``count``        an int >= 0
``positive``     an int >= 1
``nonzero``      an int other than 0
``bool``         true or false
``colour``       one of ``COLOURS``
``track``        one of ``TRACKS`` (rose)
``cause``        one of ``CAUSES`` (rose)
``role``         one of ``ROLES``
``suspect``      a suspect id of the game (blackrose)
``suspect_pair`` a list of two distinct suspect ids
``suspect_ids``  a list of ``SUSPECT_COUNT`` distinct ids (the header's suspects)
``id``           any lowercase id
``condition``    an object with one key of ``CONDITIONS``
``deck``         ``"default"`` or a list of cards (abbey header)
===============  ===========================================================

A new event type is one more entry in ``EVENTS`` (plus its line syntax in
``deduce.logs.text``); a new goal condition is one more entry in ``CONDITIONS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deduce.logs.model import GAMES
from deduce.logs.vocabulary.rose import CAUSES, COLOURS, TRACKS

__all__ = [
    "CAUSES",
    "COLOURS",
    "CONDITIONS",
    "EVENTS",
    "GAMES",
    "HEADER_EXTRAS",
    "PLAYER_RANGE",
    "ROLES",
    "SOFT_EVENTS",
    "TRACKS",
    "EventSchema",
    "Field",
    "event_schema",
    "event_types",
    "header_fields",
]

#: Black Rose role cards (``investigator``: a real one, not possessed).
ROLES: tuple[str, ...] = ("investigator", "possessed", "rector")

#: Documented goal-card conditions (Black Rose) and the kind of their value.
CONDITIONS: dict[str, str] = {"innocent_dead_at_least": "count"}


@dataclass(frozen=True)
class Field:
    """One key of a header or event.

    ``differs_from``: another key whose value this one must differ from.
    ``only_when``: ``(key, value)``; this key is allowed only when ``key`` has ``value``.
    ``observer_only``: allowed only when the log has an observer (``me`` is not null).
    """

    name: str
    kind: str
    required: bool = True
    differs_from: str | None = None
    only_when: tuple[str, Any] | None = None
    observer_only: bool = False


def req(name: str, kind: str, **rules: Any) -> Field:
    """Build a required field."""
    return Field(name, kind, True, **rules)


def opt(name: str, kind: str, **rules: Any) -> Field:
    """Build an optional field."""
    return Field(name, kind, False, **rules)


@dataclass(frozen=True)
class EventSchema:
    """An event type: its fields in canonical order and its cross-key rules.

    ``exactly_one``: keys of which exactly one must be present (may be empty).
    """

    type: str
    fields: tuple[Field, ...]
    exactly_one: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        """Return every allowed key in canonical order: ``type`` first, ``note`` last."""
        return ("type", *(f.name for f in self.fields), "note")


def _events(*schemas: EventSchema) -> dict[str, EventSchema]:
    return {s.type: s for s in schemas}


#: Event types per game, in the order the log format documents them.
EVENTS: dict[str, dict[str, EventSchema]] = {
    "abbey": _events(
        EventSchema("hand", (req("player", "player"), req("cards", "cards"))),
        EventSchema("has", (req("player", "player"), req("card", "card"))),
        EventSchema("lacks", (req("player", "player"), req("card", "card"))),
        EventSchema("count", (req("player", "player"), req("traits", "traits"), req("n", "count"))),
        EventSchema(
            "show",
            (
                req("player", "player"),
                req("to", "player", differs_from="player"),
                opt("card", "card"),
                opt("traits", "traits"),
            ),
            exactly_one=("card", "traits"),
        ),
        EventSchema("draw", (req("player", "player"), opt("card", "card"))),
        EventSchema(
            "take",
            (
                req("player", "player"),
                req("from", "player", differs_from="player"),
                opt("card", "card"),
            ),
        ),
        EventSchema(
            "mass",
            (
                req("n", "positive"),
                opt("gave", "cards", observer_only=True),
                opt("got", "cards", observer_only=True),
            ),
        ),
        EventSchema(
            "accuse",
            (
                req("player", "player"),
                req("card", "card"),
                req("correct", "bool"),
                opt("shown_by", "player", only_when=("correct", False)),
            ),
        ),
        EventSchema("culprit", (req("card", "card"),)),
    ),
    "rose": _events(
        EventSchema("identity", (req("player", "player"), req("colour", "colour"))),
        EventSchema("reveal", (req("player", "player"), req("colour", "colour"))),
        EventSchema(
            "guess",
            (
                req("player", "player"),
                req("of", "player", differs_from="player"),
                req("colour", "colour"),
            ),
        ),
        EventSchema(
            "points",
            (
                req("player", "player"),
                req("monk", "colour"),
                req("track", "track"),
                req("n", "nonzero"),
                req("cause", "cause"),
            ),
        ),
    ),
    "blackrose": _events(
        EventSchema("role", (req("player", "player"), req("role", "role"))),
        EventSchema("proof", (req("suspect", "suspect"), opt("player", "player"))),
        EventSchema("accuse", (req("suspects", "suspect_pair"), req("correct", "bool"))),
        EventSchema("kill", (req("suspect", "suspect"),)),
        EventSchema("goal", (req("card", "id"), req("condition", "condition"))),
        EventSchema(
            "claim", (req("player", "player"), req("suspect", "suspect"), req("innocent", "bool"))
        ),
    ),
}

#: Event types that are soft (behaviour) evidence, ignored by ``solve --hard``.
SOFT_EVENTS: dict[str, tuple[str, ...]] = {
    "abbey": (),
    "rose": ("points",),
    "blackrose": ("claim",),
}

#: Header keys every game has, in canonical order (``note`` comes after the extras).
HEADER_BASE: tuple[Field, ...] = (
    req("game", "game"),
    opt("version", "version"),
    req("players", "players"),
    req("me", "observer"),
)

#: Game-specific header keys, in canonical order.
HEADER_EXTRAS: dict[str, tuple[Field, ...]] = {
    "abbey": (opt("deck", "deck"), opt("pile", "count"), opt("hand", "count")),
    "rose": (),
    "blackrose": (req("rector", "player"), opt("suspects", "suspect_ids")),
}

#: Allowed numbers of players, where the game fixes them (abbey: by deck and sizes).
PLAYER_RANGE: dict[str, tuple[int, int]] = {"rose": (2, 5), "blackrose": (3, 5)}
#: Words that cannot be player names because the output uses them beside the players:
#: the Abbey's holders of cards, the Black Rose's "none" (no Possessed investigator).
RESERVED_NAMES: dict[str, tuple[str, ...]] = {"abbey": ("culprit", "pile"), "blackrose": ("none",)}


def header_fields(game: str) -> tuple[Field, ...]:
    """Return the header fields of ``game`` in canonical order (without ``note``)."""
    return HEADER_BASE + HEADER_EXTRAS[game]


def event_types(game: str) -> tuple[str, ...]:
    """Return the event types of ``game`` in documented order."""
    return tuple(EVENTS[game])


def event_schema(game: str, type_: str) -> EventSchema | None:
    """Return the schema of one event type, or None if ``game`` has no such type."""
    return EVENTS[game].get(type_)
