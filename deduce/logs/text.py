"""The line syntax of a log: short typed lines for use at the table.

It converts to and from the canonical JSON Lines without loss: the reader builds
the same raw dicts that JSON would give and checks them with the same validator
(``deduce.logs.validate``), and the writer is driven by the same grammar table
as the reader (each game's, in its format module).

Grammar (words are separated by spaces; ``[x]`` is optional, ``x...`` repeats)::

    header lines first, in any order, until the first event line:
      game GAME                     required
      version 1
      players PLAYER...             in turn order
      me PLAYER | spectator         one of the two (spectator: me is null)
      deck default | card lines     abbey, optional
      card ID TRAIT TRAIT TRAIT TRAIT TRAIT [NAME]   one inline deck card a line;
                                    NAME is the rest of the line (default: ID)
      pile N, hand N                abbey, optional
      rector PLAYER, suspects ID... blackrose (suspects: exactly seven)

    then event lines, one event a line: the event type, then its words, as
    each game's format module gives them (``grammar``, in
    :mod:`deduce.logs.formats`); ``deduce play``'s ``help`` and the log
    format document list them all.

Details:

- In ``show``, a word that contains ``+`` or is a trait name gives ``traits``;
  any other word is a ``card`` (deck ids are never trait names).
- In ``mass``, a keyword followed by no cards is an empty list; a missing
  keyword is a missing key. Cards named ``gave`` or ``got`` cannot be written
  in a ``mass`` line (use JSON Lines for such a deck).
- ``right``/``wrong`` give ``correct`` true/false, ``innocent``/``guilty`` give
  ``innocent`` true/false, ``by`` gives ``shown_by`` (abbey) or ``player`` (proof).
- In the header part, ``hand N`` with N a number is the hand size, unless a
  hand size was already given or N is a player listed on an earlier
  ``players`` line; otherwise it is the first ``hand`` event.

Comments and notes: a line whose first non-space character is ``#`` is a
comment. On an event line or the ``game`` line, the text after the first ``#``
(minus one optional space) is that line's ``note``. When a note would not
survive this (empty, surrounding spaces, a line break or another unprintable
character, or a leading ``"``), it is written as ``#`` followed directly by a
JSON string literal, and a note starting with ``"`` is read as one. A card
NAME that is not plain text is written the same way. Comment lines and
comments on other header lines are not part of the log: JSON Lines has no
place for them, so they are dropped when a log is converted or rewritten.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deduce.errors import LogError
from deduce.logs.canonical import dump_object, dump_value
from deduce.logs.formats import event_types, event_words, format_of, games, header_words
from deduce.logs.grammar import (
    NUMBER,
    Bad,
    HeaderItem,
    HeaderWord,
    Missing,
    Unwritable,
    as_number,
    plain,
)
from deduce.logs.jsonl import event_to_json
from deduce.logs.kinds import show
from deduce.logs.model import Event, GameLog, Header
from deduce.logs.validate import RawRow, build_log, check_event_type, physical_lines


def usage(game: str, type_: str) -> str:
    """Return the usage line of one event type, e.g. ``has PLAYER CARD``."""
    return " ".join([type_, *(e.usage for e in format_of(game).grammar[type_])])


# --------------------------------------------------------------------------
# Notes


def _note_suffix(note: str | None) -> str:
    if note is None:
        return ""
    return f" # {note}" if plain(note) else " #" + dump_value(note)


def _decode_note(comment: str, path: str, number: int) -> str:
    """Return the note of a comment: the text after one optional space, or a JSON string."""
    text = comment.removeprefix(" ")
    if not text.startswith('"'):
        return text
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, str):
        raise LogError(path, number, "a note that starts with '\"' must be one JSON string")
    return value


def _split_comment(line: str) -> tuple[str, str | None]:
    body, sep, comment = line.partition("#")
    return body, comment if sep else None


# --------------------------------------------------------------------------
# Reading


@dataclass
class _HeaderText:
    """The header lines read so far, as the raw dict JSON would give."""

    raw: dict[str, Any]
    key_lines: dict[str, int]
    line: int | None = None
    #: The header words of every game, and the event types of every game.
    words: Mapping[str, HeaderWord] = field(default_factory=header_words)
    events: frozenset[str] = field(default_factory=event_words)

    def number_is_header(self, words: Sequence[str]) -> bool:
        """Whether a header word that is also an event type (``hand``) gives a header number.

        It does when its one word is a number, its key was not given yet and
        the number is not a player listed on an earlier ``players`` line (see
        the module docstring); otherwise the line is the first event.
        """
        return (
            len(words) == 2
            and bool(NUMBER.match(words[1]))
            and self.words[words[0]].key not in self.raw
            and words[1] not in self.raw.get("players", ())
        )


def _is_header_line(words: Sequence[str], header: _HeaderText) -> bool:
    if words[0] in header.words and words[0] in header.events:
        return header.number_is_header(words)
    return words[0] in header.words


def _read_header_line(line: str, number: int, header: _HeaderText, path: str) -> None:
    """Add one header line to ``header``."""
    body, comment = _split_comment(line)
    words = body.split()
    word = header.words[words[0]]
    key = word.key
    if word.item is not None:
        _read_item_line(line, number, header, path, words[0], key, word.item)
        return
    if key in header.raw:
        raise LogError(
            path,
            number,
            f"{words[0]!r} repeats the header key {key!r} "
            f"(first given on line {header.key_lines[key]})",
        )
    header.raw[key] = _header_value(words, word.shape, path, number)
    header.key_lines[key] = number
    if key == "game":
        header.line = number
        if comment is not None:
            header.raw["note"] = _decode_note(comment, path, number)


def _header_value(words: Sequence[str], shape: str, path: str, number: int) -> Any:
    args = words[1:]
    if shape == "list":
        return list(args)
    if shape == "none":
        if args:
            raise LogError(path, number, f"{words[0]!r} takes no value")
        return None
    if len(args) != 1:
        raise LogError(path, number, f"{words[0]!r} takes exactly one value, got {len(args)}")
    return as_number(args[0]) if shape == "number" else args[0]


def _read_item_line(
    line: str, number: int, header: _HeaderText, path: str, first: str, key: str, item: HeaderItem
) -> None:
    """Add one object of the list ``key``, given a line each (the Abbey's ``card`` lines)."""
    value = item.read(line, path, number)
    items = header.raw.setdefault(key, [])
    if not isinstance(items, list):
        raise LogError(path, number, f"{first} lines cannot follow '{key} {items}'")
    header.key_lines.setdefault(key, number)
    items.append(value)


def _content_lines(text: str, path: str) -> Iterator[tuple[int, str, list[str]]]:
    """Yield ``(number, line, words)`` for lines that are neither blank nor comments."""
    for number, line in physical_lines(text, path):
        words = _split_comment(line)[0].split()
        if words:
            yield number, line, words


def _read_event(
    number: int, line: str, words: Sequence[str], game: str, path: str, header: _HeaderText
) -> RawRow:
    """Turn one event line into the raw event dict JSON would give."""
    grammar = format_of(game).grammar
    if words[0] in header.words and words[0] not in grammar:
        raise LogError(path, number, f"header line {words[0]!r} after the first event")
    check_event_type(words[0], game, path, number)
    if words[0] not in grammar:
        raise LogError(path, number, f"{words[0]!r} events have no line syntax; use JSON Lines")
    elements = grammar[words[0]]
    raw: dict[str, Any] = {"type": words[0]}
    i = 1
    try:
        for element in elements:
            i = element.read(words, i, raw)
    except Missing:
        raise LogError(path, number, f"too few words (usage: {usage(game, words[0])})") from None
    except Bad as exc:
        raise LogError(path, number, f"{exc} (usage: {usage(game, words[0])})") from None
    if i < len(words):
        raise LogError(
            path, number, f"unexpected {show(words[i])} (usage: {usage(game, words[0])})"
        )
    comment = _split_comment(line)[1]
    if comment is not None:
        raw["note"] = _decode_note(comment, path, number)
    return RawRow(number, raw)


def _check_first_event(
    words: Sequence[str], game: Any, path: str, number: int, header: _HeaderText
) -> None:
    """Refuse a first event line that is neither a header word nor an event of the game."""
    if game in games() and words[0] not in format_of(game).grammar:
        raise LogError(
            path,
            number,
            f"unknown line {show(words[0])} (header lines: "
            f"{', '.join(header.words)}; {game} events: "
            f"{', '.join(event_types(game))})",
        )


def _rows(text: str, path: str) -> Iterator[RawRow]:
    """Yield the raw header row, then one raw row per event line (read lazily)."""
    lines = _content_lines(text, path)
    header = _HeaderText({}, {})
    first_event: tuple[int, str, list[str]] | None = None
    for number, line, words in lines:
        if not _is_header_line(words, header):
            first_event = (number, line, words)
            break
        _read_header_line(line, number, header, path)
    if first_event is None and not header.key_lines:
        return
    game = header.raw.get("game")
    if first_event is not None:
        _check_first_event(first_event[2], game, path, first_event[0], header)
    start = header.line or min(header.key_lines.values(), default=None)
    if not start:
        assert first_event is not None  # no header line read: the loop stopped at an event
        start = first_event[0]
    yield RawRow(start, header.raw, header.key_lines)
    if first_event is not None:
        # build_log checked the header (its game among them) before asking for events
        assert isinstance(game, str)
        yield _read_event(*first_event, game, path, header)
        for number, line, words in lines:
            yield _read_event(number, line, words, game, path, header)


def parse_text(text: str, path: str, supplied: object = None) -> GameLog:
    """Parse a whole log in the line syntax (``supplied``: the Abbey's ``--deck``)."""
    return build_log(_rows(text, path), path, supplied)


# --------------------------------------------------------------------------
# Writing


def _header_lines(header: Header) -> list[str]:
    """Return the header as lines, keys in canonical order."""
    lines = [f"game {header.game}{_note_suffix(header.note)}", f"version {header.version}"]
    form = format_of(header.game)
    extras = [f.name for f in form.header if f.name in header.extra]
    # a number that is also a player's name reads as the key only before the players line
    events = event_words()
    early = [k for k in extras if k in events and str(header.extra[k]) in header.players]
    items = {hw.key: hw.item for hw in form.header_words.values() if hw.item is not None}
    for key in early:
        lines += _extra_lines(key, header.extra[key], items)
    lines.append("players " + " ".join(header.players))
    lines.append("spectator" if header.me is None else f"me {header.me}")
    for key in extras:
        if key not in early:
            lines += _extra_lines(key, header.extra[key], items)
    return lines


def _extra_lines(key: str, value: Any, items: Mapping[str, HeaderItem]) -> list[str]:
    """Return the lines of one game-specific header key (``items``: keys written a line each)."""
    if key in items and isinstance(value, (list, tuple)):
        return [items[key].write(item) for item in value]
    if isinstance(value, (list, tuple)):
        return [" ".join([key, *value])]
    return [f"{key} {value}"]


def event_line(event: Event, game: str) -> str:
    """Return one event as a line of the line syntax (raises ``Unwritable`` if it cannot be)."""
    words = [event.type]
    for element in format_of(game).grammar[event.type]:
        words += element.write(event.fields)
    return " ".join(words) + _note_suffix(event.note)


def show_event(event: Event, game: str) -> str:
    """One event for people: its line-syntax line, or its canonical JSON when that cannot be.

    (A Mass listing a card named ``gave`` or ``got`` has no line-syntax form.)
    """
    try:
        return event_line(event, game)
    except Unwritable:
        return dump_object(event_to_json(event, game))


def format_text(log: GameLog) -> str:
    """Return ``log`` in the line syntax, ending with a newline.

    Raises ``LogError`` for the rare log this syntax cannot express (a ``mass``
    list naming a card ``gave`` or ``got``).
    """
    lines = _header_lines(log.header)
    if log.events:
        lines.append("")
    for event in log.events:
        try:
            lines.append(event_line(event, log.header.game))
        except Unwritable as exc:
            raise LogError(
                log.path,
                event.line,
                f"cannot write this {event.type} event in the line syntax: {exc}; use JSON Lines",
            ) from None
    return "\n".join(lines) + "\n"
