"""Mystery of the Abbey rules as a seeded state machine, in the style of OpenSpiel.

A :class:`AbbeyGame` holds what does not change (seats, deck, board, the
other cards); :meth:`AbbeyGame.new_state` starts a :class:`AbbeyState`.
A state is always waiting for one thing: a chance outcome
(:meth:`AbbeyState.is_chance_node`, :meth:`AbbeyState.chance_outcomes`) or
one player's decision (:meth:`AbbeyState.current_player`,
:meth:`AbbeyState.legal_actions`); :meth:`AbbeyState.apply_action` supplies
it. Everything that happens is appended to :attr:`AbbeyState.events` as a
*truth event* (a dict); :func:`deduce.games.abbey.rules.observe.observe` turns each
one into what a given player learns, and the state keeps every player's
log that way. Bots see :meth:`AbbeyState.observation`, never the state.

Inside, a state works through a stack of *steps* (see
:mod:`deduce.games.machine`, shared by every engine). Rule readings the
rulebook leaves open are documented on the methods that make them and in
the README.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar, Literal, TypeAlias

from deduce.errors import DeduceError
from deduce.games.abbey.rules.board import CHAPEL, Board, default_board
from deduce.games.abbey.rules.cards import BookCard, CardSet, Effect, default_cards
from deduce.games.abbey.rules.observe import observe
from deduce.games.machine import Decision, Handler, Step, StepMachine, Steps
from deduce.games.seats import seat_names
from deduce.logs.formats.abbey import RULEBOOK_SIZES, TRAITS, Deck, default_deck, show_requests
from deduce.logs.jsonl import canonical_text

#: The face-down piles of book and event cards.
PILES = ("events", "scriptorium", "library")
#: Points of the rulebook's scoring table.
POINTS = {"revelation": (2, -1), "accusation": (4, -2)}

#: A question to one player: how many of their cards have these traits, or
#: whether they hold this card.
Question: TypeAlias = tuple[Literal["count"], tuple[str, ...]] | tuple[Literal["has"], str]

# The actions of each decision (``STEPS.decisions``), named by their first item.
#: Not answering, asking back or showing nothing.
Pass: TypeAlias = tuple[Literal["pass"]]
#: Moving: to a room within reach, or staying put when none is.
MoveAction: TypeAlias = tuple[Literal["move"], str] | tuple[Literal["stay"]]
#: A question to a pawn in the same room.
AskAction: TypeAlias = tuple[Literal["ask"], int, Question]
#: Answering a question, or the vow of silence.
ReplyAction: TypeAlias = tuple[Literal["answer"]] | tuple[Literal["silence"]]
#: In the parlor: asking a player to show a card with these traits (None: any card).
ParlorAction: TypeAlias = Pass | tuple[Literal["show_me"], int, tuple[str, ...] | None]
#: Showing one card.
ShowAction: TypeAlias = tuple[Literal["show"], str]
#: In the chapter: a revelation of a trait, an accusation of a card, or neither.
ChapterAction: TypeAlias = Pass | tuple[Literal["reveal"], str] | tuple[Literal["accuse"], str]
#: At the end of a turn: ending it, a crypt card or a kept book card.
ExtraAction: TypeAlias = (
    tuple[Literal["end"]] | tuple[Literal["crypt"]] | tuple[Literal["book"], str]
)
#: The cards passed to the left at Mass.
PassAction: TypeAlias = tuple[Literal["pass"], tuple[str, ...]]
#: The player a card's effect targets.
TargetAction: TypeAlias = tuple[Literal["player"], int]
#: Any decision's action: what bots choose among.
Action: TypeAlias = (
    MoveAction
    | AskAction
    | Pass
    | ReplyAction
    | ParlorAction
    | ShowAction
    | ChapterAction
    | ExtraAction
    | PassAction
    | TargetAction
)


@dataclass(frozen=True)
class AbbeyGame:
    """The fixed facts of a game: seats (in clockwise order), deck, board, cards and sizes.

    ``max_turns`` stops a game nobody solves (no culprit found, scores as
    they stand); it counts player turns, extra turns included.
    """

    players: tuple[str, ...]
    deck: Deck
    board: Board
    cards: CardSet
    pile: int
    hand: int
    max_turns: int = 400

    @classmethod
    def create(
        cls,
        players: int | Sequence[str],
        deck: Deck | None = None,
        board: Board | None = None,
        cards: CardSet | None = None,
        max_turns: int = 400,
    ) -> AbbeyGame:
        """A game for these seats (a count uses the default names), rulebook sizes for 24 cards."""
        names = seat_names("abbey", players, min(RULEBOOK_SIZES), max(RULEBOOK_SIZES))
        deck = deck or default_deck()
        if len(deck) != 24:
            raise DeduceError(
                f"the engine deals the rulebook's 24-card layout; this deck has {len(deck)} cards"
            )
        pile, hand = RULEBOOK_SIZES[len(names)]
        return cls(
            names, deck, board or default_board(), cards or default_cards(), pile, hand, max_turns
        )

    @property
    def steps(self) -> int:
        """Most steps of a move: three with six players, else two."""
        return 3 if len(self.players) == 6 else 2

    @property
    def bell_start(self) -> int:
        """Where the bell goes on a Mass card uncovered by a Mass: circle 2 with six players.

        Else circle 1; Matins, on top at the start, always starts on circle 1.
        """
        return 2 if len(self.players) == 6 else 1

    def log_text(self, player: str, events: Sequence[dict[str, Any]]) -> str:
        """``player``'s canonical log of these log events, checked by the log reader.

        The header carries the deck inline, as the log format asks of a
        simulator's logs, so any tool reads the log without the bundled data.
        """
        header: dict[str, Any] = {
            "game": "abbey",
            "version": 1,
            "players": list(self.players),
            "me": player,
            "deck": self.deck.to_json(),
        }
        return canonical_text(header, events, f"{player}.jsonl", self.deck)

    def new_state(self) -> AbbeyState:
        """The state before the deal (a chance node)."""
        return AbbeyState(self)


@dataclass
class Observation:
    """What one player sees: the public table, their own hand and cards, their log.

    ``decision`` names the pending decision when it is this player's (the
    step kinds of :class:`AbbeyState`: move, ask, reply, parlor, show,
    chapter, extra, target, pass), and ``about`` what a ``target`` choice is
    for (take, show, question or penance). ``context`` is what the player is
    told with it: the rest of the pending step after the seat, such as the
    asker and the question of a ``reply``, or who will see the card and the
    traits asked for of a ``show``.
    """

    seat: int
    player: str
    hand: tuple[str, ...]
    log: tuple[dict[str, Any], ...]
    positions: tuple[str, ...]
    penance: frozenset[int]
    hand_sizes: tuple[int, ...]
    pile: int
    revealed: tuple[tuple[int, str], ...]
    dice: dict[str, int]
    library_used: bool
    crypt: bool
    kept: tuple[BookCard, ...]
    decision: str
    about: str = ""
    context: tuple[Any, ...] = ()


@dataclass
class AbbeyState(StepMachine):
    """One moment of a game (see the module docstring)."""

    game: AbbeyGame
    events: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        g = self.game
        n = len(g.players)
        self.logs: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        #: For every line of every log, the index of the truth event it comes from.
        self.sources: list[list[int]] = [[] for _ in range(n)]
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.pile: list[str] = []
        self.culprit: str | None = None
        self.positions = [CHAPEL] * n
        self.penance: set[int] = set()
        self.dice: dict[str, int] = {}
        self.first = 0
        self.played_in_round = 0
        self.bell: int | None = None
        self.mass_index = 0
        self.turns = 0
        self.library_used: set[int] = set()
        #: Seats holding a crypt card, with the turn it was drawn in (usable in later turns).
        self.crypt_held: dict[int, int] = {}
        self.kept: list[list[BookCard]] = [[] for _ in range(n)]
        self.extra: list[int] = [0] * n
        #: Face-down piles, top first, shuffled at setup; played cards go under them.
        self.piles: dict[str, list[BookCard]] = {"events": [], "scriptorium": [], "library": []}
        #: The card each intruder took in the cell it stands in.
        self.intrusions: dict[int, str] = {}
        #: Truth event index of each catch where the intruder owed a card back: the log
        #: records the card given back as a random ``take``, the engine gives the one taken.
        self.catches: list[int] = []
        #: Every card's holder after the deal and after each transfer, by truth event index.
        self.holders_after: dict[int, dict[str, str]] = {}
        self.revealed: list[tuple[int, str]] = []
        self.scores = [0] * n
        self.finder: int | None = None
        self._passes: dict[int, tuple[str, ...]] = {}
        deal = ["culprit"] + ["pile"] * g.pile + [s for s in range(n) for _ in range(g.hand)]
        shuffles = [("shuffle", pile) for pile in PILES for _ in getattr(g.cards, pile)]
        self._start(*(("deal", slot) for slot in deal), ("deal_done",), *shuffles, ("turn_order",))

    # ----------------------------------------------------------- interface

    def returns(self) -> list[float]:
        """Each seat's score (the rulebook's points); final once the game is terminal."""
        return [float(s) for s in self.scores]

    def winners(self) -> list[int]:
        """Seats with the highest score; a tie goes to whoever found the culprit."""
        best = max(self.scores)
        top = [s for s, score in enumerate(self.scores) if score == best]
        return [self.finder] if self.finder in top else top

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees now (public table, own cards, own log, pending decision)."""
        decision = about = ""
        context: tuple[Any, ...] = ()
        if self._waiting is not None and self._waiting[0] != "chance" and self._waiting[1] == seat:
            decision = self._waiting[0]
            context = tuple(self._waiting[2:])
            if decision == "target":
                about = self._waiting[3]
        return Observation(
            seat,
            self.game.players[seat],
            tuple(self.hands[seat]),
            tuple(self.logs[seat]),
            tuple(self.positions),
            frozenset(self.penance),
            tuple(len(h) for h in self.hands),
            len(self.pile),
            tuple(self.revealed),
            dict(self.dice),
            seat in self.library_used,
            seat in self.crypt_held,
            tuple(self.kept[seat]),
            decision,
            about,
            context,
        )

    def holder_of(self, card: str) -> str:
        """Who holds ``card`` now: a player's name, ``pile`` or ``culprit``."""
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return self.game.players[seat]
        return "pile" if card in self.pile else "culprit"

    # --------------------------------------------------------------- engine

    def _emit(self, event: dict[str, Any]) -> None:
        """Record a truth event and append what each player learns of it to their log."""
        self.events.append(event)
        if event["type"] in ("deal", "draw", "take", "mass"):
            self.holders_after[len(self.events) - 1] = {
                c: self.holder_of(c) for c in self.game.deck.ids
            }
        for seat, player in enumerate(self.game.players):
            seen = observe(event, player, self.game.players)
            self.logs[seat].extend(seen)
            self.sources[seat].extend([len(self.events) - 1] * len(seen))

    # ------------------------------------------------------------ the deal

    def _step_deal(self, slot: Any) -> None:
        dealt = set(self.pile) | {c for h in self.hands for c in h} | {self.culprit}
        self._chance("deal", [c for c in self.game.deck.ids if c not in dealt], slot)

    def _chance_deal(self, card: str, slot: Any) -> None:
        if slot == "culprit":
            self.culprit = card
        elif slot == "pile":
            self.pile.append(card)
        else:
            self.hands[slot].append(card)

    def _step_shuffle(self, pile: str) -> None:
        """The next card down a face-down pile, at random among those not placed yet."""
        placed = {b.id for b in self.piles[pile]}
        left = [b.id for b in getattr(self.game.cards, pile) if b.id not in placed]
        self._chance("shuffle", left, pile)

    def _chance_shuffle(self, card: str, pile: str) -> None:
        self.piles[pile].append(next(b for b in getattr(self.game.cards, pile) if b.id == card))

    def _step_deal_done(self) -> None:
        self._emit(
            {
                "type": "deal",
                "culprit": self.culprit,
                "pile": list(self.pile),
                "hands": {p: list(h) for p, h in zip(self.game.players, self.hands)},
            }
        )

    def _step_turn_order(self) -> None:
        """A die picks the first player, two dice the last visitors of the confessionals."""
        seats = tuple(range(len(self.game.players)))
        self._then(
            ("chance", "first", seats),
            *(
                ("chance", "confessional", seats, room.id)
                for room in self.game.board.of_kind("confessional")
            ),
            ("next_turn",),
        )

    def _chance_first(self, seat: int) -> None:
        self.first = seat

    def _chance_confessional(self, seat: int, room: str) -> None:
        self.dice[room] = seat

    # ----------------------------------------------------------- the turns

    def _step_next_turn(self) -> None:
        """The next seat clockwise plays; the first player of a round moves the bell first."""
        n = len(self.game.players)
        if self.turns >= self.game.max_turns:
            self._finish()
            return
        if self.played_in_round == n:
            self.played_in_round = 0
        seat = (self.first + self.played_in_round) % n
        self.played_in_round += 1
        if self.played_in_round == 1:
            if self.bell == 4:
                self._then(("mass", seat))
                return
            self.bell = self._bell_start() if self.bell is None else self.bell + 1
        self._then(("turn", seat), ("next_turn",))

    def _bell_start(self) -> int:
        """Circle 1 on Matins at the start; after each Mass, the game's ``bell_start``.

        The six-player rule puts the bell on circle 2 "in the first round after each
        Mass" (French text; English: "each newly uncovered Mass card"), so the first Mass
        still comes after four rounds, and every later one after three.
        """
        return self.game.bell_start if self.mass_index else 1

    def _step_turn(self, seat: int) -> None:
        """One turn: skipped in penance; else move, encounter, room action, then extras."""
        self.turns += 1
        if seat in self.penance:
            self.penance.discard(seat)
            self._emit({"type": "skip", "player": self.game.players[seat]})
            return
        self._then(("move", seat), ("encounter", seat), ("room", seat), ("turn_end", seat))

    def _choices_move(self, seat: int) -> list[MoveAction]:
        g = self.game
        here = self.positions[seat]
        options: list[MoveAction] = []
        for room_id in g.board.destinations(here, g.steps):
            room = g.board.room(room_id)
            others = [s for s, r in enumerate(self.positions) if r == room_id and s != seat]
            if room.kind == "confessional" and others:
                continue
            if room.kind == "cell" and others and room.seat != seat:
                continue
            if room.kind == "library" and not self._may_enter_library(seat):
                continue
            options.append(("move", room_id))
        return options or [("stay",)]

    def _may_enter_library(self, seat: int) -> bool:
        """Once a game, and only with the fewest cards while somebody holds more."""
        sizes = [len(h) for h in self.hands]
        mine = sizes[seat]
        return seat not in self.library_used and mine == min(sizes) and max(sizes) > mine

    def _do_move(self, action: MoveAction, seat: int) -> None:
        self.intrusions.pop(seat, None)
        if action[0] == "move":
            self.positions[seat] = action[1]
        self._emit(
            {"type": "move", "player": self.game.players[seat], "room": self.positions[seat]}
        )

    def _askable(self, seat: int) -> list[int]:
        """Other pawns in the same room that may be asked (not praying in penance)."""
        room = self.positions[seat]
        return [
            s
            for s, r in enumerate(self.positions)
            if r == room and s != seat and s not in self.penance
        ]

    def _step_encounter(self, seat: int) -> None:
        """Ending a move with another pawn: a question to one of them is compulsory."""
        targets = self._askable(seat)
        if targets:
            self._then(("ask", seat, tuple(targets), False))

    def _questions(self) -> list[Question]:
        questions: list[Question] = [("count", (t,)) for t in TRAITS]
        questions += [("has", c) for c in self.game.deck.ids]
        return questions

    def _choices_ask(self, seat: int, targets: tuple[int, ...], forced: bool) -> list[AskAction]:
        return [("ask", t, q) for t in targets for q in self._questions()]

    def _do_ask(self, action: AskAction, seat: int, targets: tuple[int, ...], forced: bool) -> None:
        _, target, question = action
        self._emit(
            {
                "type": "question",
                "player": self.game.players[seat],
                "to": self.game.players[target],
                "question": _question_json(question),
            }
        )
        if forced:
            self._answer(target, question)
        else:
            self._then(("reply", target, seat, question))

    def _choices_ask_back(self, seat: int, asker: int) -> list[Pass | AskAction]:
        """Having answered, the player may ask the asker a question, who must answer."""
        return [("pass",), *self._choices_ask(seat, (asker,), True)]

    def _do_ask_back(self, action: Pass | AskAction, seat: int, asker: int) -> None:
        if action[0] == "ask":
            self._do_ask(action, seat, (asker,), True)

    def _choices_reply(self, seat: int, asker: int, question: Question) -> list[ReplyAction]:
        return [("answer",), ("silence",)]

    def _do_reply(self, action: ReplyAction, seat: int, asker: int, question: Question) -> None:
        """The vow of silence, or a truthful answer and a question back that must be answered."""
        if action == ("silence",):
            self._emit({"type": "silence", "player": self.game.players[seat]})
            return
        self._answer(seat, question)
        self._then(("ask_back", seat, asker))

    def _answer(self, seat: int, question: Question) -> None:
        """A truthful public answer: a count, or whether the card is held."""
        player = self.game.players[seat]
        if question[0] == "count":
            traits = question[1]
            n = sum(self.game.deck.card(c).has_traits(traits) for c in self.hands[seat])
            self._emit({"type": "count", "player": player, "traits": list(traits), "n": n})
        else:
            kind = "has" if question[1] in self.hands[seat] else "lacks"
            self._emit({"type": kind, "player": player, "card": question[1]})

    # ------------------------------------------------------------ the rooms

    def _step_room(self, seat: int) -> None:
        room = self.game.board.room(self.positions[seat])
        self.ROOMS[room.kind](self, seat, room)

    def _room_confessional(self, seat: int, room: Any) -> None:
        """Take a random card of the last visitor (the die), then turn the die to yourself."""
        victim = self.dice[room.id]
        self.dice[room.id] = seat
        if victim != seat:
            self._steal(seat, victim, None)

    def _room_cell(self, seat: int, room: Any) -> None:
        """Another's cell: take a random card of its owner; your own: catch any intruder."""
        owner = room.seat
        if owner is None or owner >= len(self.game.players):
            return
        if owner != seat:
            self._steal(seat, owner, "intrusion")
            return
        for intruder, r in enumerate(self.positions):
            if r == room.id and intruder != seat:
                self._catch(seat, intruder)

    def _catch(self, owner: int, intruder: int) -> None:
        """The intruder gives back the card taken (else a random one) and does penance."""
        taken = self.intrusions.pop(intruder, None)
        self._penance(intruder)
        if taken is None:
            return
        self.catches.append(len(self.events))
        if taken in self.hands[intruder]:
            self._give(owner, intruder, taken)
        elif self.hands[intruder]:
            self._chance("steal", self.hands[intruder], owner, intruder, None)

    def _steal(self, taker: int, victim: int, purpose: str | None) -> None:
        """A random card of ``victim``'s hand goes to ``taker`` (unless a kept book protects)."""
        shield = next((b for b in self.kept[victim] if b.effect.kind == "protect"), None)
        if shield is not None:
            self.kept[victim].remove(shield)
            self.piles["scriptorium"].append(shield)
            self._emit(
                {
                    "type": "protect",
                    "player": self.game.players[victim],
                    "from": self.game.players[taker],
                }
            )
        elif self.hands[victim]:
            self._chance("steal", self.hands[victim], taker, victim, purpose)

    def _chance_steal(self, card: str, taker: int, victim: int, purpose: str | None) -> None:
        self._give(taker, victim, card)
        if purpose == "intrusion":
            self.intrusions[taker] = card

    def _give(self, taker: int, victim: int, card: str) -> None:
        self.hands[victim].remove(card)
        self.hands[taker].append(card)
        self._emit(
            {
                "type": "take",
                "player": self.game.players[taker],
                "from": self.game.players[victim],
                "card": card,
            }
        )

    def _room_scriptorium(self, seat: int, room: Any) -> None:
        self._draw_book(seat, "scriptorium")

    def _room_library(self, seat: int, room: Any) -> None:
        self.library_used.add(seat)
        self._draw_book(seat, "library")

    def _step_book(self, seat: int, pile: str) -> None:
        self._draw_book(seat, pile)

    def _draw_book(self, seat: int, pile: str) -> None:
        """The top card of a pile is read; a kept book stays with the player, the rest act."""
        if not self.piles[pile]:  # every book of the pile kept by players
            return
        book = self.piles[pile].pop(0)
        self._emit(
            {"type": "book", "player": self.game.players[seat], "pile": pile, "card": book.id}
        )
        if book.keep:
            self.kept[seat].append(book)
            return
        self.piles[pile].append(book)
        self._effect(seat, book.effect)

    def _room_parlor(self, seat: int, room: Any) -> None:
        """Draw the top card while the pile lasts; then you may ask to be shown a card."""
        if self.pile:
            card = self.pile.pop(0)
            self.hands[seat].append(card)
            self._emit({"type": "draw", "player": self.game.players[seat], "card": card})
        else:
            self._then(("parlor", seat))

    def _choices_parlor(self, seat: int) -> list[ParlorAction]:
        others = [s for s in range(len(self.game.players)) if s != seat]
        options: list[ParlorAction] = [("pass",)]
        options += [("show_me", s, traits) for s in others for traits in show_requests()]
        return options

    def _do_parlor(self, action: ParlorAction, seat: int) -> None:
        if action[0] == "show_me":
            self._then(("show", action[1], seat, action[2]))

    def _choices_show(self, seat: int, to: int, traits: tuple[str, ...] | None) -> list[ShowAction]:
        deck = self.game.deck
        return [
            ("show", c)
            for c in self.hands[seat]
            if traits is None or deck.card(c).has_traits(traits)
        ]

    def _step_show(self, seat: int, to: int, traits: tuple[str, ...] | None) -> None:
        """Show one matching card if any (the shower's choice); none: say so."""
        if self._choices_show(seat, to, traits):
            self._waiting = ("show", seat, to, traits)
        elif traits is not None:
            self._emit(
                {"type": "count", "player": self.game.players[seat], "traits": list(traits), "n": 0}
            )

    def _do_show(
        self, action: ShowAction, seat: int, to: int, traits: tuple[str, ...] | None
    ) -> None:
        event: dict[str, Any] = {
            "type": "show",
            "player": self.game.players[seat],
            "to": self.game.players[to],
            "card": action[1],
        }
        if traits is not None:
            event["traits"] = list(traits)
        self._emit(event)

    def _room_crypt(self, seat: int, room: Any) -> None:
        """A crypt card (one at most per player) for an extra turn later."""
        if seat not in self.crypt_held and len(self.crypt_held) < self.game.cards.crypt:
            self.crypt_held[seat] = self.turns
            self._emit({"type": "crypt", "player": self.game.players[seat]})

    def _room_chapter(self, seat: int, room: Any) -> None:
        self._then(("chapter", seat))

    def _choices_chapter(self, seat: int) -> list[ChapterAction]:
        """A revelation not made before, or (once the pile is empty) an accusation, or neither."""
        made = {t for _, t in self.revealed}
        options: list[ChapterAction] = [("pass",)]
        options += [("reveal", t) for t in TRAITS if t not in made]
        if not self.pile:
            options += [("accuse", c) for c in self.game.deck.ids if c not in self.hands[seat]]
        return options

    def _do_chapter(self, action: ChapterAction, seat: int) -> None:
        player = self.game.players[seat]
        if action[0] == "reveal":
            self.revealed.append((seat, action[1]))
            self._emit({"type": "revelation", "player": player, "trait": action[1]})
        elif action[0] == "accuse":
            self._accuse(seat, action[1])

    def _accuse(self, seat: int, card: str) -> None:
        """A wrong accusation is disproved by the card's holder: -2 and penance; else +4, end."""
        holder = self.holder_of(card)
        player = self.game.players[seat]
        if holder == "culprit":
            self.scores[seat] += POINTS["accusation"][0]
            self.finder = seat
            self._emit({"type": "accuse", "player": player, "card": card, "correct": True})
            self._finish()
        else:
            self.scores[seat] += POINTS["accusation"][1]
            self._emit(
                {
                    "type": "accuse",
                    "player": player,
                    "card": card,
                    "correct": False,
                    "shown_by": holder,
                }
            )
            self._penance(seat)

    def _finish(self) -> None:
        """Reveal the culprit, score the revelations and end the game."""
        assert self.culprit is not None
        traits = self.game.deck.card(self.culprit).traits
        for seat, trait in self.revealed:
            right, wrong = POINTS["revelation"]
            self.scores[seat] += right if trait in traits else wrong
        self._emit({"type": "culprit", "card": self.culprit})
        self.over = True
        self._todo.clear()

    def _penance(self, seat: int) -> None:
        """To the chapel, to skip the next turn."""
        self.intrusions.pop(seat, None)
        self.positions[seat] = CHAPEL
        self.penance.add(seat)
        self._emit({"type": "penance", "player": self.game.players[seat]})

    def _step_turn_end(self, seat: int) -> None:
        """Extra turns owed play now; else a crypt card or kept book may buy one more."""
        if self.over:
            return
        if self.extra[seat]:
            self.extra[seat] -= 1
            self._then(("turn", seat))
        elif self._choices_extra(seat) != [("end",)]:
            self._then(("extra", seat))

    def _choices_extra(self, seat: int) -> list[ExtraAction]:
        options: list[ExtraAction] = [("end",)]
        if seat in self.penance:  # praying: no extra turn to spend the skip on
            return options
        if self.crypt_held.get(seat, self.turns) < self.turns:  # drawn in an earlier turn
            options.append(("crypt",))
        options += [("book", b.id) for b in self.kept[seat] if self._usable(seat, b)]
        return sorted(set(options))

    def _usable(self, seat: int, book: BookCard) -> bool:
        """A kept book usable at the end of a turn: no protection, no question in penance."""
        kind = book.effect.kind
        return kind != "protect" and not (kind == "question" and seat in self.penance)

    def _do_extra(self, action: ExtraAction, seat: int) -> None:
        if action[0] == "end":
            return
        if action[0] == "crypt":
            del self.crypt_held[seat]
            self._emit({"type": "crypt_used", "player": self.game.players[seat]})
            self._then(("turn", seat))
            return
        book = next(b for b in self.kept[seat] if b.id == action[1])
        self.kept[seat].remove(book)
        self.piles["scriptorium"].append(book)
        self._emit({"type": "book_used", "player": self.game.players[seat], "card": book.id})
        self._then(("turn_end", seat))
        self._effect(seat, book.effect)

    # ---------------------------------------------------------------- Mass

    def _step_mass(self, ringer: int) -> None:
        """All pawns to the chapel, cards passed left, an event; the bell goes right."""
        g = self.game
        chapel = CHAPEL
        self.positions = [chapel] * len(g.players)
        self.intrusions.clear()
        card = g.cards.masses[self.mass_index % len(g.cards.masses)]
        self.mass_index += 1
        self._emit({"type": "mass_bell", "player": g.players[ringer], "mass": card.id})
        self.first = (ringer - 1) % len(g.players)
        self.played_in_round = 0
        self.bell = None
        self._then(*self._pass_steps(card.passes), ("book", ringer, "events"), ("next_turn",))

    def _pass_steps(self, n: int) -> list[Step]:
        """Every player chooses min(n, hand) cards, then all pass them left at once."""
        seats = range(len(self.game.players))
        return [("pass", s, min(n, len(self.hands[s]))) for s in seats] + [("passed", n)]

    def _choices_pass(self, seat: int, n: int) -> list[PassAction]:
        return [("pass", cards) for cards in combinations(sorted(self.hands[seat]), n)]

    def _step_pass(self, seat: int, n: int) -> None:
        if n == 0:
            self._passes[seat] = ()
        else:
            self._waiting = ("pass", seat, n)

    def _do_pass(self, action: PassAction, seat: int, n: int) -> None:
        self._passes[seat] = action[1]

    def _step_passed(self, n: int) -> None:
        g = self.game
        passes, self._passes = self._passes, {}
        for seat, cards in passes.items():
            left = (seat + 1) % len(g.players)
            for card in cards:
                self.hands[seat].remove(card)
                self.hands[left].append(card)
        self._emit(
            {
                "type": "mass",
                "n": n,
                "passes": {g.players[s]: list(c) for s, c in sorted(passes.items())},
            }
        )

    # ------------------------------------------------------------- effects

    def _effect(self, user: int, effect: Effect) -> None:
        """Carry out a book or event card's effect for ``user``."""
        kind = effect.kind
        if kind == "pass":
            self._then(*self._pass_steps(effect.n))
        elif kind == "extra_turn":
            self.extra[user] += 1
        elif kind == "move":
            self._send(user, effect.to or "")
        elif kind in ("take", "show", "question", "penance"):
            self._target(user, kind, effect.who or "self")

    def _send(self, user: int, kind: str) -> None:
        """A card sends the user's pawn to the room of ``kind``; a pawn in penance stays praying.

        Penance: the pawn "is placed in the Chapel where he must spend a whole turn
        praying", so a card read by a praying bell ringer does not move him.
        """
        if user in self.penance:
            return
        room = self.game.board.of_kind(kind)[0].id
        self.positions[user] = room
        self._emit({"type": "move", "player": self.game.players[user], "room": room})

    def _target(self, user: int, kind: str, who: str) -> None:
        """Find the player an effect designates (die, choice, self, neighbours), then act."""
        n = len(self.game.players)
        others = tuple(s for s in range(n) if s != user)
        if kind == "question":
            # A monk in penance "may neither ask nor answer questions": a praying user asks
            # nothing, and a praying monk is never the one asked (the die is rerolled).
            if user in self.penance:
                return
            others = tuple(s for s in others if s not in self.penance)
        if who == "self":
            self._on_target(user, user, kind)
        elif who == "left":
            self._on_target(user, (user + 1) % n, kind)
        elif who == "right":
            self._on_target(user, (user - 1) % n, kind)
        elif who == "die":
            self._chance("die", others, user, kind)
        else:
            self._then(("target", user, others, kind))

    def _chance_die(self, target: int, user: int, kind: str) -> None:
        self._on_target(user, target, kind)

    def _choices_target(self, seat: int, others: tuple[int, ...], kind: str) -> list[TargetAction]:
        return [("player", s) for s in others]

    def _do_target(
        self, action: TargetAction, seat: int, others: tuple[int, ...], kind: str
    ) -> None:
        self._on_target(seat, action[1], kind)

    def _on_target(self, user: int, target: int, kind: str) -> None:
        if kind == "take":
            self._steal(user, target, None)
        elif kind == "show":
            self._then(("show", target, user, None))
        elif kind == "question":
            self._then(("ask", user, (target,), True))
        else:
            self._penance(target)

    def _room_quiet(self, seat: int, room: Any) -> None:
        """The chapel, the courtyard, the cloisters and the empty rooms do nothing."""

    #: What a room does to the player who ends a move there, by room kind
    #: (every kind of ``board.KIND_COUNTS``).
    ROOMS: ClassVar[Mapping[str, Handler]] = {
        "confessional": _room_confessional,
        "cell": _room_cell,
        "scriptorium": _room_scriptorium,
        "library": _room_library,
        "parlor": _room_parlor,
        "crypt": _room_crypt,
        "chapter": _room_chapter,
        **dict.fromkeys(("chapel", "courtyard", "cloister", "empty"), _room_quiet),
    }

    STEPS = Steps(
        auto={
            "deal": _step_deal,
            "shuffle": _step_shuffle,
            "deal_done": _step_deal_done,
            "turn_order": _step_turn_order,
            "next_turn": _step_next_turn,
            "turn": _step_turn,
            "encounter": _step_encounter,
            "room": _step_room,
            "book": _step_book,
            "show": _step_show,
            "turn_end": _step_turn_end,
            "mass": _step_mass,
            "pass": _step_pass,
            "passed": _step_passed,
        },
        decisions={
            "move": Decision(_choices_move, _do_move),
            "ask": Decision(_choices_ask, _do_ask),
            "ask_back": Decision(_choices_ask_back, _do_ask_back),
            "reply": Decision(_choices_reply, _do_reply),
            "parlor": Decision(_choices_parlor, _do_parlor),
            "show": Decision(_choices_show, _do_show),
            "chapter": Decision(_choices_chapter, _do_chapter),
            "extra": Decision(_choices_extra, _do_extra),
            "pass": Decision(_choices_pass, _do_pass),
            "target": Decision(_choices_target, _do_target),
        },
        chances={
            "deal": _chance_deal,
            "shuffle": _chance_shuffle,
            "first": _chance_first,
            "confessional": _chance_confessional,
            "steal": _chance_steal,
            "die": _chance_die,
        },
    )


def _question_json(question: Question) -> dict[str, Any]:
    """A question as written in a truth event."""
    if question[0] == "count":
        return {"count": list(question[1])}
    return {"has": question[1]}
