"""Solve many logs of any game in one run: find them, solve each, sum up.

:func:`find_logs` turns files and folders into the list of logs to solve
(a folder is searched recursively for ``*.jsonl`` and ``*.log`` files).
:func:`solve_files` solves them over several processes and yields one
:class:`LogResult` per log, in input order. A log that cannot be read or
solved gives a result with its one-line error: one bad log never stops the
others. :class:`BatchSummary` counts the results by status and
:func:`batch_tables` lays them out for the command line.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from deduce.errors import DeduceError, OutOfMemory
from deduce.logs.io import read_log
from deduce.report import Table, clash, plural
from deduce.solving import Outlook, SolveOptions, outlook, solve_log
from deduce.workers import Workers

#: Endings of the log files searched for in folders (a file named explicitly: any name).
LOG_SUFFIXES = (".jsonl", ".log")

#: Statuses of one log: solved; contradicts itself; bad input; unexpected internal error.
OK, INCONSISTENT, INVALID, ERROR = "ok", "inconsistent", "invalid", "error"
STATUSES = (OK, INCONSISTENT, INVALID, ERROR)


def find_logs(paths: Iterable[str]) -> list[str]:
    """The logs to solve, in order: each folder's logs (see :func:`folder_logs`), each other path.

    A path that is not a folder is kept as given, even if it does not exist
    (solving it then reports the problem). A log reached twice, by any
    spelling of its path or through a link, is kept once.
    """
    found: dict[str, str] = {}
    for path in paths:
        for log in folder_logs(path) if os.path.isdir(path) else (path,):
            found.setdefault(os.path.realpath(log), log)
    return list(found.values())


def folder_logs(folder: str) -> list[str]:
    """The files under ``folder`` whose names end in :data:`LOG_SUFFIXES`, sorted by path.

    Subfolders are searched too, except those reached through a symbolic link.
    """
    return sorted(
        os.path.join(root, name)
        for root, _, names in os.walk(folder)
        for name in names
        if name.endswith(LOG_SUFFIXES)
    )


@dataclass(frozen=True)
class LogResult:
    """What solving one log gave.

    ``status`` is one of :data:`STATUSES`. ``game`` is None when the log
    could not be read. A solved log (``ok`` or ``inconsistent``) has its
    ``outlook`` and ``solution`` (the ``solve --json`` object); the others
    have ``error``, one line naming the file (and line, when there is one).
    """

    path: str
    status: str
    seconds: float
    game: str | None = None
    outlook: Outlook | None = None
    solution: dict[str, Any] | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The log's entry in ``batch --json``: path, game, status, seconds, solution or error."""
        out: dict[str, Any] = {
            "path": self.path,
            "game": self.game,
            "status": self.status,
            "seconds": round(self.seconds, 6),
        }
        if self.solution is not None:
            out["solution"] = self.solution
        else:
            out["error"] = self.error
        return out


def solve_file(path: str, options: SolveOptions) -> LogResult:
    """Read and solve the log at ``path``: a result for every log, never an exception."""
    start = time.perf_counter()
    game = None
    try:
        log = read_log(path, options.deck)
        game = log.header.game
        solution = solve_log(log, options)
        view, data = outlook(solution), solution.to_json()
    except OutOfMemory as exc:  # a valid log this machine cannot count: not invalid
        return LogResult(path, ERROR, time.perf_counter() - start, game, error=one_line(exc))
    except DeduceError as exc:
        return LogResult(path, INVALID, time.perf_counter() - start, game, error=one_line(exc))
    except Exception as exc:  # one log's failure must not stop the batch
        return LogResult(
            path, ERROR, time.perf_counter() - start, game, error=internal_error(path, exc)
        )
    status = OK if view.consistent else INCONSISTENT
    return LogResult(path, status, time.perf_counter() - start, game, view, data)


def one_line(error: BaseException) -> str:
    """The text of ``error`` on one line."""
    return " ".join(str(error).splitlines())


def internal_error(path: str, error: BaseException) -> str:
    """The one-line report of an unexpected exception while solving the log at ``path``."""
    return f"{path}: internal error ({type(error).__name__}: {one_line(error)})"


def solve_files(
    paths: Sequence[str], options: SolveOptions, workers: Workers | int = 0
) -> Iterator[LogResult]:
    """Solve every log of ``paths`` with ``options``; results in the order of ``paths``.

    Runs where ``workers`` says (a number: that many local processes, 0:
    every core, 1: in this process). Each process takes one log at a time,
    so that a slow log does not hold up others queued behind it. If a local
    process dies (killed, out of memory), every log not solved by then gets
    an ``error`` result; on a cluster, only the logs its scheduler gave up on.
    """
    return Workers.of(workers).map(solve_file, [(path, options) for path in paths], _failed)


def _failed(job: tuple[str, SolveOptions], error: Exception) -> LogResult:
    """The ``error`` result of a log whose process died or whose result could not come back."""
    path = job[0]
    return LogResult(path, ERROR, 0.0, error=internal_error(path, error))


@dataclass(frozen=True)
class BatchSummary:
    """How many logs ended in each status, and how long the whole run took (wall clock)."""

    counts: dict[str, int]
    seconds: float

    @classmethod
    def of(cls, results: Iterable[LogResult], seconds: float) -> BatchSummary:
        """The summary of ``results``, solved in ``seconds``."""
        counts = Counter(result.status for result in results)
        return cls({status: counts[status] for status in STATUSES}, seconds)

    @property
    def logs(self) -> int:
        """How many logs were solved (whatever their status)."""
        return sum(self.counts.values())

    @property
    def logs_per_second(self) -> float:
        """Throughput: logs per second of wall clock (0 when no time was measured)."""
        return self.logs / self.seconds if self.seconds > 0 else 0.0

    @property
    def failed(self) -> bool:
        """Whether some log was invalid or hit an internal error."""
        return bool(self.counts[INVALID] or self.counts[ERROR])

    @property
    def inconsistent(self) -> bool:
        """Whether some log contradicts itself."""
        return bool(self.counts[INCONSISTENT])

    def to_json(self) -> dict[str, Any]:
        """The ``summary`` object of ``batch --json``."""
        return {
            "logs": self.logs,
            **self.counts,
            "seconds": round(self.seconds, 6),
            "logs_per_second": round(self.logs_per_second, 3),
        }


def batch_json(results: Sequence[LogResult], summary: BatchSummary) -> dict[str, Any]:
    """The object ``batch --json`` prints: every log's entry, then the summary."""
    return {"logs": [result.to_json() for result in results], "summary": summary.to_json()}


def batch_tables(results: Sequence[LogResult], summary: BatchSummary) -> list[Table]:
    """The table of logs (one row each, in order) and the table of totals."""
    headers = (
        "file",
        "game",
        "status",
        "candidates",
        "answer",
        "probability",
        "seconds",
        "problem",
    )
    logs = Table(plural(summary.logs, "log"), headers, [_row(result) for result in results])
    totals = Table(
        "Totals",
        ("logs", "ok", "inconsistent", "invalid", "errors", "seconds", "logs/s"),
        [
            (
                summary.logs,
                *(summary.counts[s] for s in STATUSES),
                f"{summary.seconds:.2f}",
                f"{summary.logs_per_second:.2f}",
            )
        ],
    )
    return [logs, totals]


def _row(result: LogResult) -> tuple[Any, ...]:
    """One log's row: its answer when solved, its conflict or error otherwise."""
    view = result.outlook
    cells: tuple[Any, ...]
    if result.status == OK and view is not None:
        cells = (view.candidates, *view.best_cells(), "")
    elif result.status == INCONSISTENT and result.solution is not None:
        cells = (0, "", "", clash(result.solution["conflict"]))
    else:
        cells = ("", "", "", result.error or "")
    return (
        result.path,
        result.game or "",
        result.status,
        *cells[:3],
        f"{result.seconds:.3f}",
        cells[3],
    )
