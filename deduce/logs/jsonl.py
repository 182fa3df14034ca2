"""The canonical JSON Lines syntax of a log (log format version 1).

One JSON object per line, UTF-8, the header on the first non-blank line, blank
lines allowed and nothing else. Reading refuses duplicate keys, ``NaN`` and
``Infinity``. Writing is canonical and stable: keys in schema order (``type``
first, ``note`` last), ``", "`` and ``": "`` separators, non-ASCII text kept as
is (but U+0085, U+2028 and U+2029 escaped), one trailing newline; reading
canonical text and writing it again gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deduce.errors import LogError
from deduce.logs.canonical import dump_object
from deduce.logs.formats import event_schema, format_of
from deduce.logs.kinds import show
from deduce.logs.model import Event, GameLog, Header
from deduce.logs.validate import RawRow, build_log, physical_lines


class _Refused(ValueError):
    """A JSON construct that is valid for ``json`` but not in a log."""


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _Refused(f"duplicate key {show(key)}")
        obj[key] = value
    return obj


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not allowed")


def decode_line(line: str, path: str, number: int) -> Any:
    """Parse one physical line as JSON, turning every failure into a ``LogError``."""
    try:
        return json.loads(line, object_pairs_hook=_object_pairs, parse_constant=_constant)
    except _Refused as exc:
        raise LogError(path, number, f"malformed JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        raise LogError(path, number, f"malformed JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise LogError(path, number, "malformed JSON: nested too deeply") from None
    except ValueError:
        raise LogError(path, number, "malformed JSON: a number has too many digits") from None


def parse_jsonl(text: str, path: str, supplied: object = None) -> GameLog:
    """Parse a whole log in JSON Lines.

    ``supplied``: data the user gave in place of the game's default (the Abbey's
    ``--deck``, which replaces the default deck).
    """
    rows = (
        RawRow(number, decode_line(line, path, number))
        for number, line in physical_lines(text, path)
        if line.strip()
    )
    return build_log(rows, path, supplied)


def _ordered(values: Mapping[str, Any], keys: tuple[str, ...], what: str) -> dict[str, Any]:
    unknown = [k for k in values if k not in keys]
    if unknown:
        raise ValueError(f"{what} has no key {unknown[0]!r} (keys: {', '.join(keys)})")
    return {k: values[k] for k in keys if k in values}


def header_to_json(header: Header) -> dict[str, Any]:
    """Return the header as its canonical JSON object (keys in canonical order)."""
    extras = tuple(f.name for f in format_of(header.game).header)
    obj: dict[str, Any] = {
        "game": header.game,
        "version": header.version,
        "players": list(header.players),
        "me": header.me,
    }
    obj.update(_ordered(header.extra, extras, f"a {header.game} header"))
    if header.note is not None:
        obj["note"] = header.note
    return obj


def event_to_json(event: Event, game: str) -> dict[str, Any]:
    """Return an event of ``game`` as its canonical JSON object (keys in schema order)."""
    schema = event_schema(game, event.type)
    if schema is None:
        raise ValueError(f"{game} has no event type {event.type!r}")
    obj: dict[str, Any] = {"type": event.type}
    obj.update(_ordered(event.fields, schema.keys[1:-1], f"a {event.type} event"))
    if event.note is not None:
        obj["note"] = event.note
    return obj


def format_jsonl(log: GameLog) -> str:
    """Return the canonical JSON Lines text of ``log``, ending with a newline."""
    lines = [dump_object(header_to_json(log.header))]
    lines += [dump_object(event_to_json(e, log.header.game)) for e in log.events]
    return "\n".join(lines) + "\n"


def canonical_text(
    header: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    path: str,
    supplied: object = None,
) -> str:
    """A log built from raw dicts, checked by the reader and written canonically.

    The engines write every player's log through this, so a simulated log is
    refused exactly as a user's would be. ``supplied``: as for :func:`parse_jsonl`.
    """
    text = "\n".join(dump_object(e) for e in [header, *events]) + "\n"
    return format_jsonl(parse_jsonl(text, path, supplied))
