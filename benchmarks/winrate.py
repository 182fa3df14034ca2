"""Win rates of the Abbey bots against each other, seats rotated, over many seeded games.

Each game seats the bots of ``--lineup`` (one per seat), rotated by one seat
from game to game so that no bot keeps the first seat. A game's winners are
the seats with the highest score (a tie is won by whoever found the culprit;
a tie without a finder is shared). It prints, per bot kind: seats played,
wins, win rate per seat, mean score, correct and wrong accusations per game,
and how often the games ended with the culprit found.

    python benchmarks/winrate.py --players 4 --games 1000 --lineup solver,notepad,notepad,random

Besides the bots of ``simulate --bots``, a lineup may name
``advised-plain-<decision>``: the advised bot with that one decision taken
the solver bot's way (:func:`deduce.games.abbey.sim.advised.plain_variants`).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tabulate import tabulate

from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.sim.advised import plain_variants
from deduce.games.abbey.sim.simulate import BOTS, record_game
from deduce.logs.jsonl import parse_jsonl


def seating(lineup: tuple[str, ...], index: int) -> tuple[str, ...]:
    """The seats of game ``index``: ``lineup`` rotated by one seat a game."""
    shift = index % len(lineup)
    return lineup[shift:] + lineup[:shift]


def play(job: tuple[int, int, int, tuple[str, ...]]) -> dict[str, Any]:
    """One game: the truth summary and the accusations made, by bot kind."""
    players, index, seed, lineup = job
    record = record_game(AbbeyGame.create(players), index, seed, seating(lineup, index),
                         {**BOTS, **plain_variants()})
    accusations: Counter[tuple[str, bool]] = Counter()
    player, text = next(iter(record.logs.items()))
    for event in parse_jsonl(text, f"{player}.jsonl").events:
        if event.type == "accuse":
            accusations[record.truth["bots"][event.get("player")], event.get("correct")] += 1
    return {"truth": record.truth, "accusations": [(k, c, n) for (k, c), n in accusations.items()]}


def game_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that pick the games: players, games, seed, lineup, workers."""
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lineup", default="solver,notepad,notepad,random")
    parser.add_argument("--workers", type=int, default=2)


def parse_games(parser: argparse.ArgumentParser) -> tuple[argparse.Namespace, tuple[str, ...]]:
    """The parsed arguments and the lineup, one bot per seat."""
    args = parser.parse_args()
    lineup = tuple(args.lineup.split(","))
    if len(lineup) != args.players:
        parser.error("--lineup needs one bot per seat")
    return args, lineup


def main() -> None:
    """Play the games and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    game_arguments(parser)
    parser.add_argument("--out", type=Path, help="also write the table (markdown) here")
    args, lineup = parse_games(parser)
    start = time.perf_counter()
    seats: Counter[str] = Counter()
    wins: defaultdict[str, float] = defaultdict(float)
    points: defaultdict[str, float] = defaultdict(float)
    accused: Counter[tuple[str, bool]] = Counter()
    found = 0
    jobs = [(args.players, i, args.seed, lineup) for i in range(1, args.games + 1)]
    with ProcessPoolExecutor(args.workers) as pool:
        for done, result in enumerate(pool.map(play, jobs), 1):
            truth = result["truth"]
            bots = truth["bots"]
            for player, kind in bots.items():
                seats[kind] += 1
                points[kind] += truth["scores"][player]
            for player in truth["winners"]:
                wins[bots[player]] += 1 / len(truth["winners"])
            for kind, correct, n in result["accusations"]:
                accused[kind, correct] += n
            found += truth["found"]
            if done % 100 == 0 or done == args.games:
                table = _table(args, done, found, seats, wins, points, accused, start)
                print(table, flush=True)
    if args.out:
        args.out.write_text(table + "\n", encoding="utf-8")


def _table(args: argparse.Namespace, games: int, found: int, seats: Counter[str],
           wins: dict[str, float], points: dict[str, float],
           accused: Counter[tuple[str, bool]], start: float) -> str:
    """The results so far: a summary line and a markdown table by bot kind."""
    rows = [[kind, n, round(wins[kind], 1), f"{100 * wins[kind] / n:.1f}%",
             f"{points[kind] / n:.2f}", f"{accused[kind, True] / n:.2f}",
             f"{accused[kind, False] / n:.2f}"]
            for kind, n in sorted(seats.items())]
    table = tabulate(rows, ["bot", "seats", "wins", "wins per seat", "mean score",
                            "right accusations per seat", "wrong accusations per seat"],
                     tablefmt="github")
    summary = (f"{args.players} players, {games} games (seed {args.seed}, lineup "
               f"{args.lineup}, seats rotated): "
               f"culprit found in {100 * found / games:.1f}% of games; "
               f"{time.perf_counter() - start:.0f} s with {args.workers} workers.")
    return summary + "\n\n" + table


if __name__ == "__main__":
    main()
