"""Reliability tables: how often what was given chance p came true, by decile of p.

A *guess* is one probability distribution over some answers and the answer
that was true. :class:`Reliability` sorts every answer's probability into
its decile (0-10%, ..., 90-100%; a probability of exactly 1 goes to the
last) and counts, per decile, how many answers fell there, their summed
probability and how many of them were true. A calibrated solver's answers
in a decile come true about as often as their mean chance says: that is the
check's reliability table, for every game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The number of bins: one per ten points of probability.
DECILES = 10
#: A decile is judged (:meth:`Reliability.worst_gap`) when it holds at least this many answers.
JUDGED = 200
#: One decile's tally: how many answers, their summed probability, how many came true.
Bin = tuple[int, float, int]


def decile(p: float) -> int:
    """The decile of a probability (1 goes to the last)."""
    return min(int(p * DECILES), DECILES - 1)


@dataclass(frozen=True)
class Reliability:
    """Per decile: answers given a chance in it, their summed chance, how many were true."""

    bins: tuple[Bin, ...] = ((0, 0.0, 0),) * DECILES

    def add(self, chances: Mapping[str, float], truth: str) -> Reliability:
        """The table with one more guess: ``chances`` over answers, ``truth`` the true one."""
        bins = [list(b) for b in self.bins]
        for answer, p in chances.items():
            row = bins[decile(p)]
            row[0], row[1], row[2] = row[0] + 1, row[1] + p, row[2] + (answer == truth)
        return Reliability(tuple((int(n), float(s), int(h)) for n, s, h in bins))

    def __add__(self, other: Reliability) -> Reliability:
        return Reliability(
            tuple(
                (a[0] + b[0], a[1] + b[1], a[2] + b[2])
                for a, b in zip(self.bins, other.bins, strict=True)
            )
        )

    def to_json(self, true_key: str = "true_share") -> list[dict[str, Any]]:
        """Per decile: answers, their mean chance, the share that came true (key ``true_key``)."""
        return [
            {
                "decile": f"{10 * d}-{10 * d + 10}%",
                "candidates": count,
                "mean_probability": round(total / count, 4) if count else None,
                true_key: round(hits / count, 4) if count else None,
            }
            for d, (count, total, hits) in enumerate(self.bins)
        ]

    def worst_gap(self, least: int = JUDGED) -> float | None:
        """The largest |true share - mean chance| over deciles of at least ``least`` answers."""
        gaps = [abs(hits - total) / count for count, total, hits in self.bins if count >= least]
        return max(gaps) if gaps else None


def reliability_rows(
    rows: list[dict[str, Any]], true_key: str = "true_share"
) -> list[list[str | int]]:
    """A reliability table's JSON rows as table cells: decile, answers, mean chance, true share."""

    def cell(value: float | None) -> str:
        return "" if value is None else f"{100 * value:.1f}%"

    return [
        [row["decile"], row["candidates"], cell(row["mean_probability"]), cell(row[true_key])]
        for row in rows
    ]


#: The column headings of :func:`reliability_rows`.
RELIABILITY_HEADINGS: tuple[str, ...] = ("chance", "answers", "mean chance", "came true")
