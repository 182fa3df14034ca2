"""Two estimators of the culprit probabilities, given the same seconds, against the exact count.

- ``capped``: what ``deduce solve --budget`` does past the exact count: the
  capped counts (:func:`deduce.games.abbey.solver.solve.estimate_solution`), with
  their 95% bound.
- ``importance``: Rao-Blackwellised importance sampling. It draws which
  card each transfer moved, transfer by transfer, uniformly among the cards
  that the SAT model says can still move there (so no draw is wasted),
  then counts the deals that fit exactly with deduce's count; a draw
  weighs that count over the chance of drawing it. It prints the effective
  sample size of the weights.
- ``unigen`` (with ``--unigen N``): N independent, almost uniform histories
  drawn by UniGen (``pip install pyunigen``; hashing with random XOR
  constraints, after an ApproxMC estimate of the count) from the CNF that
  ``counters.py`` gives Ganak, in a child process stopped after
  ``--unigen-seconds``. Not a dependency of deduce.

Positions are the ``--seen`` prefixes of one log, each of which the exact
count must finish (it is the reference):

    python benchmarks/estimators.py tests/data/cases/abbey-3p-01.jsonl --seen 32 --seconds 1 20

    python benchmarks/estimators.py tests/data/cases/abbey-3p-01.jsonl --seen 28 \
        --unigen 10 --unigen-seconds 120
"""

from __future__ import annotations

import argparse
import math
import random
import time
from functools import partial
from math import comb

from counters import projected_cnf, timed

from deduce.games.abbey.solver.count.histories import Counts, count_histories
from deduce.games.abbey.solver.model import Model, build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import SatModel, sat_model
from deduce.games.abbey.solver.solve import estimate_solution
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition, build_timeline
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import read_log


def importance_draw(model: Model, sat: SatModel, rng: random.Random) -> tuple[float, Counts | None]:
    """One draw of the moved cards: its log-chance and the exact counts of the deals left."""
    narrowed = model.copy()
    holders = range(len(model.timeline.holders))
    chance, assumed = 0.0, []
    for t, transfer in enumerate(model.timeline.transfers, 1):
        moving: dict[int, tuple[int, int]] = {}
        for a, b, k in transfer.moves:
            options = [
                c
                for c, d in enumerate(narrowed.domains)
                if c not in moving and (a, b) in d.steps[t - 1]
            ]
            if k == 1 and len(options) > 1:
                options = [
                    c
                    for c in options
                    if sat.satisfiable(extra=[*assumed, sat.step_literal(c, t, a, b)])
                ]
            chosen = rng.sample(options, k)
            chance -= math.log(comb(len(options), k))
            for c in chosen:
                moving[c] = (a, b)
                assumed.append(sat.step_literal(c, t, a, b))
        for c, domain in enumerate(narrowed.domains):
            domain.steps[t - 1] &= {moving[c]} if c in moving else {(h, h) for h in holders}
    if not propagate(narrowed):
        return chance, None
    return chance, count_histories(narrowed, narrowed=True)


def importance(
    model: Model, sat: SatModel, seconds: float, seed: int
) -> tuple[dict[int, float], float]:
    """Culprit probabilities by importance sampling, and the effective sample size."""
    rng = random.Random(seed)
    weights: list[float] = []
    culprit: dict[int, float] = {}
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        chance, counts = importance_draw(model, sat, rng)
        w = 0.0 if counts is None else counts.total * math.exp(-chance)
        weights.append(w)
        for card, row in enumerate(counts.holders if counts else ()):
            culprit[card] = culprit.get(card, 0.0) + row.get(CULPRIT, 0) * math.exp(-chance)
    total = sum(weights)
    ess = total**2 / sum(w * w for w in weights) if total else 0.0
    return ({c: v / total for c, v in culprit.items()} if total else {}), ess


def unigen_draws(path: str, seen: int, draws: int) -> dict[int, float]:
    """Culprit probabilities from ``draws`` UniGen samples of the log's first ``seen`` events."""
    import pyunigen

    model, clauses, holders = projected_cnf(path, seen)
    sampler = pyunigen.Sampler(seed=1)
    for clause in clauses:
        sampler.add_clause(clause)
    samples = sampler.sample(num=draws, sampling_set=holders)[2]
    culprit: dict[int, float] = {}
    for sample in samples:
        true = {lit for lit in sample if lit > 0}
        for card in range(len(model.lits[0])):
            if model.x(card, 0, CULPRIT) in true:
                culprit[card] = culprit.get(card, 0.0) + 1 / len(samples)
    return culprit


def main() -> None:
    """Run both estimators on each position and print their errors."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--seen", type=int, nargs="+", required=True)
    parser.add_argument("--seconds", type=float, nargs="+", default=[1.0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--unigen",
        type=int,
        metavar="N",
        default=0,
        help="also draw N UniGen samples (needs pyunigen)",
    )
    parser.add_argument("--unigen-seconds", type=float, default=120.0)
    args = parser.parse_args()
    log = read_log(args.log)
    setup = setup_from_header(log.header, log.path)
    for seen in args.seen:
        events = log.events[:seen]
        timeline = build_timeline(setup, events, log.path)
        model = build_model(AbbeyPosition(setup, tuple(events), timeline))
        propagate(model)
        exact = count_histories(model, narrowed=True)
        assert exact is not None
        truth = {c: float(row.get(CULPRIT, 0)) for c, row in enumerate(exact.probabilities())}
        for seconds in args.seconds:
            sat = sat_model(AbbeyPosition(setup, tuple(events), timeline))
            possible = sat.closure()
            assert possible is not None
            capped = estimate_solution(
                setup, model, sat.supports, possible, time.perf_counter() + seconds, args.seed
            )
            found = {setup.deck.ids.index(c): float(p) for c, p in capped.culprit.items()}
            error = max(abs(truth[c] - found.get(c, 0.0)) for c in truth)
            print(
                f"{seen} events, {seconds:g} s: capped culprit error {error:.3f} "
                f"(bound {capped.culprit_bound:.3f})"
            )
            drawn, ess = importance(model, sat, seconds, args.seed)
            error = max(abs(truth[c] - drawn.get(c, 0.0)) for c in truth)
            print(
                f"{seen} events, {seconds:g} s: importance culprit error {error:.3f} "
                f"(effective sample size {ess:.1f})",
                flush=True,
            )
        if args.unigen:
            seconds, drawn = timed(
                partial(unigen_draws, draws=args.unigen), args.log, seen, args.unigen_seconds
            )
            if drawn is None:
                print(
                    f"{seen} events: unigen, {args.unigen} samples: none within "
                    f"{args.unigen_seconds:g} s",
                    flush=True,
                )
            else:
                error = max(abs(truth[c] - drawn.get(c, 0.0)) for c in truth)
                print(
                    f"{seen} events: unigen, {args.unigen} samples in {seconds:.1f} s: "
                    f"culprit error {error:.3f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
