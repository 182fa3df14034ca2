"""The Abbey's chances at every position of whole simulated games: exact, usable, honest.

For N simulated games per player count (the engine's notepad bots, seed
``--seed``, each game seen by its first player), at every ``--every``-th
position and the last, in one run so that the ratios hold on a noisy
machine:

- ``old``: the count as it was (``legacy_count.py``), under ``--old-timeout``;
- ``new``: today's exact count (``count_histories``, computing the SAT
  supports when it needs them, as ``solve`` does), under
  ``--truth-timeout``; its answer is the position's ground truth;
- ``b1``: ``solve_abbey(budget=1)``: wall time, whether the culprit's and the
  holders' chances are exact, their bounds, and their errors against the
  truth where it is known;
- ``b30``: the same with ``budget=30`` (what ``play`` reaches in the
  background), at every ``--slow-every``-th position whose ``b1`` was not
  exact.

Each position is one JSON line of ``--out`` (appended as it is measured, so
that an interrupted run keeps what it did); ``--report FILE`` prints the
tables of a results file instead of measuring:

    python benchmarks/chances.py --games 20 --out benchmarks/results/chances.jsonl
    python benchmarks/chances.py --report benchmarks/results/chances.jsonl

"Usable" means exact, or an estimate whose bound is at most 0.05 and
covers the exact value (where the truth is known; else its bound alone).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from legacy_count import legacy_count
from tabulate import tabulate

from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.solve import solve_abbey
from deduce.games.abbey.solver.timeline import AbbeyPosition, build_timeline
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import read_log
from deduce.logs.model import GameLog

USABLE = 0.05


def simulate(game: str, players: int, games: int, seed: int, out: Path, *extra: str) -> None:
    """``deduce simulate GAME`` into ``out`` (``extra``: more of its options)."""
    command = ["simulate", game, "--players", str(players), "--games", str(games)]
    command += ["--seed", str(seed), "--out", str(out), *extra]
    subprocess.run(
        [sys.executable, "-m", "deduce.cli.main", *command], check=True, stdout=subprocess.DEVNULL
    )


def simulated(players: int, games: int, seed: int, folder: Path) -> list[GameLog]:
    """The first player's log of each of ``games`` simulated games."""
    out = folder / f"{players}p"
    simulate("abbey", players, games, seed, out)
    logs = []
    for game in sorted(out.glob("game-*")):
        truth = json.loads((game / "truth.json").read_text())
        logs.append(read_log(game / f"{truth['players'][0]}.jsonl"))
    return logs


def position_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that name positions for :func:`at_positions`: --positions, --games, --seed."""
    parser.add_argument(
        "--positions", nargs="+", required=True, help="PLAYERS:GAME:EVENTS (GAME counts from 0)"
    )
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)


def at_positions(
    specs: Sequence[str], games: int, seed: int, folder: Path
) -> Iterator[tuple[str, GameLog, int]]:
    """Each ``PLAYERS:GAME:EVENTS`` spec as (spec, the log of :func:`simulated`, events)."""
    logs: dict[int, list[GameLog]] = {}
    for spec in specs:
        players, game, k = (int(x) for x in spec.split(":"))
        if players not in logs:
            logs[players] = simulated(players, games, seed, folder)
        yield spec, logs[players][game], k


@dataclass(frozen=True)
class Position:
    """The first events of a log, modelled: propagated, with the SAT supports of every epoch."""

    setup: Any
    timeline: Any
    model: Any
    supports: Any
    tallies: list[Any]


def position(log: GameLog, k: int) -> Position:
    """The position of the first ``k`` events of ``log``, as the capped counts take it."""
    setup = setup_from_header(log.header, log.path)
    events = log.events[:k]
    timeline = build_timeline(setup, events, log.path)
    model = build_model(AbbeyPosition(setup, tuple(events), timeline))
    assert propagate(model)
    supports = sat_model(AbbeyPosition(setup, tuple(events), timeline)).supports()
    return Position(setup, timeline, model, supports, [t for t in model.tallies if not t.redundant])


def _probabilities(
    counts: Any, holders: tuple[str, ...], ids: tuple[str, ...]
) -> dict[str, dict[str, float]]:
    return {
        card: {holders[h]: float(p) for h, p in row.items()}
        for card, row in zip(ids, counts.probabilities())
    }


def _errors(solution: Any, truth: dict[str, dict[str, float]] | None) -> dict[str, Any]:
    """A solve's labels and, against the truth, its largest errors (culprit, every holder)."""
    row: dict[str, Any] = {
        "exact": solution.exact,
        "error": solution.error,
        "culprit_exact": solution.culprit_exact,
        "culprit_error": solution.culprit_bound,
    }
    if truth is not None:
        row["culprit_miss"] = max(
            abs(float(solution.culprit.get(c, 0.0)) - truth[c].get("culprit", 0.0)) for c in truth
        )
        row["holder_miss"] = max(
            abs(float(solution.holders[c].get(h, 0.0)) - p)
            for c in truth
            for h, p in truth[c].items()
        )
    return row


def measure(log: GameLog, k: int, args: argparse.Namespace, slow: bool) -> dict[str, Any]:
    """Every measurement of one position (the first ``k`` events of ``log``)."""
    setup = setup_from_header(log.header, log.path)
    events = log.events[:k]
    timeline = build_timeline(setup, events, log.path)
    model = build_model(AbbeyPosition(setup, tuple(events), timeline))
    assert propagate(model)
    row: dict[str, Any] = {
        "players": len(setup.players),
        "events": k,
        "transfers": len(timeline.transfers),
    }
    start = time.perf_counter()
    old = legacy_count(model, deadline=start + args.old_timeout)
    row["old"] = time.perf_counter() - start if old is not None else None
    sat = sat_model(
        AbbeyPosition(setup, tuple(events), timeline)
    )  # built for the closure anyway, as solve does
    start = time.perf_counter()
    counts = count_histories(
        model, narrowed=True, supports=sat.supports, deadline=start + args.truth_timeout
    )
    row["new"] = time.perf_counter() - start if counts is not None else None
    truth = _probabilities(counts, timeline.holders, setup.deck.ids) if counts is not None else None
    if old is not None and counts is not None:
        assert old[0] == counts.total, "the old and the new count disagree"
    prefix = replace(log, events=events)
    for name, budget in (("b1", 1.0), ("b30", 30.0)):
        if name == "b30" and (not slow or row["b1"]["culprit_exact"]):
            continue
        start = time.perf_counter()
        solution = solve_abbey(prefix, budget=budget, seed=k)
        row[name] = {"seconds": time.perf_counter() - start, **_errors(solution, truth)}
    row["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return row


def usable(part: dict[str, Any], which: str) -> bool:
    """Whether one solve's culprit (``which="culprit"``) or holders' chances are usable."""
    exact, error, miss = (
        (part["culprit_exact"], part["culprit_error"], part.get("culprit_miss"))
        if which == "culprit"
        else (part["exact"], part["error"], part.get("holder_miss"))
    )
    return exact or (error <= USABLE and (miss is None or miss <= error))


def report(rows: list[dict[str, Any]]) -> str:
    """The tables of a results file, per player count."""
    table = []
    for players in sorted({r["players"] for r in rows}):
        mine = [r for r in rows if r["players"] == players]
        both = [
            r["old"] / r["new"]
            for r in mine
            if r["old"] is not None and r["new"] is not None and r["new"] > 0
        ]
        estimated = [r["b1"] for r in mine if not r["b1"]["exact"] and "holder_miss" in r["b1"]]
        covered = [p["holder_miss"] <= p["error"] for p in estimated]
        slow = [r["b30"] for r in mine if "b30" in r]
        slow_ok = [p["culprit_exact"] or p["culprit_error"] <= 0.02 for p in slow]
        n = len(mine)
        table.append(
            [
                players,
                n,
                len(both),
                f"{statistics.median(both):.1f}x" if both else "",
                f"{100 * sum(r['b1']['culprit_exact'] for r in mine) / n:.0f}%",
                f"{100 * sum(usable(r['b1'], 'culprit') for r in mine) / n:.0f}%",
                f"{100 * sum(usable(r['b1'], 'holders') for r in mine) / n:.0f}%",
                f"{100 * sum(covered) / len(covered):.0f}% of {len(covered)}" if covered else "",
                f"{100 * sum(slow_ok) / len(slow_ok):.0f}% of {len(slow_ok)}" if slow_ok else "",
                f"{max(r['b1']['seconds'] for r in mine):.2f}",
                f"{max(r['peak_mb'] for r in mine):.0f}",
            ]
        )
    return tabulate(
        table,
        headers=[
            "players",
            "positions",
            "both counts finish",
            "old/new (median)",
            "culprit exact in 1 s",
            "culprit usable in 1 s",
            "holders usable in 1 s",
            "bound covers (1 s)",
            "culprit exact or <= 0.02 in 30 s",
            "slowest 1 s solve (s)",
            "peak MB",
        ],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--slow-every", type=int, default=10)
    parser.add_argument("--old-timeout", type=float, default=30.0)
    parser.add_argument("--truth-timeout", type=float, default=120.0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()
    if args.report:
        rows = [json.loads(line) for line in args.report.read_text().splitlines() if line]
        print(report(rows))
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for players in args.players:
            for g, log in enumerate(simulated(players, args.games, args.seed, Path(tmp))):
                n = len(log.events)
                for k in range(1, n + 1):
                    if k % args.every and k != n:
                        continue
                    slow = (k // args.every) % args.slow_every == 0 or k == n
                    row = {"game": g, **measure(log, k, args, slow)}
                    rows.append(row)
                    if args.out:
                        with args.out.open("a") as out:
                            out.write(json.dumps(row) + "\n")
    print(report(rows))


if __name__ == "__main__":
    main()
