"""The fixed facts of an Abbey game: seats, observer, deck, pile and hand sizes."""

from __future__ import annotations

from dataclasses import dataclass

from deduce.errors import LogError
from deduce.games.abbey.deck import Deck, deck_from_json, default_deck
from deduce.logs.model import Header

#: Rulebook pile and hand sizes for the 24-card deck, by number of players.
RULEBOOK_SIZES: dict[int, tuple[int, int]] = {3: (5, 6), 4: (3, 5), 5: (3, 4), 6: (5, 3)}


@dataclass(frozen=True)
class AbbeySetup:
    """Who plays, who observes, and how the deck was dealt (pile and cards per player)."""

    players: tuple[str, ...]
    me: str | None
    deck: Deck
    pile: int
    hand: int

    def left_of(self, player: str) -> str:
        """The player's left neighbour: the next seat in turn order, wrapping around."""
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def right_of(self, player: str) -> str:
        """The player whose left neighbour is ``player``."""
        i = self.players.index(player)
        return self.players[i - 1]


def setup_from_header(header: Header, path: str, deck_override: Deck | None = None) -> AbbeySetup:
    """Resolve an abbey header into a setup, checking that the sizes add up.

    ``deck_override`` (from ``--deck``) replaces a default deck; it may not
    replace a different inline deck.
    """
    line = header.line
    raw_deck = header.extra.get("deck", "default")
    if raw_deck == "default":
        deck = deck_override or default_deck()
    elif isinstance(raw_deck, (list, tuple)):
        deck = deck_from_json(list(raw_deck), path, line)
        if deck_override is not None and deck_override.cards != deck.cards:
            raise LogError(path, line, "the log carries its own deck, which differs from --deck")
    else:
        raise LogError(path, line, 'deck must be "default" or a list of cards')
    reserved = {"culprit", "pile"} & set(header.players)
    if reserved:
        raise LogError(path, line, f"{sorted(reserved)[0]!r} cannot be a player's name in an abbey "
                       "log: it names a holder of cards")
    n = len(header.players)
    pile, hand = header.extra.get("pile"), header.extra.get("hand")
    if pile is None or hand is None:
        if len(deck) != 24 or n not in RULEBOOK_SIZES:
            raise LogError(path, line, "pile and hand are required unless the deck has 24 cards "
                           "and there are 3 to 6 players")
        default_pile, default_hand = RULEBOOK_SIZES[n]
        pile = default_pile if pile is None else pile
        hand = default_hand if hand is None else hand
    if n < 2:
        raise LogError(path, line, "an abbey game needs at least 2 players")
    if 1 + pile + n * hand != len(deck):
        raise LogError(path, line, f"the deck has {len(deck)} cards but 1 culprit + pile {pile} "
                       f"+ {n} players x hand {hand} = {1 + pile + n * hand}")
    return AbbeySetup(header.players, header.me, deck, pile, hand)
