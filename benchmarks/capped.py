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

from chances import simulated
from tabulate import tabulate

from deduce.games.abbey.solver.count.estimate import estimate_histories
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import build_timeline
from deduce.logs.vocabulary.abbey import setup_from_header

METHODS = (("cards",), ("forward",), ("cards", "forward"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", nargs="+", required=True,
                        help="PLAYERS:GAME:EVENTS (GAME counts from 0)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    rows = []
    bounds: dict[str, list[float]] = {"+".join(m): [] for m in METHODS}
    with tempfile.TemporaryDirectory() as tmp:
        logs = {}
        for spec in args.positions:
            players, game, k = (int(x) for x in spec.split(":"))
            if players not in logs:
                logs[players] = simulated(players, args.games, args.seed, Path(tmp))
            log = logs[players][game]
            setup = setup_from_header(log.header, log.path)
            events = log.events[:k]
            timeline = build_timeline(setup, events, log.path)
            model = build_model(setup, timeline, events)
            assert propagate(model)
            supports = sat_model(setup, timeline, events).supports()
            tallies = [t for t in model.tallies if not t.redundant]
            row: list[object] = [spec]
            for methods in METHODS:
                start = time.perf_counter()
                found = estimate_histories(model.domains, tallies, len(timeline.holders),
                                           start + args.seconds, seed=k, timeline=timeline,
                                           supports=supports, methods=methods)
                bound = 1.0 if found is None else found.culprit_error
                bounds["+".join(methods)].append(bound)
                row.append("-" if found is None else f"{bound:.3f} (cap {found.cap})")
            rows.append(row)
            print(*row, sep="  ", flush=True)
    rows.append(["median", *(f"{statistics.median(b):.3f}" for b in bounds.values())])
    print(tabulate(rows, headers=["position", *bounds], tablefmt="github"))


if __name__ == "__main__":
    main()
