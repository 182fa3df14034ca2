"""Brute-force reference for The Name of the Rose: every deal, weighted from the definitions.

This is the yardstick the solver is tested against, so it uses neither
python-constraint nor the solver's shortcuts (it does not assume that the
reveals' chance cancels out): every injective deal of colours to the seats
(``itertools.permutations``) is weighted by

- the prior of the deal, ``1 / (6 · 5 · ...)`` (uniform without repetition);
- ``[identity colour == dealt colour]`` for each ``identity`` event;
- for each ``reveal``, in log order, the chance of that marker under the
  prior: 0 if it is the player's own colour or already face up, else
  ``1 / (number of the player's hidden markers that are not their own)``;
- unless ``hard``, ``exp(θ[kind])`` for each ``points`` event whose monk is
  the player's dealt colour (one factor per event, multiplied as exact
  fractions of the floats).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from itertools import permutations

from deduce.games.rose.behaviour import BehaviourModel, kind_of
from deduce.logs.formats.rose import COLOURS
from deduce.logs.model import Event, GameLog


def _deal_weight(
    players: tuple[str, ...],
    deal: tuple[str, ...],
    events: tuple[Event, ...],
    model: BehaviourModel | None,
) -> Fraction:
    """The unnormalised posterior weight of one deal (see the module docstring)."""
    colour_of = dict(zip(players, deal))
    face_up: dict[str, set[str]] = {p: set() for p in players}
    weight = Fraction(1, math.perm(len(COLOURS), len(players)))
    for event in events:
        player, colour = event.get("player"), event.get("colour")
        if event.type == "identity" and colour_of[player] != colour:
            return Fraction(0)
        if event.type == "reveal":
            if colour == colour_of[player] or colour in face_up[player]:
                return Fraction(0)
            weight /= len(COLOURS) - len(face_up[player]) - 1
            face_up[player].add(colour)
        if event.type == "points" and model is not None and colour_of[player] == event.get("monk"):
            weight *= Fraction(math.exp(model.theta.get(kind_of(event), 0.0)))
    return weight


def weighted_deals(
    log: GameLog, model: BehaviourModel | None = None
) -> Iterator[tuple[tuple[str, ...], Fraction]]:
    """Every deal of positive weight with its weight; ``model`` None: soft events ignored."""
    players = log.header.players
    for deal in permutations(COLOURS, len(players)):
        weight = _deal_weight(players, deal, log.events, model)
        if weight:
            yield deal, weight


def brute_marginals(
    log: GameLog, model: BehaviourModel | None = None
) -> dict[str, dict[str, Fraction]] | None:
    """Each player's colour -> probability (positive ones only); None when no deal fits."""
    deals = list(weighted_deals(log, model))
    if not deals:
        return None
    total = sum(w for _, w in deals)
    players = log.header.players
    shares: dict[str, dict[str, Fraction]] = {p: {} for p in players}
    for deal, weight in deals:
        for player, colour in zip(players, deal):
            shares[player][colour] = shares[player].get(colour, Fraction(0)) + weight / total
    return {p: {c: shares[p][c] for c in COLOURS if c in shares[p]} for p in players}
