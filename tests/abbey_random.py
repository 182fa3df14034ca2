"""Random tiny Abbey games for property tests: a true history and an observer's log of it.

``random_game`` deals a small deck, plays random transfers (parlor draws,
confessional/cell takes, masses) and writes what the observer ``me`` would
log, plus random true observations; ``random_spectator_game`` does the same
for a spectator (``me`` is None) with several masses and thefts. ``truth``
is what really happened, so any correct solver must keep it possible.
``corrupt`` swaps one observation for a random (possibly false) one. The
hypothesis strategies at the bottom wrap these behind a seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import factorial
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from deduce.errors import LogError
from deduce.games.abbey.solver.timeline import build_timeline
from deduce.logs.formats.abbey import TRAIT_GROUPS, TRAITS, AbbeySetup, Deck, deck_from_json
from deduce.logs.model import Event

PLAYER_NAMES = ("ana", "bob", "cai")
OBSERVATION_TYPES = frozenset({"hand", "has", "lacks", "count", "show", "accuse", "culprit"})


@dataclass(frozen=True)
class Truth:
    """What really happened: the culprit and the holder of every card after the last event."""

    culprit: str
    holders: dict[str, str]


def random_deck(rng: random.Random, n_cards: int) -> Deck:
    """A validated deck of cards ``c0``.. with one random trait per group."""
    if n_cards == 24:
        raise ValueError("24-card decks must meet the rulebook totals; pick another size")
    raw = [
        {
            "id": f"c{i}",
            "name": f"Card {i}",
            "traits": [rng.choice(group) for group in TRAIT_GROUPS.values()],
        }
        for i in range(n_cards)
    ]
    return deck_from_json(raw, "<random deck>")


def timeline_or_skip(setup: AbbeySetup, events: Sequence[Event]) -> Any:
    """The log's timeline, or skip the example when a corrupted log breaks the public sizes."""
    try:
        return build_timeline(setup, events, "game")
    except LogError:
        assume(False)


def deal_count(n_cards: int, n_players: int, pile: int, hand: int) -> int:
    """How many deals a deck has: n! / (1! pile! hand!^players)."""
    return factorial(n_cards) // (factorial(pile) * factorial(hand) ** n_players)


def size_options(n_cards: int, n_players: int, max_deals: int) -> list[tuple[int, int]]:
    """Every (pile, hand) with hand >= 1 that fits the deck and has at most ``max_deals`` deals."""
    options = []
    for hand in range(1, n_cards):
        pile = n_cards - 1 - n_players * hand
        if pile >= 0 and deal_count(n_cards, n_players, pile, hand) <= max_deals:
            options.append((pile, hand))
    return options


class _Log:
    """Builds events with canonical line numbers (header is line 1)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(self, kind: str, **fields: Any) -> None:
        clean = {
            k.rstrip("_"): tuple(v) if isinstance(v, list) else v
            for k, v in fields.items()
            if v is not None
        }
        self.events.append(Event(kind, clean, len(self.events) + 2))


def random_game(
    rng: random.Random,
    *,
    min_cards: int = 6,
    max_cards: int = 9,
    n_players: int | None = None,
    max_deals: int = 20_000,
    min_events: int = 3,
    max_events: int = 10,
    spectator_rate: float = 0.2,
) -> tuple[AbbeySetup, list[Event], Truth]:
    """A random tiny game: (setup, the observer's events, the truth).

    The deck has ``min_cards`` to ``max_cards`` cards, 2 or 3 players (or
    ``n_players``), and pile/hand sizes with at most ``max_deals`` deals.
    ``me`` is a player, or None with chance ``spectator_rate``. The log
    opens with me's hand, then has ``min_events`` to ``max_events`` further
    events: transfers (with the card when me is part of it, gave/got at
    masses when there is an observer) and true observations; sometimes it
    ends with the culprit revealed.
    """
    setup = _random_setup(rng, min_cards, max_cards, n_players, max_deals, spectator_rate)
    holders, culprit = _random_deal(rng, setup)
    cards_of = _cards_of(setup, holders)
    log = _Log()
    if setup.me is not None:
        log.emit("hand", player=setup.me, cards=cards_of(setup.me))
    for _ in range(rng.randint(min_events, max_events)):
        if rng.random() < 0.45:
            _random_transfer(rng, setup, holders, cards_of, log)
        else:
            _random_observation(rng, setup, holders, cards_of, log)
    _maybe_reveal(rng, setup, culprit, log)
    return setup, log.events, Truth(culprit, dict(holders))


def random_spectator_game(
    rng: random.Random,
    *,
    min_cards: int = 9,
    max_cards: int = 10,
    n_players: int | None = None,
    max_deals: int = 80_000,
    masses: tuple[int, int] = (2, 4),
    thefts: tuple[int, int] = (1, 3),
    max_observations: int = 6,
) -> tuple[AbbeySetup, list[Event], Truth]:
    """A random game seen by a spectator (``me`` is None): (setup, events, truth).

    The deck has ``min_cards`` to ``max_cards`` cards, 2 or 3 players (or
    ``n_players``). The log has between ``masses[0]`` and ``masses[1]``
    masses, ``thefts[0]`` to ``thefts[1]`` takes (a mass instead when no
    hand has a card to take) and a draw or two when the pile has cards, in
    random order, with up to ``max_observations`` true public observations
    among them; it may end with the culprit revealed.
    """
    setup = _random_setup(rng, min_cards, max_cards, n_players, max_deals, 1.0)
    holders, culprit = _random_deal(rng, setup)
    cards_of = _cards_of(setup, holders)
    transfers = (
        ["mass"] * rng.randint(*masses)
        + ["take"] * rng.randint(*thefts)
        + ["draw"] * rng.randint(0, min(2, setup.pile))
    )
    events = transfers + ["observe"] * rng.randint(0, max_observations)
    rng.shuffle(events)
    log = _Log()
    for kind in events:
        if kind == "observe":
            _random_observation(rng, setup, holders, cards_of, log)
        else:
            _random_transfer(rng, setup, holders, cards_of, log, kind)
    _maybe_reveal(rng, setup, culprit, log)
    return setup, log.events, Truth(culprit, dict(holders))


def _random_setup(
    rng: random.Random,
    min_cards: int,
    max_cards: int,
    n_players: int | None,
    max_deals: int,
    spectator_rate: float,
) -> AbbeySetup:
    """A random deck, players and sizes with at most ``max_deals`` deals; me or a spectator."""
    if n_players is not None and not 2 <= n_players <= len(PLAYER_NAMES):
        raise ValueError(f"n_players must be 2 to {len(PLAYER_NAMES)}")
    for _ in range(1000):
        n_cards = rng.randint(min_cards, max_cards)
        players_count = n_players or rng.choice((2, 3))
        options = size_options(n_cards, players_count, max_deals)
        if options:
            break
    else:
        raise ValueError("no deck size in range fits the players within max_deals")
    pile, hand = rng.choice(options)
    deck = random_deck(rng, n_cards)
    players = PLAYER_NAMES[:players_count]
    me = None if rng.random() < spectator_rate else rng.choice(players)
    return AbbeySetup(players, me, deck, pile, hand)


def _random_deal(rng: random.Random, setup: AbbeySetup) -> tuple[dict[str, str], str]:
    """A uniformly random deal: each card's holder, and the culprit."""
    order = list(setup.deck.ids)
    rng.shuffle(order)
    holders: dict[str, str] = {order[0]: "culprit"}
    for cid in order[1 : 1 + setup.pile]:
        holders[cid] = "pile"
    start = 1 + setup.pile
    for k, player in enumerate(setup.players):
        for cid in order[start + k * setup.hand : start + (k + 1) * setup.hand]:
            holders[cid] = player
    return holders, order[0]


def _cards_of(setup: AbbeySetup, holders: dict[str, str]) -> Callable[[str], list[str]]:
    """``cards_of(holder)``: the cards that holder has now, in deck order."""
    ids = list(setup.deck.ids)

    def cards_of(holder: str) -> list[str]:
        return [c for c in ids if holders[c] == holder]

    return cards_of


def _maybe_reveal(rng: random.Random, setup: AbbeySetup, culprit: str, log: _Log) -> None:
    """Sometimes end the log with the culprit revealed, or a correct accusation."""
    roll = rng.random()
    if roll < 0.2:
        log.emit("culprit", card=culprit)
    elif roll < 0.3:
        log.emit("accuse", player=rng.choice(setup.players), card=culprit, correct=True)


def _random_transfer(
    rng: random.Random,
    setup: AbbeySetup,
    holders: dict[str, str],
    cards_of: Any,
    log: _Log,
    wanted: str | None = None,
) -> None:
    """A random transfer, of kind ``wanted`` when it can happen (else a mass)."""
    players, me = setup.players, setup.me
    kinds = ["mass"]
    if cards_of("pile"):
        kinds += ["draw", "draw"]
    pairs = [(p, q) for p in players for q in players if p != q and cards_of(q)]
    if pairs:
        kinds += ["take", "take"]
    if wanted is None:
        kind = rng.choice(kinds)
    else:
        kind = wanted if wanted in kinds else "mass"
    if kind == "draw":
        player = rng.choice(players)
        card = rng.choice(cards_of("pile"))
        holders[card] = player
        log.emit("draw", player=player, card=card if player == me else None)
    elif kind == "take":
        player, source = rng.choice(pairs)
        card = rng.choice(cards_of(source))
        holders[card] = player
        log.emit("take", player=player, from_=source, card=card if me in (player, source) else None)
    else:
        n = rng.choice((1, 2))
        passed = {p: rng.sample(cards_of(p), min(n, len(cards_of(p)))) for p in players}
        for p, cards in passed.items():
            for card in cards:
                holders[card] = setup.left_of(p)
        ids = setup.deck.ids
        if me is None:
            log.emit("mass", n=n)
        else:
            log.emit(
                "mass",
                n=n,
                gave=sorted(passed[me], key=ids.index),
                got=sorted(passed[setup.right_of(me)], key=ids.index),
            )


def _random_traits(rng: random.Random, base: Sequence[str] | None = None) -> list[str]:
    """One or two traits of distinct groups, taken from ``base`` (a card's traits) if given."""
    groups = rng.sample(list(TRAIT_GROUPS), rng.choice((1, 2)))
    traits = []
    for group in groups:
        in_base = [t for t in TRAIT_GROUPS[group] if base is not None and t in base]
        traits.append(in_base[0] if in_base else rng.choice(TRAIT_GROUPS[group]))
    return [t for t in TRAITS if t in traits]


def _random_observation(
    rng: random.Random, setup: AbbeySetup, holders: dict[str, str], cards_of: Any, log: _Log
) -> None:
    """Emit one random observation that is true of ``holders``."""
    players, me, deck = setup.players, setup.me, setup.deck
    kind = rng.choice(["count", "count", "has", "lacks", "show", "show", "hand", "accuse"])
    player = rng.choice(players)
    mine = cards_of(player)
    others = [c for c in deck.ids if holders[c] != player]
    if kind == "hand" and me is not None:
        log.emit("hand", player=me, cards=cards_of(me))
    elif kind == "has" and mine:
        log.emit("has", player=player, card=rng.choice(mine))
    elif kind == "lacks" and others:
        log.emit("lacks", player=player, card=rng.choice(others))
    elif kind == "show" and mine:
        to = rng.choice([p for p in players if p != player])
        shown = rng.choice(mine)
        if to == me or (player == me and rng.random() < 0.5):
            log.emit("show", player=player, to=to, card=shown)
        else:
            traits = _random_traits(rng, deck.card(shown).traits)
            log.emit("show", player=player, to=to, traits=traits)
    elif kind == "accuse":
        held = [c for c in deck.ids if holders[c] in players and holders[c] != player]
        if held:
            card = rng.choice(held)
            shown_by = holders[card] if rng.random() < 0.85 else None
            log.emit("accuse", player=player, card=card, correct=False, shown_by=shown_by)
    else:
        base = deck.card(rng.choice(mine)).traits if mine and rng.random() < 0.7 else None
        traits = _random_traits(rng, base)
        n = sum(1 for c in mine if deck.card(c).has_traits(traits))
        log.emit("count", player=player, traits=traits, n=n)


def random_observation(
    rng: random.Random, players: Sequence[str], cards: Sequence[str], line: int
) -> Event:
    """A random observation about ``players`` and ``cards``, true or not.

    With no ``cards`` it is a count or a show of traits.
    """
    kinds = ["has", "lacks", "count", "show", "show", "hand", "accuse", "culprit"]
    kind = rng.choice(kinds if cards else ["count", "show"])
    player = rng.choice(players)
    card = rng.choice(cards) if cards else None
    fields: dict[str, Any]
    if kind in ("has", "lacks"):
        fields = {"player": player, "card": card}
    elif kind == "count":
        fields = {"player": player, "traits": tuple(_random_traits(rng)), "n": rng.randint(0, 3)}
    elif kind == "show":
        to = rng.choice([p for p in players if p != player] or [player])
        if card is not None and rng.random() < 0.5:
            fields = {"player": player, "to": to, "card": card}
        else:
            fields = {"player": player, "to": to, "traits": tuple(_random_traits(rng))}
    elif kind == "hand":
        size = rng.randint(0, min(3, len(cards)))
        fields = {"player": player, "cards": tuple(rng.sample(list(cards), size))}
    elif kind == "accuse":
        fields = {"player": player, "card": card, "correct": rng.random() < 0.3}
        if not fields["correct"] and rng.random() < 0.7:
            fields["shown_by"] = rng.choice(players)
    else:
        fields = {"card": card}
    return Event(kind, fields, line)


def corrupt(
    rng: random.Random, events: Sequence[Event], setup: AbbeySetup | None = None
) -> list[Event]:
    """The events with one observation replaced by a random one (same line).

    Players and cards come from ``setup`` when given, else from the events
    themselves (a log that names no card gets a count or a show of traits).
    A log without observations gets a random one appended.
    """
    if setup is not None:
        players, cards = list(setup.players), list(setup.deck.ids)
    else:
        players, cards = _names_in(events)
    if not players:
        raise ValueError("corrupt needs a setup or events that name players")
    result = list(events)
    spots = [i for i, e in enumerate(result) if e.type in OBSERVATION_TYPES]
    if spots:
        i = rng.choice(spots)
        result[i] = random_observation(rng, players, cards, result[i].line)
    else:
        line = result[-1].line + 1 if result else 2
        result.append(random_observation(rng, players, cards, line))
    return result


def _names_in(events: Sequence[Event]) -> tuple[list[str], list[str]]:
    players: list[str] = []
    cards: list[str] = []
    for event in events:
        for key in ("player", "from", "to", "shown_by"):
            name = event.get(key)
            if name is not None and name not in players:
                players.append(name)
        for key in ("card", "cards", "gave", "got"):
            value = event.get(key)
            names = [value] if isinstance(value, str) else list(value or ())
            cards += [c for c in names if c not in cards]
    return players, cards


#: Seeds for ``random.Random``: every strategy below is a function of one.
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def games(**kwargs: Any) -> st.SearchStrategy[tuple[AbbeySetup, list[Event], Truth]]:
    """Random games ``(setup, events, truth)``; keyword arguments go to ``random_game``."""
    return seeds.map(lambda seed: random_game(random.Random(seed), **kwargs))


def spectator_games(**kwargs: Any) -> st.SearchStrategy[tuple[AbbeySetup, list[Event], Truth]]:
    """Random spectator games; keyword arguments go to ``random_spectator_game``."""
    return seeds.map(lambda seed: random_spectator_game(random.Random(seed), **kwargs))


def corrupted_spectator_games(
    **kwargs: Any,
) -> st.SearchStrategy[tuple[AbbeySetup, list[Event], Truth]]:
    """Random spectator games with one observation replaced (or one added)."""

    def build(seed: int) -> tuple[AbbeySetup, list[Event], Truth]:
        rng = random.Random(seed)
        setup, events, truth = random_spectator_game(rng, **kwargs)
        return setup, corrupt(rng, events, setup), truth

    return seeds.map(build)


def corrupted_games(**kwargs: Any) -> st.SearchStrategy[tuple[AbbeySetup, list[Event], Truth]]:
    """Random games with one observation replaced: the truth may no longer fit the log."""

    def build(seed: int) -> tuple[AbbeySetup, list[Event], Truth]:
        rng = random.Random(seed)
        setup, events, truth = random_game(rng, **kwargs)
        return setup, corrupt(rng, events, setup), truth

    return seeds.map(build)
