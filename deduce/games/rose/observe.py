"""What one player logs of one thing that happened: Name of the Rose truth events to log events.

The engine records *truth events* (every card, tile and choice);
:func:`observe` gives the canonical log events (``../shared/spec/log-format.md``,
"The Name of the Rose") that a given player writes down for it:

- the deal: the player's own ``identity``;
- ``reveal`` (revelation rounds), ``points`` (a player's choice that moved a
  monk's marker, see :mod:`deduce.logs.formats.rose`) and the final ``guess``
  of each player for each other player: public, the same line for everybody;
- the end of the game: the ``identity`` of every other player, in seat order.

Every other truth event (cards played and drawn, pawn moves, task tiles,
time tiles, conversions, automatic event-tile points...) gives nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

LogEvent = dict[str, Any]

#: Truth events everybody logs exactly as they are.
PUBLIC = ("reveal", "points", "guess")


def observe(event: LogEvent, player: str, players: Sequence[str]) -> list[LogEvent]:
    """The log events ``player`` (one of ``players``, in seat order) writes for ``event``."""
    kind = event["type"]
    if kind == "deal":
        return [_identity(player, event)]
    if kind in PUBLIC:
        return [dict(event)]
    if kind == "end":
        return [_identity(p, event) for p in players if p != player]
    return []


def _identity(player: str, event: LogEvent) -> LogEvent:
    """The ``identity`` line of ``player``, from an event holding every identity."""
    return {"type": "identity", "player": player, "colour": event["identities"][player]}
