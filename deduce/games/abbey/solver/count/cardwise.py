"""Exact counting, card by card, on arrays: the method for many cards and few open constraints.

Method: dynamic programming over the cards, one at a time, with the running
*tally* of every constraint that is still open (some card before and some
card after the current one can change it). Each card's paths are folded,
epoch by epoch, into its distinct *effects* (tally increments and final
holder, with how many paths give each), so a card with thousands of paths
costs only its distinct effects. Cards whose path is certain are taken out
first by subtracting them from the tallies, and cards that share no open
tally are counted apart (*components*), their counts multiplied.

A layer of the count is a numpy array of packed states (see
:class:`_Layout`) with the number of partial histories reaching each: a
card's effects are added to every state at once, the states that left a
tally's range are dropped, and equal states are merged by a sort. The
forward pass keeps, for every surviving (state, effect) pair, the state it
leads to, so that the backward pass (the number of ways to complete each
state) is a gather and a sum; forward times backward gives every card's
current-holder marginals exactly (forward-backward).

Counts are exact Python integers (object arrays) or, with ``exact=False``,
float64, which carries the same probabilities to about 1e-15.
The cost grows with the number of distinct open-tally states: every
transfer whose card is unknown adds a tally.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from deduce.games.abbey.solver.count.order import card_order
from deduce.games.abbey.solver.count.resample import Cap, resample
from deduce.games.abbey.solver.count.turns import in_turns
from deduce.games.abbey.solver.model import Domain, Tally

#: Per card, per holder index: the number of histories (an int, or a float when inexact).
Holders = tuple[dict[int, Any], ...]

#: Units of work (states, matrices) between two pauses of the dict-based counting generators.
SLICE = 200
#: (state, effect) pairs tested at once before a pause: bounds the time between two pauses
#: and the memory of the temporary tables.
BLOCK = 1 << 19
#: A count in the greedy card order gives up past this many states per layer, for the
#: annealed order (see :func:`_count_part`).
QUICK_STATES = 20_000
#: Past this many (state, effect) pairs per allowed state, a layer is declined before merging.
PAIRS_PER_STATE = 2
#: The most bytes the stored layers of one count may hold (the backward pass needs them all).
STORED_BYTES = 400 * 2**20
#: Bits of the cursor (the holder of the card being applied), at the bottom of word 0.
CURSOR_BITS = 4
#: A card's paths are applied in segments of consecutive transfers, each with at most
#: about this many distinct effects (a new segment starts where one would have more).
SEGMENT_EFFECTS = 48
#: The least guide of a state between two segments of a card: the guide there counts the
#: card among those to come, so it could call a live state dead.
GUIDE_FLOOR = 1e-6
#: Exact weights stay int64 while every sum and product stays under this.
SAFE = 2**62
#: Bits of one word of a packed state.
WORD = 64

Work = Generator[None, None, "tuple[Any, Holders] | None"]
#: One component's count: its total and each of its cards' current-holder counts.
Part = Generator[None, None, "tuple[Any, dict[int, dict[int, Any]]] | None"]


def single_path(domain: Domain) -> tuple[int, ...] | None:
    """The card's path when only one is left, else None."""
    if all(len(nodes) == 1 for nodes in domain.nodes):
        return tuple(next(iter(nodes)) for nodes in domain.nodes)
    return None


@dataclass(frozen=True)
class Kept:
    """A tally as the count sees it: bounds net of the fixed cards, and the free cards it counts."""

    lo: int
    hi: int
    cards: tuple[int, ...]  # free cards whose domain can pass the test
    tally: Tally


def count_by_cards(
    domains: Sequence[Domain],
    tallies: Sequence[Tally],
    exact: bool = True,
    max_states: int | None = None,
    cap: Cap | None = None,
    quick: bool = True,
) -> Work:
    """Count histories in total and per (card, current holder), as a generator.

    It yields after every block of work, so that a caller can stop it or run
    it against another method, and returns ``(total, holders)``, or None
    once a layer would hold more than ``max_states`` states, or its stored
    layers more than ``STORED_BYTES``. ``domains``
    must already be propagated; ``tallies`` exclude redundant ones.

    ``quick=False`` leaves out the quick try in the greedy order (see
    :func:`_count_part`), for a caller that made it already.

    With a ``cap``, the count is an unbiased estimate in float64 instead:
    no layer keeps more than ``cap.limit`` states (see :meth:`_Count.run`).
    """
    one: Any = 1 if exact and cap is None else 1.0
    fixed = {c: p for c, d in enumerate(domains) if (p := single_path(d)) is not None}
    free = [c for c in range(len(domains)) if c not in fixed]
    kept = _fold(domains, tallies, fixed, free)
    holders: list[dict[int, Any]] = [{} for _ in domains]
    if kept is None:
        return 0 * one, tuple(holders)
    total = one
    for cards, group in _components(free, kept):
        found = yield from _count_part(cards, group, domains, one, max_states, cap, quick)
        if found is None:
            return None
        part, rows = found
        if not part:
            return 0 * one, tuple({} for _ in domains)
        for c in range(len(domains)):  # what was counted so far times this part
            holders[c] = {h: n * part for h, n in holders[c].items()}
        for c, row in rows.items():
            holders[c] = {h: n * total for h, n in row.items() if n}
        total = total * part
    for c, path in fixed.items():
        holders[c] = {path[-1]: total}
    return total, tuple(holders)


def _count_part(
    cards: list[int],
    kept: list[Kept],
    domains: Sequence[Domain],
    one: Any,
    max_states: int | None,
    cap: Cap | None,
    quick: bool = True,
) -> Part:
    """One component's count: in the greedy order while it stays small, then both orders.

    Most positions count in milliseconds in the greedy order, faster than
    annealing would take. A count whose layers pass ``QUICK_STATES`` goes
    on in the greedy and the annealed order in turns, the first to finish
    answering: the annealing's state bound is rough, and now and then its
    order is the worse one. A capped count takes the annealed order alone.
    """
    if cap is not None:
        return (yield from _Count(cards, kept, domains, one, max_states, cap, True).run())
    if max_states is not None and max_states <= QUICK_STATES:
        return (yield from _Count(cards, kept, domains, one, max_states, None, False).run())
    if quick:
        found = yield from _Count(cards, kept, domains, one, QUICK_STATES, None, False).run()
        if found is not None:
            return found
    runs = [
        _Count(cards, kept, domains, one, max_states, None, anneal).run()
        for anneal in (False, True)
    ]
    return (yield from in_turns(runs))


def _fold(
    domains: Sequence[Domain],
    tallies: Sequence[Tally],
    fixed: dict[int, tuple[int, ...]],
    free: list[int],
) -> list[Kept] | None:
    """The tallies net of the fixed cards; None when one of them can no longer be met."""
    kept = []
    for tally in tallies:
        lo, hi = tally.lo, tally.hi
        for c, path in fixed.items():
            if c in tally.cards and tally.hit(path):
                lo, hi = lo - 1, hi - 1
        able = tuple(c for c in free if c in tally.cards and domains[c].can(tally))
        hi = min(hi, len(able))
        if lo > hi or hi < 0:
            return None
        if able and (lo > 0 or hi < len(able)):  # a tally every count meets says nothing
            kept.append(Kept(max(lo, 0), hi, able, tally))
    return kept


def _components(free: list[int], kept: list[Kept]) -> list[tuple[list[int], list[Kept]]]:
    """The free cards split into groups that share no tally, each with its tallies."""
    parent = {c: c for c in free}

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for k in kept:
        first = root(k.cards[0])
        for c in k.cards[1:]:
            parent[root(c)] = first
    groups: dict[int, tuple[list[int], list[Kept]]] = {}
    for c in free:
        groups.setdefault(root(c), ([], []))[0].append(c)
    for k in kept:
        groups[root(k.cards[0])][1].append(k)
    return list(groups.values())


class _Layout:
    """Where each tally's running value sits in a packed state.

    A state is ``words`` unsigned 64-bit integers. Tally ``j`` owns
    ``width`` bits plus one guard bit above them, in one word, from its
    first card to its last: tallies open at disjoint times share bits. The
    field holds ``v + offset`` (added by the tally's first card), where the
    offset makes ``v == hi + 1`` set the guard bit, so a card's effect is
    one addition and one mask test rejects every state past a maximum. A
    tally whose last card has been applied is checked against its minimum
    and cleared, so equal futures share a state.
    """

    def __init__(self, spans: Sequence[tuple[int, int, int]], cards: int) -> None:
        """``spans``: (first card, last card, hi) of each tally, in the count's order.

        Bits ``0 .. CURSOR_BITS - 1`` hold the *cursor*: the holder of the
        card being applied, between two segments of its paths.
        """
        self.bit: list[int] = []  # absolute bit position: word * WORD + shift
        self.width: list[int] = []
        self.offset: list[int] = []
        # (first, last, start bit, end bit)
        taken: list[tuple[int, int, int, int]] = [(0, cards, 0, CURSOR_BITS)]
        for first, last, hi in spans:
            width = hi.bit_length()
            need = width + 1
            start = self._free_bits(taken, first, last, need)
            taken.append((first, last, start, start + need))
            self.bit.append(start)
            self.width.append(width)
            self.offset.append((1 << width) - 1 - hi)
        self.words = max(1, -(-max((end for *_, end in taken), default=0) // WORD))

    @staticmethod
    def _free_bits(taken: list[tuple[int, int, int, int]], first: int, last: int, need: int) -> int:
        """The lowest start bit of ``need`` bits, within one word, free from first to last."""
        busy = sorted((s, e) for f, la, s, e in taken if f <= last and first <= la)
        start = 0
        for s, e in busy:
            if start // WORD != (start + need - 1) // WORD:  # never straddle two words
                start = (start // WORD + 1) * WORD
            if start + need <= s:
                break
            start = max(start, e)
        if start // WORD != (start + need - 1) // WORD:
            start = (start // WORD + 1) * WORD
        return start

    def split(self, value: int) -> np.ndarray:
        """A packed Python integer as its words."""
        mask = (1 << WORD) - 1
        return np.array([(value >> (WORD * w)) & mask for w in range(self.words)], dtype=np.uint64)


class _Count:
    """One component's count: its card order, the layout, and the two passes."""

    def __init__(
        self,
        cards: list[int],
        kept: list[Kept],
        domains: Sequence[Domain],
        one: Any,
        max_states: int | None,
        cap: Cap | None,
        anneal: bool,
    ) -> None:
        able = np.array([[c in k.cards for c in cards] for k in kept], dtype=bool)
        able = able.reshape(len(kept), len(cards))
        sizes = [sum(len(n) for n in domains[c].nodes) for c in cards]
        self.order = [
            cards[i]
            for i in card_order(able, [k.lo for k in kept], [k.hi for k in kept], sizes, anneal)
        ]
        position = {c: i for i, c in enumerate(self.order)}
        self.kept = kept
        self.able = [sorted(position[c] for c in k.cards) for k in kept]
        self.layout = _Layout(
            [(a[0], a[-1], k.hi) for a, k in zip(self.able, kept)], len(self.order)
        )
        self.domains = domains
        self.one = one
        self.max_states = max_states
        self.cap = cap
        self._completions: dict[tuple[int, int], np.ndarray] = {}

    # -------------------------------------------------------------- compiling each card

    def _segments(self, i: int) -> list[_Segment]:
        """Card ``i``'s paths as segments of consecutive transfers, each a list of effects.

        An effect of a segment takes the card from its holder at the
        segment's first epoch (the cursor; any holder for the first segment)
        to its holder at the last, adding the tallies it passes; a segment
        closes where going on would give more than ``SEGMENT_EFFECTS``
        effects. The first segment's effects also open the card's tallies
        (their offsets) and set the cursor; the last ones leave the cursor
        to be cleared.
        """
        layout, domain = self.layout, self.domains[self.order[i]]
        at_inc: dict[tuple[int, int], int] = defaultdict(int)
        move_inc: dict[tuple[int, int, int], int] = defaultdict(int)
        opened = 0
        for j, (able, k) in enumerate(zip(self.able, self.kept)):
            if able[0] == i:
                opened += layout.offset[j] << layout.bit[j]
            if i in able:
                tally = k.tally
                if tally.kind == "at":
                    at_inc[tally.time, tally.holder] += 1 << layout.bit[j]
                else:
                    move_inc[tally.time, tally.holder, tally.dest] += 1 << layout.bit[j]
        # (cursor at the segment's start, increment, holder now) -> paths; -1: no cursor yet
        layer: dict[tuple[int, int, int], int] = defaultdict(int)
        for h in domain.nodes[0]:
            layer[-1, opened + at_inc[0, h], h] += 1
        segments = []
        for t, step in enumerate(domain.steps, 1):
            nxt = _stepped(layer, step, move_inc, at_inc, t)
            if len(nxt) > SEGMENT_EFFECTS and len(layer) > len({h for *_, h in layer}):
                segments.append(self._segment(layer))
                layer = _stepped(
                    {(h, 0, h): 1 for h in {h for *_, h in layer}}, step, move_inc, at_inc, t
                )
            else:
                layer = nxt
        segments.append(self._segment(layer))
        return segments

    def _segment(self, layer: dict[tuple[int, int, int], int]) -> _Segment:
        """A segment's effects as arrays, in a fixed order.

        Each increment also moves the cursor from the segment's first holder
        (0 in the first segment) to its last, modulo 2^64 in the first word:
        it never borrows from the fields above the cursor.
        """
        effects = sorted(layer.items())
        packed = np.array(
            [self.layout.split(inc) for (_, inc, _), _ in effects], dtype=np.uint64
        ).reshape(len(effects), self.layout.words)
        start = np.array([s for (s, _, _), _ in effects], dtype=np.int64)
        end = np.array([h for (_, _, h), _ in effects], dtype=np.int64)
        packed[:, 0] += (end - np.maximum(start, 0)).astype(np.uint64)
        if isinstance(self.one, int):
            counts = np.array(
                [w for _, w in effects],
                dtype=np.int64 if max(w for _, w in effects) < SAFE else object,
            )
        else:
            counts = np.array([float(w) for _, w in effects])
        return _Segment(packed, start, end, counts)

    def _checks(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """After card ``i``: (upper bias, lower bounds, closing mask, guard bits) as words.

        Closing tallies (card ``i`` is their last) must have reached their
        minimum; open ones must still be able to reach their range with the
        cards left. Both tests run on every field at once: adding the
        *upper bias* ``hi - most`` to a field carries into its guard bit
        exactly when its value passed ``most``; subtracting the packed
        *lower bounds* from the state with every guard bit set clears a
        field's guard bit exactly when its value is under ``least``.
        """
        layout = self.layout
        upper = lower = closing = guard = 0
        for j, (able, k) in enumerate(zip(self.able, self.kept)):
            if not able[0] <= i <= able[-1]:
                continue
            bit, width, offset = layout.bit[j], layout.width[j], layout.offset[j]
            later = [p for p in able if p > i]
            must = sum(self.domains[self.order[p]].must(k.tally) for p in later)
            least, most = k.lo - len(later), k.hi - must
            if most < k.hi:  # past -1 no value fits; a larger bias could carry out of the field
                upper |= (k.hi - max(most, -1)) << bit
            if least > 0:
                lower |= (least + offset) << bit
            if not later:
                closing |= ((1 << (width + 1)) - 1) << bit
            guard |= 1 << (bit + width)
        closing |= (1 << CURSOR_BITS) - 1
        return (
            layout.split(upper),
            layout.split(lower),
            layout.split(closing),
            layout.split(guard),
        )

    # -------------------------------------------------------------- the passes

    def run(self) -> Part:
        """Forward pass, then a backward pass that also gathers the marginals.

        A card's layers are one per segment of its paths (see
        :meth:`_segments`); its marginals come from its last. Exact, unless
        the count has a cap: then every layer past its limit is cut down to
        the limit by :func:`resample`, each kept state
        carrying the inverse of its chance to be kept (its *survival
        factor*), and both passes weigh every state by its factor, so that
        the total and every marginal are unbiased estimates.
        """
        n, words = len(self.order), self.layout.words
        keys = np.zeros((1, words), dtype=np.uint64)
        weights = np.array([self.one], dtype=np.int64 if isinstance(self.one, int) else np.float64)
        layers: list[tuple[Any, ...]] = []
        stored = 0
        for i in range(n):
            upper, lower, closing, guard = self._checks(i)
            segments = self._segments(i)
            for number, segment in enumerate(segments):
                last = number == len(segments) - 1
                checks = (
                    upper,
                    lower if last else np.zeros_like(lower),
                    closing if last else np.zeros_like(closing),
                    guard,
                )
                parts = []
                rows_at_once = max(1, BLOCK // max(1, len(segment.inc)))
                pairs = 0
                for lo in range(0, max(1, len(keys)), rows_at_once):  # once when none is left
                    parts.append(_advance(keys[lo : lo + rows_at_once], segment, checks, lo))
                    pairs += len(parts[-1][0])
                    if self.max_states is not None and pairs > PAIRS_PER_STATE * self.max_states:
                        return None
                    yield
                src = np.concatenate([p[0] for p in parts])
                eff = np.concatenate([p[1] for p in parts])
                new = np.concatenate([p[2] for p in parts])
                weights, ways = _widened(weights, segment.ways)
                keys, summed, dst = _merge(new, weights[src] * ways[eff])
                factor = np.ones(len(keys))
                if self.cap is not None and len(keys) > self.cap.limit:
                    self.cap.cut = True
                    # between two segments of a card, the guide of the card before, never 0
                    guide = (
                        self.guide(i, keys)
                        if last
                        else np.maximum(self.guide(i - 1, keys), GUIDE_FLOOR)
                    )
                    chosen, factor = resample(summed * guide, self.cap.limit, self.cap.rng)
                    place = np.full(len(keys), -1, dtype=np.int64)
                    place[chosen] = np.arange(len(chosen))
                    keys, summed, dst = keys[chosen], summed[chosen] * factor, place[dst]
                    alive = dst >= 0
                    src, eff, dst = src[alive], eff[alive], dst[alive]
                elif self.max_states is not None and len(keys) > self.max_states:
                    return None
                layers.append((weights, src, eff, dst, segment.end if last else None, ways, factor))
                stored += sum(a.nbytes for a in (weights, src, eff, dst, factor))
                if self.cap is None and stored > STORED_BYTES:
                    return None
                weights = summed
                yield
        rows: list[dict[int, Any]] = [{} for _ in self.order]
        wide = weights.dtype == object or (weights.dtype == np.int64 and weights.sum() >= SAFE)
        ahead = np.full(len(weights), self.one, dtype=object if wide else weights.dtype)
        card = n
        for _ in range(len(layers)):
            before, src, eff, dst, holder, ways, factor = layers.pop()
            if wide:  # every product below is at most the total: int64 unless it is not
                before, ways = before.astype(object), ways.astype(object)
            onward = ways[eff] * ahead[dst]
            if self.cap is not None:
                onward = onward * factor[dst]
            ahead = _sum_by(src, onward, len(before))
            if holder is not None:  # a card's last segment: its current holder's marginals
                card -= 1
                through = before[src] * onward
                row = rows[card]
                held = holder[eff]
                for h in np.unique(held):
                    row[int(h)] = _scalar(through[held == h].sum())
            yield
        return _scalar(ahead[0]), dict(zip(self.order, rows))

    # -------------------------------------------------------------- the look-ahead guide

    def guide(self, i: int, keys: np.ndarray) -> np.ndarray:
        """Each state's chance, roughly, to complete after card ``i``: what resampling favours.

        For every tally still open, the cards left to pass its test do so
        independently, each with the share of its paths that pass; the
        chance that the tally then ends within its range, multiplied over
        the open tallies.
        """
        layout = self.layout
        chance = np.ones(len(keys))
        for j, able in enumerate(self.able):
            if not able[0] <= i < able[-1]:
                continue
            table = self._completion(j, i)
            word, shift = divmod(layout.bit[j], WORD)
            field = (keys[:, word] >> np.uint64(shift)) & np.uint64((1 << layout.width[j]) - 1)
            value = field.astype(np.int64) - layout.offset[j]
            chance *= table[np.clip(value, 0, len(table) - 1)]
        return chance

    def _completion(self, j: int, i: int) -> np.ndarray:
        """Tally ``j`` after card ``i``: per value so far, the chance the rest fit its range.

        Computed once per (tally, card): every resampled layer of the card asks again.
        """
        found = self._completions.get((j, i))
        if found is None:
            found = self._completions[j, i] = self._completion_table(j, i)
        return found

    def _completion_table(self, j: int, i: int) -> np.ndarray:
        """:meth:`_completion`, computed."""
        k = self.kept[j]
        pmf = np.ones(1)
        for p in self.able[j]:
            if p > i:
                q = pass_share(self.domains[self.order[p]], k.tally)
                pmf = np.convolve(pmf, [1 - q, q])
        cdf = np.concatenate([[0.0], np.cumsum(pmf)])
        value = np.arange(k.hi + 1)
        top = np.clip(k.hi - value, -1, len(pmf) - 1)
        bottom = np.clip(k.lo - value, 0, len(pmf))
        return np.maximum(cdf[top + 1] - cdf[bottom], 0.0)


def pass_share(domain: Domain, tally: Tally) -> float:
    """The share of a card's paths that pass a tally's location test."""
    forward = [dict.fromkeys(domain.nodes[0], 1)]
    for t, step in enumerate(domain.steps, 1):
        row: dict[int, int] = defaultdict(int)
        for a, b in step:
            if a in forward[-1] and b in domain.nodes[t]:
                row[b] += forward[-1][a]
        forward.append(row)
    backward = [dict.fromkeys(domain.nodes[-1], 1)]
    for t in range(len(domain.steps), 0, -1):
        row = defaultdict(int)
        for a, b in domain.steps[t - 1]:
            if b in backward[0] and a in domain.nodes[t - 1]:
                row[a] += backward[0][b]
        backward.insert(0, row)
    total = sum(forward[-1].values())
    if tally.kind == "at":
        hits = forward[tally.time].get(tally.holder, 0) * backward[tally.time].get(tally.holder, 0)
    else:
        t = tally.time
        edge = (tally.holder, tally.dest)
        hits = (
            forward[t - 1].get(tally.holder, 0) * backward[t].get(tally.dest, 0)
            if edge in domain.steps[t - 1]
            else 0
        )
    return hits / total if total else 0.0


@dataclass(frozen=True)
class _Segment:
    """Effects of one segment of a card's paths: increments, cursor before and after, paths.

    ``start`` is -1 in the card's first segment, which the cursor does not constrain.
    """

    inc: np.ndarray  # effects x words
    start: np.ndarray
    end: np.ndarray
    ways: np.ndarray


def _stepped(
    layer: dict[tuple[int, int, int], int],
    step: set[tuple[int, int]],
    move_inc: dict[tuple[int, int, int], int],
    at_inc: dict[tuple[int, int], int],
    t: int,
) -> dict[tuple[int, int, int], int]:
    """A segment's effects carried over transfer ``t``: every allowed step from each holder."""
    nxt: dict[tuple[int, int, int], int] = defaultdict(int)
    for (first, inc, h), ways in layer.items():
        for a, b in step:
            if a == h:
                nxt[first, inc + move_inc[t, a, b] + at_inc[t, b], b] += ways
    return nxt


def _advance(
    keys: np.ndarray,
    segment: _Segment,
    checks: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    first: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every effect of a segment applied to a block of states: the surviving pairs.

    Returns (source, effect, new state) of each. ``first`` is the index of
    the block's first state in the layer. An effect applies only to the
    states whose cursor is where it starts. The
    tests run word by word on (state, effect) tables, leaving out the ones
    a word does not need; only the surviving pairs are then packed.
    """
    upper, lower, closing, guard = checks
    inc = segment.inc
    if segment.start[0] >= 0:
        cursor = (keys[:, 0] & np.uint64((1 << CURSOR_BITS) - 1)).astype(np.int64)
        bad = cursor[:, None] != segment.start[None, :]
    else:
        bad = np.zeros((len(keys), len(inc)), dtype=bool)
    for w in range(keys.shape[1]):
        if not guard[w]:
            continue
        new = keys[:, w, None] + inc[None, :, w]
        if upper[w]:
            bad |= ((new | (new + upper[w])) & guard[w]) != 0
        else:
            bad |= (new & guard[w]) != 0
        if lower[w]:
            bad |= (((new | guard[w]) - lower[w]) & guard[w]) != guard[w]
    src, eff = np.nonzero(~bad)
    return ((src + first).astype(np.int32), eff.astype(np.int32), (keys[src] + inc[eff]) & ~closing)


def _merge(keys: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Equal states merged: the distinct states, their summed weights, each input's index.

    States of several words are sorted by a 64-bit mix of their words, and
    runs of equal states in that order merged; a collision of the mix can
    only leave a state in two entries, whose counts still add up right.
    """
    if len(keys) == 0:
        return keys, weights, np.zeros(0, dtype=np.int32)
    order = np.argsort(_mix(keys))
    ordered = keys[order]
    starts = np.zeros(len(keys), dtype=bool)
    starts[0] = True
    for w in range(keys.shape[1]):
        starts[1:] |= ordered[1:, w] != ordered[:-1, w]
    first = np.flatnonzero(starts)
    index = np.empty(len(keys), dtype=np.int32)
    index[order] = np.cumsum(starts) - 1
    return ordered[first], np.add.reduceat(weights[order], first), index


def _mix(keys: np.ndarray) -> np.ndarray:
    """One 64-bit sort key per state: the state itself when it is one word, else a mix."""
    if keys.shape[1] == 1:
        return keys[:, 0]
    mixed = keys[:, 0].copy()
    for w in range(1, keys.shape[1]):
        mixed *= np.uint64(0x9E3779B97F4A7C15)
        mixed ^= mixed >> np.uint64(29)
        mixed ^= keys[:, w]
    return mixed


def _scalar(value: Any) -> Any:
    """A numpy scalar as the Python number it holds (Python integers pass through)."""
    return value.item() if isinstance(value, np.generic) else value


def _widened(weights: np.ndarray, ways: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact weights and path counts as Python integers once their products could pass int64."""
    if weights.dtype == np.int64 and ways.dtype == np.int64:
        if float(weights.sum()) * float(ways.max(initial=1)) < SAFE:
            return weights, ways
    if weights.dtype == np.float64:
        return weights, ways
    return weights.astype(object), ways.astype(object)


def _sum_by(groups: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """``values`` summed per group (``groups`` ascending), ``size`` groups, zeros where empty."""
    if values.dtype == np.float64:
        return np.bincount(groups, weights=values, minlength=size)
    out = np.zeros(size, dtype=values.dtype)
    if len(groups):
        starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        out[groups[starts]] = np.add.reduceat(values, starts)
    return out
