"""Fit the Black Rose liar model on simulated games and write it as a claims file.

Plays ``--games`` games for each player count of ``--players`` (seed
``--seed``, bots ``--bots``) and fits each role's rate of false claims to
the true roles and accomplices (:func:`deduce.games.blackrose.claims.fit`).
Check the result on other seeds with ``deduce check blackrose --model FILE``.

    python tools/blackrose_fit.py --games 1000 --seed 1000 \
        --out deduce/data/blackrose-claims-bots.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from deduce.games.blackrose.check import claim_samples
from deduce.games.blackrose.claims import Sample, fit
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.blackrose.simulate import play
from deduce.games.simulate import run_games


def sample(game: BlackRoseGame, index: int, seed: int, lineup: tuple[str, ...]) -> Sample:
    """The claims of one simulated game, with the truth."""
    return claim_samples(play(game, index, seed, lineup))


def main() -> None:
    """Simulate, fit, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--players", default="3,4,5")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--bots", default="advised")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    start = time.perf_counter()
    samples = []
    for players in (int(n) for n in args.players.split(",")):
        samples += run_games(sample, BlackRoseGame.create(players), args.games, args.seed,
                             (args.bots,) * players, workers=args.workers)
    model = fit(samples)
    note = (f"{model.fitted}: {args.games} games per player count ({args.players}), "
            f"bots {args.bots}, seed {args.seed}")
    data = {**model.to_json(), "fitted": note}
    args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(data, indent=2))
    print(f"{len(samples)} games, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
