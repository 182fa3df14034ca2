"""The seven suspects of The Black Rose.

The rulebook does not name the suspects, so the bundled ones
(``deduce/data/blackrose-suspects.json``) are plain ids ``s1`` to ``s7``,
numbered by their place in the arc around the Graveyard board. They are
defaults, not printed cards; a log may list its own seven ids in the header's
``suspects`` key.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from deduce.data import bundled_json
from deduce.logs.model import Header

#: A game always has exactly this many suspects.
SUSPECT_COUNT = 7
DEFAULT_SUSPECTS_FILE = "blackrose-suspects.json"


@dataclass(frozen=True)
class Suspect:
    """A suspect: lowercase id and display name."""

    id: str
    name: str


@cache
def default_suspects() -> tuple[Suspect, ...]:
    """Return the bundled default suspects (placeholders, see the module docstring)."""
    raw = bundled_json(DEFAULT_SUSPECTS_FILE)["suspects"]
    return tuple(Suspect(s["id"], s["name"]) for s in raw)


def default_suspect_ids() -> tuple[str, ...]:
    """Return the ids of the bundled default suspects, in board order."""
    return tuple(s.id for s in default_suspects())


def suspects_of(header: Header) -> tuple[str, ...]:
    """Return the suspect ids of a blackrose game: the header's list, else the defaults."""
    listed = header.extra.get("suspects")
    return tuple(listed) if listed is not None else default_suspect_ids()
