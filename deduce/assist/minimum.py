"""The smallest set of lines that rules a hypothesis out, searched by size within a deadline.

The games' conflict finders return *minimal* sets: remove any one line and
the rest no longer conflicts. A minimal set need not be the smallest one
(two observations may rule a card out where one other would do), so
:func:`smallest` tries every smaller subset, by increasing size, and
returns the first that still conflicts. The test must be monotone (a
superset of a conflicting set conflicts too), which holds for every
game's consistency: more events only leave fewer histories.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from time import perf_counter


def smallest(pool: Sequence[int], conflicts: Callable[[Sequence[int]], bool],
             found: Sequence[int], deadline: float | None = None) -> tuple[tuple[int, ...], bool]:
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
