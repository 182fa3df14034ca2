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
#: Orders whose summed state bound is under this many states are not annealed: the count
#: is cheaper than the annealing.
ANNEAL_ABOVE = 20_000


def order_cost(able: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> float:
    """The log of the summed state bound of an order.

    ``able[j, i]`` says that the ``i``-th card of the order can count in
    tally ``j``; ``lo`` and ``hi`` are the tallies' bounds. After card
    ``i``, tally ``j`` has seen ``a`` able cards and has ``b`` to come; its
    value lies in ``[max(0, lo - b), min(hi, a)]``.
    """
    if able.size == 0:
        return 0.0
    before = np.cumsum(able, axis=1)
    after = before[:, -1:] - before
    open_ = (before > 0) & (after > 0)
    values = np.minimum(hi[:, None], before) - np.maximum(0, lo[:, None] - after) + 1
    logs = np.where(open_, np.log(np.maximum(values, 1)), 0.0).sum(axis=0)
    peak = float(logs.max())
    return peak + math.log(float(np.exp(logs - peak).sum()))


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


def card_order(able: np.ndarray, lo: Sequence[int], hi: Sequence[int], sizes: Sequence[int],
               seed: int = 0) -> list[int]:
    """The columns of ``able`` (tallies x cards) in the order the count should take them.

    The greedy order, annealed (see the module docstring); deterministic for
    a seed.
    """
    lo_a, hi_a = np.asarray(lo, dtype=np.int64), np.asarray(hi, dtype=np.int64)
    order = greedy_order(able, sizes)
    n = len(order)
    if n < 3 or able.shape[0] == 0:
        return order
    cost = order_cost(able[:, order], lo_a, hi_a)
    if cost < math.log(ANNEAL_ABOVE):
        return order
    best, best_cost = list(order), cost
    rng = Random(seed)
    moves = min(MAX_MOVES, MOVES_PER_CARD * n)
    for step in range(moves):
        heat = 1.0 * (1 - step / moves) + 1e-3
        i, j = rng.randrange(n), rng.randrange(n)
        if i == j:
            continue
        trial = list(order)
        trial.insert(j, trial.pop(i))
        trial_cost = order_cost(able[:, trial], lo_a, hi_a)
        if trial_cost <= cost or rng.random() < math.exp((cost - trial_cost) / heat):
            order, cost = trial, trial_cost
            if cost < best_cost:
                best, best_cost = list(order), cost
    return best
