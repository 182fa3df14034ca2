"""Bundled data files (default deck, board, cards, suspect lists) and the JSON readers for them.

The defaults are not the printed cards or board (see each loader's module);
users replace them with files of the same shape, read by :func:`read_json_file`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

from deduce.errors import LogError


def bundled_json(name: str) -> Any:
    """The parsed JSON of a bundled data file."""
    return json.loads(resources.files(__name__).joinpath(name).read_text("utf-8"))


#: Largest data file read, in bytes (the bundled ones are a few kilobytes).
MAX_DATA_BYTES = 4 << 20


def read_bounded(path: str, limit: int, what: str, oversize: str) -> bytes:
    """The bytes of the file at ``path``, reading no more than ``limit`` + 1 of them.

    A one-line ``LogError`` when the file cannot be read (``what`` names it)
    or is larger than ``limit`` (``oversize`` says so).
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise LogError(path, None, f"cannot read {what}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise LogError(path, None, oversize)
    return data


def read_json_text(path: str, what: str) -> str:
    """A user's data file as text: at most ``MAX_DATA_BYTES``, UTF-8 (errors name the line)."""
    data = read_bounded(
        path, MAX_DATA_BYTES, what, f"{what} is larger than {MAX_DATA_BYTES >> 20} MiB"
    )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(
            path,
            data.count(b"\n", 0, exc.start) + 1,
            f"{what} is not UTF-8 text (byte 0x{data[exc.start]:02x})",
        ) from None


def decode_json(text: str, path: str, what: str, decode: Callable[[str], Any] = json.loads) -> Any:
    """``decode(text)``; bad JSON or nesting too deep is a one-line ``LogError``."""
    try:
        return decode(text)
    except json.JSONDecodeError as exc:
        raise LogError(path, exc.lineno, f"{what} is not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise LogError(path, 1, f"{what} nests too deeply") from None


def read_json_file(path: str, what: str) -> Any:
    """A user's JSON file; any problem is a one-line error naming the file (and line).

    ``what`` names the kind of file in messages (``"deck file"``...).
    """
    return decode_json(read_json_text(path, what), path, what)
