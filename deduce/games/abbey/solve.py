"""Solve an Abbey log: culprit candidates, current holders, probabilities, conflicts.

Probabilities are exact unless a time budget is given and the exact count
does not finish within its share of it; then they are estimated by
:mod:`sample` (``exact`` false, with ``error``), while the candidate sets
stay exact: they come from the complete search of :mod:`search`. Callers
that must never wait past the budget (the bots, ``deduce check``) ask for
``exact_candidates=False``: then the search stops at the budget too, and a
holder it has not refuted stays listed (the solution's ``candidates_exact``
is false): never a possible holder left out. Only an inconsistent log
still takes as long as its minimal conflict needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from random import Random
from time import perf_counter
from typing import Any

from deduce.errors import DeduceError
from deduce.games.abbey.conflict import minimal_conflict
from deduce.games.abbey.count import count_histories
from deduce.games.abbey.csp import CspEngine
from deduce.games.abbey.deck import Deck
from deduce.games.abbey.explain import explain_conflict
from deduce.games.abbey.model import Model, build_model
from deduce.games.abbey.propagate import propagate
from deduce.games.abbey.sample import sample_holders
from deduce.games.abbey.search import SearchTimeout, closure, find_history
from deduce.games.abbey.setup import AbbeySetup, setup_from_header
from deduce.games.abbey.timeline import CULPRIT, build_timeline
from deduce.logs.model import GameLog

ENGINES = ("count", "csp")
#: Share of the time budget given to the exact count before estimating instead.
EXACT_SHARE = 0.6
#: Share of what is left of the budget for sampling when the closure must fit in it too.
SAMPLING_SHARE = 0.7
#: Independent Markov chains behind an estimate.
CHAINS = 4


@dataclass(frozen=True)
class AbbeySolution:
    """What can still be true; impossible entries are left out.

    Probabilities are exact fractions, or floats within ``error`` of the
    truth (95% confidence) when ``exact`` is false; an entry that is possible
    is present even when its estimate is zero.
    """

    setup: AbbeySetup
    consistent: bool
    culprit: dict[str, Fraction | float] = field(default_factory=dict)
    holders: dict[str, dict[str, Fraction | float]] = field(default_factory=dict)
    conflict: tuple[int, ...] = ()
    explanation: tuple[str, ...] = ()
    exact: bool = True
    error: float = 0.0
    candidates_exact: bool = True

    @property
    def candidates(self) -> list[str]:
        """Culprit candidates, most probable first (ties in deck order)."""
        order = {cid: i for i, cid in enumerate(self.setup.deck.ids)}
        return sorted(self.culprit, key=lambda c: (-self.culprit[c], order[c]))

    def to_json(self) -> dict[str, Any]:
        """The spec's ``solve --json`` object."""
        if not self.consistent:
            return {"game": "abbey", "consistent": False, "exact": self.exact,
                    "conflict": list(self.conflict)}
        out: dict[str, Any] = {"game": "abbey", "consistent": True, "exact": self.exact}
        if not self.exact:
            out["error"] = round(self.error, 6)
        out["culprit"] = {"candidates": self.candidates,
                          "probabilities": {c: float(self.culprit[c]) for c in self.candidates}}
        out["holders"] = {card: {h: float(p) for h, p in row.items()}
                          for card, row in self.holders.items()}
        return out


def solve_abbey(log: GameLog, deck: Deck | None = None, engine: str = "count",
                budget: float | None = None, seed: int = 0,
                exact_candidates: bool = True) -> AbbeySolution:
    """Solve a validated abbey log.

    ``engine`` picks how candidates are closed: ``count`` reads them off the
    exact counts; ``csp`` searches python-constraint solutions and checks that
    they agree with the counts (it always counts exactly). With ``budget``
    (seconds), the exact count gets part of it and, if it cannot finish,
    the probabilities are estimated (seeded by ``seed``) until the budget is
    spent; the exact closure may take longer, unless ``exact_candidates`` is
    false (see the module docstring).
    """
    if engine not in ENGINES:
        raise DeduceError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    setup = setup_from_header(log.header, log.path, deck)
    timeline = build_timeline(setup, log.events, log.path)
    model = build_model(setup, timeline, log.events)
    start = perf_counter()
    exact_until = None if budget is None or engine == "csp" else start + budget * EXACT_SHARE
    counts = count_histories(model, deadline=exact_until)
    if counts is None:
        end = start + (budget or 0)
        solution = _estimate(setup, model, end, seed, None if exact_candidates else end)
        if solution is not None:
            return solution
    elif engine == "csp":
        _check_agreement(CspEngine(model).closure(), counts.holders, log.path)
    if counts is None or not counts.total:
        conflict = minimal_conflict(setup, timeline, log.events)
        explanation = explain_conflict(setup, log.events, conflict.lines, conflict.transfers)
        return AbbeySolution(setup, False, conflict=conflict.lines, explanation=tuple(explanation))
    return _solution(setup, model, counts.probabilities())


def _solution(setup: AbbeySetup, model: Model, probabilities: list[dict[int, Fraction | float]],
              error: float | None = None, candidates_exact: bool = True) -> AbbeySolution:
    """The solution object from each card's current-holder probabilities."""
    names = model.timeline.holders
    holders = {card: {names[h]: p for h, p in row.items()}
               for card, row in zip(setup.deck.ids, probabilities)}
    culprit = {card: row[CULPRIT] for card, row in zip(setup.deck.ids, probabilities)
               if CULPRIT in row}
    if error is None:
        return AbbeySolution(setup, True, culprit, holders)
    return AbbeySolution(setup, True, culprit, holders, exact=False, error=error,
                         candidates_exact=candidates_exact)


def _estimate(setup: AbbeySetup, model: Model, deadline: float, seed: int,
              search_deadline: float | None) -> AbbeySolution | None:
    """Estimated probabilities; None when no history exists.

    The candidates are exact unless ``search_deadline`` cut the search short.
    Without a single history found in time, every holder that propagation
    leaves is listed, with the trivial error bound 1 (see :func:`_unknown`).
    """
    base = model.copy()
    if not propagate(base):
        return None
    rng = Random(seed)
    starts = []
    for _ in range(CHAINS):
        try:
            start = find_history(base, Random(rng.random()), search_deadline, propagated=True)
        except SearchTimeout:
            break
        if start is None:
            return None
        starts.append(start)
    if not starts:
        return _solution(setup, model, _unknown(base), 1.0, candidates_exact=False)
    sampling_until = deadline if search_deadline is None else \
        deadline - (deadline - perf_counter()) * (1 - SAMPLING_SHARE)
    found = sample_holders(base, starts, seed, deadline=sampling_until)
    possible = closure(base, witnesses=starts, covered=[set(row) for row in found.probabilities],
                       deadline=search_deadline)
    assert possible is not None  # a history was found above
    probabilities: list[dict[int, Fraction | float]] = [
        {h: found.probabilities[card].get(h, 0.0) for h in sorted(holders)}
        for card, holders in enumerate(possible.possible)]
    return _solution(setup, model, probabilities, found.error, possible.exact)


def _unknown(model: Model) -> list[dict[int, Fraction | float]]:
    """Shares when only propagation is known: the culprit even over its candidates.

    The rest of each card's chance goes evenly to its other possible holders.
    """
    candidates = sum(CULPRIT in d.nodes[-1] for d in model.domains)
    rows: list[dict[int, Fraction | float]] = []
    for domain in model.domains:
        holders = sorted(domain.nodes[-1])
        culprit = 1 / candidates if CULPRIT in holders else 0.0
        others = [h for h in holders if h != CULPRIT]
        row: dict[int, Fraction | float] = {h: (1 - culprit) / len(others) for h in others}
        if CULPRIT in holders:
            row[CULPRIT] = culprit
        rows.append(row)
    return rows


def _check_agreement(closure: list[set[int]] | None, counted: tuple[dict[int, int], ...],
                     path: str) -> None:
    """Fail loudly if the two engines ever disagree about what is possible."""
    support = [set(row) for row in counted]
    if (closure or [set() for _ in counted]) != support:
        raise DeduceError(f"{path}: internal error: the constraint search and the exact count "
                          "disagree on the possible holders; please report this log")
