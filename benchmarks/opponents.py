"""What the others know, against what they knew: each opponent's certainty, called and true.

For each player count of ``--players``, ``--games`` simulated games (the
engine's notepad bots, seed ``--seed``), seen by their first player: just
before every ``--every``-th transfer, ``race_of`` (its chains'
histories, :data:`~deduce.games.abbey.solver.opponents.MOST_SAMPLES` a
chain) gives each other player's chance of being certain of the culprit;
the truth is that player's own log at the same moment (the same events,
as they logged them), closed by SAT: certain when it leaves one candidate.
Positions where the culprit is public (everybody is certain, exactly) are
left out. ``--one-per-game`` measures one of a game's positions, drawn
uniformly (seeded by the game), instead of all: the positions of one game
hang together, so one position from each of many games tells more than
every position of a few, for the same time. The histories are weighed by
the others' silence, as ``solve`` weighs them; ``--uniform`` measures the
uniform law instead (the record before the silence). Each position is one JSON
line of ``--out``; ``--report FILE`` prints the scores: the Brier score of
the chances against that of the base rate (the share of opponents
certain, the same for every one), and the reliability by tenths of the chance.
``--observer K`` sees the games by seat ``K`` instead of the first.
``--resume`` skips the games that ``--out`` has rows of already, so that a
long measurement (every tenth of 1,000 four-player games took 80 minutes
on two cores; six players take some five hours) can be stopped
and taken up again.

    python benchmarks/opponents.py --players 4 6 --games 100 --every 10 \\
        --out benchmarks/results/opponents.jsonl
    python benchmarks/opponents.py --players 6 --games 1000 --one-per-game \\
        --out benchmarks/results/opponents-6p.jsonl
    python benchmarks/opponents.py --report benchmarks/results/opponents.jsonl
    python benchmarks/opponents.py --players 6 --games 1000 --one-per-game --uniform \\
        --out benchmarks/results/opponents-6p-uniform.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import tempfile
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise
from pathlib import Path
from time import perf_counter
from typing import Any

import numpy as np
from chances import simulated
from tabulate import tabulate

from deduce.games.abbey.solver.chains import student
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.opponents import (
    CHAINS,
    FLOOR_HISTORIES,
    MOST_SAMPLES,
    SLACK,
    race_of,
)
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import TRANSFERS, AbbeyPosition
from deduce.logs.io import read_log
from deduce.logs.model import Event

#: No deadline to speak of: the chains stop at their number of histories.
SECONDS = 600.0


def before_transfer(events: tuple[Event, ...], n: int) -> list[Event]:
    """The events before the ``n``-th transfer (1-based)."""
    found, seen = [], 0
    for event in events:
        if event.type in TRANSFERS:
            seen += 1
            if seen == n:
                break
        found.append(event)
    return found


def measure_game(
    folder: str,
    every: int,
    seed: int,
    one: bool = False,
    silence: bool = True,
    observer: int = 0,
) -> list[dict[str, Any]]:
    """Every measured position of one simulated game (its folder of logs); ``one``: one of them.

    ``silence``: the histories weighed by the others' silence (False: the uniform law);
    ``observer``: the seat whose log is seen (0: the first player's).
    """
    game = Path(folder)
    players = json.loads((game / "truth.json").read_text())["players"]
    logs = {p: read_log(game / f"{p}.jsonl") for p in players}
    me = players[observer]
    transfers = sum(e.type in TRANSFERS for e in logs[me].events)
    tenths = list(range(every, transfers + 1, every))
    if one and tenths:
        tenths = [random.Random(f"{seed}:{game.name}").choice(tenths)]
    rows = []
    for n in tenths:
        position = AbbeyPosition.of_log(logs[me]).with_events(before_transfer(logs[me].events, n))
        sat = sat_model(position)
        possible = sat.closure()
        model = build_model(position)
        if possible is None or not propagate(model):
            continue
        start = perf_counter()
        raced = race_of(position, sat, possible, model, start + SECONDS, seed, silence=silence)
        if raced is None or all(v.error == 0 for v in raced.views.values()):
            continue
        views = raced.views
        seconds = perf_counter() - start
        for other in (p for p in players if p != me):
            theirs = AbbeyPosition.of_log(logs[other])
            theirs = theirs.with_events(before_transfer(logs[other].events, n))
            truth = len(sat_model(theirs).culprits())
            view = views[other]
            rows.append(
                {
                    "players": len(players),
                    "observer": me,
                    "game": game.name,
                    "transfer": n,
                    "opponent": other,
                    "certain": view.certain,
                    "error": view.error,
                    "candidates": view.candidates,
                    "true_candidates": truth,
                    "seconds": seconds,
                }
            )
    return rows


def resumed(path: str) -> set[tuple[int, str]]:
    """The (players, game) pairs that the results file ``path`` holds whole (none if absent).

    Games are written one after another, so only the last one can have been
    cut short: its rows (and a line cut in the middle) are dropped from the
    file, to be measured again.
    """
    file = Path(path)
    if not file.exists():
        return set()
    # a line without its newline was cut
    lines = [line for line in file.read_text().split("\n")[:-1] if line.strip()]
    rows = [json.loads(line) for line in lines]
    last = (rows[-1]["players"], rows[-1]["game"]) if rows else None
    kept = [line for line, r in zip(lines, rows) if (r["players"], r["game"]) != last]
    file.write_text("".join(line + "\n" for line in kept))
    return {(r["players"], r["game"]) for r in rows} - {last}


#: Draws of the outcomes, each as its chance says, for what calibrated chances would show.
DRAWS = 10_000
#: Resamples of the games, for how far each tenth's share swings with the games drawn.
RESAMPLES = 2_000
#: The target: every tenth with this many predictions or more within ``WITHIN`` of the truth.
FEWEST, WITHIN = 30, 0.10


#: Each tenth's band of its share, (low, high) by tenth, and the share of draws that pass.
Bands = tuple[dict[int, tuple[float, float]], float]
#: Draws made at once: the outcomes of one chunk of draws are held in memory together.
CHUNK = 500


def calibrated_bands(chances: np.ndarray, tenths: np.ndarray, rng: np.random.Generator) -> Bands:
    """Where each tenth's share of sure opponents would fall (95%) if the chances were calibrated.

    The outcomes drawn :data:`DRAWS` times, each sure with its own chance, on
    its own; and the share of those draws in which the ten-point test
    passes (:func:`_bands`). The opponents of one position hang together,
    so the true spread is wider than these bands.
    """
    kept, columns = _columns(tenths)
    drawn = np.concatenate(
        [
            (rng.random((min(CHUNK, DRAWS - done), len(chances))) < chances) @ columns
            for done in range(0, DRAWS, CHUNK)
        ]
    )
    each = np.ones((DRAWS, 1))
    return _bands(kept, each * (chances @ columns), drawn, each * columns.sum(axis=0))


def resampled_bands(
    chances: np.ndarray,
    truth: np.ndarray,
    tenths: np.ndarray,
    games: np.ndarray,
    rng: np.random.Generator,
) -> Bands:
    """Where each tenth's share of sure opponents falls (95%) over the games resampled.

    The games drawn with replacement :data:`RESAMPLES` times (every
    position and opponent of a game together, as they hang together); and
    the share of those resamples in which the ten-point test passes
    (:func:`_bands`): how much the verdict owes to the games drawn.
    """
    names, index = np.unique(games, return_inverse=True)
    weights = rng.multinomial(len(names), np.full(len(names), 1 / len(names)), RESAMPLES)
    kept, columns = _columns(tenths)

    def by_game(values: np.ndarray) -> np.ndarray:
        """Each game's sum of ``values`` in each tenth (game, tenth)."""
        sums = np.zeros((len(names), len(kept)))
        np.add.at(sums, index, values[:, None] * columns)
        return sums

    ones = np.ones(len(chances))
    return _bands(
        kept, weights @ by_game(chances), weights @ by_game(truth), weights @ by_game(ones)
    )


def _columns(tenths: np.ndarray) -> tuple[list[int], np.ndarray]:
    """The tenths that hold predictions, and each prediction's tenth as a 0/1 row over them."""
    kept = sorted(set(tenths.tolist()))
    return kept, (tenths[:, None] == np.array(kept)[None, :]).astype(float)


def _bands(kept: list[int], said: np.ndarray, were: np.ndarray, n: np.ndarray) -> Bands:
    """The bands of the ``kept`` tenths from draws (rows) of their sums, tenth by tenth (columns).

    ``said``: the chances summed; ``were``: the outcomes summed; ``n``: the
    predictions. A draw passes the ten-point test when every tenth of
    :data:`FEWEST` predictions or more in it is within :data:`WITHIN` of its
    mean chance.
    """
    held = n > 0
    shares = np.divide(were, n, out=np.zeros_like(were), where=held)
    means = np.divide(said, n, out=np.zeros_like(said), where=held)
    found = {}
    for j, tenth in enumerate(kept):
        low, high = np.percentile(shares[held[:, j], j], [2.5, 97.5])
        found[tenth] = (float(low), float(high))
    passes = ~held | (n < FEWEST) | (np.abs(shares - means) <= WITHIN)
    return found, float(passes.all(axis=1).mean())


def report(path: str) -> None:
    """The Brier scores and the reliability of a results file, by player count.

    Beside each tenth, two bands of its share of sure opponents (95%):
    :func:`calibrated_bands` (if the chances were calibrated, each outcome
    drawn on its own: too narrow, as the opponents of a position hang
    together) and :func:`resampled_bands` (the games resampled: how far
    the share swings with the games drawn); and, for each, the share of
    draws in which every tenth of :data:`FEWEST` predictions or more is
    within :data:`WITHIN` of its mean chance.
    """
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    rng = np.random.default_rng(0)
    for players in sorted({r["players"] for r in rows}):
        mine = [r for r in rows if r["players"] == players]
        chances = np.array([r["certain"] for r in mine])
        truth = np.array([float(r["true_candidates"] == 1) for r in mine])
        games = np.array([r["game"] for r in mine])
        base = truth.mean()
        brier = float(((chances - truth) ** 2).mean())
        base_brier = base_errors(truth) / len(mine)
        print(
            f"{players} players: {len(mine)} predictions at "
            f"{len({(r['game'], r['transfer']) for r in mine})} positions of "
            f"{len(set(games.tolist()))} games; "
            f"certain {100 * base:.1f}%; Brier {brier:.4f}, base rate {base_brier:.4f} "
            f"(ratio {brier / base_brier if base_brier else float('nan'):.2f}); "
            f"mean bound {sum(r['error'] for r in mine) / len(mine):.3f}"
        )
        tenths = np.minimum((chances * 10).astype(int), 9)
        calibrated, calibrated_pass = calibrated_bands(chances, tenths, rng)
        resampled, resampled_pass = resampled_bands(chances, truth, tenths, games, rng)
        table = []
        for tenth in sorted(set(tenths.tolist())):
            inside = tenths == tenth
            table.append(
                [
                    f"{10 * tenth}-{10 * tenth + 10}%",
                    int(inside.sum()),
                    f"{100 * chances[inside].mean():.1f}%",
                    f"{100 * truth[inside].mean():.1f}%",
                    "{:.0f}-{:.0f}%".format(*(100 * b for b in calibrated[tenth])),
                    "{:.0f}-{:.0f}%".format(*(100 * b for b in resampled[tenth])),
                ]
            )
        headers = [
            "chance",
            "predictions",
            "mean chance",
            "were certain",
            "if calibrated (95%)",
            "games resampled (95%)",
        ]
        print(tabulate(table, headers=headers))
        print(
            f"Every tenth of {FEWEST} predictions or more within {100 * WITHIN:.0f} points: "
            f"in {100 * calibrated_pass:.0f}% of draws were the chances calibrated, "
            f"in {100 * resampled_pass:.0f}% of the games resampled."
        )
        stages(mine, chances, truth)


def base_errors(truth: np.ndarray) -> float:
    """The squared errors summed of the base rate: ``truth``'s own share, said of each."""
    return float(((truth.mean() - truth) ** 2).sum())


#: The stages of a game ``report`` sums the squared errors over: transfers from each on.
STAGES = (0, 20, 40, 60, 80, 100, 120)


def stages(rows: list[dict[str, Any]], chances: np.ndarray, truth: np.ndarray) -> None:
    """Where the squared errors are, by stage of the game, and how much is the chains' noise.

    A stage's ratio is to the squared errors of its own share of certain
    opponents, the whole's to those of the base rate. The noise is each
    chance's variance as its bound says (the bound, less ``SLACK``, is
    Student's 95% half-width of :data:`~deduce.games.abbey.solver.opponents.CHAINS`
    chains' means; a bound at its floor counts none): the chances would
    err by that much less, summed, with histories without end.
    """
    transfers = np.array([r["transfer"] for r in rows])
    errors = (chances - truth) ** 2
    table = []
    for low, high in pairwise((*STAGES, math.inf)):
        inside = (transfers >= low) & (transfers < high)
        if not inside.any():
            continue
        own = base_errors(truth[inside])
        table.append(
            [
                f"{low}-{'' if high == math.inf else int(high) - 1}",
                int(inside.sum()),
                f"{100 * chances[inside].mean():.1f}%",
                f"{100 * truth[inside].mean():.1f}%",
                f"{errors[inside].sum():.1f}",
                f"{errors[inside].sum() / own:.2f}" if own else "-",
            ]
        )
    headers = [
        "transfers",
        "predictions",
        "mean chance",
        "were certain",
        "squared errors",
        "ratio to the stage's base rate",
    ]
    print(tabulate(table, headers=headers))
    half = np.array([r["error"] for r in rows]) - SLACK
    floor = FLOOR_HISTORIES / (CHAINS * MOST_SAMPLES) + 1e-9
    noise = float(np.sum(np.where(half > floor, half / student(CHAINS - 1), 0.0) ** 2))
    without = (errors.sum() - noise) / base_errors(truth)
    print(
        f"Squared errors {errors.sum():.1f}, of which the chains' own noise about {noise:.1f}: "
        f"with histories without end, a ratio of {without:.3f}.\n"
    )


def main() -> None:
    """Measure (``--out``) or report (``--report``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--one-per-game", action="store_true")
    parser.add_argument(
        "--uniform", action="store_true", help="histories not weighed by the others' silence"
    )
    parser.add_argument(
        "--observer", type=int, default=0, help="the seat whose log is seen (0: the first)"
    )
    parser.add_argument("--out")
    parser.add_argument(
        "--resume", action="store_true", help="skip the games --out has rows of already"
    )
    parser.add_argument("--report")
    args = parser.parse_args()
    if args.report:
        report(args.report)
        return
    done = resumed(args.out) if args.resume else set()
    with tempfile.TemporaryDirectory() as folder, open(args.out, "a") as out:
        for players in args.players:
            simulated(players, args.games, args.seed, Path(folder))
            games = sorted(str(g) for g in (Path(folder) / f"{players}p").glob("game-*"))
            if args.resume:
                games = [g for g in games if (players, Path(g).name) not in done]
            with ProcessPoolExecutor(args.workers) as pool:
                jobs = [
                    pool.submit(
                        measure_game,
                        g,
                        args.every,
                        args.seed,
                        args.one_per_game,
                        not args.uniform,
                        args.observer,
                    )
                    for g in games
                ]
                for job in jobs:
                    out.write("".join(json.dumps(row) + "\n" for row in job.result()))
                    out.flush()


if __name__ == "__main__":
    main()
