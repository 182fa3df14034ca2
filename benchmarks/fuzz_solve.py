"""The default solve against the brute-force enumerator on many random small logs.

The same logs as the suite's differential fuzz (``tests/abbey_fuzz.py``:
9- and 10-card decks, 2 or 3 players, spectators with several masses and
thefts, one log in four corrupted), many more of them, in worker
processes. A log the default budget does not solve exactly is a failure.
The generator and the brute force live with the tests, so they go on the
path from the command line:

    PYTHONPATH=tests python benchmarks/fuzz_solve.py --logs 10000 --workers 2
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from abbey_fuzz import disagreement, fuzz_log, solve_both

from deduce.cli.options import DEFAULT_BUDGET


def check(seed: int) -> tuple[int, str | None, float]:
    """(seed, what went wrong or None when skipped or fine-as-"", the solve's seconds)."""
    found = fuzz_log(seed)
    if found is None:
        return seed, None, 0.0
    start = time.perf_counter()
    solution, brute = solve_both(*found, DEFAULT_BUDGET)
    return seed, disagreement(solution, brute), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=10_000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    checked, failures, slowest = 0, [], 0.0
    with ProcessPoolExecutor(args.workers) as pool:
        seeds = range(args.first, args.first + args.logs)
        for seed, wrong, seconds in pool.map(check, seeds, chunksize=50):
            if wrong is None:
                continue
            checked += 1
            slowest = max(slowest, seconds)
            if wrong:
                failures.append((seed, wrong))
    print(
        f"{checked} logs checked of {args.logs} drawn (the rest broke the public sizes); "
        f"{len(failures)} failures; slowest solve {slowest:.2f} s; "
        f"{time.perf_counter() - start:.0f} s with {args.workers} workers"
    )
    for seed, wrong in failures[:20]:
        print(f"  log {seed}: {wrong}")


if __name__ == "__main__":
    main()
