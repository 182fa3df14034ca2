"""Exact counting of complete histories, and of each card's current holder.

Two exact methods count the same model, each fast where the other is slow,
and the count chooses between them by a prediction:

- card by card over open tallies (:mod:`cardwise`): early and middle game,
  when many cards are unplaced but few transfers are unseen;
- epoch by epoch over complete states (:mod:`forward`): late game, when
  the SAT supports of every epoch leave each card few holders, however many
  transfers were unseen. Its layers are bounded beforehand by
  :func:`~forward.predict_states`; it goes first when that bound is at most
  ``FORWARD_STATES``, and the card count takes over if it has to stop.
  The bound is loose, so up to ``RACE_STATES`` the two run in turns.

Two older methods stay for small decks (:mod:`epochwise`, :mod:`pathwise`)
and run in turns with the card count there, the one that has used less time
going next. Every method is checked against the brute-force enumerator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from deduce.games.abbey.solver.count.cardwise import QUICK_STATES, count_by_cards
from deduce.games.abbey.solver.count.epochwise import count_by_epochs, deal_bound
from deduce.games.abbey.solver.count.forward import Supports, count_forward, predicted_peak
from deduce.games.abbey.solver.count.pathwise import count_by_paths
from deduce.games.abbey.solver.count.turns import Method, race
from deduce.games.abbey.solver.model import Model
from deduce.games.abbey.solver.propagate import propagate

METHODS = ("forward", "cards", "epochs", "paths")
#: Past this many possible deal matrices, the epoch-by-epoch method is not raced.
EPOCH_DEALS = 100_000
#: The forward filter is tried first when no epoch can hold more complete states than this.
FORWARD_STATES = 3_000_000
#: Up to this bound the forward filter races the card count: the bound is loose (late in
#: four- and five-player games the layers are often 100 times smaller).
RACE_STATES = 10**9
#: The most states a layer of the forward filter may hold (about 100 bytes each, all told;
#: its merges go by pieces, so no pause between two slices is long).
MAX_STATES = 6_000_000
#: The most states a layer of the card count may hold: each of its layers is merged in one
#: sort of up to ``PAIRS_PER_STATE`` times as many rows, a pause of about a second here.
CARD_STATES = 750_000


@dataclass(frozen=True)
class Counts:
    """How many complete histories agree with the model, in total and per (card, current holder).

    Exact integers, or floats from a float64 count (``count_histories(exact=False)``).
    """

    total: Any
    holders: tuple[dict[int, Any], ...]  # holders[card][holder index] = histories

    def probabilities(self) -> list[dict[int, Any]]:
        """Each card's current-holder distribution (empty dicts when there is no history).

        Fractions for an exact count, floats for a float64 one.
        """
        if not self.total:
            return [{} for _ in self.holders]
        share: Callable[[Any], Any] = (
            (lambda n: Fraction(n, self.total))
            if isinstance(self.total, int)
            else (lambda n: n / self.total)
        )
        return [{h: share(n) for h, n in sorted(row.items()) if n} for row in self.holders]


def count_histories(
    model: Model,
    methods: Sequence[str] = METHODS,
    max_slices: int | None = None,
    deadline: float | None = None,
    narrowed: bool = False,
    exact: bool = True,
    supports: Supports | Callable[[], Supports | None] | None = None,
    slow: Callable[[], None] | None = None,
) -> Counts | None:
    """Count the histories of ``model`` (a copy is narrowed first; the argument is untouched).

    ``narrowed`` says that ``model`` is already propagated: it is counted
    as it is, without a copy. ``supports`` (the SAT model's
    :meth:`~deduce.games.abbey.solver.sat.cnf.SatModel.supports`, or a
    function that computes them) let the forward filter prune exactly;
    without them it prunes by the domains.
    ``exact=False`` counts in float64 (the same probabilities to about
    1e-15, faster).

    The card count first has a quick try in its greedy order, within
    ``QUICK_STATES`` states a layer (most positions end there, before the
    supports are computed; ``slow`` is called when they do not); then the
    method is chosen among ``methods`` as the module docstring says.
    None comes back when nothing has finished after ``max_slices`` slices
    in all, or by ``deadline`` (a :func:`time.perf_counter` reading), or
    once the process holds more than :func:`~deduce.memory.memory_limit`
    bytes.
    """
    if not narrowed:
        model = model.copy()
    if not narrowed and not propagate(model):
        return Counts(0 if exact else 0.0, tuple({} for _ in model.domains))
    tallies = [t for t in model.tallies if not t.redundant]
    if "cards" in methods:
        quick = race(
            [count_by_cards(model.domains, tallies, exact, QUICK_STATES)], max_slices, deadline
        )
        if quick is not None:
            return Counts(*quick)
    if slow is not None:
        slow()
    known = supports() if callable(supports) else supports
    timeline = model.timeline
    start: dict[str, Callable[[], Method]] = {
        "forward": lambda: count_forward(
            model.domains, tallies, timeline, known, exact, MAX_STATES
        ),
        "cards": lambda: count_by_cards(
            model.domains, tallies, exact, CARD_STATES, quick=False
        ),  # the quick try was made above
        "epochs": lambda: count_by_epochs(model.domains, tallies, timeline),
        "paths": lambda: count_by_paths(model.domains, tallies),
    }
    for group in _plan(model, tallies, methods, known, deadline):
        found = race([start[m]() for m in group], max_slices, deadline)
        if found is not None:
            return Counts(*found)
    return None


def _plan(
    model: Model,
    tallies: Sequence[Any],
    methods: Sequence[str],
    supports: Supports | None,
    deadline: float | None = None,
) -> list[list[str]]:
    """The methods to run, as groups run one after the other (the methods of a group race).

    The forward filter alone first when its predicted layers are small;
    then the card count, with the small-deck methods beside it, and the
    forward filter too while its bound is under ``RACE_STATES``. No group
    at all when ``deadline`` passes while the layers are being bounded.
    """
    first: list[str] = []
    rest = [m for m in ("cards", "epochs", "paths") if m in methods]
    if "epochs" in rest and len(methods) > 1 and deal_bound(model.domains, tallies) > EPOCH_DEALS:
        rest.remove("epochs")
    if "forward" in methods:
        bound = predicted_peak(supports or model.domains, model.timeline.sizes, tallies, deadline)
        if bound is None:
            return []
        if bound <= FORWARD_STATES or not rest:
            first = ["forward"]
        elif bound <= RACE_STATES:
            rest.insert(0, "forward")
    return [group for group in (first, rest) if group]
