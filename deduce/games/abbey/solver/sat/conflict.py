"""Minimal sets of conflicting events, found by deletion on one SAT solver.

Transfers stay in place as the game's structure; the search removes
observations only. First the shortest inconsistent prefix of the log is found
(its last observation belongs to every minimal set within the prefix), then
each earlier observation is dropped in turn and kept out whenever the rest
still conflicts. The same search then finds which transfers' known cards the
contradiction relies on, so that the explanation can name them. When the
transfers' known cards conflict with each other, with no observation at all,
those transfers are the conflict.

Each test of a subset is one solve of the log's :class:`~deduce.games.abbey.solver.sat.cnf.SatModel`
under the selectors of the events kept, so the solver keeps what it learnt
from one test to the next.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from deduce.games.abbey.solver.model import Fact, Tally, event_constraints, numbered
from deduce.games.abbey.solver.sat.cnf import SatModel, sat_model
from deduce.games.abbey.solver.timeline import CULPRIT, PILE, TRANSFERS, AbbeyPosition, Timeline
from deduce.logs.model import Event
from deduce.subsets import shrink


def consistency(position: AbbeyPosition) -> Callable[[Collection[int]], bool]:
    """A test of whether some complete history agrees with every event not on the given lines."""
    return sat_model(position).satisfiable


@dataclass(frozen=True)
class Conflict:
    """A minimal contradiction: the conflicting lines, and the transfers whose cards it uses."""

    lines: tuple[int, ...]
    transfers: tuple[int, ...] = ()


def minimal_conflict(position: AbbeyPosition, sat: SatModel | None = None) -> Conflict:
    """A minimal set of events that cannot all hold (the position must be inconsistent).

    ``sat``: the position's SAT model, when the caller has it already.
    """
    events = position.events
    observed = [e.line for e in events if e.type not in TRANSFERS]
    known_cards = [e.line for e in events if e.type in TRANSFERS and carries_cards(e)]
    pool = known_cards + observed

    consistent = sat.satisfiable if sat is not None else consistency(position)

    def conflicts(kept: Sequence[int]) -> bool:
        return not consistent(frozenset(pool) - set(kept))

    if conflicts(known_cards):  # the transfers' own cards cannot all be right
        return Conflict(tuple(sorted(shrink(known_cards, conflicts))))
    lines = sorted(shrink(observed, lambda kept: conflicts([*known_cards, *kept])))
    used = sorted(shrink(known_cards, lambda kept: conflicts([*kept, *lines])))
    return Conflict(tuple(lines), tuple(used))


def carries_cards(event: Event) -> bool:
    """Whether a transfer names the cards it moved."""
    return any(key in event.fields for key in ("card", "gave", "got"))


@dataclass(frozen=True)
class Clash:
    """How one event of a conflict contradicts what the conflict's other events force.

    ``line`` is that event and ``given`` the other lines; ``epoch`` is when
    they clash (``when``: ``"at"`` the event, or ``"before"``/``"after"`` its
    transfer). Kinds:

    ``only``
        ``card`` can only be with ``holders``; the event puts it with ``holder``.
    ``forced``
        ``card`` must be with ``holder``; the event says it is not.
    ``full``
        ``cards`` fill ``holder``'s hand; the event puts ``card`` there too.
    ``culprit``
        ``cards`` (one card) must be the culprit; the event names ``card``.
    ``at_least``
        ``cards`` must all be with ``holder``: more than the event allows.
    ``at_most``
        only ``cards`` can be with ``holder``: fewer than the event needs.
    ``room``
        ``cards`` (without the event's traits) must be in ``holder``'s hand
        of ``size`` cards, leaving too little room for the event's count.
    """

    kind: str
    line: int
    given: tuple[int, ...]
    epoch: int
    holder: int
    card: int | None = None
    holders: frozenset[int] = frozenset()
    cards: tuple[int, ...] = ()
    when: str = "at"
    size: int = 0


def find_clash(
    position: AbbeyPosition, conflict: Conflict, sat: SatModel | None = None
) -> Clash | None:
    """The first event of ``conflict`` (latest first) that the others visibly contradict.

    For each candidate, the other events of the conflict alone fix each
    card's possible holders (one closure per epoch involved); the clash is a
    fact of the candidate that those possibilities rule out, or a tally that
    they overfill or cannot fill. None when the contradiction only shows in
    how several counts combine. ``sat``: the log's SAT model, when the
    caller has it already (each test assumes the selectors it needs).
    """
    chosen = sorted({*conflict.lines, *conflict.transfers})
    setup, timeline, events = position.setup, position.timeline, position.events
    sat = sat or sat_model(position)
    by_line = {event.line: (event, n) for event, n in numbered(events)}
    found: list[Clash] = []
    for target in reversed(chosen):
        given = tuple(line for line in chosen if line != target)
        skip = [line for line in sat.selectors if line not in given]
        closures: dict[int, list[set[int]] | None] = {}

        def possible(
            epoch: int,
            skip: list[int] = skip,
            closures: dict[int, list[set[int]] | None] = closures,
        ) -> list[set[int]] | None:
            if epoch not in closures:
                closures[epoch] = sat.closure(skip, epoch)
            return closures[epoch]

        event, transfer_no = by_line[target]
        facts, tallies = event_constraints(setup, timeline, event, transfer_no)
        clashes = [_fact_clash(timeline, fact, target, given, possible) for fact in facts]
        clashes += [
            _tally_clash(timeline, tally, target, given, possible)
            for tally in tallies
            if not tally.redundant
        ]
        found.extend(clash for clash in clashes if clash is not None)
    return min(found, key=_vagueness, default=None)


def _vagueness(clash: Clash) -> int:
    """How little a clash says: one place or card beats a count, which beats several places."""
    if clash.kind == "only":
        return 0 if len(clash.holders) == 1 else 2
    return 1 if clash.kind in ("at_least", "at_most", "room") else 0


Possible = Callable[[int], "list[set[int]] | None"]


def _fact_clash(
    timeline: Timeline, fact: Fact, line: int, given: tuple[int, ...], possible: Possible
) -> Clash | None:
    """The clash of one unary fact with the possible holders, if they rule it out."""
    test, card = fact.test, fact.card
    if test.kind == "move":  # the card must leave test.holder for test.dest
        for epoch, holder, when in (
            (test.time - 1, test.holder, "before"),
            (test.time, test.dest, "after"),
        ):
            rows = possible(epoch)
            if rows is not None and holder not in rows[card]:
                return Clash(
                    "only", line, given, epoch, holder, card, frozenset(rows[card]), when=when
                )
        return None
    rows = possible(test.time)
    if rows is None:
        return None
    here, holder = rows[card], test.holder
    if not fact.value:
        if here == {holder}:
            return Clash("forced", line, given, test.time, holder, card)
        return None
    if holder in here:
        return None
    if holder == CULPRIT:
        named = [c for c, row in enumerate(rows) if row == {CULPRIT}]
        if named:
            return Clash("culprit", line, given, test.time, holder, card, cards=(named[0],))
    forced = tuple(c for c, row in enumerate(rows) if row == {holder})
    if holder != PILE and len(forced) >= timeline.sizes[test.time][holder]:
        return Clash("full", line, given, test.time, holder, card, cards=forced)
    return Clash("only", line, given, test.time, holder, card, frozenset(here))


def _tally_clash(
    timeline: Timeline, tally: Tally, line: int, given: tuple[int, ...], possible: Possible
) -> Clash | None:
    """The clash of a count with the possible holders, if they overfill or cannot fill it."""
    rows = possible(tally.time)
    if rows is None:
        return None
    cards = sorted(tally.cards)
    forced = tuple(c for c in cards if rows[c] == {tally.holder})
    if len(forced) > tally.hi:
        return Clash("at_least", line, given, tally.time, tally.holder, cards=forced)
    can = tuple(c for c in cards if tally.holder in rows[c])
    if len(can) < tally.lo:
        return Clash("at_most", line, given, tally.time, tally.holder, cards=can)
    if tally.holder in (CULPRIT, PILE):
        return None
    size = timeline.sizes[tally.time][tally.holder]
    taken = tuple(c for c, row in enumerate(rows) if row == {tally.holder} and c not in cards)
    if size - len(taken) < tally.lo:
        return Clash("room", line, given, tally.time, tally.holder, cards=taken, size=size)
    return None
