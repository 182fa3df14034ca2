"""The Rose's soft evidence on tables of every style: styles model, single-style model, hard.

For each player count and each line-up (``monk``, ``random``, ``bluffer``
and the mixed ``monk,random,bluffer,monk,random`` cut to the table), it runs
``deduce check rose --json`` twice on the same seeded games: with the
bundled styles model and with ``--model monk`` (the single-style reading
fitted on the ``monk`` bots). It prints one row per table: the Brier score
and the share of most probable colours right of the styles reading, the
single-style reading and the hard events, and the styles reading's worst
reliability gap (deciles of at least 200 answers). The JSON of every run is
kept in ``--out`` (a run already there is read, not run again).

    python benchmarks/rose_styles.py --games 1000 --seed 1 --out benchmarks/results/rose-styles
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path
from typing import Any

from tabulate import tabulate

#: The mixed table, cut to the number of players.
MIXED = ("monk", "random", "bluffer", "monk", "random")
#: The single-style tables.
SINGLE = ("monk", "random", "bluffer")


def lineups(players: int) -> list[str]:
    """The line-ups checked at ``players`` seats."""
    return [*SINGLE, ",".join(MIXED[:players])]


def check(
    players: int, bots: str, model: str | None, games: int, seed: int, out: Path
) -> dict[str, Any]:
    """One ``deduce check rose --json`` run (read from ``out`` when it is there)."""
    path = out / f"{players}p-{bots.replace(',', '+')}-{model or 'styles'}.json"
    if not path.exists():
        command = [
            "deduce",
            "check",
            "rose",
            "--players",
            str(players),
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--bots",
            bots,
            "--json",
        ]
        started = time.perf_counter()
        done = subprocess.run(
            [*command, *(["--model", model] if model else [])],
            capture_output=True,
            text=True,
            check=True,
        )
        data = {**json.loads(done.stdout), "wall_seconds": round(time.perf_counter() - started, 1)}
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return json.loads(path.read_text(encoding="utf-8"))


def main() -> None:
    """Run (or read) every table and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for players in (int(n) for n in args.players.split(",")):
        for bots in lineups(players):
            styles = check(players, bots, None, args.games, args.seed, args.out)
            single = check(players, bots, "monk", args.games, args.seed, args.out)
            soft, hard, old = styles["behaviour"], styles["hard"], single["behaviour"]
            gap = soft["worst_gap"]
            rows.append(
                [
                    players,
                    bots,
                    f"{soft['brier']:.4f}",
                    f"{old['brier']:.4f}",
                    f"{hard['brier']:.4f}",
                    f"{soft['brier'] - hard['brier']:+.4f}",
                    f"{100 * soft['accuracy']:.1f}%",
                    f"{100 * old['accuracy']:.1f}%",
                    f"{100 * hard['accuracy']:.1f}%",
                    "" if gap is None else f"{100 * gap:.1f}",
                    styles["wall_seconds"],
                ]
            )
    print(
        tabulate(
            rows,
            [
                "players",
                "bots",
                "Brier, styles",
                "Brier, monk model",
                "Brier, hard",
                "styles - hard",
                "right, styles",
                "right, monk model",
                "right, hard",
                "worst gap (points)",
                "seconds",
            ],
            tablefmt="github",
        )
    )


if __name__ == "__main__":
    main()
