"""Exact counting of complete histories, and of each card's current holder.

Three exact methods count the same model, each fast where the others are
slow: card by card over open tallies (:mod:`cardwise`: few holders, few
questions), epoch by epoch over the counts of interchangeable card classes
(:mod:`epochwise`: few kinds of card, many transfers, small decks,
spectators) and path by path over the classes of unplaced cards
(:mod:`pathwise`: many holders, few unseen transfers).
Both are generators that pause after every short slice of work; by default
they run in turns, the one that has used less time going next, and the first
to finish gives the answer, so a position costs about twice what the faster
method needs. Both are checked against the
brute-force enumerator.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from time import perf_counter

from deduce.games.abbey.solver.count.cardwise import Holders, count_by_cards
from deduce.games.abbey.solver.count.epochwise import count_by_epochs, deal_bound
from deduce.games.abbey.solver.count.pathwise import count_by_paths
from deduce.games.abbey.solver.model import Model
from deduce.games.abbey.solver.propagate import propagate
from deduce.memory import memory_limit, resident

METHODS = ("cards", "epochs", "paths")
#: Past this many possible deal matrices, the epoch-by-epoch method is not raced.
EPOCH_DEALS = 100_000
#: A counting method at work: it pauses after each slice and ends with the total
#: and the holders, or with None when it declines the model.
Method = Generator[None, None, tuple[int, Holders] | None]


@dataclass(frozen=True)
class Counts:
    """How many complete histories agree with the model, in total and per (card, current holder)."""

    total: int
    holders: tuple[dict[int, int], ...]  # holders[card][holder index] = histories

    def probabilities(self) -> list[dict[int, Fraction]]:
        """Each card's current-holder distribution (empty dicts when there is no history)."""
        if not self.total:
            return [{} for _ in self.holders]
        return [{h: Fraction(n, self.total) for h, n in sorted(row.items()) if n}
                for row in self.holders]


def count_histories(model: Model, methods: Sequence[str] = METHODS,
                    max_slices: int | None = None, deadline: float | None = None,
                    narrowed: bool = False) -> Counts | None:
    """Count the histories of ``model`` (a copy is narrowed first; the argument is untouched).

    ``narrowed`` says that ``model`` is already propagated: it is counted
    as it is, without a copy.

    ``methods`` run in turns, one slice of work at a time, the one that has
    used the least time going next; the first to finish answers. When there
    are several, the epoch-by-epoch method is left out once the deal alone
    could have more than ``EPOCH_DEALS`` matrices: full decks with many
    kinds of card, where it never wins and its slices grow long. None comes
    back when no method has finished after ``max_slices`` slices in all, or
    by ``deadline`` (a :func:`time.perf_counter` reading), or once the
    process holds more than :func:`~deduce.memory.memory_limit` bytes.
    """
    if not narrowed:
        model = model.copy()
    if not narrowed and not propagate(model):
        return Counts(0, tuple({} for _ in model.domains))
    tallies = [t for t in model.tallies if not t.redundant]
    if len(methods) > 1 and deal_bound(model.domains, tallies) > EPOCH_DEALS:
        methods = [m for m in methods if m != "epochs"]
    start = {"cards": lambda: count_by_cards(model.domains, tallies),
             "epochs": lambda: count_by_epochs(model.domains, tallies, model.timeline),
             "paths": lambda: count_by_paths(model.domains, tallies)}
    found = _race([start[m]() for m in methods], max_slices, deadline)
    return None if found is None else Counts(*found)


def _race(runs: list[Method], max_slices: int | None,
          deadline: float | None) -> tuple[int, Holders] | None:
    """Advance whichever generator has used the least time; the value of the first to finish.

    A method that finishes with None declines the model and leaves the race.
    """
    spent = [0.0] * len(runs)
    slices = 0
    limit = memory_limit()
    while runs and ((max_slices is None or slices < max_slices)
                    and (deadline is None or perf_counter() < deadline)):
        if limit is not None and (resident() or 0) > limit:
            return None
        i = spent.index(min(spent))
        start = perf_counter()
        try:
            next(runs[i])
        except StopIteration as finished:
            if finished.value is not None:
                return finished.value
            del runs[i], spent[i]
            continue
        spent[i] += perf_counter() - start
        slices += 1
    return None

