"""The in-memory form of a game log, shared by every game and both syntaxes.

A log is a header and a list of events. Values are stored as in the canonical
JSON (strings, ints, bools, dicts) except that JSON lists become tuples, so
logs are hashable and cannot be changed by accident. ``line`` is the physical
line of the file the value was read from (1-based); logs built in memory carry
the line they would have in canonical form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

GAMES = ("abbey", "rose", "blackrose")


@dataclass(frozen=True)
class Header:
    """Line 1 of a log: the game, the seats, the observer and game-specific keys.

    ``extra`` holds the game-specific keys exactly as present in the file
    (abbey: ``deck``, ``pile``, ``hand``; blackrose: ``rector``, ``suspects``).
    """

    game: str
    players: tuple[str, ...]
    me: str | None
    version: int = 1
    extra: Mapping[str, Any] = field(default_factory=dict)
    note: str | None = None
    line: int = 1


@dataclass(frozen=True)
class Event:
    """One observation or transfer.

    ``fields`` holds the event's keys other than ``type`` and ``note``, only
    those present in the file (an unknown card is an absent ``card`` key).
    """

    type: str
    fields: Mapping[str, Any]
    line: int
    note: str | None = None

    def get(self, key: str, default: Any = None) -> Any:
        """Return field ``key``, or ``default`` when the event does not have it."""
        return self.fields.get(key, default)


@dataclass(frozen=True)
class GameLog:
    """A whole log as read from ``path`` (used in error messages)."""

    header: Header
    events: tuple[Event, ...]
    path: str = "<log>"
