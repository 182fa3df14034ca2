"""Time the Abbey solver after every event of the benchmark games.

For each position (every prefix of every case in ``benchmarks/cases``, or
every ``--every``-th) it times, each under ``--timeout`` seconds:

- ``closure``: the exact candidates and possible holders alone, by the
  search of :mod:`deduce.games.abbey.search`;
- ``full``: the whole ``deduce solve --budget B`` work: closure plus
  probabilities, exact when the exact count finishes within its share of
  the budget, otherwise estimated (a miss);
- ``exact count``: the exact count alone, with no budget;
- ``reference``: the python-constraint closure, the plain reference engine,
  so that the ratio holds on a noisy machine.

It prints, per player count, the median, 90th percentile and slowest time
("inf": past the timeout), the share of positions done within the timeout
and, for ``full``, the share whose probabilities came out exact; then the
peak resident memory.

    python benchmarks/run.py --timeout 10 --budget 1
"""

from __future__ import annotations

import argparse
import resource
import signal
import statistics
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from tabulate import tabulate

from deduce.games.abbey.count import count_histories
from deduce.games.abbey.csp import CspEngine
from deduce.games.abbey.model import build_model
from deduce.games.abbey.search import closure
from deduce.games.abbey.setup import setup_from_header
from deduce.games.abbey.solve import solve_abbey
from deduce.games.abbey.timeline import build_timeline
from deduce.logs.io import read_log
from deduce.logs.model import GameLog

CASES = Path(__file__).parent / "cases"


class _TimeUp(Exception):
    pass


def _alarm(_signum, _frame):
    raise _TimeUp


def timed(run, timeout: float) -> float:
    """Seconds ``run()`` took, or infinity past ``timeout``."""
    signal.setitimer(signal.ITIMER_REAL, timeout)
    start = time.perf_counter()
    try:
        run()
        return time.perf_counter() - start
    except _TimeUp:
        return float("inf")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def positions(log: GameLog, every: int = 1):
    """(prefix log, model) after every ``every``-th event of the log, and after the last."""
    setup = setup_from_header(log.header, log.path)
    for k in range(1, len(log.events) + 1):
        if k % every and k != len(log.events):
            continue
        events = log.events[:k]
        timeline = build_timeline(setup, events, log.path)
        yield replace(log, events=events), build_model(setup, timeline, events)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of the values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    """Run every case and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--budget", type=float, default=1.0, help="solve --budget, seconds")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    parser.add_argument("--games", type=int, default=None, help="at most this many per count")
    parser.add_argument("--every", type=int, default=1, help="time every k-th position")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    times: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    exact: dict[int, list[bool]] = defaultdict(list)
    for n in args.players:
        cases = sorted(CASES.glob(f"abbey-{n}p-*.jsonl"))[:args.games]
        for case in cases:
            for log, model in positions(read_log(case), args.every):
                solved = []
                times[n]["closure"].append(timed(lambda m=model: closure(m), args.timeout))
                times[n]["full"].append(timed(
                    lambda g=log, out=solved: out.append(solve_abbey(g, budget=args.budget)),
                    args.timeout))
                exact[n].append(bool(solved) and solved[0].exact)
                times[n]["exact count"].append(
                    timed(lambda m=model: count_histories(m), args.timeout))
                times[n]["reference"].append(
                    timed(lambda m=model: CspEngine(m).closure(), args.timeout))
    rows = []
    for n, by_kind in sorted(times.items()):
        for kind, values in by_kind.items():
            done = [v for v in values if v != float("inf")]
            share = (f"{100 * sum(exact[n]) / len(exact[n]):.1f}%" if kind == "full" else "")
            rows.append([n, kind, len(values), f"{statistics.median(values):.3f}",
                         f"{percentile(values, 0.9):.3f}", f"{max(values):.3f}",
                         f"{100 * len(done) / len(values):.1f}%", share])
    print(tabulate(rows, headers=["players", "what", "positions", "median s", "p90 s",
                                  "slowest s", f"done in {args.timeout:g} s",
                                  "probabilities exact"], tablefmt="github"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak resident memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
