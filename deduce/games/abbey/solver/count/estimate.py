"""Estimated counting, for positions past the exact count: the capped counts.

Two counts can run with a *cap*: the card-by-card count (:mod:`cardwise`)
and the forward filter over complete states (:mod:`forward`). A layer past
``cap`` states is cut down to ``cap`` by Fearnhead and Clifford's
resampling (:mod:`resample`), guided by each state's chance to complete,
and every kept state carries its survival factor, so the total and every
marginal stay unbiased. The card count's guide looks at each open tally
alone; the forward filter's (:mod:`lookahead`) at the observations of the
transfers to come. Late in a game the card count's replicates often die
(no state they kept has a future) where the forward filter's live on.

Independent *replicates* (other random streams) give independent
estimates: the answer is their summed marginals over their summed totals,
and its bound their spread: Student's 95% half-width over the replicates'
own probabilities, and never less than the farthest replicate from the
answer. The first round runs both counts in turns, and the one with the
smaller bound goes on alone: rounds with a doubled cap follow while time is
left; the last finished round answers. A round whose replicates never had to cut a layer
is exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from time import perf_counter

import numpy as np

from deduce.games.abbey.solver.count.cardwise import Work, count_by_cards
from deduce.games.abbey.solver.count.forward import Supports, count_forward
from deduce.games.abbey.solver.count.resample import Cap
from deduce.games.abbey.solver.model import Domain, Tally
from deduce.games.abbey.solver.timeline import CULPRIT, Timeline

#: The capped counts, by name: card by card (:mod:`cardwise`), and the forward filter over
#: complete states (:mod:`forward`), which keeps states alive where the other dies.
METHODS = ("cards", "forward")
#: Independent replicates per round.
REPLICATES = 4
#: The first round's cap; each next round doubles it.
FIRST_CAP = 1 << 12
#: Student's t at 97.5% for REPLICATES - 1 degrees of freedom.
STUDENT = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 8: 2.365}


@dataclass(frozen=True)
class Estimate:
    """Each card's current-holder probabilities, with bounds (95% confidence).

    ``error`` bounds every probability, ``culprit_error`` the culprit
    slot's; both are 0 when ``exact``. ``cap`` is the cap of the round that
    answered.
    """

    probabilities: list[dict[int, float]]
    exact: bool
    error: float
    culprit_error: float
    cap: int


def estimate_histories(domains: Sequence[Domain], tallies: Sequence[Tally], holders: int,
                       deadline: float, seed: int = 0, first_deadline: float | None = None,
                       first_cap: int = FIRST_CAP, last_cap: int | None = None,
                       replicates: int = REPLICATES, timeline: Timeline | None = None,
                       supports: Supports | None = None,
                       methods: Sequence[str] = METHODS) -> Estimate | None:
    """The best estimate finished by ``deadline``, or None when not even one round finished.

    The first round must finish by ``first_deadline`` (default: the
    deadline), so that a caller can still try something else; no round
    goes past ``last_cap``.
    ``domains`` are propagated and ``tallies`` exclude redundant ones;
    ``holders`` is the number of holders. The first round runs each of
    ``methods`` (see :data:`METHODS`; ``forward`` needs the ``timeline``,
    and takes the SAT ``supports`` when given) in turns, a slice of work to
    whichever has used the least time; an exact answer ends it at once,
    else the estimate whose bound on the culprit (then on every holder) is
    the smallest, among the methods that finished, answers, and the next
    rounds go on with its method alone. Deterministic for a seed (given
    the rounds that finish).
    """
    counts: dict[str, Callable[[Cap], Work]] = {
        "cards": lambda cap: count_by_cards(domains, tallies, cap=cap)}
    if timeline is not None:
        counts["forward"] = lambda cap: count_forward(domains, tallies, timeline, supports,
                                                      cap=cap)
    chosen = [m for m in methods if m in counts]
    best: Estimate | None = None
    cap = first_cap
    while chosen:
        until = (deadline if best is not None or first_deadline is None
                 else min(deadline, first_deadline))
        found = _together({m: _round(counts[m], len(domains), holders, cap,
                                     [seed, METHODS.index(m)], replicates) for m in chosen},
                          until)
        if found is None:
            return best
        exact = [e for e in found.values() if e is not None and e.exact]
        if exact:
            return exact[0]
        done = {m: e for m, e in found.items() if e is not None}
        if done:  # else every method's replicates died: a larger cap
            method = min(done, key=lambda m: (done[m].culprit_error, done[m].error))
            best, chosen = done[method], [method]
        if perf_counter() >= deadline or (last_cap is not None and cap >= last_cap):
            return best
        cap *= 2
    return best


Round = Generator[None, None, "Estimate | None"]


def _together(rounds: dict[str, Round], deadline: float) -> dict[str, Estimate | None] | None:
    """Rounds run in turns, a slice to whichever has used the least time, to their estimates.

    Stops early at an exact estimate (a round that never had to cut); None
    when the deadline comes first and no round has finished yet. Past the
    deadline, the rounds that finished answer.
    """
    spent = dict.fromkeys(rounds, 0.0)
    found: dict[str, Estimate | None] = {}
    while spent:
        if perf_counter() >= deadline:
            return found or None
        m = min(spent, key=spent.__getitem__)
        start = perf_counter()
        try:
            next(rounds[m])
        except StopIteration as done:
            found[m] = done.value
            del spent[m]
            if done.value is not None and done.value.exact:
                break
            continue
        spent[m] += perf_counter() - start
    return found


def _round(count: Callable[[Cap], Work], cards: int, holders: int, cap: int,
           seed: list[int], replicates: int) -> Round:
    """One round of replicates at ``cap``, pausing between slices; its estimate.

    No estimate when a replicate died (every state it kept had no future):
    its zero says nothing of the log, which has histories.
    """
    runs = []
    for r in range(replicates):
        limit = Cap(cap, np.random.default_rng([*seed, cap, r]))
        found = yield from count(limit)
        if found is None:
            return None
        total, rows = found
        if not limit.cut:  # nothing was resampled: the count is exact, one run is enough
            counts = _table(rows, cards, holders)
            return Estimate(_rows(counts / total if total else counts), True, 0.0, 0.0, cap)
        if not total > 0:
            return None
        runs.append((total, _table(rows, cards, holders)))
    totals = np.array([total for total, _ in runs])
    counts = np.array([table for _, table in runs])
    table = counts / totals[:, None, None]
    mean = counts.sum(axis=0) / totals.sum()
    spread = np.abs(table - mean).max(axis=0)
    half = STUDENT.get(replicates, 2.0) * table.std(axis=0, ddof=1) / math.sqrt(replicates)
    bound = np.maximum(spread, half)
    return Estimate(_rows(mean), False, float(bound.max()), float(bound[:, CULPRIT].max()), cap)


def _table(rows: Sequence[dict[int, float]], cards: int, holders: int) -> np.ndarray:
    """A run's (estimated) counts as a cards x holders array."""
    table = np.zeros((cards, holders))
    for c, row in enumerate(rows):
        for h, n in row.items():
            table[c, h] = n
    return table


def _rows(table: np.ndarray) -> list[dict[int, float]]:
    """An array of probabilities as each card's {holder: probability}."""
    return [{h: float(p) for h, p in enumerate(row)} for row in table]
