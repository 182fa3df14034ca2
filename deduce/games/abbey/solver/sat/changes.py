"""The fewest cards whose paths must change for another candidate to be the culprit.

A block move (:mod:`~deduce.games.abbey.solver.gibbs`) can change the
culprit only when the block holds every card whose path has to change for
that: the culprit, the new one, and the cards that make room for them
(whoever held the new culprit must hold another card instead, and so on
back through the transfers and observations). Random blocks seldom hold
them all late in a game, so a chain would keep its culprit for a long
time. This module finds such sets by SAT, on the log's :class:`SatModel`:
for a history ``H`` and a candidate ``y``, a consistent history with
``y`` the culprit in which as few cards as possible take another path than
in ``H``. Each card gets a *change* literal ``d(c)``, and while it is false
the card keeps its path in ``H``; an incremental totalizer over the change
literals (:class:`pysat.card.ITotalizer`) says "at most ``k`` change",
under an assumption, for ``k = 2, 3, ...`` in turn; the first ``k`` with a
history gives the set.
"""

from __future__ import annotations

from collections.abc import Sequence

from pysat.card import ITotalizer

from deduce.games.abbey.solver.model import Path
from deduce.games.abbey.solver.sat.cnf import SatModel
from deduce.games.abbey.solver.timeline import CULPRIT

#: The most cards a set may hold; a candidate that needs more gets no set.
MOST = 10
#: Conflicts each query may take before the search gives up on that candidate.
CONFLICTS = 2_000


def changing_sets(
    sat: SatModel,
    history: Sequence[Path],
    candidates: Sequence[int],
    most: int = MOST,
    conflicts: int = CONFLICTS,
) -> list[frozenset[int]]:
    """For each of ``candidates`` (other than ``history``'s culprit), a smallest set to change.

    Each set holds the cards whose paths differ between ``history`` and a
    consistent history with that candidate the culprit, with as few such
    cards as possible (at most ``most``). A candidate whose queries pass
    ``conflicts`` conflicts, or that needs more cards, gets none. The
    clauses added to ``sat`` hold only under a guard of their own, which
    its other queries never assume.
    """
    last = len(history[0]) - 1
    guard = sat.fresh()
    changed = [sat.fresh() for _ in history]
    for card, (path, d) in enumerate(zip(history, changed)):
        sat.solver.append_formula([[-guard, d, sat.x(card, e, h)] for e, h in enumerate(path)])
    total = ITotalizer(lits=changed, ubound=most, top_id=sat.top)
    sat.top = total.top_id
    sat.solver.append_formula(total.cnf.clauses)
    base = [*sat.assumptions(), guard]
    culprit = next(c for c, p in enumerate(history) if p[-1] == CULPRIT)
    found: list[frozenset[int]] = []
    for y in candidates:
        if y == culprit:
            continue
        for k in range(2, most + 1):
            sat.solver.conf_budget(conflicts)
            answer = sat.solver.solve_limited(
                assumptions=[*base, sat.x(y, last, CULPRIT), -total.rhs[k]]
            )
            if answer is None:
                break
            if answer:
                model = sat.solver.get_model()
                found.append(
                    frozenset(
                        c
                        for c, path in enumerate(history)
                        if any(model[sat.x(c, e, h) - 1] < 0 for e, h in enumerate(path))
                    )
                )
                break
    total.delete()
    return found
