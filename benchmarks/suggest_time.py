"""Wall time of ``deduce suggest`` at positions along whole simulated Abbey games.

It plays ``--games`` games (``simulate``'s bots and seed), cuts the first
player's log after every ``--every`` lines, and times the command on each
cut, as a player at the table would run it:

    python benchmarks/suggest_time.py --players 6 --games 3 --every 10

With ``--logs DIR`` (the logs ``winrate.py --logs`` keeps) it times the
cuts of every log kept there instead of simulating.

It prints one row per cut (seconds, whether the values and the accusation
are exact; the parlor's "show me", always estimated, aside) and the largest
time. The command runs as installed on a
player's machine: with its bytecode cached (``PYTHONDONTWRITEBYTECODE`` is
dropped, and a first untimed run writes the cache).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tabulate import tabulate
from winrate import kept_logs

#: The installed command itself (not a shell shim in front of it), as a player runs it.
DEDUCE = str(Path(sysconfig.get_path("scripts")) / "deduce")


def main() -> None:
    """Simulate, cut, time and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--bots", default="solver,notepad,random,notepad,random,notepad")
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--budget", type=float, help="--budget for suggest (else its default)")
    parser.add_argument("--logs", type=Path, help="time the logs kept here instead of simulating")
    args = parser.parse_args()
    rows, worst = [], 0.0
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    warm = True
    with tempfile.TemporaryDirectory() as tmp:
        logs = kept_lines(args.logs) if args.logs else simulated(args, Path(tmp), env)
        for name, lines in logs:
            for cut in range(args.every, len(lines) + args.every, args.every):
                log = Path(tmp) / "cut.jsonl"
                log.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
                command = [DEDUCE, "suggest", str(log), "--json"]
                if args.budget is not None:
                    command += ["--budget", str(args.budget)]
                if warm:
                    subprocess.run(command, capture_output=True, env=env)
                    warm = False
                start = time.perf_counter()
                done = subprocess.run(command, capture_output=True, text=True, env=env)
                seconds = time.perf_counter() - start
                worst = max(worst, seconds)
                if done.returncode:
                    rows.append(
                        [
                            name,
                            min(cut, len(lines)),
                            f"{seconds:.2f}",
                            done.stderr.strip()[-60:],
                            "",
                        ]
                    )
                    continue
                data = json.loads(done.stdout)
                exact = all(
                    o.get("exact") for o in data.get("options", []) if o["kind"] != "show_me"
                )  # always estimated
                rows.append(
                    [
                        name,
                        min(cut, len(lines)),
                        f"{seconds:.2f}",
                        exact,
                        data["accusation"]["exact"],
                    ]
                )
    print(
        tabulate(
            rows,
            ["game", "lines", "seconds", "values exact", "accusation exact"],
            tablefmt="github",
        )
    )
    print(f"\nlargest: {worst:.2f} s", file=sys.stderr)


def simulated(
    args: argparse.Namespace, tmp: Path, env: dict[str, str]
) -> Iterator[tuple[str, list[str]]]:
    """The first player's log of each game ``simulate`` plays, as lines."""
    out = tmp / "games"
    subprocess.run(
        [
            DEDUCE,
            "simulate",
            "abbey",
            "--players",
            str(args.players),
            "--games",
            str(args.games),
            "--seed",
            str(args.seed),
            "--bots",
            args.bots,
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
        env=env,
    )
    for game in sorted(out.iterdir()):
        yield game.name, sorted(game.glob("*.jsonl"))[0].read_text(encoding="utf-8").splitlines()


def kept_lines(logs: Path) -> Iterator[tuple[str, list[str]]]:
    """Every log kept in ``logs`` (:func:`winrate.kept_logs`), named, as lines."""
    for path, player, text in kept_logs(logs):
        yield f"{path.stem}:{player}", text.splitlines()


if __name__ == "__main__":
    main()
