"""The chains' bound against the exact chances: coverage per player count, at several budgets.

For each player count of ``--players``, ``--games`` simulated games (the
engine's notepad bots, seed ``--seed``, each seen by its first player), at
every ``--every``-th position: the exact count (``count_histories``, within
``--truth-timeout`` seconds) gives the truth, and positions without it, or
with one candidate, are left out. Each kept position runs the block Gibbs
chains alone (``plan_chains``, then the chains one batch each in turn, on
one core), and reads their estimate at each of ``--budgets`` seconds (from
the start of the plan): whether one was due, its culprit bound, and for
each candidate whether the estimate lies within the bound of the exact
chance. ``--workers`` positions run at once, each in a process of its own.

Each position is one JSON line of ``--out`` (appended as it is measured);
``--report FILE`` prints the tables of a results file instead, by player
count and by the half of its game a position is in (readings that kept
their half-widths are judged by today's rule, the slack included):

    python benchmarks/chains.py --players 3 4 5 6 --games 6 --workers 2 \
        --out benchmarks/results/chains.jsonl
    python benchmarks/chains.py --report benchmarks/results/chains.jsonl

``--solve`` runs the whole ``solve`` instead (``solve_position`` with
``--budget`` and ``--jobs``) at the positions ``--fractions`` of the way
through each game (their events, rounded down), one after the other, and
records whether the culprit's chances were exact or their bound; the
report says how many were usable (exact, or a bound of 0.05 at most):

    python benchmarks/chains.py --solve --players 5 6 --games 4 --fractions 0.5 0.7 0.9 \
        --budget 10 --jobs 2 --out benchmarks/results/chains-late.jsonl

``--throughput LOG:EVENTS`` times the chains of one position in a farm of 1,
2, ... ``--workers`` processes for ``--seconds`` each: moves a second, and
the ratio to one worker (the chains scale when it is near the workers).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from time import perf_counter
from typing import Any

import numpy as np
from chances import simulated
from tabulate import tabulate

from deduce.games.abbey.solver.chains import (
    BATCH,
    Farm,
    bound,
    chain_averages,
    halves,
    plan_chains,
    pooled,
)
from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.gibbs import Layout
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.solve import solve_position
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition
from deduce.logs.io import read_log
from deduce.logs.model import GameLog


def measure(log: GameLog, k: int, budgets: Sequence[float], truth_timeout: float) -> dict[str, Any]:
    """One position: its exact culprit chances and the chains' estimates at each budget."""
    position = AbbeyPosition.of_log(log).with_events(log.events[:k])
    model = build_model(position)
    assert propagate(model)
    row: dict[str, Any] = {"events": k, "epochs": position.timeline.last_epoch + 1}
    start = perf_counter()
    counts = count_histories(model.copy(), deadline=start + truth_timeout)
    row["truth_seconds"] = perf_counter() - start
    if counts is None:
        return row
    truth = {c: float(p.get(CULPRIT, 0)) for c, p in enumerate(counts.probabilities())}
    candidates = [c for c, p in truth.items() if p > 0]
    row["candidates"] = len(candidates)
    if len(candidates) < 2:
        return row
    start = perf_counter()
    sat = sat_model(position)
    possible = sat.closure()
    assert possible is not None
    plan = plan_chains(Layout(model), sat, possible, seed=k)
    chains = [plan.chain(r) for r in range(len(plan.starts))]
    row["plan_seconds"] = perf_counter() - start
    readings = []
    for budget in sorted(budgets):
        while perf_counter() < start + budget:
            for chain in chains:
                chain.run(BATCH)
        found = pooled([chain.batches for chain in chains])
        reading: dict[str, Any] = {
            "budget": budget,
            "moves": sum(m for chain in chains for m, _ in chain.batches),
            "changes": sum(chain.walk.changes for chain in chains),
        }
        if found is not None:
            errors = [abs(found.probabilities[c].get(CULPRIT, 0.0) - truth[c]) for c in candidates]
            averages = chain_averages([chain.batches for chain in chains])
            assert averages is not None
            between, within = halves(*averages)
            reading.update(
                bound=found.culprit_error,
                error=max(errors),
                covered=sum(e <= found.culprit_error for e in errors),
                pairs=len(errors),
                # each candidate's error and two half-widths, to weigh other rules
                parts=[
                    [e, float(between[c, CULPRIT]), float(within[c, CULPRIT])]
                    for e, c in zip(errors, candidates)
                ],
            )
        readings.append(reading)
    row["readings"] = readings
    return row


def throughput(spec: str, workers: int, seconds: float) -> None:
    """Moves a second of one position's chains in farms of 1 to ``workers`` processes."""
    path, _, events = spec.rpartition(":")
    log = read_log(path)
    position = AbbeyPosition.of_log(log).with_events(log.events[: int(events)])
    model = build_model(position)
    assert propagate(model)
    sat = sat_model(position)
    possible = sat.closure()
    assert possible is not None
    plan = plan_chains(Layout(model), sat, possible, seed=1)
    table, alone = [], 0.0
    for n in range(1, workers + 1):
        start = perf_counter()
        farm = Farm(plan, n, start + seconds)
        try:
            while farm.running:
                farm.collect(0.5)
        finally:
            farm.close()
        rate = sum(m for batches in farm.batches for m, _ in batches) / (perf_counter() - start)
        alone = alone or rate
        table.append([n, f"{rate:,.0f}", f"{rate / alone:.2f}"])
    print(tabulate(table, headers=["workers", "moves a second", "to one worker"]))


def solve_at(log: GameLog, k: int, budget: float, jobs: int) -> dict[str, Any]:
    """The whole solve of one position within ``budget`` on ``jobs`` processes."""
    position = AbbeyPosition.of_log(log).with_events(log.events[:k])
    start = perf_counter()
    found = solve_position(position, budget=budget, jobs=jobs)
    return {
        "events": k,
        "seconds": perf_counter() - start,
        "candidates": len(found.culprit),
        "culprit_exact": found.culprit_exact,
        "culprit_bound": found.culprit_bound,
        "budget": budget,
        "jobs": jobs,
    }


def report_solves(rows: Sequence[dict[str, Any]]) -> None:
    """Usable culprit chances (exact, or a bound of 0.05 at most) per player count."""
    table = []
    for players in sorted({r["players"] for r in rows}):
        mine = [r for r in rows if r["players"] == players]
        bounds = sorted(r["culprit_bound"] for r in mine if not r["culprit_exact"])
        table.append(
            [
                players,
                mine[0]["budget"],
                mine[0]["jobs"],
                len(mine),
                sum(r["culprit_exact"] for r in mine),
                sum(r["culprit_exact"] or r["culprit_bound"] <= 0.05 for r in mine),
                sum(r["culprit_exact"] or r["culprit_bound"] <= 0.10 for r in mine),
                f"{bounds[len(bounds) // 2]:.3f}" if bounds else "",
                f"{max(r['seconds'] for r in mine):.1f}",
            ]
        )
    print(
        tabulate(
            table,
            headers=[
                "players",
                "budget",
                "jobs",
                "positions",
                "exact",
                "usable (<= 0.05)",
                "shown (<= 0.10)",
                "median bound",
                "slowest (s)",
            ],
        )
    )


def _job(players: int, game: int, log: GameLog, k: int, args: argparse.Namespace) -> str:
    row = {"players": players, "seed": args.seed, "game": game, "of": len(log.events)}
    row.update(measure(log, k, args.budgets, args.truth_timeout))
    return json.dumps(row)


def _half(row: dict[str, Any]) -> str:
    """Which half of its game a position is in (by events; blank for rows without ``of``)."""
    if "of" not in row:
        return ""
    return "first" if 2 * row["events"] <= row["of"] else "second"


def _today(reading: dict[str, Any]) -> dict[str, Any]:
    """A reading with its bound and coverage by today's rule, where its half-widths were kept.

    The culprit's bound is the widest candidate's (``bound``): readings made
    before the slack was added are judged as they would be now.
    """
    if "parts" not in reading:
        return reading
    parts = reading["parts"]
    widest = float(bound(*np.array([[b, w] for _, b, w in parts]).T).max())
    return {**reading, "bound": widest, "covered": sum(e <= widest for e, _, _ in parts)}


def report(path: Path) -> None:
    """Coverage and usable bounds per player count and budget (or :func:`report_solves`)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if rows and "culprit_bound" in rows[0]:
        report_solves(rows)
        return
    table = []
    for players, half in sorted({(r["players"], _half(r)) for r in rows}):
        mine = [r for r in rows if (r["players"], _half(r)) == (players, half) and "readings" in r]
        budgets = sorted({g["budget"] for r in mine for g in r["readings"]})
        for budget in budgets:
            got = [_today(g) for r in mine for g in r["readings"] if g["budget"] == budget]
            bounded = [g for g in got if "bound" in g]
            pairs = sum(g["pairs"] for g in bounded)
            covered = sum(g["covered"] for g in bounded)
            table.append(
                [
                    players,
                    half,
                    budget,
                    len(got),
                    len(bounded),
                    sum(g["bound"] <= 0.05 for g in bounded),
                    f"{covered}/{pairs}" + (f" ({covered / pairs:.1%})" if pairs else ""),
                    sum(g["error"] <= g["bound"] for g in bounded),
                ]
            )
    print(
        tabulate(
            table,
            headers=[
                "players",
                "half",
                "seconds",
                "positions",
                "bounded",
                "bound<=0.05",
                "pairs covered",
                "positions covered",
            ],
        )
    )
    skipped = [r for r in rows if "readings" not in r]
    print(
        f"\n{len(rows)} positions measured, {len(skipped)} left out "
        f"({sum('candidates' not in r for r in skipped)} without an exact count in time)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--budgets", type=float, nargs="+", default=[1.0, 5.0, 10.0])
    parser.add_argument("--truth-timeout", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path)
    parser.add_argument("--throughput", metavar="LOG:EVENTS")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--solve", action="store_true")
    parser.add_argument("--fractions", type=float, nargs="+", default=[0.5, 0.7, 0.9])
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.report:
        report(args.report)
        return
    if args.throughput:
        throughput(args.throughput, args.workers, args.seconds)
        return
    if args.solve:
        with tempfile.TemporaryDirectory() as folder:
            for players in args.players:
                for game, log in enumerate(simulated(players, args.games, args.seed, Path(folder))):
                    for fraction in args.fractions:
                        k = int(len(log.events) * fraction)
                        row = {"players": players, "game": game}
                        row.update(solve_at(log, k, args.budget, args.jobs))
                        print(json.dumps(row), flush=True)
                        if args.out:
                            with args.out.open("a") as out:
                                out.write(json.dumps(row) + "\n")
        return
    jobs = []
    with tempfile.TemporaryDirectory() as folder:
        for players in args.players:
            for game, log in enumerate(simulated(players, args.games, args.seed, Path(folder))):
                for k in range(args.every, len(log.events) + 1, args.every):
                    jobs.append((players, game, log, k))
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(_job, *job, args) for job in jobs]
        for future in futures:
            line = future.result()
            print(line, flush=True)
            if args.out:
                with args.out.open("a") as out:
                    out.write(line + "\n")


if __name__ == "__main__":
    main()
