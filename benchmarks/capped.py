"""The capped counts side by side: card by card, the forward filter, and both in turns.

On positions of whole simulated games (the engine's notepad bots, seed
``--seed``, each game seen by its first player), each method set of
:func:`~deduce.games.abbey.solver.count.estimate.estimate_histories` gets
the same ``--seconds`` after the SAT supports are known, one after the
other, so that they share the machine's load. For each it prints the cap
of the round that answered and the bound on the culprit's chances ("-":
no round finished, where ``solve`` falls back on its Markov chains).

    python benchmarks/capped.py --positions 5:0:80 5:0:160 5:1:80 6:0:80 6:0:160 \
        6:0:240 6:1:80 6:1:160 --seconds 20
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from chances import at_positions, position, position_arguments
from tabulate import tabulate

from deduce.games.abbey.solver.count.estimate import estimate_histories
from deduce.games.abbey.solver.count.turns import drive

METHODS = (("cards",), ("forward",), ("cards", "forward"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    position_arguments(parser)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    rows = []
    bounds: dict[str, list[float]] = {"+".join(m): [] for m in METHODS}
    with tempfile.TemporaryDirectory() as tmp:
        for spec, log, k in at_positions(args.positions, args.games, args.seed, Path(tmp)):
            at = position(log, k)
            row: list[object] = [spec]
            for methods in METHODS:
                start = time.perf_counter()
                found = drive(
                    estimate_histories(
                        at.model.domains,
                        at.tallies,
                        len(at.timeline.holders),
                        start + args.seconds,
                        seed=k,
                        timeline=at.timeline,
                        supports=at.supports,
                        methods=methods,
                    )
                )
                bound = 1.0 if found is None else found.culprit_error
                bounds["+".join(methods)].append(bound)
                row.append("-" if found is None else f"{bound:.3f} (cap {found.cap})")
            rows.append(row)
            print(*row, sep="  ", flush=True)
    rows.append(["median", *(f"{statistics.median(b):.3f}" for b in bounds.values())])
    print(tabulate(rows, headers=["position", *bounds], tablefmt="github"))


if __name__ == "__main__":
    main()
