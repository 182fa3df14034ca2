"""The Abbey's header vocabulary: suspect cards and traits, the deck, the setup sizes.

A log's header names the deck (inline or the bundled default) and may give
the pile and hand sizes; this module reads and checks them, for the log
layer and for the game alike.

The rulebook prints the trait totals of the 24 suspects but not the cards
themselves. The bundled deck (``deduce/data/abbey-deck.json``) is a default
that meets every printed total; it is not the printed card list. Users load
their own with ``--deck FILE`` or an inline ``deck`` in the log header.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from deduce.data import bundled_json
from deduce.data.located import lines_of, read_located
from deduce.errors import LogError
from deduce.logs.ids import ID_PATTERN
from deduce.logs.model import Header

#: The five trait groups; every card has exactly one trait of each.
TRAIT_GROUPS: dict[str, tuple[str, ...]] = {
    "order": ("templar", "franciscan", "benedictine"),
    "title": ("father", "brother", "novice"),
    "hood": ("hooded", "bareheaded"),
    "face": ("bearded", "shaven"),
    "girth": ("fat", "thin"),
}
TRAITS: tuple[str, ...] = tuple(t for group in TRAIT_GROUPS.values() for t in group)
GROUP_OF: dict[str, str] = {t: g for g, ts in TRAIT_GROUPS.items() for t in ts}

#: How many of the 24 suspects carry each trait (rulebook, "Setting up the Game").
RULEBOOK_TOTALS: dict[str, int] = {
    "templar": 8,
    "franciscan": 8,
    "benedictine": 8,
    "father": 6,
    "brother": 9,
    "novice": 9,
    "hooded": 12,
    "bareheaded": 12,
    "bearded": 12,
    "shaven": 12,
    "fat": 12,
    "thin": 12,
}


def show_requests() -> list[tuple[str, ...]]:
    """What the parlor's "show me" may ask for: one trait, or two of different groups."""
    singles: list[tuple[str, ...]] = [(t,) for t in TRAITS]
    pairs = [
        (a, b) for i, a in enumerate(TRAITS) for b in TRAITS[i + 1 :] if GROUP_OF[a] != GROUP_OF[b]
    ]
    return singles + pairs


DEFAULT_DECK_FILE = "abbey-deck.json"


@dataclass(frozen=True)
class Card:
    """A suspect card: lowercase id, display name and its five traits."""

    id: str
    name: str
    traits: frozenset[str]

    def has_traits(self, traits: Iterable[str]) -> bool:
        """Whether the card has every one of ``traits``."""
        return self.traits.issuperset(traits)

    def to_json(self) -> dict[str, Any]:
        """The card as written in a log header or deck file (traits in group order)."""
        return {"id": self.id, "name": self.name, "traits": [t for t in TRAITS if t in self.traits]}


#: Most cards a deck may have (the game's has 24).
MAX_DECK = 100


@dataclass(frozen=True)
class Deck:
    """An ordered, validated list of cards."""

    cards: tuple[Card, ...]

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def ids(self) -> tuple[str, ...]:
        """Card ids in deck order."""
        return tuple(c.id for c in self.cards)

    def card(self, card_id: str) -> Card:
        """The card with this id (``KeyError`` if absent)."""
        return self._index[card_id]

    @cached_property
    def _index(self) -> dict[str, Card]:
        """Cards by id, built once per deck (a deck sent to another process builds its own)."""
        return {c.id: c for c in self.cards}

    def to_json(self) -> list[dict[str, Any]]:
        """The deck as an inline header list."""
        return [c.to_json() for c in self.cards]


def parse_traits(raw: Any, where: tuple[str, int | None], what: str = "traits") -> tuple[str, ...]:
    """Validate a list of trait names (no repeats, at most one per group) and return it."""
    path, line = where
    if not isinstance(raw, (list, tuple)) or not raw:
        raise LogError(path, line, f"{what} must be a non-empty list of traits")
    seen_groups: set[str] = set()
    for trait in raw:
        if not isinstance(trait, str) or trait not in GROUP_OF:
            close = difflib.get_close_matches(str(trait), TRAITS, n=1, cutoff=0.75)
            guess = f"did you mean '{close[0]}'? " if close else ""
            raise LogError(
                path, line, f"unknown trait {trait!r} ({guess}traits: {', '.join(TRAITS)})"
            )
        group = GROUP_OF[trait]
        if group in seen_groups:
            raise LogError(path, line, f"{what} name two traits of the {group} group")
        seen_groups.add(group)
    return tuple(raw)


def deck_from_json(raw: Any, path: str, line: int | None = None) -> Deck:
    """Build a deck from its JSON list form, checking ids, names and traits.

    A 24-card deck must also meet the rulebook's trait totals.
    """
    if not isinstance(raw, list) or not raw:
        raise LogError(path, line, "a deck must be a non-empty list of cards")
    if len(raw) > MAX_DECK:
        raise LogError(path, line, f"a deck has at most {MAX_DECK} cards, got {len(raw)}")
    cards: list[Card] = []
    seen: set[str] = set()
    for i, item in enumerate(raw, 1):
        with lines_of(item):  # a deck file's errors name the card's line
            if not isinstance(item, dict):
                raise LogError(
                    path, line, f"deck card {i} must be an object with id, name and traits"
                )
            unknown = set(item) - {"id", "name", "traits"}
            if unknown:
                raise LogError(path, line, f"deck card {i}: unknown key {sorted(unknown)[0]!r}")
            cid, traits = item.get("id"), item.get("traits")
            name = item.get("name", cid)
            if not isinstance(cid, str) or not ID_PATTERN.match(cid):
                raise LogError(path, line, f"deck card {i}: id must match [a-z0-9][a-z0-9_-]*")
            if cid in GROUP_OF:
                raise LogError(path, line, f"deck card {i}: id {cid!r} is a trait name")
            if cid in seen:
                raise LogError(path, line, f"deck card {i}: duplicate id {cid!r}")
            if not isinstance(name, str) or not name.strip():
                raise LogError(path, line, f"deck card {cid!r}: name must be a non-empty string")
            parsed = parse_traits(traits, (path, line), f"deck card {cid!r} traits")
            if len(parsed) != len(TRAIT_GROUPS):
                missing = sorted(set(TRAIT_GROUPS) - {GROUP_OF[t] for t in parsed})
                raise LogError(path, line, f"deck card {cid!r} has no {missing[0]} trait")
            seen.add(cid)
            cards.append(Card(cid, name, frozenset(parsed)))
    if len(cards) == 24:
        check_rulebook_totals(cards, path, line)
    return Deck(tuple(cards))


def check_rulebook_totals(cards: Sequence[Card], path: str, line: int | None) -> None:
    """Raise unless the 24 cards carry each trait as many times as the rulebook says."""
    counts = Counter(t for c in cards for t in c.traits)
    for trait, expected in RULEBOOK_TOTALS.items():
        if counts[trait] != expected:
            raise LogError(
                path,
                line,
                f"a 24-card deck needs {expected} {trait} cards "
                f"(rulebook totals), this one has {counts[trait]}",
            )


@cache
def default_deck() -> Deck:
    """The bundled default deck (not the printed cards: see the module docstring)."""
    return deck_from_json(bundled_json(DEFAULT_DECK_FILE)["cards"], DEFAULT_DECK_FILE)


def load_deck_file(path: str) -> Deck:
    """Read a deck file: a JSON list of cards, or an object with a ``cards`` list."""
    top = read_located(path, "deck file")
    with lines_of(top):
        raw = top
        if isinstance(raw, dict):
            unknown = set(raw) - {"cards", "note"}
            if unknown:
                raise LogError(path, None, f"unknown key {sorted(unknown)[0]!r} in deck file")
            raw = raw.get("cards")
        with lines_of(raw):
            return deck_from_json(raw, path)


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
    n = len(header.players)
    pile, hand = header.extra.get("pile"), header.extra.get("hand")
    if pile is None or hand is None:
        if len(deck) != 24 or n not in RULEBOOK_SIZES:
            raise LogError(
                path,
                line,
                "pile and hand are required unless the deck has 24 cards "
                "and there are 3 to 6 players",
            )
        default_pile, default_hand = RULEBOOK_SIZES[n]
        pile = default_pile if pile is None else pile
        hand = default_hand if hand is None else hand
    if n < 2:
        raise LogError(path, line, "an abbey game needs at least 2 players")
    if 1 + pile + n * hand != len(deck):
        raise LogError(
            path,
            line,
            f"the deck has {len(deck)} cards but 1 culprit + pile {pile} "
            f"+ {n} players x hand {hand} = {1 + pile + n * hand}",
        )
    return AbbeySetup(header.players, header.me, deck, pile, hand)
