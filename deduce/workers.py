"""Where work runs: processes of this machine, or the workers of a Dask cluster.

A :class:`Workers` value says where; :meth:`Workers.map` runs a module-level
function on every job there and yields the results in job order, whichever
finished first. Locally the jobs go to a process pool, each process taking
its share of the memory limit (:func:`deduce.memory.share`). With
``cluster``, the address of a running Dask scheduler (the ``cluster``
extra: ``pip install 'deduce[cluster]'``), the cluster's workers run them:
when a worker dies, the scheduler runs its jobs again on other workers, up
to its ``allowed-failures``, and then gives up on them (``KilledWorker``).
A job that raised or whose process died gives its caller's replacement
result, or stops the run (see :meth:`Workers.map`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from deduce import memory
from deduce.errors import DeduceError
from deduce.processes import cores

if TYPE_CHECKING:
    from distributed import Client

R = TypeVar("R")

#: One job: the arguments of one call of the mapped function.
Job = tuple[Any, ...]

#: Seconds to reach a cluster's scheduler, and then to find a worker there.
CONNECT_SECONDS = 5.0

#: Seconds between looks at a cluster while a result is awaited, and how long a cluster
#: may stay without any worker (its workers lost, none restarted) before the run stops.
POLL_SECONDS, LOST_SECONDS = 10.0, 60.0


class WorkersLost(DeduceError):
    """A cluster has had no worker for ``LOST_SECONDS``: nothing can run, the run stops."""


#: How to install what ``cluster`` needs.
EXTRA = "pip install 'deduce[cluster]'"


@dataclass(frozen=True)
class Workers:
    """Where work runs: ``count`` local processes (0: every core), or the cluster at ``cluster``.

    ``cluster`` is the address of a Dask scheduler (``tcp://HOST:8786``);
    None keeps the work on this machine.
    """

    count: int = 1
    cluster: str | None = None

    @classmethod
    def of(cls, where: Workers | int) -> Workers:
        """``where`` itself, or a number of local processes as a :class:`Workers`."""
        return where if isinstance(where, Workers) else cls(where)

    def map(
        self,
        function: Callable[..., R],
        jobs: Sequence[Job],
        failed: Callable[[Job, Exception], R],
        most: int = 1,
    ) -> Iterator[R]:
        """``function(*job)`` for every job, in the order of ``jobs``.

        ``function`` must be a module-level function, so that other
        processes can find it. A job that raised, or whose process died,
        gives ``failed(job, error)`` instead (which may raise, to stop).
        The jobs are sent out together, ``most`` at a time at most: fewer
        when they are few (a quarter of each process's share at most), so
        that short jobs cost fewer round trips and long ones still spread.
        Without a cluster, one process (or a single job) runs the jobs in
        this process, where an error of ``function`` propagates as it is.
        """
        if self.cluster is not None:
            with _connect(self.cluster) as client:  # closing it forgets the jobs not done
                slots = sum(client.nthreads().values())
                yield from _spread(
                    partial(client.submit, pure=False),
                    slots,
                    function,
                    jobs,
                    failed,
                    most,
                    partial(_await, client, self.cluster),
                )
            return
        processes = min(self.count or cores(), len(jobs))
        if processes <= 1:
            yield from (function(*job) for job in jobs)
            return
        pool = ProcessPoolExecutor(processes, initializer=memory.share, initargs=(processes,))
        try:
            yield from _spread(pool.submit, processes, function, jobs, failed, most, _result)
        finally:  # stopped early: drop the jobs not started yet
            pool.shutdown(cancel_futures=True)


def died(error: BaseException) -> bool:
    """Whether ``error`` says that the process running a job died, here or on a cluster.

    (A broken local pool, or Dask's ``KilledWorker`` once the scheduler gave up.)
    """
    return isinstance(error, BrokenExecutor) or type(error).__name__ == "KilledWorker"


def _spread(
    submit: Callable[..., Any],
    slots: int,
    function: Callable[..., R],
    jobs: Sequence[Job],
    failed: Callable[[Job, Exception], R],
    most: int,
    wait: Callable[[Any], list[R]],
) -> Iterator[R]:
    """Submit ``jobs`` in parts to ``slots`` processes, then yield their results in order.

    ``wait(future)`` awaits one part's results.
    """
    size = max(1, min(most, len(jobs) // (4 * max(1, slots))))
    parts = [jobs[start : start + size] for start in range(0, len(jobs), size)]
    futures = [_submit(submit, function, part) for part in parts]
    for part, future in zip(parts, futures):
        yield from _results(part, future, failed, wait)


def _submit(submit: Callable[..., Any], function: Callable[..., Any], part: Sequence[Job]) -> Any:
    """The future of ``part``; one that failed already if the pool broke meanwhile.

    (A local process that dies while jobs are still being handed out breaks
    the pool, and handing out the next one then raises.)
    """
    try:
        return submit(_run_part, function, part)
    except BrokenExecutor as error:
        broken: Future[Any] = Future()
        broken.set_exception(error)
        return broken


def _run_part(function: Callable[..., R], part: Sequence[Job]) -> list[R]:
    """``function(*job)`` for every job of ``part``, in order (what one process runs)."""
    return [function(*job) for job in part]


def _results(
    part: Sequence[Job],
    future: Any,
    failed: Callable[[Job, Exception], R],
    wait: Callable[[Any], list[R]],
) -> list[R]:
    """The results of ``part``, or each job's ``failed`` result if running the part failed."""
    try:
        return wait(future)
    except WorkersLost:  # no worker left to run anything: the run stops
        raise
    except Exception as error:  # it raised, its process died, or its result could not come back
        return [failed(job, error) for job in part]


def _result(future: Future[Any]) -> Any:
    """The result of a local process's ``future``."""
    return future.result()


def _await(client: Client, address: str, future: Any) -> Any:
    """The result of a cluster's ``future``; a one-line error once the cluster has no worker.

    (A scheduler keeps the jobs of a cluster that lost every worker until one
    joins: the run would wait for ever.)
    """
    while True:
        try:
            return future.result(timeout=POLL_SECONDS)
        except TimeoutError:
            if future.done():  # it ended meanwhile, or the job itself raised it: its outcome
                return future.result()
            try:
                client.wait_for_workers(1, timeout=LOST_SECONDS)
            except TimeoutError:
                raise WorkersLost(
                    f"the Dask cluster at {address} has had no worker for "
                    f"{LOST_SECONDS:g} s: its workers were lost"
                ) from None


@contextmanager
def _connect(address: str) -> Iterator[Client]:
    """A client of the Dask scheduler at ``address`` that has a worker, closed on exit."""
    import asyncio

    try:
        from distributed import Client, Security
        from distributed.comm import connect
    except ImportError:
        raise DeduceError(f"a cluster needs the cluster extra: {EXTRA}") from None
    try:  # first a bare connection: a client that cannot connect hangs on its way out
        asyncio.run(_reach(connect, address, Security().get_connection_args("client")))
    except (OSError, ValueError, TypeError) as error:
        raise DeduceError(
            f"cannot reach the Dask scheduler at {address}: {' '.join(str(error).split())}"
        ) from None
    with Client(address, timeout=CONNECT_SECONDS, set_as_default=False) as client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except TimeoutError:
            raise DeduceError(
                f"the Dask scheduler at {address} has no worker "
                f"(none joined within {CONNECT_SECONDS:g} s)"
            ) from None
        yield client


async def _reach(connect: Callable[..., Any], address: str, arguments: dict[str, Any]) -> None:
    """Open and drop a connection to ``address`` (raises ``OSError`` if it cannot be reached)."""
    comm = await connect(address, timeout=CONNECT_SECONDS, **arguments)
    comm.abort()
