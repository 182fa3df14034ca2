"""The words of the line syntax: the elements a game's event lines are built of.

Each element reads words into the raw keys JSON would hold and writes the same
keys back as words, so one table per game (its format module's ``grammar``)
drives both the reader and the writer of :mod:`deduce.logs.text`, the usage
lines and the completion of ``play``. Nothing here names a game.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from deduce.errors import LogError
from deduce.logs.canonical import dump_value
from deduce.logs.kinds import show

NUMBER = re.compile(r"-?[0-9]+\Z")


class Missing(Exception):
    """The line ran out of words."""


class Bad(Exception):
    """A word does not fit the grammar (the message says why)."""


class Unwritable(Exception):
    """A value that this syntax cannot express unambiguously."""


def as_number(word: str) -> int | str:
    """Return ``word`` as an int if it is written as one, else unchanged for the validator."""
    if NUMBER.match(word):
        try:
            return int(word)
        except ValueError:  # more digits than Python converts
            return word
    return word


def _take(words: Sequence[str], i: int) -> str:
    if i >= len(words):
        raise Missing
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
        return as_number(word)


@dataclass(frozen=True)
class Flag(Word):
    """A boolean written as one of two words."""

    yes: str = "right"
    no: str = "wrong"

    def convert(self, word: str) -> Any:
        """Return True or False for the two words, refuse any other."""
        if word not in (self.yes, self.no):
            raise Bad(f"{self.key!r} must be {self.yes} or {self.no}, got {show(word)}")
        return word == self.yes

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the matching word."""
        return [self.yes if fields[self.key] else self.no]


@dataclass(frozen=True)
class Joined(Word):
    """Several values joined with ``joiner`` in one word (the Abbey's ``fat+hooded``)."""

    joiner: str = "+"

    def convert(self, word: str) -> Any:
        """Split the word on the joiner."""
        return word.split(self.joiner)

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Join the values."""
        return [self.joiner.join(fields[self.key])]


@dataclass(frozen=True)
class Either:
    """One word that fills ``plain``, or ``joined`` when it holds the joiner or one of ``marks``.

    (The Abbey's ``show``: a card id, or traits; deck ids are never trait names.)
    """

    plain: Word
    joined: Joined
    marks: tuple[str, ...]

    @property
    def usage(self) -> str:
        """Return the usage text."""
        return f"{self.plain.usage}|{self.joined.usage}"

    @property
    def keys(self) -> tuple[str, ...]:
        """Return both keys."""
        return (self.plain.key, self.joined.key)

    def accepts(self, word: str) -> bool:
        """Accept any word."""
        return True

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Store the word under the key it fits."""
        word = _take(words, i)
        inner = self.joined if self.joined.joiner in word or word in self.marks else self.plain
        return inner.read(words, i, raw)

    def write(self, fields: Mapping[str, Any]) -> list[str]:
        """Write the plain value, else the joined one."""
        inner = self.plain if self.plain.key in fields else self.joined
        return inner.write(fields)


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
class Entry(Word):
    """A name then its number: ``{name: number}`` (the Black Rose's goal condition)."""

    def read(self, words: Sequence[str], i: int, raw: dict[str, Any]) -> int:
        """Store the one-key condition object."""
        raw[self.key] = {_take(words, i): as_number(_take(words, i + 1))}
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
            raise Unwritable(f"card {clash[0]!r} in {self.key!r} reads as a keyword")
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
            raise Bad(f"expected {self.word!r}, got {show(word)}")
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


# --------------------------------------------------------------------------
# Notes and names: free text after ``#``, raw when it reads back, else as JSON


def plain(text: str) -> bool:
    """Whether ``text`` can be written raw after ``#`` and read back unchanged."""
    return bool(text) and text == text.strip() and text.isprintable() and text[0] != '"'


def free_text(text: str) -> str:
    """``text`` as the rest of a line: raw when plain and without ``#``, else a JSON string."""
    return text if plain(text) and "#" not in text else dump_value(text)


def read_free_text(rest: str, path: str, number: int, what: str) -> str | None:
    """The free text at the end of a line (``rest``), up to a ``#`` unless it is a JSON string."""
    if not rest.startswith('"'):
        text = rest.partition("#")[0].strip()
        return text or None
    value: object
    try:
        value, end = json.JSONDecoder().raw_decode(rest)
    except (ValueError, RecursionError):
        value, end = None, 0
    tail = rest[end:].strip()
    if not isinstance(value, str) or (tail and not tail.startswith("#")):
        raise LogError(path, number, f"{what} that starts with '\"' must be one JSON string")
    return value


# --------------------------------------------------------------------------
# Header words


@dataclass(frozen=True)
class HeaderWord:
    """A header line's first word: the key it gives and the shape of its value.

    Shapes: ``one`` (one word), ``number``, ``list`` (the rest of the words),
    ``none`` (no value: the key is null). A key whose value is a list of
    objects, one a line (the Abbey's inline deck), has ``item`` instead.
    """

    key: str
    shape: str = "one"
    item: HeaderItem | None = None


class HeaderItem(Protocol):
    """One object of a header list per line (the Abbey's ``card`` lines)."""

    def read(self, line: str, path: str, number: int) -> dict[str, Any]:
        """Return the object of one line (raise ``LogError`` when it is not one)."""
        ...

    def write(self, value: Mapping[str, Any]) -> str:
        """Return the line of one object."""
        ...
