"""Calibration of the Abbey's culprit chances, per player count, against simulated truth.

For each player count, ``deduce check abbey --json`` runs over the line-ups
of ``soundness.py`` (the notepad bot everywhere, the solver bot or a random
bot in seat 1), cutting each log every ``--every`` events and solving each
cut within ``--budget`` seconds. Every solve before the culprit became
public is scored against the truth, exact chances and estimated ones
apart. The script prints, per player count and in all:

- the positions scored, how many came after a caught intruder gave a card
  back (the engine gives the card taken, the log records a random ``take``);
- the Brier score, beside the Brier score of equal chances over the same
  candidates (what the candidates alone say);
- the share of positions whose favourite was the culprit, beside the share
  the chances predicted;

then the reliability table of the exact chances (candidates by decile of
their chance, their mean chance and how many were the culprit), each
player count side by side. ``--out FILE`` keeps finished runs, as in
``soundness.py``:

    python benchmarks/calibration.py --games 48 --every 10 --out calibration.jsonl
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import Any

from soundness import LINEUPS, PLAYERS, command, finished, keep, run
from tabulate import tabulate

KINDS = ("calibration", "calibration_estimated")


def totals(runs: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """Sums over runs of one calibration (``calibration`` or ``calibration_estimated``)."""
    out: dict[str, Any] = {
        "positions": 0,
        "brier": 0.0,
        "uniform": 0.0,
        "favourite": 0.0,
        "expected": 0.0,
        "error": 0.0,
        "bins": [[0, 0.0, 0] for _ in range(10)],
    }
    for data in runs:
        c = data[kind]
        n = c["positions"]
        out["positions"] += n
        for mine, theirs in (
            ("brier", "brier"),
            ("uniform", "uniform_brier"),
            ("favourite", "favourite_share"),
            ("expected", "expected_favourite_share"),
            ("error", "mean_error"),
        ):
            out[mine] += n * c[theirs]
        for row, rel in zip(out["bins"], c["reliability"], strict=True):
            if rel["candidates"]:
                row[0] += rel["candidates"]
                row[1] += rel["candidates"] * rel["mean_probability"]
                row[2] += round(rel["candidates"] * rel["culprit_share"])
    return out


def summary_row(label: str, runs: list[dict[str, Any]]) -> list[Any]:
    """One player count (or all): positions, Brier scores and favourite shares."""
    row: list[Any] = [
        label,
        sum(d["games"] for d in runs),
        sum(d.get("positions_after_catch", 0) for d in runs),
    ]
    for kind in KINDS:
        t = totals(runs, kind)
        n = max(t["positions"], 1)
        row += [
            t["positions"],
            f"{t['brier'] / n:.3f}",
            f"{t['uniform'] / n:.3f}",
            f"{100 * t['favourite'] / n:.1f}%",
            f"{100 * t['expected'] / n:.1f}%",
        ]
        if kind == "calibration_estimated":  # the estimates' mean bound, in points
            row.append(f"{100 * t['error'] / n:.1f}")
    return row


def reliability(groups: dict[str, list[dict[str, Any]]]) -> list[list[Any]]:
    """The exact chances' reliability table: per decile, per group, mean chance and hit rate."""
    bins = [totals(runs, KINDS[0])["bins"] for runs in groups.values()]
    return [
        [
            f"{10 * d}-{10 * d + 10}%",
            *(
                f"{n}: {100 * total / n:.1f}% / {100 * hits / n:.1f}%" if n else ""
                for n, total, hits in (group[d] for group in bins)
            ),
        ]
        for d in range(10)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=48, help="games per player count")
    parser.add_argument("--every", type=int, default=10, help="solve every N-th event")
    parser.add_argument("--budget", type=float, default=0.2, help="seconds per solve")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=0, help="processes per run (0: all)")
    parser.add_argument("--out", type=Path, help="keep finished runs here; skip those kept")
    args = parser.parse_args()
    done = finished(args.out)
    groups: dict[str, list[dict[str, Any]]] = {}
    for players in PLAYERS["abbey"]:
        for i, bots in enumerate(LINEUPS["abbey"]):
            games = args.games // 3 + (i < args.games % 3)
            words = command(
                "abbey",
                players,
                bots,
                games,
                args.seed + 1000 * i + players,
                args.workers,
                ["--every", str(args.every), "--budget", str(args.budget)],
            )
            data = done.get(shlex.join(words))
            if data is None:
                data = run(words)
                keep(args.out, data)
            groups.setdefault(f"{players} players", []).append(data)
    every = [data for runs in groups.values() for data in runs]
    headers = [
        "",
        "games",
        "after a catch",
        "exact",
        "Brier",
        "equal",
        "favourite",
        "predicted",
        "estimated",
        "Brier",
        "equal",
        "favourite",
        "predicted",
        "± points",
    ]
    print(
        tabulate(
            [summary_row(label, runs) for label, runs in groups.items()]
            + [summary_row("all", every)],
            headers=headers,
        )
    )
    print()
    print("Exact chances by decile: candidates: mean chance / share that were the culprit")
    print(tabulate(reliability({**groups, "all": every}), headers=["chance", *groups, "all"]))


if __name__ == "__main__":
    main()
