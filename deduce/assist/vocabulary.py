"""The words a log's event lines can hold, by the grammar key they fill.

The keys are those of the line syntax's grammar
(:data:`deduce.logs.text.GRAMMAR`): ``player``, ``to``, ``from``,
``shown_by`` and ``of`` hold players; ``card`` a card (Abbey) or a Goal
card (Black Rose); ``cards``, ``gave`` and ``got`` cards; ``traits`` traits;
``colour`` and ``monk`` colours; and so on. Keys that hold numbers have no
words. Fixed words (``to``, ``right``/``wrong``...) come from the grammar
itself.
"""

from __future__ import annotations

from collections.abc import Mapping

from deduce.games.blackrose.cards import default_cards
from deduce.logs.model import Header
from deduce.logs.schema import CAUSES, COLOURS, CONDITIONS, ROLES, TRACKS
from deduce.logs.vocabulary.abbey import TRAITS, setup_from_header
from deduce.logs.vocabulary.blackrose import suspects_of

#: Grammar keys that hold a player.
PLAYER_KEYS = ("player", "to", "from", "shown_by", "of")

Vocabulary = Mapping[str, tuple[str, ...]]


def _game_words(header: Header, path: str) -> dict[str, tuple[str, ...]]:
    """The words that depend on the game: cards, traits, colours, suspects..."""
    if header.game == "abbey":
        ids = setup_from_header(header, path).deck.ids
        return {"card": ids, "cards": ids, "gave": ids, "got": ids, "traits": TRAITS}
    if header.game == "rose":
        return {"colour": COLOURS, "monk": COLOURS, "track": TRACKS, "cause": CAUSES}
    goals = tuple(card.id for card in default_cards().rector if card.kind == "goal")
    suspects = suspects_of(header)
    return {"role": ROLES, "suspect": suspects, "suspects": suspects, "card": goals,
            "condition": tuple(CONDITIONS)}


def vocabulary(header: Header, path: str = "<log>") -> Vocabulary:
    """Grammar key -> the words it can hold in a log with this header."""
    return {**dict.fromkeys(PLAYER_KEYS, header.players), **_game_words(header, path)}
