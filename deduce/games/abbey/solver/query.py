"""The Abbey's ``why`` hypotheses: ``why CARD`` (culprit CARD) and ``why CARD PLAYER``.

``why CARD PLAYER`` puts ``has PLAYER CARD`` (why PLAYER cannot hold it
now). Transfers stay in place as the game's structure: a ``draw``, ``take``
or ``mass`` in the answer stands for the card(s) it names, and removing it
means forgetting those cards (see :mod:`~deduce.games.abbey.solver.sat.conflict`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from deduce.games.abbey.solver.sat import conflict
from deduce.games.abbey.solver.timeline import TRANSFERS, AbbeyPosition
from deduce.games.protocol import Query
from deduce.games.words import arity, next_line, pick
from deduce.logs.model import Event, GameLog

#: The query as help shows it, and what it means.
USAGE = "why CARD [PLAYER]"
MEANING = (
    "why CARD: why CARD cannot be the culprit; why CARD PLAYER: why PLAYER cannot hold CARD now."
)


def query(log: GameLog, words: Sequence[str]) -> Query:
    """``why CARD``: culprit CARD; ``why CARD PLAYER``: has PLAYER CARD."""
    arity(words, USAGE, 1, 2)
    here = AbbeyPosition.of_log(log)
    setup = here.setup
    card = pick(words[0], setup.deck.ids, "card")
    if len(words) == 2:
        player = pick(words[1], log.header.players, "player")
        statement = f"{player} holds {card} now"
        hypothesis = Event("has", {"player": player, "card": card}, next_line(log))
    else:
        statement = f"{card} is the culprit"
        hypothesis = Event("culprit", {"card": card}, next_line(log))
    supposed = here.with_events((*log.events, hypothesis))
    pool = tuple(e.line for e in log.events if _informative(e))

    skipping = conflict.consistency(supposed)

    def consistent(kept: Collection[int]) -> bool:
        return skipping(frozenset(pool) - set(kept))

    def minimal() -> set[int]:
        found = conflict.minimal_conflict(supposed)
        return {*found.lines, *found.transfers} - {hypothesis.line}

    def log_consistent() -> bool:
        return conflict.consistency(here)(())

    return Query(statement, pool, consistent, minimal, log_consistent)


def _informative(event: Event) -> bool:
    """Whether dropping an event can matter: an observation, or a transfer naming cards."""
    return event.type not in TRANSFERS or conflict.carries_cards(event)
