"""Solving after every event, without waiting for a contradiction's minimal set of lines.

:func:`~deduce.solving.solve_log` explains an inconsistent log with a
minimal set of conflicting lines, found by deletion: one SAT solve per
observation. After each event the table only needs to say that the log is
inconsistent; ``explain`` asks for the lines. So :func:`solve_live` first
asks the game whether a quick test already shows that no history fits the
whole log (the Abbey: one solve of its SAT model): then the log is
:class:`Inconsistent`, without its lines; otherwise ``solve_log`` solves it
as usual. The Rose and the Black Rose solve at once, lines included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deduce.logs.model import GameLog
from deduce.registry import game
from deduce.solving import Solution, SolveOptions, solve_log


@dataclass(frozen=True)
class Inconsistent:
    """A log that no history fits; ``explain`` (a full solve) finds which lines conflict."""

    consistent: bool = False
    conflict: tuple[int, ...] = ()


def solve_live(log: GameLog, options: SolveOptions, warm: Any = None) -> Solution | Inconsistent:
    """The log's solution, or :class:`Inconsistent` for a log no history fits.

    ``warm`` (from the game's ``warm()``) keeps the Abbey's SAT model from
    one event to the next.
    """
    if game(log.header.game).impossible(log, warm):
        return Inconsistent()
    return solve_log(log, options, warm)
