"""A look-ahead guide for the capped forward filter: each state's chance to meet the future.

A capped filter keeps the states a resampling picks. Picked by their weight
alone, most survivors of a late position have no consistent future: the
count observations still to come rule them out. The guide scores a state by
an estimate of the chance that its future meets every observation still to
come, and the resampling picks by weight times guide. Any positive guide
keeps the estimate unbiased (the survival factors undo it); a good one
keeps the states that matter.

The estimate treats cards as independent walkers. At each transfer a card
at ``a`` moves along an edge ``a -> b`` with the chance a random choice of
the edge's movers gives it (``k`` of ``a``'s ``size`` cards), restricted to
the steps its domain and the supports allow. ``reach[t][c, a, j]`` is then
the chance that card ``c``, at ``a`` at epoch ``t``, is with observation
``j``'s holder at ``j``'s epoch. An observation's count is a sum of such
Bernoulli variables; its chance to land within bounds is taken from a
normal law (with continuity correction), and the guide is the product of
these chances over the observations of the next ``HORIZON`` transfers,
tempered. A state whose cards surely break one of them (more cards surely
counted than allowed, or fewer able to count than needed: the per-card
chances of 0 and 1 are exact) has no future, and its guide is 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass
from math import sqrt

import numpy as np

from deduce.games.abbey.solver.model import Domain
from deduce.games.abbey.solver.timeline import Timeline

#: The least chance an observation's count is given: a rough law must not call a state dead.
FLOOR = 1e-4
#: Observations further than this many transfers ahead are left out of the guide.
HORIZON = 6
#: The guide is the product of the chances raised to this power (they are not independent).
TEMPER = 0.5
#: States guided at once (bounds the memory of the moments: rows x 4 x observations).
ROWS = 1 << 14
#: The least spread of an observation's count, in cards (a near-certain count is still a guess).
SPREAD = 0.5


@dataclass(frozen=True)
class Ahead:
    """An observation to come: ``lo`` to ``hi`` of ``cards`` with ``holder`` at ``epoch``."""

    epoch: int
    holder: int
    cards: tuple[int, ...]
    lo: int
    hi: int


@dataclass(frozen=True)
class _View:
    """What the guide looks at from one epoch, the same for every state there.

    ``later``: the observations within the horizon; ``parts`` and ``even``:
    each card's moments in them, by holder and for an unplaced card;
    ``named``: the cards they name; ``classes``: each named card's holders
    that look alike (see :func:`_distinct`).
    """

    later: np.ndarray
    parts: np.ndarray
    even: np.ndarray
    named: list[int]
    classes: dict[int, tuple[np.ndarray, int]]


class Lookahead:
    """Each state's guide at any epoch, from the observations after it (see module docstring)."""

    def __init__(
        self,
        domains: Sequence[Domain],
        allowed: Sequence[Sequence[Set[int]]],
        ahead: Sequence[Ahead],
        timeline: Timeline,
    ) -> None:
        self.ahead = list(ahead)
        cards, holders = len(domains), len(timeline.holders)
        epochs = len(timeline.sizes)
        member = np.zeros((cards, len(self.ahead)))
        for j, obs in enumerate(self.ahead):
            member[list(obs.cards), j] = 1.0
        self.member = member
        self.lo = np.array([obs.lo for obs in self.ahead], dtype=np.float64)
        self.hi = np.array([obs.hi for obs in self.ahead], dtype=np.float64)
        reach = np.zeros((cards, holders, len(self.ahead)))
        self.reach: list[np.ndarray] = [reach] * epochs
        for t in range(epochs - 1, -1, -1):
            for j, obs in enumerate(self.ahead):
                if obs.epoch == t:
                    reach[:, :, j] = 0.0
                    reach[:, obs.holder, j] = 1.0
            self.reach[t] = reach * member[:, None, :]  # a card counts only where it is named
            if t:
                reach = np.einsum("cab,cbj->caj", _moves(domains, allowed, timeline, t), reach)
        self.even = np.array(
            [
                self.reach[0][c][sorted(holders)].mean(axis=0)
                if holders
                else np.zeros(len(self.ahead))
                for c, holders in enumerate(allowed[0])
            ]
        )
        self._views: dict[int, _View | None] = {}

    def log_guide(
        self, epoch: int, held: Callable[[int], np.ndarray | int | None], rows: int
    ) -> np.ndarray:
        """The log of each of ``rows`` states' guide at ``epoch``, from its cards' holders.

        ``held(card)`` is the card's holder in each state (an array), in every
        state (an int), or None for a card not placed yet (a deal being
        built), whose holder is then taken as drawn evenly from its allowed
        ones at the deal. It is asked only for the cards a coming
        observation names.
        """
        view = self._view(epoch)
        if view is None:
            return np.zeros(rows)
        parts, later = view.parts, view.later
        named = {c: held(c) for c in view.named}
        base = sum(
            (
                parts[c, where] if where is not None else view.even[c]
                for c, where in named.items()
                if not isinstance(where, np.ndarray)
            ),
            np.zeros((4, len(later))),
        )
        varied = [(c, where) for c, where in named.items() if isinstance(where, np.ndarray)]
        varied, inverse = _distinct(varied, view.classes, rows)
        distinct = len(varied[0][1]) if varied else min(rows, 1)
        log = np.empty(distinct)
        for start in range(0, distinct, ROWS):  # a block at a time: rows x moments x observations
            block = slice(start, start + ROWS)
            moments = np.broadcast_to(base, (len(log[block]), 4, len(later))).copy()
            for c, where in varied:
                moments += parts[c, where[block]]
            log[block] = self._log_chance(moments.transpose(1, 0, 2), later)
        return log[inverse] if inverse is not None else np.broadcast_to(log, rows).copy()

    def _view(self, epoch: int) -> _View | None:
        """What the guide looks at from ``epoch`` (None: no observation within the horizon)."""
        if epoch not in self._views:
            later = np.flatnonzero([epoch < obs.epoch <= epoch + HORIZON for obs in self.ahead])
            view = None
            if len(later):
                parts = _moments(self.reach[epoch][:, :, later])
                named = [int(c) for c in np.flatnonzero(self.member[:, later].any(axis=1))]
                classes = {}
                for c in named:  # holders with the same chances in every observation
                    found, same = np.unique(
                        parts[c].reshape(len(parts[c]), -1), axis=0, return_inverse=True
                    )
                    classes[c] = (same.ravel(), len(found))
                view = _View(later, parts, _moments(self.even[:, later]), named, classes)
            self._views[epoch] = view
        return self._views[epoch]

    def _log_chance(self, moments: np.ndarray, later: np.ndarray) -> np.ndarray:
        """The log guide of states from their moments (moment, state, observation)."""
        mean, spread, sure, able = moments
        sigma = np.sqrt(np.maximum(spread, SPREAD**2))
        chance = _phi((self.hi[later] + 0.5 - mean) / sigma) - _phi(
            (self.lo[later] - 0.5 - mean) / sigma
        )
        log = TEMPER * np.log(np.maximum(chance, FLOOR)).sum(axis=1)
        dead = ((sure > self.hi[later] + 0.5) | (able < self.lo[later] - 0.5)).any(axis=1)
        return np.where(dead, -np.inf, log)


def _moves(
    domains: Sequence[Domain], allowed: Sequence[Sequence[Set[int]]], timeline: Timeline, t: int
) -> np.ndarray:
    """``moves[card, a, b]``: a card's chance to step ``a -> b`` at transfer ``t``."""
    holders = len(timeline.holders)
    sizes = timeline.sizes[t - 1]
    share = np.eye(holders)
    for src, dst, k in timeline.transfers[t - 1].moves:
        chance = k / sizes[src] if sizes[src] else 0.0
        share[src, dst] += chance
        share[src, src] -= chance
    moves = np.zeros((len(domains), holders, holders))
    for c, domain in enumerate(domains):
        for a, b in domain.steps[t - 1]:
            if a in allowed[t - 1][c] and b in allowed[t][c]:
                moves[c, a, b] = share[a, b]
    total = moves.sum(axis=2, keepdims=True)
    return np.divide(moves, total, out=np.zeros_like(moves), where=total > 0)


def _distinct(
    varied: list[tuple[int, np.ndarray]], classes: dict[int, tuple[np.ndarray, int]], rows: int
) -> tuple[list[tuple[int, np.ndarray]], np.ndarray | None]:
    """The states that differ in what the guide sees, once each, and where each state is.

    Holders of a card with the same chances in every observation look the
    same to the guide (``classes[card]``: each holder's class, and how many
    classes): each state's view (its cards' classes of holders) is numbered
    in mixed radix, and one state of each view is kept. Returns the cards'
    holders in the kept states and, per state, the one that stands for it
    (None when no card varies). Views too many to number in 64 bits are
    all kept.
    """
    if not varied:
        return varied, None
    radix = 1
    key = np.zeros(rows, dtype=np.uint64)
    for c, where in varied:
        same, count = classes[c]
        if radix * count >= 2**63:
            return varied, np.arange(rows)
        key += np.uint64(radix) * same[where].astype(np.uint64)
        radix *= count
    _, index, inverse = np.unique(key, return_index=True, return_inverse=True)
    return [(c, where[index]) for c, where in varied], inverse.ravel()


def _moments(p: np.ndarray) -> np.ndarray:
    """A card's part in each observation's count: mean, variance, surely in, possibly in.

    ``p[..., j]`` are chances to count in observation ``j``; the moments come
    as a new axis before the last.

    A chance of exactly 1 or 0 is certain: the card's allowed steps force it.
    """
    return np.stack([p, p * (1.0 - p), p >= 1.0 - 1e-9, p > 1e-9], axis=-2).astype(np.float64)


def _phi(x: np.ndarray) -> np.ndarray:
    """The standard normal distribution function (Abramowitz and Stegun 7.1.26, to 1.5e-7)."""
    z = np.abs(x) / sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    half = 0.5 * poly * np.exp(-z * z)  # the tail beyond |x|
    return np.where(x >= 0, 1.0 - half, half)
