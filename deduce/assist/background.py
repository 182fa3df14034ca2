"""The chances of a position, refined in a background process while the player is idle.

After each event ``play`` shows at once what is exact (the candidates of the
SAT closure, from a solve with a budget of 0) and hands the position to a
:class:`Refiner`. A separate *process* (the solver is CPU-bound Python: in a
thread it would starve the prompt through the GIL) solves it again with each
budget of a ladder (:data:`LADDER`), and stops once the chances are exact.
Within a rung it sends every estimate as soon as it is made (the Abbey's
capped counts, round by round), not only the rung's answer. A watcher
thread of this process hands each result that improves on what was shown
(:func:`better`), and the job's last one, to a callback.

- **A new position supersedes the job at once.** :meth:`Refiner.start`
  kills the running worker (it is never waited on) and closes its pipe
  before it starts the next one. Each job carries the log it is for, and
  only the current job's results are delivered: the result shown last is
  always the last position's.
- **The callback runs under** :attr:`Refiner.lock`. Whoever holds it (the
  prompt, while it handles a line) delays the delivery; a job superseded
  meanwhile is never delivered.
- **No worker outlives this process.** The worker, and the processes it
  starts (the Abbey's chains on every core), each end the moment their
  parent ends (:func:`deduce.processes.follow_parent`), SIGKILL included;
  at a normal exit the running job is cancelled first.
- **Work goes on from where it was.** A job's results may carry what its
  solve can go on from (the Abbey's chains, as its solution's ``carry``); the
  next rung of the ladder starts from the last of them, and so does the
  next job when its log only adds events at the end of this one's (an
  ``undo``, ``edit``, ``drop`` or ``insert`` starts afresh).
- **The worker never speaks.** An error in it (a memory stop, an internal
  error) comes back as one line (:attr:`Refined.error`); Ctrl-C at the
  prompt is not its own; it ends with this process, however that ends.

The solve function is injectable (tests give a slow fake); it must be a
module-level function where processes are spawned rather than forked.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from deduce.assist.live import Inconsistent
from deduce.errors import DeduceError
from deduce.logs.model import GameLog
from deduce.processes import context, follow_parent
from deduce.solving import Solution, SolveOptions, solve_log

#: The budgets (seconds) a position is solved with in turn, until the chances are exact: a
#: quick rung for the exact count, then a long one whose estimates show as they come (every
#: rung starts afresh, so a middle one would only delay the long one).
LADDER = (1.0, 120.0)
#: Seconds between the watcher's looks at the running job.
POLL_SECONDS = 0.05

#: What a worker runs: a log and its options (with the rung's budget) to a solution.
SolveFunction = Callable[[GameLog, SolveOptions], Solution]


def ladder(first: float | None = None) -> tuple[float, ...]:
    """The budgets of a job: :data:`LADDER`, or ``first`` then the longer rungs of it."""
    if first is None:
        return LADDER
    return (first, *(rung for rung in LADDER if rung > first))


def exact(solution: Solution | Unknown) -> bool:
    """Whether every probability of ``solution`` is exact (the spec's top-level ``exact``)."""
    return bool(solution.to_json().get("exact", True))


#: The budgets of what the others know (``play``'s second job, see :class:`Refiner`).
OTHERS_LADDER = (3.0, 10.0)
#: How much lower it runs than the chances: where both want the cores, the chances come first.
OTHERS_NICENESS = 5
#: Seconds the chances have the cores to themselves before it starts beside them anyway.
OTHERS_AFTER = 10.0


@dataclass(frozen=True)
class Unknown:
    """Nothing known yet: what a job starts from when the player was shown nothing of it."""

    consistent: bool = True

    def to_json(self) -> dict[str, Any]:
        """An estimate without a bound: anything the job finds is better."""
        return {"exact": False, "error": 1.0}


#: How much narrower an estimate's bound must be than the one shown for it to be shown
#: (a long refinement makes a new estimate every few seconds: most would change nothing).
NARROWER = 2 / 3


def better(new: Solution, old: Solution | Unknown) -> bool:
    """Whether ``new`` improves on ``old``: exact beats estimated, a narrower bound a wider one.

    The bound is the spec's top-level error on every probability; an
    estimate must bring it down to :data:`NARROWER` of the old one at least.
    """
    (new_exact, new_error), (old_exact, old_error) = _rank(new), _rank(old)
    if new_exact or old_exact:
        return new_exact and not old_exact
    return new_error <= NARROWER * old_error


def _rank(solution: Solution | Unknown) -> tuple[bool, float]:
    """A solution's top-level ``exact`` and ``error`` (0 when exact), read once."""
    data = solution.to_json()
    return bool(data.get("exact", True)), float(data.get("error", 0.0))


@dataclass(frozen=True)
class Refined:
    """What a job delivers: the best solution of ``log`` so far, or the error that stopped it.

    ``budget``: the rung that gave it; ``last``: no more comes from this job.
    """

    log: GameLog
    budget: float
    solution: Solution | None = None
    error: str = ""
    last: bool = False


@dataclass
class _Job:
    """One position being refined: its log (what its results are for), worker, pipe, best."""

    log: GameLog
    process: BaseProcess
    reader: Connection
    best: Solution | Unknown


class Refiner:
    """Refines the chances of one position at a time in a worker process (module docstring).

    ``deliver`` gets each :class:`Refined` worth showing, in the watcher
    thread, with :attr:`lock` held. ``budgets``: the ladder; ``solve``: what
    the worker runs; ``niceness``: how much lower than this process the
    workers (and the processes they start) run, so that another refiner's
    work comes first where they compete for the cores.
    """

    def __init__(
        self,
        deliver: Callable[[Refined], None],
        budgets: Sequence[float] = LADDER,
        solve: SolveFunction = solve_log,
        name: str = "deduce-refiner",
        niceness: int = 0,
    ) -> None:
        self.deliver = deliver
        self.budgets = tuple(budgets)
        self.solve = solve
        #: The workers' name, as ``ps`` shows it (where the system lets a process name itself).
        self.name = name
        self.niceness = niceness
        #: Held while a delivery runs; hold it to keep deliveries out (a delayed one is
        #: dropped if its job is superseded meanwhile).
        self.lock = threading.RLock()
        self._context = context()
        self._job: _Job | None = None  # the current job: the only one delivered
        #: The log of the last job that sent something to go on from, and that thing.
        self._carried: tuple[GameLog, Any] | None = None
        self._closed = False
        self._watcher = threading.Thread(target=self._watch, name="deduce-refiner", daemon=True)
        self._watcher.start()
        # the worker is not a daemon (it may start processes of its own): however this
        # process ends, it is killed before multiprocessing waits for its children
        atexit.register(self.cancel)

    @property
    def worker(self) -> int | None:
        """The process id of the running job's worker (None when there is none)."""
        with self.lock:
            return self._job.process.pid if self._job is not None else None

    def start(
        self, log: GameLog, options: SolveOptions, shown: Solution | Inconsistent | Unknown
    ) -> bool:
        """Refine ``log``'s chances from now on, ``shown`` being what the player sees.

        The running job, if any, is cancelled first. Returns whether a job
        started: none when ``shown`` is exact already, or inconsistent.
        """
        with self.lock:
            self.cancel()
            if (
                self._closed
                or isinstance(shown, Inconsistent)
                or not shown.consistent
                or exact(shown)
            ):
                return False
            if self._carried is not None and _extends(log, self._carried[0]):
                options = replace(options, carry=self._carried[1])
            reader, writer = self._context.Pipe(duplex=False)
            process = self._context.Process(
                target=_refine,
                args=(writer, log, options, self.budgets, self.solve, self.name, self.niceness),
                name=self.name,
                daemon=False,  # it may start processes of its own (the Abbey's chains)
            )
            with _ctrl_c_held():  # the worker is born deaf to it (see _detach)
                process.start()
                writer.close()  # the worker holds the other end: its end is the pipe's end
                self._job = _Job(log, process, reader, shown)
            return True

    def cancel(self) -> None:
        """Stop the running job at once: its worker is killed and reaped, its results dropped."""
        with self.lock:
            job, self._job = self._job, None
            if job is not None:
                _end(job)

    def close(self) -> None:
        """Cancel the running job and stop the watcher (the end of the session)."""
        with self.lock:
            self._closed = True
            self.cancel()
        if threading.current_thread() is not self._watcher:
            self._watcher.join()

    def __enter__(self) -> Refiner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _watch(self) -> None:
        """The watcher thread: look at the current job's pipe until the refiner closes."""
        while not self._closed:
            time.sleep(POLL_SECONDS)
            if not self.lock.acquire(timeout=POLL_SECONDS):  # held: the prompt is busy
                continue
            try:
                job = self._job
                if job is not None and job.reader.poll(0):
                    self._receive(job)
            finally:
                self.lock.release()

    def _receive(self, job: _Job) -> None:
        """Take one message of ``job`` (the current job; the lock held) and deliver it."""
        try:
            budget, solution, error, final = pickle.loads(job.reader.recv_bytes())
        except (EOFError, OSError):  # the worker died without a word (the system killed it)
            budget, solution, error, final = 0.0, None, "the worker process died", True
        last = error != "" or (final and budget == self.budgets[-1]) or exact(solution)
        if last:
            self._job = None
            _end(job)
        if error:
            self.deliver(Refined(job.log, budget, error=error, last=True))
            return
        carry = getattr(solution, "carry", None)  # the Abbey's chains, to go on from
        if carry is not None:
            self._carried = (job.log, carry)
        improved = better(solution, job.best)
        if improved:
            job.best = solution
        if improved or last:  # nothing better than nothing yet: the job's own last word
            best = solution if isinstance(job.best, Unknown) else job.best
            self.deliver(Refined(job.log, budget, best, last=last))


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back meanwhile; one pressed is delivered at the end.

    A worker started meanwhile starts with it held, until it ignores it.
    """
    if not hasattr(signal, "pthread_sigmask"):  # no signal masks (Windows)
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _end(job: _Job) -> None:
    """Kill ``job``'s worker if it still runs, reap it, and close its pipe."""
    if job.process.is_alive():
        job.process.kill()
    job.process.join()
    job.process.close()
    job.reader.close()


def _refine(
    writer: Connection,
    log: GameLog,
    options: SolveOptions,
    budgets: Sequence[float],
    solve: SolveFunction,
    name: str,
    niceness: int = 0,
) -> None:
    """The worker ``name``: solve ``log`` with each budget in turn, send each result, until exact.

    It runs ``niceness`` below its parent.

    Each message is ``(budget, solution, error, final)``: ``final`` marks a
    rung's answer, the others are its estimates on the way. An error (one
    line) ends the job.
    """
    _detach(name, niceness)

    def send(budget: float, solution: Solution | None, error: str = "", final: bool = True) -> None:
        try:
            writer.send_bytes(pickle.dumps((budget, solution, error, final)))
        except OSError:  # nobody listens any more: the job is over
            os._exit(0)

    carry = options.carry

    def keep(made: Solution) -> None:
        nonlocal carry
        carry = getattr(made, "carry", None) or carry

    for budget in budgets:

        def on_the_way(made: Solution, budget: float = budget) -> None:
            keep(made)
            send(budget, made, final=False)

        try:
            solution = solve(log, replace(options, budget=budget, progress=on_the_way, carry=carry))
        except Exception as exc:  # a memory stop, an internal error: one line, never a trace
            send(budget, None, _one_line(exc))
            return
        keep(solution)
        send(budget, solution)
        if exact(solution):
            return


def _extends(log: GameLog, before: GameLog) -> bool:
    """Whether ``log`` is ``before`` with events added at its end (and nothing else changed)."""
    done = len(before.events)
    return (
        log.header == before.header
        and len(log.events) >= done
        and list(log.events[:done]) == list(before.events)
    )


def _one_line(exc: Exception) -> str:
    """An error of the worker as one line."""
    text = " ".join(str(exc).split())
    if isinstance(exc, DeduceError):
        return text
    return f"internal error ({type(exc).__name__}{': ' + text if text else ''})"


def _detach(name: str, niceness: int = 0) -> None:
    """In a worker: take ``name`` and ``niceness``, leave Ctrl-C to the prompt, end with the parent.

    The niceness is added to the parent's (where the system has one), as
    the processes the worker starts inherit it.
    """
    with contextlib.suppress(OSError):  # Linux: the name ps and /proc show (15 bytes at most)
        Path("/proc/self/comm").write_text(name[:15])
    if niceness and hasattr(os, "nice"):  # not on Windows
        os.nice(niceness)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    follow_parent()
