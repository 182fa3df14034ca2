"""The log being played: add an event, undo the last one, or try one without writing it.

A :class:`Session` holds the log file's path, its text and the checked log.
Every operation first reads the file again, so an edit made meanwhile in
another editor is seen, and never overwritten by a stale copy. The user
always types the line syntax; the file keeps its own syntax:

- :meth:`Session.event` reads one typed line as an event of the log's game,
  checked by the project's line-syntax reader against the header;
- :meth:`Session.extended` writes it as the file's next line (the line as
  :func:`~deduce.logs.text.event_line` formats it, or its canonical JSON
  line) and checks the whole text again with
  :func:`~deduce.logs.io.parse_log` and the Abbey's public sizes
  (:func:`check_sizes`), so every rule and message is the reader's and the
  solver's, with the file's own line numbers;
- :meth:`Session.add` then appends exactly that line, flushed and synced to
  disk before it returns;
- :meth:`Session.undo` rewrites the file atomically without the last event's
  line, every other byte unchanged (header, comments, blank lines);
  :meth:`Session.drop`, :meth:`Session.edit` and :meth:`Session.insert`
  remove, replace or add one event line anywhere, likewise, once the whole
  text checks out again.
"""

from __future__ import annotations

import codecs
import os
from dataclasses import replace

from deduce.errors import DeduceError, LogError
from deduce.logs.canonical import dump_object
from deduce.logs.formats import event_types
from deduce.logs.io import (
    Syntax,
    decode_log_bytes,
    detect_syntax,
    format_log,
    parse_log,
    read_log_bytes,
    write_text_atomic,
)
from deduce.logs.jsonl import event_to_json
from deduce.logs.model import Event, GameLog
from deduce.logs.text import event_line, parse_text, usage
from deduce.registry import game

#: The byte order mark, as text: kept at the start of a file that has one.
BOM = "\ufeff"


def read_text(path: str) -> str:
    """The text of the log file at ``path``, with its byte order mark if it has one.

    Like :func:`~deduce.logs.io.read_log_text`, but the mark is kept, so that
    rewriting the text gives back the same bytes.
    """
    data = read_log_bytes(path)
    text = decode_log_bytes(data, path)
    return BOM + text if data.startswith(codecs.BOM_UTF8) else text


def is_new(path: str) -> bool:
    """Whether ``path`` starts a new log: no such file, or a file of white space alone."""
    if not os.path.lexists(path):
        return True
    try:
        with open(path, "rb") as handle:
            return os.path.isfile(path) and not handle.read().strip()
    except OSError:
        return False


def check_sizes(log: GameLog) -> None:
    """Raise the input errors that the reader leaves to the solver: the Abbey's public sizes.

    (A draw from an empty pile, a hand of the wrong size, your own draw
    without its card...: see the README's *What an event must say*.)
    """
    game(log.header.game).check_input(log)


def load(path: str) -> tuple[str, GameLog]:
    """The text of the log file at ``path`` and the log, checked as input."""
    text = read_text(path)
    log = parse_log(text, path)
    check_sizes(log)
    return text, log


def syntax_for(path: str) -> Syntax:
    """The syntax of a new log: JSON Lines for a ``.jsonl`` file, else the line syntax."""
    return "jsonl" if path.lower().endswith(".jsonl") else "text"


def event_text(event: Event, game: str, syntax: Syntax) -> str:
    """One event as a line of ``syntax`` (without the newline)."""
    if syntax == "jsonl":
        return dump_object(event_to_json(event, game))
    return event_line(event, game)


class Session:
    """A log file being played (see the module docstring).

    ``text`` and ``log`` are the file's content as last read or written.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.text, self.log = load(path)

    @classmethod
    def create(cls, path: str, header: str) -> Session:
        """Write a new log holding only ``header`` (checked first) to ``path``, atomically.

        Refuses a file that exists, unless it is empty: a log is continued,
        never overwritten.
        """
        parse_log(header, path)
        if not is_new(path):
            raise DeduceError(f"{path}: the file exists; continue it with: deduce play {path}")
        write_text_atomic(path, header, "log")
        return cls(path)

    @property
    def game(self) -> str:
        """The log's game."""
        return self.log.header.game

    @property
    def syntax(self) -> Syntax:
        """The file's syntax."""
        return detect_syntax(self.text)

    def changed_on_disk(self) -> bool:
        """Whether the file differs from what this session last read or wrote.

        Another editor (or a hand edit) changed it meanwhile; the next
        operation reads it again first, so nothing is overwritten.
        """
        try:
            return read_text(self.path) != self.text
        except DeduceError:
            return True

    def refresh(self) -> GameLog:
        """Read and check the file again (it may have been edited meanwhile)."""
        self.text, self.log = load(self.path)
        return self.log

    def _newline(self) -> str:
        """The file's line ending: CRLF if it uses them, else LF."""
        return "\r\n" if "\r\n" in self.text else "\n"

    def _separator(self) -> str:
        """What must come before a new line: a newline when the file does not end with one."""
        return self._newline() if self.text and not self.text.endswith("\n") else ""

    def next_line(self) -> int:
        """The line number the next event gets in the file."""
        return (self.text + self._separator()).count("\n") + 1

    def event(self, typed: str, line: int | None = None) -> Event:
        """``typed``, in the line syntax, as a checked event numbered ``line``.

        By default it is numbered as the file's next line.

        It is read after the header alone, so the reader checks it against
        the header (players, cards, suspects...); the whole log is checked by
        :meth:`extended`.
        """
        number = line or self.next_line()
        words = typed.partition("#")[0].split()
        types = event_types(self.game)
        if not words or words[0] not in types:
            raise LogError(
                self.path, number, f"not an event line ({self.game} events: {', '.join(types)})"
            )
        header = format_log(GameLog(self.log.header, (), self.path), "text")
        try:
            events = parse_text(f"{header}{typed}\n", self.path).events
        except LogError as exc:
            raise LogError(self.path, number, exc.message) from None
        if len(events) != 1:
            raise LogError(
                self.path, number, f"not an event line (usage: {usage(self.game, words[0])})"
            )
        return replace(events[0], line=number)

    def extended(self, typed: str) -> tuple[str, GameLog]:
        """The file's text with ``typed`` as its next event, and that whole log, checked.

        Nothing is written. Raises ``LogError`` (naming the file and line)
        when the event or the log with it is not valid input.
        """
        self.refresh()
        event = self.event(typed)
        text = (
            self.text
            + self._separator()
            + event_text(event, self.game, self.syntax)
            + self._newline()
        )
        log = parse_log(text, self.path)
        check_sizes(log)
        return text, log

    def add(self, typed: str) -> Event:
        """Append ``typed`` as the log's next event, on disk (flushed and synced) on return."""
        text, log = self.extended(typed)
        try:
            with open(self.path, "a", encoding="utf-8", newline="") as handle:
                handle.write(text[len(self.text) :])
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise LogError(self.path, None, f"cannot write log: {exc.strerror or exc}") from None
        self.text, self.log = text, log
        return log.events[-1]

    def _event_at(self, line: int) -> Event:
        """The log's event on ``line`` (a one-line error when that line holds none)."""
        found = next((e for e in self.log.events if e.line == line), None)
        if found is None:
            raise DeduceError(f"{self.path}: line {line} holds no event")
        return found

    def _rewrite(self, lines: list[str]) -> None:
        """Write ``lines`` back as the file, atomically, once the whole log checks out."""
        text = "\n".join(lines)
        log = parse_log(text, self.path)
        check_sizes(log)
        write_text_atomic(self.path, text, "log")
        self.text, self.log = text, log

    def drop(self, line: int) -> Event:
        """Remove the event on ``line`` from the file, atomically; return it.

        Every other byte stays. The log without it must still be valid
        input (dropping a draw may leave a hand the wrong size); else the file
        is left as it was and the reader's error is raised.
        """
        self.refresh()
        event = self._event_at(line)
        lines = self.text.split("\n")
        del lines[line - 1]
        self._rewrite(lines)
        return event

    def _typed_at(self, line: int, typed: str) -> tuple[list[str], str]:
        """The file's lines, and ``typed`` as the line to put at ``line``, which holds an event.

        The file is read again first. The new line is in the file's syntax,
        with the line ending of the line there now.
        """
        self.refresh()
        self._event_at(line)
        new = self.event(typed, line)
        lines = self.text.split("\n")
        ending = "\r" if lines[line - 1].endswith("\r") else ""
        return lines, event_text(new, self.game, self.syntax) + ending

    def edit(self, line: int, typed: str) -> tuple[Event, Event]:
        """Replace the event on ``line`` with ``typed`` (line syntax), atomically.

        Returns the old and the new event. Every other byte stays; the new
        line keeps the file's syntax and line ending. The log with it must be
        valid input, else the file is left as it was.
        """
        lines, text = self._typed_at(line, typed)
        old = self._event_at(line)
        lines[line - 1] = text
        self._rewrite(lines)
        return old, self._event_at(line)

    def insert(self, line: int, typed: str) -> Event:
        """Insert ``typed`` (line syntax) before the event on ``line``, atomically; return it.

        The new event takes ``line``, and every line from there moves down
        one. Every other byte stays; the new line keeps the file's syntax and
        line ending. The log with it must be valid input, else the file is
        left as it was.
        """
        lines, text = self._typed_at(line, typed)
        lines.insert(line - 1, text)
        self._rewrite(lines)
        return self._event_at(line)

    def undo(self) -> Event:
        """Remove the last event's line from the file, atomically; return that event."""
        self.refresh()
        if not self.log.events:
            raise DeduceError(f"{self.path}: nothing to undo: the log has no events")
        last = self.log.events[-1]
        lines = self.text.split("\n")
        del lines[last.line - 1]
        write_text_atomic(self.path, "\n".join(lines), "log")
        self.refresh()
        return last
