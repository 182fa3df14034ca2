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
- unless ``model`` is None, a sum over every vector of levels of the
  players (``itertools.product``, one level per player, the Rector too):
  the vector's prior times, for each ``claim``, the chance of its kind and
  truth value under its author's level and dealt role: ``1 - g`` for a claim
  of innocence, ``g`` for one of guilt (``g`` the level's ``guilty_rate``,
  1/2 without one), times ``1 - rate`` when true, ``rate`` when false
  (``rate`` the level's ``guilty_false_rate`` for a claim of guilt when it
  has one, else its ``false_rate``). The vector's prior comes from its definition:
  independent levels, the product of the levels' priors; exchangeable ones
  (``concentration`` ``A``), the Dirichlet-multinomial chance of the vector,
  ``Γ(A) / Γ(A + n) · Π_l Γ(α_l + n_l) / Γ(α_l)`` with ``α_l = A · prior_l``,
  written as rising factorials. Players without claims are summed like
  anyone (the solver leaves them out).

Deals with the Possessed card at the same place (or hidden) are then summed
into one :class:`~deduce.games.blackrose.csp.Hidden` state.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from fractions import Fraction
from itertools import combinations, permutations, product

from deduce.games.blackrose.claims import ClaimsModel
from deduce.games.blackrose.csp import ROLE_CARDS, Hidden
from deduce.logs.formats.blackrose import suspects_of
from deduce.logs.model import Event, GameLog


def _holds(event: Event, pair: tuple[str, str], roles: Mapping[str, str], dead: set[str]) -> bool:
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


def _rising(x: Fraction, n: int) -> Fraction:
    """``x (x + 1) ... (x + n - 1)``."""
    return math.prod((x + i for i in range(n)), start=Fraction(1))


def level_prior(model: ClaimsModel, vector: tuple[int, ...]) -> Fraction:
    """The prior of one vector of levels (indexes into ``model.levels``), by definition."""
    total = sum((Fraction(level.prior) for level in model.levels), Fraction(0))
    prior = [Fraction(level.prior) / total for level in model.levels]
    if model.concentration is None:
        return math.prod((prior[level] for level in vector), start=Fraction(1))
    a = Fraction(model.concentration)
    counts = [vector.count(level) for level in range(len(prior))]
    return math.prod(
        (_rising(a * p, n) for p, n in zip(prior, counts)), start=Fraction(1)
    ) / _rising(a, len(vector))


def _claims_weight(
    log: GameLog,
    pair: tuple[str, str],
    roles: Mapping[str, str],
    model: ClaimsModel,
    levels: Mapping[str, int],
) -> Fraction:
    """The chance of every claim's kind and truth value, given the roles and levels."""
    weight = Fraction(1)
    suspects = suspects_of(log.header)
    for event in log.events:
        if event.type == "claim":
            player = event.get("player")
            level = model.levels[levels[player]]
            innocent = event.get("innocent")
            rate = Fraction(level.false_rate[roles[player]])
            if not innocent and level.guilty_false_rate is not None:
                rate = Fraction(level.guilty_false_rate[roles[player]])
            true = innocent == (event.get("suspect") not in pair)
            weight *= 1 - rate if true else rate
            if model.per_suspect:
                guilty = (
                    Fraction(1, 2)
                    if level.guilty_rate is None
                    else Fraction(level.guilty_rate[roles[player]])
                )
                alike = [s for s in suspects if (innocent == (s not in pair)) == true]
                weight *= (1 - guilty if innocent else guilty) / len(alike)
    return weight


def _consistent(log: GameLog, pair: tuple[str, str], roles: Mapping[str, str]) -> bool:
    """Whether every hard event holds for one pair and one role deal."""
    dead: set[str] = set()
    for event in log.events:
        if event.type == "kill":
            dead.add(event.get("suspect"))
        elif not _holds(event, pair, roles, dead):
            return False
    return True


def weighted_deals(
    log: GameLog, model: ClaimsModel | None = None
) -> Iterator[tuple[Hidden, dict[str, int], Fraction]]:
    """Every (pair, role deal, level vector) of positive weight, with its weight.

    Each comes as its hidden state, the players' levels (indexes into
    ``model.levels``; empty without a model) and its weight.
    """
    players, rector = log.header.players, log.header.extra["rector"]
    seats = [p for p in players if p != rector]
    cards = ROLE_CARDS[len(players)]
    prior = Fraction(1, math.comb(len(suspects_of(log.header)), 2) * math.factorial(len(cards)))
    vectors = (
        [()] if model is None else list(product(range(len(model.levels)), repeat=len(players)))
    )
    for pair in combinations(sorted(suspects_of(log.header)), 2):
        for deal in permutations(cards):
            roles = {**dict(zip(seats, deal)), rector: "rector"}
            if not _consistent(log, pair, roles):
                continue
            possessed = next((p for p in seats if roles[p] == "possessed"), None)
            for vector in vectors:
                levels = dict(zip(players, vector))
                weight = (
                    prior
                    if model is None
                    else (
                        prior
                        * level_prior(model, vector)
                        * _claims_weight(log, pair, roles, model, levels)
                    )
                )
                if weight:
                    yield Hidden(*pair, possessed), levels, weight


def weighted_states(
    log: GameLog, model: ClaimsModel | None = None
) -> Iterator[tuple[Hidden, Fraction]]:
    """Every (pair, role deal, level vector) of positive weight: its state and weight."""
    for hidden, _, weight in weighted_deals(log, model):
        yield hidden, weight


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


def brute_styles(log: GameLog, model: ClaimsModel) -> dict[str, dict[str, Fraction]]:
    """Every player's posterior over the model's levels (by name); empty when nothing fits."""
    names = [level.name for level in model.levels]
    totals: dict[str, dict[str, Fraction]] = {
        p: dict.fromkeys(names, Fraction(0)) for p in log.header.players
    }
    total = Fraction(0)
    for _, levels, weight in weighted_deals(log, model):
        total += weight
        for player, level in levels.items():
            totals[player][names[level]] += weight
    if not total:
        return {}
    return {p: {name: w / total for name, w in row.items()} for p, row in totals.items()}
