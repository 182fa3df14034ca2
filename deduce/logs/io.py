"""Reading and writing log files in either syntax.

``read_log`` guards against files that are not logs (unreadable, empty,
binary, not UTF-8, absurdly long lines) and picks the syntax from the content:
when the first line that is neither blank nor a ``#`` comment starts with
``{`` the file is JSON Lines, otherwise the line syntax. ``write_log`` replaces
the file atomically, so a crash never leaves half a log.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import tempfile
from typing import Literal

from deduce.data import read_bounded
from deduce.errors import LogError
from deduce.logs.jsonl import format_jsonl, parse_jsonl
from deduce.logs.model import GameLog
from deduce.logs.text import format_text, parse_text

Syntax = Literal["jsonl", "text"]
#: The two syntaxes: canonical JSON Lines and the typed line syntax.
SYNTAXES: tuple[Syntax, ...] = ("jsonl", "text")

_PathLike = str | os.PathLike[str]


def detect_syntax(text: str) -> Syntax:
    """Return ``"jsonl"`` if the first line that is not blank or a comment starts with ``{``."""
    for line in text.removeprefix("\ufeff").split("\n"):
        start = line.lstrip()
        if start and not start.startswith("#"):
            return "jsonl" if start.startswith("{") else "text"
    return "text"


def decode_log_bytes(data: bytes, path: str) -> str:
    """Return the text of a log file's bytes; refuse NUL bytes and invalid UTF-8."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise LogError(
            path, data.count(b"\n", 0, nul) + 1, "binary data (a NUL byte): this is not a text log"
        )
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(
            path,
            data.count(b"\n", 0, exc.start) + 1,
            f"not UTF-8 text (byte 0x{data[exc.start]:02x})",
        ) from None


def parse_log(text: str, path: str, supplied: object = None) -> GameLog:
    """Parse log text in whichever syntax it is written in (``supplied``: the Abbey's deck)."""
    parse = parse_jsonl if detect_syntax(text) == "jsonl" else parse_text
    return parse(text, path, supplied)


#: Largest log file read, in bytes (a whole game's log is a few tens of kilobytes).
MAX_LOG_BYTES = 16 << 20


def read_log_bytes(path: _PathLike) -> bytes:
    """The bytes of the log file at ``path``, refusing one larger than ``MAX_LOG_BYTES``."""
    return read_bounded(
        os.fspath(path),
        MAX_LOG_BYTES,
        "log",
        f"larger than {MAX_LOG_BYTES >> 20} MiB: not a game log",
    )


def read_log_text(path: _PathLike) -> str:
    """Return the text of the log file at ``path``, refusing files that are not text."""
    return decode_log_bytes(read_log_bytes(path), os.fspath(path))


def read_log(path: _PathLike, supplied: object = None) -> GameLog:
    """Read and check the log at ``path``.

    ``supplied``: data the user gave in place of the game's default, read by
    the game (the Abbey's ``--deck``, which replaces the default deck).
    """
    return parse_log(read_log_text(path), os.fspath(path), supplied)


def format_log(log: GameLog, syntax: Syntax = "jsonl") -> str:
    """Return ``log`` as text in ``syntax`` (``"jsonl"`` or ``"text"``)."""
    if syntax == "jsonl":
        return format_jsonl(log)
    if syntax == "text":
        return format_text(log)
    raise ValueError(f"unknown log syntax {syntax!r} (syntaxes: {', '.join(SYNTAXES)})")


def write_log(log: GameLog, path: _PathLike, syntax: Syntax = "jsonl") -> None:
    """Write ``log`` to ``path`` in ``syntax``, atomically (see ``write_text_atomic``)."""
    write_text_atomic(path, format_log(log, syntax), "log")


def write_text_atomic(path: _PathLike, text: str, what: str = "file") -> None:
    """Write UTF-8 ``text`` to ``path`` atomically (see ``write_bytes_atomic``)."""
    write_bytes_atomic(path, text.encode("utf-8"), what)


def write_bytes_atomic(path: _PathLike, data: bytes, what: str = "file") -> None:
    """Write ``data`` to ``path`` atomically.

    The data goes to a temporary file in the same folder, which is flushed,
    synced to disk and then renamed over ``path``: readers see the old file
    or the whole new one, never half of it. A symbolic link is followed: the
    file it points to is replaced, and the link stays.
    """
    name = os.fspath(path)
    target = os.path.realpath(name)
    folder = os.path.dirname(target)
    try:
        fd, temp = tempfile.mkstemp(
            prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
        )
    except OSError as exc:
        raise LogError(name, None, f"cannot write {what}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, _mode_for(target))
        os.replace(temp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise LogError(name, None, f"cannot write {what}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _mode_for(path: str) -> int:
    """Return the permission bits to give a new log: those of the file it replaces, or 0o644."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        return 0o644
