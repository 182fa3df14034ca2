"""Turn raw JSON-like values into a checked ``Header`` and ``Event`` objects.

Both syntaxes build the raw dicts that ``json.loads`` would give for the
canonical JSON Lines and hand them to ``build_log``, so a log is accepted or
refused identically whichever syntax it is written in. Every problem raises
``LogError(path, line, message)`` with a one-line message naming the key and
value; nothing else escapes.

The checks follow the game's :class:`~deduce.logs.schema.LogFormat`: one
checker per value kind (:mod:`deduce.logs.kinds` and the format's own),
then the cross-key rules of the event type.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from deduce.errors import LogError
from deduce.logs.formats import event_types, format_of, games
from deduce.logs.kinds import KINDS, Checker, Scope, check_text, member, show
from deduce.logs.model import Event, GameLog, Header
from deduce.logs.schema import EventSchema, LogFormat

#: Longest accepted physical line, in bytes of UTF-8.
MAX_LINE_BYTES = 1 << 20
#: Most events a log may hold: a whole game has a few hundred, so more is not a game log
#: (and would only make every command slow).
MAX_EVENTS = 10_000


class RawRow(NamedTuple):
    """One header or event as raw JSON-like data, with the line it came from.

    ``key_lines`` optionally gives a different line per key (the line syntax
    spreads the header over several lines).
    """

    line: int
    raw: Any
    key_lines: Mapping[str, int] | None = None


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
# Value kinds: those of every game, the game's own, and ``game``


def _game(value: Any, key: str, scope: Scope, line: int) -> str:
    return member(value, key, scope, line, "game", games())


def _kind(form: LogFormat | None, kind: str) -> Checker:
    """The checker of ``kind`` in a log of ``form`` (None: the header's ``game`` key only)."""
    if kind == "game":
        return _game
    return KINDS[kind] if form is None or kind not in form.kinds else form.kinds[kind]


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
    supplied: object = None,
    key_lines: Mapping[str, int] | None = None,
) -> tuple[Header, Scope]:
    """Check a raw header and return it with the scope its events are checked in.

    ``supplied``: data the user gave in place of the game's default, which
    the game's format resolves (the Abbey's ``--deck``). ``key_lines`` gives
    the line of each key when the header spans several lines.
    """
    at = dict(key_lines or {})
    scope = Scope(path, "")
    raw = _object(raw, scope, line)
    scope = replace(scope, game=_header_game(raw, scope, line, at))
    form = format_of(scope.game)
    values, scope = _header_values(raw, form, scope, line, at)
    header = Header(
        game=scope.game,
        players=values["players"],
        me=values["me"],
        version=values.get("version", 1),
        extra={f.name: values[f.name] for f in form.header if f.name in values},
        note=_note(raw, scope, line),
        line=line,
    )
    _check_player_count(header, form, scope, at.get("players", line))
    _check_reserved(header, form, scope, at.get("players", line))
    return header, form.finish(header, replace(scope, me=header.me), supplied)


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
    raw: Mapping[str, Any], form: LogFormat, scope: Scope, line: int, at: Mapping[str, int]
) -> tuple[dict[str, Any], Scope]:
    """Check the keys of a header in canonical order; return them and the scope with players."""
    fields = form.header_fields
    _check_keys(raw, (*(f.name for f in fields), "note"), f"the {scope.game} header", scope, line)
    for field in fields:
        if field.required and field.name not in raw:
            scope.fail(line, f"the header needs {field.name!r}{_HEADER_HINTS.get(field.name, '')}")
    values: dict[str, Any] = {}
    for field in fields:
        if field.name in raw:
            where = at.get(field.name, line)
            values[field.name] = _kind(form, field.kind)(raw[field.name], field.name, scope, where)
            if field.kind == "players":
                scope = replace(scope, players=values["players"])
    return values, scope


_HEADER_HINTS = {"me": " (the observer's player id, or null for a spectator)"}


def _check_player_count(header: Header, form: LogFormat, scope: Scope, line: int) -> None:
    low, high = form.players
    if not low <= len(header.players) <= high:
        scope.fail(
            line, f"a {header.game} game needs {low} to {high} players, got {len(header.players)}"
        )


def _check_reserved(header: Header, form: LogFormat, scope: Scope, line: int) -> None:
    reserved = [p for p in header.players if p in form.reserved_names]
    if reserved:
        scope.fail(
            line,
            f"{reserved[0]!r} cannot be a player's name in {header.game} logs: "
            "the output uses it beside the players",
        )


# --------------------------------------------------------------------------
# Events


def check_event_type(raw_type: Any, game: str, path: str, line: int) -> EventSchema:
    """Return the schema of event type ``raw_type`` in ``game``, or raise naming the types."""
    if not isinstance(raw_type, str):
        raise LogError(path, line, f"'type' must be a string, got {show(raw_type)}")
    schema = format_of(game).events.get(raw_type)
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
    form = format_of(scope.game)
    fields: dict[str, Any] = {}
    for field in schema.fields:
        if field.name in raw:
            fields[field.name] = _kind(form, field.kind)(raw[field.name], field.name, scope, line)
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


def build_log(rows: Iterable[RawRow], path: str, supplied: object = None) -> GameLog:
    """Check raw rows (the header first, then events, lazily) and build the ``GameLog``."""
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        raise LogError(path, 1, "empty log: no header")
    header, scope = validate_header(first.raw, path, first.line, supplied, first.key_lines)
    events: list[Event] = []
    for row in rows:
        if len(events) == MAX_EVENTS:
            raise LogError(path, row.line, f"more than {MAX_EVENTS:,} events: not a game log")
        events.append(validate_event(row.raw, scope, row.line))
    return GameLog(header, tuple(events), path)
