"""Brute force for Black Rose logs, straight from the definitions.

This is the yardstick the solver is tested against, so it uses neither
python-constraint nor the solver's shortcuts (it does not assume the role
prior's closed form): every pair of suspects (``itertools.combinations``)
and every deal of the role cards (``itertools.permutations`` of
:data:`~deduce.games.blackrose.csp.ROLE_CARDS`, one card per non-Rector seat
in seat order, the rest hidden; equal cards count as different deals, which
keeps each deal equally likely) is weighted by

- the prior, ``1/21 · 1/cards!``;
- for each event in log order: ``role``: the dealt role (``rector`` for the
  header's Rector) must be the event's; ``proof``: the suspect is not in the
  pair; ``accuse``: the pair is the accused two exactly when ``correct``;
  ``kill``: the suspect joins the dead; ``goal``: at least ``k`` of the dead
  are not in the pair (each failure weighs 0);
- unless ``model`` is None, for each ``claim`` the chance of its truth value
  under the dealt role's rate (``1 - rate`` when true, ``rate`` when false).

Deals with the Possessed card at the same place (or hidden) are then summed
into one :class:`~deduce.games.blackrose.csp.Hidden` state.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from fractions import Fraction
from itertools import combinations, permutations

from deduce.games.blackrose.claims import ClaimsModel
from deduce.games.blackrose.csp import ROLE_CARDS, Hidden
from deduce.logs.model import Event, GameLog
from deduce.logs.vocabulary.blackrose import suspects_of


def _holds(event: Event, pair: tuple[str, str], roles: Mapping[str, str],
           dead: set[str]) -> bool:
    """Whether a ``role``, ``proof``, ``accuse`` or ``goal`` event holds (others always do)."""
    if event.type == "role":
        return roles[event.get("player")] == event.get("role")
    if event.type == "proof":
        return event.get("suspect") not in pair
    if event.type == "accuse":
        return event.get("correct") == (set(event.get("suspects")) == set(pair))
    if event.type == "goal":
        return len(dead - set(pair)) >= event.get("condition")["innocent_dead_at_least"]
    return True


def _weight(log: GameLog, pair: tuple[str, str], roles: Mapping[str, str],
            model: ClaimsModel | None) -> Fraction:
    """The likelihood of the log's events for one pair and one role deal."""
    dead: set[str] = set()
    weight = Fraction(1)
    for event in log.events:
        if event.type == "kill":
            dead.add(event.get("suspect"))
        elif not _holds(event, pair, roles, dead):
            return Fraction(0)
        elif event.type == "claim" and model is not None:
            rate = Fraction(model.false_rate[roles[event.get("player")]])
            true = event.get("innocent") == (event.get("suspect") not in pair)
            weight *= 1 - rate if true else rate
    return weight


def weighted_states(log: GameLog, model: ClaimsModel | None = None
                    ) -> Iterator[tuple[Hidden, Fraction]]:
    """Every (pair, role deal) of positive weight, as its hidden state and prior × likelihood."""
    players, rector = log.header.players, log.header.extra["rector"]
    seats = [p for p in players if p != rector]
    cards = ROLE_CARDS[len(players)]
    prior = Fraction(1, math.comb(len(suspects_of(log.header)), 2) * math.factorial(len(cards)))
    for first, second in combinations(sorted(suspects_of(log.header)), 2):
        for deal in permutations(cards):
            roles = {**dict(zip(seats, deal)), rector: "rector"}
            weight = _weight(log, (first, second), roles, model)
            if weight:
                possessed = next((p for p in seats if roles[p] == "possessed"), None)
                yield Hidden(first, second, possessed), prior * weight


def brute_joint(log: GameLog, model: ClaimsModel | None = None) -> dict[Hidden, Fraction] | None:
    """The posterior of each hidden state (positive ones only); None when nothing fits.

    ``model`` None: claims are ignored.
    """
    totals: dict[Hidden, Fraction] = {}
    for hidden, weight in weighted_states(log, model):
        totals[hidden] = totals.get(hidden, Fraction(0)) + weight
    if not totals:
        return None
    total = sum(totals.values())
    return {hidden: weight / total for hidden, weight in totals.items()}
