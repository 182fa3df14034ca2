"""What one player logs of one thing that happened: Black Rose truth events to log events.

The engine records *truth events* (every card, choice and shuffle);
:func:`observe` gives the canonical log events (``../shared/spec/log-format.md``,
"The Black Rose") that a given player writes down for it:

- ``deal`` (the role cards): an investigator's own ``role`` (``investigator``
  or ``possessed``); the Rector logs nothing (everybody knows who the Rector is);
- a truth event with ``seen_by`` (the Rector choosing the accomplices, an
  investigation, a card taken, a glance at a hand or a pile): for that
  player only, one ``proof`` event for each Proof card seen, listed in the
  event's ``proofs`` (``player``: the holder, absent for a card in a pile or
  the Rector's knowledge of the five innocent suspects);
- ``claim``, ``accuse``, ``kill`` and ``goal``: public, the same line for
  everybody, exactly as the engine wrote them;
- ``reveal`` (the 3-player rule) and ``end``: public, the ``role`` of each
  player in the event's ``roles`` (at the end: every player but the Rector,
  in seat order);
- ``unmask`` (the Possessed reveals themselves at night): the Rector (its
  ``seen_by``) logs the Possessed's ``role``.

Every other truth event (cards played, traps, shuffles, votes, Rector cards
drawn or played, kill choices...) gives nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

LogEvent = dict[str, Any]

#: Truth events everybody logs exactly as they are.
PUBLIC = ("claim", "accuse", "kill", "goal")
#: Truth events whose ``roles`` everybody logs.
ROLES_SHOWN = ("reveal", "end")


def observe(event: LogEvent, player: str, players: Sequence[str]) -> list[LogEvent]:
    """The log events ``player`` (one of ``players``, in seat order) writes for ``event``."""
    kind = event["type"]
    if kind in PUBLIC:
        return [dict(event)]
    if kind in ROLES_SHOWN:
        return [role(p, event["roles"][p]) for p in players if p in event["roles"]]
    if kind == "deal":
        return [role(player, event["roles"][player])] if player in event["roles"] else []
    if event.get("seen_by") != player:
        return []
    if kind == "unmask":
        return [role(event["player"], "possessed")]
    return [{"type": "proof", **proof} for proof in event["proofs"]]


def role(player: str, name: str) -> LogEvent:
    """The ``role`` log event: ``player`` has the role ``name``."""
    return {"type": "role", "player": player, "role": name}
