"""The constraint model of an Abbey log: card paths and tallies.

Glossary
--------
path
    The holder of one card at every epoch (see :mod:`timeline`). A history of
    the game is one path per card; all histories are equally likely under the
    spec's prior, because every chance step picks uniformly among a number of
    options that the public hand sizes fix.
domain
    The paths a card may still take, as a layered graph: ``nodes[e]`` are the
    holders it may have at epoch ``e`` and ``steps[t]`` the (from, to) pairs it
    may follow at transfer ``t`` (``from == to``: it stays).
tally
    A counting constraint: the number of cards in ``cards`` whose path is at
    ``holder`` at epoch ``time`` (kind ``at``), or moves ``holder -> dest`` at
    transfer ``time`` (kind ``move``), lies in ``[lo, hi]``. The deal and the
    transfers are structural tallies (``line is None``); ``count`` and
    ``show``-by-traits observations are tallies with their line. Tallies
    marked ``redundant`` (every holder's size at every later epoch, and each
    observation's complement: the hand's other cards) follow from the
    others; they only strengthen propagation and search, and counting and
    sampling leave them out.
unary fact
    An observation about one card (``has``, ``lacks``, ``hand``, a known
    transferred card, ``gave``/``got``, accusations, ``culprit``), applied
    directly to that card's domain.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition, Timeline
from deduce.logs.formats.abbey import AbbeySetup
from deduce.logs.model import Event

INFINITY = 10**9


#: One card's holder at every epoch.
Path = tuple[int, ...]
#: One path per card, in deck order: a complete hidden history.
History = list[Path]


@dataclass(frozen=True)
class Tally:
    """Between ``lo`` and ``hi`` of ``cards`` satisfy the location test (see module glossary)."""

    kind: str  # "at" or "move"
    time: int
    holder: int
    dest: int
    cards: frozenset[int]
    lo: int
    hi: int
    line: int | None = None
    redundant: bool = False

    def hit(self, path: Sequence[int]) -> bool:
        """Whether a path satisfies the location test (card membership checked separately)."""
        if self.kind == "at":
            return path[self.time] == self.holder
        return path[self.time - 1] == self.holder and path[self.time] == self.dest


@dataclass
class Domain:
    """The paths one card may take, as a layered graph (see module glossary)."""

    nodes: list[set[int]]
    steps: list[set[tuple[int, int]]]  # steps[t - 1] for transfer t

    def copy(self) -> Domain:
        """An independent copy."""
        return Domain([set(n) for n in self.nodes], [set(s) for s in self.steps])

    def prune(self) -> bool:
        """Keep only nodes and steps on some complete path; False if none is left.

        One forward pass keeps what the first epoch reaches, one backward pass
        what reaches the last; in a layered graph that is exactly the nodes and
        steps on complete paths.
        """
        nodes, steps = self.nodes, self.steps
        for t, step in enumerate(steps, 1):
            before, after = nodes[t - 1], nodes[t]
            kept = {(a, b) for a, b in step if a in before and b in after}
            if len(kept) != len(step):
                step.intersection_update(kept)
            after.intersection_update({b for _, b in kept})
        for t in range(len(steps), 0, -1):
            step, after = steps[t - 1], nodes[t]
            kept = {(a, b) for a, b in step if b in after}
            if len(kept) != len(step):
                step.intersection_update(kept)
            nodes[t - 1].intersection_update({a for a, _ in kept})
        return bool(nodes[0])

    def can(self, tally: Tally) -> bool:
        """Whether some path of the domain satisfies the tally's location test."""
        if tally.kind == "at":
            return tally.holder in self.nodes[tally.time]
        return (tally.holder, tally.dest) in self.steps[tally.time - 1]

    def must(self, tally: Tally) -> bool:
        """Whether every path of the domain satisfies the tally's location test."""
        if tally.kind == "at":
            return self.nodes[tally.time] == {tally.holder}
        return self.steps[tally.time - 1] == {(tally.holder, tally.dest)}

    def force(self, tally: Tally, value: bool) -> None:
        """Keep only the paths that satisfy (``value``) or fail the tally's test."""
        if tally.kind == "at":
            if value:
                self.nodes[tally.time] &= {tally.holder}
            else:
                self.nodes[tally.time].discard(tally.holder)
        else:
            edge = (tally.holder, tally.dest)
            if value:
                self.steps[tally.time - 1] &= {edge}
            else:
                self.steps[tally.time - 1].discard(edge)

    def narrow(self, tally: Tally, value: bool) -> list[int] | None:
        """:meth:`force`, then keep the domain path-consistent by local sweeps.

        Returns the layers that changed (epoch ``e`` is layer ``e``, transfer
        ``t`` layer ``epochs + t - 1``), or None when no path is left. The
        domain must have been pruned before.
        """
        nodes, steps = self.nodes, self.steps
        epochs = len(nodes)
        if tally.kind == "at":
            before = len(nodes[tally.time])
            self.force(tally, value)
            if not nodes[tally.time]:
                return None
            if len(nodes[tally.time]) == before:
                return []
            changed = [tally.time]
            ok = self._sweep_forward(tally.time, changed) and self._sweep_backward(
                tally.time, changed
            )
            return changed if ok else None
        t = tally.time
        before = len(steps[t - 1])
        self.force(tally, value)
        if len(steps[t - 1]) == before:
            return []
        changed = [epochs + t - 1]
        ok = True
        targets = {b for _, b in steps[t - 1]}
        if not targets >= nodes[t]:
            nodes[t] &= targets
            changed.append(t)
            ok = bool(nodes[t]) and self._sweep_forward(t, changed)
        sources = {a for a, _ in steps[t - 1]}
        if ok and not sources >= nodes[t - 1]:
            nodes[t - 1] &= sources
            changed.append(t - 1)
            ok = bool(nodes[t - 1]) and self._sweep_backward(t - 1, changed)
        return changed if ok else None

    def _sweep_forward(self, epoch: int, changed: list[int]) -> bool:
        """The holders at ``epoch`` shrank: drop what they no longer reach, epoch after epoch."""
        nodes, steps = self.nodes, self.steps
        epochs = len(nodes)
        for e in range(epoch, epochs - 1):
            step, source, after = steps[e], nodes[e], nodes[e + 1]
            kept = {(a, b) for a, b in step if a in source}
            if len(kept) == len(step):
                return True
            step.intersection_update(kept)
            changed.append(epochs + e)
            targets = {b for _, b in kept}
            if targets >= after:
                return True
            after &= targets
            changed.append(e + 1)
            if not after:
                return False
        return True

    def _sweep_backward(self, epoch: int, changed: list[int]) -> bool:
        """The holders at ``epoch`` shrank: drop what no longer reaches them, epoch before epoch."""
        nodes, steps = self.nodes, self.steps
        epochs = len(nodes)
        for e in range(epoch, 0, -1):
            step, target, before = steps[e - 1], nodes[e], nodes[e - 1]
            kept = {(a, b) for a, b in step if b in target}
            if len(kept) == len(step):
                return True
            step.intersection_update(kept)
            changed.append(epochs + e - 1)
            sources = {a for a, _ in kept}
            if sources >= before:
                return True
            before &= sources
            changed.append(e - 1)
            if not before:
                return False
        return True

    def contains(self, path: Sequence[int]) -> bool:
        """Whether a path (a holder per epoch) lies in the domain."""
        return all(h in nodes for h, nodes in zip(path, self.nodes, strict=True)) and all(
            (path[t - 1], path[t]) in step for t, step in enumerate(self.steps, 1)
        )

    def paths(self) -> list[tuple[int, ...]]:
        """Every path of the domain, explicitly (exponential: for small domains and tests)."""
        partial: list[tuple[int, ...]] = [(h,) for h in sorted(self.nodes[0])]
        for step in self.steps:
            partial = [(*p, b) for p in partial for a, b in sorted(step) if a == p[-1]]
        return partial


@dataclass
class Model:
    """Card domains plus tallies."""

    setup: AbbeySetup
    timeline: Timeline
    domains: list[Domain]
    tallies: list[Tally]
    _tallies_of: tuple[list[list[list[int]]], list[Tally], int] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def cards(self) -> tuple[str, ...]:
        """Card ids, in deck order (card index = position)."""
        return self.setup.deck.ids

    def copy(self) -> Model:
        """A copy whose domains can be narrowed without touching this one (tallies are shared)."""
        twin = Model(self.setup, self.timeline, [d.copy() for d in self.domains], self.tallies)
        twin._tallies_of = self._tallies_of
        return twin

    def tallies_of(self) -> list[list[list[int]]]:
        """Card by card, layer by layer, the tallies the card may count in (cached).

        Layer ``e`` is the card's holder at epoch ``e`` (``at`` tallies at that
        time), layer ``epochs + t - 1`` its step at transfer ``t`` (``move``
        tallies), so that a narrowed layer wakes only the tallies it can change.
        """
        cached = self._tallies_of
        if cached is None or cached[1] is not self.tallies or cached[2] != len(self.tallies):
            epochs = self.timeline.last_epoch + 1
            layers = 2 * epochs - 1
            by_card: list[list[list[int]]] = [[[] for _ in range(layers)] for _ in self.domains]
            for j, tally in enumerate(self.tallies):
                layer = tally.time if tally.kind == "at" else epochs + tally.time - 1
                for c in tally.cards:
                    by_card[c][layer].append(j)
            cached = (by_card, self.tallies, len(self.tallies))
            self._tallies_of = cached
        return cached[0]


def is_history(model: Model, history: Sequence[Path]) -> bool:
    """Whether ``history`` (a path per card) lies in every domain and meets every tally."""
    if not all(d.contains(p) for d, p in zip(model.domains, history, strict=True)):
        return False
    return all(
        tally.lo <= sum(1 for c in tally.cards if tally.hit(history[c])) <= tally.hi
        for tally in model.tallies
    )


def build_model(position: AbbeyPosition, skip: Iterable[int] = ()) -> Model:
    """Translate every event into domains and tallies, leaving out observations on ``skip`` lines.

    Transfers are never skipped: they are the game's structure.
    """
    setup, timeline, events = position.setup, position.timeline, position.events
    skipped = set(skip)
    n_cards, n_epochs = len(setup.deck), timeline.last_epoch + 1
    domains = [_free_domain(timeline, n_epochs) for _ in range(n_cards)]
    tallies = structural_tallies(timeline, n_cards)
    for event, transfer_no in numbered(events):
        if event.line in skipped:
            continue
        facts, stated = event_constraints(setup, timeline, event, transfer_no)
        for fact in facts:
            domains[fact.card].force(fact.test, fact.value)
        tallies.extend(stated)
    return Model(setup, timeline, domains, tallies)


def numbered(events: Iterable[Event]) -> Iterator[tuple[Event, int]]:
    """Each event with the number of transfers up to and including it."""
    transfer_no = 0
    for event in events:
        if event.type in ("draw", "take", "mass"):
            transfer_no += 1
        yield event, transfer_no


@dataclass(frozen=True)
class Fact:
    """A unary fact: card ``card`` passes (``value``) or fails the location test ``test``."""

    card: int
    test: Tally
    value: bool = True


def event_constraints(
    setup: AbbeySetup, timeline: Timeline, event: Event, transfer_no: int
) -> tuple[list[Fact], list[Tally]]:
    """What one event states: its unary facts and its tallies (see the module glossary).

    ``transfer_no`` counts the transfers up to and including the event.
    """
    players = {name: i for i, name in enumerate(timeline.holders)}
    card_index = {cid: i for i, cid in enumerate(setup.deck.ids)}
    epoch = timeline.epoch_of[event.line]
    facts = [
        Fact(card_index[card], test, value)
        for card, test, value in _unary_facts(setup, event, players, epoch, transfer_no)
    ]
    return facts, _observation_tallies(setup, timeline, event, epoch, players, card_index)


def _free_domain(timeline: Timeline, n_epochs: int) -> Domain:
    """All paths the structure allows: the culprit stays put, cards move only along edges."""
    everyone = set(range(len(timeline.holders)))
    steps = []
    for transfer in timeline.transfers:
        step = {(h, h) for h in everyone}
        step.update((src, dst) for src, dst, _ in transfer.moves)
        steps.append(step)
    return Domain([set(everyone) for _ in range(n_epochs)], steps)


def structural_tallies(timeline: Timeline, n_cards: int) -> list[Tally]:
    """The deal sizes and the exact moves of every transfer, plus redundant later sizes."""
    every = frozenset(range(n_cards))
    tallies = [Tally("at", 0, h, h, every, k, k) for h, k in enumerate(timeline.sizes[0])]
    for t, transfer in enumerate(timeline.transfers, 1):
        tallies.extend(Tally("move", t, src, dst, every, k, k) for src, dst, k in transfer.moves)
        tallies.extend(
            Tally("at", t, h, h, every, k, k, redundant=True)
            for h, k in enumerate(timeline.sizes[t])
        )
    return tallies


def _at(holder: int, epoch: int) -> Tally:
    """The location test: the card is at ``holder`` at ``epoch``."""
    return Tally("at", epoch, holder, holder, frozenset(), 0, 0)


def _moved(src: int, dst: int, transfer_no: int) -> Tally:
    """The location test: the card moved ``src -> dst`` at this transfer."""
    return Tally("move", transfer_no, src, dst, frozenset(), 0, 0)


def _unary_facts(
    setup: AbbeySetup, event: Event, players: dict[str, int], epoch: int, transfer_no: int
) -> list[tuple[str, Tally, bool]]:
    """The (card, test, value) triples that an event states about single cards."""
    kind, get = event.type, event.get
    if kind == "hand":
        listed = set(get("cards"))
        holder = players[get("player")]
        return [(c, _at(holder, epoch), c in listed) for c in setup.deck.ids]
    if kind in ("has", "lacks"):
        return [(get("card"), _at(players[get("player")], epoch), kind == "has")]
    if kind == "show" and "card" in event.fields:
        return [(get("card"), _at(players[get("player")], epoch), True)]
    if kind == "draw" and "card" in event.fields:
        return [(get("card"), _moved(1, players[get("player")], transfer_no), True)]
    if kind == "take" and "card" in event.fields:
        return [
            (get("card"), _moved(players[get("from")], players[get("player")], transfer_no), True)
        ]
    if kind == "mass" and setup.me is not None:
        me, right = players[setup.me], players[setup.right_of(setup.me)]
        left = players[setup.left_of(setup.me)]
        return [(c, _moved(me, left, transfer_no), True) for c in get("gave")] + [
            (c, _moved(right, me, transfer_no), True) for c in get("got")
        ]
    if kind == "accuse":
        facts = [(get("card"), _at(CULPRIT, epoch), get("correct"))]
        if "shown_by" in event.fields:
            facts.append((get("card"), _at(players[get("shown_by")], epoch), True))
        return facts
    if kind == "culprit":
        return [(get("card"), _at(CULPRIT, epoch), True)]
    return []


def _observation_tallies(
    setup: AbbeySetup,
    timeline: Timeline,
    event: Event,
    epoch: int,
    players: dict[str, int],
    card_index: dict[str, int],
) -> list[Tally]:
    """Tallies stated by ``count`` and ``show``-by-traits events, each with its complement.

    The complement (the cards without the traits, out of the hand's size) is
    redundant; it lets propagation see that a hand is full of the others.
    """
    if event.type not in ("count", "show") or "traits" not in event.fields:
        return []
    traits = event.get("traits")
    cards = frozenset(card_index[c.id] for c in setup.deck.cards if c.has_traits(traits))
    holder = players[event.get("player")]
    lo, hi = (event.get("n"), event.get("n")) if event.type == "count" else (1, INFINITY)
    size = timeline.sizes[epoch][holder]
    others = frozenset(range(len(setup.deck))) - cards
    return [
        Tally("at", epoch, holder, holder, cards, lo, hi, line=event.line),
        Tally(
            "at",
            epoch,
            holder,
            holder,
            others,
            max(0, size - hi),
            size - lo,
            line=event.line,
            redundant=True,
        ),
    ]
