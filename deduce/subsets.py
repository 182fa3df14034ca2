"""Minimal and smallest conflicting subsets: the conflicts of every game and the ``why`` answers.

A test ``conflicts`` says whether a set of lines (events, facts) cannot
all hold. It must be monotone (a superset of a conflicting set conflicts
too), which holds for every game's consistency: more events only leave
fewer histories.

- :func:`shrink` finds a *minimal* subset: remove any one item and the
  rest no longer conflicts. It is the games' conflict finder.
- A minimal set need not be the smallest one (two observations may rule a
  card out where one other would do), so :func:`smallest` tries every
  smaller subset, by increasing size, and returns the first that still
  conflicts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from time import perf_counter
from typing import TypeVar

T = TypeVar("T")


def shrink(items: Sequence[T], conflicts: Callable[[list[T]], bool]) -> list[T]:
    """A minimal subset of ``items``, in their order, for which ``conflicts`` holds.

    ``conflicts`` must hold for all of ``items``. The shortest conflicting
    prefix is found by bisection (its last item is needed), then each
    earlier item of it is dropped, from the last back, whenever the others
    kept still conflict. Every kept item was needed by a superset of the
    result, so dropping any one of them leaves a set that does not
    conflict. The result is the one deletion from the last item back gives,
    with fewer tests.
    """
    items = list(items)
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if conflicts(items[:mid]):
            hi = mid
        else:
            lo = mid + 1
    kept = list(range(lo))
    for index in reversed(range(lo - 1)):  # the prefix's last item is needed
        trial = [k for k in kept if k != index]
        if conflicts([items[k] for k in trial]):
            kept = trial
    return [items[k] for k in kept]


def smallest(
    pool: Sequence[int],
    conflicts: Callable[[Sequence[int]], bool],
    found: Sequence[int],
    deadline: float | None = None,
) -> tuple[tuple[int, ...], bool]:
    """A smallest subset of ``pool`` that conflicts, given ``found``, a minimal one.

    Returns the set (sorted) and whether it is proved smallest: every
    subset of fewer lines was tried. When ``deadline`` (a
    :func:`time.perf_counter` time) passes first, ``found`` comes back,
    unproved.
    """
    for size in range(len(found)):
        for subset in combinations(sorted(pool), size):
            if deadline is not None and perf_counter() > deadline:
                return tuple(sorted(found)), False
            if conflicts(subset):
                return subset, True
    return tuple(sorted(found)), True
