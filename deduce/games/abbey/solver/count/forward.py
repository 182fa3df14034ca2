"""Exact counting, epoch by epoch over complete states, on arrays: a forward filter.

Method: the *state* at an epoch is the holder of every card, weighted by
the number of partial histories that reach it; a layer of states is an
array of packed keys (each card's holder a small bit field, in one uint64
word or several) with an array of weights. The deal lists every state
whose hands have the public sizes and that meets the deal's observations,
card by card, along a walk over small states (each holder's room left,
each observation's count so far) pruned to those that can still end in
a deal, so that no partial state is a dead end. A transfer expands every
state by every allowed way to choose which ``k`` cards of each edge's
source move along it (the source's size is public, so every state has
the same choices; a Mass passes all hands at once, so a state's children
are the product of its edges' choices); a move is an addition to the
key. Equal states are merged by a sort of the keys, their weights summed.

Every card keeps to its allowed holders at every epoch: the propagated
domain's nodes, intersected with the SAT supports when given. A state
outside the supports has no consistent future, so dropping it is exact and
keeps the layers near the states of consistent histories only. Each card
follows only its allowed steps at each transfer (a known drawn, taken or
passed card is one), and every observation tally is checked at its epoch.
Each choice of movers is one history, so a child's weight is its parent's.

Weights are exact integers (int64 while the layer's total is far from
overflow, then Python integers in object arrays) or, with ``exact=False``,
float64. :func:`predict_states` bounds every layer's size before any work:
with ``max_states`` at least its largest value, the filter never declines.
A state costs 16 bytes in a layer of one key word, and a merge about 70
bytes per row merged (up to one and a half layers), so ``max_states``
also bounds the memory.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence, Set
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import factorial, prod
from time import perf_counter
from typing import Any, cast

import numpy as np

from deduce.games.abbey.solver.count.lookahead import Ahead, Lookahead
from deduce.games.abbey.solver.count.resample import Cap, resample
from deduce.games.abbey.solver.model import Domain, Tally
from deduce.games.abbey.solver.timeline import Timeline

#: Per card, per holder index: the number of histories (an int, or a float when inexact).
Holders = tuple[dict[int, Any], ...]
#: ``supports[epoch][card]``: the holders a card may have at that epoch.
Supports = Sequence[Sequence[Set[int]]]
#: The filter at work: it pauses after each slice and ends with ``(total, holders)``,
#: or with None when a layer would exceed ``max_states``.
Count = Generator[None, None, "tuple[Any, Holders] | None"]

#: Rows of an expansion built at once, before a pause.
ROWS = 1 << 19
#: Unmerged rows collected before they are merged with the rest of the layer (at
#: least; up to half the merged rows, so that merging costs a few sorts per row).
PENDING = 1 << 20
#: Bits of one key word.
WORD = 64
#: Past this total, int64 weights turn into Python integers (a child's weight is at
#: most its parents' total, so no sum can overflow below it).
SAFE = 2.0**62


def predict_states(
    supports_or_domains: Supports | Sequence[Domain],
    sizes: Sequence[Sequence[int]],
    tallies: Sequence[Tally] = (),
) -> list[int]:
    """Per epoch, how many complete states fit the per-card holders and the public sizes.

    ``supports_or_domains`` are ``supports[epoch][card]`` or the cards'
    domains (their nodes); ``sizes`` are the timeline's ``sizes[epoch][holder]``.
    A small dynamic program over the cards, whose state is the room left in
    each holder, counts them exactly: an upper bound on the filter's layers.
    With ``tallies`` (the model's non-redundant ones), the states of an
    epoch must also meet its own observations: a tighter bound, counted by
    a walk over (room, count) states, exact up to 2**53.
    """
    return list(_epoch_states(supports_or_domains, sizes, tallies))


def predicted_peak(
    supports_or_domains: Supports | Sequence[Domain],
    sizes: Sequence[Sequence[int]],
    tallies: Sequence[Tally] = (),
    deadline: float | None = None,
) -> int | None:
    """The largest layer :func:`predict_states` bounds; None if ``deadline`` passes first."""
    peak = 0
    for states in _epoch_states(supports_or_domains, sizes, tallies):
        if deadline is not None and perf_counter() > deadline:
            return None
        peak = max(peak, states)
    return peak


def _epoch_states(
    supports_or_domains: Supports | Sequence[Domain],
    sizes: Sequence[Sequence[int]],
    tallies: Sequence[Tally],
) -> Iterator[int]:
    """:func:`predict_states`, one epoch at a time."""
    nodes = _nodes(supports_or_domains, len(sizes))
    observed = _observations(tallies, len(sizes))
    for e, size in enumerate(sizes):
        yield (
            round(_fill(observed[e], nodes[e], size)[1].total)
            if observed[e]
            else _rooms(tuple(size)).count(nodes[e])
        )


def count_forward(
    domains: Sequence[Domain],
    tallies: Sequence[Tally],
    timeline: Timeline,
    supports: Supports | None = None,
    exact: bool = True,
    max_states: int | None = None,
    cap: Cap | None = None,
) -> Count:
    """Count histories in total and per (card, current holder), as a generator.

    It yields after every slice of work, so that a caller can stop it at a
    deadline, and returns ``(total, holders)``: ``holders[card][holder]``
    histories end with the card at that holder. It returns None instead
    once a layer would hold more than ``max_states`` states. ``domains``
    must be propagated; ``tallies`` exclude redundant ones (structural
    tallies, ``line is None``, are left to the timeline; observation
    tallies must be of kind ``at``). ``supports`` (``supports[epoch][card]``,
    see :meth:`~deduce.games.abbey.solver.sat.cnf.SatModel.supports`) are
    intersected with the domains. Totals are exact integers, or floats with
    ``exact=False``.

    With a ``cap``, the count is an unbiased estimate in float64 instead: no
    layer keeps more than ``cap.limit`` states. The deal's partial states
    are resampled on their weight times their exact number of completions
    (so the deal's total stays exact), a transfer's states on their weight
    times the chance that they meet the observations to come (see
    :mod:`~deduce.games.abbey.solver.count.lookahead` and
    :mod:`~deduce.games.abbey.solver.count.resample`).
    """
    allowed = _nodes(domains, len(timeline.sizes))
    if supports is not None:
        allowed = [
            [set(a) & set(s) for a, s in zip(row, srow, strict=True)]
            for row, srow in zip(allowed, supports, strict=True)
        ]
    return _Filter(
        domains,
        allowed,
        _observations(tallies, len(timeline.sizes)),
        timeline,
        exact and cap is None,
        None if cap is not None else max_states,
        cap,
    ).run()


def _nodes(supports_or_domains: Supports | Sequence[Domain], epochs: int) -> list[list[set[int]]]:
    """``nodes[epoch][card]``, from supports or from the domains' nodes."""
    if supports_or_domains and isinstance(supports_or_domains[0], Domain):
        domains = cast(Sequence[Domain], supports_or_domains)
        return [[set(d.nodes[e]) for d in domains] for e in range(epochs)]
    supports = cast(Supports, supports_or_domains)
    return [[set(s) for s in row] for row in supports]


@dataclass(frozen=True)
class _Observed:
    """An observation tally: between ``lo`` and ``hi`` of ``cards`` are with ``holder``."""

    holder: int
    cards: tuple[int, ...]
    lo: int
    hi: int


def _observations(tallies: Sequence[Tally], epochs: int) -> list[list[_Observed]]:
    """The observation tallies of each epoch (structural ones are the timeline's)."""
    observed: list[list[_Observed]] = [[] for _ in range(epochs)]
    for tally in tallies:
        if tally.line is None:
            continue
        if tally.kind != "at":
            raise ValueError(f"line {tally.line}: an observation tally of kind {tally.kind!r}")
        observed[tally.time].append(
            _Observed(tally.holder, tuple(sorted(tally.cards)), tally.lo, tally.hi)
        )
    return observed


@lru_cache(maxsize=64)
def _rooms(sizes: tuple[int, ...]) -> _Rooms:
    """The room vectors of holders of these sizes (shared: epochs often repeat sizes)."""
    return _Rooms(sizes)


class _Rooms:
    """Room vectors (cards still to place in each holder) as mixed-radix indices."""

    def __init__(self, sizes: Sequence[int]) -> None:
        self.stride = [prod(s + 1 for s in sizes[:h]) for h in range(len(sizes))]
        self.full = sum(s * st for s, st in zip(sizes, self.stride))
        span = np.arange(self.full + 1)
        digits = [(span // st) % (s + 1) for s, st in zip(sizes, self.stride)]
        self.into = [np.flatnonzero(d) for d in digits]  # the rooms with space in each holder
        cards = sum(sizes)
        bound = factorial(cards) // prod(factorial(s) for s in sizes)
        self.dtype: Any = np.int64 if bound < 2**63 else object

    def count(self, allowed: Sequence[Set[int]]) -> int:
        """The ways to give each card one of its ``allowed`` holders, filling every room.

        ``table[room]`` holds the ways to fill ``room`` with the cards seen
        so far, the last card first.
        """
        table = np.zeros(self.full + 1, dtype=self.dtype)
        table[0] = 1
        for holders in reversed(allowed):
            nxt = np.zeros_like(table)
            for h in holders:
                into = self.into[h]
                nxt[into] += table[into - self.stride[h]]
            table = nxt
        return int(table[self.full])


class _FillTallies:
    """The observations of one epoch as the hands are filled card by card.

    Each observation comes with its complement (the holder's other cards,
    out of its size), so that a hand filling up with other cards is cut
    early; repeated ones count once. ``increments[i][h]``: what placing the
    ``i``-th card of ``order`` with ``h`` adds to each tally's count;
    ``rest[i]``: how many cards after it may still count in each.
    """

    def __init__(
        self,
        stated: Sequence[_Observed],
        allowed: Sequence[Set[int]],
        order: Sequence[int],
        sizes: Sequence[int],
    ) -> None:
        every = set(order)
        observed = list(
            dict.fromkeys(
                [
                    *stated,
                    *(
                        _Observed(
                            obs.holder,
                            tuple(sorted(every - set(obs.cards))),
                            max(0, sizes[obs.holder] - obs.hi),
                            sizes[obs.holder] - obs.lo,
                        )
                        for obs in stated
                    ),
                ]
            )
        )
        self.lo = np.array([obs.lo for obs in observed], dtype=np.int16)
        self.hi = np.array([min(obs.hi, len(obs.cards)) for obs in observed], dtype=np.int16)
        counted = [set(obs.cards) for obs in observed]
        self.increments = [
            [
                np.array(
                    [c in cards and obs.holder == h for obs, cards in zip(observed, counted)],
                    dtype=np.int16,
                )
                for h in range(len(sizes))
            ]
            for c in order
        ]
        able = [
            np.array(
                [c in cards and obs.holder in allowed[c] for obs, cards in zip(observed, counted)],
                dtype=np.int16,
            )
            for c in order
        ]
        self.rest = [
            sum(able[i + 1 :], np.zeros(len(observed), dtype=np.int16)) for i in range(len(order))
        ]

    def fit(self, counts: np.ndarray, i: int) -> np.ndarray:
        """Which rows of tally counts, after the ``i``-th card, can still meet every tally."""
        return np.asarray(((counts <= self.hi) & (counts + self.rest[i] >= self.lo)).all(axis=1))


class _FillWalk:
    """Filling the hands of one epoch card by card, as a walk over small states.

    A walk state is each holder's room left and each tally's count so far.
    The states are built forward from the sizes (dropping those past a
    tally's maximum, or that can no longer reach its minimum), then kept
    only where the cards left can still fill every room and meet every
    tally, so that the walk has no dead end. ``moves[i]`` are the moves of
    the ``i``-th card of ``order``: per state, how many and where its first
    one is; per move, the card's holder and the next state. ``total`` is
    how many complete states there are (a float, exact up to 2**53), and
    ``paths[i]`` how many complete states each walk state before the
    ``i``-th card leads to (the last entry: after the last card).
    """

    def __init__(
        self,
        tallies: _FillTallies,
        allowed: Sequence[Set[int]],
        order: Sequence[int],
        sizes: Sequence[int],
    ) -> None:
        holders = len(sizes)
        states = np.array([[*sizes, *[0] * len(tallies.lo)]], dtype=np.int16)
        built = []  # per card: (states before, each move's source, holder, next state)
        for i, c in enumerate(order):
            sources, placed, reached = [np.zeros(0, np.intp)], [np.zeros(0, np.intp)], [states[:0]]
            for h in sorted(allowed[c]):
                step = states.copy()
                step[:, h] -= 1
                step[:, holders:] += tallies.increments[i][h]
                fits = (step[:, h] >= 0) & tallies.fit(step[:, holders:], i)
                sources.append(np.flatnonzero(fits))
                placed.append(np.full(int(fits.sum()), h, dtype=np.intp))
                reached.append(step[fits])
            before = len(states)
            states, after = np.unique(np.concatenate(reached), axis=0, return_inverse=True)
            built.append((before, np.concatenate(sources), np.concatenate(placed), after.ravel()))
        live = np.asarray((states[:, holders:] >= tallies.lo).all(axis=1))  # rooms are empty now
        paths: np.ndarray = live.astype(np.float64)  # ways to finish a deal from each state
        self.moves: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self.paths = [paths]
        for before, source, holder, after in reversed(built):
            keep = np.flatnonzero(live[after])
            keep = keep[np.argsort(source[keep], kind="stable")]
            counts = np.bincount(source[keep], minlength=before)
            self.moves.append((counts, np.cumsum(counts) - counts, holder[keep], after[keep]))
            paths = np.bincount(source[keep], weights=paths[after[keep]], minlength=before)
            self.paths.append(paths)
            live = counts > 0
        self.moves.reverse()
        self.paths.reverse()
        self.total = float(paths[0])


def _fill(
    observed: Sequence[_Observed], allowed: Sequence[Set[int]], sizes: Sequence[int]
) -> tuple[list[int], _FillWalk]:
    """The hands of one epoch filled card by card, narrowest cards first: (card order, walk)."""
    order = sorted(range(len(allowed)), key=lambda c: (len(allowed[c]), c))
    return order, _FillWalk(_FillTallies(observed, allowed, order, sizes), allowed, order, sizes)


@lru_cache(maxsize=256)
def edge_choices(size: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every ``k``-subset of ``size`` positions: (positions, one row each; bit masks)."""
    picks = list(combinations(range(size), k))
    positions = np.array(picks, dtype=np.intp).reshape(len(picks), k)
    masks = np.array([sum(1 << i for i in pick) for pick in picks], dtype=np.int64)
    return positions, masks


class StateCode:
    """Each card's holder as a bit field of uint64 words.

    A card with a single possible holder has no field (``only`` holds it);
    the others get the fewest bits that number their possible holders,
    packed into words of ``WORD`` bits without straddling two. ``top`` is
    the bits used in the last word.
    """

    def __init__(self, possible: Sequence[Set[int]], holders: int) -> None:
        self.possible = possible
        self.only: dict[int, int] = {}
        self.fields: dict[int, tuple[int, int, int]] = {}  # card: (word, shift, mask)
        self.digits = np.zeros((len(possible), holders), dtype=np.uint64)
        self.names: dict[int, np.ndarray] = {}  # card: the holder of each digit
        word = shift = 0
        for c, values in enumerate(possible):
            ordered = sorted(values) or [0]
            if len(ordered) == 1:
                self.only[c] = ordered[0]
                continue
            bits = (len(ordered) - 1).bit_length()
            if shift + bits > WORD:
                word, shift = word + 1, 0
            self.fields[c] = (word, shift, (1 << bits) - 1)
            self.digits[c, ordered] = np.arange(len(ordered), dtype=np.uint64)
            self.names[c] = np.array(
                ordered + ordered[:1] * ((1 << bits) - len(ordered)), dtype=np.uint8
            )
            shift += bits
        self.words = word + 1 if self.fields else 0
        self.top = shift

    def digit(self, keys: np.ndarray, card: int) -> np.ndarray:
        """The card's digit in every state (the card must have a field)."""
        word, shift, mask = self.fields[card]
        return (keys[word] >> np.uint64(shift)) & np.uint64(mask)

    def holder(self, keys: np.ndarray, card: int) -> np.ndarray:
        """The card's holder in every state."""
        if card in self.only:
            return np.full(keys.shape[1], self.only[card], dtype=np.uint8)
        return self.names[card][self.digit(keys, card)]

    def has(self, keys: np.ndarray, card: int, holder: int) -> np.ndarray:
        """Whether the card is with ``holder`` in each state (a field's possible holder)."""
        return self.digit(keys, card) == self.digits[card, holder]

    def delta(self, card: int, old: int, new: int) -> tuple[int, np.uint64]:
        """(word, addend) that moves the card from holder ``old`` to ``new`` (both possible)."""
        word, shift, _ = self.fields[card]
        change = int(self.digits[card, new]) - int(self.digits[card, old])
        return word, np.uint64((change << shift) % (1 << 64))

    def column(self, card: int) -> np.ndarray:
        """``column[word, holder]``: what the card being with ``holder`` adds to each key word."""
        column = np.zeros((max(self.words, 1), self.digits.shape[1]), dtype=np.uint64)
        if card in self.fields:
            word, shift, _ = self.fields[card]
            column[word] = self.digits[card] << np.uint64(shift)
        return column[: self.words]

    def recode(self, keys: np.ndarray, old: StateCode) -> np.ndarray:
        """Keys in this code of states whose keys are in code ``old``.

        Each card's old digit goes through one table straight to its new
        digit in place; a card without an old field adds a constant.
        """
        new = np.zeros((self.words, keys.shape[1]), dtype=np.uint64)
        for card, (word, shift, _) in self.fields.items():
            if card in old.only:
                new[word] |= self.digits[card, old.only[card]] << np.uint64(shift)
            else:
                table = self.digits[card][old.names[card]] << np.uint64(shift)
                new[word] |= table[old.digit(keys, card)]
        return new


@dataclass
class _Layer:
    """States as keys (``keys[word, row]`` in ``code``) and their weights."""

    keys: np.ndarray
    weights: np.ndarray
    code: StateCode

    def __len__(self) -> int:
        return len(self.weights)

    def select(self, keep: np.ndarray) -> _Layer:
        """The rows where ``keep`` holds."""
        return _Layer(self.keys[:, keep], self.weights[keep], self.code)


class _Filter:
    """One counting run: the deal, then every transfer, then the last epoch's marginals."""

    def __init__(
        self,
        domains: Sequence[Domain],
        allowed: list[list[set[int]]],
        observed: list[list[_Observed]],
        timeline: Timeline,
        exact: bool,
        max_states: int | None,
        cap: Cap | None,
    ) -> None:
        self.domains, self.allowed, self.observed = domains, allowed, observed
        self.timeline, self.exact, self.max_states, self.cap = timeline, exact, max_states, cap
        self.holders = len(timeline.holders)
        self.cards = len(domains)
        self.lookahead = (
            Lookahead(
                domains,
                allowed,
                [
                    Ahead(epoch, obs.holder, obs.cards, obs.lo, obs.hi)
                    for epoch, row in enumerate(observed)
                    for obs in row
                ],
                timeline,
            )
            if cap is not None
            else None
        )

    def run(self) -> Count:
        """The filter from the deal to the last epoch, then the last epoch's marginals."""
        layer = yield from self._deal()
        for t in range(1, len(self.timeline.sizes)):
            if layer is None or not len(layer):
                break
            layer = yield from self._transfer(layer, t)
        if layer is None:
            return None
        return self._marginals(layer)

    def _guide(self, layer: _Layer, epoch: int, known: np.ndarray | None = None) -> np.ndarray:
        """Each state's look-ahead guide, up to a common factor (see :mod:`lookahead`).

        ``known``: which cards a partial state of the deal has placed.
        """
        assert self.lookahead is not None
        code = layer.code

        def held(c: int) -> np.ndarray | int | None:
            if known is not None and not known[c]:
                return None
            return code.only[c] if c in code.only else code.holder(layer.keys, c).astype(np.intp)

        log = self.lookahead.log_guide(epoch, held, len(layer))
        top = log.max(initial=-np.inf)
        return np.exp(log - top) if np.isfinite(top) else np.zeros(len(log))

    def _over(self, n: float) -> bool:
        """Whether a layer of ``n`` states is past ``max_states``."""
        return self.max_states is not None and n > self.max_states

    # -- the deal ---------------------------------------------------------

    def _deal(self) -> Generator[None, None, _Layer | None]:
        """Every state of epoch 0 with weight one, built card by card along a :class:`_FillWalk`.

        Each partial state goes on by every move its walk state allows, so
        none is a dead end. With a cap, partial states past it are resampled
        on their weight times their completions.
        """
        allowed = self.allowed[0]
        order, walk = _fill(self.observed[0], allowed, self.timeline.sizes[0])
        if self._over(walk.total):
            return None
        code = StateCode(allowed, self.holders)
        keys = np.zeros((code.words, 1), dtype=np.uint64)
        at = np.zeros(1, dtype=np.intp)  # each partial state's walk state
        weights = np.ones(1, dtype=np.int64 if self.exact else np.float64)
        for i, (c, (counts, first, holder, after)) in enumerate(zip(order, walk.moves)):
            parent, within = _runs(counts[at])
            move = first[at][parent] + within
            keys = keys[:, parent] + code.column(c)[:, holder[move]]
            at, weights = after[move], weights[parent]
            if self.cap is not None and len(at) > self.cap.limit:
                self.cap.cut = True
                known = np.zeros(self.cards, dtype=bool)
                known[order[: i + 1]] = True
                kept, factor = resample(
                    weights
                    * walk.paths[i + 1][at]
                    * self._guide(_Layer(keys, weights, code), 0, known),
                    self.cap.limit,
                    self.cap.rng,
                )
                keys, at, weights = keys[:, kept], at[kept], weights[kept] * factor
            yield
        return _Layer(keys, weights, code)

    # -- transfers --------------------------------------------------------

    def _steps(self, t: int) -> np.ndarray:
        """``ok[card, a, b]``: the card may step ``a -> b`` at transfer ``t`` and then be at b."""
        ok = np.zeros((self.cards, self.holders, self.holders), dtype=bool)
        for c, domain in enumerate(self.domains):
            after = self.allowed[t][c]
            for a, b in domain.steps[t - 1]:
                if b in after:
                    ok[c, a, b] = True
        return ok

    def _transfer(self, layer: _Layer, t: int) -> Generator[None, None, _Layer | None]:
        """The states after transfer ``t``, merged and checked against the epoch's observations.

        The layer is recoded for the transfer unless its code already spans
        each card's holders before and after it. Every edge's movers are chosen
        from the state before the transfer (a Mass passes all hands at once),
        so the children of a state are the product of each edge's choices.
        """
        ok = self._steps(t)
        layer = self._movable(layer, ok, t)
        needed = [a | b for a, b in zip(self.allowed[t - 1], self.allowed[t])]
        code = layer.code
        if not all(n <= p for n, p in zip(needed, code.possible)):
            code = StateCode(needed, self.holders)
            layer = _Layer(code.recode(layer.keys, layer.code), layer.weights, code)
        edges = [self._edge(t, ok, move, code) for move in self.timeline.transfers[t - 1].moves]
        if not len(layer):
            return layer
        weights = self._widened(layer.weights)
        pile = _Pile(code, self.cap, lambda layer: self._guide(layer, t))
        for keys, parent in _children(layer.keys, edges):
            children = _Layer(keys, weights[parent], code)
            pile.add(children.select(self._observe(children, t)))
            if self._over(pile.merged):
                return None
            yield
        merged = pile.collapse()
        return None if self._over(len(merged)) else merged

    def _movable(self, layer: _Layer, ok: np.ndarray, t: int) -> _Layer:
        """The states in which every card has an allowed step at transfer ``t``.

        Needed only when the allowed holders are not path-consistent (supports
        narrower than the SAT model's): a card may then be stuck.
        """
        keep: np.ndarray | None = None
        for c in range(self.cards):
            for a in self.allowed[t - 1][c]:
                if not ok[c, a].any():
                    away = layer.code.holder(layer.keys, c) != a
                    keep = away if keep is None else keep & away
        return layer if keep is None else layer.select(keep)

    def _edge(self, t: int, ok: np.ndarray, move: tuple[int, int, int], code: StateCode) -> _Edge:
        """Edge ``src -> dst`` of transfer ``t``, for keys in ``code``."""
        src, dst, k = move
        before = self.allowed[t - 1]
        sure = [c for c in range(self.cards) if before[c] == {src}]
        maybe = [c for c in range(self.cards) if src in before[c] and len(before[c]) > 1]
        shifts = np.zeros((max(code.words, 1), self.cards), dtype=np.uint64)
        for c in [*sure, *maybe]:
            if ok[c, src, dst]:
                word, addend = code.delta(c, src, dst)
                shifts[word, c] = addend
        return _Edge(
            src,
            k,
            self.timeline.sizes[t - 1][src],
            np.array(sure, dtype=np.intp),
            tuple(maybe),
            ok[:, src, dst],
            ok[:, src, src],
            shifts,
            code,
        )

    def _widened(self, weights: np.ndarray) -> np.ndarray:
        """Exact int64 weights as Python integers once their total nears int64's limit."""
        if weights.dtype == np.int64 and weights.sum(dtype=np.float64) >= SAFE:
            return weights.astype(object)
        return weights

    def _observe(self, layer: _Layer, epoch: int) -> np.ndarray:
        """Which states meet every observation tally of ``epoch``.

        Only the cards that may or may not be with the tally's holder are
        looked at; those that must be count as constants.
        """
        keep = np.ones(len(layer), dtype=bool)
        allowed = self.allowed[epoch]
        for obs in self.observed[epoch]:
            n = np.full(
                len(layer), sum(allowed[c] == {obs.holder} for c in obs.cards), dtype=np.int16
            )
            for c in obs.cards:
                if obs.holder in allowed[c] and len(allowed[c]) > 1:
                    n += layer.code.has(layer.keys, c, obs.holder)
            keep &= (n >= obs.lo) & (n <= obs.hi)
        return keep

    # -- the answer -------------------------------------------------------

    def _marginals(self, layer: _Layer) -> tuple[Any, Holders]:
        """The total and each card's final-holder counts, as Python numbers."""
        weights = self._widened(layer.weights)
        number = int if self.exact else float
        total = number(weights.sum())
        holders: list[dict[int, Any]] = []
        for c in range(self.cards):
            held = layer.code.holder(layer.keys, c)
            row: dict[int, Any] = {}
            for h in sorted(self.allowed[-1][c]):
                n = number(weights[held == h].sum())
                if n:
                    row[h] = n
            holders.append(row)
        return total, tuple(holders)


@dataclass(frozen=True)
class _Edge:
    """One edge of a transfer: ``k`` of the ``size`` cards at ``src`` move along it.

    The cards at ``src`` are the ``sure`` ones and those of ``maybe`` found
    there. A mover's key gains ``shifts[word, card]``; ``move`` and ``stay``
    are each card's allowed steps.
    """

    src: int
    k: int
    size: int
    sure: np.ndarray
    maybe: tuple[int, ...]
    move: np.ndarray
    stay: np.ndarray
    shifts: np.ndarray
    code: StateCode

    def valid(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The cards at ``src`` in each state, and which choices of movers are allowed."""
        masks = edge_choices(self.size, self.k)[1]
        cols = self._held(keys)
        bits = np.left_shift(1, np.arange(self.size), dtype=np.int64)
        cannot_move = (~self.move[cols]) @ bits
        cannot_stay = (~self.stay[cols]) @ bits
        return cols, ((masks & cannot_move[:, None]) == 0) & (
            (masks & cannot_stay[:, None]) == cannot_stay[:, None]
        )

    def _held(self, keys: np.ndarray) -> np.ndarray:
        """``cols[row]``: the cards at ``src`` in each state (the sure ones first)."""
        n = keys.shape[1]
        cols = np.empty((n, self.size), dtype=np.intp)
        cols[:, : len(self.sure)] = self.sure
        filled = np.full(n, len(self.sure), dtype=np.intp)
        for c in self.maybe:
            rows = np.flatnonzero(self.code.has(keys, c, self.src))
            cols[rows, filled[rows]] = c
            filled[rows] += 1
        return cols


def _children(
    keys: np.ndarray, edges: Sequence[_Edge]
) -> Generator[tuple[np.ndarray, np.ndarray], None, None]:
    """Every state's children after a transfer, about ``ROWS`` at a time: (keys, parent rows).

    A child takes one allowed choice of movers on every edge: each edge's
    allowed (state, choice) pairs are listed once with what they add to
    the key, and a state's children run through their product. Parents
    are taken in runs whose children number at most ``ROWS`` (a parent
    with more is a run of its own).
    """
    step = max(1, ROWS // max(len(edge_choices(edge.size, edge.k)[1]) for edge in edges))
    for start in range(0, keys.shape[1], step):
        block = keys[:, start : start + step]
        n = block.shape[1]
        pairs = [_pairs(edge, block) for edge in edges]
        if len(pairs) == 1:  # a draw or a take: the pairs are the children
            parent, _, _, added = pairs[0]
            yield block[:, parent] + added, start + parent
            continue
        ways = np.ones(n, dtype=np.int64)
        for _, counts, _, _ in pairs:
            ways *= counts
        ends = np.cumsum(ways)
        cut = 0
        while cut < n:
            stop = max(cut + 1, int(np.searchsorted(ends, ends[cut] - ways[cut] + ROWS, "right")))
            rows = np.arange(cut, stop)
            children = block[:, rows]
            for _, counts, first, added in pairs:
                copies, within = _runs(counts[rows])
                rows = rows[copies]
                children = children[:, copies] + added[:, first[rows] + within]
            yield children, start + rows
            cut = stop


def _runs(repeats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows repeated ``repeats`` times each: each copy's row, and its rank among its copies."""
    rows = np.repeat(np.arange(len(repeats)), repeats)
    return rows, np.arange(len(rows)) - np.repeat(np.cumsum(repeats) - repeats, repeats)


def _pairs(edge: _Edge, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """An edge's allowed (state, choice) pairs, in state order.

    Returns each pair's state; per state, how many pairs it has and where
    its first one is; and, per pair, what it adds to the key.
    """
    cols, valid = edge.valid(keys)
    parent, choice = np.nonzero(valid)
    counts = np.bincount(parent, minlength=keys.shape[1])
    cells = cols.ravel()
    base = parent * edge.size
    positions = edge_choices(edge.size, edge.k)[0]
    added = edge.shifts[:, cells[base + positions[choice, 0]]]
    for j in range(1, edge.k):
        added += edge.shifts[:, cells[base + positions[choice, j]]]
    return parent, counts, np.cumsum(counts) - counts, added


class _Pile:
    """The pieces of a layer as they come, merged whenever the unmerged rows grow.

    With a cap, the merged rows are resampled down to it.
    """

    def __init__(
        self,
        code: StateCode,
        cap: Cap | None = None,
        guide: Callable[[_Layer], np.ndarray] | None = None,
    ) -> None:
        self.code, self.cap, self.guide = code, cap, guide
        self.pieces: list[_Layer] = []
        self.pending = 0
        self.merged = 0

    def add(self, piece: _Layer) -> None:
        """Add rows; merge everything once the unmerged ones outgrow half the merged ones."""
        self.pieces.append(piece)
        self.pending += len(piece)
        if self.pending > max(PENDING, self.merged // 2):
            self.collapse()

    def collapse(self) -> _Layer:
        """Merge every piece into one and return it."""
        if len(self.pieces) > 1 or self.pending:
            keys = np.concatenate([p.keys for p in self.pieces], axis=1)
            weights = np.concatenate([p.weights for p in self.pieces])
            self.pieces.clear()
            merged = merge_states(keys, weights, self.code)
            if self.cap is not None and len(merged) > self.cap.limit:
                self.cap.cut = True
                chance = merged.weights * (self.guide(merged) if self.guide else 1.0)
                kept, factor = resample(chance, self.cap.limit, self.cap.rng)
                merged = _Layer(merged.keys[:, kept], merged.weights[kept] * factor, self.code)
            self.pieces, self.pending, self.merged = [merged], 0, len(merged)
        return self.pieces[0]


#: Odd multipliers that mix several key words into one sort key.
_MIX = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93)


def merge_states(keys: np.ndarray, weights: np.ndarray, code: StateCode) -> _Layer:
    """Equal states as one, their weights summed (they come out sorted by key).

    The keys are sorted in place: the caller must not use them again.
    """
    n = keys.shape[1]
    if n <= 1:
        return _Layer(keys, weights, code)
    if not code.words:
        return _Layer(keys[:, :1], weights.sum(keepdims=True), code)
    if code.words == 1:
        key, order = _sorted(keys[0], code.top)
        new = np.concatenate(([True], key[1:] != key[:-1]))
        starts = np.flatnonzero(new)
        return _Layer(key[starts][None, :], np.add.reduceat(weights[order], starts), code)
    order = _sorted_words(keys)
    starts = np.flatnonzero(_starts(keys, order))
    return _Layer(keys[:, order[starts]], np.add.reduceat(weights[order], starts), code)


def _sorted(key: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """The keys sorted, and the order that sorts them (``key`` may be overwritten).

    Keys of few enough bits are sorted with the row index packed below
    them, in place: a plain sort, much faster than an argsort.
    """
    n = len(key)
    shift = max(1, (n - 1).bit_length())
    if bits + shift > 64:
        order = np.argsort(key)
        return key[order], order
    key <<= np.uint64(shift)
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    ordered = key >> np.uint64(shift)
    key &= np.uint64((1 << shift) - 1)
    return ordered, key.view(np.intp)


def _sorted_words(keys: np.ndarray) -> np.ndarray:
    """The order that groups equal columns of ``keys`` (several words) together.

    The words are mixed into one sort key; should two different states
    share a mix, they are sorted word by word instead.
    """
    mix = keys[0] * np.uint64(_MIX[0])
    for i in range(1, len(keys)):
        mix ^= keys[i] * np.uint64(_MIX[i % len(_MIX)])
        mix *= np.uint64(_MIX[(i + 1) % len(_MIX)])
    order = np.argsort(mix)
    mixed = mix[order]
    if (_starts(keys, order)[1:] & (mixed[1:] == mixed[:-1])).any():
        return np.lexsort(keys[::-1])
    return order


def _starts(keys: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Which states, in ``order``, differ from the one before in some key word."""
    new = np.zeros(len(order), dtype=bool)
    new[0] = True
    for key in keys:
        ordered = key[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    return new
