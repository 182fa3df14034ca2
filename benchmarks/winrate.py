"""Win rates of the Abbey bots against each other, seats rotated, over many seeded games.

Each game seats the bots of ``--lineup`` (one per seat), rotated by one seat
from game to game so that no bot keeps the first seat. A game's winners are
the seats with the highest score (a tie is won by whoever found the culprit;
a tie without a finder is shared). It prints, per bot kind: seats played,
wins, win rate per seat, mean score, correct and wrong accusations per game,
and how often the games ended with the culprit found.

    python benchmarks/winrate.py --players 4 --games 1000 --lineup solver,notepad,notepad,random

A run may be split into parts (``--first``, ``--games``), each appending
its games to a record (``--record``); ``--tally`` prints the table of
records instead of playing, so the parts may run on other cores or days.

Besides the bots of ``simulate --bots``, a lineup may name
``advised-plain-<decision>``: the advised bot with that one decision taken
the solver bot's way, or ``advised-plain-<decision>+<decision>...`` with
several (:func:`deduce.games.abbey.sim.advised.advised_variants`).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabulate import tabulate

from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.sim.advised import advised_variants
from deduce.games.abbey.sim.simulate import BOTS, record_game
from deduce.logs.jsonl import parse_jsonl

#: What a game's record keeps of its truth: enough for the tables and for paired.py.
SUMMARY = ("players", "bots", "scores", "winners", "found")


def seating(lineup: tuple[str, ...], index: int) -> tuple[str, ...]:
    """The seats of game ``index``: ``lineup`` rotated by one seat a game."""
    shift = index % len(lineup)
    return lineup[shift:] + lineup[:shift]


def play(job: tuple[int, int, int, tuple[str, ...], Path | None]) -> dict[str, Any]:
    """One game: the truth summary and the accusations made, by bot kind.

    With a directory (the job's last item), the logs of the lineup's first
    bot kind go there too, as ``game-NNNN.json`` (``certainty.py --logs``).
    """
    players, index, seed, lineup, keep = job
    record = record_game(
        AbbeyGame.create(players),
        index,
        seed,
        seating(lineup, index),
        {**BOTS, **advised_variants(lineup)},
    )
    if keep is not None:
        bots = record.truth["bots"]
        kept = {p: text for p, text in record.logs.items() if bots[p] == lineup[0]}
        (keep / f"game-{index:04d}.json").write_text(
            json.dumps({"bots": bots, "logs": kept}), encoding="utf-8"
        )
    accusations: Counter[tuple[str, bool]] = Counter()
    player, text = next(iter(record.logs.items()))
    for event in parse_jsonl(text, f"{player}.jsonl").events:
        if event.type == "accuse":
            accusations[record.truth["bots"][event.get("player")], event.get("correct")] += 1
    truth = {key: record.truth[key] for key in SUMMARY}
    return {
        "game": index,
        "truth": truth,
        "accusations": [(k, c, n) for (k, c), n in accusations.items()],
    }


def kept_logs(logs: Path) -> Iterator[tuple[Path, str, str]]:
    """Every log that ``--logs`` kept in ``logs``: its game file, player and text."""
    for path in sorted(logs.glob("game-*.json")):
        for player, text in json.loads(path.read_text(encoding="utf-8"))["logs"].items():
            yield path, player, text


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
    """Play the games (or read their records) and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    game_arguments(parser)
    parser.add_argument(
        "--first", type=int, default=1, help="number of the first game (to split a run into parts)"
    )
    parser.add_argument(
        "--record", type=Path, help="append each game's result here, one JSON line a game"
    )
    parser.add_argument(
        "--logs", type=Path, help="keep the logs of the lineup's first bot here (for certainty.py)"
    )
    parser.add_argument(
        "--tally", type=Path, nargs="+", help="print the table of these records instead of playing"
    )
    parser.add_argument("--out", type=Path, help="also write the table (markdown) here")
    args, lineup = parse_games(parser)
    start = time.perf_counter()
    if args.tally:
        results = [
            json.loads(line)
            for path in args.tally
            for line in path.read_text(encoding="utf-8").splitlines()
        ]
        numbers = Counter(result["game"] for result in results)
        twice = sorted(n for n, k in numbers.items() if k > 1)
        if twice:
            parser.error(f"games recorded more than once: {twice[:10]}")
        table = _table(args, tallied(results), start)
        print(table)
    else:
        if args.logs:
            args.logs.mkdir(parents=True, exist_ok=True)
        jobs = [
            (args.players, i, args.seed, lineup, args.logs)
            for i in range(args.first, args.first + args.games)
        ]
        done: list[dict[str, Any]] = []
        with ProcessPoolExecutor(args.workers) as pool:
            for result in pool.map(play, jobs):
                done.append(result)
                if args.record:
                    with args.record.open("a", encoding="utf-8") as out:
                        out.write(json.dumps(result) + "\n")
                if len(done) % 100 == 0 or len(done) == args.games:
                    table = _table(args, tallied(done), start)
                    print(table, flush=True)
    if args.out:
        args.out.write_text(table + "\n", encoding="utf-8")


@dataclass
class Tally:
    """The sums of a run, by bot kind."""

    games: int = 0
    found: int = 0
    seats: Counter[str] = field(default_factory=Counter)
    wins: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    points: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    accused: Counter[tuple[str, bool]] = field(default_factory=Counter)


def tallied(results: list[dict[str, Any]]) -> Tally:
    """The sums of these games' results (as :func:`play` returns them)."""
    tally = Tally()
    for result in results:
        truth = result["truth"]
        bots = truth["bots"]
        for player, kind in bots.items():
            tally.seats[kind] += 1
            tally.points[kind] += truth["scores"][player]
        for player in truth["winners"]:
            tally.wins[bots[player]] += 1 / len(truth["winners"])
        for kind, correct, n in result["accusations"]:
            tally.accused[kind, correct] += n
        tally.found += truth["found"]
        tally.games += 1
    return tally


def _table(args: argparse.Namespace, tally: Tally, start: float) -> str:
    """The results so far: a summary line and a markdown table by bot kind."""
    rows = [
        [
            kind,
            n,
            round(tally.wins[kind], 1),
            f"{100 * tally.wins[kind] / n:.1f}%",
            f"{tally.points[kind] / n:.2f}",
            f"{tally.accused[kind, True] / n:.2f}",
            f"{tally.accused[kind, False] / n:.2f}",
        ]
        for kind, n in sorted(tally.seats.items())
    ]
    table = tabulate(
        rows,
        [
            "bot",
            "seats",
            "wins",
            "wins per seat",
            "mean score",
            "right accusations per seat",
            "wrong accusations per seat",
        ],
        tablefmt="github",
    )
    timing = (
        "" if args.tally else f" {time.perf_counter() - start:.0f} s with {args.workers} workers."
    )
    summary = (
        f"{args.players} players, {tally.games} games (seed {args.seed}, lineup "
        f"{args.lineup}, seats rotated): "
        f"culprit found in {100 * tally.found / max(tally.games, 1):.1f}% of games;"
        f"{timing}"
    )
    return summary + "\n\n" + table


if __name__ == "__main__":
    main()
