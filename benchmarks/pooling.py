"""Pooled replicates against the last round alone: coverage of the bound, and its width.

On positions of whole simulated games whose exact count finishes (the
truth), the capped forward filter runs ``--replicates`` replicates at each
of ``--caps``; they are cut into runs of four replicates per cap, as
:func:`~deduce.games.abbey.solver.count.estimate.estimate_histories` makes
them, and each run is judged two ways:

- ``last``: the last round alone, its bound the larger of Student's
  half-width (3 degrees of freedom) and the farthest replicate from the
  answer (the rule before pooling);
- ``pooled``: :func:`~deduce.games.abbey.solver.count.estimate.pool` over
  every round of the run.

For each it prints the share of the culprit's values within the culprit's
bound, and the median bound; with the median spread of each cap's totals
(their standard deviation over their mean, which :data:`STEADY` judges):

    python benchmarks/pooling.py --positions 5:1:40 4:0:80 4:1:40 5:1:100 6:1:40 \
        --caps 256 512 1024 2048 --replicates 160
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
from chances import Position, at_positions, position, position_arguments
from tabulate import tabulate

from deduce.games.abbey.solver.count.estimate import STEADY, Replicate, pool
from deduce.games.abbey.solver.count.forward import count_forward
from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.count.resample import Cap
from deduce.games.abbey.solver.timeline import CULPRIT

ROUND = 4


def replicates(
    at: Position, caps: list[int], n: int
) -> tuple[np.ndarray, dict[int, list[Replicate | None]]]:
    """The position's exact table, and ``n`` replicates at each cap (None: died)."""
    model, timeline, supports, tallies = at.model, at.timeline, at.supports, at.tallies
    cards, holders = len(model.domains), len(timeline.holders)
    exact = count_histories(model, narrowed=True, supports=lambda: supports)
    assert exact is not None, "the exact count must finish: it is the truth"
    truth = np.zeros((cards, holders))
    for c, row in enumerate(exact.probabilities()):
        for h, p in row.items():
            truth[c, h] = float(p)
    runs: dict[int, list[Replicate | None]] = {}
    for cap in caps:
        runs[cap] = []
        for r in range(n):
            limit = Cap(cap, np.random.default_rng([7, cap, r]))
            work = count_forward(model.domains, tallies, timeline, supports, cap=limit)
            try:
                while True:
                    next(work)
            except StopIteration as done:
                found = done.value
            if found is None or not found[0] > 0:
                runs[cap].append(None)
                continue
            table = np.zeros((cards, holders))
            for c, row in enumerate(found[1]):
                for h, x in row.items():
                    table[c, h] = x
            runs[cap].append(Replicate(cap, found[0], table, limit.cut))
    return truth, runs


def last_alone(runs: list[Replicate]) -> tuple[np.ndarray, float]:
    """The rule before pooling: the last round's answer and culprit bound."""
    totals = np.array([r.total for r in runs])
    own = np.array([r.table / r.total for r in runs])
    mean = np.array([r.table for r in runs]).sum(axis=0) / totals.sum()
    half = 3.182 * own.std(axis=0, ddof=1) / np.sqrt(len(runs))
    bound = np.maximum(np.abs(own - mean).max(axis=0), half)
    return mean, float(bound[:, CULPRIT].max())


def judge(truth: np.ndarray, runs: dict[int, list[Replicate | None]]) -> dict[str, list[float]]:
    """Per rule: each run's share of culprit values covered, and its culprit bound."""
    caps = sorted(runs)
    n = min(len(r) for r in runs.values())
    named = truth[:, CULPRIT] > 0
    out: dict[str, list[float]] = {
        "last covered": [],
        "last bound": [],
        "pooled covered": [],
        "pooled bound": [],
    }
    for start in range(0, n - ROUND + 1, ROUND):
        chunk = {cap: runs[cap][start : start + ROUND] for cap in caps}
        if any(r is None for rs in chunk.values() for r in rs):
            continue  # a replicate died: the estimate voids the round
        kept = [r for cap in caps for r in chunk[cap] if r is not None]
        last = [r for r in chunk[caps[-1]] if r is not None]
        estimate = pool(kept, truth.shape[1])
        pooled = np.array(
            [[row.get(h, 0.0) for h in range(truth.shape[1])] for row in estimate.probabilities]
        )
        for rule, (mean, bound) in (
            ("last", last_alone(last)),
            ("pooled", (pooled, estimate.culprit_error)),
        ):
            miss = np.abs(mean - truth)[named, CULPRIT]
            out[f"{rule} covered"].append(float(np.mean(miss <= bound)))
            out[f"{rule} bound"].append(bound)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    position_arguments(parser)
    parser.add_argument("--caps", type=int, nargs="+", default=[256, 512, 1024, 2048])
    parser.add_argument("--replicates", type=int, default=160)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec, log, k in at_positions(args.positions, args.games, args.seed, Path(tmp)):
            truth, runs = replicates(position(log, k), sorted(args.caps), args.replicates)
            spread = []
            for cap in sorted(runs):
                totals = np.array([r.total for r in runs[cap] if r is not None])
                spread.append(f"{totals.std(ddof=1) / totals.mean():.2f}")
            result = judge(truth, runs)
            rows.append(
                [
                    spec,
                    len(result["pooled bound"]),
                    " ".join(spread),
                    f"{100 * np.mean(result['last covered']):.1f}%",
                    f"{np.median(result['last bound']):.4f}",
                    f"{100 * np.mean(result['pooled covered']):.1f}%",
                    f"{np.median(result['pooled bound']):.4f}",
                ]
            )
            print(*rows[-1], sep="  ", flush=True)
    print(
        tabulate(
            rows,
            headers=[
                "position",
                "runs",
                f"totals' spread by cap (steady <= {STEADY})",
                "last: covered",
                "last: bound",
                "pooled: covered",
                "pooled: bound",
            ],
            tablefmt="github",
        )
    )


if __name__ == "__main__":
    main()
