"""What the other players learn from you: their sheets, as far as your log shows them.

Defence weighs what a card or an answer gives away. Each other player is
read as a careful paper player (the notepad of :mod:`~deduce.games.abbey.sim.bots`):
a card they have surely seen is crossed out on their sheet, the rest are
their suspects. Your log tells you a part of each sheet for sure
(:func:`sheets`):

- a card anybody says they hold (``has``), and the card of a wrong accusation:
  everybody saw it;
- a card you showed a player, or a player showed you: both saw it;
- a card a player took from you, or you took from them: both saw it;
- the cards you passed at Mass (your left neighbour got them) and the cards you
  got (your right neighbour held them).

A player's suspects are then the cards not known to them, less the cards of
their own hand (which they see, but you do not know which). Showing a player
a card that is not on their sheet yet takes one suspect off it:
``log2(k / (k - 1))`` bits for ``k`` suspects, the information a paper sheet
gains; a card they already know gives nothing away (:func:`leak`).

Answers are public: a "yes" to "do you have X" puts X on every other player's
sheet. A "no", or a count, crosses out no card on a paper sheet, so it leaks
nothing to a paper player (a player who deduces as deduce does learns more
from them: this reading is a lower bound).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Line = Mapping[str, Any]  # one log event, as a dict with its "type"


def sheets(lines: Iterable[Line], me: str, players: Sequence[str]) -> dict[str, set[str]]:
    """For each player but ``me``, the cards they surely know, from ``me``'s log lines."""
    known: dict[str, set[str]] = {p: set() for p in players if p != me}
    seat = players.index(me)
    left, right = players[(seat + 1) % len(players)], players[seat - 1]
    for line in lines:
        kind = line["type"]
        if kind == "has" or (kind == "accuse" and not line["correct"]):
            for cards in known.values():
                cards.add(line["card"])
        elif kind in ("show", "take") and "card" in line:
            other = line["player"] if line["player"] != me else line.get("to", line.get("from"))
            if other in known:
                known[other].add(line["card"])
        elif kind == "mass":
            if left in known:
                known[left].update(line.get("gave", ()))
            if right in known:
                known[right].update(line.get("got", ()))
    return known


def suspects(known: set[str], deck: int, hand: int) -> int:
    """How many suspects a paper sheet keeps: the deck less known cards and own hand."""
    return max(1, deck - len(known) - hand)


def leak(known: set[str], card: str, deck: int, hand: int) -> float:
    """Bits a paper player gains by seeing ``card`` (0 when it is already on the sheet)."""
    if card in known:
        return 0.0
    k = suspects(known, deck, hand)
    return math.log2(k / (k - 1)) if k > 1 else 0.0


def public_leak(
    known: Mapping[str, set[str]], card: str, deck: int, hands: Mapping[str, int]
) -> float:
    """Bits every other player together gains when ``card`` is shown to all (a "yes")."""
    return math.fsum(leak(cards, card, deck, hands[player]) for player, cards in known.items())
