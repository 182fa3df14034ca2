"""Fit the Rose behaviour model on simulated games and write it as a behaviour file.

Plays ``--games`` games for each player count of ``--players`` (seed
``--seed``, bots ``--bots``), cuts every player's log before the seventh day's
guesses and fits the model's parameters to the true identities by maximum
conditional likelihood (:func:`deduce.games.rose.behaviour.fit`). Check the
result on other seeds with ``deduce check rose --model FILE``.

    python tools/rose_fit.py --games 500 --seed 1000 --out deduce/data/rose-behaviour.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from deduce.games.rose.behaviour import fit
from deduce.games.rose.check import samples
from deduce.games.rose.engine import RoseGame
from deduce.games.rose.simulate import record_game
from deduce.games.simulate import simulate


def main() -> None:
    """Simulate, fit, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per player count")
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--bots", default="monk")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    start = time.perf_counter()
    training = []
    counts = [int(n) for n in args.players.split(",")]
    for players in counts:
        lineup = (args.bots,) * players
        for record in simulate(record_game, RoseGame.create(players), args.games, args.seed,
                               lineup, args.workers):
            training += samples(record)
    model = fit(training)
    note = (f"{model.fitted}: {args.games} games per player count ({args.players}), "
            f"bots {args.bots}, seed {args.seed}, logs cut before the seventh day's guesses")
    data = {**model.to_json(), "fitted": note}
    args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(data, indent=2))
    print(f"{len(training)} logs, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
