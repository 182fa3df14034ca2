"""Compare python-sat's solvers and cardinality encodings on the Abbey closure.

For every position of the checked-in cases (``tests/data/cases``), each
(solver, encoding) pair builds the position's SAT model from scratch and
computes the closure (every card's possible holders); the table gives the
median, 90th percentile and slowest time per player count. ``native`` is the
solver's own cardinality constraint (minicard, gluecard); the others are
:mod:`pysat.card` encodings into clauses. Every pair must find the same
closure, which the script checks. The fastest pair is the default of
:mod:`deduce.games.abbey.solver.sat.cnf`.

    python benchmarks/sat.py
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from pathlib import Path

from tabulate import tabulate

from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import build_timeline
from deduce.logs.io import read_log
from deduce.logs.vocabulary.abbey import setup_from_header

CASES = Path(__file__).resolve().parent.parent / "tests" / "data" / "cases"
PAIRS = [("minicard", "native"), ("gluecard4", "native"), ("minisat22", "seqcounter"),
         ("glucose4", "seqcounter"), ("minisat22", "totalizer"), ("minisat22", "cardnetwrk"),
         ("minisat22", "kmtotalizer")]


def main() -> None:
    """Time every pair on every position and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="time every k-th position")
    args = parser.parse_args()
    times: dict[tuple[str, str, int], list[float]] = defaultdict(list)
    for case in sorted(CASES.glob("abbey-*.jsonl")):
        log = read_log(case)
        setup = setup_from_header(log.header, log.path)
        for k in range(0, len(log.events) + 1, args.every):
            events = log.events[:k]
            timeline = build_timeline(setup, events, log.path)
            found = set()
            for solver, encoding in PAIRS:
                start = time.perf_counter()
                closure = sat_model(setup, timeline, events, solver, encoding).closure()
                times[solver, encoding, len(setup.players)].append(time.perf_counter() - start)
                found.add(None if closure is None else tuple(map(frozenset, closure)))
            assert len(found) == 1, f"{case.name} after {k} events: the closures differ"
    rows = [[n, solver, encoding, len(v), *(f"{1000 * x:.1f}" for x in (
                statistics.median(v), sorted(v)[int(0.9 * len(v))], max(v)))]
            for (solver, encoding, n), v in sorted(times.items(), key=lambda kv: kv[0][2])]
    print(tabulate(rows, headers=["players", "solver", "encoding", "positions", "median ms",
                                  "p90 ms", "slowest ms"], tablefmt="github"))


if __name__ == "__main__":
    main()
