"""deduce's exact count against Ganak, an exact projected model counter, on the same positions.

The histories of a position are the models of its CNF (the SAT model of
``deduce/games/abbey/solver/sat/cnf.py``, with cardinality constraints as sequential
counters and every event's selector true) projected on the holder
literals, so Ganak's projected count must equal deduce's total. For each
position (every ``--every``-th prefix of the checked-in cases) it times
both, each in a child process killed at ``--timeout`` seconds, checks that
they agree where both finish, and prints per player count how many
positions each finished and their median and slowest times.

Ganak is not a dependency of deduce: ``pip install pyganak`` first.

    python benchmarks/counters.py --every 8 --timeout 30 --players 3 4
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tabulate import tabulate

from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.sat.cnf import SatModel
from deduce.games.abbey.solver.timeline import AbbeyPosition, build_timeline
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import read_log

CASES = Path(__file__).resolve().parent.parent / "tests" / "data" / "cases"


class _Clauses:
    """Stands in for the solver of a :class:`SatModel` and keeps the clauses it is given."""

    def __init__(self) -> None:
        self.clauses: list[list[int]] = []

    def add_clause(self, clause: Iterable[int]) -> None:
        self.clauses.append(list(clause))

    def append_formula(self, clauses: Iterable[Iterable[int]]) -> None:
        self.clauses.extend(list(c) for c in clauses)


def projected_cnf(path: str, seen: int) -> tuple[SatModel, list[list[int]], list[int]]:
    """The SAT model of the log's first ``seen`` events, its clauses and its holder literals.

    The clauses include every event's selector as a unit, so their models
    projected on the holder literals are the histories.
    """
    log = read_log(path)
    setup = setup_from_header(log.header, log.path)
    events = log.events[:seen]
    model = SatModel(setup, solver="minisat22", encoding="seqcounter")
    model.solver = _Clauses()  # type: ignore[assignment]
    model.extend(build_timeline(setup, events, log.path), events)
    clauses = model.solver.clauses + [[s] for s in model.selectors.values()]
    return model, clauses, sorted({lit for table in model.lits for row in table for lit in row})


def ganak_count(path: str, seen: int) -> int:
    """Ganak's projected count of the histories of the log's first ``seen`` events."""
    import pyganak

    model, clauses, holders = projected_cnf(path, seen)
    counter = pyganak.Counter()
    counter.new_vars(model.top)
    counter.add_clauses(clauses)
    counter.set_sampling_set(holders)
    return counter.count()


def deduce_count(path: str, seen: int) -> int:
    """deduce's exact count of the histories of the log's first ``seen`` events."""
    log = read_log(path)
    setup = setup_from_header(log.header, log.path)
    events = log.events[:seen]
    counts = count_histories(build_model(AbbeyPosition.of(setup, events, log.path)))
    assert counts is not None
    return counts.total


def _child(run: Callable[[str, int], Any], path: str, seen: int, out: Any) -> None:
    out.put(run(path, seen))


def timed(
    run: Callable[[str, int], Any], path: str, seen: int, timeout: float
) -> tuple[float, Any]:
    """Seconds ``run(path, seen)`` took in a child process and its result, or (inf, None)."""
    out: Any = multiprocessing.Queue()
    child = multiprocessing.Process(target=_child, args=(run, path, seen, out))
    start = time.perf_counter()
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.kill()
        child.join()
        return float("inf"), None
    return time.perf_counter() - start, out.get()


def main() -> None:
    """Time both counters on the cases and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    args = parser.parse_args()
    times: defaultdict[tuple[int, str], list[float]] = defaultdict(list)
    for path in sorted(CASES.glob("abbey-*.jsonl")):
        log = read_log(str(path))
        players = len(log.header.players)
        if players not in args.players:
            continue
        for seen in range(args.every, len(log.events) + 1, args.every):
            found = {}
            for name, run in (("deduce", deduce_count), ("ganak", ganak_count)):
                seconds, found[name] = timed(run, str(path), seen, args.timeout)
                times[players, name].append(seconds)
            if None not in found.values() and found["deduce"] != found["ganak"]:
                raise SystemExit(
                    f"{path.name} after {seen} events: deduce counts "
                    f"{found['deduce']}, Ganak {found['ganak']}"
                )
    rows = []
    for (players, name), values in sorted(times.items()):
        done = [v for v in values if v != float("inf")]
        rows.append(
            [
                players,
                name,
                len(values),
                f"{100 * len(done) / len(values):.0f}%",
                f"{statistics.median(values):.2f}",
                f"{max(values):.2f}",
            ]
        )
    print(
        f"every {args.every}th position of the cases, {args.timeout:.0f} s timeout "
        "(inf: past it); both agree wherever both finished\n"
    )
    print(
        tabulate(
            rows,
            [
                "players",
                "counter",
                "positions",
                f"done in {args.timeout:.0f} s",
                "median s",
                "slowest s",
            ],
            tablefmt="github",
        )
    )


if __name__ == "__main__":
    main()
