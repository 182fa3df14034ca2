"""Bounds propagation: narrow card domains until every tally is bounds-consistent.

For each tally, count the cards that *can* satisfy its location test and the
cards that *must*. If the ones that can are exactly the minimum, they all
must; if the ones that must are exactly the maximum, no other card may. A
narrowed domain is pruned to complete paths and its tallies are looked at
again, until nothing changes. This is sound (it removes no path of any
complete history) but not complete: the engines decide the rest.
"""

from __future__ import annotations

from collections.abc import Sequence

from deduce.games.abbey.solver.model import Domain, Model, Tally


def propagate(model: Model) -> bool:
    """Narrow ``model``'s domains in place; False when some tally or domain cannot be met."""
    if not all(domain.prune() for domain in model.domains):
        return False
    return _fixpoint(model, list(range(len(model.tallies))))


def _woken(model: Model, card: int, layers: list[int]) -> list[int]:
    """The tallies of the card's changed layers."""
    by_layer = model.tallies_of()[card]
    return [j for layer in layers for j in by_layer[layer]]


def _fixpoint(model: Model, queue: list[int]) -> bool:
    """Revise the queued tallies, and those of every card they narrow, until nothing changes."""
    domains, tallies = model.domains, model.tallies
    queued = set(queue)
    while queue:
        j = queue.pop()
        queued.discard(j)
        tally = tallies[j]
        able, loose = _able(tally, domains)
        if len(able) < tally.lo or len(able) - len(loose) > tally.hi:
            return False
        if not loose:
            continue
        if len(able) == tally.lo:
            changed, value = loose, True
        elif len(able) - len(loose) == tally.hi:
            changed, value = loose, False
        else:
            continue
        for c in changed:
            layers = domains[c].narrow(tally, value)
            if layers is None:
                return False
            for k in _woken(model, c, layers):
                if k not in queued:
                    queued.add(k)
                    queue.append(k)
    return True


def _able(tally: Tally, domains: Sequence[Domain]) -> tuple[list[int], list[int]]:
    """The tally's cards that can pass its location test, and those of them that need not.

    The same as :meth:`Domain.can` and :meth:`Domain.must`, inlined: this is
    the innermost loop of propagation.
    """
    if tally.kind == "at":
        e, holder = tally.time, tally.holder
        able = [c for c in tally.cards if holder in domains[c].nodes[e]]
        return able, [c for c in able if len(domains[c].nodes[e]) > 1]
    t, edge = tally.time - 1, (tally.holder, tally.dest)
    able = [c for c in tally.cards if edge in domains[c].steps[t]]
    return able, [c for c in able if len(domains[c].steps[t]) > 1]
