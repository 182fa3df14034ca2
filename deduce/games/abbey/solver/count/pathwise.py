"""Exact counting, path by path: the method for many holders and few possible paths.

Every card takes one *path* (its holder at every epoch). Early in a game few
distinct paths are possible at all: staying with each holder, and the few
routes the unseen transfers open. This method takes the possible paths one
at a time and decides how many cards of each *class* take it. A class is a
set of cards that nothing still to come tells apart: the same remaining
compatible paths, the same membership in the tallies still open or to come.
The state is how many cards of each class are still unplaced, plus the
running value of every tally some path has touched and some path still
will; ``x`` cards out of a class of ``n`` are picked in ``C(n, x)`` ways. As
paths are used up, classes merge, so the states stay few even with six
players, where the card-by-card count must tell apart every holder's
running size.

Marginals: cards of one starting class are interchangeable, so each card's
chance to end with a holder is the expected number of its class's cards on
the paths ending there, over the class size. A forward pass carries, per
state, the weighted expected number of each starting class's cards still
unplaced (the picks within a class are uniform, so ``x`` picks out of ``n``
take ``x / n`` of each part); a backward pass weighs every pick by the
number of ways to complete it.

The cost grows with the number of possible paths (every unseen transfer
adds some) and with the number of classes at the start (every question on
a new trait splits them). With too many of either the method steps aside
(returns None).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from fractions import Fraction
from math import comb

from deduce.games.abbey.solver.count.cardwise import SLICE, Holders, single_path
from deduce.games.abbey.solver.model import Domain, Path, Tally

#: Past this many possible paths the method declines.
MAX_PATHS = 160
#: Past this many starting classes the method declines: picks multiply too fast.
MAX_CLASSES = 10
#: Up to this many paths, the path order is chosen by the classes each path leaves.
CLASS_ORDER_PATHS = 40

State = tuple[tuple[int, ...], tuple[int, ...]]  # (unplaced per class, open tally values)
Pick = tuple[tuple[int, int], ...]  # (class, how many) for the classes that take the path


def count_by_paths(
    domains: Sequence[Domain], tallies: Sequence[Tally]
) -> Generator[None, None, tuple[int, Holders] | None]:
    """Count histories in total and per (card, current holder), as a generator.

    Like the other methods it yields after every slice of work; it returns
    ``(total, holders)``, or None when the model has too many possible paths
    for it. ``domains`` must be propagated; ``tallies`` exclude redundant ones.
    """
    plan = _Plan.make(domains, tallies)
    if plan is None:
        return None
    if not plan.feasible:
        return 0, tuple({} for _ in domains)
    return (yield from plan.run())


class _Plan:
    """The path order, the classes at every step and the tally bookkeeping of one run."""

    @classmethod
    def make(cls, domains: Sequence[Domain], tallies: Sequence[Tally]) -> _Plan | None:
        """The plan, or None when there are too many possible paths or starting classes."""
        fixed = {c: p for c, d in enumerate(domains) if (p := single_path(d)) is not None}
        free = [c for c in range(len(domains)) if c not in fixed]
        paths: set[Path] = set()
        for c in free:
            paths.update(_paths(domains[c], MAX_PATHS + 1 - len(paths)))
            if len(paths) > MAX_PATHS:
                return None
        plan = cls(domains, tallies, fixed, free, sorted(paths))
        return plan if len(plan.classes[0]) <= MAX_CLASSES else None

    def __init__(
        self,
        domains: Sequence[Domain],
        tallies: Sequence[Tally],
        fixed: dict[int, Path],
        free: list[int],
        paths: list[Path],
    ) -> None:
        self.n_cards = len(domains)
        self.fixed = fixed
        self.free = free
        self.tallies = list(tallies)
        self.lo, self.hi = [], []
        for tally in tallies:
            done = sum(1 for c, p in fixed.items() if c in tally.cards and tally.hit(p))
            self.lo.append(max(tally.lo - done, 0))
            self.hi.append(tally.hi - done)
        compat = {p: frozenset(c for c in free if domains[c].contains(p)) for p in paths}
        hits = {
            p: [j for j, t in enumerate(tallies) if t.hit(p) and t.cards & compat[p]]
            for p in paths
            if compat[p]
        }
        self.order = _order(list(hits), hits, compat, tallies)
        self.hits = [hits[p] for p in self.order]
        self.compat = [compat[p] for p in self.order]
        # tallies that count every card the path can take: they cap a pick's size
        self.capping = [
            [j for j in js if tallies[j].cards >= cards]
            for js, cards in zip(self.hits, self.compat)
        ]
        self.first: dict[int, int] = {}
        self.last: dict[int, int] = {}
        for i, js in enumerate(self.hits):
            for j in js:
                self.first.setdefault(j, i)
                self.last[j] = i
        self.feasible = all(hi >= 0 for hi in self.hi) and all(
            self.lo[j] == 0 for j in range(len(tallies)) if j not in self.last
        )
        self.classes = [self._classes(i) for i in range(len(self.order) + 1)]
        self.into = [self._merge(i) for i in range(len(self.order))]
        # per step, for each tally the path hits, the classes whose cards it counts
        self.members = [
            [
                (j, {k for k, cards in enumerate(self.classes[i]) if cards[0] in tallies[j].cards})
                for j in self.hits[i]
            ]
            for i in range(len(self.order))
        ]
        self.open = [
            [j for j in sorted(self.last) if self.first[j] < i <= self.last[j]]
            for i in range(len(self.order) + 1)
        ]

    def _classes(self, i: int) -> list[list[int]]:
        """Free cards grouped by what the paths from step ``i`` on can tell apart."""
        live = [j for j, last in self.last.items() if last >= i]
        groups: dict[tuple, list[int]] = {}
        for c in self.free:
            key = (
                tuple(k for k in range(i, len(self.order)) if c in self.compat[k]),
                tuple(c in self.tallies[j].cards for j in live),
            )
            groups.setdefault(key, []).append(c)
        return list(groups.values())

    def _merge(self, i: int) -> list[int]:
        """For each class at step ``i``, the class at step ``i + 1`` that contains it."""
        where = {c: k for k, cards in enumerate(self.classes[i + 1]) for c in cards}
        return [where[cards[0]] for cards in self.classes[i]]

    def _picks(self, i: int, state: State) -> list[tuple[State, int, Pick]]:
        """Path ``i`` applied to a state: [(next state at step i + 1, ways, pick)]."""
        pool, values = state
        classes = self.classes[i]
        path_cards = self.compat[i]
        takers = [k for k, cards in enumerate(classes) if cards[0] in path_cards and pool[k]]
        now = {j: v for j, v in zip(self.open[i], values)}
        members = [(j, [k for k in takers if k in counted]) for j, counted in self.members[i]]
        into = self.into[i]
        cap = min((self.hi[j] - now.get(j, 0) for j in self.capping[i]), default=len(self.free))
        out = []
        for pick, ways in _compositions(takers, pool, cap):
            taken = dict(pick)
            value = dict(now)
            ok = True
            for j, ks in members:
                v = value.get(j, 0) + sum(taken.get(k, 0) for k in ks)
                if v > self.hi[j] or (self.last[j] == i and v < self.lo[j]):
                    ok = False
                    break
                value[j] = v
            if not ok:
                continue
            left = [0] * len(self.classes[i + 1])
            for k, n in enumerate(pool):
                left[into[k]] += n - taken.get(k, 0)
            out.append(((tuple(left), tuple(value[j] for j in self.open[i + 1])), ways, pick))
        return out

    def run(self) -> Generator[None, None, tuple[int, Holders]]:
        """Forward pass with expected class contents, then backward pass with the marginals."""
        steps = len(self.order)
        start_classes = self.classes[0]
        start = (tuple(len(cards) for cards in start_classes), ())
        # inside[state][K]: weighted expected number of starting class K's cards unplaced
        forward: list[dict[State, int]] = [{start: 1}]
        inside: list[dict[State, list[Fraction]]] = [
            {start: [Fraction(len(cards)) for cards in start_classes]}
        ]
        part = [self._parts(i) for i in range(steps + 1)]  # starting classes in each class
        work = 0
        for i in range(steps):
            weights: dict[State, int] = {}
            contents: dict[State, list[Fraction]] = {}
            for state, w in forward[i].items():
                held = inside[i][state]
                picks = self._picks(i, state)
                work += len(picks)
                for nxt, ways, pick in picks:
                    weights[nxt] = weights.get(nxt, 0) + w * ways
                    row = contents.setdefault(nxt, [Fraction(0)] * len(start_classes))
                    kept = _kept(held, pick, state[0], part[i])
                    for K, value in enumerate(kept):
                        if value:
                            row[K] += ways * value
                if work >= SLICE:
                    work = 0
                    yield
            forward.append(weights)
            inside.append(contents)
        done = {s: 1 for s in forward[steps] if not any(s[0])}
        total = sum(forward[steps][s] for s in done)
        on_path: list[dict[int, Fraction]] = [{} for _ in start_classes]
        ahead: dict[State, int] = done
        for i in range(steps - 1, -1, -1):
            behind: dict[State, int] = {}
            final = self.order[i][-1]
            for state in forward[i]:
                held = inside[i][state]
                total_here = 0
                picks = self._picks(i, state)
                work += len(picks)
                for nxt, ways, pick in picks:
                    b = ahead.get(nxt, 0)
                    if not b:
                        continue
                    total_here += ways * b
                    for k, x in pick:
                        for K in part[i][k]:
                            share = held[K] * x / state[0][k]
                            if share:
                                marks = on_path[K]
                                marks[final] = marks.get(final, 0) + ways * b * share
                if work >= SLICE:
                    work = 0
                    yield
                if total_here:
                    behind[state] = total_here
            ahead = behind
        holders: list[dict[int, int]] = [{} for _ in range(self.n_cards)]
        if total:
            for K, cards in enumerate(start_classes):
                per_card = {h: int(n / len(cards)) for h, n in on_path[K].items() if n}
                for c in cards:
                    holders[c] = per_card
            for c, path in self.fixed.items():
                holders[c] = {path[-1]: total}
        return total, tuple(holders)

    def _parts(self, i: int) -> list[list[int]]:
        """For each class at step ``i``, the starting classes it is made of."""
        where = {c: K for K, cards in enumerate(self.classes[0]) for c in cards}
        return [sorted({where[c] for c in cards}) for cards in self.classes[i]]


def _kept(
    held: list[Fraction], pick: Pick, pool: tuple[int, ...], parts: list[list[int]]
) -> list[Fraction]:
    """Expected starting-class contents left unplaced after a pick (uniform within a class)."""
    kept = list(held)
    for k, x in pick:
        for K in parts[k]:
            kept[K] -= held[K] * x / pool[k]
    return kept


def _compositions(takers: Sequence[int], pool: Sequence[int], cap: int) -> list[tuple[Pick, int]]:
    """Every pick of 0..pool[k] cards from each taker class, with its C(n, x) ways."""
    picks: list[tuple[Pick, int, int]] = [((), 1, 0)]
    for k in takers:
        picks = [
            ((*pick, (k, x)) if x else pick, ways * comb(pool[k], x), total + x)
            for pick, ways, total in picks
            for x in range(min(pool[k], cap - total) + 1)
        ]
    return [(pick, ways) for pick, ways, _ in picks]


def _paths(domain: Domain, limit: int) -> list[Path]:
    """The domain's paths, or more than ``limit`` of them when there are too many."""
    partial: list[Path] = [(h,) for h in sorted(domain.nodes[0])]
    for step in domain.steps:
        partial = [(*p, b) for p in partial for a, b in sorted(step) if a == p[-1]]
        if len(partial) > limit:
            return partial
    return partial


def _order(
    paths: list[Path],
    hits: dict[Path, list[int]],
    compat: dict[Path, frozenset[int]],
    tallies: Sequence[Tally],
) -> list[Path]:
    """Paths in an order that merges classes early: each next path leaves the fewest classes.

    Ties go to the path that leaves the fewest tallies open. With many paths
    only the open tallies are weighed, which is cheaper.
    """
    cards = sorted(set().union(*compat.values())) if compat else []
    pending = list(paths)
    order: list[Path] = []
    left = [0] * len(tallies)
    for p in paths:
        for j in hits[p]:
            left[j] += 1

    def score(p: Path) -> tuple[int, int]:
        rest = [q for q in pending if q != p]
        live = [j for j in range(len(tallies)) if left[j] - (j in hits[p]) > 0]
        if len(paths) > CLASS_ORDER_PATHS:
            return 0, len(live)
        keys = {
            (tuple(q for q in rest if c in compat[q]), tuple(c in tallies[j].cards for j in live))
            for c in cards
        }
        return len(keys), len(live)

    while pending:
        path = min(pending, key=score)
        pending.remove(path)
        order.append(path)
        for j in hits[path]:
            left[j] -= 1
    return order
