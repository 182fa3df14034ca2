"""Fit the Rose styles model (or the single-style θ model) on simulated games.

Plays ``--games`` games for each player count of ``--players`` (seed
``--seed``) and cuts each game's log before the seventh day's guesses (the
``points`` events are public, so one log per game holds every player's
choices). On the tables of ``--own`` bots
(``monk``) it fits the single-style log-linear model's θ by maximum
conditional likelihood (:func:`deduce.games.rose.behaviour.fit`, every
player's log). With ``--theta`` it writes that model (the form of the named
model ``monk``); by default it writes a styles file
(:mod:`deduce.games.rose.styles`): that θ and the kinds' shares counted on
the ``--own`` tables for the ``own`` style, the shares counted on tables of
``--indifferent`` bots (``random``) for the ``indifferent`` style, and the
prior weights of ``deduce.games.rose.styles.PRIOR`` (chosen, not fitted).
Check the result on other seeds with ``deduce check rose --model FILE``.

    python tools/rose_fit.py --games 500 --seed 1000 --out deduce/data/rose-styles.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from deduce.games.rose.behaviour import Sample, fit
from deduce.games.rose.check import samples
from deduce.games.rose.engine import RoseGame
from deduce.games.rose.simulate import record_game
from deduce.games.rose.styles import PRIOR, StyleModel, fit_own, kind_shares
from deduce.games.simulate import simulate


def training(
    bots: str, counts: list[int], games: int, seed: int, workers: int
) -> list[list[Sample]]:
    """Per game of ``bots`` (``games`` per player count), every player's cut log."""
    return [
        samples(record)
        for players in counts
        for record in simulate(
            record_game, RoseGame.create(players), games, seed, (bots,) * players, workers
        )
    ]


def main() -> None:
    """Simulate, fit, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per player count")
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--own", default="monk", help="bots that play for their own colour")
    parser.add_argument("--indifferent", default="random", help="bots with no sign of colour")
    parser.add_argument("--theta", action="store_true", help="fit the single-style θ model")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    start = time.perf_counter()
    counts = [int(n) for n in args.players.split(",")]
    where = (
        f"{args.games} games per player count ({args.players}), seed {args.seed}, "
        "logs cut before the seventh day's guesses"
    )
    own = training(args.own, counts, args.games, args.seed, args.workers)
    if args.theta:
        model = fit(log for game in own for log in game)
        data = {**model.to_json(), "fitted": f"{model.fitted}: {where}, bots {args.own}"}
    else:
        indifferent = training(args.indifferent, counts, args.games, args.seed, args.workers)
        chosen = fit_own(game[0] for game in own)
        note = (
            f"own: θ and bluff rate fitted by expectation-maximisation over the decoys "
            f"({chosen.players} players, {chosen.rounds} rounds) on {args.own} bots; "
            f"shares of each kind of choice counted with add-one smoothing, own on "
            f"{args.own} bots, indifferent on {args.indifferent} bots; {where}; prior "
            "weights chosen, not fitted (see deduce.games.rose.styles.PRIOR)"
        )
        data = StyleModel(
            kind_shares(game[0] for game in own),
            chosen.theta,
            chosen.bluff,
            kind_shares(game[0] for game in indifferent),
            PRIOR,
            note,
        ).to_json()
    args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(data, indent=2))
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
