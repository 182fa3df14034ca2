"""Solving after every event, without waiting for a contradiction's minimal set of lines.

:func:`~deduce.solving.solve_log` explains an inconsistent log with a
minimal set of conflicting lines, found by deletion: one SAT solve per
observation. After each event the table only needs to say that the log is
inconsistent; ``explain`` asks for the lines. So for the Abbey,
:func:`solve_live` first asks the log's SAT model whether any history fits
the whole log: when none does, the log is :class:`Inconsistent`, without
its lines; otherwise ``solve_log`` solves it as usual. The Rose and the
Black Rose solve at once, lines included.
"""

from __future__ import annotations

from dataclasses import dataclass

from deduce.games.abbey.solver.sat.cnf import Warm
from deduce.games.abbey.solver.timeline import build_timeline
from deduce.logs.model import GameLog
from deduce.logs.vocabulary.abbey import setup_from_header
from deduce.solving import Solution, SolveOptions, solve_log


@dataclass(frozen=True)
class Inconsistent:
    """A log that no history fits; ``explain`` (a full solve) finds which lines conflict."""

    consistent: bool = False
    conflict: tuple[int, ...] = ()


def abbey_impossible(log: GameLog, warm: Warm | None = None) -> bool:
    """Whether no complete history fits the log (one SAT solve, on ``warm``'s model if given)."""
    setup = setup_from_header(log.header, log.path)
    timeline = build_timeline(setup, log.events, log.path)
    return not (warm or Warm()).model_of(setup, timeline, log.events).satisfiable()


def solve_live(log: GameLog, options: SolveOptions, warm: Warm | None = None
               ) -> Solution | Inconsistent:
    """The log's solution, or :class:`Inconsistent` for an Abbey log no history fits.

    ``warm`` keeps the Abbey's SAT model from one event to the next.
    """
    if log.header.game == "abbey" and abbey_impossible(log, warm):
        return Inconsistent()
    return solve_log(log, options, warm)
