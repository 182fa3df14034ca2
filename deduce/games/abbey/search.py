"""Exact closure by search: complete histories found by depth-first search with propagation.

A *witness* is one complete history; every card's current holder in it is
possible. The closure (each card's possible current holders) starts from any
witnesses at hand and asks the search, for each (card, holder) pair that no
witness covers yet, for a history with that card there; each history found
covers many more pairs. The search is complete: when it finds nothing, the
pair is impossible. It branches on one card's holder at one epoch, the card
with the fewest options first, and propagates bounds after each choice, so
most impossible pairs fail at once.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from deduce.games.abbey.model import Model
from deduce.games.abbey.propagate import propagate

Path = tuple[int, ...]
History = list[Path]


def find_history(model: Model, rng: random.Random | None = None) -> History | None:
    """One complete history within ``model`` (left untouched), or None when there is none.

    With ``rng``, the values are tried in random order, for varied witnesses.
    """
    model = model.copy()
    if not propagate(model):
        return None
    return _search(model, rng)


def _search(model: Model, rng: random.Random | None) -> History | None:
    """Depth-first search below a propagated model."""
    choice = _branch(model)
    if choice is None:
        return [tuple(next(iter(nodes)) for nodes in d.nodes) for d in model.domains]
    card, epoch = choice
    values = sorted(model.domains[card].nodes[epoch])
    if rng is not None:
        rng.shuffle(values)
    for holder in values:
        trial = model.copy()
        trial.domains[card].nodes[epoch] = {holder}
        if propagate(trial, [card]):
            found = _search(trial, rng)
            if found is not None:
                return found
    return None


def _branch(model: Model) -> tuple[int, int] | None:
    """(card, epoch) to branch on: the undecided card with fewest options, its first open epoch."""
    best, best_size = None, 0
    for card, domain in enumerate(model.domains):
        size = sum(len(nodes) for nodes in domain.nodes)
        if size > len(domain.nodes) and (best is None or size < best_size):
            best, best_size = card, size
    if best is None:
        return None
    nodes = model.domains[best].nodes
    return best, next(e for e, n in enumerate(nodes) if len(n) > 1)


def closure(model: Model, witnesses: Iterable[Sequence[Path]] = (),
            covered: Sequence[set[int]] = (), rng: random.Random | None = None
            ) -> list[set[int]] | None:
    """Each card's possible current holders, or None when no history exists.

    ``witnesses`` are known complete histories of ``model`` and ``covered``
    (card by card) current holders already seen in some complete history;
    they spare the search every pair they cover.
    """
    base = model.copy()
    if not propagate(base):
        return None
    possible: list[set[int]] = [set(holders) for holders in covered] or [
        set() for _ in base.domains]
    for history in witnesses:
        _cover(possible, history)
    if not any(possible):
        first = _search(base, rng)
        if first is None:
            return None
        _cover(possible, first)
    for card, domain in enumerate(base.domains):
        for holder in sorted(domain.nodes[-1] - possible[card]):
            if holder in possible[card]:
                continue
            narrowed = base.copy()
            narrowed.domains[card].nodes[-1] = {holder}
            if propagate(narrowed, [card]):
                found = _search(narrowed, rng)
                if found is not None:
                    _cover(possible, found)
    return possible


def _cover(possible: list[set[int]], history: Sequence[Path]) -> None:
    """Mark every card's current holder in ``history`` as possible."""
    for card, path in enumerate(history):
        possible[card].add(path[-1])


def is_history(model: Model, history: Sequence[Path]) -> bool:
    """Whether ``history`` (a path per card) lies in every domain and meets every tally."""
    for domain, path in zip(model.domains, history, strict=True):
        if any(h not in nodes for h, nodes in zip(path, domain.nodes, strict=True)):
            return False
        if any((path[t - 1], path[t]) not in step for t, step in enumerate(domain.steps, 1)):
            return False
    return all(tally.lo <= sum(1 for c in tally.cards if tally.hit(history[c])) <= tally.hi
               for tally in model.tallies)
