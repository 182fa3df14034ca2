"""The short tables ``deduce play`` shows after every event (``show`` prints the full ones).

Each game draws its own (:meth:`deduce.games.protocol.Game.compact_tables`):

- **abbey**: the most probable culprit candidates (at most 8 rows), the
  number of candidates in the title, and whether the probabilities are
  estimated;
- **rose**: one row per other player, their possible colours, most probable
  first;
- **blackrose**: the most probable accomplice pairs (at most 5 rows), and
  who can be the Possessed.

While the chances are still being computed in the background (see
:mod:`~deduce.assist.background`), a title that would say there was not
enough time to estimate them says :data:`COMPUTING` instead. An
inconsistent log has no table: :func:`contradiction` says so in one line,
naming the conflicting lines when they are known (see
:mod:`~deduce.assist.live`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from deduce.assist.live import Inconsistent
from deduce.registry import game_of
from deduce.report import NO_TIME, Table, clash
from deduce.solving import Solution

#: What a title says of chances not computed yet while a background job computes them.
COMPUTING = "chances: computing…"


def compact_tables(
    solution: Solution | Inconsistent, pending: bool = False, seconds: float | None = None
) -> list[Table]:
    """The short tables of a consistent solution (none for an inconsistent one).

    ``pending``: its chances are being computed in the background, for
    ``seconds`` so far when given (see :func:`computing`).
    """
    if isinstance(solution, Inconsistent) or not solution.consistent:
        return []
    tables = game_of(solution).compact_tables(solution)
    return computing(tables, seconds) if pending else tables


def shows_chances(tables: list[Table]) -> bool:
    """Whether short tables show their chances: no title says they are missing for time."""
    return not any(NO_TIME in table.title for table in tables)


def computing(tables: list[Table], seconds: float | None = None) -> list[Table]:
    """``tables`` as they read while their chances are being computed in the background.

    Where a title says that there was not enough time to estimate the
    chances (:data:`~deduce.report.NO_TIME`, up to the end of its
    parenthesis), it says :data:`COMPUTING` instead, and for how long, past
    a second, when ``seconds`` is given (``chances: computing for 14 s…``).
    """
    missing = re.compile(re.escape(NO_TIME) + r"[^)]*")
    said = COMPUTING if seconds is None or seconds < 1 else _for(seconds)
    return [replace(table, title=missing.sub(said, table.title)) for table in tables]


def _for(seconds: float) -> str:
    """:data:`COMPUTING` with how long so far: seconds, then minutes."""
    took = f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"
    return COMPUTING.replace("computing…", f"computing for {took}…")


def contradiction(solution: Solution | Inconsistent) -> str:
    """One line for an inconsistent log: which lines cannot all be true, when known."""
    if not solution.conflict:
        return "Contradiction: no history of the game fits every event."
    return f"Contradiction: {clash(solution.conflict)}."
