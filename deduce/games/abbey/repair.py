"""Finding one complete history fast by local search (min-conflicts), with no proof of absence.

The depth-first search of :mod:`search` is complete but heavy-tailed late in
a game: one run finds a history in a tenth of a second, the next needs ten
seconds. A history is usually much easier to *repair* than to build:

1. Drop the observation tallies (counts, shows...), keep the structure
   (hand sizes, how many cards each transfer moved) and the propagated
   domains, and let the depth-first search build a history of that relaxed
   model, which it does almost without backtracking.
2. Move towards the observations: each step takes a violated tally and one
   of its cards that is on the wrong side of it, pairs it with another card
   and swaps a stretch of their paths between two epochs where both sit
   with the same holder (or the start or the end). Such swaps keep every hand size and transfer
   count, and are kept if the domains allow them and the total violation
   does not grow (or, rarely, grows: a random walk step that escapes
   plateaus).

A walk returns a history that satisfies every tally, or None when the
deadline or its step allowance runs out; it never proves that no history
exists, which stays the complete search's job. :func:`search.find_history`
tries a few walks before its complete search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from time import perf_counter

from deduce.games.abbey.model import History, Model, Path, Tally

#: Chance of accepting a step that adds one unit of violation.
NOISE = 0.05
#: Moves of one walk before starting over from another relaxed history.
RESTART = 4_000
#: Walk steps that cost as much as one node of the complete search.
STEPS_PER_NODE = 64


class SearchTimeout(Exception):
    """The search used up its effort (deadline or node allowance) before it could decide."""


class Effort:
    """How long searches may go on: a deadline, a number of search nodes, or both.

    Every search and walk given the same effort spends from it; past either
    limit, :meth:`spend` raises :class:`SearchTimeout`. A node allowance
    makes the outcome independent of the machine's speed (the bots use it,
    so that a seed gives the same game anywhere).
    """

    def __init__(self, deadline: float | None = None, nodes: int | None = None) -> None:
        self.deadline = deadline
        self.nodes = nodes

    def spend(self) -> None:
        """Count one search node; raise past the deadline or the allowance."""
        if self.nodes is not None:
            self.nodes -= 1
            if self.nodes < 0:
                raise SearchTimeout
        if self.deadline is not None and perf_counter() > self.deadline:
            raise SearchTimeout


def repair(model: Model, paths: Sequence[Path], rng: random.Random,
           effort: Effort | None = None, steps: int = RESTART) -> History | None:
    """Walk from ``paths`` (a history of the relaxed model) to one that meets every tally.

    None after ``steps`` moves without one; raises :class:`SearchTimeout`
    when ``effort`` runs out.
    """
    walk = _Walk(model, list(paths), rng)
    for step in range(steps):
        if not walk.violation:
            return walk.paths
        if effort is not None and step % STEPS_PER_NODE == 0:
            effort.spend()
        walk.step()
    return walk.paths if not walk.violation else None


def relaxed(model: Model) -> Model:
    """The model without its observation tallies: the structure and the domains only."""
    twin = model.copy()
    twin.tallies = [t for t in model.tallies if t.line is None]
    return twin


class _Walk:
    """The current paths, each observation tally's value, and the total violation."""

    def __init__(self, model: Model, paths: list[Path], rng: random.Random) -> None:
        self.rng = rng
        self.paths = paths
        self.domains = model.domains
        self.tallies = [t for t in model.tallies if t.line is not None and not t.redundant]
        self.of_card: list[list[int]] = [[] for _ in paths]
        for j, tally in enumerate(self.tallies):
            for c in tally.cards:
                self.of_card[c].append(j)
        self.value = [sum(1 for c in t.cards if t.hit(paths[c])) for t in self.tallies]
        self.broken = {j for j, (t, v) in enumerate(zip(self.tallies, self.value)) if _off(t, v)}
        self.violation = sum(_off(t, v) for t, v in zip(self.tallies, self.value))
        self.free = [c for c, d in enumerate(model.domains) if any(len(n) > 1 for n in d.nodes)]
        self.movable = frozenset(self.free)
        self.epochs = len(paths[0]) if paths else 0

    def step(self) -> None:
        """One min-conflicts move on a card of a violated tally (see the module docstring)."""
        j = self.rng.choice(sorted(self.broken))
        tally = self.tallies[j]
        over = self.value[j] > tally.hi
        wrong = [c for c in tally.cards if tally.hit(self.paths[c]) == over and c in self.movable]
        if not wrong:
            return
        a = self.rng.choice(wrong)
        pa = self.paths[a]
        # a partner elsewhere at the tally's time can change the tally; anyone else rarely does
        partners = [c for c in self.free if self.paths[c][tally.time] != pa[tally.time]]
        b = self.rng.choice(partners or self.free)
        if a == b:
            return
        pb = self.paths[b]
        ends = [-1, *(e for e in range(self.epochs - 1) if pa[e] == pb[e]), self.epochs - 1]
        i = self.rng.randrange(len(ends) - 1)
        first, last = ends[i] + 1, ends[self.rng.randrange(i + 1, len(ends))] + 1
        new_a = pa[:first] + pb[first:last] + pa[last:]
        new_b = pb[:first] + pa[first:last] + pb[last:]
        if new_a == pa or not (self.domains[a].contains(new_a)
                               and self.domains[b].contains(new_b)):
            return
        change = self._change(a, b, new_a, new_b)
        delta = sum(_off(self.tallies[j], v) - _off(self.tallies[j], self.value[j])
                    for j, v in change.items())
        if delta <= 0 or self.rng.random() < NOISE ** delta:
            self.paths[a], self.paths[b] = new_a, new_b
            for j, v in change.items():
                self.value[j] = v
                if _off(self.tallies[j], v):
                    self.broken.add(j)
                else:
                    self.broken.discard(j)
            self.violation += delta

    def _change(self, a: int, b: int, new_a: Path, new_b: Path) -> dict[int, int]:
        """The new values of the tallies that the two cards' new paths change."""
        change: dict[int, int] = {}
        for card, old, new in ((a, self.paths[a], new_a), (b, self.paths[b], new_b)):
            for j in self.of_card[card]:
                tally = self.tallies[j]
                diff = tally.hit(new) - tally.hit(old)
                if diff:
                    change[j] = change.get(j, self.value[j]) + diff
        return change


def _off(tally: Tally, value: int) -> int:
    """How far ``value`` lies outside the tally's range."""
    return max(0, tally.lo - value, value - tally.hi)

