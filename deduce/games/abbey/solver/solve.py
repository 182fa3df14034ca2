"""Solve an Abbey log: culprit candidates, current holders, probabilities, conflicts.

The candidate sets (each card's possible current holders, the culprit's
among them) are always exact: they come from the log's SAT model
(:mod:`sat`), in milliseconds. Probabilities are exact unless a time budget
is given and the exact count (:mod:`count`) does not finish within its
share of it; then they are estimated by the capped counts of
:mod:`~count.estimate` (``exact`` false, with ``error``, and the culprit's
own bound), or left out when not even that finished (a budget of 0 asks
for the candidates alone). An inconsistent log gets a minimal conflict
(:mod:`conflict`), on the same kind of SAT model.

Engines: ``sat`` (the default) as above; ``count`` waits for the exact
count and checks that its support is the SAT closure; ``csp`` also searches
the closure with python-constraint (:mod:`csp`) and checks that it agrees.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, partial
from time import perf_counter
from typing import Any, ClassVar

import numpy as np

from deduce.errors import DeduceError, OutOfMemory
from deduce.games.abbey.solver.chains import (
    Carry,
    Farm,
    estimating_by_chains,
    plan_chains,
    pooled,
)
from deduce.games.abbey.solver.count.estimate import Estimate, estimate_histories
from deduce.games.abbey.solver.count.forward import Supports
from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.count.turns import each_in_turns
from deduce.games.abbey.solver.explain import explain_conflict
from deduce.games.abbey.solver.gibbs import Layout
from deduce.games.abbey.solver.model import Model, build_model
from deduce.games.abbey.solver.opponents import OpponentView, Race, race_of
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import SatModel, Warm
from deduce.games.abbey.solver.sat.conflict import find_clash, minimal_conflict
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition
from deduce.logs.formats.abbey import AbbeySetup, Deck
from deduce.logs.model import GameLog
from deduce.memory import VARIABLE, memory_limit, size

ENGINES = ("sat", "count", "csp")
#: Share of the time budget given to the exact count before estimating instead.
EXACT_SHARE = 0.6
#: Budgets up to ``SHORT_BUDGET`` seconds give the exact count ``SHORT_SHARE`` instead: the
#: capped counts' first round takes longer than what is left of them, so an estimate would
#: not come in time (``benchmarks/README.md``: no estimate within 1 s was ever usable that
#: was not exact). The rest is the margin for the exact count's last slice.
SHORT_BUDGET, SHORT_SHARE = 2.0, 0.8
#: The most seconds the exact count gets of any budget: past them, the rest goes to the
#: estimate (a long budget, such as ``play``'s refinement while the player is idle, then
#: shows estimates in seconds, not after minutes of a count that may never end).
EXACT_MOST = 20.0
#: Seconds between two estimates pooled from the chains' processes (and the longest wait
#: for their batches once the capped counts are done).
POLL_SECONDS = 0.5
#: The share of a budget kept for what the others know (when asked for), and the seconds it
#: gets without a budget.
OPPONENTS_SHARE, OPPONENTS_SECONDS = 0.2, 5.0


@dataclass(frozen=True)
class AbbeySolution:
    """What can still be true; impossible entries are left out.

    Probabilities are exact fractions, or floats within ``error`` of the
    truth (95% confidence) when ``exact`` is false; an entry that is possible
    is present even when its estimate is zero. ``culprit_error`` bounds the
    culprit's chances alone (at most ``error``; 0 when they are exact; None:
    the same as ``error``), :attr:`culprit_bound` whichever applies. With
    no estimate at all (a budget too short, or of 0) ``error`` is 1 and the
    probabilities are only placeholders: the candidates are still exact.
    """

    game: ClassVar[str] = "abbey"
    setup: AbbeySetup
    consistent: bool
    culprit: dict[str, Fraction | float] = field(default_factory=dict)
    holders: dict[str, dict[str, Fraction | float]] = field(default_factory=dict)
    conflict: tuple[int, ...] = ()
    explanation: tuple[str, ...] = ()
    exact: bool = True
    error: float = 0.0
    culprit_error: float | None = None
    #: Where the estimate's chains were (for the solve of the log's next position).
    carry: Carry | None = field(default=None, compare=False, repr=False)
    #: What each other player knows (:mod:`opponents`): None when not asked for, empty
    #: when no estimate came in time.
    opponents: dict[str, OpponentView] | None = None

    @property
    def culprit_bound(self) -> float:
        """The bound on the culprit's chances: 0 when they are exact."""
        if self.exact:
            return 0.0
        return self.error if self.culprit_error is None else self.culprit_error

    @property
    def culprit_exact(self) -> bool:
        """Whether the culprit's chances are exact (they may be while the holders' are not)."""
        return self.culprit_bound == 0.0

    @property
    def candidates(self) -> list[str]:
        """Culprit candidates, most probable first (ties in deck order)."""
        order = {cid: i for i, cid in enumerate(self.setup.deck.ids)}
        return sorted(self.culprit, key=lambda c: (-self.culprit[c], order[c]))

    def to_json(self) -> dict[str, Any]:
        """The spec's ``solve --json`` object."""
        if not self.consistent:
            return {
                "game": "abbey",
                "consistent": False,
                "exact": self.exact,
                "conflict": list(self.conflict),
            }
        out: dict[str, Any] = {"game": "abbey", "consistent": True, "exact": self.exact}
        if not self.exact:
            out["error"] = round(self.error, 6)
        out["culprit"] = {
            "candidates": self.candidates,
            "probabilities": {c: float(self.culprit[c]) for c in self.candidates},
        }
        if not self.exact:
            out["culprit"]["exact"] = self.culprit_exact
            if not self.culprit_exact:
                out["culprit"]["error"] = round(self.culprit_bound, 6)
        out["holders"] = {
            card: {h: float(p) for h, p in row.items()} for card, row in self.holders.items()
        }
        if self.opponents:
            out["opponents"] = {p: view.to_json() for p, view in self.opponents.items()}
        return out


def solve_abbey(
    log: GameLog,
    deck: Deck | None = None,
    engine: str = "sat",
    budget: float | None = None,
    seed: int = 0,
    warm: Warm | None = None,
    progress: Callable[[AbbeySolution], None] | None = None,
    jobs: int = 1,
    carry: Carry | None = None,
    opponents: bool = False,
) -> AbbeySolution:
    """Solve a validated abbey log (``deck``: the ``--deck`` deck): see :func:`solve_position`."""
    return solve_position(
        AbbeyPosition.of_log(log, deck),
        engine,
        budget,
        seed,
        warm,
        progress,
        jobs,
        carry,
        opponents,
    )


def solve_position(
    position: AbbeyPosition,
    engine: str = "sat",
    budget: float | None = None,
    seed: int = 0,
    warm: Warm | None = None,
    progress: Callable[[AbbeySolution], None] | None = None,
    jobs: int = 1,
    carry: Carry | None = None,
    opponents: bool = False,
) -> AbbeySolution:
    """Solve an abbey position.

    ``engine`` is one of :data:`ENGINES` (see the module docstring). With
    ``budget`` (seconds) and the ``sat`` engine, the exact count gets part
    of it and, if it cannot finish, the probabilities are estimated (seeded
    by ``seed``) until the budget is spent. ``warm`` keeps the SAT model
    from one position of a log to the next (see :class:`~deduce.games.abbey.solver.sat.cnf.Warm`).
    ``progress`` gets each estimate that comes before the answer (each
    with a smaller bound than the last). ``jobs``: the processes an
    estimate may use (see :func:`estimate_solution`). ``carry``: the
    chains of a solve of an earlier prefix of the same log (its solution's
    :attr:`~AbbeySolution.carry`), which the estimate's chains go on from.
    ``opponents``: also estimate what each other player knows
    (:mod:`opponents`), in the last :data:`OPPONENTS_SHARE` of the budget
    and whatever the chances leave of it (without a budget: for
    :data:`OPPONENTS_SECONDS` once the chances are exact).
    """
    if engine not in ENGINES:
        raise DeduceError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    start = perf_counter()
    setup, path = position.setup, position.path
    sat = (warm or Warm()).model_of(position)
    possible = sat.closure()
    if possible is None:
        conflict = minimal_conflict(position, sat)
        clash = find_clash(position, conflict, sat)
        explanation = explain_conflict(
            setup, position.events, conflict.lines, conflict.transfers, clash
        )
        return AbbeySolution(setup, False, conflict=conflict.lines, explanation=tuple(explanation))
    model = build_model(position)
    if not propagate(model):
        raise DeduceError(
            f"{path}: internal error: propagation refutes a log the SAT "
            "model satisfies; please report this log"
        )
    if engine == "csp":
        from deduce.games.abbey.solver.search.csp import (
            CspEngine,  # python-constraint: only when asked for
        )

        _check_agreement(CspEngine(model).closure(), possible, path, "constraint search")
    chances_budget = budget if budget is None or not opponents else budget * (1 - OPPONENTS_SHARE)
    solution = _probabilities(
        position, engine, chances_budget, seed, progress, jobs, carry, start, sat, possible, model
    )
    if not opponents:
        return solution
    deadline = perf_counter() + OPPONENTS_SECONDS if budget is None else start + budget
    raced = race_of(position, sat, possible, model, deadline, seed) or Race({})
    return replace(solution, opponents=raced.views)


def _probabilities(
    position: AbbeyPosition,
    engine: str,
    budget: float | None,
    seed: int,
    progress: Callable[[AbbeySolution], None] | None,
    jobs: int,
    carry: Carry | None,
    start: float,
    sat: SatModel,
    possible: list[set[int]],
    model: Model,
) -> AbbeySolution:
    """The chances of a consistent position (:func:`solve_position`, after its closure)."""
    setup, path = position.setup, position.path
    exact_until = (
        None
        if budget is None or engine != "sat"
        else start
        + min(EXACT_MOST, budget * (SHORT_SHARE if budget <= SHORT_BUDGET else EXACT_SHARE))
    )
    # the count may ask, and then the estimate: both are done by the budget's end
    supports = cache(partial(sat.supports, None if budget is None else start + budget))
    reporter = Reporter(setup, model, possible, progress)
    watching: list[FarmWatch] = []

    def chains_on_every_core() -> None:
        """Once the count looks long, the chains start in ``jobs`` processes (``jobs`` > 1).

        Their estimates come while the exact count goes on (a thread pools
        them), so that a long count hides nothing that is known. The count
        keeps its core (the chains' processes run at a lower priority);
        once it and the capped counts give way (:func:`estimate_solution`),
        the chains have every core.
        """
        if budget is not None and engine == "sat" and _farm_allowed(jobs, possible):
            plan = plan_chains(
                Layout(model), sat, possible, seed, deadline=start + budget, carried=carry
            )
            watching.append(FarmWatch(Farm(plan, jobs, start + budget), reporter))

    try:
        counts = (
            count_histories(
                model,
                deadline=exact_until,
                narrowed=True,
                supports=supports,
                slow=chains_on_every_core,
            )
            if budget is None or budget > 0
            else None
        )
        if counts is None and budget is None:  # no deadline: the count ran out of memory
            raise OutOfMemory(
                f"{path}: counting every history exactly needs more than "
                f"{size(memory_limit() or 0)} of memory here; give --budget "
                f"SECONDS to estimate the probabilities instead (or set "
                f"{VARIABLE}, in megabytes)"
            )
        if counts is None:
            return estimate_solution(
                setup,
                model,
                supports,
                possible,
                start + (budget or 0),
                seed,
                reporter,
                sat,
                watching[0] if watching else None,
                carry,
            )
    finally:
        for watch in watching:
            watch.close()
    if engine == "count":
        _check_agreement([set(row) for row in counts.holders], possible, path, "exact count")
    return _solution(setup, model, counts.probabilities())


def _candidates(possible: Sequence[set[int]]) -> int:
    """How many cards can be the culprit, by the closure."""
    return sum(CULPRIT in row for row in possible)


def _farm_allowed(jobs: int, possible: Sequence[set[int]]) -> bool:
    """Whether chains may run in processes of their own here.

    They need more than one job, more than one candidate, and a process
    that may have children (a daemonic one, such as a Dask worker's, may
    not: its chains run in turns with the capped counts instead).
    """
    return jobs > 1 and _candidates(possible) > 1 and not multiprocessing.current_process().daemon


def _solution(
    setup: AbbeySetup,
    model: Model,
    probabilities: Sequence[Mapping[int, Fraction | float]],
    error: float | None = None,
    culprit_error: float | None = None,
) -> AbbeySolution:
    """The solution object from each card's current-holder probabilities.

    ``error`` (None: exact) bounds every estimate; ``culprit_error`` the
    culprit's (None: the same). A card left one possible holder has it
    surely, estimate or not: so has the culprit slot when one candidate is
    left.
    """
    probabilities = [{h: 1 for h in row} if len(row) == 1 else row for row in probabilities]
    if error is not None and all(len(row) == 1 for row in probabilities):
        error = None
    names = model.timeline.holders
    holders = {
        card: {names[h]: p for h, p in row.items()}
        for card, row in zip(setup.deck.ids, probabilities)
    }
    culprit = {
        card: row[CULPRIT] for card, row in zip(setup.deck.ids, probabilities) if CULPRIT in row
    }
    if error is None:
        return AbbeySolution(setup, True, culprit, holders)
    if len(culprit) == 1:
        culprit_error = 0.0
    return AbbeySolution(
        setup, True, culprit, holders, exact=False, error=error, culprit_error=culprit_error
    )


def estimate_solution(
    setup: AbbeySetup,
    model: Model,
    supports: Callable[[], Supports | None],
    possible: list[set[int]],
    deadline: float,
    seed: int,
    reporter: Reporter | None = None,
    sat: SatModel | None = None,
    watch: FarmWatch | None = None,
    carried: Carry | None = None,
) -> AbbeySolution:
    """Probabilities estimated until ``deadline``, over the exact closure.

    ``model`` is propagated already; ``supports`` gives the SAT model's
    supports. The capped counts (:mod:`~count.estimate`) and, given the
    log's ``sat`` model and more than one candidate, the block Gibbs
    chains (:mod:`chains`) run in turns, a slice of work to whichever has
    used the least time; an exact answer ends both at once, else the
    estimate with the smallest bound on the culprit (then on every
    holder) answers. When neither gives an estimate in time, or no time
    is left at all (a budget of 0: the SAT supports are not even
    computed), the candidates come alone: even chances as placeholders,
    with an error of 1. The ``reporter`` holds the best so far and tells
    its listener of each estimate on the way that beats every one before.
    Given a ``watch``, the chains run in the processes of its farm while
    this one runs the capped counts, until the chains' estimate beats
    theirs: then this process waits for the farm, whose processes get
    its core (the caller closes the watch);
    ``carried`` chains go on (see :func:`~chains.plan_chains`). Each
    estimate carries where the chains were when it was made
    (:attr:`AbbeySolution.carry`).
    """
    reporter = reporter or Reporter(setup, model, possible, None)
    even = [{h: 1.0 / len(row) for h in sorted(row)} for row in possible]
    if perf_counter() >= deadline:
        return _solution(setup, model, even, 1.0)
    tallies = [t for t in model.tallies if not t.redundant]
    capped: list[Estimate] = []

    def offered(found: Estimate) -> None:
        capped.append(found)
        reporter.offer(found)

    runs = [
        estimate_histories(
            model.domains,
            tallies,
            len(model.timeline.holders),
            deadline,
            seed,
            timeline=model.timeline,
            supports=supports(),
            progress=offered,
        )
    ]
    if watch is None and sat is not None and _candidates(possible) > 1:
        plan = plan_chains(Layout(model), sat, possible, seed, deadline=deadline, carried=carried)
        runs.append(
            estimating_by_chains(plan, deadline, progress=reporter.offer, latest=reporter.latest)
        )
    ended: dict[int, Estimate | None] = {}
    for _ in each_in_turns(runs, ended, lambda found: found is not None and found.exact):
        if perf_counter() >= deadline or (watch is not None and watch.leads(capped)):
            break
    for found in ended.values():
        if found is not None and found.exact:
            return reporter.solution(found)
        reporter.offer(found, quiet=True)
    if watch is not None:
        watch.close(deadline)
    if reporter.found is None:
        return _solution(setup, model, even, 1.0)
    return reporter.solution(reporter.found)


class Reporter:
    """The best estimate so far, on the culprit's bound first, then every holder's.

    Each new best is told to ``progress`` as a solution, as it comes;
    :meth:`offer` may be called from two threads (a :class:`FarmWatch`'s
    and the caller's). ``latest``: the chains' histories, carried by the
    solutions made (:attr:`AbbeySolution.carry`).
    """

    def __init__(
        self,
        setup: AbbeySetup,
        model: Model,
        possible: list[set[int]],
        progress: Callable[[AbbeySolution], None] | None,
    ) -> None:
        self.setup, self.model, self.possible, self.progress = setup, model, possible, progress
        self.found: Estimate | None = None
        self.latest: list[np.ndarray] = []
        self._lock = threading.Lock()

    def solution(self, found: Estimate) -> AbbeySolution:
        """An estimate as a solution, over the exact closure."""
        probabilities = _over(self.possible, found.probabilities)
        if found.exact:
            return _solution(self.setup, self.model, probabilities)
        made = _solution(self.setup, self.model, probabilities, found.error, found.culprit_error)
        return replace(made, carry=Carry(tuple(self.latest))) if self.latest else made

    def offer(self, found: Estimate | None, quiet: bool = False) -> None:
        """Keep ``found`` if it is the best so far (telling ``progress`` unless ``quiet``)."""
        if found is None:
            return
        with self._lock:
            if self.found is not None and (found.culprit_error, found.error) >= (
                self.found.culprit_error,
                self.found.error,
            ):
                return
            self.found = found
            if self.progress is not None and not quiet:
                self.progress(self.solution(found))


class FarmWatch:
    """A thread that pools a farm's batches into a :class:`Reporter` as they come.

    It starts with the farm and runs while the exact count and the capped
    counts hold the caller's thread: the chains' estimates show meanwhile.
    """

    def __init__(self, farm: Farm, reporter: Reporter) -> None:
        self.farm, self.reporter = farm, reporter
        #: The farm's latest pooled estimate.
        self.found: Estimate | None = None
        reporter.latest = farm.latest
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="deduce-chains", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        """Pool what came, now and then, until stopped or the farm is done; then once more."""
        pool_at = 0.0
        while not self._stop.is_set() and self.farm.running:
            if self.farm.collect(POLL_SECONDS / 2) and perf_counter() >= pool_at:
                self.found = pooled(self.farm.batches) or self.found
                self.reporter.offer(self.found)
                pool_at = perf_counter() + POLL_SECONDS
        self.farm.collect()
        self.reporter.offer(pooled(self.farm.batches), quiet=True)

    def leads(self, others: Sequence[Estimate]) -> bool:
        """Whether the farm's estimate beats every one of ``others`` (on the culprit, then all)."""
        found = self.found
        return found is not None and all(
            (found.culprit_error, found.error) < (other.culprit_error, other.error)
            for other in others
        )

    def close(self, deadline: float | None = None) -> None:
        """Wait for the farm until ``deadline`` (None: not at all), then stop it and the thread."""
        if deadline is not None:
            self._thread.join(max(0.0, deadline - perf_counter()))
        self._stop.set()
        self._thread.join()
        self.farm.close()


def _over(
    possible: list[set[int]], estimated: Sequence[Mapping[int, float]]
) -> list[dict[int, Fraction | float]]:
    """Estimated probabilities on the exact closure: every possible holder, 0 where none came."""
    return [
        {h: estimated[card].get(h, 0.0) for h in sorted(holders)}
        for card, holders in enumerate(possible)
    ]


def _check_agreement(
    other: list[set[int]] | None, possible: list[set[int]], path: str, method: str
) -> None:
    """Fail loudly if two engines ever disagree about what is possible."""
    if (other or [set() for _ in possible]) != possible:
        raise DeduceError(
            f"{path}: internal error: the {method} and the SAT closure "
            "disagree on the possible holders; please report this log"
        )
