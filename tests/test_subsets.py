"""``shrink`` against the plain deletion it stands for, on random monotone tests (hypothesis)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.subsets import shrink

#: A monotone test: a set conflicts when it holds every item of one of these sets.
families = st.lists(
    st.frozensets(st.integers(0, 11), min_size=1, max_size=4), min_size=1, max_size=5
)


def _conflicts(family: list[frozenset[int]]) -> Callable[[Sequence[int]], bool]:
    return lambda kept: any(cause <= set(kept) for cause in family)


def _deletion(items: list[int], conflicts: Callable[[Sequence[int]], bool]) -> list[int]:
    """The reference: each item dropped, from the last back, while the rest still conflicts."""
    kept = list(items)
    for item in reversed(items):
        trial = [k for k in kept if k != item]
        if conflicts(trial):
            kept = trial
    return kept


@settings(max_examples=300, derandomize=True)
@given(families, st.permutations(range(12)))
def test_shrink_is_the_deletion_from_the_last_back(family, order):
    conflicts = _conflicts(family)
    found = shrink(order, conflicts)
    assert found == _deletion(order, conflicts)
    assert conflicts(found)
    assert all(not conflicts([k for k in found if k != item]) for item in found)
    assert [k for k in order if k in found] == found  # in the items' order


def test_shrink_with_nothing_needed_is_empty():
    assert shrink([3, 1, 2], lambda kept: True) == []
