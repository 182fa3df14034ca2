"""The short tables ``deduce play`` shows after every event (``show`` prints the full ones).

Each game draws its own (:meth:`deduce.games.protocol.Game.compact_tables`):

- **abbey**: the most probable culprit candidates (at most 8 rows), the
  number of candidates in the title, and whether the probabilities are
  estimated;
- **rose**: one row per other player, their possible colours, most probable
  first;
- **blackrose**: the most probable accomplice pairs (at most 5 rows), and
  who can be the Possessed.

An inconsistent log has no table: :func:`contradiction` says so in one line,
naming the conflicting lines when they are known (see :mod:`~deduce.assist.live`).
"""

from __future__ import annotations

from deduce.assist.live import Inconsistent
from deduce.registry import game_of
from deduce.report import Table, clash
from deduce.solving import Solution


def compact_tables(solution: Solution | Inconsistent) -> list[Table]:
    """The short tables of a consistent solution (none for an inconsistent one)."""
    if isinstance(solution, Inconsistent) or not solution.consistent:
        return []
    return game_of(solution).compact_tables(solution)


def contradiction(solution: Solution | Inconsistent) -> str:
    """One line for an inconsistent log: which lines cannot all be true, when known."""
    if not solution.conflict:
        return "Contradiction: no history of the game fits every event."
    return f"Contradiction: {clash(solution.conflict)}."
