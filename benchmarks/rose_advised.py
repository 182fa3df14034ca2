"""The advised Rose bot against another: its share of the wins, how often its colour is guessed.

Each seat in turn takes the ``--bot`` and the others the ``--against`` bot,
for ``--games`` / players games each (``deduce simulate rose --bots``,
seed ``--seed``: every seating plays the same deals); the same deals are
also played with ``--against`` in every seat, the baseline table. From
each game's ``truth.json``:

- win share: a seat's share of the wins, a tie split among the tied
  winners; the bot's, the mean of the other seats' at its tables, and a
  seat's share at the baseline table (1 / players, by symmetry);
- guessed right: of the other players' day-7 guesses of the bot's colour,
  the share that were right; of their guesses of another ``--against``
  player's colour at the bot's tables; and of every guess at the baseline
  table (how often the ``--against`` bots guess one of their own);
- its reveals: the share of the bot's revealed markers that are another
  player's colour, and the same for every player at the baseline table;
- the mean final clue score (the lowest wins) of the bot and of the others;
- seconds per game: the simulations' wall time, times the workers, per game.

Each run is one JSON line appended to ``--out``; ``--report FILE`` prints
the table of a results file instead:

    python benchmarks/rose_advised.py --games 1000 --seed 1 \\
        --out benchmarks/results/rose-advised.jsonl
    python benchmarks/rose_advised.py --bot advised-play --against solver --games 200 \\
        --seed 1 --out benchmarks/results/rose-advised.jsonl
    python benchmarks/rose_advised.py --report benchmarks/results/rose-advised.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chances import simulate
from tabulate import tabulate


def share(truth: dict[str, Any], player: str) -> float:
    """The player's share of the game's wins (a tie split among the winners)."""
    winners = truth["winners"]
    return 1 / len(winners) if player in winners else 0.0


def guesses_of(truth: dict[str, Any], player: str) -> dict[str, bool]:
    """Each other player's day-7 guess of ``player``: whether it named their colour."""
    colour = truth["identities"][player]
    return {q: row[player] == colour for q, row in truth["guesses"].items() if q != player}


def mean(values: Sequence[float]) -> float:
    """The mean (0 when there is nothing)."""
    return sum(values) / len(values) if values else 0.0


def standard_error(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values``."""
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1) / len(values))


def reveals(folder: Path, player: str) -> dict[str, list[str]]:
    """Each player's revealed markers, from one player's log of the game (they are public)."""
    found: dict[str, list[str]] = {}
    for line in (folder / f"{player}.jsonl").read_text().splitlines()[1:]:
        event = json.loads(line)
        if event["type"] == "reveal":
            found.setdefault(event["player"], []).append(event["colour"])
    return found


def opponents_revealed(truth: dict[str, Any], player: str) -> list[bool]:
    """Of ``player``'s revealed markers, whether each is another player's colour."""
    theirs = {c for p, c in truth["identities"].items() if p != player}
    return [c in theirs for c in truth["reveals"].get(player, [])]


def play(
    lineup: Sequence[str], games: int, seed: int, workers: int, folder: Path
) -> tuple[list[dict[str, Any]], float]:
    """The truths of ``games`` simulated games of this line-up (with every player's reveals,
    ``reveals``), and the wall time they took."""
    out = folder / "-".join(lineup)
    extra = ["--bots", ",".join(lineup), "--workers", str(workers)]
    started = time.perf_counter()
    simulate("rose", len(lineup), games, seed, out, *extra)
    seconds = time.perf_counter() - started
    truths = []
    for game in sorted(out.glob("game-*")):
        truth = json.loads((game / "truth.json").read_text())
        truths.append({**truth, "reveals": reveals(game, truth["players"][0])})
    return truths, seconds


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Play every seating and the baseline; the figures of the module docstring."""
    per_seat = args.games // args.players
    mine: list[float] = []
    theirs: list[float] = []
    on_bot: list[bool] = []
    on_others: list[bool] = []
    shown_theirs: list[bool] = []
    scores: list[float] = []
    other_scores: list[float] = []
    seconds = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for seat in range(args.players):
            lineup = [args.against] * args.players
            lineup[seat] = args.bot
            truths, took = play(lineup, per_seat, args.seed, args.workers, Path(folder))
            seconds += took
            for truth in truths:
                bot = truth["players"][seat]
                others = [p for p in truth["players"] if p != bot]
                mine.append(share(truth, bot))
                theirs.append(mean([share(truth, p) for p in others]))
                on_bot += guesses_of(truth, bot).values()
                on_others += [
                    right for p in others for q, right in guesses_of(truth, p).items() if q != bot
                ]
                shown_theirs += opponents_revealed(truth, bot)
                scores.append(truth["scores"][bot])
                other_scores.append(mean([truth["scores"][p] for p in others]))
        lineup = [args.against] * args.players
        baseline, _ = play(lineup, per_seat, args.seed, args.workers, Path(folder))
    at_baseline = [
        right
        for truth in baseline
        for p in truth["players"]
        for right in guesses_of(truth, p).values()
    ]
    baseline_theirs = [
        mark
        for truth in baseline
        for p in truth["players"]
        for mark in opponents_revealed(truth, p)
    ]
    win, other = mean(mine), mean(theirs)
    return {
        "game": "rose",
        "players": args.players,
        "bot": args.bot,
        "against": args.against,
        "games": len(mine),
        "seed": args.seed,
        "win_share": round(win, 4),
        "win_share_se": round(standard_error(mine), 4),
        "others_win_share": round(other, 4),
        "fair_share": round(1 / args.players, 4),
        "ratio_to_others": round(win / other, 3) if other else None,
        "ratio_to_fair": round(win * args.players, 3),
        "guessed_right": round(mean(on_bot), 4),
        "guesses_of_bot": len(on_bot),
        "others_guessed_right": round(mean(on_others), 4),
        "baseline_guessed_right": round(mean(at_baseline), 4),
        "opponents_revealed": round(mean(shown_theirs), 4),
        "baseline_opponents_revealed": round(mean(baseline_theirs), 4),
        "score": round(mean(scores), 2),
        "others_score": round(mean(other_scores), 2),
        "seconds_per_game": round(seconds * args.workers / len(mine), 3),
    }


def _share(result: dict[str, Any], key: str) -> str:
    """A share as a percentage, or nothing for a result without it (an older run)."""
    return f"{100 * result[key]:.1f}%" if key in result else ""


def report(results: Sequence[dict[str, Any]]) -> None:
    """One row per run."""
    rows = [
        [
            r["players"],
            f"{r['bot']} vs {r['against']}",
            r["games"],
            f"{100 * r['win_share']:.1f}% ± {196 * r['win_share_se']:.1f}",
            f"{100 * r['others_win_share']:.1f}%",
            f"{r['ratio_to_others']:.2f}x",
            f"{r['ratio_to_fair']:.2f}x",
            f"{100 * r['guessed_right']:.1f}%",
            f"{100 * r['others_guessed_right']:.1f}%",
            f"{100 * r['baseline_guessed_right']:.1f}%",
            _share(r, "opponents_revealed"),
            _share(r, "baseline_opponents_revealed"),
            f"{r['score']:.1f} / {r['others_score']:.1f}",
            f"{r['seconds_per_game']:.2f}",
        ]
        for r in results
    ]
    headings = [
        "players",
        "bots",
        "games",
        "win share (95%)",
        "others' share",
        "ratio",
        "ratio to 1/n",
        "its colour guessed",
        "others' guessed",
        "baseline guessed",
        "its reveals of an opponent's colour",
        "baseline's",
        "clue score / others'",
        "s per game",
    ]
    print(tabulate(rows, headings, tablefmt="github"))


def main() -> None:
    """Measure and append to ``--out``, or print ``--report``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000, help="games in all, every seat alike")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="advised")
    parser.add_argument("--against", default="monk")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path, help="print the table of this results file")
    args = parser.parse_args()
    if args.report:
        lines = args.report.read_text(encoding="utf-8").splitlines()
        report([json.loads(line) for line in lines if line.strip()])
        return
    result = measure(args)
    if args.out:
        with args.out.open("a", encoding="utf-8") as out:
            out.write(json.dumps(result) + "\n")
    report([result])


if __name__ == "__main__":
    main()
