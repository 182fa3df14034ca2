"""Dask against Ray for ``--cluster``: start-up, first result, throughput; local processes too.

For each worker count N of ``--workers``, starts a cluster of N one-thread
workers on this machine with each engine's own commands (``dask scheduler``
and ``dask worker --nworkers N --nthreads 1``; ``ray start --head
--num-cpus N``), then times:

- **start-up**: from those commands until the first trivial task came back;
- **first result**: what every command pays, connecting a new client to the
  running cluster and getting one game back (then disconnecting);
- **throughput**: ``--games`` games of each workload (``check rose``: play
  and solve; ``simulate abbey``: play and write nothing), in games per
  second, the best of ``--repeat`` runs, connection included.

Dask runs through deduce's own ``Workers(cluster=...)``; Ray through the
smallest equivalent (remote calls of the same parts of games, gathered in
order). The local process pool (``--workers N``) and one process are the
references. The engines take turns, round after round, so that the
machine's other load falls on all of them alike; each figure is the best of
the rounds, and the last column is the load average when they ended. Every
run's results are checked against one process's. Also printed: each
engine's import time and installed size (with its dependencies).

    python benchmarks/cluster.py --games 300 --workers 1 2 --repeat 2
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError, distribution
from typing import Any

from packaging.requirements import Requirement
from tabulate import tabulate

from deduce.games.rose.check import check_game
from deduce.registry import GAMES
from deduce.workers import Workers

#: The most games sent to a worker at once, as ``run_games`` sends them.
MOST = 16


@dataclass(frozen=True)
class Workload:
    """Games to map: the per-game task, its jobs, and what of a result must not vary."""

    name: str
    task: Callable[..., Any]
    jobs: list[tuple[Any, ...]]
    key: Callable[[Any], Any]


def workloads(games: int, seed: int) -> list[Workload]:
    """``check rose`` (4 monks) and ``simulate abbey`` (4 notepads), ``games`` games each."""
    rose = GAMES["rose"].simulator.create(4, {})
    abbey = GAMES["abbey"].simulator
    return [
        Workload(
            "check rose",
            check_game,
            [(rose, i, seed, ("monk",) * 4, None) for i in range(1, games + 1)],
            lambda result: replace(result, seconds=0.0),
        ),
        Workload(
            "simulate abbey",
            abbey.record,
            [(abbey.create(4, {}), i, seed, ("notepad",) * 4) for i in range(1, games + 1)],
            lambda result: result,
        ),
    ]


def raise_error(job: tuple[Any, ...], error: Exception) -> Any:
    raise error


def run_part(task: Callable[..., Any], part: Sequence[tuple[Any, ...]]) -> list[Any]:
    return [task(*job) for job in part]


def parts(jobs: Sequence[tuple[Any, ...]], slots: int) -> list[Sequence[tuple[Any, ...]]]:
    """The jobs in parts, sized as ``Workers.map`` sizes them."""
    size = max(1, min(MOST, len(jobs) // (4 * slots)))
    return [jobs[start : start + size] for start in range(0, len(jobs), size)]


def dask_map(address: str, task: Callable[..., Any], jobs: list[tuple[Any, ...]]) -> list[Any]:
    return list(Workers(cluster=address).map(task, jobs, raise_error, MOST))


def ray_map(address: str, task: Callable[..., Any], jobs: list[tuple[Any, ...]]) -> list[Any]:
    import ray

    ray.init(address=address, logging_level="ERROR", log_to_driver=False)
    try:
        remote = ray.remote(run_part)
        slots = int(ray.cluster_resources().get("CPU", 1))
        refs = [remote.remote(task, part) for part in parts(jobs, slots)]
        return [result for ref in refs for result in ray.get(ref)]
    finally:
        ray.shutdown()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def dask_cluster(workers: int) -> Iterator[str]:
    """A Dask scheduler and ``workers`` one-thread workers on this machine; its address."""
    address = f"tcp://127.0.0.1:{free_port()}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [
            "dask",
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            address.rsplit(":", 1)[1],
            "--no-dashboard",
        ],
        **quiet,
    )
    worker = subprocess.Popen(
        [
            "dask",
            "worker",
            address,
            "--nworkers",
            str(workers),
            "--nthreads",
            "1",
            "--no-dashboard",
        ],
        **quiet,
    )
    try:
        yield address
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(30)


@contextmanager
def ray_cluster(workers: int) -> Iterator[str]:
    """A Ray head node of ``workers`` CPUs on this machine; its address."""
    address = f"127.0.0.1:{free_port()}"
    subprocess.run(
        [
            "ray",
            "start",
            "--head",
            "--num-cpus",
            str(workers),
            "--port",
            address.rsplit(":", 1)[1],
            "--node-ip-address",
            "127.0.0.1",
            "--include-dashboard=false",
            "--disable-usage-stats",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield address
    finally:
        subprocess.run(["ray", "stop"], check=True, capture_output=True)


def pid() -> int:
    return os.getpid()


def dask_ready(address: str, workers: int) -> None:
    """Wait until the Dask scheduler at ``address`` has ``workers`` workers and ran a task."""
    from distributed import Client

    with Client(address, timeout=60, set_as_default=False) as client:
        client.wait_for_workers(workers, timeout=60)
        client.submit(pid, pure=False).result()


def ray_ready(address: str, workers: int) -> None:
    """Wait until the Ray cluster at ``address`` ran a task on each of its ``workers`` CPUs."""
    import ray

    ray.init(address=address, logging_level="ERROR", log_to_driver=False)
    try:
        ray.get([ray.remote(pid).remote() for _ in range(workers)])
    finally:
        ray.shutdown()


def timed(
    mapper: Callable[..., list[Any]],
    address: str,
    task: Callable[..., Any],
    jobs: list[tuple[Any, ...]],
    expected: list[Any] | None = None,
    key: Callable[[Any], Any] = lambda result: result,
) -> float:
    """Seconds to map ``task`` over ``jobs``; the results checked against ``expected``."""
    start = time.perf_counter()
    results = mapper(address, task, jobs)
    seconds = time.perf_counter() - start
    assert expected is None or [key(r) for r in results] == expected, "results differ"
    return seconds


#: Each engine: its cluster on this machine, how to wait for it, how to map games over it.
ENGINES: dict[
    str, tuple[Callable[[int], Any], Callable[[str, int], None], Callable[..., list[Any]]]
] = {
    "dask": (dask_cluster, dask_ready, dask_map),
    "ray": (ray_cluster, ray_ready, ray_map),
}


def local_map(workers: int) -> Callable[..., list[Any]]:
    """Map games over ``workers`` local processes (one: in this process), as deduce does."""
    return lambda _address, task, jobs: list(Workers(workers).map(task, jobs, raise_error, MOST))


def block(
    workers: int,
    engines: Sequence[str],
    loads: list[Workload],
    repeat: int,
    expected: dict[str, list[Any]],
) -> list[list[Any]]:
    """The rows of ``workers`` workers: every engine's cluster up, then runs taken in turns.

    Each round runs every engine once (the local processes too), so that a
    change in the machine's other load falls on all of them alike; each
    figure is the best of the ``repeat`` rounds.
    """
    local = "one process" if workers == 1 else "local pool"
    mappers: dict[str, tuple[str, Callable[..., list[Any]]]] = {local: ("", local_map(workers))}
    startup = {local: ""}
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    with ExitStack() as stack:
        for engine in engines:
            cluster, ready, mapper = ENGINES[engine]
            start = time.perf_counter()
            address = stack.enter_context(cluster(workers))
            ready(address, workers)
            startup[engine] = f"{time.perf_counter() - start:.2f}"
            mappers[engine] = (address, mapper)
        for _ in range(repeat):
            for name, (address, mapper) in mappers.items():
                times[name, ""].append(timed(mapper, address, loads[0].task, loads[0].jobs[:1]))
                for load in loads:
                    times[name, load.name].append(
                        timed(
                            mapper,
                            address,
                            load.task,
                            load.jobs,
                            expected=expected[load.name],
                            key=load.key,
                        )
                    )
    load_average = f"{os.getloadavg()[0]:.1f}"
    return [
        [
            name,
            workers,
            load.name,
            startup[name],
            f"{min(times[name, '']):.2f}",
            f"{min(times[name, load.name]):.2f}",
            f"{len(load.jobs) / min(times[name, load.name]):.1f}",
            load_average,
        ]
        for name in mappers
        for load in loads
    ]


def installed_mb(name: str, seen: set[str] | None = None) -> float:
    """Megabytes of the distribution ``name`` and of what it requires (each counted once)."""
    seen = set() if seen is None else seen
    key = name.lower().replace("_", "-")
    if key in seen:
        return 0.0
    seen.add(key)
    try:
        found = distribution(name)
    except PackageNotFoundError:
        return 0.0
    total = sum(f.size or 0 for f in found.files or ()) / 2**20
    for text in found.requires or ():
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            total += installed_mb(requirement.name, seen)
    return total


def import_seconds(module: str) -> float:
    """Seconds for a new interpreter to import ``module`` (best of three)."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    return min(
        float(
            subprocess.run(
                [sys.executable, "-c", code], check=True, capture_output=True, text=True
            ).stdout
        )
        for _ in range(3)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=list(ENGINES))
    args = parser.parse_args()
    loads = workloads(args.games, args.seed)
    expected = {load.name: [load.key(load.task(*job)) for job in load.jobs] for load in loads}
    print(
        tabulate(
            [
                [engine, f"{import_seconds(module):.2f}", f"{installed_mb(package):.0f}"]
                for engine, module, package in (
                    ("dask", "distributed", "distributed"),
                    ("ray", "ray", "ray"),
                )
                if engine in args.engines
            ],
            headers=["engine", "import s", "installed MB (with dependencies)"],
        )
    )
    print(flush=True)
    table = []
    for workers in args.workers:
        table += block(workers, args.engines, loads, args.repeat, expected)
        print(f"{workers} workers: done", file=sys.stderr, flush=True)
    print(
        tabulate(
            table,
            headers=[
                "engine",
                "workers",
                "workload",
                "start-up s",
                "first result s",
                "seconds",
                "games/s",
                "load average",
            ],
        )
    )


if __name__ == "__main__":
    main()
