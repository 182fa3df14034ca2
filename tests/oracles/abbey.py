"""Brute-force reference for Mystery of the Abbey: every hidden history, weighted exactly.

This module is the yardstick the real solver is tested against, so it is
written straight from the log format's definition of the prior and of each
event, with no cleverness beyond what is needed to finish on tiny games:

- A *state* says which holder (``"culprit"``, ``"pile"`` or a player) has
  each card, in deck order.
- A *history* is a deal followed by one hidden choice per transfer event:
  the card drawn from the pile, the card taken from a hand, or the subset
  each player passes at a mass. Its weight is the product of the chances of
  its choices: ``1/#deals`` for the deal, ``1/|pile|`` for a draw,
  ``1/|hand|`` for a take and ``1/C(h, k)`` per player at a mass.
- A history is *consistent* when every observation holds at its own moment
  (and a transfer's known card or a mass's ``gave``/``got`` matches the
  choice made). Histories are cut short as soon as one observation fails.

``enumerate_posterior`` walks the events forward over the set of reachable
states, adding together histories that reach the same state: what can
happen next depends only on the current state, so this is exactly the sum
over complete histories, just without listing them one by one.
``consistent_histories`` lists them one by one, for debugging and as a
cross-check of the forward pass.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, product
from math import comb, factorial, lcm

from deduce.logs.formats.abbey import AbbeySetup
from deduce.logs.model import Event

CULPRIT = "culprit"
PILE = "pile"

#: The holder of each card, in deck order.
State = tuple[str, ...]

#: Event types that only observe the state (transfers are ``draw``, ``take``, ``mass``).
OBSERVATIONS = frozenset({"hand", "has", "lacks", "count", "show", "accuse", "culprit"})
TRANSFERS = frozenset({"draw", "take", "mass"})


@dataclass(frozen=True)
class BruteResult:
    """The exact posterior given a log.

    ``weight``: prior probability of the log (sum of the weights of the
    consistent histories; 0 when the log is inconsistent).
    ``histories``: how many complete consistent histories there are.
    ``culprit``: card id -> posterior probability of being the culprit.
    ``holders``: card id -> holder -> posterior probability that the holder
    has the card after the last event. Zero probabilities are left out, so
    both maps are empty when ``weight`` is 0.
    """

    weight: Fraction
    histories: int
    culprit: dict[str, Fraction] = field(default_factory=dict)
    holders: dict[str, dict[str, Fraction]] = field(default_factory=dict)

    @property
    def consistent(self) -> bool:
        """Whether at least one history agrees with every event."""
        return self.weight > 0


def number_of_deals(setup: AbbeySetup) -> int:
    """How many distinct deals there are: n! / (1! pile! hand!^players)."""
    n = len(setup.deck)
    return factorial(n) // (factorial(setup.pile) * factorial(setup.hand) ** len(setup.players))


def enumerate_posterior(setup: AbbeySetup, events: Sequence[Event]) -> BruteResult:
    """Sum every consistent history of the log and return the exact posterior.

    The forward pass keeps, for each reachable state, the total weight and
    the number of the consistent partial histories that end in it.
    """
    rules = _Rules(setup)
    layer: dict[State, tuple[Fraction, int]] = {}
    for weight, state in rules.deals():
        _add(layer, state, weight, 1)
    for event in events:
        following: dict[State, tuple[Fraction, int]] = {}
        for state, (weight, count) in layer.items():
            last_chance, moved = ONE, weight
            for chance, after in rules.steps(state, event):
                if chance is not last_chance:  # every successor of a mass shares one chance
                    last_chance, moved = chance, weight * chance
                _add(following, after, moved, count)
        layer = following

    histories = sum(k for _, k in layer.values())
    if not layer:
        return BruteResult(Fraction(0), 0)
    # Exact sums over a common denominator: plain integers add much faster than Fractions.
    scale = lcm(*(w.denominator for w, _ in layer.values()))
    total = 0
    culprit = [0] * len(rules.ids)
    holders: list[dict[str, int]] = [{} for _ in rules.ids]
    for state, (weight, _) in layer.items():
        share = weight.numerator * (scale // weight.denominator)
        total += share
        for i, holder in enumerate(state):
            holders[i][holder] = holders[i].get(holder, 0) + share
            if holder == CULPRIT:
                culprit[i] += share
    return BruteResult(
        weight=Fraction(total, scale),
        histories=histories,
        culprit={cid: Fraction(w, total) for cid, w in zip(rules.ids, culprit, strict=True) if w},
        holders={
            cid: {h: Fraction(w, total) for h, w in by.items() if w}
            for cid, by in zip(rules.ids, holders, strict=True)
        },
    )


def consistent_histories(
    setup: AbbeySetup, events: Sequence[Event]
) -> Iterator[tuple[Fraction, tuple[dict[str, str], ...]]]:
    """Yield every consistent complete history with its weight, one by one.

    A history is a tuple of ``len(events) + 1`` maps card id -> holder: the
    deal, then the state after each event. Two histories that differ only in
    a hidden choice (e.g. which cards a player passed at a mass) may show the
    same states; they are still listed separately. Only for tiny games.
    """
    rules = _Rules(setup)

    def walk(
        i: int, weight: Fraction, path: tuple[State, ...]
    ) -> Iterator[tuple[Fraction, tuple[State, ...]]]:
        if i == len(events):
            yield weight, path
            return
        for chance, after in rules.steps(path[-1], events[i]):
            yield from walk(i + 1, weight * chance, (*path, after))

    for weight, state in rules.deals():
        for total, path in walk(0, weight, (state,)):
            yield total, tuple(dict(zip(rules.ids, s, strict=True)) for s in path)


def _add(
    layer: dict[State, tuple[Fraction, int]], state: State, weight: Fraction, count: int
) -> None:
    old = layer.get(state)
    layer[state] = (weight, count) if old is None else (old[0] + weight, old[1] + count)


ONE = Fraction(1)


class _Rules:
    """The deal and the effect of each event, for one setup."""

    def __init__(self, setup: AbbeySetup) -> None:
        if CULPRIT in setup.players or PILE in setup.players:
            raise ValueError(
                "a player named 'culprit' or 'pile' cannot be told apart from that holder"
            )
        if 1 + setup.pile + len(setup.players) * setup.hand != len(setup.deck):
            raise ValueError("deck size is not 1 + pile + players x hand")
        if setup.me is not None and setup.me not in setup.players:
            raise ValueError(f"me {setup.me!r} is not a player")
        self.setup = setup
        self.ids = setup.deck.ids
        self.cards = setup.deck.cards
        self.position = {cid: i for i, cid in enumerate(self.ids)}
        self.left = {p: setup.left_of(p) for p in setup.players}
        self.passes_to_me = None if setup.me is None else setup.right_of(setup.me)

    def deals(self) -> Iterator[tuple[Fraction, State]]:
        """Yield every deal (culprit, pile, then each player's hand) with chance 1/#deals."""
        setup = self.setup
        n = len(self.ids)
        chance = Fraction(1, number_of_deals(setup))
        sizes = [(CULPRIT, 1), (PILE, setup.pile)] + [(p, setup.hand) for p in setup.players]

        def fill(k: int, free: tuple[int, ...], holders: list[str]) -> Iterator[State]:
            if k == len(sizes):
                yield tuple(holders)
                return
            name, size = sizes[k]
            for chosen in combinations(free, size):
                for i in chosen:
                    holders[i] = name
                rest = tuple(i for i in free if i not in chosen)
                yield from fill(k + 1, rest, holders)

        for state in fill(0, tuple(range(n)), [""] * n):
            yield chance, state

    def steps(self, state: State, event: Event) -> Iterator[tuple[Fraction, State]]:
        """Yield every way ``event`` can happen in ``state`` and agree with the log.

        Yields (chance, next state). An observation yields the state
        unchanged with chance 1 when it holds, and nothing when it does not.
        """
        kind = event.type
        if kind in OBSERVATIONS:
            if self.holds(state, event):
                yield ONE, state
        elif kind == "draw":
            yield from self.move_one(state, _cards_of(state, PILE), event)
        elif kind == "take":
            source = self.player(event, "from")
            yield from self.move_one(state, _cards_of(state, source), event)
        elif kind == "mass":
            yield from self.mass(state, event)
        else:
            raise ValueError(f"line {event.line}: unknown abbey event type {kind!r}")

    def player(self, event: Event, key: str = "player") -> str:
        """Return the player named by ``event[key]``, checked."""
        name = event.get(key)
        if name not in self.left:
            raise ValueError(f"line {event.line}: unknown player {name!r}")
        return name

    def index(self, event: Event, card_id: str | None) -> int:
        """Return the deck position of a card named by the event, checked."""
        if card_id not in self.position:
            raise ValueError(f"line {event.line}: unknown card {card_id!r}")
        return self.position[card_id]

    def move_one(
        self, state: State, source: list[int], event: Event
    ) -> Iterator[tuple[Fraction, State]]:
        """Move a uniformly random card of ``source`` to the event's player (none if empty)."""
        to = self.player(event)
        known = event.get("card")
        wanted = None if known is None else self.index(event, known)
        if not source:
            return
        chance = Fraction(1, len(source))
        for i in source:
            if wanted is not None and i != wanted:
                continue
            after = list(state)
            after[i] = to
            yield chance, tuple(after)

    def mass(self, state: State, event: Event) -> Iterator[tuple[Fraction, State]]:
        """Let every player at once pass a uniformly random min(n, hand)-subset to the left.

        ``gave`` must be exactly the set the observer passed and ``got``
        exactly the set passed by the player on the observer's right.
        """
        n = event.get("n")
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"line {event.line}: a mass needs a card count n >= 0")
        gave, got = event.get("gave"), event.get("got")
        me = self.setup.me
        if me is None and (gave is not None or got is not None):
            raise ValueError(f"line {event.line}: gave/got need an observer (me)")
        options: list[list[tuple[int, ...]]] = []
        ways = 1
        for player in self.setup.players:
            hand = _cards_of(state, player)
            k = min(n, len(hand))
            subsets = list(combinations(hand, k))
            ways *= comb(len(hand), k)
            if player == me and gave is not None:
                subsets = [s for s in subsets if self.names(s) == sorted(gave)]
            if player == self.passes_to_me and got is not None:
                subsets = [s for s in subsets if self.names(s) == sorted(got)]
            options.append(subsets)
        chance = Fraction(1, ways)
        for choice in product(*options):
            after = list(state)
            for player, passed in zip(self.setup.players, choice, strict=True):
                for i in passed:
                    after[i] = self.left[player]
            yield chance, tuple(after)

    def names(self, positions: Sequence[int]) -> list[str]:
        """Return the sorted ids of the cards at these deck positions."""
        return sorted(self.ids[i] for i in positions)

    def holds(self, state: State, event: Event) -> bool:
        """Whether an observation event is true in ``state``."""
        kind = event.type

        def holder() -> str:
            return state[self.index(event, event.get("card"))]

        def count_with(traits: Sequence[str] | None) -> int:
            if traits is None:
                raise ValueError(f"line {event.line}: traits missing")
            mine = _cards_of(state, self.player(event))
            return sum(1 for i in mine if self.cards[i].has_traits(traits))

        if kind == "hand":
            return self.names(_cards_of(state, self.player(event))) == sorted(event.get("cards"))
        if kind == "has":
            return holder() == self.player(event)
        if kind == "lacks":
            return holder() != self.player(event)
        if kind == "count":
            return count_with(event.get("traits")) == event.get("n")
        if kind == "show":
            if event.get("card") is not None:
                return holder() == self.player(event)
            return count_with(event.get("traits")) >= 1
        if kind == "accuse":
            if event.get("correct"):
                return holder() == CULPRIT
            shown_by = event.get("shown_by")
            if shown_by is not None:
                return holder() == self.player(event, "shown_by")
            return holder() != CULPRIT
        if kind == "culprit":
            return holder() == CULPRIT
        raise ValueError(f"line {event.line}: {kind!r} is not an observation")


def _cards_of(state: State, holder: str) -> list[int]:
    """Deck positions of the cards ``holder`` has in ``state``."""
    return [i for i, h in enumerate(state) if h == holder]
