"""Chances estimated by block Gibbs walks over whole histories, with a bound from their spread.

Several :class:`~deduce.games.abbey.solver.gibbs.Walk` chains run over the
log's consistent histories; each averages, move by move, every card's
current-holder law given the cards it kept (Rao-Blackwellised), and the
estimate is the mean of the chains' averages.

Blocks
    Late in a game, random blocks seldom hold every card that must move for
    the culprit to change, and a chain keeps its culprit for minutes. So
    most blocks come from a *pool*: for a few starting histories and each
    other candidate, a smallest set of cards whose paths must change for
    that candidate to be the culprit (:mod:`~deduce.games.abbey.solver.sat.changes`).
    A move takes a pool set (40% of moves; at times joined with a second
    one or a random card or two), or the culprit with one to three random
    cards (25%), or five to eight random cards, at most half the free ones
    (the rest: large blocks move the cards that decide which candidates
    can be the culprit). The pool is fixed before the chains start and
    every choice but the second ignores the history; the second is as
    likely from every history its move can reach (the culprit stays in the
    block, the others are a uniform draw from the rest), so every move
    keeps the uniform law.
Starts
    Chain ``r`` starts from a SAT witness whose culprit is the ``r``-th
    candidate (in a shuffled order): chains that cannot leave their start
    disagree, and their spread shows it.
Bound
    Each chain's moves are cut into batches (:class:`Batches`). After the
    batches of its first :data:`BURN` of moves (dropped), a chain's average
    has two standard errors: the spread of its :data:`GROUPS` groups of
    batches, and the spread of the chains' averages. Each gives Student's
    95% half-width for its own degrees of freedom (chains less one; the
    chains' groups less one each), the bound is the larger of the two
    plus :data:`SLACK` (:func:`halves`, :func:`bound`), no estimate is made before every
    chain has :data:`LEAST_MOVES` kept moves, and the culprit's bound is
    the largest over the candidates.
"""

from __future__ import annotations

import pickle
import random
import signal
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from time import perf_counter
from typing import Protocol

import numpy as np

from deduce.games.abbey.solver.count.estimate import STUDENT, Estimate
from deduce.games.abbey.solver.gibbs import Blocks, Compiled, Layout, Walk, walk
from deduce.games.abbey.solver.model import History, Path
from deduce.games.abbey.solver.sat.changes import changing_sets, nearest
from deduce.games.abbey.solver.sat.cnf import SatModel
from deduce.games.abbey.solver.timeline import CULPRIT
from deduce.processes import context, follow_parent, lower_priority

#: Independent chains.
CHAINS = 8
#: Moves per batch of a chain.
BATCH = 20
#: The share of a chain's first batches dropped as its burn-in.
BURN = 0.25
#: Groups of batches whose spread gives a chain's own standard error.
GROUPS = 8
#: The fewest kept moves of every chain before any estimate.
LEAST_MOVES = 400
#: Starting histories whose pool sets are searched (one search per other candidate each).
POOL_STARTS = 4
#: The most of the time left that the pool search may take (it ends between two queries).
SEARCH_SHARE = 0.2
#: Added to every bound: what the chains' spread cannot see, such as the pull of their
#: starts (``benchmarks/README.md``: without it, the bound covered 89.7% to 92.3% of the
#: pairs at positions in the second half of five-player games).
SLACK = 0.01
#: Rounds of batches (one batch of every chain) between two estimates on the way.
POOL_EVERY = 5
#: How much lower the chains' worker processes run than the rest (niceness steps).
NICENESS = 10
#: A chain keeps fewer than twice this many batches (see :class:`Batches`).
MOST_BATCHES = 256

#: One batch of a chain: its moves, and the sum over them of each card's holder law.
Batch = tuple[int, np.ndarray]


class Batches:
    """A chain's batches, in order, never more than ``2 * MOST_BATCHES`` of them.

    When that many are kept, neighbours merge two by two, and from then on
    the batches that come are summed two by two (then four, ...) before
    they are kept, so that the kept ones stay of one size: a long run (a
    two-minute rung of ``play``) pools, sends and holds a few hundred
    arrays a chain, not tens of thousands. Below the limit nothing merges.
    """

    def __init__(self) -> None:
        self.done: list[Batch] = []
        self.width = 1  # the batches that come, summed into one kept
        self.pending: Batch | None = None
        self.parts = 0

    def add(self, made: int, sums: np.ndarray) -> None:
        """Keep one more batch."""
        if self.pending is None:
            self.pending = (made, sums)
        else:
            self.pending = (self.pending[0] + made, self.pending[1] + sums)
        self.parts += 1
        if self.parts < self.width:
            return
        self.done.append(self.pending)
        self.pending, self.parts = None, 0
        if len(self.done) >= 2 * MOST_BATCHES:
            pairs = zip(self.done[::2], self.done[1::2])
            self.done = [(a[0] + b[0], a[1] + b[1]) for a, b in pairs]
            self.width *= 2

    def __iter__(self) -> Iterator[Batch]:
        yield from self.done
        if self.pending is not None:
            yield self.pending

    def __len__(self) -> int:
        return len(self.done) + (self.pending is not None)


class Walking(Protocol):
    """What a chain needs of its walk.

    A :class:`~gibbs.Walk`, a :class:`~gibbs.Compiled`, or a
    :class:`~silence.Tilted` over one of them.
    """

    @property
    def made(self) -> int:
        """Moves since the last :meth:`take`."""

    def advance(self, moves: int) -> None:
        """Make ``moves`` moves."""

    def take(self) -> list[list[float]]:
        """The sums of holder laws since the last take."""

    def history(self) -> np.ndarray:
        """The current history (card, epoch)."""


@dataclass
class Chain:
    """One chain at work: its walk and its batches (moves, sums) so far."""

    walk: Walking
    batches: Batches

    def run(self, moves: int) -> Batch:
        """``moves`` moves, then one batch of their sums (kept, and returned)."""
        self.walk.advance(moves)
        made = self.walk.made
        batch = (made, np.array(self.walk.take()))
        self.batches.add(*batch)
        return batch


@dataclass(frozen=True)
class Plan:
    """Everything the chains of a position start from (picklable, for other processes).

    ``starts[r]`` and ``seeds[r]`` are chain ``r``'s history and stream.
    """

    layout: Layout
    starts: tuple[tuple[Path, ...], ...]
    seeds: tuple[float, ...]
    pool: tuple[frozenset[int], ...]

    def start_walk(self, r: int) -> Walk | Compiled:
        """Chain ``r``'s walk, at its start."""
        blocks = Blocks(self.layout.free, self.pool)
        return walk(self.layout, self.starts[r], random.Random(self.seeds[r]), blocks)

    def chain(self, r: int) -> Chain:
        """Chain ``r``, at its start."""
        return Chain(self.start_walk(r), Batches())


def plan_chains(
    layout: Layout,
    sat: SatModel,
    possible: Sequence[set[int]],
    seed: int,
    chains: int = CHAINS,
    deadline: float | None = None,
    carried: Carry | None = None,
) -> Plan:
    """The chains' starts, streams and pool (module docstring), found on the log's SAT model.

    ``possible`` is the SAT closure; the pool search takes at most
    :data:`SEARCH_SHARE` of the time left before ``deadline``.
    ``carried``: the chains of a solve of an earlier prefix of the log,
    whose histories start the chains here, mended to the events since
    (:meth:`Carry.starts`); the chains they leave start afresh.
    """
    rng = random.Random(seed)
    starts = carried.starts(sat, layout.epochs, chains) if carried is not None else []
    if len(starts) < chains:
        starts += sat.witnesses(possible, chains - len(starts), rng)
    candidates = [c for c, row in enumerate(possible) if CULPRIT in row]
    pool: set[frozenset[int]] = set()
    search_until = (
        None if deadline is None else perf_counter() + SEARCH_SHARE * (deadline - perf_counter())
    )
    for start in starts[:POOL_STARTS]:
        pool.update(changing_sets(sat, start, candidates, deadline=search_until))
    return Plan(
        layout,
        tuple(tuple(tuple(int(h) for h in path) for path in start) for start in starts),
        tuple(rng.random() for _ in starts),
        tuple(sorted(pool, key=sorted)),
    )


@dataclass(frozen=True)
class Carry:
    """Where the chains of a solve were at its end: one history per chain (card, epoch).

    ``play`` hands it to the solve of the next position of the same log
    (the same events and more), whose chains go on from there instead of
    starting afresh.
    """

    histories: tuple[np.ndarray, ...]

    def starts(self, sat: SatModel, epochs: int, chains: int) -> list[History]:
        """The histories carried to a log of ``epochs`` epochs, each mended to its events.

        Each path keeps its last holder through the new epochs; then the
        nearest consistent history (the fewest cards changed, by SAT:
        :func:`~deduce.games.abbey.solver.sat.changes.nearest`) is kept. A
        history that cannot be mended within the SAT search's budget is
        left out.
        """
        found = []
        for history in self.histories[:chains]:
            old = history.shape[1]
            if old > epochs:
                continue
            grown = np.concatenate([history, np.repeat(history[:, -1:], epochs - old, axis=1)], 1)
            mended = nearest(sat, [tuple(int(h) for h in path) for path in grown])
            if mended is not None:
                found.append(mended)
        return found


class Farm:
    """The plan's chains shared among ``workers`` processes of their own, until ``deadline``.

    Chain ``r`` runs in worker ``r % workers``, which sends each batch as
    it is made (with the chain's history every :data:`POOL_EVERY`-th);
    :meth:`collect` takes those that have come, so that :attr:`batches`
    holds each chain's batches in order. A worker stops at
    ``deadline`` or after ``most`` batches a chain, and with this process
    (see :mod:`deduce.processes`); :meth:`close` stops them all at once.
    """

    def __init__(self, plan: Plan, workers: int, deadline: float, most: int | None = None):
        ctx = context()
        self.batches = [Batches() for _ in plan.starts]
        #: Each chain's history as last sent (every :data:`POOL_EVERY`-th batch; its start
        #: before).
        self.latest = [np.array(start, dtype=np.int8) for start in plan.starts]
        self.readers: list[Connection] = []
        self.workers: list[BaseProcess] = []
        for i in range(min(workers, len(plan.starts))):
            reader, writer = ctx.Pipe(duplex=False)
            mine = tuple(range(i, len(plan.starts), workers))
            worker = ctx.Process(
                target=_farm_worker,
                args=(writer, plan, mine, deadline - perf_counter(), most),
                name="deduce-chains",
                daemon=True,
            )
            worker.start()
            writer.close()
            self.readers.append(reader)
            self.workers.append(worker)

    def collect(self, timeout: float = 0.0) -> bool:
        """Take every batch that has come (waiting up to ``timeout`` for one); whether any came.

        False also once every worker has finished.
        """
        came = False
        for reader in wait(self.readers, timeout) if self.readers else ():
            assert isinstance(reader, Connection)
            try:
                while reader.poll():
                    r, made, sums, history = pickle.loads(reader.recv_bytes())
                    self.batches[r].add(made, sums)
                    if history is not None:
                        self.latest[r] = history
                    came = True
            except (EOFError, OSError):  # that worker is done
                self.readers.remove(reader)
                reader.close()
        return came

    @property
    def running(self) -> bool:
        """Whether some worker may still send batches."""
        return bool(self.readers)

    def close(self) -> None:
        """Stop every worker at once and reap it."""
        for worker in self.workers:
            if worker.is_alive():
                worker.kill()
            worker.join()
        for reader in self.readers:
            reader.close()
        self.readers = []


def _farm_worker(
    writer: Connection, plan: Plan, mine: Sequence[int], seconds: float, most: int | None
) -> None:
    """A farm's worker: chains ``mine`` of ``plan``, each batch sent as it is made."""
    follow_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    lower_priority(NICENESS)
    deadline = perf_counter() + seconds
    chains = {r: plan.chain(r) for r in mine}
    rounds = 0
    try:
        while perf_counter() < deadline and (most is None or rounds < most):
            rounds += 1
            for r, chain in chains.items():
                made, sums = chain.run(BATCH)
                history = chain.walk.history() if rounds % POOL_EVERY == 0 else None
                writer.send_bytes(pickle.dumps((r, made, sums, history)))
    except OSError:  # nobody listens any more
        pass
    writer.close()


def pooled(batches: Sequence[Iterable[Batch]]) -> Estimate | None:
    """The estimate of the chains' batches (module docstring), or None before it is due."""
    averages = chain_averages(batches)
    if averages is None:
        return None
    means, errors = averages
    mean = np.mean(means, axis=0)
    bounds = bound(*halves(means, errors))
    rows = [{h: float(p) for h, p in enumerate(row) if p > 0} for row in mean]
    return Estimate(rows, False, float(bounds.max()), float(bounds[:, CULPRIT].max()), 0)


def chain_averages(batches: Sequence[Iterable[Batch]]) -> tuple[np.ndarray, np.ndarray] | None:
    """Each chain's averages past its burn-in, and their squared standard errors.

    The burn-in is the first batches that end within :data:`BURN` of a
    chain's moves; the error is the spread of the kept batches' :data:`GROUPS`
    groups. None before every chain has :data:`LEAST_MOVES` kept moves in
    as many batches as groups, or with fewer than two chains.
    """
    means, errors = [], []
    for chain in batches:
        every = list(chain)
        ends = np.cumsum([m for m, _ in every])
        total = int(ends[-1]) if len(every) else 0
        kept = every[int(np.searchsorted(ends, BURN * total, side="right")) :]
        if sum(m for m, _ in kept) < LEAST_MOVES or len(kept) < GROUPS:
            return None
        made = np.array([m for m, _ in kept], dtype=np.float64)
        sums = np.stack([s for _, s in kept])
        means.append(sums.sum(axis=0) / made.sum())
        groups = np.array_split(np.arange(len(kept)), GROUPS)
        group_means = np.stack([sums[g].sum(axis=0) / made[g].sum() for g in groups])
        errors.append(group_means.var(axis=0, ddof=1) / GROUPS)
    if len(means) < 2:
        return None
    return np.stack(means), np.stack(errors)


def halves(means: np.ndarray, errors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Student's 95% half-widths of the chains' mean, from its two standard errors.

    ``means`` holds each chain's averages (chains first), ``errors`` each
    chain's squared standard error from its :data:`GROUPS` groups. Between
    the chains: their spread, with one degree of freedom less than chains.
    Within them: the groups' spread, with one less than groups in each
    chain. Each half-width is Student's t for its own degrees of freedom.
    """
    r = len(means)
    between = np.std(means, axis=0, ddof=1) / np.sqrt(r)
    within = np.sqrt(np.sum(errors, axis=0)) / r
    return student(r - 1) * between, student(r * (GROUPS - 1)) * within


def bound(between: np.ndarray, within: np.ndarray) -> np.ndarray:
    """The bound from the two half-widths (:func:`halves`): the larger, plus :data:`SLACK`."""
    return np.minimum(np.maximum(between, within) + SLACK, 1.0)


def student(freedom: int) -> float:
    """Student's t at 97.5% for ``freedom`` degrees of freedom (past the table: its last)."""
    return STUDENT[min(freedom, len(STUDENT)) - 1]


def estimating_by_chains(
    plan: Plan,
    deadline: float,
    progress: Callable[[Estimate], None] | None = None,
    most: int | None = None,
    latest: list[np.ndarray] | None = None,
) -> Generator[None, None, Estimate | None]:
    """The estimate of the plan's chains, run in this process until ``deadline`` (or None).

    The chains make one batch each in turn, until ``deadline`` or ``most``
    batches a chain. A generator that pauses after each batch (so that
    other work can run in turns with it) and ends with its answer.
    ``progress`` gets the estimate of every :data:`POOL_EVERY`-th round of
    batches that has one. ``latest``, when given, holds each chain's
    history as of then (and at the end).
    """
    chains = [plan.chain(r) for r in range(len(plan.starts))]
    rounds = 0
    while perf_counter() < deadline and (most is None or rounds < most):
        for chain in chains:
            chain.run(BATCH)
            yield
        rounds += 1
        if rounds % POOL_EVERY == 0:
            if latest is not None:
                latest[:] = [chain.walk.history() for chain in chains]
            if progress is not None and (found := pooled([c.batches for c in chains])) is not None:
                progress(found)
    if latest is not None:
        latest[:] = [chain.walk.history() for chain in chains]
    return pooled([chain.batches for chain in chains])
