"""Draws of complete histories by Markov chain Monte Carlo, for the bots and the advisor.

The bots and the advisor weigh their choices over a few draws of the
current holders. The chain walks over complete histories (one path per
card); every history it visits agrees with every event, and, as all
consistent histories are equally likely (see :mod:`model`), its target is
the uniform distribution over them. (The chances ``solve`` shows come from
the counts of :mod:`count`, exact or capped: late in a game these chains
mix too slowly to bound them.)

Each move is a block Gibbs step. It picks a few cards at random (the
*block*) and keeps every other card's path. The block's paths together make
a *flow*: how many of them sit with each holder at each epoch and take each
step at each transfer. The move draws, uniformly, one of the consistent
histories that give the block the same flow: the block's cards may swap
whole paths, pass them round, or exchange their futures wherever two of
them share a holder (the card that moved at a transfer becomes the one that
stayed). Keeping the flow keeps the public structure (hand sizes, how many
cards each transfer moved), and since the set of histories reachable this
way is the same from each of its members, the move leaves the uniform
distribution invariant. A small dynamic program over the epochs counts the
block's consistent recombinations (at most the block size factorial per
epoch) and draws one. Blocks are drawn at random, or two cards from each of
two hands at a random epoch (a choice whose chance depends only on the
block's flow and the public sizes, so it stays symmetric). Most moves are
cheaper: two cards swap whole paths, or their futures where they share a
holder, and the move is kept when the history stays consistent (a
Metropolis step with a symmetric proposal).

Several independent chains start from different witnesses (histories found
by the SAT model, :mod:`sat`) and share the draws.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import permutations
from time import perf_counter

from deduce.games.abbey.solver.model import Model, Path

State = tuple[int, ...]  # the block's holders at one epoch, card by card

#: Cards redrawn together by one block move.
BLOCK = 4
#: Share of moves that are cheap pair moves rather than block redraws.
PAIR_SHARE = 0.9


class Chain:
    """One Markov chain over the complete histories of a model (see module docstring)."""

    def __init__(self, model: Model, start: Sequence[Path], rng: random.Random) -> None:
        self.rng = rng
        self.paths = list(start)
        self.domains = model.domains
        self.free = [c for c, d in enumerate(model.domains) if any(len(n) > 1 for n in d.nodes)]
        self.tallies = [t for t in model.tallies if t.line is not None and not t.redundant]
        self.value = [sum(1 for c in t.cards if t.hit(self.paths[c])) for t in self.tallies]
        self.of_card: list[list[int]] = [[] for _ in self.paths]
        for j, tally in enumerate(self.tallies):
            for c in tally.cards:
                self.of_card[c].append(j)
        self.epochs = len(self.paths[0]) if self.paths else 0
        self.at_epoch: list[list[int]] = [[] for _ in range(self.epochs)]
        for j, tally in enumerate(self.tallies):
            self.at_epoch[tally.time].append(j)

    def step(self) -> None:
        """One move: mostly a cheap pair move, sometimes a block redraw."""
        if len(self.free) < 2:
            return
        roll = self.rng.random()
        if roll < PAIR_SHARE:
            block = self.rng.sample(self.free, 2)
            drawn = self._pair(block)
        else:
            block = (
                self._hands_block()
                if roll < (1 + PAIR_SHARE) / 2
                else self.rng.sample(self.free, min(BLOCK, len(self.free)))
            )
            drawn = self._draw(block) if len(block) > 1 else None
        if drawn is not None and any(new != self.paths[c] for c, new in zip(block, drawn)):
            self._apply(block, drawn)

    def _hands_block(self) -> list[int]:
        """Up to two free cards from each of two holders' hands at a random epoch.

        The chance of picking a given block depends only on its flow and on
        the public hand sizes, which a redraw keeps, so the move stays
        symmetric.
        """
        e = self.rng.randrange(self.epochs)
        hands: dict[int, list[int]] = {}
        for c in self.free:
            hands.setdefault(self.paths[c][e], []).append(c)
        if len(hands) < 2:
            return []
        x, y = self.rng.sample(sorted(hands), 2)
        return [c for h in (x, y) for c in self.rng.sample(hands[h], min(2, len(hands[h])))]

    def _pair(self, pair: Sequence[int]) -> list[Path] | None:
        """Two cards swap paths or, at a random shared epoch, futures; None if inconsistent.

        A symmetric proposal (the same move undoes it) accepted when consistent:
        a Metropolis step for the uniform target, cheaper than a block redraw.
        """
        a, b = (self.paths[c] for c in pair)
        e = self.rng.randrange(-1, self.epochs)
        if e >= 0 and a[e] != b[e]:
            return None
        drawn = [b, a] if e < 0 else [a[: e + 1] + b[e + 1 :], b[: e + 1] + a[e + 1 :]]
        if not all(self.domains[c].contains(p) for c, p in zip(pair, drawn)):
            return None
        touched = {j for c in pair for j in self.of_card[c]}  # no other tally can change
        room = self._room(pair, (a, b), touched)
        for j in touched:
            tally = self.tallies[j]
            k = sum(1 for c, p in zip(pair, drawn) if c in tally.cards and tally.hit(p))
            if not room[j][0] <= k <= room[j][1]:
                return None
        return drawn

    def _draw(self, block: Sequence[int]) -> list[Path]:
        """Uniformly, new paths for the block with the same flow, in a consistent history."""
        old = [self.paths[c] for c in block]
        need = self._room(block, old)
        layers: list[dict[State, int]] = []
        links: list[dict[State, list[tuple[State, int]]] | None] = []
        start = {s: 1 for s in set(permutations(p[0] for p in old)) if self._ok(block, 0, s, need)}
        layers.append(start)
        for t in range(1, self.epochs):
            moves = [(p[t - 1], p[t]) for p in old]
            layer: dict[State, int] = {}
            if all(a == b for a, b in moves):
                for s, w in layers[-1].items():
                    if all(
                        (h, h) in self.domains[c].steps[t - 1] for h, c in zip(s, block)
                    ) and self._ok(block, t, s, need):
                        layer[s] = w
                links.append(None)
            else:
                link: dict[State, list[tuple[State, int]]] = {}
                orders = set(permutations(moves))
                for s, w in layers[-1].items():
                    for order in orders:
                        if all(
                            a == h and (a, b) in self.domains[c].steps[t - 1]
                            for (a, b), h, c in zip(order, s, block)
                        ):
                            nxt = tuple(b for _, b in order)
                            if nxt in link or self._ok(block, t, nxt, need):
                                link.setdefault(nxt, []).append((s, w))
                for nxt, sources in link.items():
                    layer[nxt] = sum(w for _, w in sources)
                links.append(link)
            layers.append(layer)
        states = [self._pick(list(layers[-1].items()))]
        for t in range(self.epochs - 1, 0, -1):
            back = links[t - 1]
            states.append(states[-1] if back is None else self._pick(back[states[-1]]))
        states.reverse()
        return [tuple(s[i] for s in states) for i in range(len(block))]

    def _pick(self, weighted: list[tuple[State, int]]) -> State:
        """One state, with probability proportional to its weight."""
        roll = self.rng.randrange(sum(w for _, w in weighted))
        for state, w in weighted:
            roll -= w
            if roll < 0:
                return state
        raise AssertionError("weights exhausted")

    def _room(
        self, block: Sequence[int], old: Sequence[Path], tallies: Iterable[int] | None = None
    ) -> dict[int, tuple[int, int]]:
        """For the observation tallies (all, or those given): how many block cards may count."""
        room = {}
        for j in range(len(self.tallies)) if tallies is None else tallies:
            tally = self.tallies[j]
            mine = sum(1 for c, p in zip(block, old) if c in tally.cards and tally.hit(p))
            rest = self.value[j] - mine
            room[j] = (tally.lo - rest, tally.hi - rest)
        return room

    def _ok(
        self, block: Sequence[int], epoch: int, state: State, room: dict[int, tuple[int, int]]
    ) -> bool:
        """Whether the block may sit at ``state`` at ``epoch``: domains and that epoch's tallies."""
        if any(h not in self.domains[c].nodes[epoch] for c, h in zip(block, state)):
            return False
        for j in self.at_epoch[epoch]:
            tally = self.tallies[j]
            k = sum(1 for c, h in zip(block, state) if h == tally.holder and c in tally.cards)
            lo, hi = room[j]
            if not lo <= k <= hi:
                return False
        return True

    def _apply(self, block: Sequence[int], drawn: Sequence[Path]) -> None:
        """Install the block's new paths, keeping the tallies up to date."""
        for c, path in zip(block, drawn):
            old = self.paths[c]
            for j in self.of_card[c]:
                tally = self.tallies[j]
                self.value[j] += tally.hit(path) - tally.hit(old)
            self.paths[c] = path


def sample_histories(
    model: Model,
    starts: Sequence[Sequence[Path]],
    count: int,
    seed: int = 0,
    thin: int = 50,
    burn: int = 500,
    deadline: tuple[float, int] | None = None,
) -> list[tuple[int, ...]]:
    """``count`` draws of every card's current holder, spread over one chain per start.

    Each chain makes ``burn`` moves first, then records its state every
    ``thin`` moves; the draws are (approximately) uniform over the
    consistent histories. ``deadline`` (a :func:`time.perf_counter` time and
    a number of draws): past that time, the draws stop at the first round of
    the chains that reaches that number.
    """
    chains = _chains(model, starts, seed)
    for chain in chains:
        for _ in range(burn):
            chain.step()
    draws: list[tuple[int, ...]] = []
    while len(draws) < count:
        if deadline is not None and len(draws) >= deadline[1] and perf_counter() > deadline[0]:
            break
        for chain in chains:
            for _ in range(thin):
                chain.step()
            draws.append(tuple(path[-1] for path in chain.paths))
    return draws[:count]


def _chains(model: Model, starts: Sequence[Sequence[Path]], seed: int) -> list[Chain]:
    """One chain from each start, each with its own random stream drawn from ``seed``."""
    rng = random.Random(seed)
    return [Chain(model, start, random.Random(rng.random())) for start in starts]
