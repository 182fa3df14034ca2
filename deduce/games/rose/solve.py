"""Solve a Rose log: each player's possible colours, their probabilities, conflicts.

The consistent assignments (player -> colour for every seat, the observer
included) come from :mod:`deduce.games.rose.csp`; each is weighted by the
likelihood of the soft events, every player's style summed out
(:mod:`deduce.games.rose.styles`, the default), or by the single-style
``exp(θ · f(a))`` of :mod:`deduce.games.rose.behaviour` (a
:class:`BehaviourModel`, e.g. the named model ``monk``), or by 1 with
``hard`` or without soft events (the prior is uniform over them: see the csp
module), and a player's probability of a colour is the weighted share of
the assignments giving them that colour. The arithmetic is exact
(:class:`~fractions.Fraction`); a soft weight is the exact fraction of the
float ``exp(log-weight - max)``, so without soft evidence the probabilities
are plain count ratios. The styles model also gives each player's style
posterior (``styles``). Candidates are the colours with a
positive probability: exactly the colours a player has in some consistent
assignment, so the all-different reasoning (two players who can only be red
or blue leave red and blue to nobody else) comes from the enumeration.

``guess`` is, for each player, a most probable colour, ties going to the
first in ``COLOURS`` order. :meth:`RoseSolution.best_guesses` is the guess a
player places on day 7: one marker per other player, all of different
colours, maximising the expected number of correct guesses.

When no assignment fits the hard events, the solution carries a minimal set of
them that cannot all hold (soft events never conflict), found by deletion
from the last line back: the set lies within the shortest inconsistent
prefix of the log.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations
from typing import TYPE_CHECKING, Any, ClassVar

from deduce.games.rose.behaviour import BehaviourModel, choices, features, score
from deduce.games.rose.csp import (
    Assignment,
    allowed_colours,
    assignments,
    hard_events,
    is_consistent,
    repeated_reveals,
)
from deduce.games.rose.styles import StyleModel, default_model, weigh
from deduce.logs.formats.rose import COLOURS
from deduce.logs.model import Event, GameLog
from deduce.report import plural
from deduce.subsets import shrink

if TYPE_CHECKING:  # the exposure solves views of the log with this module
    from deduce.games.rose.exposure import Exposure


@dataclass(frozen=True)
class RoseSolution:
    """Who can be which monk, as seen by the log's observer.

    ``players``: the reported players (all but ``me``), in seat order.
    ``probabilities[player]``: colour -> probability, candidates only, in
    ``COLOURS`` order. ``joint``: each possible colouring of the reported
    players (colours in ``players`` order) and its probability, most
    probable first. ``weighed``: how many soft events the weights used.
    ``styles[player]``: style -> probability (``STYLES`` order of
    :mod:`deduce.games.rose.styles`), when a styles model weighed them.
    ``exposure``: how likely each other player is to guess the observer's
    colour on day 7 (:mod:`deduce.games.rose.exposure`), which the game's
    solve adds when the observer's colour is known.
    """

    game: ClassVar[str] = "rose"
    players: tuple[str, ...]
    consistent: bool
    probabilities: dict[str, dict[str, Fraction]] = field(default_factory=dict)
    joint: dict[tuple[str, ...], Fraction] = field(default_factory=dict)
    weighed: int = 0
    styles: dict[str, dict[str, float]] = field(default_factory=dict)
    conflict: tuple[int, ...] = ()
    explanation: tuple[str, ...] = ()
    exposure: Exposure | None = None

    def candidates(self, player: str) -> list[str]:
        """The colours ``player`` can be, in ``COLOURS`` order."""
        return list(self.probabilities[player])

    @property
    def guess(self) -> dict[str, str]:
        """A most probable colour per player (ties: the first in ``COLOURS`` order)."""
        return {p: max(row, key=row.__getitem__) for p, row in self.probabilities.items()}

    def best_guesses(self) -> dict[str, str]:
        """The day-7 guess: the first of :meth:`tied_guesses` (empty when inconsistent)."""
        tied = self.tied_guesses()
        return tied[0] if tied else {}

    def tied_guesses(self) -> list[dict[str, str]]:
        """Every day-7 guess: distinct colours maximising the expected number of right guesses.

        The expectation is the sum of the chosen colours' probabilities, summed
        exactly as whole numbers of one unit (:func:`whole`), so ties are real;
        every injective map from the players to the colours is tried, in
        ``COLOURS`` order, seat by seat. Empty when inconsistent.
        """
        if not self.consistent:
            return []
        cells = [(p, c) for p in self.players for c in self.probabilities[p]]
        counts = dict(zip(cells, whole(self.probabilities[p][c] for p, c in cells)))
        rows = [{c: counts[p, c] for c in self.probabilities[p]} for p in self.players]
        scored = [
            (sum(row.get(c, 0) for row, c in zip(rows, pick)), pick)
            for pick in permutations(COLOURS, len(rows))
        ]
        top = max(score for score, _ in scored)
        return [dict(zip(self.players, pick)) for score, pick in scored if score == top]

    def to_json(self) -> dict[str, Any]:
        """The spec's ``solve --json`` object."""
        if not self.consistent:
            return {
                "game": "rose",
                "consistent": False,
                "exact": True,
                "conflict": list(self.conflict),
            }
        players = {
            p: {
                "candidates": self.candidates(p),
                "probabilities": {c: float(q) for c, q in row.items()},
            }
            for p, row in self.probabilities.items()
        }
        tied = self.tied_guesses()
        styles = {"styles": self.styles} if self.styles else {}
        exposure = self.exposure.to_json() if self.exposure else {}
        return {
            "game": "rose",
            "consistent": True,
            "exact": True,
            "players": players,
            "guess": self.guess,
            "day7_guess": tied[0],
            "day7_tied": len(tied),
            **styles,
            **exposure,
        }


def solve_rose(
    log: GameLog, hard: bool = False, model: BehaviourModel | StyleModel | None = None
) -> RoseSolution:
    """Solve a validated rose log; ``hard`` ignores soft events, ``model`` replaces the default.

    The default is the styles model (:mod:`deduce.games.rose.styles`); a
    :class:`BehaviourModel` is the single-style log-linear reading.
    """
    seats = log.header.players
    reported = tuple(p for p in seats if p != log.header.me)
    possible = assignments(seats, log.events)
    if not possible:
        lines = minimal_conflict(seats, log.events)
        chosen = [e for e in log.events if e.line in lines]
        return RoseSolution(
            reported, False, conflict=lines, explanation=explain_conflict(seats, chosen)
        )
    made = () if hard else choices(seats, log.events)
    model = (model or default_model()) if made else None
    styles: dict[str, dict[str, float]] = {}
    if isinstance(model, StyleModel):
        weighing = weigh(model, seats, log.header.me, possible, made)
        scores = list(weighing.scores)
        styles = {seats[seat]: row for seat, row in weighing.styles.items()}
    else:
        theta = model.vector() if isinstance(model, BehaviourModel) else ()
        scores = [score(theta, features(made, a)) for a in possible]
    weights = soft_weights(scores)
    probabilities = {p: marginal(possible, weights, seats.index(p)) for p in reported}
    return RoseSolution(
        reported,
        True,
        probabilities,
        joint_colourings(possible, weights, [seats.index(p) for p in reported]),
        weighed=len(made),
        styles=styles,
    )


def soft_weights(scores: Sequence[float]) -> list[Fraction]:
    """Exact fractions of ``exp(score - max)``: the largest weight is 1, a score of 0 weighs 1."""
    top = max(scores)
    return [Fraction(math.exp(s - top)) for s in scores]


def whole(values: Iterable[Fraction]) -> list[int]:
    """``values`` as whole numbers of their least common denominator: their ratios, exactly."""
    found = list(values)
    unit = math.lcm(*(q.denominator for q in found))
    return [q.numerator * (unit // q.denominator) for q in found]


def marginal(
    possible: Sequence[Assignment], weights: Sequence[Fraction], seat: int
) -> dict[str, Fraction]:
    """The weighted share of each colour at ``seat``, candidates only, in ``COLOURS`` order."""
    counts = whole(weights)
    totals = dict.fromkeys(COLOURS, 0)
    for assignment, count in zip(possible, counts):
        totals[assignment[seat]] += count
    total = sum(counts)
    return {c: Fraction(n, total) for c, n in totals.items() if n}


def joint_colourings(
    possible: Sequence[Assignment], weights: Sequence[Fraction], seats: Sequence[int]
) -> dict[tuple[str, ...], Fraction]:
    """The weighted share of each colouring of ``seats``, most probable first (ties sorted)."""
    counts = whole(weights)
    totals: dict[tuple[str, ...], int] = {}
    for assignment, count in zip(possible, counts):
        key = tuple(assignment[s] for s in seats)
        totals[key] = totals.get(key, 0) + count
    total = sum(counts)
    return {
        k: Fraction(n, total) for k, n in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    }


def minimal_conflict(players: Sequence[str], events: Sequence[Event]) -> tuple[int, ...]:
    """Lines of a minimal set of hard events that cannot all hold (the log must be inconsistent).

    See :func:`deduce.subsets.shrink`.
    """
    kept = shrink(hard_events(events), lambda trial: not is_consistent(players, trial))
    return tuple(e.line for e in kept)


def describe(event: Event) -> str:
    """A hard event in words, e.g. ``bob revealed red, so is not red``."""
    player, colour = event.get("player"), event.get("colour")
    if event.type == "identity":
        return f"{player} is {colour}"
    return f"{player} revealed {colour}, so is not {colour}"


def _names(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _reason(players: Sequence[str], chosen: Sequence[Event]) -> str:
    """Why the minimal set ``chosen`` cannot hold, in one sentence.

    Either a marker is revealed twice, or (Hall's theorem, and minimality) the
    players it names have fewer colours left between them than there are of them.
    """
    repeated = repeated_reveals(chosen)
    if repeated:
        first, _ = repeated[0]
        return (
            f"{first.get('player')} has a single {first.get('colour')} marker, "
            "which cannot be revealed twice"
        )
    named = [p for p in players if any(e.get("player") == p for e in chosen)]
    left = allowed_colours(named, chosen)
    if len(named) == 1:
        return f"so {named[0]} can be no colour at all"
    shared = [c for c in COLOURS if any(c in colours for colours in left.values())]
    return (
        f"so {_names(named)} have only {_names(shared)} left between them: "
        f"{plural(len(shared), 'colour')} for {len(named)} players, "
        "who are all different monks"
    )


def explain_conflict(players: Sequence[str], chosen: Sequence[Event]) -> tuple[str, ...]:
    """A heading, one sentence per conflicting event, and the reason they conflict."""
    sentences = [f"line {e.line} says {describe(e)}" for e in chosen]
    return ("These events cannot all be true:", *sentences, _reason(players, chosen))
