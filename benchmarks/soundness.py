"""Soundness at scale: ``deduce check`` over many games, every player count and line-up.

The games of one game are split evenly over its player counts and, for each,
over the line-ups of :data:`LINEUPS` (the solver bot included), with one
seed per run so that the runs do not repeat each other's games. Each run
is one ``deduce check GAME --json`` command; the script prints one row per
run (games, soundness failures, the check's scores, seconds) and the total,
and exits with status 4 when any run found a soundness failure (the truth
ruled out, or given probability 0):

    python benchmarks/soundness.py rose --games 10000
    python benchmarks/soundness.py blackrose --games 10000 --workers 2

``--extra ARGS`` is passed to every run (for example ``--model FILE`` or a
user data file: ``--extra "--data my-rose.json"``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from typing import Any

from tabulate import tabulate

#: Player counts checked, per game.
PLAYERS = {"abbey": (3, 4, 5, 6), "rose": (2, 3, 4, 5), "blackrose": (3, 4, 5)}
#: Line-ups per game: the default bot everywhere, the solver bot among them, a random one.
LINEUPS = {
    "abbey": ("notepad", "solver,notepad", "random,notepad"),
    "rose": ("monk", "solver,monk", "random,monk"),
    "blackrose": ("advised", "cautious,advised", "random,advised"),
}


def lineup(bots: str, players: int) -> str:
    """One bot per seat: the first bot in seat 1, the last repeated to fill the table."""
    names = bots.split(",")
    return ",".join(names[min(i, len(names) - 1)] for i in range(players))


def run(game: str, players: int, bots: str, games: int, seed: int, workers: int,
        extra: list[str]) -> dict[str, Any]:
    """One ``deduce check`` run: its JSON and wall time."""
    command = ["deduce", "check", game, "--players", str(players), "--games", str(games),
               "--seed", str(seed), "--bots", lineup(bots, players), "--workers", str(workers),
               "--json", *extra]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 4):
        sys.exit(f"{shlex.join(command)} failed: {done.stderr.strip()}")
    data = json.loads(done.stdout)
    data["wall"] = time.perf_counter() - start
    data["command"] = shlex.join(command)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=300, help="games in all (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=0, help="processes per run (0: all)")
    parser.add_argument("--extra", default="", help="more options for every run")
    args = parser.parse_args()
    runs = [(p, bots) for p in PLAYERS[args.game] for bots in LINEUPS[args.game]]
    rows, failures, total, wall = [], 0, 0, 0.0
    for i, (players, bots) in enumerate(runs):
        games = args.games // len(runs) + (i < args.games % len(runs))
        data = run(args.game, players, bots, games, args.seed + 1000 * i, args.workers,
                   shlex.split(args.extra))
        failures += data["soundness_failures"]
        total += games
        wall += data["wall"]
        rows.append([players, lineup(bots, players), games, data["soundness_failures"],
                     f"{data['wall']:.0f}"])
        print(tabulate([rows[-1]], tablefmt="plain"), flush=True)
    print()
    print(tabulate([*rows, ["all", "", total, failures, f"{wall:.0f}"]],
                   headers=["players", "bots", "games", "soundness failures", "seconds"]))
    sys.exit(4 if failures else 0)


if __name__ == "__main__":
    main()
