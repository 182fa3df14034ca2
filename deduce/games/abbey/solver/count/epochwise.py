"""Exact counting, epoch by epoch: the method for few kinds of card and many transfers.

Cards whose domains are identical and that belong to the same observation
tallies are interchangeable: a *class*. The state at an epoch is how many
cards of each class every holder has (a class-by-holder matrix whose column
sums are the public sizes), weighted by the number of labelled histories
that lead to it. The deal gives every matrix a multinomial weight; a
transfer moving ``k`` cards from a holder picks ``k_c`` cards of each class
in ``C(n_c, k_c)`` ways; an observation keeps the matrices it allows. The
matrices at the last epoch give the count and, by symmetry within a class,
every card's current-holder marginals.

The cost grows with the number of matrices, so with the number of classes:
every card singled out by name, and every new trait asked about, adds some.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Generator, Iterator, Sequence
from itertools import product
from math import comb, factorial, prod

from deduce.games.abbey.solver.count.cardwise import SLICE
from deduce.games.abbey.solver.model import Domain, Tally
from deduce.games.abbey.solver.timeline import Timeline

Matrix = tuple[tuple[int, ...], ...]  # matrix[class][holder]
Holders = tuple[dict[int, int], ...]


def count_by_epochs(
    domains: Sequence[Domain], tallies: Sequence[Tally], timeline: Timeline
) -> Generator[None, None, tuple[int, Holders]]:
    """Count histories in total and per (card, current holder), as a generator.

    Like :func:`cardwise.count_by_cards` it yields after every slice of work
    and returns ``(total, holders)``. ``domains`` must already be propagated.
    """
    observed = [t for t in tallies if t.line is not None]
    members = _classes(domains, observed)
    counts_in = {
        id(t): [k for k, cards in enumerate(members) if _counts(domains, t, cards[0])]
        for t in observed
    }
    sweep = _Sweep(
        [domains[cards[0]] for cards in members],
        [len(c) for c in members],
        len(timeline.holders),
        [[t for t in observed if t.time == e] for e in range(len(timeline.sizes))],
        counts_in,
    )
    weights = yield from sweep.deal(timeline.sizes[0])
    for t, transfer in enumerate(timeline.transfers, 1):
        weights = yield from sweep.transfer(weights, t, transfer.moves)
    total = sum(weights.values())
    holders: list[dict[int, int]] = [{} for _ in domains]
    for k, cards in enumerate(members):
        size = len(cards)
        row: dict[int, int] = defaultdict(int)
        for matrix, ways in weights.items():
            for h, n in enumerate(matrix[k]):
                if n:
                    row[h] += ways * n
        for card in cards:  # each of the class's cards has 1/size of its members' presence
            holders[card] = {h: n // size for h, n in row.items()}
    return total, tuple(holders)


def deal_bound(domains: Sequence[Domain], tallies: Sequence[Tally]) -> int:
    """An upper bound on the deal matrices this method would go through.

    Each class spreads its cards over the holders its domain allows at the
    deal, in at most ``C(size + holders - 1, holders - 1)`` ways.
    """
    bound = 1
    for cards in _classes(domains, [t for t in tallies if t.line is not None]):
        holders = len(domains[cards[0]].nodes[0])
        bound *= comb(len(cards) + holders - 1, holders - 1)
    return bound


def _counts(domains: Sequence[Domain], tally: Tally, card: int) -> bool:
    """Whether the card is one the tally counts and can satisfy its location test."""
    return card in tally.cards and domains[card].can(tally)


def _classes(domains: Sequence[Domain], observed: Sequence[Tally]) -> list[list[int]]:
    """Cards grouped by identical domain and the observation tallies they can count in.

    A tally that a card can never satisfy does not set it apart.
    """
    groups: dict[tuple, list[int]] = {}
    for card, domain in enumerate(domains):
        key = (
            tuple(frozenset(n) for n in domain.nodes),
            tuple(frozenset(s) for s in domain.steps),
            tuple(_counts(domains, t, card) for t in observed),
        )
        groups.setdefault(key, []).append(card)
    return list(groups.values())


class _Sweep:
    """The class structure of one counting run and its deal, transfer and observation steps."""

    def __init__(
        self,
        domains: Sequence[Domain],
        sizes: Sequence[int],
        n_holders: int,
        observed_at: Sequence[Sequence[Tally]],
        tally_classes: dict[int, list[int]],
    ) -> None:
        self.domains = domains  # one representative domain per class
        self.sizes = sizes
        self.observed_at = observed_at
        self.tally_classes = tally_classes  # id(tally) -> classes whose cards it counts
        # reach[k][h]: how many cards of classes k, k+1, ... may be dealt to holder h
        self.reach = [[0] * n_holders]
        for domain, size in zip(reversed(domains), reversed(sizes)):
            self.reach.insert(
                0, [n + (size if h in domain.nodes[0] else 0) for h, n in enumerate(self.reach[0])]
            )

    def deal(self, column: Sequence[int]) -> Generator[None, None, dict[Matrix, int]]:
        """Every deal matrix with its number of labelled deals, filtered by epoch-0 facts."""
        weights: dict[Matrix, int] = {}
        for done, matrix in enumerate(self._fill(0, list(column), []), 1):
            if matrix is not None and self._allowed(matrix, 0):
                weights[matrix] = prod(
                    factorial(self.sizes[k]) // prod(map(factorial, row))
                    for k, row in enumerate(matrix)
                )
            if done % SLICE == 0:
                yield
        return weights

    def _fill(
        self, k: int, room: list[int], rows: list[tuple[int, ...]]
    ) -> Iterator[Matrix | None]:
        """Distribute class ``k`` onward over the holders' remaining room, using it all.

        Yields each complete matrix, and None for each dead end (so callers
        can pause on long searches).
        """
        if k == len(self.sizes):
            yield tuple(rows)
            return
        if any(r > self.reach[k][h] for h, r in enumerate(room)):
            yield None  # the classes left cannot fill some holder
            return
        allowed = self.domains[k].nodes[0]
        caps = [r if h in allowed else 0 for h, r in enumerate(room)]
        for row in _compositions(self.sizes[k], caps):
            yield from self._fill(k + 1, [r - n for r, n in zip(room, row)], [*rows, row])

    def transfer(
        self, weights: dict[Matrix, int], t: int, moves: Sequence[tuple[int, int, int]]
    ) -> Generator[None, None, dict[Matrix, int]]:
        """The matrices after transfer ``t`` (``moves``: source, destination, count)."""
        out: dict[Matrix, int] = defaultdict(int)
        steps = [domain.steps[t - 1] for domain in self.domains]
        for done, (matrix, ways) in enumerate(weights.items(), 1):
            if done % SLICE == 0:
                yield
            choices = [list(self._movers(matrix, steps, src, dst, k)) for src, dst, k in moves]
            for picked in product(*choices):
                rows = [list(row) for row in matrix]
                factor = 1
                for (src, dst, _), (movers, w) in zip(moves, picked):
                    factor *= w
                    for c, n in enumerate(movers):
                        rows[c][src] -= n
                        rows[c][dst] += n
                if not self._stay(matrix, picked, moves, steps):
                    continue
                new = tuple(tuple(row) for row in rows)
                if self._allowed(new, t):
                    out[new] += ways * factor
        return out

    @staticmethod
    def _movers(
        matrix: Matrix, steps: Sequence[set[tuple[int, int]]], src: int, dst: int, k: int
    ) -> Iterator[tuple[tuple[int, ...], int]]:
        """Ways to pick ``k`` movers ``src -> dst`` by class, with their labelled counts."""
        caps = [row[src] if (src, dst) in step else 0 for row, step in zip(matrix, steps)]
        for movers in _compositions(k, caps):
            yield movers, prod(comb(row[src], n) for row, n in zip(matrix, movers))

    @staticmethod
    def _stay(
        matrix: Matrix,
        picked,
        moves: Sequence[tuple[int, int, int]],
        steps: Sequence[set[tuple[int, int]]],
    ) -> bool:
        """Whether every card that did not move was allowed to stay where it was."""
        for c, row in enumerate(matrix):
            left = list(row)
            for (src, _, _), (movers, _) in zip(moves, picked):
                left[src] -= movers[c]
            if any(n and (h, h) not in steps[c] for h, n in enumerate(left)):
                return False
        return True

    def _allowed(self, matrix: Matrix, epoch: int) -> bool:
        """Whether every class sits only on its allowed holders and the epoch's facts hold."""
        for c, row in enumerate(matrix):
            nodes = self.domains[c].nodes[epoch]
            if any(n and h not in nodes for h, n in enumerate(row)):
                return False
        for tally in self.observed_at[epoch]:
            value = sum(matrix[c][tally.holder] for c in self.tally_classes[id(tally)])
            if not tally.lo <= value <= tally.hi:
                return False
        return True


def _compositions(total: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of parts, part ``i`` at most ``caps[i]``."""
    if not caps:
        if total == 0:
            yield ()
        return
    rest = sum(caps[1:])
    for first in range(max(0, total - rest), min(caps[0], total) + 1):
        for tail in _compositions(total - first, caps[1:]):
            yield (first, *tail)
