"""The hard side of a Rose log as a python-constraint problem: who can be which monk.

One variable per player of the log (the observer too: their colour rules it out
for everyone else), each with the six colours as its domain. The hard events
narrow the domains before the search: ``identity`` keeps its one colour,
``reveal`` removes its colour. One ``AllDifferentConstraint`` deals the
identities without repetition. Solving consumes the domains, so every query
builds a fresh :class:`constraint.Problem`.

Why a reveal only eliminates. The prior chooses each revealed marker
uniformly among the player's markers still hidden that are not their own
colour. Take an assignment in which no player reveals their own colour and no
marker is revealed twice. Before a player's ``r``-th reveal (``r`` = 0, 1, ...)
``6 - r`` of their markers are hidden, their own colour among them, so the
marker shown had chance ``1 / (5 - r)`` whatever that own colour is. The
reveals' chance is therefore ``prod over players of prod over r < R_p of
1 / (5 - r)``, which depends only on how many markers ``R_p`` each player
revealed: the same for every consistent assignment, so it cancels out of
every probability. An assignment in which a player reveals their own colour
has chance 0 (the reveal's "not this colour"). A marker revealed twice by the
same player has chance 0 under *every* assignment (a face-up marker is not
hidden any more): such a log has no consistent assignment at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from constraint import AllDifferentConstraint, Problem

from deduce.logs.formats.rose import COLOURS
from deduce.logs.model import Event

#: Event types that are hard facts about identities.
HARD_EVENTS: tuple[str, ...] = ("identity", "reveal")
#: A complete assignment: one colour per player, in the header's seat order.
Assignment = tuple[str, ...]


def hard_events(events: Iterable[Event]) -> list[Event]:
    """The ``identity`` and ``reveal`` events, in log order."""
    return [e for e in events if e.type in HARD_EVENTS]


def allowed_colours(players: Sequence[str], events: Iterable[Event]) -> dict[str, list[str]]:
    """Each player's colours left by the hard events alone (in ``COLOURS`` order; may be empty)."""
    allowed = {p: set(COLOURS) for p in players}
    for event in events:
        colour = event.get("colour")
        if event.type == "identity":
            allowed[event.get("player")] &= {colour}
        elif event.type == "reveal":
            allowed[event.get("player")].discard(colour)
    return {p: [c for c in COLOURS if c in allowed[p]] for p in players}


def repeated_reveals(events: Iterable[Event]) -> list[tuple[Event, Event]]:
    """Pairs of reveals of the same marker (same player, same colour), first one first."""
    first: dict[tuple[str, str], Event] = {}
    pairs = []
    for event in events:
        if event.type == "reveal":
            key = (event.get("player"), event.get("colour"))
            if key in first:
                pairs.append((first[key], event))
            else:
                first[key] = event
    return pairs


def _problem(players: Sequence[str], events: Sequence[Event]) -> Problem | None:
    """A fresh problem for the hard events, or None when a domain or the reveals rule all out."""
    if repeated_reveals(events):
        return None
    problem = Problem()
    for player, colours in allowed_colours(players, events).items():
        if not colours:
            return None
        problem.addVariable(player, colours)
    problem.addConstraint(AllDifferentConstraint(), list(players))
    return problem


def assignments(players: Sequence[str], events: Sequence[Event]) -> list[Assignment]:
    """Every assignment consistent with the hard events among ``events``, sorted."""
    problem = _problem(players, hard_events(events))
    if problem is None:
        return []
    return sorted(tuple(found[p] for p in players) for found in problem.getSolutionIter())


def is_consistent(players: Sequence[str], events: Sequence[Event]) -> bool:
    """Whether at least one assignment agrees with the hard events among ``events``."""
    problem = _problem(players, hard_events(events))
    return problem is not None and problem.getSolution() is not None
