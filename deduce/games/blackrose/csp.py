"""The hard side of a Black Rose log as a python-constraint problem: accomplices and Possessed.

What is hidden
--------------
The Rector's two accomplices, a pair of the seven suspects, and the roles of
the other players. The roles come down to one value, the *possessed* one: the
seat of the player holding the Possessed card, or ``None`` when nobody does
(only in 3-player games, where one of the three role cards stays hidden).
The problem has three variables: ``first`` and ``second``, the accomplices
with ``first < second`` (so a pair is found once, in alphabetical order), and
``possessed``.

The prior
---------
The pair is uniform over the 21 pairs. The role cards (:data:`ROLE_CARDS`:
one Possessed and the rest real investigators) are dealt uniformly, one per
non-Rector player, the rest hidden, so each card is equally likely to be in
each place: each non-Rector player is the Possessed with chance
``1 / cards`` and nobody is with chance ``hidden / cards``
(:func:`role_prior`; with 3 players the three values have 1/3 each). Pair and
roles are dealt independently.

What the hard events say
------------------------
- ``role``: the player is that role. ``possessed`` fixes the variable,
  ``investigator`` (a real one) rules the player out; a ``rector`` role must be
  the header's Rector, and the Rector has no other role: anything else
  contradicts the header on its own.
- ``proof``: the suspect is innocent, so neither accomplice.
- ``accuse``: the Rector's answer is truthful: ``correct`` means the pair is
  exactly the two accused, ``incorrect`` that it is not exactly them.
- ``kill``: nothing by itself, but the suspect is dead from then on.
- ``goal`` with ``innocent_dead_at_least: k``: a Goal card may only be played
  when its condition holds, so at that moment at least ``k`` of the suspects
  killed earlier in the log are not accomplices
  (:class:`InnocentDeadConstraint`).

Why the posterior is the prior restricted to the consistent combinations.
The players' decisions (which pile to investigate, whom to kill, what to
accuse, when to play a Goal) are not chance events of the prior: they carry
no likelihood, only the hard consequences above. The one chance event
besides the deal is the clue deck, and a ``proof`` only eliminates: whatever
the pair, the deck holds the same number of cards, one Proof card for each of
the five innocents among them, shuffled uniformly. For two pairs that both
leave every seen Proof's suspect innocent, a relabelling of the suspects that
fixes the seen suspects and maps one pair onto the other maps each deck of
the first pair onto one of the second, with the same chance, and each history
of seen cards onto itself: the seen cards have the same chance under both
pairs. Under a pair that makes a seen Proof's suspect an accomplice they have
chance 0. So with hard events only, ``P(pair, possessed | log)`` is
proportional to ``role_prior[possessed]`` on the consistent combinations and
0 elsewhere: uniform over the pairs, weighted by the role prior over the roles.

Solving consumes the domains, so every query builds a fresh
:class:`constraint.Problem`.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from constraint import (
    Constraint,
    FunctionConstraint,
    InSetConstraint,
    NotInSetConstraint,
    Problem,
)

from deduce.logs.formats.blackrose import suspects_of
from deduce.logs.model import Event, Header

#: Event types that are hard facts (``kill`` only sets the dead for later goals).
HARD_EVENTS: tuple[str, ...] = ("role", "proof", "accuse", "goal")
#: The role cards dealt to the non-Rector players, by number of players (rulebook).
ROLE_CARDS: dict[int, tuple[str, ...]] = {
    3: ("possessed", "investigator", "investigator"),
    4: ("possessed", "investigator", "investigator"),
    5: ("possessed", "investigator", "investigator", "investigator"),
}
FIRST, SECOND, POSSESSED = "first", "second", "possessed"
#: A pair of accomplices, in alphabetical order.
Pair = tuple[str, str]


class Hidden(NamedTuple):
    """One complete hidden state: the accomplices and the Possessed (None: nobody)."""

    first: str
    second: str
    possessed: str | None

    @property
    def pair(self) -> Pair:
        """The two accomplices, in alphabetical order."""
        return self.first, self.second


@dataclass(frozen=True)
class Setting:
    """What the header fixes: seats, the Rector and the seven suspects."""

    players: tuple[str, ...]
    rector: str
    suspects: tuple[str, ...]

    @classmethod
    def of(cls, header: Header) -> Setting:
        """The setting of a blackrose header."""
        return cls(header.players, header.extra["rector"], suspects_of(header))

    @property
    def investigators(self) -> tuple[str, ...]:
        """The non-Rector players, in seat order: those who hold a role card."""
        return tuple(p for p in self.players if p != self.rector)

    @property
    def hidden_cards(self) -> int:
        """Role cards nobody holds (1 with 3 players, else 0)."""
        return len(ROLE_CARDS[len(self.players)]) - len(self.investigators)

    @property
    def possessed_values(self) -> tuple[str | None, ...]:
        """The values of ``possessed``: the seats in order, then None if a card is hidden."""
        return (*self.investigators, *((None,) if self.hidden_cards else ()))


def role_prior(setting: Setting) -> dict[str | None, Fraction]:
    """Prior chance of each ``possessed`` value: each place holds the Possessed card alike."""
    cards = len(ROLE_CARDS[len(setting.players)])
    return {
        value: Fraction(1 if value is not None else setting.hidden_cards, cards)
        for value in setting.possessed_values
    }


@dataclass(frozen=True)
class Fact:
    """A hard event with the suspects killed before it (in kill order; only goals use them)."""

    event: Event
    dead: tuple[str, ...] = ()

    @property
    def line(self) -> int:
        """The event's line."""
        return self.event.line

    @property
    def at_least(self) -> int:
        """A goal's ``k``: how many of the dead must be innocent."""
        return self.event.get("condition")["innocent_dead_at_least"]


def facts(events: Iterable[Event]) -> list[Fact]:
    """The hard events of a log in order, each goal with the suspects killed before it."""
    dead: list[str] = []
    found = []
    for event in events:
        if event.type == "kill":
            if event.get("suspect") not in dead:
                dead.append(event.get("suspect"))
        elif event.type in HARD_EVENTS:
            found.append(Fact(event, tuple(dead) if event.type == "goal" else ()))
    return found


def against_header(setting: Setting, event: Event) -> bool:
    """Whether a ``role`` event contradicts the header's Rector on its own."""
    if event.type != "role":
        return False
    return (event.get("role") == "rector") != (event.get("player") == setting.rector)


class InnocentDeadConstraint(Constraint):
    """At least ``k`` of the ``dead`` suspects are neither of the two accomplices.

    Applies to the variables ``(first, second)``. Before the search
    (:meth:`preProcess`) it settles what the count alone decides: fewer than
    ``k`` dead empties both domains, exactly ``k`` dead removes them all from
    both, ``k + 2`` or more is always met; only ``k + 1`` dead (at most one
    accomplice among them) stays for the search. There, once one accomplice
    is known to be dead, forward checking hides every dead suspect from the
    other's domain.
    """

    def __init__(self, dead: Iterable[str], k: int) -> None:
        self.dead = frozenset(dead)
        self.k = k

    def preProcess(
        self,
        variables: Sequence[str],
        domains: dict[str, Any],
        constraints: list[tuple[Constraint, Any]],
        vconstraints: dict[str, list[tuple[Constraint, Any]]],
    ) -> None:
        """Apply the cases the count alone settles, then drop the constraint unless needed."""
        spare = len(self.dead) - self.k
        if spare == 1:
            return
        for variable in variables:
            domain = domains[variable]
            for value in domain[:]:
                if spare < 0 or (spare == 0 and value in self.dead):
                    domain.remove(value)
            vconstraints[variable].remove((self, variables))
        constraints.remove((self, variables))

    def __call__(
        self,
        variables: Sequence[str],
        domains: dict[str, Any],
        assignments: dict[str, Any],
        forwardcheck: Any = False,
    ) -> bool:
        """Whether the assigned accomplices leave enough innocent dead; prune the other one."""
        known = [assignments[v] for v in variables if v in assignments]
        innocent = len(self.dead) - sum(value in self.dead for value in known)
        if innocent < self.k:
            return False
        if forwardcheck and len(known) == 1 and innocent == self.k:
            domain = domains[next(v for v in variables if v not in assignments)]
            for value in domain[:]:
                if value in self.dead:
                    domain.hideValue(value)
            return bool(domain)
        return True


class NotThisPairConstraint(Constraint):
    """The accomplices ``(first, second)`` are not exactly ``pair`` (a wrong accusation).

    Forward checking: once one variable holds its member of the pair, the
    other member is hidden from the other variable's domain.
    """

    def __init__(self, pair: Pair) -> None:
        self.pair = pair

    def __call__(
        self,
        variables: Sequence[str],
        domains: dict[str, Any],
        assignments: dict[str, Any],
        forwardcheck: Any = False,
    ) -> bool:
        """False when both variables hold the pair; prune the other one when one does."""
        values = [assignments.get(v) for v in variables]
        if None not in values:
            return tuple(values) != self.pair
        if forwardcheck and values.count(None) == 1:
            free = values.index(None)
            if values[1 - free] == self.pair[1 - free]:
                domain = domains[variables[free]]
                if self.pair[free] in domain:
                    domain.hideValue(self.pair[free])
                return bool(domain)
        return True


def _post(problem: Problem, fact: Fact) -> None:
    """Add one consistent-with-the-header fact to the problem."""
    event = fact.event
    if event.type == "role" and event.get("role") != "rector":
        limit = InSetConstraint if event.get("role") == "possessed" else NotInSetConstraint
        problem.addConstraint(limit({event.get("player")}), [POSSESSED])
    elif event.type == "proof":
        problem.addConstraint(NotInSetConstraint({event.get("suspect")}), [FIRST, SECOND])
    elif event.type == "accuse":
        low, high = sorted(event.get("suspects"))
        if event.get("correct"):
            problem.addConstraint(InSetConstraint({low}), [FIRST])
            problem.addConstraint(InSetConstraint({high}), [SECOND])
        else:
            problem.addConstraint(NotThisPairConstraint((low, high)), [FIRST, SECOND])
    elif event.type == "goal":
        problem.addConstraint(InnocentDeadConstraint(fact.dead, fact.at_least), [FIRST, SECOND])


def _problem(setting: Setting, chosen: Sequence[Fact]) -> Problem | None:
    """A fresh problem for the facts, or None when one contradicts the header."""
    if any(against_header(setting, f.event) for f in chosen):
        return None
    problem = Problem()
    problem.addVariables([FIRST, SECOND], list(setting.suspects))
    problem.addVariable(POSSESSED, list(setting.possessed_values))
    problem.addConstraint(FunctionConstraint(operator.lt), [FIRST, SECOND])
    for fact in chosen:
        _post(problem, fact)
    return problem


def solutions(setting: Setting, chosen: Sequence[Fact]) -> list[Hidden]:
    """Every hidden state consistent with the facts, by pair then seat order (nobody last)."""
    problem = _problem(setting, chosen)
    if problem is None:
        return []
    found = [Hidden(s[FIRST], s[SECOND], s[POSSESSED]) for s in problem.getSolutionIter()]
    order = setting.possessed_values.index
    return sorted(found, key=lambda h: (h.pair, order(h.possessed)))


def is_consistent(setting: Setting, chosen: Sequence[Fact]) -> bool:
    """Whether at least one hidden state agrees with the facts."""
    problem = _problem(setting, chosen)
    return problem is not None and problem.getSolution() is not None
