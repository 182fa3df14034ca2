"""Solving after every event, without waiting for a contradiction's minimal set of lines.

:func:`~deduce.solving.solve_log` explains an inconsistent log with a
minimal set of conflicting lines, found by deletion: one complete search
per observation, and on a long Abbey log one of them can take minutes
(refuting a sub-log is the search's slow case). After each event the table
only needs to say that the log is inconsistent; ``explain`` asks for the
lines. So for the Abbey, :func:`solve_live` first searches for one history
that fits the whole log, within the time budget: when the complete search
finds none, the log is :class:`Inconsistent`, without its lines; otherwise
(a history found, or no answer in time) ``solve_log`` solves it as usual.
The Rose and the Black Rose solve at once, lines included.
"""

from __future__ import annotations

from dataclasses import dataclass
from time import perf_counter

from deduce.games.abbey.model import build_model
from deduce.games.abbey.search import SearchTimeout, find_history
from deduce.games.abbey.setup import setup_from_header
from deduce.games.abbey.timeline import build_timeline
from deduce.logs.model import GameLog
from deduce.solving import Solution, SolveOptions, solve_log


@dataclass(frozen=True)
class Inconsistent:
    """A log that no history fits; ``explain`` (a full solve) finds which lines conflict."""

    consistent: bool = False
    conflict: tuple[int, ...] = ()


def abbey_impossible(log: GameLog, budget: float | None) -> bool:
    """Whether the complete search proves, within ``budget`` seconds, that no history fits."""
    setup = setup_from_header(log.header, log.path)
    model = build_model(setup, build_timeline(setup, log.events, log.path), log.events)
    deadline = None if budget is None else perf_counter() + budget
    try:
        return find_history(model, deadline=deadline) is None
    except SearchTimeout:
        return False


def solve_live(log: GameLog, options: SolveOptions) -> Solution | Inconsistent:
    """The log's solution, or :class:`Inconsistent` for an Abbey log no history fits."""
    if log.header.game == "abbey" and abbey_impossible(log, options.budget):
        return Inconsistent()
    return solve_log(log, options)
