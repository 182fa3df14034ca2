"""The line syntax of a log: short typed lines for use at the table.

It converts to and from the canonical JSON Lines without loss: the reader builds
the same raw dicts that JSON would give and checks them with the same validator
(``deduce.logs.validate``), and the writer is driven by the same grammar table
as the reader.

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

    abbey events:
      hand PLAYER [CARD...]             has PLAYER CARD        lacks PLAYER CARD
      count PLAYER TRAIT[+TRAIT...] N   show PLAYER to PLAYER CARD|TRAIT[+TRAIT...]
      draw PLAYER [CARD]                take PLAYER from PLAYER [CARD]
      mass N [gave CARD...] [got CARD...]
      accuse PLAYER CARD right|wrong [by PLAYER]                culprit CARD
    rose events:
      identity PLAYER COLOUR   reveal PLAYER COLOUR   guess PLAYER of PLAYER COLOUR
      points PLAYER COLOUR clue|suspicion N william|adson|move|bonus   (N: signed)
    blackrose events:
      role PLAYER ROLE   proof SUSPECT [by PLAYER]   accuse SUSPECT SUSPECT right|wrong
      kill SUSPECT   goal CARD CONDITION K   claim PLAYER SUSPECT innocent|guilty

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
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from deduce.errors import LogError
from deduce.logs.jsonl import dump_object, dump_value, event_to_json
from deduce.logs.model import Event, GameLog, Header
from deduce.logs.schema import GAMES, HEADER_EXTRAS, event_types
from deduce.logs.validate import RawRow, build_log, check_event_type, physical_lines, show
from deduce.logs.vocabulary.abbey import TRAITS, Deck

_NUMBER = re.compile(r"-?[0-9]+\Z")
_CARD_LINE = re.compile(r"\s*card" + r"\s+([^\s#]+)" * 6 + r"(.*)\Z")


class _Missing(Exception):
    """The line ran out of words."""


class _Bad(Exception):
    """A word does not fit the grammar (the message says why)."""


class _Unwritable(Exception):
    """A value that this syntax cannot express unambiguously."""


def _number(word: str) -> int | str:
    """Return ``word`` as an int if it is written as one, else unchanged for the validator."""
    if _NUMBER.match(word):
        try:
            return int(word)
        except ValueError:  # more digits than Python converts
            return word
    return word


def _take(words: Sequence[str], i: int) -> str:
    if i >= len(words):
        raise _Missing
    return words[i]


# --------------------------------------------------------------------------
# Grammar elements: each reads words into raw keys and writes the same keys back


class Element(Protocol):
    """One part of an event line."""

    @property
    def usage(self) -> str:
        """The words of the element in a usage line (``PLAYER``, ``[CARD]``...)."""
        ...

    @property
    def keys(self) -> tuple[str, ...]:
        """The raw keys the element reads and writes."""
        ...

    def accepts(self, word: str) -> bool:
        """Whether an optional element starting with ``word`` is present."""
        ...

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Read words from ``i`` into ``raw``; return the index after them."""
        ...

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Return the words for the element's keys in ``fields``."""
        ...


@dataclass(frozen=True)
class Word:
    """One word, kept as a string."""

    key: str
    usage: str

    @property
    def keys(self) -> tuple[str, ...]:
        """Return the keys this element fills."""
        return (self.key,)

    def accepts(self, word: str) -> bool:
        """Accept any word."""
        return True

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Store one word."""
        raw[self.key] = self.convert(_take(words, i))
        return i + 1

    def convert(self, word: str) -> Any:
        """Return the raw value of ``word``."""
        return word

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the value as one word."""
        return [str(fields[self.key])]


@dataclass(frozen=True)
class Number(Word):
    """One word holding an integer."""

    def convert(self, word: str) -> Any:
        """Return the word as an int when it is one."""
        return _number(word)


@dataclass(frozen=True)
class Flag(Word):
    """A boolean written as one of two words."""

    yes: str = "right"
    no: str = "wrong"

    def convert(self, word: str) -> Any:
        """Return True or False for the two words, refuse any other."""
        if word not in (self.yes, self.no):
            raise _Bad(f"{self.key!r} must be {self.yes} or {self.no}, got {show(word)}")
        return word == self.yes

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the matching word."""
        return [self.yes if fields[self.key] else self.no]


@dataclass(frozen=True)
class Traits(Word):
    """Traits joined with ``+`` in one word."""

    def convert(self, word: str) -> Any:
        """Split the word on ``+``."""
        return word.split("+")

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Join the traits with ``+``."""
        return ["+".join(fields[self.key])]


@dataclass(frozen=True)
class CardOrTraits:
    """A card id, or traits (a word with ``+`` or a trait name)."""

    usage: str = "CARD|TRAIT[+TRAIT...]"
    keys: tuple[str, ...] = ("card", "traits")

    def accepts(self, word: str) -> bool:
        """Accept any word."""
        return True

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Store the word as traits or as a card."""
        word = _take(words, i)
        if "+" in word or word in TRAITS:
            raw["traits"] = word.split("+")
        else:
            raw["card"] = word
        return i + 1

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the card, else the traits."""
        return [fields["card"]] if "card" in fields else ["+".join(fields["traits"])]


@dataclass(frozen=True)
class Pair(Word):
    """Two words into a list."""

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Store two words as a list."""
        raw[self.key] = [_take(words, i), _take(words, i + 1)]
        return i + 2

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the list's words."""
        return list(fields[self.key])


@dataclass(frozen=True)
class Condition(Word):
    """A condition name then its number: ``{name: number}``."""

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Store the one-key condition object."""
        raw[self.key] = {_take(words, i): _number(_take(words, i + 1))}
        return i + 2

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the name and value of each key (one for a valid log)."""
        return [str(w) for item in fields[self.key].items() for w in item]


@dataclass(frozen=True)
class Rest(Word):
    """All words up to the end or to one of ``stop``, as a list."""

    stop: tuple[str, ...] = ()

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Store the words up to a stop word."""
        end = i
        while end < len(words) and words[end] not in self.stop:
            end += 1
        raw[self.key] = list(words[i:end])
        return end

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the list, refusing ids that would read back as stop words."""
        clash = [w for w in fields[self.key] if w in self.stop]
        if clash:
            raise _Unwritable(f"card {clash[0]!r} in {self.key!r} reads as a keyword")
        return list(fields[self.key])


@dataclass(frozen=True)
class Keyword:
    """A fixed word followed by an element."""

    word: str
    inner: Element

    @property
    def usage(self) -> str:
        """Return the usage text."""
        return f"{self.word} {self.inner.usage}"

    @property
    def keys(self) -> tuple[str, ...]:
        """Return the inner element's keys."""
        return self.inner.keys

    def accepts(self, word: str) -> bool:
        """Accept only the keyword."""
        return word == self.word

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Expect the keyword, then read the inner element."""
        word = _take(words, i)
        if word != self.word:
            raise _Bad(f"expected {self.word!r}, got {show(word)}")
        return self.inner.read(words, i + 1, raw)

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the keyword and the inner element."""
        return [self.word, *self.inner.write(fields)]


@dataclass(frozen=True)
class Maybe:
    """An element that may be left out (then its keys are absent)."""

    inner: Element

    @property
    def usage(self) -> str:
        """Return the usage text."""
        return f"[{self.inner.usage}]"

    @property
    def keys(self) -> tuple[str, ...]:
        """Return the inner element's keys."""
        return self.inner.keys

    def accepts(self, word: str) -> bool:
        """Accept what the inner element accepts."""
        return self.inner.accepts(word)

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Read the inner element if the next word starts it."""
        if i < len(words) and self.inner.accepts(words[i]):
            return self.inner.read(words, i, raw)
        return i

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the inner element if its keys are present."""
        return self.inner.write(fields) if any(k in fields for k in self.keys) else []


_PLAYER = Word("player", "PLAYER")
_CARD = Word("card", "CARD")
_MASS_WORDS = ("gave", "got")

#: The line syntax of every event type, per game (the schema's keys, as words).
GRAMMAR: dict[str, dict[str, tuple[Element, ...]]] = {
    "abbey": {
        "hand": (_PLAYER, Rest("cards", "[CARD...]")),
        "has": (_PLAYER, _CARD),
        "lacks": (_PLAYER, _CARD),
        "count": (_PLAYER, Traits("traits", "TRAIT[+TRAIT...]"), Number("n", "N")),
        "show": (_PLAYER, Keyword("to", Word("to", "PLAYER")), CardOrTraits()),
        "draw": (_PLAYER, Maybe(_CARD)),
        "take": (_PLAYER, Keyword("from", Word("from", "PLAYER")), Maybe(_CARD)),
        "mass": (
            Number("n", "N"),
            Maybe(Keyword("gave", Rest("gave", "CARD...", _MASS_WORDS))),
            Maybe(Keyword("got", Rest("got", "CARD...", _MASS_WORDS))),
        ),
        "accuse": (
            _PLAYER,
            _CARD,
            Flag("correct", "right|wrong"),
            Maybe(Keyword("by", Word("shown_by", "PLAYER"))),
        ),
        "culprit": (_CARD,),
    },
    "rose": {
        "identity": (_PLAYER, Word("colour", "COLOUR")),
        "reveal": (_PLAYER, Word("colour", "COLOUR")),
        "guess": (_PLAYER, Keyword("of", Word("of", "PLAYER")), Word("colour", "COLOUR")),
        "points": (
            _PLAYER,
            Word("monk", "COLOUR"),
            Word("track", "clue|suspicion"),
            Number("n", "N"),
            Word("cause", "william|adson|move|bonus"),
        ),
    },
    "blackrose": {
        "role": (_PLAYER, Word("role", "ROLE")),
        "proof": (Word("suspect", "SUSPECT"), Maybe(Keyword("by", _PLAYER))),
        "accuse": (Pair("suspects", "SUSPECT SUSPECT"), Flag("correct", "right|wrong")),
        "kill": (Word("suspect", "SUSPECT"),),
        "goal": (Word("card", "CARD"), Condition("condition", "CONDITION K")),
        "claim": (
            _PLAYER,
            Word("suspect", "SUSPECT"),
            Flag("innocent", "innocent|guilty", "innocent", "guilty"),
        ),
    },
}

#: Header words: word -> (header key, shape); shapes: one, number, list, none, card.
HEADER_WORDS: dict[str, tuple[str, str]] = {
    "game": ("game", "one"),
    "version": ("version", "number"),
    "players": ("players", "list"),
    "me": ("me", "one"),
    "spectator": ("me", "none"),
    "deck": ("deck", "one"),
    "card": ("deck", "card"),
    "pile": ("pile", "number"),
    "hand": ("hand", "number"),
    "rector": ("rector", "one"),
    "suspects": ("suspects", "list"),
}


def usage(game: str, type_: str) -> str:
    """Return the usage line of one event type, e.g. ``has PLAYER CARD``."""
    return " ".join([type_, *(e.usage for e in GRAMMAR[game][type_])])


# --------------------------------------------------------------------------
# Notes and names


def _plain(text: str) -> bool:
    """Whether ``text`` can be written raw after ``#`` and read back unchanged."""
    return bool(text) and text == text.strip() and text.isprintable() and text[0] != '"'


def _note_suffix(note: str | None) -> str:
    if note is None:
        return ""
    return f" # {note}" if _plain(note) else " #" + dump_value(note)


def _card_name(name: str) -> str:
    return name if _plain(name) and "#" not in name else dump_value(name)


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

    def hand_is_header(self, words: Sequence[str]) -> bool:
        """Whether a ``hand`` line in the header part is the hand size (see module doc)."""
        return (
            len(words) == 2
            and bool(_NUMBER.match(words[1]))
            and "hand" not in self.raw
            and words[1] not in self.raw.get("players", ())
        )


def _is_header_line(words: Sequence[str], header: _HeaderText) -> bool:
    if words[0] == "hand":
        return header.hand_is_header(words)
    return words[0] in HEADER_WORDS


def _read_header_line(line: str, number: int, header: _HeaderText, path: str) -> None:
    """Add one header line to ``header``."""
    body, comment = _split_comment(line)
    words = body.split()
    key, shape = HEADER_WORDS[words[0]]
    if shape == "card":
        _read_card_line(line, number, header, path)
        return
    if key in header.raw:
        raise LogError(
            path,
            number,
            f"{words[0]!r} repeats the header key {key!r} "
            f"(first given on line {header.key_lines[key]})",
        )
    header.raw[key] = _header_value(words, shape, path, number)
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
    return _number(args[0]) if shape == "number" else args[0]


def _read_card_line(line: str, number: int, header: _HeaderText, path: str) -> None:
    """Add one inline deck card (``card ID T T T T T NAME``) to the header."""
    match = _CARD_LINE.match(line)
    if match is None:
        raise LogError(path, number, "a card line is: card ID TRAIT TRAIT TRAIT TRAIT TRAIT [NAME]")
    deck = header.raw.setdefault("deck", [])
    if not isinstance(deck, list):
        raise LogError(path, number, "card lines cannot follow 'deck default'")
    header.key_lines.setdefault("deck", number)
    card: dict[str, Any] = {"id": match[1], "traits": list(match.groups()[1:6])}
    name = _card_line_name(match[7].strip(), path, number)
    if name is not None:
        card["name"] = name
    deck.append(card)


def _card_line_name(rest: str, path: str, number: int) -> str | None:
    """Return the NAME part of a card line (a JSON string when it starts with a quote)."""
    if not rest.startswith('"'):
        name = rest.partition("#")[0].strip()
        return name or None
    value: object
    try:
        value, end = json.JSONDecoder().raw_decode(rest)
    except (ValueError, RecursionError):
        value, end = None, 0
    tail = rest[end:].strip()
    if not isinstance(value, str) or (tail and not tail.startswith("#")):
        raise LogError(path, number, "a card name that starts with '\"' must be one JSON string")
    return value


def _content_lines(text: str, path: str) -> Iterator[tuple[int, str, list[str]]]:
    """Yield ``(number, line, words)`` for lines that are neither blank nor comments."""
    for number, line in physical_lines(text, path):
        words = _split_comment(line)[0].split()
        if words:
            yield number, line, words


def _read_event(number: int, line: str, words: Sequence[str], game: str, path: str) -> RawRow:
    """Turn one event line into the raw event dict JSON would give."""
    if words[0] in HEADER_WORDS and words[0] not in GRAMMAR[game]:
        raise LogError(path, number, f"header line {words[0]!r} after the first event")
    check_event_type(words[0], game, path, number)
    if words[0] not in GRAMMAR[game]:
        raise LogError(path, number, f"{words[0]!r} events have no line syntax; use JSON Lines")
    elements = GRAMMAR[game][words[0]]
    raw: dict[str, Any] = {"type": words[0]}
    i = 1
    try:
        for element in elements:
            i = element.read(words, i, raw)
    except _Missing:
        raise LogError(path, number, f"too few words (usage: {usage(game, words[0])})") from None
    except _Bad as exc:
        raise LogError(path, number, f"{exc} (usage: {usage(game, words[0])})") from None
    if i < len(words):
        raise LogError(
            path, number, f"unexpected {show(words[i])} (usage: {usage(game, words[0])})"
        )
    comment = _split_comment(line)[1]
    if comment is not None:
        raw["note"] = _decode_note(comment, path, number)
    return RawRow(number, raw)


def _check_first_event(words: Sequence[str], game: Any, path: str, number: int) -> None:
    """Refuse a first event line that is neither a header word nor an event of the game."""
    if game in GAMES and words[0] not in GRAMMAR[game]:
        raise LogError(
            path,
            number,
            f"unknown line {show(words[0])} (header lines: "
            f"{', '.join(HEADER_WORDS)}; {game} events: "
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
        _check_first_event(first_event[2], game, path, first_event[0])
    start = header.line or min(header.key_lines.values(), default=None)
    if not start:
        assert first_event is not None  # no header line read: the loop stopped at an event
        start = first_event[0]
    yield RawRow(start, header.raw, header.key_lines)
    if first_event is not None:
        # build_log checked the header (its game among them) before asking for events
        assert isinstance(game, str)
        yield _read_event(*first_event, game, path)
        for number, line, words in lines:
            yield _read_event(number, line, words, game, path)


def parse_text(text: str, path: str, deck: Deck | None = None) -> GameLog:
    """Parse a whole log in the line syntax; ``deck`` (``--deck``) replaces the default deck."""
    return build_log(_rows(text, path), path, deck)


# --------------------------------------------------------------------------
# Writing


def _header_lines(header: Header) -> list[str]:
    """Return the header as lines, keys in canonical order."""
    lines = [f"game {header.game}{_note_suffix(header.note)}", f"version {header.version}"]
    extras = [f.name for f in HEADER_EXTRAS[header.game] if f.name in header.extra]
    hand = header.extra.get("hand")
    early = ["hand"] if hand is not None and str(hand) in header.players else []
    for key in early:
        lines += _extra_lines(key, header.extra[key])
    lines.append("players " + " ".join(header.players))
    lines.append("spectator" if header.me is None else f"me {header.me}")
    for key in extras:
        if key not in early:
            lines += _extra_lines(key, header.extra[key])
    return lines


def _extra_lines(key: str, value: Any) -> list[str]:
    """Return the lines of one game-specific header key."""
    if key == "deck" and value != "default":
        return [
            f"card {c['id']} {' '.join(c['traits'])} {_card_name(c.get('name', c['id']))}"
            for c in value
        ]
    if isinstance(value, (list, tuple)):
        return [" ".join([key, *value])]
    return [f"{key} {value}"]


def event_line(event: Event, game: str) -> str:
    """Return one event as a line of the line syntax (raises ``_Unwritable`` if it cannot be)."""
    words = [event.type]
    for element in GRAMMAR[game][event.type]:
        words += element.write(event.fields)
    return " ".join(words) + _note_suffix(event.note)


def show_event(event: Event, game: str) -> str:
    """One event for people: its line-syntax line, or its canonical JSON when that cannot be.

    (A Mass listing a card named ``gave`` or ``got`` has no line-syntax form.)
    """
    try:
        return event_line(event, game)
    except _Unwritable:
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
        except _Unwritable as exc:
            raise LogError(
                log.path,
                event.line,
                f"cannot write this {event.type} event in the line syntax: {exc}; use JSON Lines",
            ) from None
    return "\n".join(lines) + "\n"
