"""Consistent histories that change as few cards as possible from a given one.

A block move (:mod:`~deduce.games.abbey.solver.gibbs`) can change the
culprit only when the block holds every card whose path has to change for
that: the culprit, the new one, and the cards that make room for them
(whoever held the new culprit must hold another card instead, and so on
back through the transfers and observations). Random blocks seldom hold
them all late in a game, so a chain would keep its culprit for a long
time. And a chain carried from one position to the next must be mended
where the new event rules its history out.

Both ask, on the log's :class:`SatModel`, for a consistent history (with
some literals true) in which as few cards as possible take another path
than in a history ``H``. Each card gets a *change* literal ``d(c)``, and
while it is false the card keeps its path in ``H``; an incremental
totalizer over the change literals (:class:`pysat.card.ITotalizer`) says
"at most ``k`` change", under an assumption, for ``k = 0, 1, ...`` in
turn; the first ``k`` with a history gives the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from time import perf_counter

from pysat.card import ITotalizer

from deduce.games.abbey.solver.model import History, Path
from deduce.games.abbey.solver.sat.cnf import SatModel
from deduce.games.abbey.solver.timeline import CULPRIT

#: The most cards a culprit-changing set may hold; a candidate that needs more gets none.
MOST = 10
#: Conflicts each query may take before the search gives up.
CONFLICTS = 2_000


class Nearby:
    """Queries for the consistent histories nearest to ``history`` (module docstring).

    The clauses added to ``sat`` hold only under a guard of their own,
    which its other queries never assume. ``history`` has one path per
    card over every epoch of ``sat``.
    """

    def __init__(self, sat: SatModel, history: Sequence[Path], most: int) -> None:
        self.sat, self.history, self.most = sat, history, most
        self.guard = sat.fresh()
        changed = [sat.fresh() for _ in history]
        for card, (path, d) in enumerate(zip(history, changed)):
            sat.solver.append_formula(
                [[-self.guard, d, sat.x(card, e, h)] for e, h in enumerate(path)]
            )
        self.total = ITotalizer(lits=changed, ubound=most, top_id=sat.top)
        sat.top = self.total.top_id
        sat.solver.append_formula(self.total.cnf.clauses)

    def fewest(
        self, extra: Sequence[int] = (), least: int = 0, conflicts: int = CONFLICTS
    ) -> History | None:
        """A consistent history with ``extra`` true, changing the fewest cards (``least`` at least).

        None when it needs more than :attr:`most` cards, or a query passes
        ``conflicts`` conflicts.
        """
        sat = self.sat
        base = [*sat.assumptions(), self.guard, *extra]
        for k in range(least, self.most + 1):
            rhs = self.total.rhs  # -rhs[k]: at most k change (none past its length)
            bound = [-rhs[k]] if k < len(rhs) else []
            sat.solver.conf_budget(conflicts)
            answer = sat.solver.solve_limited(assumptions=base + bound)
            if answer is None:
                return None
            if answer:
                return sat.history(sat.solver.get_model())
        return None

    def close(self) -> None:
        """Free the totalizer (its clauses stay, inert without the guard)."""
        self.total.delete()


def changing_sets(
    sat: SatModel,
    history: Sequence[Path],
    candidates: Sequence[int],
    most: int = MOST,
    conflicts: int = CONFLICTS,
    deadline: float | None = None,
) -> list[frozenset[int]]:
    """For each of ``candidates`` (other than ``history``'s culprit), a smallest set to change.

    Each set holds the cards whose paths differ between ``history`` and a
    consistent history with that candidate the culprit, with as few such
    cards as possible (at most ``most``). A candidate whose queries pass
    ``conflicts`` conflicts, or that needs more cards, gets none; so do
    the candidates left at ``deadline`` (a :func:`time.perf_counter` time).
    """
    last = len(history[0]) - 1
    culprit = next(c for c, p in enumerate(history) if p[-1] == CULPRIT)
    nearby = Nearby(sat, history, most)
    found: list[frozenset[int]] = []
    for y in candidates:
        if y == culprit:
            continue
        if deadline is not None and perf_counter() >= deadline:
            break
        other = nearby.fewest([sat.x(y, last, CULPRIT)], 2, conflicts)
        if other is not None:
            found.append(frozenset(c for c, (a, b) in enumerate(zip(history, other)) if a != b))
    nearby.close()
    return found


def nearest(sat: SatModel, history: Sequence[Path], conflicts: int = CONFLICTS) -> History | None:
    """A consistent history changing as few cards of ``history`` as can be (None: not found).

    ``history`` need not be consistent: a chain's history carried to a
    longer log, each path kept still through the new epochs, is mended so.
    """
    nearby = Nearby(sat, history, len(history))
    found = nearby.fewest(conflicts=conflicts)
    nearby.close()
    return found
