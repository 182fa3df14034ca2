"""Fit the Black Rose liar model on simulated games and write it as a claims file.

Plays ``--games`` games for each player count of ``--players`` (seed
``--seed``, bots ``--bots``) and fits the claims of every role to the true
roles and accomplices. By default it writes the levels mixture of the
bundled default: the ``truthful`` level fitted on those games
(:func:`deduce.games.blackrose.claims.fit_level`: per role, the shares of
claims of guilt and of false claims of each kind) and the levels and prior
of :data:`FIXED` (``random``), which are not fitted (see the file's
``fitted`` note).
``--single`` writes the older one-level form instead
(:func:`deduce.games.blackrose.claims.fit`: per role, the share of false
claims), as the named model ``bots`` is. Check the result on other seeds
with ``deduce check blackrose --model FILE``.

    python tools/blackrose_fit.py --games 1000 --seed 1000 --out deduce/data/blackrose-claims.json
    python tools/blackrose_fit.py --games 1000 --seed 1000 --single --out FILE
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

from deduce.games.blackrose.check import claim_samples
from deduce.games.blackrose.claims import ClaimsModel, Level, Sample, fit, fit_level
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.blackrose.simulate import play
from deduce.games.simulate import run_games
from deduce.logs.formats.blackrose import ROLES

#: A claim that says anything names any suspect and verdict alike, whatever the role: one
#: of guilt half the time; one of innocence false when its suspect is one of the two
#: accomplices of seven, one of guilt when it is one of the five innocents.
RANDOM = Level(
    "random",
    false_rate=dict.fromkeys(ROLES, 2 / 7),
    prior=0.7,
    words="says anything",
    guilty_rate=dict.fromkeys(ROLES, 0.5),
    guilty_false_rate=dict.fromkeys(ROLES, 5 / 7),
)
#: The truthful level's words and prior weight (its rates are fitted).
TRUTHFUL = ("tells the truth", 0.3)
#: The levels that are not fitted, after the truthful one: fixed by reasoning.
FIXED: tuple[Level, ...] = (RANDOM,)
#: The exchangeable prior's concentration: a chosen prior.
CONCENTRATION = 0.5
#: What the fixed levels and the prior are, for the file's ``fitted`` note.
FIXED_NOTE = (
    "Level 'random' not fitted, fixed by reasoning: a claim that says anything names any "
    "suspect and verdict alike whatever the role, so it is one of guilt half the time, "
    "false 2/7 of the time when of innocence and 5/7 when of guilt (it says nothing of the "
    "hidden state). Not fitted either, chosen: the prior (truthful 0.3, random 0.7) and the "
    "concentration 0.5 of the exchangeable prior, picked among a few values (prior 0.2 to "
    "0.6 for truthful, concentration 0.3, 0.5, 1 or none) by `deduce check blackrose` on "
    "200 games per player count and bot line-up at seed 4242, a seed that neither the fit "
    "nor the published figures use: the random, cautious and liar bots' games chose the "
    "prior, and fitted nothing."
)


def sample(game: BlackRoseGame, index: int, seed: int, lineup: tuple[str, ...]) -> Sample:
    """The claims of one simulated game, with the truth."""
    return claim_samples(play(game, index, seed, lineup))


def mixture(samples: list[Sample], where: str) -> ClaimsModel:
    """The truthful level fitted on ``samples``, then :data:`FIXED`, as one model."""
    words, prior = TRUTHFUL
    truthful, note = fit_level(samples, "truthful", words, prior)
    return ClaimsModel((truthful, *FIXED), CONCENTRATION, f"{note}: {where}. {FIXED_NOTE}")


def main() -> None:
    """Simulate, fit, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=1000, help="games per player count (default: 1000)"
    )
    parser.add_argument(
        "--players", default="3,4,5", help="comma-separated player counts (default: 3,4,5)"
    )
    parser.add_argument("--seed", type=int, default=1000, help="seed of the games (default: 1000)")
    parser.add_argument(
        "--bots", default="advised", help="the bot at every seat (default: advised)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes to use (default: 1)")
    parser.add_argument(
        "--single",
        action="store_true",
        help="write one level of false rates per role (the older form)",
    )
    parser.add_argument("--out", type=Path, required=True, help="the claims file to write")
    args = parser.parse_args()
    start = time.perf_counter()
    samples: list[Sample] = []
    for players in (int(n) for n in args.players.split(",")):
        samples += run_games(
            sample,
            BlackRoseGame.create(players),
            args.games,
            args.seed,
            (args.bots,) * players,
            workers=args.workers,
        )
    where = (
        f"{args.games} games per player count ({args.players}), bots {args.bots}, seed {args.seed}"
    )
    if args.single:
        fitted = fit(samples)
        data = replace(fitted, fitted=f"{fitted.fitted}: {where}").to_json()
    else:
        data = mixture(samples, where).to_json()
    args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(data, indent=2))
    print(f"{len(samples)} games, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
