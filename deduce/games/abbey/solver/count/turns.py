"""Counting methods in turns: the generators of several methods, advanced one slice at a time."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from time import perf_counter
from typing import Any

from deduce.memory import memory_limit, resident

#: A counting method at work: it pauses after each slice of work and ends with its answer
#: (the total and the holders), or with None when it declines the model.
Method = Generator[None, None, Any]


def in_turns(runs: list[Method]) -> Method:
    """The methods as one: each slice advances whichever has used the least time.

    Its answer is the first non-None answer; a method that finishes with
    None declines the model and leaves the others to go on.
    """
    found: dict[int, Any] = {}
    yield from each_in_turns(runs, found, lambda answer: answer is not None)
    return next((answer for answer in found.values() if answer is not None), None)


def each_in_turns(
    runs: Sequence[Method], found: dict[int, Any], final: Callable[[Any], bool]
) -> Generator[None, None, None]:
    """Every method in turns, each slice to whichever has used the least time.

    Each answer goes into ``found`` (by the method's index) as soon as its
    method finishes, so that a caller who stops early keeps them; it pauses
    after every slice, a method's last one included. The methods end when
    all have finished, or at once after an answer that is ``final``.
    """
    spent = dict.fromkeys(range(len(runs)), 0.0)
    while spent:
        i = min(spent, key=spent.__getitem__)
        start = perf_counter()
        try:
            next(runs[i])
        except StopIteration as finished:
            found[i] = finished.value
            del spent[i]
            if final(finished.value):
                return
        else:
            spent[i] += perf_counter() - start
        yield


def drive(work: Generator[None, None, Any]) -> Any:
    """Run a generator that pauses between slices of work to its end; its answer."""
    while True:
        try:
            next(work)
        except StopIteration as finished:
            return finished.value


def race(runs: list[Method], max_slices: int | None = None, deadline: float | None = None) -> Any:
    """The methods :func:`in_turns`, driven to an answer, or None.

    None also when nothing has finished after ``max_slices`` slices in all,
    or by ``deadline`` (a :func:`time.perf_counter` reading), or once the
    process holds more than :func:`~deduce.memory.memory_limit` bytes.
    """
    work = in_turns(runs)
    slices = 0
    limit = memory_limit()
    while (max_slices is None or slices < max_slices) and (
        deadline is None or perf_counter() < deadline
    ):
        if limit is not None and (resident() or 0) > limit:
            return None
        try:
            next(work)
        except StopIteration as finished:
            return finished.value
        slices += 1
    return None
