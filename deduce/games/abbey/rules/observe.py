"""What one player learns from one thing that happened: truth events to log events.

The engine records *truth events* (every card named); :func:`observe` gives
the canonical log events (``../shared/spec/log-format.md``) that a given
player writes down for it. The simulator's logs and the live assistant both
go through this one function, so a log holds exactly what its player saw:

- the deal: the player's own ``hand``;
- answers to questions (``count``, ``has``, ``lacks``), accusations and the
  culprit's reveal: public, the same line for everybody;
- ``draw``: the drawer sees the card, the others only that a card was drawn;
- ``take``: taker and victim see the card, the others only the theft;
- ``show``: the receiver and the shower know the card; the others see the
  requested traits when there were some (the parlor's "show me"), else
  nothing they could log;
- ``mass``: each player's own cards given and received.

Truth events with no log counterpart (moves, silences, revelations, books,
penance...) give nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

LogEvent = dict[str, Any]

#: Truth events everybody logs exactly as they are.
PUBLIC = ("count", "has", "lacks", "accuse", "culprit")
#: Truth events that answer a question.
ANSWERS = ("count", "has", "lacks")


def observe(event: LogEvent, player: str, players: Sequence[str]) -> list[LogEvent]:
    """The log events ``player`` (one of ``players``, in seat order) writes for ``event``."""
    kind = event["type"]
    if kind == "deal":
        return [{"type": "hand", "player": player, "cards": list(event["hands"][player])}]
    if kind in PUBLIC:
        return [dict(event)]
    if kind == "draw":
        return [_seen(event, player in (event["player"],))]
    if kind == "take":
        return [_seen(event, player in (event["player"], event["from"]))]
    if kind == "show":
        return _show(event, player)
    if kind == "mass":
        right = players[players.index(player) - 1]
        return [
            {
                "type": "mass",
                "n": event["n"],
                "gave": list(event["passes"][player]),
                "got": list(event["passes"][right]),
            }
        ]
    return []


def _seen(event: LogEvent, sees_card: bool) -> LogEvent:
    """A transfer, with its card only for those who saw it."""
    return dict(event) if sees_card else {k: v for k, v in event.items() if k != "card"}


def _show(event: LogEvent, player: str) -> list[LogEvent]:
    """Receiver and shower log the card; the others the traits asked for, if any."""
    base = {"type": "show", "player": event["player"], "to": event["to"]}
    if player in (event["to"], event["player"]):
        return [{**base, "card": event["card"]}]
    if event.get("traits"):
        return [{**base, "traits": list(event["traits"])}]
    return []


def asked_log(
    events: Sequence[LogEvent], player: str, players: Sequence[str]
) -> list[tuple[LogEvent, str | None]]:
    """The log ``player`` writes for a game's truth ``events``, each line with its asker.

    The asker is who asked the question a line answers (None for any
    other line): what the log leaves out, for checks of what it tells.
    """
    found: list[tuple[LogEvent, str | None]] = []
    question: LogEvent | None = None
    for event in events:
        if event["type"] == "question":
            question = event
            continue
        answer = event["type"] in ANSWERS
        asker = question["player"] if answer and question is not None else None
        if answer:  # a question has one answer; a count with none (a "show me" unmet) has no asker
            question = None
        found.extend((seen, asker) for seen in observe(event, player, players))
    return found
