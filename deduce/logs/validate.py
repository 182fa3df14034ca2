"""Turn raw JSON-like values into a checked ``Header`` and ``Event`` objects.

Both syntaxes build the raw dicts that ``json.loads`` would give for the
canonical JSON Lines and hand them to ``build_log``, so a log is accepted or
refused identically whichever syntax it is written in. Every problem raises
``LogError(path, line, message)`` with a one-line message naming the key and
value; nothing else escapes.

The checks follow ``deduce.logs.schema``: one checker per value kind
(``KINDS``), then the cross-key rules of the event type.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, NoReturn

from deduce.errors import LogError
from deduce.logs.model import Event, GameLog, Header
from deduce.logs.schema import (
    CAUSES,
    COLOURS,
    CONDITIONS,
    GAMES,
    HEADER_EXTRAS,
    PLAYER_RANGE,
    RESERVED_NAMES,
    ROLES,
    TRACKS,
    EventSchema,
    event_schema,
    event_types,
    header_fields,
)
from deduce.logs.vocabulary.abbey import (
    ID_PATTERN,
    Deck,
    deck_from_json,
    parse_traits,
    setup_from_header,
)
from deduce.logs.vocabulary.blackrose import SUSPECT_COUNT, suspects_of

#: Longest accepted physical line, in bytes of UTF-8.
MAX_LINE_BYTES = 1 << 20
#: Most events a log may hold: a whole game has a few hundred, so more is not a game log
#: (and would only make every command slow).
MAX_EVENTS = 10_000
#: Most players a header may name (every game's rules allow at most 6).
MAX_PLAYERS = 12


class RawRow(NamedTuple):
    """One header or event as raw JSON-like data, with the line it came from.

    ``key_lines`` optionally gives a different line per key (the line syntax
    spreads the header over several lines).
    """

    line: int
    raw: Any
    key_lines: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Scope:
    """The facts of one log that its values are checked against."""

    path: str
    game: str
    players: tuple[str, ...] = ()
    me: str | None = None
    deck: Deck | None = None
    suspects: tuple[str, ...] = ()

    def fail(self, line: int | None, message: str) -> NoReturn:
        """Raise the ``LogError`` for ``message`` at ``line`` of this log."""
        raise LogError(self.path, line, message)


# --------------------------------------------------------------------------
# Physical lines


def physical_lines(text: str, path: str) -> Iterator[tuple[int, str]]:
    """Yield ``(number, line)`` for every physical line, 1-based, checking lengths.

    A leading byte order mark and a carriage return before each newline are dropped.
    """
    text = text.removeprefix("\ufeff")
    for number, line in enumerate(text.split("\n"), 1):
        check_line_length(line, path, number)
        yield number, line.removesuffix("\r")


def check_line_length(line: str, path: str, number: int) -> None:
    """Raise if ``line`` is longer than ``MAX_LINE_BYTES`` bytes of UTF-8."""
    size = len(line)
    if size > MAX_LINE_BYTES or (
        size * 4 > MAX_LINE_BYTES and len(line.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES
    ):
        raise LogError(path, number, "line is longer than 1 MiB: not a log line")


# --------------------------------------------------------------------------
# Showing values in messages


def show(value: Any) -> str:
    """Return a short one-line rendering of a raw value for an error message."""
    if isinstance(value, str) and len(value) <= 40 and value.isprintable():
        return f"'{value}'"
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _json_type(value: Any) -> str:
    names = {
        dict: "an object",
        list: "a list",
        tuple: "a list",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
    }
    return names.get(type(value), "null" if value is None else type(value).__name__)


def _where(key: str, noun: str) -> str:
    return "" if key == noun else f" in {key!r}"


# --------------------------------------------------------------------------
# Value checkers, one per kind: (value, key, scope, line) -> checked value


#: How alike a typo and a listed word must be to suggest it (``bobb``: ``bob``; not
#: ``eve``: ``dee``).
NEAR = 0.75


def _member(
    value: Any,
    key: str,
    scope: Scope,
    line: int,
    noun: str,
    choices: Sequence[str],
    listed: bool = True,
) -> str:
    """Check that ``value`` is one of ``choices``; the message lists them or suggests one."""
    if isinstance(value, str) and value in choices:
        return value
    if not isinstance(value, str):
        scope.fail(line, f"{key!r} must be a {noun} id (a string), got {show(value)}")
    close = difflib.get_close_matches(value, choices, n=1)
    if listed:  # a short list is shown whole; a near miss is named first
        near = difflib.get_close_matches(value, choices, n=1, cutoff=NEAR)
        guess = f"did you mean '{near[0]}'? " if near else ""
        hint = f"{guess}{noun}s: {', '.join(choices)}"
    else:
        hint = f"did you mean '{close[0]}'?" if close else f"not one of the {len(choices)} {noun}s"
    scope.fail(line, f"unknown {noun} {show(value)}{_where(key, noun)} ({hint})")


def _id(value: Any, key: str, scope: Scope, line: int) -> str:
    if isinstance(value, str) and ID_PATTERN.match(value):
        return value
    scope.fail(
        line,
        f"{key!r}: {show(value)} is not an id (lowercase letters, digits, "
        "'_' and '-', starting with a letter or digit)",
    )


def _distinct_list(
    value: Any,
    key: str,
    scope: Scope,
    line: int,
    item: Callable[[Any], Any],
    size: int | None = None,
    nonempty: bool = False,
) -> tuple[Any, ...]:
    """Check a list of distinct strings, each checked by ``item``; return it as a tuple."""
    if not isinstance(value, (list, tuple)):
        scope.fail(line, f"{key!r} must be a list, got {show(value)}")
    if size is not None and len(value) != size:
        scope.fail(line, f"{key!r} must list exactly {size} ids, got {len(value)}")
    if nonempty and not value:
        scope.fail(line, f"{key!r} must not be empty")
    seen: set[str] = set()
    for entry in value:
        item(entry)
        if entry in seen:
            scope.fail(line, f"{key!r} lists {show(entry)} twice")
        seen.add(entry)
    return tuple(value)


def _int(value: Any, key: str, scope: Scope, line: int, least: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= least:
        return value
    scope.fail(line, f"{key!r} must be an integer >= {least}, got {show(value)}")


def _nonzero(value: Any, key: str, scope: Scope, line: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value != 0:
        return value
    scope.fail(line, f"{key!r} must be a non-zero integer, got {show(value)}")


def _bool(value: Any, key: str, scope: Scope, line: int) -> bool:
    if isinstance(value, bool):
        return value
    scope.fail(line, f"{key!r} must be true or false, got {show(value)}")


def _game(value: Any, key: str, scope: Scope, line: int) -> str:
    return _member(value, key, scope, line, "game", GAMES)


def _version(value: Any, key: str, scope: Scope, line: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value == 1:
        return value
    scope.fail(line, f"unsupported version {show(value)} (this reader knows version 1)")


def _players(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    return _distinct_list(
        value, key, scope, line, lambda v: _id(v, "players", scope, line), nonempty=True
    )


def _observer(value: Any, key: str, scope: Scope, line: int) -> str | None:
    if value is None:
        return None
    return _member(value, key, scope, line, "player", scope.players)


def _player(value: Any, key: str, scope: Scope, line: int) -> str:
    return _member(value, key, scope, line, "player", scope.players)


def _card_ids(scope: Scope) -> tuple[str, ...]:
    return scope.deck.ids if scope.deck is not None else ()


def _card(value: Any, key: str, scope: Scope, line: int) -> str:
    return _member(value, key, scope, line, "card", _card_ids(scope), listed=False)


def _cards(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    return _distinct_list(value, key, scope, line, lambda v: _card(v, key, scope, line))


def _traits(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    return parse_traits(value, (scope.path, line), repr(key))


def _suspect(value: Any, key: str, scope: Scope, line: int) -> str:
    return _member(value, key, scope, line, "suspect", scope.suspects)


def _suspect_pair(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    return _distinct_list(value, key, scope, line, lambda v: _suspect(v, key, scope, line), size=2)


def _suspect_ids(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    return _distinct_list(
        value, key, scope, line, lambda v: _id(v, key, scope, line), size=SUSPECT_COUNT
    )


def _condition(value: Any, key: str, scope: Scope, line: int) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) != 1:
        scope.fail(
            line,
            f"{key!r} must be an object with one key "
            f"(conditions: {', '.join(CONDITIONS)}), got {show(value)}",
        )
    ((name, arg),) = value.items()
    if name not in CONDITIONS:
        scope.fail(line, f"unknown condition {show(name)} (conditions: {', '.join(CONDITIONS)})")
    return {name: KINDS[CONDITIONS[name]](arg, name, scope, line)}


def _deck(value: Any, key: str, scope: Scope, line: int) -> str | tuple[dict[str, Any], ...]:
    if value == "default":
        return "default"
    if not isinstance(value, (list, tuple)):
        scope.fail(line, f"'deck' must be \"default\" or a list of cards, got {show(value)}")
    deck = deck_from_json(list(value), scope.path, line)
    for card in deck.cards:
        check_text(card.name, f"deck card {card.id!r} name", scope, line)
    return tuple({**card, "traits": tuple(card["traits"])} for card in deck.to_json())


def _choice(noun: str, choices: Sequence[str]) -> Callable[[Any, str, Scope, int], str]:
    def check(value: Any, key: str, scope: Scope, line: int) -> str:
        return _member(value, key, scope, line, noun, choices)

    return check


#: One checker per value kind (see ``deduce.logs.schema``).
KINDS: dict[str, Callable[[Any, str, Scope, int], Any]] = {
    "game": _game,
    "version": _version,
    "players": _players,
    "observer": _observer,
    "player": _player,
    "card": _card,
    "cards": _cards,
    "traits": _traits,
    "count": lambda v, k, s, n: _int(v, k, s, n, 0),
    "positive": lambda v, k, s, n: _int(v, k, s, n, 1),
    "nonzero": _nonzero,
    "bool": _bool,
    "colour": _choice("colour", COLOURS),
    "role": _choice("role", ROLES),
    "track": _choice("track", TRACKS),
    "cause": _choice("cause", CAUSES),
    "suspect": _suspect,
    "suspect_pair": _suspect_pair,
    "suspect_ids": _suspect_ids,
    "id": _id,
    "condition": _condition,
    "deck": _deck,
}


def check_text(value: str, key: str, scope: Scope, line: int) -> str:
    """Check that a string can be written as UTF-8 (no lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        scope.fail(line, f"{key} contains a lone surrogate (an invalid \\u escape)")
    return value


def _note(raw: Mapping[str, Any], scope: Scope, line: int) -> str | None:
    if "note" not in raw:
        return None
    if not isinstance(raw["note"], str):
        scope.fail(line, f"'note' must be a string, got {show(raw['note'])}")
    return check_text(raw["note"], "'note'", scope, line)


def _object(raw: Any, scope: Scope, line: int) -> dict[str, Any]:
    if not isinstance(raw, dict):
        scope.fail(line, f"expected a JSON object, got {_json_type(raw)}")
    return raw


def _check_keys(
    raw: Mapping[str, Any], allowed: Sequence[str], what: str, scope: Scope, line: int
) -> None:
    for key in raw:
        if key not in allowed:
            scope.fail(line, f"unknown key {show(key)} in {what} (keys: {', '.join(allowed)})")


# --------------------------------------------------------------------------
# Header


def validate_header(
    raw: Any,
    path: str,
    line: int,
    deck: Deck | None = None,
    key_lines: Mapping[str, int] | None = None,
) -> tuple[Header, Scope]:
    """Check a raw header and return it with the scope its events are checked in.

    ``deck`` (from ``--deck``) replaces the default abbey deck. ``key_lines``
    gives the line of each key when the header spans several lines.
    """
    at = dict(key_lines or {})
    scope = Scope(path, "")
    raw = _object(raw, scope, line)
    scope = replace(scope, game=_header_game(raw, scope, line, at))
    values, scope = _header_values(raw, scope, line, at)
    header = Header(
        game=scope.game,
        players=values["players"],
        me=values["me"],
        version=values.get("version", 1),
        extra={f.name: values[f.name] for f in HEADER_EXTRAS[scope.game] if f.name in values},
        note=_note(raw, scope, line),
        line=line,
    )
    _check_player_count(header, scope, at.get("players", line))
    _check_reserved(header, scope, at.get("players", line))
    finish = _FINISH.get(header.game, _finish_plain)
    return header, finish(header, replace(scope, me=header.me), deck)


def _header_game(raw: Mapping[str, Any], scope: Scope, line: int, at: Mapping[str, int]) -> str:
    """Return the checked game of a header, refusing an event in the header's place."""
    if "game" not in raw:
        if "type" in raw:
            scope.fail(
                line,
                f"the log must start with its header, not a {show(raw['type'])} "
                "event (the header has a 'game' key)",
            )
        scope.fail(line, "the header needs 'game'")
    return _game(raw["game"], "game", scope, at.get("game", line))


def _header_values(
    raw: Mapping[str, Any], scope: Scope, line: int, at: Mapping[str, int]
) -> tuple[dict[str, Any], Scope]:
    """Check the keys of a header in canonical order; return them and the scope with players."""
    fields = header_fields(scope.game)
    _check_keys(raw, (*(f.name for f in fields), "note"), f"the {scope.game} header", scope, line)
    for field in fields:
        if field.required and field.name not in raw:
            scope.fail(line, f"the header needs {field.name!r}{_HEADER_HINTS.get(field.name, '')}")
    values: dict[str, Any] = {}
    for field in fields:
        if field.name in raw:
            where = at.get(field.name, line)
            values[field.name] = KINDS[field.kind](raw[field.name], field.name, scope, where)
            if field.kind == "players":
                scope = replace(scope, players=values["players"])
    return values, scope


_HEADER_HINTS = {"me": " (the observer's player id, or null for a spectator)"}


def _check_player_count(header: Header, scope: Scope, line: int) -> None:
    low, high = PLAYER_RANGE.get(header.game, (1, MAX_PLAYERS))
    if not low <= len(header.players) <= high:
        scope.fail(
            line, f"a {header.game} game needs {low} to {high} players, got {len(header.players)}"
        )


def _check_reserved(header: Header, scope: Scope, line: int) -> None:
    reserved = [p for p in header.players if p in RESERVED_NAMES.get(header.game, ())]
    if reserved:
        scope.fail(
            line,
            f"{reserved[0]!r} cannot be a player's name in {header.game} logs: "
            "the output uses it beside the players",
        )


def _finish_plain(header: Header, scope: Scope, deck: Deck | None) -> Scope:
    return scope


def _finish_abbey(header: Header, scope: Scope, deck: Deck | None) -> Scope:
    setup = setup_from_header(header, scope.path, deck)
    return replace(scope, deck=setup.deck)


def _finish_blackrose(header: Header, scope: Scope, deck: Deck | None) -> Scope:
    return replace(scope, suspects=suspects_of(header))


_FINISH = {"abbey": _finish_abbey, "blackrose": _finish_blackrose}


# --------------------------------------------------------------------------
# Events


def check_event_type(raw_type: Any, game: str, path: str, line: int) -> EventSchema:
    """Return the schema of event type ``raw_type`` in ``game``, or raise naming the types."""
    if not isinstance(raw_type, str):
        raise LogError(path, line, f"'type' must be a string, got {show(raw_type)}")
    schema = event_schema(game, raw_type)
    if schema is None:
        raise LogError(
            path,
            line,
            f"unknown event type {show(raw_type)} for {game} "
            f"(types: {', '.join(event_types(game))})",
        )
    return schema


def validate_event(raw: Any, scope: Scope, line: int) -> Event:
    """Check one raw event against its schema and return it as an ``Event``."""
    raw = _object(raw, scope, line)
    if "type" not in raw:
        again = " (a log has one header, on its first line)" if "game" in raw else ""
        scope.fail(line, f"an event needs a 'type' key{again}")
    schema = check_event_type(raw["type"], scope.game, scope.path, line)
    _check_keys(raw, schema.keys, f"a {schema.type} event", scope, line)
    fields: dict[str, Any] = {}
    for field in schema.fields:
        if field.name in raw:
            fields[field.name] = KINDS[field.kind](raw[field.name], field.name, scope, line)
        elif field.required:
            scope.fail(line, f"a {schema.type} event needs {field.name!r}")
    _check_rules(schema, fields, scope, line)
    return Event(schema.type, fields, line, _note(raw, scope, line))


def _check_rules(schema: EventSchema, fields: Mapping[str, Any], scope: Scope, line: int) -> None:
    """Apply the cross-key rules of ``schema`` to checked ``fields``."""
    for field in schema.fields:
        if field.name not in fields:
            continue
        value = fields[field.name]
        other = field.differs_from
        if other is not None and fields.get(other) == value:
            scope.fail(
                line,
                f"{field.name!r} must be a different player from {other!r} (both {show(value)})",
            )
        if field.only_when is not None and fields.get(field.only_when[0]) != field.only_when[1]:
            key, wanted = field.only_when
            scope.fail(line, f"{field.name!r} is only allowed when {key!r} is {json.dumps(wanted)}")
        if field.observer_only and scope.me is None:
            scope.fail(
                line, f"{field.name!r} needs an observer, and this log has none ('me' is null)"
            )
    if schema.exactly_one:
        present = [k for k in schema.exactly_one if k in fields]
        if len(present) != 1:
            keys = " or ".join(repr(k) for k in schema.exactly_one)
            scope.fail(
                line, f"a {schema.type} event needs exactly one of {keys} (got {len(present)})"
            )


# --------------------------------------------------------------------------
# Whole logs


def build_log(rows: Iterable[RawRow], path: str, deck: Deck | None = None) -> GameLog:
    """Check raw rows (the header first, then events, lazily) and build the ``GameLog``."""
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        raise LogError(path, 1, "empty log: no header")
    header, scope = validate_header(first.raw, path, first.line, deck, first.key_lines)
    events: list[Event] = []
    for row in rows:
        if len(events) == MAX_EVENTS:
            raise LogError(path, row.line, f"more than {MAX_EVENTS:,} events: not a game log")
        events.append(validate_event(row.raw, scope, row.line))
    return GameLog(header, tuple(events), path)
