"""What a log may contain: the shape of a game's log format, as data.

Each game's format module (:mod:`deduce.logs.formats`) describes its log
with one :class:`LogFormat`: its event types, its header keys, the words of
its line syntax, which events are soft evidence, how many players it takes
and which names they cannot have. The reader, the writer and the checks of
:mod:`deduce.logs` are loops over these values and name no game.

Every key has a *kind* naming how its value is checked: :mod:`deduce.logs.kinds`
has the kinds every game uses, and a format adds its own:

===============  ===========================================================
kind             value
===============  ===========================================================
``game``         one of the games of :mod:`deduce.logs.formats`
``version``      the int 1
``players``      a non-empty list of distinct ids, in turn order
``observer``     a player id or null
``player``       a player id of the header
``count``        an int >= 0
``positive``     an int >= 1
``nonzero``      an int other than 0
``bool``         true or false
``id``           any lowercase id
===============  ===========================================================

A new event type is one more entry in a format's ``events`` (plus its line
syntax in its ``grammar``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from deduce.logs.grammar import Element, HeaderWord
from deduce.logs.kinds import Checker, Scope
from deduce.logs.model import Header


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


def events(*schemas: EventSchema) -> dict[str, EventSchema]:
    """Event types by name, in the order given (the order the log format documents)."""
    return {s.type: s for s in schemas}


#: Header keys every game has, in canonical order (``note`` comes after the game's keys).
HEADER_BASE: tuple[Field, ...] = (
    req("game", "game"),
    opt("version", "version"),
    req("players", "players"),
    req("me", "observer"),
)

#: The line syntax's words for the header keys every game has.
HEADER_BASE_WORDS: dict[str, HeaderWord] = {
    "game": HeaderWord("game"),
    "version": HeaderWord("version", "number"),
    "players": HeaderWord("players", "list"),
    "me": HeaderWord("me"),
    "spectator": HeaderWord("me", "none"),
}

#: Most players a header may name when a game does not say (every game allows at most 6).
MAX_PLAYERS = 12

#: A format's last header check: ``(header, scope, supplied) -> scope`` with what the
#: events are checked against (``supplied``: data the user gave in place of a default,
#: the Abbey's ``--deck``).
Finish = Callable[[Header, Scope, object], Scope]


def _finish_plain(header: Header, scope: Scope, supplied: object) -> Scope:
    return scope


@dataclass(frozen=True)
class LogFormat:
    """Everything the log format says about one game.

    ``header``: the game's own header keys, in canonical order, and
    ``header_words`` their line-syntax words. ``events`` and ``grammar``: its
    event types and their line syntax. ``kinds``: the value kinds only this
    game uses. ``soft_events``: the types ``--hard`` ignores. ``players``:
    the allowed numbers of players. ``reserved_names``: words the output uses
    beside the players, so no player may have them. ``finish``: the last
    header check, which also tells the events' scope the ids the header
    makes known.
    """

    game: str
    events: Mapping[str, EventSchema]
    grammar: Mapping[str, tuple[Element, ...]]
    header: tuple[Field, ...] = ()
    header_words: Mapping[str, HeaderWord] = field(default_factory=dict)
    kinds: Mapping[str, Checker] = field(default_factory=dict)
    soft_events: tuple[str, ...] = ()
    players: tuple[int, int] = (1, MAX_PLAYERS)
    reserved_names: tuple[str, ...] = ()
    finish: Finish = _finish_plain

    @property
    def header_fields(self) -> tuple[Field, ...]:
        """Every header field in canonical order (without ``note``)."""
        return HEADER_BASE + self.header

    @property
    def event_types(self) -> tuple[str, ...]:
        """The event types in documented order."""
        return tuple(self.events)
