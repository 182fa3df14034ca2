"""The forward filter's hot loop compiled (numba) against today's numpy, on whole-game positions.

The forward filter (``count/forward.py``) spends most of a late count
expanding states at each transfer: listing every allowed choice of movers
on every edge, adding their moves to the keys, checking the epoch's
observations and merging equal states. Today that is numpy: pairs of
(state, choice) as arrays, a product of edges by ``repeat``, a mask per
observation, a merge by sorting packed keys. This script replaces the
expansion with one compiled loop (numba, not a dependency of deduce:
``pip install numba``) that walks each state's children as an odometer
over the edges' valid choices, carries the observation counts
incrementally, and writes only the children that meet them; the merge
stays numpy's. Optionally (``--hash``) it also times numba's best
alternative to the sort merge, an open-addressing hash table, on the
same number of rows.

For each position it runs the exact filter both ways (``--cap 0``), or one
capped replicate both ways, and checks that the totals agree:

    pip install numba
    python benchmarks/compiled.py --positions 5:1:100 5:1:160 5:0:175 --hash
    python benchmarks/compiled.py --positions 5:1:80 6:0:160 --cap 4096

The first compiled call of a process compiles the loop (seconds; cached
on disk after); every figure here is from a second run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import numpy as np
from chances import Position, at_positions, position, position_arguments
from tabulate import tabulate

from deduce.games.abbey.solver.count import forward
from deduce.games.abbey.solver.count.forward import count_forward
from deduce.games.abbey.solver.count.resample import Cap

try:
    from numba import njit
except ImportError:  # pragma: no cover - the script's only requirement beyond deduce
    sys.exit("benchmarks/compiled.py needs numba: pip install numba")


@njit(cache=True, inline="always")
def _move(key, count, bad, added, delta, e, r_off, r_obs, o_lo, o_hi, old, new):  # type: ignore[no-untyped-def]
    """Edge ``e`` goes from its ``old``-th valid choice to its ``new``-th (-1: none yet).

    The key and the counts of the observations the edge can change follow;
    ``bad[0]`` counts the observations out of bounds.
    """
    for w in range(key.shape[0]):
        if old >= 0:
            key[w] -= added[e, old, w]
        key[w] += added[e, new, w]
    for q in range(r_off[e], r_off[e + 1]):
        o = r_obs[q]
        was = count[o] < o_lo[o] or count[o] > o_hi[o]
        if old >= 0:
            count[o] -= delta[e, old, q - r_off[e]]
        count[o] += delta[e, new, q - r_off[e]]
        now = count[o] < o_lo[o] or count[o] > o_hi[o]
        bad[0] += now - was


@njit(cache=True)
def _expand(
    keys,
    weights,
    start,
    stop,
    e_src,
    e_dst,
    e_sure,
    e_cards,
    e_off,
    m_word,  # type: ignore[no-untyped-def]
    m_shift,
    m_mask,
    m_digit,
    move_ok,
    stay_ok,
    shifts,
    c_pos,
    c_mask,
    c_off,
    c_n,
    e_k,
    o_base,
    o_lo,
    o_hi,
    o_holder,
    o_off,
    t_word,
    t_shift,
    t_mask,
    t_digit,
    tested,
    r_off,
    r_obs,
    out_keys,
    out_weights,
):
    """The children of states ``start`` to ``stop`` that meet the observations, until full.

    Each state's children are an odometer over the edges' valid choices,
    the last edge fastest; a step changes the key and the counts of the
    observations whose holder is the edge's source or destination
    (``r_obs[r_off[e]:r_off[e + 1]]``). Returns (the next state to expand,
    rows written); a state whose children alone do not fit returns (minus
    their number, 0).
    """
    rows, words, edges, observed = len(out_weights), keys.shape[0], len(e_src), len(o_base)
    most = c_n.max()
    added = np.zeros((edges, most, words), dtype=np.uint64)
    delta = np.zeros((edges, most, max(1, len(r_obs))), dtype=np.int64)
    valid = np.zeros(edges, dtype=np.int64)
    cols = np.zeros(64, dtype=np.int64)
    index = np.zeros(edges, dtype=np.int64)
    key = np.zeros(words, dtype=np.uint64)
    count = np.zeros(observed, dtype=np.int64)
    bad = np.zeros(1, dtype=np.int64)
    written = 0
    for i in range(start, stop):
        alive = True
        for e in range(edges):  # the cards at the edge's source, and its valid choices
            n = 0
            for q in range(e_off[e], e_off[e + 1]):
                if q < e_off[e] + e_sure[e] or (
                    (keys[m_word[q], i] >> np.uint64(m_shift[q])) & np.uint64(m_mask[q])
                ) == np.uint64(m_digit[q]):
                    cols[n] = e_cards[q]
                    n += 1
            cannot_move, cannot_stay = 0, 0
            for p in range(n):
                if not move_ok[e, cols[p]]:
                    cannot_move |= 1 << p
                if not stay_ok[e, cols[p]]:
                    cannot_stay |= 1 << p
            v = 0
            for p in range(c_n[e]):
                mask = c_mask[c_off[e] + p]
                if (mask & cannot_move) == 0 and (mask & cannot_stay) == cannot_stay:
                    for w in range(words):
                        added[e, v, w] = 0
                    for q in range(r_off[e + 1] - r_off[e]):
                        delta[e, v, q] = 0
                    for j in range(e_k[e]):
                        c = cols[c_pos[c_off[e] + p, j]]
                        for w in range(words):
                            added[e, v, w] += shifts[e, w, c]
                        for q in range(r_off[e], r_off[e + 1]):
                            o = r_obs[q]
                            if tested[o, c]:
                                delta[e, v, q - r_off[e]] += (o_holder[o] == e_dst[e]) - (
                                    o_holder[o] == e_src[e]
                                )
                    v += 1
            valid[e] = v
            if v == 0:
                alive = False
                break
        if not alive:
            continue
        children = 1
        for e in range(edges):
            children *= valid[e]
        if written + children > rows:
            return (i, written) if written else (-children, 0)
        for w in range(words):
            key[w] = keys[w, i]
        bad[0] = 0
        for o in range(observed):
            count[o] = o_base[o]
            for q in range(o_off[o], o_off[o + 1]):
                if (
                    (keys[t_word[q], i] >> np.uint64(t_shift[q])) & np.uint64(t_mask[q])
                ) == np.uint64(t_digit[q]):
                    count[o] += 1
            bad[0] += count[o] < o_lo[o] or count[o] > o_hi[o]
        for e in range(edges):
            index[e] = 0
            _move(key, count, bad, added, delta, e, r_off, r_obs, o_lo, o_hi, -1, 0)
        while True:
            if bad[0] == 0:
                for w in range(words):
                    out_keys[w, written] = key[w]
                out_weights[written] = weights[i]
                written += 1
            e = edges - 1
            while e >= 0:
                if index[e] + 1 < valid[e]:
                    _move(
                        key,
                        count,
                        bad,
                        added,
                        delta,
                        e,
                        r_off,
                        r_obs,
                        o_lo,
                        o_hi,
                        index[e],
                        index[e] + 1,
                    )
                    index[e] += 1
                    break
                _move(key, count, bad, added, delta, e, r_off, r_obs, o_lo, o_hi, index[e], 0)
                index[e] = 0
                e -= 1
            if e < 0:
                break
    return stop, written


def _tables(run: Any, t: int, code: Any, edges: list[Any]) -> tuple[np.ndarray, ...]:
    """The edges, choices and observations of transfer ``t`` as the loop's flat arrays."""
    ints = lambda values: np.array(values, dtype=np.int64)  # noqa: E731
    cards, offsets, fields = [], [0], []
    for edge in edges:
        for c in edge.sure:
            cards.append(int(c))
            fields.append((0, 0, 0, 0))
        for c in edge.maybe:
            cards.append(c)
            fields.append((*code.fields[c], int(code.digits[c, edge.src])))
        offsets.append(len(cards))
    most = max(edge.k for edge in edges)
    positions, masks, counts = [], [], []
    for edge in edges:
        picks, bits = forward.edge_choices(edge.size, edge.k)
        padded = np.zeros((len(bits), most), dtype=np.int64)
        padded[:, : edge.k] = picks
        positions.append(padded)
        masks.append(bits)
        counts.append(len(bits))
    allowed = run.allowed[t]
    observed = run.observed[t]
    moves = run.timeline.transfers[t - 1].moves
    tested = np.zeros((len(observed), run.cards), dtype=np.bool_)
    bases, tests, test_offsets = [], [], [0]
    for o, obs in enumerate(observed):
        bases.append(sum(allowed[c] == {obs.holder} for c in obs.cards))
        for c in obs.cards:
            if obs.holder in allowed[c] and len(allowed[c]) > 1:
                tested[o, c] = True
                tests.append((*code.fields[c], int(code.digits[c, obs.holder])))
        test_offsets.append(len(tests))
    relevant = [
        [o for o, obs in enumerate(observed) if obs.holder in (edge.src, dst) and tested[o].any()]
        for edge, (_, dst, _) in zip(edges, moves, strict=True)
    ]
    field = ints(fields).reshape(-1, 4).T
    test = ints(tests).reshape(-1, 4).T
    return (
        ints([e.src for e in edges]),
        ints([dst for _, dst, _ in moves]),
        ints([len(e.sure) for e in edges]),
        ints(cards),
        ints(offsets),
        *field,
        np.array([e.move for e in edges]),
        np.array([e.stay for e in edges]),
        np.stack([e.shifts for e in edges]).astype(np.uint64),
        np.concatenate(positions),
        np.concatenate(masks).astype(np.int64),
        ints(np.cumsum([0, *counts])[:-1]),
        ints(counts),
        ints([e.k for e in edges]),
        ints(bases),
        ints([obs.lo for obs in observed]),
        ints([obs.hi for obs in observed]),
        ints([obs.holder for obs in observed]),
        ints(test_offsets),
        *test,
        tested,
        ints(np.cumsum([0, *map(len, relevant)])),
        ints([o for r in relevant for o in r]),
    )


_NUMPY = forward._Filter._transfer


def _compiled(self: Any, layer: Any, t: int) -> Generator[None, None, Any]:
    """``_Filter._transfer`` with the expansion compiled (numpy's for Python-integer weights)."""
    ok = self._steps(t)
    layer = self._movable(layer, ok, t)
    needed = [a | b for a, b in zip(self.allowed[t - 1], self.allowed[t], strict=True)]
    code = layer.code
    if not all(n <= p for n, p in zip(needed, code.possible, strict=True)):
        code = forward.StateCode(needed, self.holders)
        layer = forward._Layer(code.recode(layer.keys, layer.code), layer.weights, code)
    weights = self._widened(layer.weights)
    if not len(layer) or weights.dtype == object or not code.words:
        return (yield from _NUMPY(self, layer, t))
    edges = [self._edge(t, ok, move, code) for move in self.timeline.transfers[t - 1].moves]
    tables = _tables(self, t, code, edges)
    keys, size = np.ascontiguousarray(layer.keys), forward.ROWS
    pile = forward._Pile(code, self.cap, lambda merged: self._guide(merged, t))
    start = 0
    while start < keys.shape[1]:
        out_keys = np.empty((code.words, size), dtype=np.uint64)
        out_weights = np.empty(size, dtype=weights.dtype)
        start_next, written = _expand(
            keys, weights, start, keys.shape[1], *tables, out_keys, out_weights
        )
        if start_next < 0:  # one state has more children than a block holds
            size = -start_next
            continue
        pile.add(forward._Layer(out_keys[:, :written], out_weights[:written], code))
        if self._over(pile.merged):
            return None
        start = start_next
        yield
    merged = pile.collapse()
    return None if self._over(len(merged)) else merged


def _count(at: Position, cap: int, seed: int) -> tuple[float, Any]:
    """(seconds, total) of one exact count (``cap`` 0) or one capped replicate."""
    limit = Cap(cap, np.random.default_rng([seed, cap])) if cap else None
    run = count_forward(
        at.model.domains, at.tallies, at.timeline, at.supports, max_states=10**8, cap=limit
    )
    start = time.perf_counter()
    try:
        while True:
            next(run)
    except StopIteration as done:
        found = done.value
    return time.perf_counter() - start, None if found is None else found[0]


@njit(cache=True)
def _hash_merge(keys, weights, bits):  # type: ignore[no-untyped-def]
    """Equal keys summed in an open-addressing table of 2**bits slots: the distinct keys."""
    mask = (1 << bits) - 1
    table = np.zeros(1 << bits, dtype=np.uint64)
    sums = np.zeros(1 << bits, dtype=weights.dtype)
    used = np.zeros(1 << bits, dtype=np.bool_)
    distinct = 0
    for i in range(len(keys)):
        x = keys[i]  # splitmix64's finaliser
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
        j = np.int64(x & np.uint64(mask))
        while used[j] and table[j] != keys[i]:
            j = (j + 1) & mask
        if not used[j]:
            used[j], table[j], distinct = True, keys[i], distinct + 1
        sums[j] += weights[i]
    return distinct


def _merges(rows: int, distinct: int) -> list[object]:
    """ns a row: numba's hash merge against today's sort merge, on random 36-bit keys.

    36 bits: twelve cards of up to eight holders each, a one-word key with
    room for the row index that today's merge packs below it.
    """
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 1 << 36, distinct).astype(np.uint64)[rng.integers(0, distinct, rows)]
    weights = np.ones(rows, dtype=np.int64)
    _hash_merge(keys[:8], weights[:8], 4)
    start = time.perf_counter()
    _hash_merge(keys, weights, (2 * distinct).bit_length() + 1)
    hashed = time.perf_counter() - start
    start = time.perf_counter()
    forward.merge_states(keys.copy()[None, :], weights, forward.StateCode([set(range(8))] * 12, 8))
    sorted_ = time.perf_counter() - start
    return [
        f"{rows:,} rows, {distinct:,} distinct",
        f"{hashed / rows * 1e9:.1f}",
        f"{sorted_ / rows * 1e9:.1f}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    position_arguments(parser)
    parser.add_argument("--cap", type=int, default=0, help="0: the exact count")
    parser.add_argument("--hash", action="store_true", help="also time a compiled hash merge")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec, log, k in at_positions(args.positions, args.games, args.seed, Path(tmp)):
            at = position(log, k)
            forward._Filter._transfer = _compiled  # type: ignore[method-assign]
            _count(at, args.cap, k)  # compiles, or loads the compiled loop
            compiled, total = _count(at, args.cap, k)
            forward._Filter._transfer = _NUMPY  # type: ignore[method-assign]
            numpy, expected = _count(at, args.cap, k)
            agree = total == expected if not args.cap else abs(total / expected - 1) < 1e-9
            rows.append(
                [
                    spec,
                    f"{numpy:.2f}",
                    f"{compiled:.2f}",
                    f"{numpy / compiled:.2f}x",
                    "yes" if agree else "NO",
                ]
            )
            print(*rows[-1], sep="  ", flush=True)
    print(
        tabulate(
            rows,
            headers=["position", "numpy (s)", "compiled (s)", "speed-up", "same total"],
            tablefmt="github",
        )
    )
    if args.hash:
        print(
            tabulate(
                [_merges(8_000_000, d) for d in (100_000, 1_700_000)],
                headers=["merge", "hash (ns a row)", "sort (ns a row)"],
                tablefmt="github",
            )
        )


if __name__ == "__main__":
    main()
