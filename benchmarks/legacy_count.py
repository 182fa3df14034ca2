"""The exact count as it was before the array version: the yardstick of benchmarks/chances.py.

Frozen copy of the pure-Python card-by-card count (dict loops over packed
integer states), raced, as the count then did, against the epoch-by-epoch
and path-by-path methods (still in the package): :func:`legacy_count`.
Only the benchmarks use it, to time today's count against the old one in
the same run.

Exact counting, card by card: the method for many cards and few open constraints.

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
from collections.abc import Generator, Sequence

from deduce.games.abbey.solver.count.epochwise import count_by_epochs, deal_bound
from deduce.games.abbey.solver.count.histories import EPOCH_DEALS
from deduce.games.abbey.solver.count.pathwise import count_by_paths
from deduce.games.abbey.solver.count.turns import race
from deduce.games.abbey.solver.model import Domain, Model, Tally

Holders = tuple[dict[int, int], ...]


#: Units of work (states, matrices) between two pauses of the counting generators.
SLICE = 200

Work = Generator[None, None, tuple[int, Holders]]


def count_by_cards(domains: Sequence[Domain], tallies: Sequence[Tally]) -> Work:
    """Count histories in total and per (card, current holder), as a generator.

    It yields after every slice of work, so that a caller can run it against
    another method, and returns ``(total, holders)``. ``domains`` must already
    be propagated; ``tallies`` exclude redundant ones.
    """
    return _Counter(domains, tallies).run()


def single_path(domain: Domain) -> tuple[int, ...] | None:
    """The card's path when only one is left, else None."""
    if all(len(nodes) == 1 for nodes in domain.nodes):
        return tuple(next(iter(nodes)) for nodes in domain.nodes)
    return None


def _order(free: list[int], domains: Sequence[Domain], tallies: Sequence[Tally]) -> list[int]:
    """Cards in an order that keeps few tallies open: each next card closes the most.

    A tally is open from its first to its last card that can count in it;
    the greedy choice takes the card that leaves the fewest open, narrower
    domains first among equals.
    """
    able = {
        c: {j for j, t in enumerate(tallies) if c in t.cards and domains[c].can(t)} for c in free
    }
    left = {j: sum(j in able[c] for c in free) for j in range(len(tallies))}
    started: set[int] = set()
    order: list[int] = []
    pending = sorted(free, key=lambda c: sum(len(n) for n in domains[c].nodes))

    def still_open(c: int) -> int:
        return sum(1 for j in started | able[c] if left[j] - (j in able[c]) > 0)

    while pending:
        card = min(pending, key=still_open)
        pending.remove(card)
        order.append(card)
        started |= able[card]
        for j in able[card]:
            left[j] -= 1
    return order


class _Counter:
    """One counting run: card order, the packed state layout, forward and backward passes.

    A state packs the running value ``v`` of every tally into one integer:
    tally ``j`` owns ``width[j]`` bits plus one guard bit above them and
    stores ``v + offset[j]``, where the offset makes ``v == hi + 1`` set the
    guard bit. A card adds at most one to each tally, so applying a card's
    effect is one integer addition, and a single mask test rejects every
    state that passed a maximum. A tally whose last card has been applied is
    checked against its minimum and cleared, so equal futures share a state.
    """

    def __init__(self, domains: Sequence[Domain], tallies: Sequence[Tally]) -> None:
        self.fixed = {c: p for c, d in enumerate(domains) if (p := single_path(d)) is not None}
        self.order = _order(
            [c for c in range(len(domains)) if c not in self.fixed], domains, tallies
        )
        self.n_cards = len(domains)
        self.feasible = True
        position = {c: i for i, c in enumerate(self.order)}
        kept: list[tuple[int, int, list[int], Tally]] = []
        for tally in tallies:
            lo, hi = tally.lo, tally.hi
            for c, path in self.fixed.items():
                if c in tally.cards and tally.hit(path):
                    lo, hi = lo - 1, hi - 1
            able = sorted(
                position[c] for c in tally.cards if c in position and domains[c].can(tally)
            )
            hi = min(hi, len(able))
            if lo > hi or hi < 0:
                self.feasible = False
            elif able:
                kept.append((max(lo, 0), hi, able, tally))
        self._layout(kept)
        self.domains, self.kept = domains, kept
        self.effects: list[list[tuple[int, int, int]]] = []
        self.checks: list[tuple[int, int, int]] = []

    def _layout(self, kept: list[tuple[int, int, list[int], Tally]]) -> None:
        """Give every tally its bit field; the start state holds every offset."""
        self.shift, self.field, self.offset = [], [], []
        self.start = self.guard = 0
        bit = 0
        for _, hi, _, _ in kept:
            width = hi.bit_length()
            offset = (1 << width) - 1 - hi
            self.shift.append(bit)
            self.field.append((1 << (width + 1)) - 1)
            self.offset.append(offset)
            self.start |= offset << bit
            self.guard |= 1 << (bit + width)
            bit += width + 1

    def _prepare(self) -> Generator[None, None, None]:
        """Every card's effects and checks, pausing like the passes (a card may have many)."""
        kept, domains = self.kept, self.domains
        for i, c in enumerate(self.order):
            self.effects.append((yield from self._card_effects(domains[c], i, kept)))
        self.checks = [self._checks(i, kept, domains) for i in range(len(self.order))]

    def _card_effects(
        self, domain: Domain, i: int, kept: list[tuple[int, int, list[int], Tally]]
    ) -> Generator[None, None, list[tuple[int, int, int]]]:
        """(packed increment, final holder, paths) for every distinct effect of card ``i``."""
        at_inc: dict[tuple[int, int], int] = defaultdict(int)
        move_inc: dict[tuple[int, int, int], int] = defaultdict(int)
        for j, (_, _, able, tally) in enumerate(kept):
            if i in able:
                if tally.kind == "at":
                    at_inc[tally.time, tally.holder] += 1 << self.shift[j]
                else:
                    move_inc[tally.time, tally.holder, tally.dest] += 1 << self.shift[j]
        layer: dict[tuple[int, int], int] = defaultdict(int)
        for h in domain.nodes[0]:
            layer[at_inc[0, h], h] += 1
        for t, step in enumerate(domain.steps, 1):
            nxt: dict[tuple[int, int], int] = defaultdict(int)
            for done, ((inc, h), ways) in enumerate(layer.items(), 1):
                for a, b in step:
                    if a == h:
                        nxt[inc + move_inc[t, a, b] + at_inc[t, b], b] += ways
                if done % SLICE == 0:
                    yield
            layer = nxt
        return [(inc, h, ways) for (inc, h), ways in layer.items()]

    def _checks(self, i: int, kept, domains) -> tuple[int, int, int]:
        """After card ``i``: (upper bias, lower bounds, closing mask), all packed like states.

        Closing tallies (card ``i`` is their last) must have reached their
        minimum; open ones must still be able to reach their range with the
        cards left. Both tests run on every field at once: adding the
        *upper bias* ``hi - most`` to a field carries into its guard bit
        exactly when its value passed ``most``; subtracting the packed
        *lower bounds* from the state with every guard bit set clears a
        field's guard bit exactly when its value is under ``least``.
        """
        upper = lower = closing = 0
        for j, (lo, hi, able, tally) in enumerate(kept):
            if not able[0] <= i <= able[-1]:
                continue
            later = [k for k in able if k > i]
            must = sum(domains[self.order[k]].must(tally) for k in later)
            least, most = lo - len(later), hi - must
            if most < hi:  # past -1 no value fits; a larger bias could carry out of the field
                upper |= (hi - max(most, -1)) << self.shift[j]
            if least > 0:
                lower |= (least + self.offset[j]) << self.shift[j]
            if not later:
                closing |= self.field[j] << self.shift[j]
        return upper, lower, closing

    def _advance(self, i: int, state: int) -> list[tuple[int, int, int]]:
        """Card ``i`` applied to a state: [(next state, final holder, ways)]."""
        upper, lower, closing = self.checks[i]
        guard = self.guard
        out = []
        for inc, holder, ways in self.effects[i]:
            new = state + inc
            if (new | (new + upper)) & guard or ((new | guard) - lower) & guard != guard:
                continue
            out.append((new & ~closing, holder, ways))
        return out

    def run(self) -> Work:
        """Forward pass, then a backward pass that also gathers the exact marginals."""
        holders: list[dict[int, int]] = [defaultdict(int) for _ in range(self.n_cards)]
        if not self.feasible:
            return 0, tuple({} for _ in holders)
        yield from self._prepare()
        n = len(self.order)
        forward: list[dict[int, int]] = [{self.start: 1}]
        for i in range(n):
            step: dict[int, int] = defaultdict(int)
            for done, (state, ways) in enumerate(forward[i].items(), 1):
                for new, _, w in self._advance(i, state):
                    step[new] += ways * w
                if done % SLICE == 0:
                    yield
            forward.append(step)
        ahead: dict[int, int] = dict.fromkeys(forward[n], 1)
        for i in range(n - 1, -1, -1):
            behind: dict[int, int] = {}
            row = holders[self.order[i]]
            for done, (state, ways) in enumerate(forward[i].items(), 1):
                if done % SLICE == 0:
                    yield
                total = 0
                for new, holder, w in self._advance(i, state):
                    b = ahead.get(new, 0)
                    if b:
                        total += w * b
                        row[holder] += ways * w * b
                if total:
                    behind[state] = total
            ahead = behind
        total = ahead.get(self.start, 0)
        for card, path in self.fixed.items():
            holders[card][path[-1]] = total
        return total, tuple({h: k for h, k in row.items() if k} for row in holders)


def legacy_count(model: Model, deadline: float | None = None) -> tuple[int, Holders] | None:
    """The old count of a propagated model: the three methods in turns, by ``deadline``."""
    tallies = [t for t in model.tallies if not t.redundant]
    runs = [count_by_cards(model.domains, tallies), count_by_paths(model.domains, tallies)]
    if deal_bound(model.domains, tallies) <= EPOCH_DEALS:
        runs.append(count_by_epochs(model.domains, tallies, model.timeline))
    return race(runs, None, deadline)
