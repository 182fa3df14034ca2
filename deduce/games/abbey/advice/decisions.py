"""The advisor for every decision of the Abbey: what each choice teaches and gives away.

Every choice gets two numbers, both in bits:

- **bits**: the information it brings you about the culprit, the mutual
  information between its outcome and the culprit (attack: a question, a
  theft, a draw, a "show me"; a question back for an answer);
- **leak**: what it gives away to the other players' paper sheets
  (:mod:`defence`: a card shown, a "yes", the cards passed at Mass).

A choice's **value** is ``bits - LEAK_WEIGHT * leak``, and the advice is the
choice of highest value. The decisions:

- whom to ask and what (:meth:`Position.ask`), every count of one trait and
  every "do you have";
- when asked, answer or the vow of silence (:meth:`Position.reply`): an answer
  earns a question back (its best value) and gives away what the answer shows;
- which matching card to show (:meth:`Position.show`): the one that gives away
  least, so the asker keeps the most suspects;
- which cards to pass at Mass (:meth:`Position.mass`): those the left
  neighbour gains least from; what comes back is the right neighbour's choice;
- in the parlor once the pile is empty, which "show me" (:meth:`Position.parlor`);
- where to move (:meth:`Position.rooms`): a room is worth its question (the
  pawns there) and its action (a theft, a draw, a "show me"), plus half the
  best action reachable from it next turn: a room now, for what it makes
  possible;
- when to reveal a trait (:meth:`Position.reveal`), on the culprit's chances.

The bits come from a :class:`~deduce.games.abbey.advice.advisor.Ranker`: exact
when its joint laws are exact, else an estimate from drawn histories without a
bound (``exact`` false). The leak is exact for its model of the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from deduce.games.abbey.advice.advisor import Ranker
from deduce.games.abbey.advice.defence import Line, leak, public_leak, sheets
from deduce.games.abbey.rules.board import Board
from deduce.games.abbey.solver.timeline import PILE
from deduce.logs.formats.abbey import TRAITS, AbbeySetup, show_requests

#: Weight of a bit given away against a bit learnt.
LEAK_WEIGHT = 1.0
#: Share of next turn's best action added to a room's worth (the look-ahead).
AHEAD = 0.5
#: A trait's chance from which revealing it is advised (3p - 1 >= 0.35 points expected).
#: Measured on six-player games: revealing from 0.45 on wins more than from 0.8 or 0.6
#: (``benchmarks/README.md``, "Advice that wins").
REVEAL_AT = 0.45

Question = tuple[str, Any]  # ("count", (trait,)) or ("has", card)


@dataclass(frozen=True)
class Choice:
    """One way to take a decision: the action in words and what it is worth (bits)."""

    action: tuple[Any, ...]  # the engine's action, with players by name
    bits: float
    leak: float = 0.0
    exact: bool = False

    @property
    def value(self) -> float:
        """What the choice is worth: bits learnt less bits given away (weighted)."""
        return self.bits - LEAK_WEIGHT * self.leak


def ranked(choices: Sequence[Choice]) -> list[Choice]:
    """Best value first; ties keep their order."""
    return sorted(choices, key=lambda c: -c.value)


class Position:
    """One observer's position: its draws, its log and what the others know of it.

    ``ranker`` makes the ranker when the first value needs it (defence needs
    none, so a position for defence alone may go without), ``lines`` is the
    observer's log (dicts with a ``"type"``), ``hands`` each holder's card
    count and ``exact`` whether the ranker's laws are exact.
    """

    def __init__(
        self,
        setup: AbbeySetup,
        ranker: Callable[[], Ranker] | None,
        lines: Sequence[Line],
        holders: Sequence[str],
        hands: Mapping[str, int],
        exact: bool = False,
    ) -> None:
        self.setup = setup
        self._ranker = ranker
        self._made: Ranker | None = None
        self.hands = hands
        self.exact = exact
        self.players = setup.players
        assert setup.me is not None
        self.me: str = setup.me
        self.known = sheets(lines, self.me, self.players)
        self.index = {name: h for h, name in enumerate(holders)}
        self._asks: dict[str, list[Choice]] = {}
        self._actions: dict[str, float] = {}

    @property
    def ranker(self) -> Ranker:
        """The ranker of the position's draws (made on first use)."""
        if self._made is None:
            if self._ranker is None:
                raise ValueError("this position has no draws to value attack by")
            self._made = self._ranker()
        return self._made

    @property
    def deck(self) -> int:
        """Cards in the deck."""
        return len(self.setup.deck.ids)

    def _bits(self, bits: float, **fields: Any) -> Choice:
        return Choice(bits=bits, exact=self.exact, **fields)

    # --------------------------------------------------------------- attack

    def ask(self, targets: Sequence[str]) -> list[Choice]:
        """Every question to each of ``targets``, best first."""
        found: list[Choice] = []
        for target in targets:
            if target not in self._asks:
                h = self.index[target]
                asks = [("count", (t,)) for t in TRAITS] + [("has", c) for c in self.setup.deck.ids]
                self._asks[target] = [
                    self._bits(self.ranker.question(h, q), action=("ask", target, q)) for q in asks
                ]
            found += self._asks[target]
        return ranked(found)

    def take(self, victim: str) -> float:
        """Bits in one random card of ``victim`` (a theft), 0 from an empty hand."""
        return self.ranker.random_card(self.index[victim]) if self.hands.get(victim) else 0.0

    def draw(self) -> float:
        """Bits in the pile's top card."""
        return self.ranker.random_card(PILE)

    def parlor(self, others: Sequence[str]) -> list[Choice]:
        """Each "show me" to each of ``others`` with a card left, and passing, best first."""
        found = [Choice(("pass",), 0.0, exact=True)]
        for other in others:
            if self.hands.get(other):
                found += [
                    self._bits(
                        self.ranker.random_card(self.index[other], traits),
                        action=("show_me", other, traits),
                    )
                    for traits in show_requests()
                ]
        return ranked(found)

    def reveal(self, made: Sequence[str]) -> str | None:
        """The likeliest trait not revealed yet, if its chance reaches ``REVEAL_AT``."""
        chances = {t: p for t, p in self.ranker.traits().items() if t not in made}
        best = max(chances, key=lambda t: chances[t], default=None)
        return best if best is not None and chances[best] >= REVEAL_AT else None

    # -------------------------------------------------------------- defence

    def reply(self, asker: str, question: Question, hand: Sequence[str]) -> list[Choice]:
        """Answer (a question back, less what the answer shows) or the vow of silence.

        An answer that gives nothing away is worth at least the silence, so its
        question back is then not valued (bits 0, a lower bound).
        """
        silence = Choice(("silence",), 0.0, exact=True)
        given = self.answer_leak(question, hand)
        if not given:
            return [Choice(("answer",), 0.0, exact=True), silence]
        back = self.ask([asker])[0]
        return ranked([Choice(("answer",), back.bits, given, back.exact), silence])

    def answer_leak(self, question: Question, hand: Sequence[str]) -> float:
        """Bits a true answer to ``question`` gives the table: a "yes" shows the card to all."""
        if question[0] != "has" or question[1] not in hand:
            return 0.0
        return public_leak(
            self.known, question[1], self.deck, {p: self.hands.get(p, 0) for p in self.known}
        )

    def show(self, to: str, cards: Sequence[str]) -> list[Choice]:
        """Each card that may be shown to ``to``, least given away first."""
        return ranked(
            [
                Choice(
                    ("show", c),
                    0.0,
                    leak(self.known[to], c, self.deck, self.hands.get(to, 0)),
                    True,
                )
                for c in cards
            ]
        )

    @property
    def left(self) -> str:
        """The observer's left neighbour, who gets the cards passed at Mass."""
        return self.players[(self.players.index(self.me) + 1) % len(self.players)]

    def mass(self, hand: Sequence[str], n: int) -> list[Choice]:
        """Each set of ``n`` cards of ``hand`` to pass left, least given away first."""
        known, size = self.known[self.left], self.hands.get(self.left, 0)
        return ranked(
            [
                Choice(
                    ("pass", cards), 0.0, sum(leak(known, c, self.deck, size) for c in cards), True
                )
                for cards in combinations(sorted(hand), n)
            ]
        )

    # ----------------------------------------------------------- look-ahead

    def room_action(self, board: Board, room: str, die: Mapping[str, str], pile: int) -> float:
        """Bits of what ``room`` does for the observer (theft, draw, "show me"), pawns aside.

        ``die`` gives the last visitor of each confessional.
        """
        kind = board.room(room)
        me = self.players.index(self.me)
        if kind.kind == "parlor":
            if pile:
                return self.draw()
            others = [p for p in self.players if p != self.me]
            return max(c.bits for c in self.parlor(others))
        if kind.kind == "confessional" and die.get(room, self.me) != self.me:
            return self.take(die[room])
        if (
            kind.kind == "cell"
            and kind.seat is not None
            and kind.seat != me
            and kind.seat < len(self.players)
        ):
            return self.take(self.players[kind.seat])
        return 0.0

    def rooms(
        self,
        board: Board,
        destinations: Sequence[str],
        pawns: Mapping[str, list[str]],
        die: Mapping[str, str],
        pile: int,
        steps: int,
    ) -> list[Choice]:
        """Each destination's worth: its question, its action and half the best next turn.

        ``pawns`` lists the askable players in each room (not praying).
        """
        if not self._actions:
            self._actions = {r.id: self.room_action(board, r.id, die, pile) for r in board.rooms}
        action = self._actions
        found = []
        for room in destinations:
            asked = self.ask(pawns[room])[0].bits if pawns.get(room) else 0.0
            ahead = max(action[r] for r in board.destinations(room, steps))
            found.append(self._bits(asked + action[room] + AHEAD * ahead, action=("move", room)))
        return ranked(found)
