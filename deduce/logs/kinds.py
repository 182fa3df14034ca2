"""Value kinds: the checks a header or event value goes through, shared by every game.

A kind names how a value is checked (see :mod:`deduce.logs.schema`); each
checker takes ``(value, key, scope, line)`` and returns the checked value or
raises ``LogError`` with a one-line message naming the key and the value. The
kinds here are those every game uses; a game's format module adds its own
(the Abbey's cards and traits, the Rose's colours, the Black Rose's suspects),
built from the helpers here.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from deduce.errors import LogError
from deduce.logs.ids import ID_PATTERN


@dataclass(frozen=True)
class Scope:
    """The facts of one log that its values are checked against.

    ``known``: ids the header makes known beyond its players, by the noun
    that names them in messages (the Abbey's ``card`` ids from its deck, the
    Black Rose's ``suspect`` ids), filled in by the game's format.
    """

    path: str
    game: str
    players: tuple[str, ...] = ()
    me: str | None = None
    known: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def fail(self, line: int | None, message: str) -> NoReturn:
        """Raise the ``LogError`` for ``message`` at ``line`` of this log."""
        raise LogError(self.path, line, message)


# --------------------------------------------------------------------------
# Showing values in messages


def show(value: Any) -> str:
    """Return a short one-line rendering of a raw value for an error message."""
    if isinstance(value, str) and len(value) <= 40 and value.isprintable():
        return f"'{value}'"
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(key: str, noun: str) -> str:
    return "" if key == noun else f" in {key!r}"


# --------------------------------------------------------------------------
# Value checkers, one per kind: (value, key, scope, line) -> checked value


#: How alike a typo and a listed word must be to suggest it (``bobb``: ``bob``; not
#: ``eve``: ``dee``).
NEAR = 0.75


def member(
    value: Any,
    key: str,
    scope: Scope,
    line: int,
    noun: str,
    choices: Sequence[str],
    listed: bool = True,
) -> str:
    """Check that ``value`` is one of ``choices``; the message lists them or suggests one."""
    if isinstance(value, str) and value in choices:
        return value
    if not isinstance(value, str):
        scope.fail(line, f"{key!r} must be a {noun} id (a string), got {show(value)}")
    close = difflib.get_close_matches(value, choices, n=1)
    if listed:  # a short list is shown whole; a near miss is named first
        near = difflib.get_close_matches(value, choices, n=1, cutoff=NEAR)
        guess = f"did you mean '{near[0]}'? " if near else ""
        hint = f"{guess}{noun}s: {', '.join(choices)}"
    else:
        hint = f"did you mean '{close[0]}'?" if close else f"not one of the {len(choices)} {noun}s"
    scope.fail(line, f"unknown {noun} {show(value)}{_where(key, noun)} ({hint})")


def identifier(value: Any, key: str, scope: Scope, line: int) -> str:
    """An id: lowercase letters, digits, ``_`` and ``-``."""
    if isinstance(value, str) and ID_PATTERN.match(value):
        return value
    scope.fail(
        line,
        f"{key!r}: {show(value)} is not an id (lowercase letters, digits, "
        "'_' and '-', starting with a letter or digit)",
    )


def distinct_list(
    value: Any,
    key: str,
    scope: Scope,
    line: int,
    item: Callable[[Any], Any],
    size: int | None = None,
    nonempty: bool = False,
) -> tuple[Any, ...]:
    """Check a list of distinct strings, each checked by ``item``; return it as a tuple."""
    if not isinstance(value, (list, tuple)):
        scope.fail(line, f"{key!r} must be a list, got {show(value)}")
    if size is not None and len(value) != size:
        scope.fail(line, f"{key!r} must list exactly {size} ids, got {len(value)}")
    if nonempty and not value:
        scope.fail(line, f"{key!r} must not be empty")
    seen: set[str] = set()
    for entry in value:
        item(entry)
        if entry in seen:
            scope.fail(line, f"{key!r} lists {show(entry)} twice")
        seen.add(entry)
    return tuple(value)


def integer(value: Any, key: str, scope: Scope, line: int, least: int) -> int:
    """An integer of at least ``least`` (not a boolean)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= least:
        return value
    scope.fail(line, f"{key!r} must be an integer >= {least}, got {show(value)}")


def nonzero(value: Any, key: str, scope: Scope, line: int) -> int:
    """An integer other than 0."""
    if isinstance(value, int) and not isinstance(value, bool) and value != 0:
        return value
    scope.fail(line, f"{key!r} must be a non-zero integer, got {show(value)}")


def boolean(value: Any, key: str, scope: Scope, line: int) -> bool:
    """A boolean: true or false."""
    if isinstance(value, bool):
        return value
    scope.fail(line, f"{key!r} must be true or false, got {show(value)}")


def version(value: Any, key: str, scope: Scope, line: int) -> int:
    """The log format version this reader knows: 1."""
    if isinstance(value, int) and not isinstance(value, bool) and value == 1:
        return value
    scope.fail(line, f"unsupported version {show(value)} (this reader knows version 1)")


def players(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    """A non-empty list of distinct player ids."""
    return distinct_list(
        value, key, scope, line, lambda v: identifier(v, "players", scope, line), nonempty=True
    )


def observer(value: Any, key: str, scope: Scope, line: int) -> str | None:
    """A player of the header, or null (a spectator's log)."""
    if value is None:
        return None
    return member(value, key, scope, line, "player", scope.players)


def player(value: Any, key: str, scope: Scope, line: int) -> str:
    """A player of the header."""
    return member(value, key, scope, line, "player", scope.players)


def choice(noun: str, choices: Sequence[str]) -> Callable[[Any, str, Scope, int], str]:
    """The checker of a value that must be one of ``choices``, named ``noun``."""

    def check(value: Any, key: str, scope: Scope, line: int) -> str:
        return member(value, key, scope, line, noun, choices)

    return check


def check_text(value: str, key: str, scope: Scope, line: int) -> str:
    """Check that a string can be written as UTF-8 (no lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        scope.fail(line, f"{key} contains a lone surrogate (an invalid \\u escape)")
    return value


#: A value checker: ``(value, key, scope, line) -> checked value``.
Checker = Callable[[Any, str, Scope, int], Any]

#: The kinds every game uses (``game`` is added by the reader, which knows the games).
KINDS: dict[str, Checker] = {
    "version": version,
    "players": players,
    "observer": observer,
    "player": player,
    "count": lambda v, k, s, n: integer(v, k, s, n, 0),
    "positive": lambda v, k, s, n: integer(v, k, s, n, 1),
    "nonzero": nonzero,
    "bool": boolean,
    "id": identifier,
}
