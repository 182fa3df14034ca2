"""Block Gibbs moves over complete histories: a few cards redrawn exactly given the rest.

Every consistent history is equally likely (see :mod:`model`), so the
chances are the frequencies of the culprit and of every card's current
holder under the uniform law on consistent histories. A :class:`Walk` is a
Markov chain on those histories whose every move keeps that law: it picks a
*block* of a few cards, keeps every other card's path, and draws the
block's paths exactly from their law given the rest.

Glossary (path, history, domain and tally as in :mod:`model`):

block
    The cards one move redraws; every other card keeps its path.
flow
    Given the rest, the block's flow is fixed: how many of its cards each
    holder has at every epoch (the holder's public size less the other
    cards there) and how many take each edge at every transfer (the
    transfer's public count less the other cards on it). So the block's
    cards can move only at the transfers where some of them move now, and
    at each of those exactly as many take each edge as now.
segment
    The epochs between two such transfers, over which the block's cards
    all stay put: a card of the block may sit at a holder through a
    segment when its domain has that holder at every epoch of it and lets
    it stay there at every transfer inside it.
state
    The holder of each card of the block through one segment.

A move is a forward filter over the segments: the first segment's states
are the ways to seat the block on its holders there, each next segment's
those reached by sending along the transfer's edges as many of the block's
cards as now, every state checked against the domains and the observation
tallies of its segment; weights count the ways to reach each state. A
state of the last segment is drawn by its weight, then each earlier one by
backward sampling (in proportion to its weight among the states that lead
to the one drawn). That is the block's exact law given the rest (a Gibbs
step), so every move keeps the uniform law, whatever block it is given, as
long as the choice of block does not depend on the current history (or, as
in :mod:`chains`, is as likely from every history the move can reach).

The last segment's weights are the law of the block's current holders
given the rest: a walk averages them over its moves (Rao-Blackwellisation)
rather than counting where the cards happen to be, which lowers the
variance of the chances it estimates.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from types import ModuleType

import numpy as np

from deduce.games.abbey.solver.model import Model, Path
from deduce.games.abbey.solver.timeline import CULPRIT

_gibbs: ModuleType | None
try:  # the compiled kernel, built at install where a C compiler is found
    from deduce.games.abbey.solver import _gibbs
except ImportError:  # pragma: no cover - an installation without a compiler
    _gibbs = None

#: The holder of each card of a block through one segment.
State = tuple[int, ...]

#: Share of moves whose block comes from the pool, and of those joined with more cards.
POOL_SHARE, JOIN_SHARE = 0.4, 0.4
#: Share of moves whose block is the culprit and one to three random cards.
CULPRIT_SHARE = 0.25
#: The most cards of a block.
LARGEST = 10
#: How many cards a block of random cards holds: from the first to the second, and never
#: more than half the free cards (a small deck's whole history is no block). Large
#: blocks move the cards that decide which candidates can be the culprit (late in a
#: six-player game, blocks of 2 to 4 left the chains' averages 3 to 4 times as scattered).
RANDOM_SIZES = (5, 8)

#: A block whose layers would pass this many states is left as it is, the move wasted
#: (the same for every history that the move could reach, so the law is kept).
MOST_STATES = 200_000


@dataclass(frozen=True)
class Observation:
    """An observation tally: between ``lo`` and ``hi`` of ``cards`` at ``holder`` at ``time``."""

    time: int
    holder: int
    cards: frozenset[int]
    lo: int
    hi: int


def _prefix(flags: Sequence[bool]) -> list[int]:
    """Running counts of true flags: ``out[i]`` is how many of ``flags[:i]`` are true."""
    out = [0]
    for flag in flags:
        out.append(out[-1] + flag)
    return out


class Layout:
    """What every walk over one model's histories shares (read only; picklable).

    ``model`` is propagated. Its observation tallies (``count`` and
    ``show`` by traits) are checked by the moves; the structural ones
    (sizes, transfer counts) hold by the flow.
    """

    def __init__(self, model: Model) -> None:
        domains = model.domains
        self.cards = len(domains)
        self.holders = len(model.timeline.holders)
        self.epochs = model.timeline.last_epoch + 1
        #: The cards whose domain holds more than one path: the only ones a move can change.
        self.free = tuple(c for c, d in enumerate(domains) if any(len(n) > 1 for n in d.nodes))
        holders = range(self.holders)
        # node_bad[c][h][e]: epochs before e at which card c may not be at h
        self.node_bad = [[_prefix([h not in n for n in d.nodes]) for h in holders] for d in domains]
        # stay_bad[c][h][e]: epochs before e that card c may not reach by staying at h
        self.stay_bad = [
            [_prefix([False, *((h, h) not in step for step in d.steps)]) for h in holders]
            for d in domains
        ]
        self.steps = [d.steps for d in domains]
        self.observations = [
            Observation(t.time, t.holder, t.cards, t.lo, t.hi)
            for t in model.tallies
            if t.line is not None and not t.redundant
        ]
        assert all(t.kind == "at" for t in model.tallies if t.line is not None)
        self.of_card: list[list[int]] = [[] for _ in domains]
        for j, seen in enumerate(self.observations):
            for c in seen.cards:
                self.of_card[c].append(j)

    def stays(self, card: int, holder: int, first: int, last: int) -> bool:
        """Whether ``card`` may sit at ``holder`` from epoch ``first`` through ``last``."""
        nodes, stays = self.node_bad[card][holder], self.stay_bad[card][holder]
        return nodes[last + 1] == nodes[first] and stays[last + 1] == stays[first + 1]


class Blocks:
    """How a chain picks the block of each move.

    Most blocks come from ``pool``, card sets that can change the culprit
    (:mod:`~deduce.games.abbey.solver.sat.changes`), at times joined with
    a second one or a random card or two; others are the culprit and a few
    random cards, or five to eight random cards. Every choice but the culprit's
    ignores the history, and that one is as likely from every history its
    move can reach (the culprit stays in the block, and the others are a
    uniform draw from the rest), so every move keeps the uniform law.
    """

    def __init__(self, free: Sequence[int], pool: Sequence[frozenset[int]]) -> None:
        self.free = list(free)
        self.free_set = frozenset(free)
        self.pool = [sorted(s) for s in pool if len(s) > 1 and s <= self.free_set]

    def draw(self, rng: random.Random, culprit: int) -> list[int]:
        """The next move's block; only the culprit's kind of block looks at the history."""
        roll = rng.random()
        if self.pool and roll < POOL_SHARE:
            block = set(self.pool[rng.randrange(len(self.pool))])
            join = rng.random()
            if join < JOIN_SHARE / 2:
                more = self.pool[rng.randrange(len(self.pool))]
                if len(block.union(more)) <= LARGEST:
                    block.update(more)
            elif join < JOIN_SHARE:
                more = rng.sample(self.free, min(rng.randint(1, 2), len(self.free)))
                if len(block.union(more)) <= LARGEST:
                    block.update(more)
            return sorted(block)
        if roll < POOL_SHARE + CULPRIT_SHARE and culprit in self.free_set:
            others = [c for c in self.free if c != culprit]
            return sorted([culprit, *rng.sample(others, min(rng.randint(1, 3), len(others)))])
        size = min(rng.randint(*RANDOM_SIZES), max(2, len(self.free) // 2))
        return sorted(rng.sample(self.free, min(size, len(self.free))))


def moves_of(path: Path) -> list[int]:
    """The transfers at which a path changes holder."""
    return [t for t in range(1, len(path)) if path[t - 1] != path[t]]


class Walk:
    """A Markov chain over consistent histories by exact block redraws (module docstring).

    ``start`` is a consistent history (a SAT witness). :meth:`redraw`
    makes one move on a given block, :meth:`advance` moves on the blocks
    that ``blocks`` draws; the walk keeps, since its last :meth:`take`, the
    sum over its moves of every card's current-holder law given the rest.
    """

    def __init__(
        self,
        layout: Layout,
        start: Sequence[Path],
        rng: random.Random,
        blocks: Blocks | None = None,
    ) -> None:
        self.layout = layout
        self.rng = rng
        self.blocks = blocks or Blocks(layout.free, ())
        self.paths = [tuple(p) for p in start]
        self.value = [
            sum(1 for c in seen.cards if self.paths[c][seen.time] == seen.holder)
            for seen in layout.observations
        ]
        self.moves = [moves_of(p) for p in self.paths]
        #: The current culprit (the card whose path is at the culprit slot).
        self.culprit = next(c for c, p in enumerate(self.paths) if p[-1] == CULPRIT)
        #: Moves since the last :meth:`take`, and the moves that changed the culprit.
        self.made = 0
        self.changes = 0
        self._sums = [[0.0] * layout.holders for _ in self.paths]
        self._since = [0] * len(self.paths)  # moves whose plain holder is not yet in _sums

    def advance(self, moves: int) -> None:
        """``moves`` moves, each on a block that the walk's ``blocks`` draws."""
        for _ in range(moves):
            self.redraw(self.blocks.draw(self.rng, self.culprit))

    def redraw(self, block: Sequence[int]) -> None:
        """One move: the block's paths drawn from their law given every other card's."""
        if len(block) < 2:
            self.made += 1
            return
        layout, paths = self.layout, self.paths
        old = [paths[c] for c in block]
        active = sorted({t for c in block for t in self.moves[c]})
        bounds = [0, *active, layout.epochs]  # segment g: epochs bounds[g] .. bounds[g+1] - 1
        allowed = [
            [
                {h for h in {p[first] for p in old} if layout.stays(c, h, first, last - 1)}
                for c in block
            ]
            for first, last in pairwise(bounds)
        ]
        checks = self._checks(block, old, active)
        seats = Counter(p[0] for p in old)
        layer = {s: 1 for s in _seatings(allowed[0], seats) if _passes(s, checks[0])}
        if len(layer) > MOST_STATES:
            self.made += 1  # left alone: the plain holders stand for this move
            return
        layers = [layer]
        links: list[dict[State, list[tuple[State, int]]]] = []
        for g, t in enumerate(active, 1):
            flow = Counter((p[t - 1], p[t]) for p in old if p[t - 1] != p[t])
            steps = [layout.steps[c][t - 1] for c in block]
            stay = [{h for h in ok if (h, h) in step} for ok, step in zip(allowed[g], steps)]
            go = [
                {
                    a: [b for a2, b in flow if a2 == a and b in ok and (a, b) in step]
                    for a, _ in flow
                }
                for ok, step in zip(allowed[g], steps)
            ]
            send = _send_one if len(flow) == 1 and sum(flow.values()) == 1 else _send
            link: dict[State, list[tuple[State, int]]] = {}
            valid: dict[State, bool] = {}
            for state, weight in layer.items():
                for nxt in send(state, flow, stay, go):
                    ok = valid.get(nxt)
                    if ok is None:
                        ok = valid[nxt] = _passes(nxt, checks[g])
                    if ok:
                        link.setdefault(nxt, []).append((state, weight))
            layer = {s: sum(w for _, w in sources) for s, sources in link.items()}
            if len(layer) > MOST_STATES:
                self.made += 1
                return
            layers.append(layer)
            links.append(link)
        assert layer, "the current history is one of the block's redraws"
        self._record(block, layer)
        states = [_pick(self.rng, list(layer.items()))]
        for link in reversed(links):
            states.append(_pick(self.rng, link[states[-1]]))
        states.reverse()
        self._install(block, old, states, bounds, active)

    def _checks(
        self, block: Sequence[int], old: Sequence[Path], active: Sequence[int]
    ) -> list[list[tuple[int, tuple[int, ...], int, int]]]:
        """Segment by segment, the observations that bind the block: holder, members, range.

        ``members`` are the indices in the block of the observed cards, and
        the range is how many of them may be at the holder, given the rest.
        """
        layout = self.layout
        checks: list[list[tuple[int, tuple[int, ...], int, int]]] = [
            [] for _ in range(len(active) + 1)
        ]
        for j in sorted({j for c in block for j in layout.of_card[c]}):
            seen = layout.observations[j]
            members = tuple(i for i, c in enumerate(block) if c in seen.cards)
            mine = sum(1 for i in members if old[i][seen.time] == seen.holder)
            rest = self.value[j] - mine
            lo, hi = seen.lo - rest, seen.hi - rest
            if lo > 0 or hi < len(members):
                checks[bisect_right(active, seen.time)].append((seen.holder, members, lo, hi))
        return checks

    def _record(self, block: Sequence[int], last: dict[State, int]) -> None:
        """Add this move's law of the block's current holders, and the others' plain holders."""
        made, sums, since = self.made, self._sums, self._since
        for c in block:
            sums[c][self.paths[c][-1]] += made - since[c]
            since[c] = made + 1
        total = sum(last.values())
        for state, weight in last.items():
            share = weight / total
            for c, h in zip(block, state):
                sums[c][h] += share
        self.made = made + 1

    def _install(
        self,
        block: Sequence[int],
        old: Sequence[Path],
        states: Sequence[State],
        bounds: Sequence[int],
        active: Sequence[int],
    ) -> None:
        """Give the block the paths of the drawn states, keeping the tallies' values."""
        layout = self.layout
        for i, c in enumerate(block):
            holders = [s[i] for s in states]
            path: Path = tuple(
                h
                for h, first, last in zip(holders, bounds, bounds[1:])
                for _ in range(last - first)
            )
            if path == old[i]:
                continue
            for j in layout.of_card[c]:
                seen = layout.observations[j]
                self.value[j] += (path[seen.time] == seen.holder) - (
                    old[i][seen.time] == seen.holder
                )
            self.paths[c] = path
            self.moves[c] = [t for g, t in enumerate(active, 1) if holders[g] != holders[g - 1]]
            if path[-1] == CULPRIT and c != self.culprit:
                self.culprit = c
                self.changes += 1

    def history(self) -> np.ndarray:
        """The current history, as an array of holders (card, epoch)."""
        return np.array(self.paths, dtype=np.int8)

    def save(self) -> tuple[list[Path], list[int], list[list[int]], int]:
        """The current history and tallies, for :meth:`restore` (the sums are not kept)."""
        return list(self.paths), list(self.value), list(self.moves), self.culprit

    def restore(self, saved: tuple[list[Path], list[int], list[list[int]], int]) -> None:
        """Go back to a history :meth:`save` gave."""
        paths, value, moves, self.culprit = saved
        self.paths, self.value, self.moves = list(paths), list(value), list(moves)

    def take(self) -> list[list[float]]:
        """The sums since the last take (card by card, holder by holder), and start anew.

        Divided by :attr:`made` (read before the take), they are the walk's
        estimate of each card's current-holder law over those moves.
        """
        made, sums = self.made, self._sums
        for c, path in enumerate(self.paths):
            sums[c][path[-1]] += made - self._since[c]
        self._sums = [[0.0] * self.layout.holders for _ in self.paths]
        self._since = [0] * len(self.paths)
        self.made = 0
        return sums


def _seatings(allowed: Sequence[set[int]], seats: Counter[int]) -> list[State]:
    """Every way to seat the block's cards on ``seats`` (holder: how many), each where allowed."""
    found: list[State] = []
    current = [0] * len(allowed)
    left = dict(seats)

    def seat(i: int) -> None:
        if i == len(allowed):
            found.append(tuple(current))
            return
        for h in allowed[i]:
            if left.get(h):
                left[h] -= 1
                current[i] = h
                seat(i + 1)
                left[h] += 1

    seat(0)
    return found


def _send_one(
    state: State,
    flow: Counter[tuple[int, int]],
    stay: Sequence[set[int]],
    go: Sequence[dict[int, list[int]]],
) -> list[State]:
    """:func:`_send` when one card of the block moves: the common case, without a search."""
    ((a, b),) = flow
    stuck = [i for i, h in enumerate(state) if h not in stay[i]]
    if len(stuck) > 1:
        return []
    movers = stuck or [i for i, h in enumerate(state) if h == a]
    return [(*state[:i], b, *state[i + 1 :]) for i in movers if state[i] == a and b in go[i][a]]


def _send(
    state: State,
    flow: Counter[tuple[int, int]],
    stay: Sequence[set[int]],
    go: Sequence[dict[int, list[int]]],
) -> list[State]:
    """The states after a transfer that sends ``flow`` (edge: how many) of the block's cards.

    Card ``i`` may stay at holder ``h`` when ``h`` is in ``stay[i]``, and
    go from ``a`` to the holders ``go[i][a]`` (the flow's edges from ``a``
    that its domain and the next segment allow).
    """
    found: list[State] = []
    current = list(state)
    left = dict(flow)
    moving = [sum(flow.values())]
    k = len(state)

    def send(i: int) -> None:
        if moving[0] > k - i:
            return
        if i == k:
            found.append(tuple(current))
            return
        a = state[i]
        if a in stay[i]:
            current[i] = a
            send(i + 1)
        for b in go[i].get(a, ()):
            n = left[(a, b)]
            if n:
                left[(a, b)] = n - 1
                moving[0] -= 1
                current[i] = b
                send(i + 1)
                moving[0] += 1
                left[(a, b)] = n
        current[i] = a

    send(0)
    return found


def _passes(state: State, checks: Sequence[tuple[int, tuple[int, ...], int, int]]) -> bool:
    """Whether a state meets its segment's observations."""
    for holder, members, lo, hi in checks:
        n = sum(1 for i in members if state[i] == holder)
        if n < lo or n > hi:
            return False
    return True


def _pick(rng: random.Random, weighted: Sequence[tuple[State, int]]) -> State:
    """One state, with probability proportional to its weight."""
    roll = rng.randrange(sum(w for _, w in weighted))
    for state, w in weighted:
        roll -= w
        if roll < 0:
            return state
    raise AssertionError("weights exhausted")


class Compiled:
    """A :class:`Walk` whose moves run in the compiled kernel (``_gibbs.c``), as arrays.

    The same moves, blocks and sums as :class:`Walk` (their random streams
    differ); :func:`walk` makes one where the kernel was built.
    """

    def __init__(
        self, layout: Layout, start: Sequence[Path], rng: random.Random, blocks: Blocks
    ) -> None:
        self.rng = rng
        self.layout = layout
        cards, holders, epochs = layout.cards, layout.holders, layout.epochs
        observations = layout.observations
        steps = np.zeros((cards, epochs), dtype=np.uint64)
        for c, domain_steps in enumerate(layout.steps):
            for t, step in enumerate(domain_steps):
                steps[c, t] = sum(1 << (8 * a + b) for a, b in step)
        of_start = np.cumsum([0, *(len(js) for js in layout.of_card)], dtype=np.int32)
        pool_start = np.cumsum([0, *(len(p) for p in blocks.pool)], dtype=np.int32)
        self.paths = np.array(start, dtype=np.int8)
        self.value = np.array(
            [sum(1 for c in o.cards if start[c][o.time] == o.holder) for o in observations],
            dtype=np.int32,
        )
        self.sums = np.zeros((cards, holders))
        self.since = np.zeros(cards, dtype=np.int64)
        culprit = next(c for c, p in enumerate(start) if p[-1] == CULPRIT)
        self.stats = np.array([0, 0, culprit, 0], dtype=np.int64)  # made, changes, culprit, idle
        shape = (cards, holders, epochs, len(observations), len(blocks.free), len(blocks.pool))
        self.arrays = (
            np.array(shape, dtype=np.int32),
            np.array(layout.node_bad, dtype=np.int32),
            np.array(layout.stay_bad, dtype=np.int32),
            steps,
            np.array([[o.time, o.holder, o.lo, o.hi] for o in observations], dtype=np.int32),
            np.array([sum(1 << c for c in o.cards) for o in observations], dtype=np.uint64),
            of_start,
            np.array([j for js in layout.of_card for j in js], dtype=np.int32),
            np.array(blocks.free, dtype=np.int32),
            pool_start,
            np.array([c for p in blocks.pool for c in p], dtype=np.int32),
            self.paths,
            self.value,
            self.sums,
            self.since,
            self.stats,
        )

    @property
    def made(self) -> int:
        """Moves since the last :meth:`take`."""
        return int(self.stats[0])

    @property
    def changes(self) -> int:
        """Moves that changed the culprit."""
        return int(self.stats[1])

    @property
    def culprit(self) -> int:
        """The current culprit."""
        return int(self.stats[2])

    def advance(self, moves: int) -> None:
        """As :meth:`Walk.advance` (the blocks are drawn in C, as :class:`Blocks` draws them)."""
        assert _gibbs is not None
        _gibbs.run(
            self.arrays,
            moves,
            self.rng.getrandbits(64),
            POOL_SHARE,
            JOIN_SHARE,
            CULPRIT_SHARE,
            LARGEST,
            *RANDOM_SIZES,
            MOST_STATES,
        )

    def history(self) -> np.ndarray:
        """As :meth:`Walk.history`."""
        return self.paths.copy()

    def save(self) -> tuple[np.ndarray, np.ndarray, int]:
        """As :meth:`Walk.save`."""
        return self.paths.copy(), self.value.copy(), int(self.stats[2])

    def restore(self, saved: tuple[np.ndarray, np.ndarray, int]) -> None:
        """As :meth:`Walk.restore` (in place: the kernel holds the arrays)."""
        paths, value, culprit = saved
        self.paths[:] = paths
        self.value[:] = value
        self.stats[2] = culprit

    def take(self) -> list[list[float]]:
        """As :meth:`Walk.take`."""
        made = self.stats[0]
        self.sums[np.arange(self.layout.cards), self.paths[:, -1]] += made - self.since
        sums = self.sums.tolist()
        self.sums[:] = 0.0
        self.since[:] = 0
        self.stats[0] = 0
        return sums


def compiled() -> bool:
    """Whether the compiled kernel was built with this installation."""
    return _gibbs is not None


def walk(
    layout: Layout, start: Sequence[Path], rng: random.Random, blocks: Blocks
) -> Walk | Compiled:
    """A walk from ``start``: compiled where the kernel was built and the game fits it."""
    if _gibbs is not None and layout.cards <= 64 and layout.holders <= 8 and LARGEST <= 12:
        return Compiled(layout, start, rng, blocks)
    return Walk(layout, start, rng, blocks)
