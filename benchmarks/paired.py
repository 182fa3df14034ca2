"""Two runs of the same games, compared game by game: is one bot's win rate beyond the noise?

Each argument is a record of ``winrate.py --record`` (parts may be given as
several files, joined by ``+``). Both runs must play the same games (players,
seed, seats rotated), with the bot under test first in each lineup, so that
it sits in the same seat of the same deal in both. For every game both runs
played, the bot's share of the win (1, a tie's share, or 0) is paired:

    python benchmarks/paired.py advised6.jsonl solver6.jsonl

It prints both win rates, their difference with its 95% interval (the
normal interval of the mean paired difference: games that both runs win or
both lose add no noise), and the ratio of the rates with a 95% bootstrap
interval over the games; then the bot's mean scores, paired the same way
(a score moves in more games than a win does, so it may show a gap the
wins cannot yet).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

#: Bootstrap resamples of the games, and their seed.
RESAMPLES, SEED = 4000, 1


def first_seat(truth: dict[str, Any], index: int) -> str:
    """The player in the lineup's first bot's seat in game ``index`` (``winrate.seating``)."""
    players = truth["players"]
    return str(players[-(index % len(players)) % len(players)])


def first_seat_wins(results: Sequence[dict[str, Any]]) -> dict[int, float]:
    """Per game number, the win share of the lineup's first bot."""
    wins = {}
    for result in results:
        truth, index = result["truth"], result["game"]
        winners = truth["winners"]
        wins[index] = (first_seat(truth, index) in winners) / len(winners) if winners else 0.0
    return wins


def first_seat_scores(results: Sequence[dict[str, Any]]) -> dict[int, float]:
    """Per game number, the score of the lineup's first bot."""
    return {
        r["game"]: float(r["truth"]["scores"][first_seat(r["truth"], r["game"])]) for r in results
    }


def paired(
    a: dict[int, float], b: dict[int, float]
) -> tuple[list[int], np.ndarray, np.ndarray, float]:
    """The games both runs played, their values in each, and the 95% half-width of the mean
    paired difference (infinite with fewer than two games)."""
    games = sorted(set(a) & set(b))
    x = np.array([a[g] for g in games])
    y = np.array([b[g] for g in games])
    d = x - y
    half = 1.96 * float(d.std(ddof=1)) / np.sqrt(len(d)) if len(d) > 1 else float("inf")
    return games, x, y, half


def compare(a: dict[int, float], b: dict[int, float]) -> dict[str, float]:
    """Win rates, their difference (with a 95% half-width) and the ratio (bootstrap interval)."""
    games, x, y, half = paired(a, b)
    d = x - y
    picks = np.random.default_rng(SEED).integers(0, len(games), (RESAMPLES, len(games)))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = x[picks].mean(axis=1) / y[picks].mean(axis=1)
    low, high = np.nanpercentile(ratios, [2.5, 97.5])
    return {
        "games": len(games),
        "a": float(x.mean()),
        "b": float(y.mean()),
        "difference": float(d.mean()),
        "half_width": half,
        "ratio": float(x.mean() / y.mean()) if y.mean() else float("inf"),
        "ratio_low": float(low),
        "ratio_high": float(high),
    }


def _records(spec: str) -> list[dict[str, Any]]:
    """The results of one run: files joined by ``+``."""
    return [
        json.loads(line)
        for name in spec.split("+")
        for line in Path(name).read_text(encoding="utf-8").splitlines()
    ]


def main() -> None:
    """Read both runs and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the record of the first run (files joined by +)")
    parser.add_argument("b", help="the record of the second run")
    args = parser.parse_args()
    a, b = _records(args.a), _records(args.b)
    found = compare(first_seat_wins(a), first_seat_wins(b))
    print(
        f"{found['games']} games played by both: first seat wins {100 * found['a']:.1f}% "
        f"against {100 * found['b']:.1f}%; difference {100 * found['difference']:+.1f} "
        f"points ± {100 * found['half_width']:.1f} (95%); ratio {found['ratio']:.2f} "
        f"[{found['ratio_low']:.2f}, {found['ratio_high']:.2f}] (95% bootstrap)"
    )
    _, x, y, half = paired(first_seat_scores(a), first_seat_scores(b))
    print(
        f"mean score {x.mean():.2f} against {y.mean():.2f}; difference "
        f"{x.mean() - y.mean():+.2f} ± {half:.2f} (95%)"
    )


if __name__ == "__main__":
    main()
