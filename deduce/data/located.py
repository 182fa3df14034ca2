"""Data files whose problems are reported with their line: the path to a problem, found again.

A data file's checker raises :class:`Invalid` with *where* the problem is, as
the keys and indexes from the top of the file (``("cards", 3)``).
:func:`load_data` reads a user's file and turns that into a one-line
``LogError`` naming the file and the line where the innermost object or
list on that path starts; the file is parsed a second time, with lines
kept, only when there is a problem. :func:`parse_data` does the same for data
already in memory (no lines to name).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from json.decoder import JSONArray, JSONObject  # type: ignore[attr-defined]  # not in typeshed
from json.scanner import py_make_scanner  # type: ignore[attr-defined]  # not in typeshed
from typing import Any, TypeVar

from deduce.data import decode_json, read_json_file, read_json_text
from deduce.errors import LogError

#: Keys and indexes from the top of a JSON document to one value.
Where = tuple[str | int, ...]
T = TypeVar("T")


class Invalid(Exception):
    """A problem in a data file: where it is (keys from the top) and what it is."""

    def __init__(self, where: Where, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def finite_number(value: Any) -> bool:
    """Whether ``value`` is a finite JSON number (not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def check_top(raw: Any, keys: tuple[str, ...], what: str) -> dict[str, Any]:
    """The file's top object: exactly ``keys`` and an optional string ``note``."""
    if not isinstance(raw, dict):
        raise Invalid((), f"a {what} must be an object with {', '.join(keys)}")
    unknown = sorted(set(raw) - {"note", *keys})
    if unknown:
        raise Invalid((), f"unknown key {unknown[0]!r} in {what}")
    missing = [k for k in keys if k not in raw]
    if missing:
        raise Invalid((), f"{what} has no {missing[0]!r}")
    if not isinstance(raw.get("note", ""), str):
        raise Invalid((), "'note' must be a string")
    return raw


def parse_data(parse: Callable[[Any], T], raw: Any, path: str) -> T:
    """``parse(raw)``; an :class:`Invalid` becomes ``LogError(path, None, message)``."""
    try:
        return parse(raw)
    except Invalid as exc:
        raise LogError(path, None, exc.message) from None


def load_data(parse: Callable[[Any], T], path: str, what: str) -> T:
    """Read the user's JSON file and ``parse`` it; problems name the file and, if known, the line.

    ``what`` names the kind of file in messages (``"rose data file"``...).
    """
    return parse_file(parse, read_json_file(path, what), path)


def parse_file(parse: Callable[[Any], T], raw: Any, path: str) -> T:
    """``parse(raw)``, ``raw`` read from the user's file ``path``: problems name file and line."""
    try:
        return parse(raw)
    except Invalid as exc:
        raise LogError(path, _line_of(path, exc.where), exc.message) from None


class _Dict(dict[str, Any]):
    """A JSON object that knows the line it starts on."""

    line = 0


class _List(list[Any]):
    """A JSON array that knows the line it starts on."""

    line = 0


def _located(text: str) -> Any:
    """Parse JSON text into dicts and lists that carry the line they start on."""

    def at(node: Any, text: str, start: int) -> Any:
        node.line = text.count("\n", 0, start) + 1
        return node

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> tuple[Any, int]:
        value, end = JSONObject(s_and_end, *args)
        return at(_Dict(value), *s_and_end), end

    def parse_array(s_and_end: tuple[str, int], *args: Any) -> tuple[Any, int]:
        value, end = JSONArray(s_and_end, *args)
        return at(_List(value), *s_and_end), end

    decoder = json.JSONDecoder()
    # The scanner's hooks: undocumented attributes that typeshed leaves out.
    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.parse_array = parse_array  # type: ignore[attr-defined]
    decoder.scan_once = py_make_scanner(decoder)  # type: ignore[attr-defined]
    return decoder.decode(text)


def _line_of(path: str, where: Where) -> int | None:
    """The line of the innermost object or list on the way to ``where`` in the file."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        node = _located(text)
    except (OSError, ValueError, RecursionError):
        return None
    line = getattr(node, "line", _first_line(text))  # a top-level scalar knows no line
    for key in where:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
        line = getattr(node, "line", line)
    return line


def read_located(path: str, what: str) -> Any:
    """A user's JSON file whose objects and lists know the line they start on.

    For loaders that raise ``LogError`` without a line: inside
    :func:`lines_of`, such an error gets the line of the value at fault.
    """
    text = read_json_text(path, what)
    node = decode_json(text, path, what, _located)
    if not isinstance(node, dict | list):  # a bare value knows no line: name its first one
        raise LogError(
            path,
            _first_line(text),
            f"{what} must be a JSON object or list, not {type(node).__name__}",
        )
    return node


def _first_line(text: str) -> int:
    """The line where the text's first value starts (after blank lines)."""
    return text.count("\n", 0, len(text) - len(text.lstrip())) + 1


@contextmanager
def lines_of(node: Any) -> Iterator[None]:
    """Give a ``LogError`` raised inside without a line the line where ``node`` starts.

    ``node`` comes from :func:`read_located` (else it knows no line, and the
    error passes unchanged).
    """
    try:
        yield
    except LogError as exc:
        line = getattr(node, "line", None)
        if exc.line is not None or line is None:
            raise
        raise LogError(exc.path, line, exc.message) from None
