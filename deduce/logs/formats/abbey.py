"""The Abbey's log format: suspect cards and traits, the deck, the setup, its events.

This module is the one home of what the log format says about Mystery of
the Abbey: the header's ``deck``, ``pile`` and ``hand`` and how they resolve
into an :class:`AbbeySetup`, the event types and their line syntax, the
value kinds (``card``, ``cards``, ``traits``, ``deck``) and the names no
player may have. The game (:mod:`deduce.games.abbey`) imports its types from
here; the commands reach them only through the game.

The rulebook prints the trait totals of the 24 suspects but not the cards
themselves. The bundled deck (``deduce/data/abbey-deck.json``) is a default
that meets every printed total; it is not the printed card list. Users load
their own with ``--deck FILE`` or an inline ``deck`` in the log header; ``deduce
deck template`` writes a deck file to fill in (:func:`deck_template`).
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property
from typing import Any

from deduce.data import bundled_json
from deduce.data.located import lines_of, read_located
from deduce.errors import LogError
from deduce.logs.grammar import (
    Either,
    Flag,
    HeaderWord,
    Joined,
    Keyword,
    Maybe,
    Number,
    Rest,
    Word,
    free_text,
    read_free_text,
)
from deduce.logs.ids import ID_PATTERN
from deduce.logs.kinds import Scope, check_text, distinct_list, member, show
from deduce.logs.model import Header
from deduce.logs.schema import EventSchema, LogFormat, events, opt, req

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


# --------------------------------------------------------------------------
# The deck file template (``deduce deck template``)

TEMPLATE_NOTE = (
    "Fill this file in with the 24 suspect cards of your box, then play with "
    "`deduce play --deck FILE` (a new log carries the deck in its header) or solve with "
    "`deduce solve --deck FILE LOG`. For each card: 'id' is the short lowercase name you will "
    "type in the log (letters, digits, - and _; for example the monk's name), 'name' the name "
    "printed on the card, 'traits' one trait of each group read off the card: "
    + "; ".join(f"{group}: {' or '.join(traits)}" for group, traits in TRAIT_GROUPS.items())
    + ". deduce checks the whole deck against the rulebook's totals: "
    + ", ".join(f"{trait} {n}" for trait, n in RULEBOOK_TOTALS.items())
    + ". The 24 slots below start as deduce's invented default deck, which meets those "
    "totals: replace every id, name and trait with your cards'."
)


def deck_template() -> str:
    """The template's JSON text: ``note`` (the steps above) and the 24 ``cards``."""
    cards = [card.to_json() for card in default_deck().cards]
    return json.dumps({"note": TEMPLATE_NOTE, "cards": cards}, indent=1, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------
# Value kinds


def _card(value: Any, key: str, scope: Scope, line: int) -> str:
    return member(value, key, scope, line, "card", scope.known.get("card", ()), listed=False)


def _cards(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    return distinct_list(value, key, scope, line, lambda v: _card(v, key, scope, line))


def _traits(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    return parse_traits(value, (scope.path, line), repr(key))


def _deck(value: Any, key: str, scope: Scope, line: int) -> str | tuple[dict[str, Any], ...]:
    if value == "default":
        return "default"
    if not isinstance(value, (list, tuple)):
        scope.fail(line, f"'deck' must be \"default\" or a list of cards, got {show(value)}")
    deck = deck_from_json(list(value), scope.path, line)
    for card in deck.cards:
        check_text(card.name, f"deck card {card.id!r} name", scope, line)
    return tuple({**card, "traits": tuple(card["traits"])} for card in deck.to_json())


def supplied_deck(supplied: object) -> Deck | None:
    """The deck the player supplied (``--deck``, read by ``load_deck_file``), or None."""
    if supplied is None or isinstance(supplied, Deck):
        return supplied
    raise TypeError(f"the abbey takes a Deck as its deck, not {type(supplied).__name__}")


def _finish(header: Header, scope: Scope, supplied: object) -> Scope:
    """Resolve the setup (``supplied``: the ``--deck`` deck); the events may name its cards."""
    setup = setup_from_header(header, scope.path, supplied_deck(supplied))
    return replace(scope, known={"card": setup.deck.ids})


# --------------------------------------------------------------------------
# The line syntax's inline deck: ``card ID TRAIT TRAIT TRAIT TRAIT TRAIT [NAME]``

_CARD_LINE = re.compile(r"\s*card" + r"\s+([^\s#]+)" * 6 + r"(.*)\Z")


class CardLine:
    """One inline deck card a line; NAME is the rest of the line (default: ID)."""

    def read(self, line: str, path: str, number: int) -> dict[str, Any]:
        """Return the card of one ``card`` line."""
        match = _CARD_LINE.match(line)
        if match is None:
            raise LogError(
                path, number, "a card line is: card ID TRAIT TRAIT TRAIT TRAIT TRAIT [NAME]"
            )
        card: dict[str, Any] = {"id": match[1], "traits": list(match.groups()[1:6])}
        name = read_free_text(match[7].strip(), path, number, "a card name")
        if name is not None:
            card["name"] = name
        return card

    def write(self, value: Mapping[str, Any]) -> str:
        """Return the ``card`` line of one card."""
        name = free_text(value.get("name", value["id"]))
        return f"card {value['id']} {' '.join(value['traits'])} {name}"


# --------------------------------------------------------------------------
# The format

_PLAYER = Word("player", "PLAYER")
_CARD = Word("card", "CARD")
_TRAITS = Joined("traits", "TRAIT[+TRAIT...]")
_MASS_WORDS = ("gave", "got")

#: What the log format says about the Abbey.
FORMAT = LogFormat(
    game="abbey",
    events=events(
        EventSchema("hand", (req("player", "player"), req("cards", "cards"))),
        EventSchema("has", (req("player", "player"), req("card", "card"))),
        EventSchema("lacks", (req("player", "player"), req("card", "card"))),
        EventSchema("count", (req("player", "player"), req("traits", "traits"), req("n", "count"))),
        EventSchema(
            "show",
            (
                req("player", "player"),
                req("to", "player", differs_from="player"),
                opt("card", "card"),
                opt("traits", "traits"),
            ),
            exactly_one=("card", "traits"),
        ),
        EventSchema("draw", (req("player", "player"), opt("card", "card"))),
        EventSchema(
            "take",
            (
                req("player", "player"),
                req("from", "player", differs_from="player"),
                opt("card", "card"),
            ),
        ),
        EventSchema(
            "mass",
            (
                req("n", "positive"),
                opt("gave", "cards", observer_only=True),
                opt("got", "cards", observer_only=True),
            ),
        ),
        EventSchema(
            "accuse",
            (
                req("player", "player"),
                req("card", "card"),
                req("correct", "bool"),
                opt("shown_by", "player", only_when=("correct", False)),
            ),
        ),
        EventSchema("culprit", (req("card", "card"),)),
    ),
    grammar={
        "hand": (_PLAYER, Rest("cards", "[CARD...]")),
        "has": (_PLAYER, _CARD),
        "lacks": (_PLAYER, _CARD),
        "count": (_PLAYER, _TRAITS, Number("n", "N")),
        "show": (_PLAYER, Keyword("to", Word("to", "PLAYER")), Either(_CARD, _TRAITS, TRAITS)),
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
    header=(opt("deck", "deck"), opt("pile", "count"), opt("hand", "count")),
    header_words={
        "deck": HeaderWord("deck"),
        "card": HeaderWord("deck", item=CardLine()),
        "pile": HeaderWord("pile", "number"),
        "hand": HeaderWord("hand", "number"),
    },
    kinds={"card": _card, "cards": _cards, "traits": _traits, "deck": _deck},
    # the holders of cards beside the players in every table
    reserved_names=("culprit", "pile"),
    finish=_finish,
)
