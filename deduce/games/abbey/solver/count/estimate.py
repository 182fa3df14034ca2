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

Independent *replicates* (other random streams) give independent estimates,
in rounds of :data:`REPLICATES`, each round with twice the cap of the one
before, up to :data:`MOST_CAP`. The first round runs both counts in turns;
the one with the smaller bound goes on alone while time is left. The answer
pools every replicate of that count: each one's estimated counts, weighted
by its cap, over their weighted totals (a round the deadline cuts short
gives the replicates it finished). Its bound is Student's 95% half-width,
from the replicates' own probabilities: their variance is taken to shrink
as one over the cap (a replicate with twice the cap counts as two),
estimated from each replicate's distance to its round's mean, with as many
degrees of freedom as replicates less rounds. Only rounds whose totals are
steady pool (:data:`STEADY`): a round whose totals scatter has a heavy
tail, the rare replicates that find most of the histories are usually
missing from it, and its spread understates its error. A last round like
that answers alone, its bound never less than its farthest replicate from
the answer. A round whose replicate never had to cut a layer is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from itertools import takewhile
from time import perf_counter
from typing import Literal

import numpy as np

from deduce.games.abbey.solver.count.cardwise import Work, count_by_cards
from deduce.games.abbey.solver.count.forward import Supports, count_forward
from deduce.games.abbey.solver.count.resample import Cap
from deduce.games.abbey.solver.count.turns import each_in_turns
from deduce.games.abbey.solver.model import Domain, Tally
from deduce.games.abbey.solver.timeline import CULPRIT, Timeline

#: The capped counts, by name: card by card (:mod:`cardwise`), and the forward filter over
#: complete states (:mod:`forward`), which keeps states alive where the other dies.
METHODS = ("cards", "forward")
#: Independent replicates per round.
REPLICATES = 4
#: The first round's cap; each next round doubles it, up to ``MOST_CAP``.
FIRST_CAP = 1 << 12
#: The largest cap: later rounds keep it (a layer's merge holds about a hundred bytes a row,
#: and a state can have hundreds of children: past it, a long estimate would pass 1 GB).
MOST_CAP = 1 << 17
#: The most a round's totals may vary (their standard deviation over their mean) for it to
#: pool with others: past it, the replicates' law has a heavy tail, which their spread
#: understates (the rare replicates that find most of the histories are missing).
STEADY = 1.0
#: Student's t at 97.5%, by degrees of freedom (past the last: the last, which is wider).
STUDENT = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)


@dataclass(frozen=True)
class Estimate:
    """Each card's current-holder probabilities, with bounds (95% confidence).

    ``error`` bounds every probability, ``culprit_error`` the culprit
    slot's; both are 0 when ``exact``. ``cap`` is the cap of the last round
    pooled.
    """

    probabilities: list[dict[int, float]]
    exact: bool
    error: float
    culprit_error: float
    cap: int


@dataclass(frozen=True)
class Replicate:
    """One capped run: its cap, estimated total and counts (``table[card, holder]``).

    ``cut``: whether it resampled a layer (if not, it is exact).
    """

    cap: int
    total: float
    table: np.ndarray
    cut: bool


def estimate_histories(
    domains: Sequence[Domain],
    tallies: Sequence[Tally],
    holders: int,
    deadline: float,
    seed: int = 0,
    first_cap: int = FIRST_CAP,
    last_cap: int | None = None,
    replicates: int = REPLICATES,
    timeline: Timeline | None = None,
    supports: Supports | None = None,
    methods: Sequence[str] = METHODS,
    progress: Callable[[Estimate], None] | None = None,
) -> Generator[None, None, Estimate | None]:
    """The best estimate by ``deadline``, or None when none could be made by then.

    A generator that pauses after each slice of work (so that other work
    can run in turns with it) and ends with its answer
    (:func:`~deduce.games.abbey.solver.count.turns.drive` waits for it).

    An estimate needs two replicates of one cap at least. Each round
    doubles the cap up to :data:`MOST_CAP`, and the rounds after it keep
    it; none goes past ``last_cap``. ``domains`` are propagated and
    ``tallies`` exclude redundant ones; ``holders`` is the number of
    holders. The first round runs each of ``methods`` (see :data:`METHODS`;
    ``forward`` needs the ``timeline``, and takes the SAT ``supports`` when
    given) in turns, a slice of work to whichever has used the least time;
    an exact answer ends it at once, else the method whose estimate has the
    smallest bound on the culprit (then on every holder), among those that
    finished, goes on alone, and its replicates of every round are pooled
    (module docstring), those of a round the deadline cut short included.
    Deterministic for a seed (given the replicates that finish).
    ``progress`` is called with the estimate of every round but the last
    (each pools all the rounds before it), as soon as it is made.
    """
    counts: dict[str, Callable[[Cap], Work]] = {
        "cards": lambda cap: count_by_cards(domains, tallies, cap=cap)
    }
    if timeline is not None:
        counts["forward"] = lambda cap: count_forward(domains, tallies, timeline, supports, cap=cap)
    chosen = [m for m in methods if m in counts]
    kept: dict[str, list[Replicate]] = {m: [] for m in chosen}
    best: Estimate | None = None
    cap, again = first_cap, 0  # again: the rounds at this cap before (their streams differ)
    while chosen:
        runs: dict[str, list[Replicate]] = {m: [] for m in chosen}
        ended = yield from _together(
            [
                _round(
                    counts[m],
                    len(domains),
                    holders,
                    cap,
                    [seed, METHODS.index(m), *([again] if again else [])],
                    replicates,
                    runs[m],
                )
                for m in chosen
            ],
            deadline,
        )
        done = {
            m: pool(kept[m] + runs[m], holders)
            for i, m in enumerate(chosen)
            if ended.get(i) == "exact"
            or (ended.get(i) != "died" and _freedom(kept[m] + runs[m]) > 0)
        }
        exact = [e for e in done.values() if e.exact]
        if exact:
            return exact[0]
        if done:  # else every method's replicates died: a larger cap
            method = min(done, key=lambda m: (done[m].culprit_error, done[m].error))
            best, chosen = done[method], [method]
            kept[method] += runs[method]
        if perf_counter() >= deadline or (last_cap is not None and cap >= last_cap):
            return best
        if progress is not None and done and best is not None:
            progress(best)
        grown = min(2 * cap, max(cap, MOST_CAP))
        cap, again = grown, (again + 1 if grown == cap else 0)
    return best


#: How a round ended: a replicate never had to cut (it is exact), every replicate finished,
#: or one died.
Ending = Literal["exact", "done", "died"]
Round = Generator[None, None, Ending]


def _together(rounds: list[Round], deadline: float) -> Generator[None, None, dict[int, Ending]]:
    """Rounds run in turns (:func:`~turns.each_in_turns`) until ``deadline``; how each ended.

    Pauses after each slice. Stops early at an exact replicate. A round
    cut off by the deadline is missing; the replicates it finished are in
    its list already.
    """
    found: dict[int, Ending] = {}
    if perf_counter() < deadline:
        for _ in each_in_turns(rounds, found, lambda ending: ending == "exact"):
            if perf_counter() >= deadline:
                break
            yield
    return found


def _round(
    count: Callable[[Cap], Work],
    cards: int,
    holders: int,
    cap: int,
    seed: list[int],
    replicates: int,
    runs: list[Replicate],
) -> Round:
    """One round of replicates at ``cap`` into ``runs``, pausing between slices.

    It stops after a replicate that never had to cut (it is exact), and
    when a replicate died (every state it kept had no future: its zero
    says nothing of the log, which has histories, and the round is void).
    """
    for r in range(replicates):
        limit = Cap(cap, np.random.default_rng([*seed, cap, r]))
        found = yield from count(limit)
        if found is None:
            return "died"
        total, rows = found
        if not limit.cut:
            runs[:] = [Replicate(cap, total, _table(rows, cards, holders), False)]
            return "exact"
        if not total > 0:
            return "died"
        runs.append(Replicate(cap, total, _table(rows, cards, holders), True))
        yield  # a pause between replicates: a deadline may end the round before the next
    return "done"


def pool(runs: Sequence[Replicate], holders: int) -> Estimate:
    """The estimate of replicates of one count, pooled (module docstring).

    A round is the replicates of one cap. An uncut replicate is exact and
    answers alone. The rounds pool from the last (the largest cap) back to
    the first whose totals are not steady (see :data:`STEADY`); if the
    last round of two replicates or more is not steady, it is judged alone,
    and its bound is never less than its farthest replicate from the
    answer. A round of one replicate (cut short by the deadline) shows no
    spread: it pools with the rounds around it, or not at all.
    """
    uncut = [run for run in runs if not run.cut]
    if uncut:
        run = uncut[0]
        return Estimate(
            _rows(run.table / run.total if run.total else run.table), True, 0.0, 0.0, run.cap
        )
    rounds = [
        [run for run in runs if run.cap == cap]
        for cap in sorted({run.cap for run in runs}, reverse=True)
    ]
    judged = [r for r in rounds if len(r) > 1]  # a lone replicate shows no spread
    alone = bool(judged) and not _steady(judged[0])
    used = judged[:1] if alone else list(takewhile(lambda r: len(r) < 2 or _steady(r), rounds))
    runs = [run for r in used for run in r]
    caps = np.array([run.cap for run in runs], dtype=np.float64)
    totals = np.array([run.total for run in runs])
    tables = np.array([run.table for run in runs])
    mean = (caps[:, None, None] * tables).sum(axis=0) / (caps * totals).sum()
    own = tables / totals[:, None, None]
    squares = np.zeros_like(mean)
    for cap in {run.cap for run in runs}:
        same = own[caps == cap]
        squares += cap * ((same - same.mean(axis=0)) ** 2).sum(axis=0)
    freedom = _freedom(runs)
    if freedom < 1:  # one replicate a round: no spread to bound it by
        bound = np.ones_like(mean)
    else:
        t = STUDENT[min(freedom, len(STUDENT)) - 1]
        bound = np.minimum(t * np.sqrt(squares / freedom / caps.sum()), 1.0)
    if alone:
        bound = np.maximum(bound, np.abs(own - mean).max(axis=0))
    return Estimate(
        _rows(mean), False, float(bound.max()), float(bound[:, CULPRIT].max()), int(caps.max())
    )


def _freedom(runs: Sequence[Replicate]) -> int:
    """The degrees of freedom of replicates' spread: their number less their rounds (caps)."""
    return len(runs) - len({run.cap for run in runs})


def _steady(runs: Sequence[Replicate]) -> bool:
    """Whether a round's totals vary by at most :data:`STEADY` of their mean."""
    totals = np.array([run.total for run in runs])
    return len(runs) > 1 and bool(totals.std(ddof=1) <= STEADY * totals.mean())


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
