"""Exact counting of complete histories, and of each card's current holder.

Two exact methods count the same model, each fast where the other is slow:
card by card over open tallies (:mod:`cardwise`: many cards, few unseen
transfers) and epoch by epoch over the counts of interchangeable card classes
(:mod:`epochwise`: few kinds of card, many transfers, small decks, spectators).
They take turns under a state budget that grows tenfold each round, so a
position costs about as much as the cheaper method needs; the last round has
no budget. Both are checked against the brute-force enumerator.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from deduce.games.abbey.cardwise import count_by_cards
from deduce.games.abbey.epochwise import count_by_epochs
from deduce.games.abbey.model import Model
from deduce.games.abbey.propagate import propagate

#: State budgets of the successive rounds (None: unlimited).
BUDGETS = (2_000, 20_000, 200_000, None)


@dataclass(frozen=True)
class Counts:
    """How many complete histories agree with the model, in total and per (card, current holder)."""

    total: int
    holders: tuple[dict[int, int], ...]  # holders[card][holder index] = histories

    def probabilities(self) -> list[dict[int, Fraction]]:
        """Each card's current-holder distribution (empty dicts when there is no history)."""
        if not self.total:
            return [{} for _ in self.holders]
        return [{h: Fraction(n, self.total) for h, n in sorted(row.items()) if n}
                for row in self.holders]


def count_histories(model: Model, method: str | None = None) -> Counts:
    """Count the histories of ``model`` (a copy is narrowed first; the argument is untouched).

    ``method`` forces ``"cards"`` or ``"epochs"``; by default they take turns.
    """
    model = model.copy()
    if not propagate(model):
        return Counts(0, tuple({} for _ in model.domains))
    tallies = [t for t in model.tallies if not t.redundant]

    def by_cards(budget: int | None):
        return count_by_cards(model.domains, tallies, budget)

    def by_epochs(budget: int | None):
        return count_by_epochs(model.domains, tallies, model.timeline, budget)

    methods = {"cards": [by_cards], "epochs": [by_epochs], None: [by_epochs, by_cards]}[method]
    for budget in BUDGETS:
        for run in methods:
            found = run(budget)
            if found is not None:
                return Counts(*found)
    raise AssertionError("the last round has no budget")
