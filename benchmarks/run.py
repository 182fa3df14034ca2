"""Time the Abbey solver after every event of the benchmark games.

For each position (every prefix of every case in ``benchmarks/cases``) it
times, each under ``--timeout`` seconds:

- ``closure``: the candidates and possible holders from the exact count;
- ``full``: closure plus exact probabilities (the whole ``deduce solve``
  work; today both come from the same count);
- ``reference``: the python-constraint closure, the plain reference engine,
  so that the ratio holds on a noisy machine.

A position that does not finish within the timeout is a miss. It prints, per
player count, the median, 90th percentile and slowest time, the share of
positions solved exactly within the timeout, and the peak resident memory.

    python benchmarks/run.py --timeout 10
"""

from __future__ import annotations

import argparse
import resource
import signal
import statistics
import time
from collections import defaultdict
from pathlib import Path

from tabulate import tabulate

from deduce.games.abbey.count import count_histories
from deduce.games.abbey.csp import CspEngine
from deduce.games.abbey.model import build_model
from deduce.games.abbey.setup import setup_from_header
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


def positions(log: GameLog):
    """(setup, timeline, model) after each event of the log."""
    setup = setup_from_header(log.header, log.path)
    for k in range(1, len(log.events) + 1):
        events = log.events[:k]
        timeline = build_timeline(setup, events, log.path)
        yield build_model(setup, timeline, events)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of the values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    """Run every case and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    parser.add_argument("--games", type=int, default=None, help="at most this many per count")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    times: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for n in args.players:
        cases = sorted(CASES.glob(f"abbey-{n}p-*.jsonl"))[:args.games]
        for case in cases:
            for model in positions(read_log(case)):
                full = timed(lambda m=model: count_histories(m), args.timeout)
                times[n]["full"].append(full)
                times[n]["reference"].append(
                    timed(lambda m=model: CspEngine(m).closure(), args.timeout))
    rows = []
    for n, by_kind in sorted(times.items()):
        for kind, values in by_kind.items():
            done = [v for v in values if v != float("inf")]
            rows.append([n, kind, len(values), f"{statistics.median(values):.3f}",
                         f"{percentile(values, 0.9):.3f}", f"{max(values):.3f}",
                         f"{100 * len(done) / len(values):.1f}%"])
    print(tabulate(rows, headers=["players", "what", "positions", "median s", "p90 s",
                                  "slowest s", f"done in {args.timeout:g} s"]))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak resident memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
