"""Bounds propagation: narrow card domains until every tally is bounds-consistent.

For each tally, count the cards that *can* satisfy its location test and the
cards that *must*. If the ones that can are exactly the minimum, they all
must; if the ones that must are exactly the maximum, no other card may. A
narrowed domain is pruned to complete paths and its tallies are looked at
again, until nothing changes. This is sound (it removes no path of any
complete history) but not complete: the engines decide the rest.
"""

from __future__ import annotations

from collections.abc import Iterable

from deduce.games.abbey.model import Model


def propagate(model: Model, changed: Iterable[int] | None = None) -> bool:
    """Narrow ``model``'s domains in place; False when some tally or domain cannot be met.

    With ``changed``, only those cards' domains were narrowed since the model
    was last propagated, and only their tallies are looked at first.
    """
    domains, tallies = model.domains, model.tallies
    by_card = model.tallies_of()
    if changed is None:
        queue = list(range(len(tallies)))
        cards: Iterable[int] = range(len(domains))
    else:
        cards = list(changed)
        queue = sorted({j for c in cards for j in by_card[c]})
    if not all(domains[c].prune() for c in cards):
        return False
    queued = set(queue)
    while queue:
        j = queue.pop()
        queued.discard(j)
        tally = tallies[j]
        able = [c for c in tally.cards if domains[c].can(tally)]
        bound = {c for c in able if domains[c].must(tally)}
        if len(able) < tally.lo or len(bound) > tally.hi:
            return False
        if len(able) == len(bound):
            continue
        if len(able) == tally.lo:
            changed, value = [c for c in able if c not in bound], True
        elif len(bound) == tally.hi:
            changed, value = [c for c in able if c not in bound], False
        else:
            continue
        for c in changed:
            domains[c].force(tally, value)
            if not domains[c].prune():
                return False
            for k in by_card[c]:
                if k not in queued:
                    queued.add(k)
                    queue.append(k)
    return True
