"""Exact counting of complete histories, and of each card's current holder.

Method: dynamic programming over the cards, one at a time, with the running
*tally* of every constraint that is still open (some card before and some
card after the current one can change it). Within a card, its path is
followed epoch by epoch, so a card with thousands of possible paths costs
only (epochs x holders) steps. Cards whose path is already certain are taken
out first by subtracting them from the tallies. Bounds prune states that can
no longer reach a constraint's range.

A backward pass gives, for every open-tally state before a card, the number
of ways to complete the remaining cards; combined with the forward counts it
gives each card's current-holder marginals exactly (forward-backward).
Counts are exact integers; probabilities are exact fractions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from deduce.games.abbey.model import Domain, Model, Tally
from deduce.games.abbey.propagate import propagate

State = tuple[int, ...]


@dataclass(frozen=True)
class Counts:
    """How many complete histories agree with the model, in total and per (card, current holder)."""

    total: int
    holders: tuple[dict[int, int], ...]  # holders[card][holder index] = histories

    def probabilities(self) -> list[dict[int, Fraction]]:
        """Each card's current-holder distribution (empty dicts when there is no history)."""
        if not self.total:
            return [{} for _ in self.holders]
        return [{h: Fraction(n, self.total) for h, n in sorted(row.items()) if n}
                for row in self.holders]


def count_histories(model: Model) -> Counts:
    """Count the histories of ``model`` (a copy is narrowed first; the argument is untouched)."""
    model = model.copy()
    n_cards = len(model.domains)
    if not propagate(model):
        return Counts(0, tuple({} for _ in range(n_cards)))
    return _Counter(model.domains, [t for t in model.tallies if not t.redundant]).run()


def single_path(domain: Domain) -> tuple[int, ...] | None:
    """The card's path when only one is left, else None."""
    if all(len(nodes) == 1 for nodes in domain.nodes):
        return tuple(next(iter(nodes)) for nodes in domain.nodes)
    return None


class _Counter:
    """One counting run: the card order, open tallies and the forward-backward passes."""

    def __init__(self, domains: Sequence[Domain], tallies: Sequence[Tally]) -> None:
        self.domains = domains
        self.last = len(domains[0].nodes) - 1
        self.fixed = {c: p for c, d in enumerate(domains) if (p := single_path(d)) is not None}
        free = sorted((c for c in range(len(domains)) if c not in self.fixed),
                      key=lambda c: sum(len(n) for n in domains[c].nodes))
        self.order = free
        self.feasible = True
        self.tallies: list[tuple[int, int, list[int], Tally]] = []  # (lo, hi, contributors, t)
        for tally in tallies:
            lo, hi = tally.lo, tally.hi
            for c, path in self.fixed.items():
                if c in tally.cards and tally.hit(path):
                    lo, hi = lo - 1, hi - 1
            able = [i for i, c in enumerate(free) if c in tally.cards and domains[c].can(tally)]
            if not able:
                self.feasible &= lo <= 0 <= hi
            else:
                self.tallies.append((lo, hi, able, tally))
        self._plan()

    def _plan(self) -> None:
        """Per card position: the open tallies before it, and its increments and checks."""
        n = len(self.order)
        span = [(able[0], able[-1]) for _, _, able, _ in self.tallies]
        self.open_before = [[j for j, (a, b) in enumerate(span) if a < i <= b]
                            for i in range(n + 1)]
        self.cards = [self._card_plan(i, span) for i in range(n)]

    def _card_plan(self, i: int, span: list[tuple[int, int]]):
        """Card ``i``'s distinct effects and the checks that close its position."""
        domain = self.domains[self.order[i]]
        active = [j for j, (a, b) in enumerate(span) if a <= i <= b]
        pos = {j: p for p, j in enumerate(active)}
        at_inc: dict[tuple[int, int], list[int]] = defaultdict(list)
        move_inc: dict[tuple[int, int, int], list[int]] = defaultdict(list)
        for j in active:
            if i in self.tallies[j][2]:
                tally = self.tallies[j][3]
                if tally.kind == "at":
                    at_inc[tally.time, tally.holder].append(pos[j])
                else:
                    move_inc[tally.time, tally.holder, tally.dest].append(pos[j])
        his = [self.tallies[j][1] for j in active]
        effects = _effects(domain, at_inc, move_inc, his)
        after = self.open_before[i + 1]
        checks = [(pos[j], self.tallies[j][0], self.tallies[j][1])
                  for j in active if span[j][1] == i]
        checks += [(pos[j], *self._remaining(j, i + 1)) for j in after]
        before = [pos[j] for j in self.open_before[i]]
        return len(active), before, effects, checks, his, [pos[j] for j in after]

    def _remaining(self, j: int, i: int) -> tuple[int, int]:
        """The range a partial tally j must lie in, given what cards at positions >= i can add."""
        lo, hi, able, tally = self.tallies[j]
        later = [k for k in able if k >= i]
        must = sum(self.domains[self.order[k]].must(tally) for k in later)
        return lo - len(later), hi - must

    def chain(self, i: int, state: State) -> dict[tuple[State, int], int]:
        """Card ``i`` applied to an open-tally state: {(next state, final holder): ways}."""
        width, before, effects, checks, his, after = self.cards[i]
        base = [0] * width
        for p, v in zip(before, state):
            base[p] = v
        out: dict[tuple[State, int], int] = defaultdict(int)
        for (inc, holder), ways in effects.items():
            vec = [b + d for b, d in zip(base, inc)]
            if any(v > hi for v, hi in zip(vec, his)):
                continue
            if any(not lo <= vec[p] <= hi for p, lo, hi in checks):
                continue
            out[tuple(vec[p] for p in after), holder] += ways
        return out

    def run(self) -> Counts:
        """Forward pass, backward pass, then exact marginals."""
        n_cards = len(self.domains)
        holders: list[dict[int, int]] = [defaultdict(int) for _ in range(n_cards)]
        if not self.feasible:
            return Counts(0, tuple(dict(h) for h in holders))
        n = len(self.order)
        forward: list[dict[State, int]] = [{(): 1}]
        chains: list[dict[State, dict[tuple[State, int], int]]] = []
        for i in range(n):
            step: dict[State, int] = defaultdict(int)
            made = {s: self.chain(i, s) for s in forward[i]}
            for s, ways in forward[i].items():
                for (s2, _), w in made[s].items():
                    step[s2] += ways * w
            chains.append(made)
            forward.append(step)
        backward: list[dict[State, int]] = [{} for _ in range(n)] + [{(): 1}]
        for i in range(n - 1, -1, -1):
            nxt = backward[i + 1]
            backward[i] = {s: sum(w * nxt.get(s2, 0) for (s2, _), w in made.items())
                           for s, made in chains[i].items()}
        total = backward[0].get((), 0)
        for i, card in enumerate(self.order):
            nxt = backward[i + 1]
            for s, ways in forward[i].items():
                for (s2, h), w in chains[i][s].items():
                    holders[card][h] += ways * w * nxt.get(s2, 0)
        for card, path in self.fixed.items():
            holders[card][path[-1]] = total
        return Counts(total, tuple({h: k for h, k in row.items() if k} for row in holders))


def _effects(domain: Domain, at_inc, move_inc, his: Sequence[int]):
    """Every distinct (tally increments, final holder) a card's paths produce, with path counts.

    The card's paths are followed epoch by epoch, so this costs epochs x holders x
    distinct increments rather than the number of paths.
    """
    width = len(his)

    def bump(vec: State, positions: Sequence[int]) -> State | None:
        out = list(vec)
        for p in positions:
            out[p] += 1
            if out[p] > his[p]:
                return None
        return tuple(out)

    layer: dict[tuple[State, int], int] = defaultdict(int)
    for h in domain.nodes[0]:
        vec = bump((0,) * width, at_inc.get((0, h), ()))
        if vec is not None:
            layer[vec, h] += 1
    for t, step in enumerate(domain.steps, 1):
        nxt: dict[tuple[State, int], int] = defaultdict(int)
        for a, b in step:
            positions = move_inc.get((t, a, b), []) + at_inc.get((t, b), [])
            for (vec, h), ways in layer.items():
                if h == a:
                    new = bump(vec, positions) if positions else vec
                    if new is not None:
                        nxt[new, b] += ways
        layer = nxt
    return dict(layer)
