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

``--out FILE`` keeps each finished run as one JSON line and skips the runs
already in it, so a long run (the Abbey's) can stop and go on later:

    python benchmarks/soundness.py abbey --games 10000 --extra "--fast --every 8" \
        --out abbey.jsonl

``--players N [N ...]`` runs (and prints) only those player counts' runs.
Each keeps the games and seed it has in the whole split, so a later run
without it finds them kept.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path
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


def command(
    game: str, players: int, bots: str, games: int, seed: int, workers: int, extra: list[str]
) -> list[str]:
    """The ``deduce check`` command of one run."""
    return [
        "deduce",
        "check",
        game,
        "--players",
        str(players),
        "--games",
        str(games),
        "--seed",
        str(seed),
        "--bots",
        lineup(bots, players),
        "--workers",
        str(workers),
        "--json",
        *extra,
    ]


def run(words: list[str]) -> dict[str, Any]:
    """One ``deduce check`` run: its JSON and wall time."""
    start = time.perf_counter()
    done = subprocess.run(words, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 4):
        sys.exit(f"{shlex.join(words)} failed: {done.stderr.strip()}")
    data = json.loads(done.stdout)
    data["wall"] = time.perf_counter() - start
    data["command"] = shlex.join(words)
    return data


def finished(out: Path | None) -> dict[str, dict[str, Any]]:
    """The runs already kept in ``out``, by command."""
    if out is None or not out.exists():
        return {}
    kept = (json.loads(line) for line in out.read_text().splitlines() if line.strip())
    return {data["command"]: data for data in kept}


def keep(out: Path | None, data: dict[str, Any]) -> None:
    """Append one finished run to ``out``."""
    if out is not None:
        with out.open("a") as file:
            file.write(json.dumps(data) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=300, help="games in all (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=0, help="processes per run (0: all)")
    parser.add_argument("--extra", default="", help="more options for every run")
    parser.add_argument("--out", type=Path, help="keep finished runs here; skip those kept")
    parser.add_argument(
        "--players",
        type=int,
        nargs="+",
        metavar="N",
        help="only these player counts (default: all)",
    )
    args = parser.parse_args()
    if args.players and not set(args.players) <= set(PLAYERS[args.game]):
        parser.error(
            f"{args.game} is checked with {', '.join(map(str, PLAYERS[args.game]))} players"
        )
    runs = [(p, bots) for p in PLAYERS[args.game] for bots in LINEUPS[args.game]]
    done = finished(args.out)
    rows, failures, total, positions, wall = [], 0, 0, 0, 0.0
    for i, (players, bots) in enumerate(runs):
        if args.players and players not in args.players:
            continue
        games = args.games // len(runs) + (i < args.games % len(runs))
        words = command(
            args.game,
            players,
            bots,
            games,
            args.seed + 1000 * i,
            args.workers,
            shlex.split(args.extra),
        )
        data = done.get(shlex.join(words))
        if data is None:
            data = run(words)
            keep(args.out, data)
        failures += data["soundness_failures"]
        total += games
        positions += data.get("positions", 0)
        wall += data["wall"]
        rows.append(
            [
                players,
                lineup(bots, players),
                games,
                data.get("positions", ""),
                data["soundness_failures"],
                f"{data['wall']:.0f}",
            ]
        )
        print(tabulate([rows[-1]], tablefmt="plain"), flush=True)
    print()
    rows.append(["all", "", total, positions, failures, f"{wall:.0f}"])
    headers = ["players", "bots", "games", "positions", "soundness failures", "seconds"]
    if not positions:  # only the Abbey's check counts the positions it checked
        rows, headers = [r[:3] + r[4:] for r in rows], headers[:3] + headers[4:]
    print(tabulate(rows, headers=headers))
    sys.exit(4 if failures else 0)


if __name__ == "__main__":
    main()
