"""The Rose's exposure against the guesses the bots really placed on the seventh day.

It simulates ``--games`` games (``deduce simulate rose``, the ``--bots``
line-up, default bots when none is given), cuts every player's log before
the seventh day's guesses (its first ``guess`` line), solves it as
``deduce solve`` does (the styles model), and computes, for each guesser
(``markers``: hard events only; ``play``: behaviour too), the player's
exposure to every opponent: the chance that the opponent's guess names the
player's colour. Each chance is scored against what that opponent's guess
in the whole game was (right or wrong):

- the Brier score, the mean of ``(chance - [right])²``;
- the base rate's Brier, that of giving every guess the overall share of
  right guesses (``b · (1 - b)``), and the ratio of the two;
- the reliability table: per decile of chance, how often the guesses were right.

One JSON line per guesser is appended to ``--out``, and the tables are
printed; ``--report FILE`` prints the tables of a results file instead:

    python benchmarks/rose_exposure.py --games 1000 --seed 1 --workers 2 \\
        --out benchmarks/results/rose-exposure.jsonl
    python benchmarks/rose_exposure.py --report benchmarks/results/rose-exposure.jsonl
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from chances import simulate
from tabulate import tabulate

from deduce.games.reliability import RELIABILITY_HEADINGS, Reliability, reliability_rows
from deduce.games.rose.check import cut_before_guesses
from deduce.games.rose.exposure import GUESSERS, exposure_of
from deduce.games.rose.solve import solve_rose
from deduce.logs.io import read_log

#: One scored guess: the guesser's chance for it, and whether it was right.
Scored = tuple[float, bool]


def score_game(folder: Path) -> dict[str, list[Scored]]:
    """Per guesser, every (player, opponent) exposure of one game and whether it came true."""
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    identities, guesses = truth["identities"], truth["guesses"]
    scored: dict[str, list[Scored]] = {g: [] for g in GUESSERS}
    for player in truth["players"]:
        log = cut_before_guesses(read_log(str(folder / f"{player}.jsonl")))
        solution = solve_rose(log)
        for guesser in GUESSERS:
            found = exposure_of(log, solution, guesser)
            assert found is not None, f"{folder}/{player}: no exposure"
            scored[guesser] += [
                (float(p), guesses[q][player] == identities[player])
                for q, p in found.chances.items()
            ]
    return scored


def summary(scored: Sequence[Scored]) -> dict[str, Any]:
    """Brier score, the base rate's, their ratio and the reliability table of some guesses."""
    n = len(scored)
    rate = sum(right for _, right in scored) / n
    brier = sum((p - right) ** 2 for p, right in scored) / n
    base = rate * (1 - rate)
    table = Reliability()
    for p, right in scored:
        table = table.add({"right": p}, "right" if right else "wrong")
    return {
        "guesses": n,
        "right_share": round(rate, 4),
        "mean_chance": round(sum(p for p, _ in scored) / n, 4),
        "brier": round(brier, 4),
        "base_brier": round(base, 4),
        "ratio": round(brier / base, 4),
        "reliability": table.to_json("right_share"),
    }


def measure(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Simulate, score every game in ``args.workers`` processes, one result per guesser."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "games"
        extra = ["--workers", str(args.workers), *(["--bots", args.bots] if args.bots else [])]
        simulate("rose", args.players, args.games, args.seed, out, *extra)
        started = time.perf_counter()
        with Pool(args.workers) as pool:
            games = pool.map(score_game, sorted(out.glob("game-*")), chunksize=10)
        seconds = time.perf_counter() - started
    run = {
        "game": "rose",
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "bots": args.bots or "default",
    }
    return [
        {
            **run,
            "guesser": g,
            **summary([s for game in games for s in game[g]]),
            "seconds": round(seconds, 1),
        }
        for g in GUESSERS
    ]


def report(results: Sequence[dict[str, Any]]) -> None:
    """The comparison table, then each result's reliability table."""
    rows = [
        [
            r["players"],
            r["bots"],
            r["guesser"],
            r["guesses"],
            f"{100 * r['right_share']:.1f}%",
            f"{100 * r['mean_chance']:.1f}%",
            f"{r['brier']:.4f}",
            f"{r['base_brier']:.4f}",
            f"{r['ratio']:.3f}",
        ]
        for r in results
    ]
    headings = ["players", "bots", "guesser", "guesses", "right", "mean chance", "Brier"]
    print(tabulate(rows, [*headings, "base rate's Brier", "ratio"], tablefmt="github"))
    for r in results:
        print(f"\n{r['players']} players, {r['bots']} bots, {r['guesser']} guesser")
        rows = reliability_rows(r["reliability"], "right_share")
        print(tabulate(rows, list(RELIABILITY_HEADINGS), tablefmt="github"))


def main() -> None:
    """Measure and append to ``--out``, or print ``--report``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", help="the simulator's --bots (default: its default bots)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path, help="print the tables of this results file")
    args = parser.parse_args()
    if args.report:
        lines = args.report.read_text(encoding="utf-8").splitlines()
        report([json.loads(line) for line in lines if line.strip()])
        return
    results = measure(args)
    if args.out:
        with args.out.open("a", encoding="utf-8") as out:
            out.writelines(json.dumps(r) + "\n" for r in results)
    report(results)


if __name__ == "__main__":
    main()
