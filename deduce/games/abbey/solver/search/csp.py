"""The model in python-constraint: one variable per card, one custom counting constraint.

Each card is a variable whose values index its possible paths (after
propagation). A single :class:`TalliesConstraint` holds every tally: it fails
an assignment that can no longer meet some tally's bounds and, when forward
checking, hides the values that would break a tally that has no slack left.
The closure (each card's possible current holders) asks for one solution per
(card, holder) pair that no earlier solution has witnessed yet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from constraint import BacktrackingSolver, Constraint, Problem

from deduce.games.abbey.solver.model import Model, Tally
from deduce.games.abbey.solver.propagate import propagate


class TalliesConstraint(Constraint):
    """Every tally of the model, checked on partial assignments with forward checking."""

    def __init__(
        self, tallies: Sequence[Tally], contributions: Sequence[Sequence[tuple[int, ...]]]
    ) -> None:
        """``contributions[card][value]``: the tallies that path ``value`` of ``card`` counts in."""
        self.tallies = tallies
        self.contributions = contributions

    def __call__(self, variables, domains, assignments, forwardcheck=False) -> bool:  # noqa: D102
        n = len(self.tallies)
        sums = [0] * n
        for card, value in assignments.items():
            for j in self.contributions[card][value]:
                sums[j] += 1
        free = [card for card in variables if card not in assignments]
        while True:  # with forward checking: until no value is hidden
            if any(not domains[card] for card in free):
                return False
            spread = {
                card: Counter(j for value in domains[card] for j in self.contributions[card][value])
                for card in free
            }
            can, must = [0] * n, [0] * n
            for card, hits in spread.items():
                size = len(domains[card])
                for j, k in hits.items():
                    can[j] += 1
                    must[j] += k == size
            for j, tally in enumerate(self.tallies):
                if sums[j] + can[j] < tally.lo or sums[j] + must[j] > tally.hi:
                    return False
            if not forwardcheck or not self._forward_check(domains, sums, can, must, spread):
                return True

    def _forward_check(self, domains, sums, can, must, spread) -> bool:
        """Hide the values that would break a tally with no slack left; whether any was hidden."""
        hidden = False
        for j, tally in enumerate(self.tallies):
            if can[j] == must[j]:
                continue
            if sums[j] + can[j] == tally.lo:
                keep = True
            elif sums[j] + must[j] == tally.hi:
                keep = False
            else:
                continue
            for card, hits in spread.items():
                domain = domains[card]
                if 0 < hits.get(j, 0) < len(domain):
                    for value in domain[:]:
                        if (j in self.contributions[card][value]) != keep:
                            domain.hideValue(value)
                            hidden = True
        return hidden


class CspEngine:
    """Closure by python-constraint over a propagated model."""

    def __init__(self, model: Model) -> None:
        self.model = model.copy()
        self.consistent = propagate(self.model)
        self.tallies = self.model.tallies  # redundant size tallies prune the search too
        self.paths = [d.paths() for d in self.model.domains] if self.consistent else []
        self.contributions = [
            [tuple(j for j, t in enumerate(self.tallies) if c in t.cards and t.hit(p)) for p in ps]
            for c, ps in enumerate(self.paths)
        ]

    def solution(self, model: Model | None = None) -> list[tuple[int, ...]] | None:
        """One complete history (a path per card) within ``model``'s domains, or None."""
        problem = Problem(BacktrackingSolver(forwardcheck=True))
        for c, paths in enumerate(self.paths):
            domain = self.model.domains[c] if model is None else model.domains[c]
            values = [i for i, p in enumerate(paths) if model is None or domain.contains(p)]
            if not values:
                return None
            problem.addVariable(c, values)
        problem.addConstraint(
            TalliesConstraint(self.tallies, self.contributions), list(range(len(self.paths)))
        )
        found = problem.getSolution()
        if found is None:
            return None
        return [self.paths[c][found[c]] for c in range(len(self.paths))]

    def closure(self) -> list[set[int]] | None:
        """Each card's possible current holders, or None when no history exists."""
        if not self.consistent:
            return None
        first = self.solution()
        if first is None:
            return None
        possible = [{path[-1]} for path in first]
        for c, domain in enumerate(self.model.domains):
            for holder in sorted(domain.nodes[-1] - possible[c]):
                narrowed = self.model.copy()
                narrowed.domains[c].nodes[-1] = {holder}
                if not propagate(narrowed):
                    continue
                witness = self.solution(narrowed)
                if witness is not None:
                    for other, path in enumerate(witness):
                        possible[other].add(path[-1])
        return possible
