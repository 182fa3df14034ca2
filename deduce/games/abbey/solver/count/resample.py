"""Capping a layer of an estimating count: Fearnhead and Clifford's resampling.

An estimating count keeps at most ``limit`` states a layer. Past that, each
state survives with a chance that grows with its weight (times a guide, its
estimated chance to complete), the heaviest ones surely, and a survivor's
weight is divided by its chance: every total and marginal stays unbiased.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Cap:
    """How an estimating count caps its layers.

    ``limit``: the most states a layer keeps; ``rng``: the random stream
    that picks them; ``cut``: set by the count when a layer had to be cut.
    """

    limit: int
    rng: np.random.Generator
    cut: bool = False


def resample(
    weights: np.ndarray, cap: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Fearnhead and Clifford's resampling: at most ``cap`` states kept, unbiasedly.

    A state of weight ``u`` is kept with chance ``min(1, u / c)``, ``c``
    chosen so that the chances add up to ``cap``: the heaviest states
    surely, the others by systematic sampling. Returns the kept indices
    (ascending) and each one's survival factor, the inverse of its chance.
    States of weight zero are never kept.
    """
    alive = np.flatnonzero(weights > 0)
    if len(alive) <= cap:
        return alive, np.ones(len(alive))
    u = weights[alive]
    ranked = np.sort(u)[::-1]
    tail = np.cumsum(ranked[::-1])[::-1]  # tail[k]: the sum of all but the k heaviest
    k = np.arange(cap)
    c = tail[k] / (cap - k)
    sure = int(np.argmax(ranked[k] < c))  # the first k whose own weight is under its c
    threshold = c[sure]
    chance = np.minimum(1.0, u / threshold)
    certain = chance >= 1.0
    doubtful = np.flatnonzero(~certain)
    marks = np.cumsum(chance[doubtful])
    ticks = rng.random() + np.arange(cap - int(certain.sum()))
    picked = doubtful[
        np.unique(np.searchsorted(marks, ticks, side="right").clip(max=len(doubtful) - 1))
    ]
    chosen = np.sort(np.concatenate([np.flatnonzero(certain), picked]))
    return alive[chosen], 1.0 / chance[chosen]
