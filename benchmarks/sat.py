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

With ``--logs DIR`` (the logs ``winrate.py --logs`` keeps), it times the
default solver's closure and supports (those of the exact count) on each
player's log cut at a half, three quarters and the whole, first without
the backup solver and then with each ``--budgets`` of conflicts before the
backup settles a query; all must agree.

    python benchmarks/sat.py --logs logs-6p --budgets 1000,2000
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

from tabulate import tabulate
from winrate import kept_logs

from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import AbbeyPosition, build_timeline
from deduce.logs.formats.abbey import AbbeySetup, setup_from_header
from deduce.logs.io import read_log
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import Event

CASES = Path(__file__).resolve().parent.parent / "tests" / "data" / "cases"
PAIRS = [
    ("minicard", "native"),
    ("gluecard4", "native"),
    ("minisat22", "seqcounter"),
    ("glucose4", "seqcounter"),
    ("minisat22", "totalizer"),
    ("minisat22", "cardnetwrk"),
    ("minisat22", "kmtotalizer"),
]


def main() -> None:
    """Time every pair on every position and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="time every k-th position")
    parser.add_argument("--logs", type=Path, help="time the backup solver on these games' logs")
    parser.add_argument(
        "--budgets",
        default="1000,2000",
        help="conflicts before the backup, comma-separated (with --logs)",
    )
    args = parser.parse_args()
    if args.logs:
        backup_table(args.logs, [int(b) for b in args.budgets.split(",")])
        return
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
                closure = sat_model(
                    AbbeyPosition(setup, tuple(events), timeline), solver, encoding
                ).closure()
                times[solver, encoding, len(setup.players)].append(time.perf_counter() - start)
                found.add(None if closure is None else tuple(map(frozenset, closure)))
            assert len(found) == 1, f"{case.name} after {k} events: the closures differ"
    rows = [
        [
            n,
            solver,
            encoding,
            len(v),
            *(
                f"{1000 * x:.1f}"
                for x in (statistics.median(v), sorted(v)[int(0.9 * len(v))], max(v))
            ),
        ]
        for (solver, encoding, n), v in sorted(times.items(), key=lambda kv: kv[0][2])
    ]
    print(
        tabulate(
            rows,
            headers=[
                "players",
                "solver",
                "encoding",
                "positions",
                "median ms",
                "p90 ms",
                "slowest ms",
            ],
            tablefmt="github",
        )
    )


def cuts(logs: Path) -> list[tuple[str, AbbeySetup, list[Event]]]:
    """Each kept log of ``logs`` cut at a half, three quarters and the whole."""
    found = []
    for path, player, text in kept_logs(logs):
        players = json.loads(text.splitlines()[0])["players"]
        log = parse_jsonl(text, f"{path.name}:{player}", AbbeyGame.create(len(players)).deck)
        setup = setup_from_header(log.header, log.path)
        n = len(log.events)
        found += [
            (f"{path.name}:{player}:{k}", setup, list(log.events[:k]))
            for k in (n // 2, 3 * n // 4, n)
        ]
    return found


def backup_table(logs: Path, budgets: list[int]) -> None:
    """Time closure and supports with no backup and with each budget; print the table."""
    times: dict[str, list[float]] = defaultdict(list)
    names = {None: "no backup", **{b: f"backup after {b} conflicts" for b in budgets}}
    for where, setup, events in cuts(logs):
        timeline = build_timeline(setup, events, where)
        found = set()
        for budget, name in names.items():
            start = time.perf_counter()
            sat = sat_model(AbbeyPosition(setup, tuple(events), timeline), budget=budget)
            closure, supports = sat.closure(), sat.supports()
            times[name].append(time.perf_counter() - start)
            found.add(repr((closure, supports)))
        assert len(found) == 1, f"{where}: the answers differ"
    rows = [
        [
            name,
            len(v),
            *(
                f"{x:.2f}"
                for x in (statistics.median(v), sorted(v)[int(0.9 * len(v))], max(v), sum(v))
            ),
        ]
        for name, v in times.items()
    ]
    print(
        tabulate(
            rows,
            headers=["solver", "positions", "median s", "p90 s", "slowest s", "total s"],
            tablefmt="github",
        )
    )


if __name__ == "__main__":
    main()
