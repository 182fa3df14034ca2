"""Exact counting, card by card: the method for many cards and few open constraints.

Method: dynamic programming over the cards, one at a time, with the running
*tally* of every constraint that is still open (some card before and some
card after the current one can change it). Each card's paths are folded,
epoch by epoch, into its distinct effects (tally increments and final
holder, with how many paths give each), so a card with thousands of paths
costs only its distinct effects. Cards whose path is certain are taken out
first by subtracting them from the tallies. Bounds prune states that can no
longer reach a constraint's range.

A backward pass gives, for every open-tally state before a card, the number
of ways to complete the remaining cards; combined with the forward counts it
gives each card's current-holder marginals exactly (forward-backward).
The cost grows with the number of distinct open-tally states: every
transfer whose card is unknown adds a tally.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from deduce.games.abbey.model import Domain, Tally

State = tuple[int, ...]
Holders = tuple[dict[int, int], ...]


def count_by_cards(domains: Sequence[Domain], tallies: Sequence[Tally],
                   budget: int | None = None) -> tuple[int, Holders] | None:
    """Histories in total and per (card, current holder); None when a step passes ``budget`` states.

    ``domains`` must already be propagated; ``tallies`` exclude redundant ones.
    """
    return _Counter(domains, tallies).run(budget)


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

    def run(self, budget: int | None) -> tuple[int, Holders] | None:
        """Forward pass, backward pass, then exact marginals (None past ``budget`` states)."""
        n_cards = len(self.domains)
        holders: list[dict[int, int]] = [defaultdict(int) for _ in range(n_cards)]
        if not self.feasible:
            return 0, tuple({} for _ in holders)
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
            if budget is not None and len(step) > budget:
                return None
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
        return total, tuple({h: k for h, k in row.items() if k} for row in holders)


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
