"""What the others can think of the Possessed: the table's view, and each investigator's.

Public and private
------------------
Every player logs the same *public* events
(:mod:`deduce.games.blackrose.observe`): claims, accusations, kills, Goals,
and the roles that a 3-player reveal or the game's end shows, which name
every investigator at once. The rest of a log is its owner's own: their
dealt role, the Proofs they saw, and for the Rector the Possessed's role once
they unmasked at night. So a log's ``role`` events are public when they name
every investigator (the reveal or the end has come), and private otherwise
(:func:`public_events`).

The table's view
----------------
:func:`table_suspects`: each player's chance of being the Possessed from the
public events alone, by the same solver and claims model: what an onlooker
who saw no card thinks, whoever owns the log.

An investigator's view, from the Possessed's seat
-------------------------------------------------
When the log's owner ``me`` is the Possessed, every other non-Rector player
``J`` is a real investigator (there is one Possessed card). ``J`` reasons on
the public events, their own role and the Proofs they have seen, a set ``S``
of innocent suspects. Their posterior is the public one conditioned on "``J``
is not the Possessed" and "no suspect of ``S`` is an accomplice": exactly,
since a hidden state's prior and its claims' likelihood do not depend on what
``J`` saw, and a Proof only rules states out (see the csp module). ``me``
does not know ``S``, so averages over it under its own posterior:

    P(J suspects me most) = Σ_pair P_me(pair) · Σ_S P(S | pair) · share_J(S)

- ``share_J(S)``: ``1/k`` when ``me`` is one of the ``k`` answers of top
  chance in ``J``'s view with ``S`` (nobody is an answer, with 3 players),
  else 0;
- ``P_me(pair)``: ``me``'s posterior, its log solved without its own claims
  (what one said oneself says nothing of the pair to oneself);
- ``P(S | pair)``: ``J`` has seen the Proof of each innocent suspect
  independently, with chance :data:`SEEN_MINE` if ``me`` saw it too and
  :data:`SEEN` otherwise (shares measured on the engine's games by
  ``benchmarks/blackrose_views.py``), and surely the Proofs ``me`` saw in
  ``J``'s hand (``proof`` events naming ``J``).

The same sum gives the chance that ``J``'s most probable pair is the true
one (``1/k`` for a tie of ``k`` pairs): how likely ``J``'s next vote is
right. The sums are exact, in integers: only the suspects of ``J``'s
candidate pairs matter, so ``S`` runs over their subsets.

What me's knowledge hides from ``J``: its role and its Proofs. What ``J``
knows that ``me`` does not: ``S`` (averaged as above) and their own vote
(votes are secret, and the log keeps none).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from deduce.games.blackrose.claims import ClaimsModel
from deduce.games.blackrose.csp import Hidden, Pair, Setting
from deduce.games.blackrose.solve import BlackRoseSolution, solve_blackrose
from deduce.games.words import next_line
from deduce.logs.model import Event, GameLog

#: Chance that a real investigator has seen the Proof of an innocent suspect that the
#: Possessed has not seen, and of one the Possessed has seen (measured, see the docstring).
SEEN = Fraction(1, 5)
SEEN_MINE = Fraction(9, 25)
#: Events every player logs exactly alike (``role`` events: only when they name everyone).
PUBLIC: tuple[str, ...] = ("claim", "accuse", "kill", "goal")


def own_role(log: GameLog) -> str | None:
    """The role the log's owner has by their own ``role`` events (None: none says)."""
    me = log.header.me
    return next(
        (e.get("role") for e in log.events if e.type == "role" and e.get("player") == me), None
    )


def public_events(log: GameLog) -> tuple[Event, ...]:
    """The events of ``log`` that every player logs alike (see the module docstring)."""
    setting = Setting.of(log.header)
    named = {e.get("player") for e in log.events if e.type == "role"}
    shown = set(setting.investigators) <= named
    return tuple(e for e in log.events if e.type in PUBLIC or (shown and e.type == "role"))


def public_log(log: GameLog) -> GameLog:
    """``log`` with its public events only, as an onlooker would write it."""
    return replace(log, events=public_events(log))


def table_suspects(
    log: GameLog, hard: bool = False, model: ClaimsModel | None = None
) -> dict[str | None, Fraction]:
    """Each possible Possessed's chance from the public events alone (None: nobody)."""
    return solve_blackrose(public_log(log), hard, model, styles=False).possessed


@dataclass(frozen=True)
class Outlook:
    """How one investigator's view reads the Possessed and the pair.

    ``suspected``: the chance that it makes the Possessed its most probable
    Possessed; ``right``: the chance that its most probable pair is the true one.
    """

    suspected: Fraction
    right: Fraction


def _numerators(values: Sequence[Fraction]) -> list[int]:
    """The fractions' numerators over their least common denominator."""
    common = math.lcm(*(p.denominator for p in values))
    return [int(p * common) for p in values]


def _mask(suspects: Iterable[str], order: Sequence[str]) -> int:
    """The suspects as a bit mask of ``order`` (a suspect not in ``order``: no bit)."""
    return sum(1 << order.index(s) for s in suspects if s in order)


def _top(totals: Mapping[Any, int]) -> list[Any]:
    """The keys of the largest total."""
    best = max(totals.values())
    return [key for key, total in totals.items() if total == best]


@dataclass(frozen=True)
class _View:
    """One investigator's view with a given set of seen Proofs.

    ``ties``: how many answers share the top Possessed chance with the owner
    (0: the owner is not at the top); ``pairs``: the most probable pairs.
    """

    ties: int
    pairs: list[Pair]


def _views(
    joint: Mapping[Hidden, Fraction], me: str, other: str, known: frozenset[str]
) -> tuple[list[str], list[_View]]:
    """``other``'s views: the suspects whose Proofs matter, and the view for each subset.

    Subset ``k`` (a bit mask of those suspects) is the view of an ``other``
    who saw the Proofs of ``known`` and of the suspects of ``k``.
    """
    rows: dict[Pair, dict[str | None, Fraction]] = {}
    for hidden, p in joint.items():
        if hidden.possessed != other and not known & set(hidden.pair):
            row = rows.setdefault(hidden.pair, {})
            row[hidden.possessed] = row.get(hidden.possessed, Fraction(0)) + p
    free = sorted({s for pair in rows for s in pair})
    cells = iter(_numerators([p for row in rows.values() for p in row.values()]))
    weights = {pair: {who: next(cells) for who in row} for pair, row in rows.items()}
    masks = {pair: _mask(pair, free) for pair in rows}
    answers = {who for row in rows.values() for who in row}
    views = []
    for subset in range(1 << len(free)):
        kept = [pair for pair in rows if not masks[pair] & subset]
        if not kept:  # no innocent's Proofs rule out every pair: a view never had
            views.append(_View(0, []))
            continue
        tops = _top({who: sum(weights[pair].get(who, 0) for pair in kept) for who in answers})
        pairs = _top({pair: sum(weights[pair].values()) for pair in kept})
        views.append(_View(len(tops) if me in tops else 0, pairs))
    return free, views


def outlook(
    joint: Mapping[Hidden, Fraction],
    mine: Mapping[Pair, Fraction],
    me: str,
    other: str,
    sure: frozenset[str],
    rates: Mapping[str, Fraction],
) -> Outlook:
    """Investigator ``other``'s view of the Possessed ``me`` (see the module docstring).

    ``joint``: the public posterior; ``mine``: ``me``'s posterior of the
    pairs; ``sure``: the suspects whose Proof ``other`` surely saw;
    ``rates``: per suspect, the chance that ``other`` saw its Proof when it
    is innocent.
    """
    free, views = _views(joint, me, other, sure)
    seen = _numerators([rates[s] for s in free] + [Fraction(1)])
    scale = seen.pop()
    prior = _numerators(list(mine.values()))
    suspected: dict[int, int] = {}
    right: dict[int, int] = {}
    for pair, chance in zip(mine, prior):
        mask = _mask(pair, free)
        for subset, view in enumerate(views):
            if subset & mask:
                continue
            weight = chance * math.prod(
                scale if mask >> i & 1 else seen[i] if subset >> i & 1 else scale - seen[i]
                for i in range(len(free))
            )
            if view.ties:
                suspected[view.ties] = suspected.get(view.ties, 0) + weight
            if pair in view.pairs:
                right[len(view.pairs)] = right.get(len(view.pairs), 0) + weight
    total = sum(prior) * scale ** len(free)
    return Outlook(_shared(suspected, total), _shared(right, total))


def _shared(weights: Mapping[int, int], total: int) -> Fraction:
    """``Σ_k weights[k] / k``, over ``total``: each weight shared by a tie of ``k``."""
    return sum((Fraction(w, k * total) for k, w in weights.items()), Fraction(0))


#: A claim of the Possessed: ``(suspect, innocent)``.
Said = tuple[str, bool]


@dataclass(frozen=True)
class PossessedSeat:
    """What the Possessed owning ``log`` knows of the others' views (module docstring).

    ``mine``: its posterior of the pairs; ``sure``: per investigator, the
    suspects whose Proof they surely saw; ``rates``: per suspect, the chance
    that an investigator saw its Proof when it is innocent.
    """

    log: GameLog
    hard: bool
    model: ClaimsModel | None
    mine: Mapping[Pair, Fraction]
    sure: Mapping[str, frozenset[str]]
    rates: Mapping[str, Fraction]

    @classmethod
    def of(
        cls, log: GameLog, hard: bool = False, model: ClaimsModel | None = None
    ) -> PossessedSeat:
        """The seat of a consistent log's owner, the Possessed."""
        me = log.header.me
        setting = Setting.of(log.header)
        own = replace(
            log,
            events=tuple(
                e for e in log.events if not (e.type == "claim" and e.get("player") == me)
            ),
        )
        mine = solve_blackrose(own, hard, model, styles=False).pairs
        proofs = [e for e in log.events if e.type == "proof"]
        sure = {
            j: frozenset(e.get("suspect") for e in proofs if e.get("player") == j)
            for j in setting.investigators
            if j != me
        }
        seen = {e.get("suspect") for e in proofs}
        rates = {s: SEEN_MINE if s in seen else SEEN for s in setting.suspects}
        return cls(log, hard, model, mine, sure, rates)

    def outlooks(self, said: Said | None = None) -> dict[str, Outlook]:
        """Each investigator's outlook, in seat order; ``said``: after this claim of mine."""
        events = public_events(self.log)
        if said is not None:
            suspect, innocent = said
            fields = {"player": self.log.header.me, "suspect": suspect, "innocent": innocent}
            events = (*events, Event("claim", fields, next_line(self.log)))
        public = solve_blackrose(replace(self.log, events=events), self.hard, self.model, False)
        me = str(self.log.header.me)
        return {
            j: outlook(public.joint, self.mine, me, j, sure, self.rates)
            for j, sure in self.sure.items()
        }


def with_views(
    solution: BlackRoseSolution, log: GameLog, hard: bool = False, model: ClaimsModel | None = None
) -> BlackRoseSolution:
    """``solution`` of ``log`` with what the others think of the Possessed.

    The Possessed's log gets ``suspected`` (each investigator's chance of
    suspecting its owner most); any other, ``table`` (:func:`table_suspects`).
    An inconsistent log's solution is returned as it is.
    """
    if not solution.consistent:
        return solution
    if own_role(log) == "possessed":
        outlooks = PossessedSeat.of(log, hard, model).outlooks()
        return replace(solution, suspected={j: o.suspected for j, o in outlooks.items()})
    return replace(solution, table=table_suspects(log, hard, model))
