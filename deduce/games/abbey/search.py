"""Exact closure by search: complete histories found by depth-first search with propagation.

A *witness* is one complete history; every card's current holder in it is
possible. The closure (each card's possible current holders) starts from any
witnesses at hand and asks the search, for each (card, holder) pair that no
witness covers yet, for a history with that card there; each history found
covers many more pairs. The search is complete: when it finds nothing, the
pair is impossible. Given a deadline, the search gives up when it passes:
:func:`find_history` raises :class:`SearchTimeout`, and :func:`closure`
keeps every pair it has not refuted (a sound superset, flagged as not
exact). It branches on one card's holder at one epoch (the card
with the fewest options per weight of its failed tallies, see
:class:`_Search`) and propagates bounds after each choice, so most
impossible pairs fail at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from deduce.games.abbey.model import History, Model, Path
from deduce.games.abbey.propagate import propagate, restrict
from deduce.games.abbey.repair import Effort, SearchTimeout, relaxed, repair


def find_history(model: Model, rng: random.Random | None = None,
                 deadline: float | None = None, propagated: bool = False,
                 nodes: int | None = None) -> History | None:
    """One complete history within ``model`` (left untouched), or None when there is none.

    With ``rng``, the values are tried in random order, for varied witnesses.
    Raises :class:`SearchTimeout` past ``deadline`` (a ``perf_counter`` time)
    or after ``nodes`` search nodes. ``propagated`` says the model is already
    propagated, sparing a copy.
    """
    if not propagated:
        model = model.copy()
        if not propagate(model):
            return None
    effort = Effort(deadline, nodes)
    walk = _walker(model, rng or random.Random(0), effort)
    return walk() or _Search(model, rng, effort).run(model, walk)


def _walker(model: Model, rng: random.Random, effort: Effort
            ) -> Callable[[], History | None]:
    """Local-search walks (:mod:`repair`), each from a fresh history of the model's structure.

    The walks usually find a history far sooner than the complete search,
    which alone can tell that there is none. Every history they return is
    checked against the model.
    """
    structure: list[Model] = []

    def walk() -> History | None:
        if not structure:
            structure.append(relaxed(model))
        start = _Search(structure[0], rng, effort).run(structure[0])
        found = None if start is None else repair(model, start, rng, effort)
        return found if found is not None and is_history(model, found) else None
    return walk


class _Limit(Exception):
    """A search run used up its node allowance; the next run starts over with a larger one."""


class _Search:
    """Depth-first search with failure-weighted branching and restarts.

    Each tally that makes propagation fail gains weight; the next card to
    branch on is the one with the fewest options per unit of weight of its
    tallies (``dom/wdeg``), so the search turns first to the cards behind
    the contradictions it has met. A run that exceeds its node allowance
    starts over, keeping the weights, with an allowance half as large again;
    a run that ends within its allowance is complete, so the search is too.
    """

    FIRST_ALLOWANCE = 64

    def __init__(self, model: Model, rng: random.Random | None,
                 effort: Effort | None = None) -> None:
        self.rng = rng or random.Random(0)
        self.effort = effort
        self.shuffle = rng is not None
        self.weights = [0] * len(model.tallies)
        self.of_card = [sorted({j for layer in layers for j in layer})
                        for layers in model.tallies_of()]
        self.left = 0
        self.guide: Sequence[Path] | None = None

    def run(self, model: Model, between: Callable[[], History | None] | None = None
            ) -> History | None:
        """Restart with growing allowances until a run ends within its own.

        ``between``, when given, is tried after every run cut short (a
        cheap incomplete method); its history, if any, is the answer.
        """
        allowance = self.FIRST_ALLOWANCE
        while True:
            self.left = allowance
            try:
                return self._dive(model)
            except _Limit:
                allowance += allowance // 2
                self.shuffle = True
            if between is not None and (found := between()) is not None:
                return found

    def _dive(self, model: Model) -> History | None:
        """Depth-first search below a propagated model."""
        self.left -= 1
        if self.left < 0:
            raise _Limit
        if self.effort is not None:
            self.effort.spend()
        choice = self._branch(model)
        if choice is None:
            return [tuple(next(iter(nodes)) for nodes in d.nodes) for d in model.domains]
        card, epoch = choice
        values = sorted(model.domains[card].nodes[epoch])
        if self.shuffle:
            self.rng.shuffle(values)
        if self.guide is not None and self.guide[card][epoch] in values:
            values.remove(self.guide[card][epoch])
            values.insert(0, self.guide[card][epoch])
        for holder in values:
            trial = model.copy()
            if restrict(trial, card, epoch, holder, self.weights):
                found = self._dive(trial)
                if found is not None:
                    return found
        return None

    def _branch(self, model: Model) -> tuple[int, int] | None:
        """(card, epoch) to branch on: fewest options per weight, its widest epoch."""
        best, best_score = None, 0.0
        weights = self.weights
        for card, domain in enumerate(model.domains):
            options = sum(len(nodes) for nodes in domain.nodes) - len(domain.nodes)
            if options:
                score = options / (1 + sum(weights[j] for j in self.of_card[card]))
                if best is None or score < best_score:
                    best, best_score = card, score
        if best is None:
            return None
        nodes = model.domains[best].nodes
        return best, max(range(len(nodes)), key=lambda e: (len(nodes[e]), -e))


@dataclass(frozen=True)
class Closure:
    """Each card's possible current holders; ``exact`` false when a deadline cut it short.

    A cut-short closure keeps every pair it could not refute, so it never
    leaves out a holder that is possible.
    """

    possible: list[set[int]]
    exact: bool = True


def closure(model: Model, witnesses: Iterable[Sequence[Path]] = (),
            covered: Sequence[set[int]] = (), rng: random.Random | None = None,
            deadline: float | None = None) -> Closure | None:
    """Each card's possible current holders, or None when no history exists.

    ``witnesses`` are known complete histories of ``model`` and ``covered``
    (card by card) current holders already seen in some complete history;
    they spare the search every pair they cover. Past ``deadline`` (a
    ``perf_counter`` time) the pairs left undecided count as possible.
    """
    base = model.copy()
    if not propagate(base):
        return None
    possible: list[set[int]] = [set(holders) for holders in covered] or [
        set() for _ in base.domains]
    known = list(witnesses)
    for history in known:
        _cover(possible, history)
    effort = Effort(deadline)
    search = _Search(base, rng, effort)
    search.guide = known[0] if known else None
    if search.guide is None:
        try:
            search.guide = search.run(base)
        except SearchTimeout:
            return Closure(_unrefuted(base, possible, 0, -1), exact=False)
        if search.guide is None:
            return None
        _cover(possible, search.guide)
    for card, domain in enumerate(base.domains):
        for holder in sorted(domain.nodes[-1] - possible[card]):
            if holder in possible[card]:
                continue
            narrowed = base.copy()
            if not restrict(narrowed, card, len(domain.nodes) - 1, holder, search.weights):
                continue
            try:
                found = search.run(narrowed, _walker(narrowed, search.rng, effort))
            except SearchTimeout:
                return Closure(_unrefuted(base, possible, card, holder), exact=False)
            if found is not None:
                _cover(possible, found)
                search.guide = found
    return Closure(possible)


def _unrefuted(base: Model, possible: list[set[int]], card: int, holder: int) -> list[set[int]]:
    """``possible`` plus every pair from (card, holder) on that the search has not reached."""
    out = [set(row) for row in possible]
    for c, domain in enumerate(base.domains):
        if c >= card:
            out[c] |= {h for h in domain.nodes[-1] if c > card or h >= holder}
    return out


def _cover(possible: list[set[int]], history: Sequence[Path]) -> None:
    """Mark every card's current holder in ``history`` as possible."""
    for card, path in enumerate(history):
        possible[card].add(path[-1])


def is_history(model: Model, history: Sequence[Path]) -> bool:
    """Whether ``history`` (a path per card) lies in every domain and meets every tally."""
    if not all(d.contains(p) for d, p in zip(model.domains, history, strict=True)):
        return False
    return all(tally.lo <= sum(1 for c in tally.cards if tally.hit(history[c])) <= tally.hi
               for tally in model.tallies)
