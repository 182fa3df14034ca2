"""The order in which the card-by-card count takes the cards.

The count's cost is the number of distinct open-tally states, layer after
layer, so a good order closes tallies early. :func:`card_order` starts from
a greedy order (each next card leaves the fewest tallies open) and anneals
it by moves of one card to another place, scoring every order with
:func:`order_cost`: for each layer, the product over the open tallies of
how many values each can still take (a bound on the states, blind to how
the tallies constrain each other), summed over the layers in log space.
The score of one order is a few array operations, so a few thousand moves
cost tens of milliseconds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from random import Random

import numpy as np

#: Annealing moves per card to order (the whole run is bounded by ``MAX_MOVES``).
MOVES_PER_CARD = 120
MAX_MOVES = 4000


def order_cost(able: np.ndarray, lo: np.ndarray, hi: np.ndarray, orders: np.ndarray) -> np.ndarray:
    """The log of the summed state bound of each order (a row of ``orders``).

    ``able[j, c]`` says that card ``c`` can count in tally ``j``; ``lo`` and
    ``hi`` are the tallies' bounds. After the ``i``-th card of an order,
    tally ``j`` has seen ``a`` able cards and has ``b`` to come; its value
    lies in ``[max(0, lo - b), min(hi, a)]``.
    """
    seen = np.cumsum(able[:, orders], axis=2)  # tally x order x position
    left = seen[:, :, -1:] - seen
    open_ = (seen > 0) & (left > 0)
    values = np.minimum(hi[:, None, None], seen) - np.maximum(0, lo[:, None, None] - left) + 1
    logs = np.where(open_, np.log(np.maximum(values, 1)), 0.0).sum(axis=0)
    peak = logs.max(axis=1, keepdims=True)
    return (peak + np.log(np.exp(logs - peak).sum(axis=1, keepdims=True)))[:, 0]


def greedy_order(able: np.ndarray, sizes: Sequence[int]) -> list[int]:
    """Columns of ``able`` in a greedy order: each next card leaves the fewest tallies open.

    Ties go to the card with the smaller domain (``sizes``), then to the
    lower index.
    """
    n = able.shape[1]
    left = able.sum(axis=1).astype(np.int64)
    started = np.zeros(able.shape[0], dtype=bool)
    pending = sorted(range(n), key=lambda c: (sizes[c], c))
    order: list[int] = []
    while pending:
        best, best_open = pending[0], None
        for c in pending:
            col = able[:, c]
            still = int(np.count_nonzero((started | col) & (left - col > 0)))
            if best_open is None or still < best_open:
                best, best_open = c, still
        pending.remove(best)
        order.append(best)
        started |= able[:, best]
        left -= able[:, best]
    return order


def card_order(
    able: np.ndarray,
    lo: Sequence[int],
    hi: Sequence[int],
    sizes: Sequence[int],
    anneal: bool = True,
    seed: int = 0,
) -> list[int]:
    """The columns of ``able`` (tallies x cards) in the order the count should take them.

    The greedy order, annealed unless ``anneal`` is false (see the module
    docstring). Deterministic for a seed.
    """
    order = greedy_order(able, sizes)
    n = len(order)
    if not anneal or n < 3 or able.shape[0] == 0:
        return order
    lo_a, hi_a = np.asarray(lo, dtype=np.int64), np.asarray(hi, dtype=np.int64)
    current = np.array(order)
    cost = float(order_cost(able, lo_a, hi_a, current[None])[0])
    best, best_cost = current, cost
    rng = Random(seed)
    moves = min(MAX_MOVES, MOVES_PER_CARD * n)
    for step in range(moves):
        heat = 1.0 - step / moves + 1e-3
        i, j = rng.randrange(n), rng.randrange(n)
        if i == j:
            continue
        trial = np.insert(np.delete(current, i), j, current[i])
        trial_cost = float(order_cost(able, lo_a, hi_a, trial[None])[0])
        if trial_cost <= cost or rng.random() < math.exp((cost - trial_cost) / heat):
            current, cost = trial, trial_cost
            if cost < best_cost:
                best, best_cost = current, cost
    return [int(c) for c in best]
