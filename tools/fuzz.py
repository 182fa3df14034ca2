"""The long fuzz run: many mutated inputs for every file deduce reads, none may crash.

Uses the suite's harness (``tests/fuzz_inputs.py``): each input is a valid
file of one kind, mutated by a seeded generator, fed to that kind's reader.
It must be read, or refused with a one-line error naming the file and line.
Prints the count per kind and outcome, every crash with the seed that
reproduces it, and the wall time; exits with status 1 if anything crashed.

    python -m tools.fuzz --inputs 1000000 --workers 2
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tests.fuzz_inputs import READERS, mutate, outcome, seeds

KINDS = sorted(READERS)


def run(job: tuple[int, int]) -> tuple[Counter[tuple[str, str]], list[str]]:
    """Inputs ``start`` .. ``start + count - 1``: the outcomes and the crashes."""
    start, count = job
    pool = seeds()
    others = list(pool.values())
    counts: Counter[tuple[str, str]] = Counter()
    crashes = []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(start, start + count):
            kind = KINDS[number % len(KINDS)]
            data = mutate(pool[kind], random.Random(number), others)
            result, reason = outcome(kind, data, Path(folder))
            counts[kind, result] += 1
            if result == "crash":
                crashes.append(f"{kind}, input {number}: {reason}")
    return counts, crashes


def main() -> None:
    """Run the inputs over the workers and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--start", type=int, default=0, help="first input number (its seed)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    began = time.perf_counter()
    chunk = 10_000
    jobs = [
        (s, min(chunk, args.start + args.inputs - s))
        for s in range(args.start, args.start + args.inputs, chunk)
    ]
    total: Counter[tuple[str, str]] = Counter()
    crashes: list[str] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for counts, found in pool.map(run, jobs):
            total.update(counts)
            crashes.extend(found)
    print(f"{'kind':<20} {'read':>9} {'refused':>9} {'crashed':>9}")
    for kind in KINDS:
        print(
            f"{kind:<20} {total[kind, 'ok']:>9} {total[kind, 'error']:>9} {total[kind, 'crash']:>9}"
        )
    print(
        f"{sum(total.values())} inputs, {len(crashes)} crashes, {time.perf_counter() - began:.0f} s"
    )
    for crash in crashes[:50]:
        print(crash)
    sys.exit(1 if crashes else 0)


if __name__ == "__main__":
    main()
