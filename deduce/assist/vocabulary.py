"""The words a log's event lines can hold, by the grammar key they fill.

The keys are those of the line syntax's grammar
(each game's ``grammar`` in :mod:`deduce.logs.formats`): ``player``, ``to``, ``from``,
``shown_by`` and ``of`` hold players; ``card`` a card (Abbey) or a Goal
card (Black Rose); ``cards``, ``gave`` and ``got`` cards; ``traits`` traits;
``colour`` and ``monk`` colours; and so on. Keys that hold numbers have no
words. Fixed words (``to``, ``right``/``wrong``...) come from the grammar
itself.
"""

from __future__ import annotations

from collections.abc import Mapping

from deduce.logs.model import Header
from deduce.registry import game

#: Grammar keys that hold a player.
PLAYER_KEYS = ("player", "to", "from", "shown_by", "of")

Vocabulary = Mapping[str, tuple[str, ...]]


def vocabulary(header: Header, path: str = "<log>") -> Vocabulary:
    """Grammar key -> the words it can hold in a log with this header.

    The game's own words come from :meth:`deduce.games.protocol.Game.words`.
    """
    return {**dict.fromkeys(PLAYER_KEYS, header.players), **game(header.game).words(header, path)}
