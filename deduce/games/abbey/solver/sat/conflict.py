"""Minimal sets of conflicting events, found by deletion on one SAT solver.

Transfers stay in place as the game's structure; the search removes
observations only. First the shortest inconsistent prefix of the log is found
(its last observation belongs to every minimal set within the prefix), then
each earlier observation is dropped in turn and kept out whenever the rest
still conflicts. The same search then finds which transfers' known cards the
contradiction relies on, so that the explanation can name them. When the
transfers' known cards conflict with each other, with no observation at all,
those transfers are the conflict.

Each test of a subset is one solve of the log's :class:`~deduce.games.abbey.solver.sat.cnf.SatModel`
under the selectors of the events kept, so the solver keeps what it learnt
from one test to the next.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import TRANSFERS, Timeline
from deduce.logs.model import Event
from deduce.logs.vocabulary.abbey import AbbeySetup


def consistency(setup: AbbeySetup, timeline: Timeline, events: Sequence[Event]
                ) -> Callable[[Collection[int]], bool]:
    """A test of whether some complete history agrees with every event not on the given lines."""
    sat = sat_model(setup, timeline, events)
    return sat.satisfiable


@dataclass(frozen=True)
class Conflict:
    """A minimal contradiction: the conflicting lines, and the transfers whose cards it uses."""

    lines: tuple[int, ...]
    transfers: tuple[int, ...] = ()


def minimal_conflict(setup: AbbeySetup, timeline: Timeline, events: Sequence[Event]) -> Conflict:
    """A minimal set of events that cannot all hold (the log must be inconsistent)."""
    observed = [e.line for e in events if e.type not in TRANSFERS]
    known_cards = [e.line for e in events if e.type in TRANSFERS and carries_cards(e)]
    pool = known_cards + observed

    consistent = consistency(setup, timeline, events)

    def conflicts(kept: Sequence[int]) -> bool:
        return not consistent(frozenset(pool) - set(kept))

    if conflicts(known_cards):  # the transfers' own cards cannot all be right
        return Conflict(tuple(_shrink(known_cards, conflicts)))
    lines = _shrink(observed, lambda kept: conflicts([*known_cards, *kept]))
    used = _shrink(known_cards, lambda kept: conflicts([*kept, *lines]))
    return Conflict(tuple(lines), tuple(used))


def carries_cards(event: Event) -> bool:
    """Whether a transfer names the cards it moved."""
    return any(key in event.fields for key in ("card", "gave", "got"))


def _shrink(lines: Sequence[int], conflicts: Callable[[Sequence[int]], bool]) -> list[int]:
    """A minimal subset of ``lines`` for which ``conflicts`` holds (it holds for all of them)."""
    lo, hi = 0, len(lines)
    while lo < hi:  # shortest prefix that still conflicts
        mid = (lo + hi) // 2
        if conflicts(lines[:mid]):
            hi = mid
        else:
            lo = mid + 1
    kept = list(lines[:lo])
    for line in reversed(lines[:lo - 1] if lo else []):  # the last one is needed
        trial = [k for k in kept if k != line]
        if conflicts(trial):
            kept = trial
    return sorted(kept)
