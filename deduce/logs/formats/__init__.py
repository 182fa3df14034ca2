"""The games of the log format, one module each: the only part of deduce.logs naming a game.

Each module holds everything the log format says about its game, as one
:class:`~deduce.logs.schema.LogFormat` called ``FORMAT``, beside the types
its header resolves into (the Abbey's deck and setup, the Black Rose's
suspects). The reader and the writer loop over :data:`FORMATS`; adding a
game to the log format is one more module and one more entry here.
"""

from __future__ import annotations

from deduce.logs.formats import abbey, blackrose, rose
from deduce.logs.grammar import HeaderWord
from deduce.logs.schema import HEADER_BASE_WORDS, EventSchema, LogFormat

#: Game -> its log format, in the order the log format lists the games.
FORMATS: dict[str, LogFormat] = {f.game: f for f in (abbey.FORMAT, rose.FORMAT, blackrose.FORMAT)}


def games() -> tuple[str, ...]:
    """The games, in the log format's order."""
    return tuple(FORMATS)


def header_words() -> dict[str, HeaderWord]:
    """Every header word of the line syntax, whatever the game.

    (A header's lines are read before its ``game`` line may have come.)
    """
    extra = {word: hw for f in FORMATS.values() for word, hw in f.header_words.items()}
    return {**HEADER_BASE_WORDS, **extra}


def event_words() -> frozenset[str]:
    """Every event type of any game (a header word that is also one needs a closer look)."""
    return frozenset(t for f in FORMATS.values() for t in f.events)


def format_of(game: str) -> LogFormat:
    """The log format of ``game`` (one of :func:`games`)."""
    return FORMATS[game]


def event_types(game: str) -> tuple[str, ...]:
    """The event types of ``game`` in documented order."""
    return FORMATS[game].event_types


def event_schema(game: str, type_: str) -> EventSchema | None:
    """The schema of one event type, or None if ``game`` has no such type."""
    return FORMATS[game].events.get(type_)
