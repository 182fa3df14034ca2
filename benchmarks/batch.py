"""Throughput of ``deduce batch``: simulated logs of the three games, one to all cores.

Simulates seeded games of each engine with its default bots into a
temporary folder until it holds ``--logs`` player logs, a third per game
unless ``--abbey`` sets how many of them are Abbey logs (the rest are split
between the other two games). Then it runs the ``batch`` command over the
folder once per ``--workers`` value (0: every core), with ``--budget`` for
the Abbey logs, and prints per worker count and per game: logs, the time
spent solving them (each log's own time, summed), the median and slowest
log, and for the whole run the wall-clock seconds and logs per second.

    python benchmarks/batch.py --logs 1000 --budget 1 --workers 1 0
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections import defaultdict
from dataclasses import replace
from itertools import islice
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from tabulate import tabulate

from deduce.cli.batch import batch
from deduce.games.simulate import simulate, write_game
from deduce.registry import GAMES


def mix(logs: int, abbey: int | None) -> dict[str, int]:
    """How many logs of each game: ``abbey`` Abbey logs (default: a third), the rest shared."""
    others = [game for game in GAMES if game != "abbey"]
    abbey = logs // len(GAMES) if abbey is None else min(abbey, logs)
    rest = logs - abbey
    shares = {game: rest // len(others) + (i < rest % len(others)) for i, game in enumerate(others)}
    return {"abbey": abbey, **shares}


def write_logs(out: Path, game: str, count: int, players: int, seed: int) -> None:
    """Simulate games of ``game`` into ``out/game/`` until ``count`` player logs are written."""
    simulator = GAMES[game].simulator
    table = simulator.create(players, {})
    lineup = (simulator.default_bot,) * players
    left = count
    games = -(-count // players)
    for record in simulate(simulator.record, table, games, seed, lineup, workers=0):
        logs = dict(islice(record.logs.items(), min(left, players)))
        write_game(replace(record, logs=logs), out / game)
        left -= len(logs)


def run_batch(folder: Path, workers: int, budget: float) -> tuple[float, dict[str, Any]]:
    """Wall-clock seconds of ``batch FOLDER --json`` and its output."""
    args = [str(folder), "--workers", str(workers), "--budget", str(budget), "--json"]
    start = time.perf_counter()
    result = CliRunner().invoke(batch, args)
    seconds = time.perf_counter() - start
    if result.exit_code != 0:
        raise SystemExit(f"batch exited with status {result.exit_code}: {result.output[-500:]}")
    return seconds, json.loads(result.stdout)


def rows(workers: int, wall: float, data: dict[str, Any]) -> list[list[Any]]:
    """Per game, then for the whole run: logs, summed solve time, median and slowest log."""
    times: defaultdict[str, list[float]] = defaultdict(list)
    for entry in data["logs"]:
        times[entry["game"]].append(entry["seconds"])
    out = []
    for game, spent in [*sorted(times.items()), ("all", [t for g in times.values() for t in g])]:
        row = [
            workers,
            game,
            len(spent),
            f"{sum(spent):.2f}",
            f"{len(spent) / sum(spent):.2f}",
            f"{statistics.median(spent):.3f}",
            f"{max(spent):.3f}",
            "",
            "",
        ]
        if game == "all":
            row[-2:] = [f"{wall:.1f}", f"{len(spent) / wall:.2f}"]
        out.append(row)
    return out


def main() -> None:
    """Simulate the logs, time the batch once per worker count and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=1000, help="player logs in all")
    parser.add_argument(
        "--abbey", type=int, help="how many of them are Abbey logs (default: a third)"
    )
    parser.add_argument("--players", type=int, default=4, help="seats in every game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=1.0, help="Abbey: --budget SECONDS")
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[1, 0],
        help="worker counts to time (0: every core)",
    )
    args = parser.parse_args()
    counts = mix(args.logs, args.abbey)
    table = []
    with tempfile.TemporaryDirectory(prefix="deduce-batch-") as temp:
        folder = Path(temp)
        start = time.perf_counter()
        for game, count in counts.items():
            write_logs(folder, game, count, args.players, args.seed)
        shares = ", ".join(f"{game}: {count}" for game, count in counts.items())
        print(
            f"simulated {args.logs} logs ({shares}; {args.players} players, seed {args.seed}) "
            f"in {time.perf_counter() - start:.1f} s",
            flush=True,
        )
        for workers in args.workers:
            wall, data = run_batch(folder, workers, args.budget)
            table += rows(workers or os.cpu_count() or 1, wall, data)
            print(f"workers {workers}: {wall:.1f} s", flush=True)
    print(f"\n{os.cpu_count()} cores, Abbey budget {args.budget} s\n")
    print(
        tabulate(
            table,
            headers=[
                "workers",
                "game",
                "logs",
                "solve s (sum)",
                "logs per solve s",
                "median s",
                "slowest s",
                "wall s",
                "logs/s (wall)",
            ],
            tablefmt="github",
            disable_numparse=True,
        )
    )


if __name__ == "__main__":
    main()
