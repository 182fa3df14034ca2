"""The Name of the Rose rules as a seeded state machine, in the style of OpenSpiel.

A :class:`RoseGame` holds what does not change (seats and components);
:meth:`RoseGame.new_state` starts a :class:`RoseState`, which works through a
stack of steps (:mod:`deduce.games.machine`): chance nodes for the setup and
the card draws, then one seat's decision at a time (the decisions and their
action shapes are listed on :class:`Observation`). Everything that happens is
appended to :attr:`RoseState.events` as a *truth event* (a dict);
:func:`deduce.games.rose.observe.observe` turns each into what a given player
logs, and the state keeps every player's log that way. Bots see
:meth:`RoseState.observation`, never the state. The rules are those of the
rulebook (``/work/shared/rules/name-of-the-rose.txt``); the card and tile
values are the documented defaults of :mod:`deduce.games.rose.data`.

Rule readings, where the rulebook is silent (each is also on the method that
makes it):

- Shuffles: the draw pile is kept unordered and each draw is a uniformly
  random card of it, which is what drawing from a pile nobody has seen is;
  when it is empty at a draw, the discards (the card just played included)
  become the pile.
- The sundial: every day starts with the time marker on the blue space (0);
  whatever the day's last card moves beyond it is lost.
- Time tiles: a player uses at most as many tiles as the card's time value
  (more would move the marker backwards); the tiles used, and the tile given
  back on the "Incredulous" day, are the player's oldest (first collected).
  Tiles are used at step 2 of a turn and collected at step 4, so a tile is
  never usable on the turn it was collected without any further check.
- Refilling: only when a building's last task tile is taken, with the first
  two tiles of the row, or what there is of them; a building left empty
  stays empty (a monk moved there arouses no suspicion: the sum is 0).
- A building card whose building already holds all eight pawns may be
  played: nothing can move, so nothing happens.
- William's and Adson's choices are made monk by monk, in colour order
  (red, blue, white, grey, black, orange).
- Event tiles act after the move's action (and before the card draw); on
  the "Studious" day, after each of the two moves. "The monks met" and "an
  empty building" are judged on the pawns there before the move.
- The clue score is a running total: past 50 it goes on (the rulebook's wrap
  adding 50), a move backwards undoes a wrap, and it never goes below 0. The
  suspicion track runs from 0 to 40.
- End-of-day conversion when all six suspicion markers share a space: all
  six share first place and get 5 (10 on the "Caught" day), as the table
  reads; the markers then go back to 10. A "Communicative" conversion with
  all six on one space does nothing at all (no points, no reset).
- "At the Culprit's Heels" and "Mysterious": +2 to one monk or +1 to each of
  two different monks, any monks (also colours nobody plays).
- "Awkward": nothing to choose when the card's time value is 0 (Adson).
- "Suspicious": every monk tied for the most suspicion gets +1, unless all
  six are tied.
- Revelation rounds and the final guesses are simultaneous: players choose
  in seat order, and nobody sees a choice before all have chosen. A colour
  revealed by two players gives +2 clue twice.
- Guesses: a player has one marker of each colour, so their guesses are all
  different colours; one may be the guesser's own colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Any, ClassVar, Literal, TypeAlias

from deduce.games.machine import Decision, Handler, Step, StepMachine, Steps
from deduce.games.rose.data import CHURCH, LIBRARY, ActionCard, RoseData, default_data
from deduce.games.rose.observe import observe
from deduce.games.seats import seat_names
from deduce.logs.formats.rose import COLOURS, FORMAT
from deduce.logs.jsonl import canonical_text

#: The eight pawns: the six monks, William and Adson.
PAWNS: tuple[str, ...] = (*COLOURS, "william", "adson")
#: Days with turns (one event tile each); the seventh day is the guesses.
DAYS = 6
#: Days after which players reveal a colour marker.
REVELATION_DAYS = (1, 3, 5)
#: Colour markers each player reveals: one after each of those days.
REVEALS = len(REVELATION_DAYS)
#: Spaces of the sundial: a day ends when the time marker reaches or passes this.
SUNDIAL = 24
#: Cards in a hand.
HAND = 3
SUSPICION_START, SUSPICION_MAX, CLUE_START = 10, 40, 5
#: Clue points of the end-of-day conversion, by place on the suspicion track.
CONVERSION = (5, 4, 3, 2, 1, 0)
#: Time value of a William/Adson card, by the pawn moved.
PAWN_TIME = {"william": 5, "adson": 0}
#: Track and points (either way) of a monk met by William or Adson (doubled on "Tricky").
MEETING = {"william": ("clue", 3), "adson": ("suspicion", 5)}
#: Clue points: a revealed colour, each event tile held, the "Heels"/"Mysterious" bonus.
REVEAL_POINTS, TILE_POINTS, BONUS_POINTS = 2, 2, 2
#: Clue points of each correct guess on a player, by number of players.
GUESS_POINTS = {2: 12, 3: 6, 4: 4, 5: 3}

#: A decision's context (see ``Observation.context``).
Context: TypeAlias = dict[str, Any]
#: A task or time tile: its colour and value.
Tile: TypeAlias = tuple[str, int]

# The actions of each decision (``STEPS.decisions``).
#: ``play``: a card of the hand, the pawn it moves (William or Adson, for their
#: card; else None) and how many time tiles are used.
PlayAction: TypeAlias = tuple[str, str | None, int]
#: ``move``: a pawn and the building it goes to.
MoveAction: TypeAlias = tuple[str, str]
#: ``second`` (the "Studious" day): the card used again, or None.
SecondAction: TypeAlias = MoveAction | None
#: ``task``: the task tile of its colour a monk takes.
TaskAction: TypeAlias = Tile
#: ``william``, ``adson``: the points to a monk met, up (1) or down (-1).
MeetingAction: TypeAlias = Literal[1, -1]
#: ``bonus``: one monk (+2), or two different monks (+1 each).
BonusAction: TypeAlias = tuple[str, ...]
#: ``awkward``, ``reveal``: a colour.
ColourAction: TypeAlias = str
#: ``guess``: a colour for each other player, in seat order.
GuessAction: TypeAlias = tuple[str, ...]
#: Any decision's action: what bots choose among.
Action: TypeAlias = (
    PlayAction
    | MoveAction
    | SecondAction
    | TaskAction
    | MeetingAction
    | BonusAction
    | ColourAction
    | GuessAction
)


#: ``bonus``'s actions: one monk (+2) or two different monks (+1 each), any colours,
#: played or not.
BONUS_CHOICES: tuple[BonusAction, ...] = (
    *((m,) for m in COLOURS),
    *combinations(COLOURS, 2),
)


def card_time(card: ActionCard, pawn: str | None) -> int:
    """Spaces a card moves the time marker: its value, or 5 for William and 0 for Adson."""
    return card.time if card.time is not None else PAWN_TIME[pawn or ""]


def move_context(card: ActionCard, pawn: str | None) -> Context:
    """What a played card lets its player move: ``card``, ``pawn`` (or None) and ``to`` (or None).

    A monk card moves its monk, a William/Adson card the pawn chosen with it
    (``pawn``), anywhere else; a building card moves any pawn ``to`` its building.
    """
    return {
        "card": card.id,
        "pawn": card.target if card.kind == "monk" else pawn,
        "to": card.target if card.kind == "building" else None,
    }


def card_moves(
    context: Context, positions: Mapping[str, str], buildings: Sequence[str]
) -> list[MoveAction]:
    """The ``(pawn, building)`` moves of a card's :func:`move_context` with pawns at ``positions``.

    Its pawn to another building, or another building's pawn to its building;
    a building card whose building holds every pawn has none: it moves nothing.
    """
    pawn, to = context["pawn"], context["to"]
    if to is not None:
        return [(p, to) for p in PAWNS if positions[p] != to]
    return [(pawn, b) for b in buildings if b != positions[pawn]]


@dataclass(frozen=True)
class RoseGame:
    """The fixed facts of a game: seats (in clockwise order) and components."""

    players: tuple[str, ...]
    data: RoseData

    @classmethod
    def create(cls, players: int | Sequence[str], data: RoseData | None = None) -> RoseGame:
        """A game for these seats (a count uses the default names), 2 to 5 players."""
        names = seat_names("rose", players, *FORMAT.players)
        return cls(names, data or default_data())

    def log_text(self, player: str, events: Sequence[dict[str, Any]]) -> str:
        """``player``'s canonical log of these log events, checked by the log reader."""
        header = {"game": "rose", "version": 1, "players": list(self.players), "me": player}
        return canonical_text(header, events, f"{player}.jsonl")

    def new_state(self) -> RoseState:
        """The state before the setup (a chance node)."""
        return RoseState(self)


@dataclass(frozen=True)
class Observation:
    """What one player sees: the public table, their own identity and hand, their log.

    ``decision`` names the pending decision when it is this player's, and
    ``context`` says what it is about; the actions are:

    - ``play``: ``(card_id, pawn, tiles)``: a card of the hand, the pawn it
      moves for a William/Adson card (``"william"``: time 5, ``"adson"``:
      time 0; else None) and how many time tiles to use (0 to the smaller
      of ``usable`` and the card's time value);
    - ``move`` (context ``card``, ``pawn``: the pawn the card moves or None,
      ``to``: the building of a building card or None): ``(pawn, building)``,
      a pawn to a building other than its own;
    - ``task`` (context ``monk``, ``building``): the task tile
      ``(colour, value)`` the monk takes when two of its colour differ;
    - ``william`` and ``adson`` (context ``monk`` met, ``points``: 3 or 6 clue,
      5 or 10 suspicion): ``1`` (forward) or ``-1`` (backward);
    - ``bonus`` ("At the Culprit's Heels", "Mysterious"; context ``event``):
      ``(monk,)`` for +2 clue or ``(monk_a, monk_b)`` for +1 each;
    - ``awkward`` (context ``points``: the card's time value): the monk
      colour that gets that much suspicion;
    - ``second`` ("Studious"; context as ``move``): a second ``(pawn,
      building)`` move, or None to stop;
    - ``reveal``: a colour of a still-hidden marker, not one's own;
    - ``guess`` (context ``of``: the other players in seat order): one
      colour for each of them, in that order, all different.

    The table: ``day`` (1-7), ``time`` (the sundial, 0-23), ``event`` (the
    day's event tile, None on day 7), ``positions`` (pawn -> building),
    ``tasks`` (building -> face-up tiles), ``row`` (face-down tiles left),
    ``suspicion`` and ``clue`` (colour -> points; clue past 50 goes on),
    per seat: ``time_tiles`` (count), ``revealed`` (colours) and
    ``events_held`` (count); ``usable`` (this seat's time tiles usable now)
    and ``pile`` (cards left in the draw pile).
    """

    seat: int
    player: str
    identity: str
    hand: tuple[str, ...]
    log: tuple[dict[str, Any], ...]
    decision: str
    context: Context
    day: int
    time: int
    event: str | None
    positions: dict[str, str]
    tasks: dict[str, tuple[Tile, ...]]
    row: int
    suspicion: dict[str, int]
    clue: dict[str, int]
    time_tiles: tuple[int, ...]
    usable: int
    revealed: tuple[tuple[str, ...], ...]
    events_held: tuple[int, ...]
    pile: int


@dataclass
class RoseState(StepMachine):
    """One moment of a game (see the module docstring)."""

    game: RoseGame
    events: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        data = self.game.data
        seats = range(len(self.game.players))
        self.logs: list[list[dict[str, Any]]] = [[] for _ in seats]
        #: Each seat's monk colour.
        self.identities: list[str] = []
        self.hands: list[list[str]] = [[] for _ in seats]
        #: The draw pile (unordered: each draw is a chance outcome) and the discards.
        self.pile: list[str] = [c.id for c in data.cards]
        self.discards: list[str] = []
        self.positions: dict[str, str] = {}
        self.tasks: dict[str, list[Tile]] = {b: [] for b in data.buildings}
        #: The face-down task tiles, first to be turned up first.
        self.row: list[Tile] = []
        #: The six face-down event tiles, one per day, in order.
        self.event_tiles: list[str] = []
        self.day = 0
        self.time = 0
        self.suspicion = dict.fromkeys(COLOURS, SUSPICION_START)
        self.clue = dict.fromkeys(COLOURS, CLUE_START)
        #: Each seat's time tiles, oldest first.
        self.time_tiles: list[list[Tile]] = [[] for _ in seats]
        self.events_held: list[list[str]] = [[] for _ in seats]
        self.revealed: list[list[str]] = [[] for _ in seats]
        self.guesses: dict[int, tuple[str, ...]] = {}
        #: The seat that starts the current (or next) day.
        self.starter = 0
        self._chosen: dict[int, str] = {}
        self._unlaid = list(range(len(data.tasks)))
        spare = len(data.tasks) - 2 * len(data.buildings)
        self._start(
            *[("hide",)] * DAYS,
            *(("place", pawn) for pawn in PAWNS),
            *(("lay", b) for b in data.buildings for _ in range(2)),
            *[("lay", None)] * spare,
            *(("identity", s) for s in seats),
            *(("draw", s) for _ in range(HAND) for s in seats),
            ("dealt",),
            ("chance", "first", tuple(seats)),
            ("day",),
        )

    # ----------------------------------------------------------- interface

    @property
    def event(self) -> str | None:
        """The event tile of the day (None before the first day and on the seventh)."""
        return self.event_tiles[self.day - 1] if 1 <= self.day <= DAYS else None

    @property
    def scores(self) -> list[int]:
        """Each seat's clue score (its monk's clue points); final once the game is over."""
        return [self.clue[colour] for colour in self.identities]

    def returns(self) -> list[float]:
        """Each seat's return: minus its clue score (the lowest clue score wins)."""
        return [-float(s) for s in self.scores]

    def winners(self) -> list[int]:
        """Seats with the lowest clue score; a tie goes to the fewest event tiles, else all."""
        best = min((score, len(self.events_held[s])) for s, score in enumerate(self.scores))
        return [
            s for s, score in enumerate(self.scores) if (score, len(self.events_held[s])) == best
        ]

    def usable(self, seat: int) -> int:
        """How many time tiles ``seat`` may use now: none on the "In a Hurry" day."""
        return 0 if self.event == "hurry" else len(self.time_tiles[seat])

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees now (public table, own identity, hand and log, pending decision)."""
        decision, context = "", {}
        step = self._waiting
        if step is not None and step[0] != "chance" and step[1] == seat:
            decision, context = step[0], dict(step[2])
        seats = range(len(self.game.players))
        return Observation(
            seat,
            self.game.players[seat],
            self.identities[seat],
            tuple(self.hands[seat]),
            tuple(self.logs[seat]),
            decision,
            context,
            self.day,
            self.time if self.time < SUNDIAL else 0,
            self.event,
            dict(self.positions),
            {b: tuple(tiles) for b, tiles in self.tasks.items()},
            len(self.row),
            dict(self.suspicion),
            dict(self.clue),
            tuple(len(self.time_tiles[s]) for s in seats),
            self.usable(seat),
            tuple(tuple(self.revealed[s]) for s in seats),
            tuple(len(self.events_held[s]) for s in seats),
            len(self.pile),
        )

    # --------------------------------------------------------------- engine

    def _emit(self, event: dict[str, Any]) -> None:
        """Record a truth event and append what each player learns of it to their log."""
        self.events.append(event)
        for seat, player in enumerate(self.game.players):
            self.logs[seat].extend(observe(event, player, self.game.players))

    def _mark(self, monk: str, track: str, n: int, cause: str, seat: int | None = None) -> None:
        """Move a monk's marker ``n`` points on a track, clamped to the track's ends.

        A choice of ``seat`` is a public ``points`` event (``n`` before the
        clamp); an automatic change (``seat`` None) a ``score`` truth event
        naming its cause. Nothing happens when ``n`` is 0.

        Clue points are a running total that never goes below 0: past 50 it
        goes on (the rulebook's wrap adding 50), and a move back undoes a wrap.
        """
        if n == 0:
            return
        if seat is None:
            self._emit({"type": "score", "monk": monk, "track": track, "n": n, "cause": cause})
        else:
            self._emit(
                {
                    "type": "points",
                    "player": self.game.players[seat],
                    "monk": monk,
                    "track": track,
                    "n": n,
                    "cause": cause,
                }
            )
        if track == "clue":
            self.clue[monk] = max(0, self.clue[monk] + n)
        else:
            self.suspicion[monk] = min(SUSPICION_MAX, max(0, self.suspicion[monk] + n))

    # ------------------------------------------------------------- the setup

    def _step_hide(self) -> None:
        """The next face-down event tile, at random among the tiles not placed yet."""
        self._chance("hide", [e for e in self.game.data.events if e not in self.event_tiles])

    def _chance_hide(self, tile: str) -> None:
        self.event_tiles.append(tile)

    def _step_place(self, pawn: str) -> None:
        """A pawn on a random building that holds no pawn yet."""
        taken = set(self.positions.values())
        self._chance("place", [b for b in self.game.data.buildings if b not in taken], pawn)

    def _chance_place(self, building: str, pawn: str) -> None:
        self.positions[pawn] = building

    def _step_lay(self, building: str | None) -> None:
        """A random task tile (by index) face up on ``building``, or at the end of the row."""
        self._chance("lay", self._unlaid, building)

    def _chance_lay(self, index: int, building: str | None) -> None:
        self._unlaid.remove(index)
        tile = self.game.data.tasks[index]
        (self.row if building is None else self.tasks[building]).append(tile)

    def _step_identity(self, seat: int) -> None:
        self._chance("identity", [c for c in COLOURS if c not in self.identities], seat)

    def _chance_identity(self, colour: str, seat: int) -> None:
        self.identities.append(colour)

    def _step_draw(self, seat: int) -> None:
        """A random card of the draw pile; an empty pile is first made of the discards.

        The pile is unordered: a uniformly random card of it is what drawing
        from a pile nobody has seen gives.
        """
        if not self.pile:
            self.pile, self.discards = self.discards, []
            self._emit({"type": "reshuffle", "cards": len(self.pile)})
        self._chance("draw", self.pile, seat)

    def _chance_draw(self, card: str, seat: int) -> None:
        self.pile.remove(card)
        self.hands[seat].append(card)
        self._emit({"type": "draw", "player": self.game.players[seat], "card": card})

    def _step_dealt(self) -> None:
        players = self.game.players
        self._emit(
            {
                "type": "deal",
                "identities": dict(zip(players, self.identities)),
                "positions": dict(self.positions),
                "tasks": {b: [list(t) for t in tiles] for b, tiles in self.tasks.items()},
                "row": [list(t) for t in self.row],
                "events": list(self.event_tiles),
            }
        )

    def _chance_first(self, seat: int) -> None:
        self.starter = seat

    # -------------------------------------------------------------- the days

    def _step_day(self) -> None:
        """A new day: turn its event tile over, time marker on the blue space; day 7: guesses.

        Whatever the last card of the day moved the marker beyond the blue space is lost.
        """
        self.day += 1
        self.time = 0
        if self.day > DAYS:
            seats = range(len(self.game.players))
            self._then(*(("guess", s, {"of": self._others(s)}) for s in seats), ("score",))
            return
        self._emit(
            {
                "type": "day",
                "day": self.day,
                "event": self.event,
                "player": self.game.players[self.starter],
            }
        )
        self._then(("play", self.starter, {}))

    def _choices_play(self, seat: int, context: Context) -> list[PlayAction]:
        """Each card of the hand, with William or Adson for a William/Adson card.

        With 0 time tiles up to as many as the card's time value (more would
        move the marker backwards). Tiles are used here, at step 2, and
        collected at step 4, so a tile is never usable on the turn it was
        collected.
        """
        usable = self.usable(seat)
        actions = []
        for card_id in self.hands[seat]:
            card = self.game.data.card(card_id)
            pawns = tuple(PAWN_TIME) if card.time is None else (None,)
            for pawn in pawns:
                time = card_time(card, pawn)
                actions += [(card_id, pawn, k) for k in range(min(usable, time) + 1)]
        return actions

    def _do_play(self, action: PlayAction, seat: int, context: Context) -> None:
        """Play the card, move the time marker (less the tiles used), then the turn goes on.

        The tiles used are the player's oldest; they go to the end of the row.
        """
        card_id, pawn, used = action
        card = self.game.data.card(card_id)
        self.hands[seat].remove(card_id)
        self.discards.append(card_id)
        self.row += self.time_tiles[seat][:used]
        del self.time_tiles[seat][:used]
        time = card_time(card, pawn)
        self.time += time - used
        event = {
            "type": "play",
            "player": self.game.players[seat],
            "card": card_id,
            "tiles": used,
            "time": self.time,
        }
        if pawn is not None:
            event["pawn"] = pawn
        self._emit(event)
        self._then(
            ("move", seat, move_context(card, pawn)),
            ("turn_end", seat, {"time": time}),
            ("draw", seat),
            ("next", seat),
        )

    def _moves(self, context: Context) -> list[MoveAction]:
        return card_moves(context, self.positions, self.game.data.buildings)

    def _choices_move(self, seat: int, context: Context) -> list[MoveAction]:
        return self._moves(context)

    def _do_move(self, action: MoveAction, seat: int, context: Context) -> None:
        second = [("second", seat, context)] if self.event == "studious" else []
        self._then(*self._move(seat, *action), *second)

    def _choices_second(self, seat: int, context: Context) -> list[SecondAction]:
        """With "Studious": the card used again (the same monk, pawn or building), or not."""
        moves = self._moves(context)
        return [None, *moves] if moves else []

    def _do_second(self, action: SecondAction, seat: int, context: Context) -> None:
        if action is not None:
            self._then(*self._move(seat, *action))

    def _move(self, seat: int, pawn: str, building: str) -> list[Step]:
        """Move the pawn and carry out the action; return the steps left of it.

        A monk does its task or arouses suspicion; William or Adson meet the
        monks there (one decision per monk, in colour order); then the day's
        event tile acts on the move (the ``arrived`` step).
        """
        before = tuple(p for p in PAWNS if self.positions[p] == building)
        self._emit(
            {
                "type": "move",
                "player": self.game.players[seat],
                "pawn": pawn,
                "from": self.positions[pawn],
                "to": building,
            }
        )
        self.positions[pawn] = building
        steps: list[Step] = []
        if pawn in MEETING:
            points = MEETING[pawn][1] * (2 if self.event == "tricky" else 1)
            steps += [(pawn, seat, {"monk": m, "points": points}) for m in before if m in COLOURS]
        else:
            steps += self._work(seat, pawn, building)
        return [*steps, ("arrived", seat, {"pawn": pawn, "building": building, "before": before})]

    def _work(self, seat: int, monk: str, building: str) -> list[Step]:
        """A monk's task tile taken (a decision when two of its colour differ), else suspicion.

        No tile of its colour: suspicion up by the sum of the building's tiles.
        """
        own = self._own_tiles(monk, building)
        if len(own) > 1:
            return [("task", seat, {"monk": monk, "building": building})]
        if own:
            self._take(seat, building, own[0])
        else:
            self._mark(monk, "suspicion", sum(v for _, v in self.tasks[building]), "move", seat)
        return []

    def _own_tiles(self, monk: str, building: str) -> list[Tile]:
        """The different task tiles of the monk's colour in the building."""
        return sorted({t for t in self.tasks[building] if t[0] == monk})

    def _choices_task(self, seat: int, context: Context) -> list[TaskAction]:
        return self._own_tiles(context["monk"], context["building"])

    def _do_task(self, action: TaskAction, seat: int, context: Context) -> None:
        self._take(seat, context["building"], action)

    def _take(self, seat: int, building: str, tile: Tile) -> None:
        """Take the task tile: suspicion down by its value; it becomes a time tile.

        A building left without tiles gets the first two of the row, face up,
        or what there is of them; a building left empty stays empty.
        """
        monk, value = tile
        self.tasks[building].remove(tile)
        self._emit(
            {
                "type": "task",
                "player": self.game.players[seat],
                "building": building,
                "tile": list(tile),
            }
        )
        self._mark(monk, "suspicion", -value, "move", seat)
        self.time_tiles[seat].append(tile)
        if not self.tasks[building]:
            self.tasks[building], self.row = self.row[:2], self.row[2:]
            self._emit(
                {
                    "type": "refill",
                    "building": building,
                    "tiles": [list(t) for t in self.tasks[building]],
                }
            )

    def _choices_william(self, seat: int, context: Context) -> list[MeetingAction]:
        return [1, -1]

    _choices_adson = _choices_william

    def _meet(self, pawn: str, action: MeetingAction, seat: int, context: Context) -> None:
        """William's clue or Adson's suspicion points for a monk met, the way the player chose."""
        track = MEETING[pawn][0]
        self._mark(context["monk"], track, action * context["points"], pawn, seat)

    def _do_william(self, action: MeetingAction, seat: int, context: Context) -> None:
        self._meet("william", action, seat, context)

    def _do_adson(self, action: MeetingAction, seat: int, context: Context) -> None:
        self._meet("adson", action, seat, context)

    def _step_turn_end(self, seat: int, context: Context) -> None:
        """The day's event tile at the end of the turn ("Awkward", "Suspicious").

        "Awkward" with a card of time value 0 (Adson) has nothing to give.
        """
        if self.event == "awkward" and context["time"]:
            self._then(("awkward", seat, {"points": context["time"]}))
        elif self.event == "suspicious":
            self._suspicious()

    def _step_next(self, seat: int) -> None:
        """The next seat clockwise plays, unless the time marker reached the blue space."""
        if self.time >= SUNDIAL:
            self._end_day(seat)
        else:
            self._then(("play", (seat + 1) % len(self.game.players), {}))

    def _end_day(self, seat: int) -> None:
        """Conversion, the event tile to the player who ended the day, revelation, next day.

        That player starts the next day (so plays twice in a row).
        """
        tile = self.event
        assert tile is not None
        self._convert()
        self.events_held[seat].append(tile)
        self._emit(
            {"type": "end_day", "day": self.day, "player": self.game.players[seat], "event": tile}
        )
        self.starter = seat
        steps: list[Step] = []
        if self.day in REVELATION_DAYS:
            steps = [("reveal", s, {}) for s in range(len(self.game.players))]
            steps.append(("revealed",))
        self._then(*steps, ("day",))

    def _all_tied(self) -> bool:
        """Whether all six suspicion markers share one space."""
        return len(set(self.suspicion.values())) == 1

    def _convert(self) -> None:
        """Suspicion to clue points, 5-4-3-2-1-0 by place (ties share a place, none skipped).

        Doubled on the "Caught" day; then every suspicion marker goes back to 10.
        All six on one space share first place: 5 each, as the table reads.
        """
        values = sorted(set(self.suspicion.values()), reverse=True)
        factor = 2 if self.event == "caught" else 1
        for colour in COLOURS:
            place = values.index(self.suspicion[colour])
            self._mark(colour, "clue", CONVERSION[place] * factor, "conversion")
        self.suspicion = dict.fromkeys(COLOURS, SUSPICION_START)

    # ------------------------------------------------------- the event tiles

    def _step_arrived(self, seat: int, context: Context) -> None:
        """The day's event tile acts on a move (see ``ARRIVALS``).

        It acts after the move's action ("Studious": after each move), and
        ``before`` (the pawns there before the move) says which monks were met
        and whether the building was empty.
        """
        act = self.ARRIVALS.get(self.event or "")
        if act is not None:
            act(self, seat, context["pawn"], context["building"], context["before"])

    def _arrival_communicative(
        self, seat: int, pawn: str, building: str, before: tuple[str, ...]
    ) -> None:
        """William and Adson meet: a conversion, unless all six suspicion markers are tied."""
        other = {"william": "adson", "adson": "william"}.get(pawn)
        if other in before and not self._all_tied():
            self._convert()

    def _arrival_heels(self, seat: int, pawn: str, building: str, before: tuple[str, ...]) -> None:
        """William moved: after his clue points, +2 clue to one monk or +1 to each of two.

        Any monks (see ``BONUS_CHOICES``), wherever they are.
        """
        if pawn == "william":
            self._then(("bonus", seat, {"event": "heels"}))

    def _arrival_mysterious(
        self, seat: int, pawn: str, building: str, before: tuple[str, ...]
    ) -> None:
        """A monk moved to William's building: +2 clue to one monk or +1 to each of two."""
        if pawn in COLOURS and "william" in before:
            self._then(("bonus", seat, {"event": "mysterious"}))

    def _arrival_ostentation(
        self, seat: int, pawn: str, building: str, before: tuple[str, ...]
    ) -> None:
        """With "Without Ostentation": a monk moved to a building with no pawn gets -1 clue."""
        if pawn in COLOURS and not before:
            self._mark(pawn, "clue", -1, "ostentation")

    def _arrival_incredulous(
        self, seat: int, pawn: str, building: str, before: tuple[str, ...]
    ) -> None:
        """A monk moved to the church: every other player gives back their oldest time tile."""
        if pawn not in COLOURS or building != CHURCH:
            return
        for other, tiles in enumerate(self.time_tiles):
            if other != seat and tiles:
                self.row.append(tiles.pop(0))
                self._emit(
                    {
                        "type": "give_back",
                        "player": self.game.players[other],
                        "tile": list(self.row[-1]),
                    }
                )

    def _arrival_dubious(
        self, seat: int, pawn: str, building: str, before: tuple[str, ...]
    ) -> None:
        """The moved monk gets +1 clue."""
        if pawn in COLOURS:
            self._mark(pawn, "clue", 1, "dubious")

    def _arrival_forbidden(
        self, seat: int, pawn: str, building: str, before: tuple[str, ...]
    ) -> None:
        """A monk moved to the library gets +2 clue."""
        if pawn in COLOURS and building == LIBRARY:
            self._mark(pawn, "clue", 2, "forbidden")

    def _arrival_inquiring(
        self, seat: int, pawn: str, building: str, before: tuple[str, ...]
    ) -> None:
        """A monk moved to monks: each monk met (not the one moved) gets +1 clue."""
        if pawn in COLOURS:
            for monk in before:
                if monk in COLOURS:
                    self._mark(monk, "clue", 1, "inquiring")

    def _choices_bonus(self, seat: int, context: Context) -> list[BonusAction]:
        """One monk (+2) or two different monks (+1 each): :data:`BONUS_CHOICES`."""
        return list(BONUS_CHOICES)

    def _do_bonus(self, action: BonusAction, seat: int, context: Context) -> None:
        for monk in action:
            self._mark(monk, "clue", BONUS_POINTS // len(action), "bonus", seat)

    def _choices_awkward(self, seat: int, context: Context) -> list[ColourAction]:
        return list(COLOURS)

    def _do_awkward(self, action: ColourAction, seat: int, context: Context) -> None:
        self._mark(action, "suspicion", context["points"], "bonus", seat)

    def _suspicious(self) -> None:
        """With "Suspicious": +1 clue to every monk with the most suspicion, unless all are tied."""
        top = max(self.suspicion.values())
        if not self._all_tied():
            for colour in COLOURS:
                if self.suspicion[colour] == top:
                    self._mark(colour, "clue", 1, "suspicious")

    # ------------------------------------------------ revelations, guesses

    def _choices_reveal(self, seat: int, context: Context) -> list[ColourAction]:
        """A still-hidden marker not of one's own colour, chosen face down.

        Players choose in seat order; nobody sees a choice before all turn over.
        """
        own = self.identities[seat]
        return [c for c in COLOURS if c != own and c not in self.revealed[seat]]

    def _do_reveal(self, action: ColourAction, seat: int, context: Context) -> None:
        self._chosen[seat] = action

    def _step_revealed(self) -> None:
        """All chosen markers turn over together: +2 clue for each.

        A colour revealed by two players gets +2 twice.
        """
        chosen, self._chosen = self._chosen, {}
        for seat, colour in sorted(chosen.items()):
            self.revealed[seat].append(colour)
            self._emit({"type": "reveal", "player": self.game.players[seat], "colour": colour})
            self._mark(colour, "clue", REVEAL_POINTS, "revelation")

    def _others(self, seat: int) -> tuple[str, ...]:
        return tuple(p for s, p in enumerate(self.game.players) if s != seat)

    def _choices_guess(self, seat: int, context: Context) -> list[GuessAction]:
        """One marker for each other player: a player has one of each colour, so all differ.

        A guess may be the guesser's own colour; guesses stay hidden until all are made.
        """
        return list(permutations(COLOURS, len(self.game.players) - 1))

    def _do_guess(self, action: GuessAction, seat: int, context: Context) -> None:
        self.guesses[seat] = action

    def _step_score(self) -> None:
        """Guesses turn over; correct ones and event tiles cost clue points; the game ends."""
        players = self.game.players
        points = GUESS_POINTS[len(players)]
        for seat, guess in sorted(self.guesses.items()):
            for other, colour in zip(self._others(seat), guess):
                self._emit(
                    {"type": "guess", "player": players[seat], "of": other, "colour": colour}
                )
                if colour == self.identities[players.index(other)]:
                    self._mark(colour, "clue", points, "guess")
        for seat, colour in enumerate(self.identities):
            self._mark(colour, "clue", TILE_POINTS * len(self.events_held[seat]), "tiles")
        self._emit(
            {
                "type": "end",
                "identities": dict(zip(players, self.identities)),
                "scores": dict(zip(players, self.scores)),
                "winners": [players[s] for s in self.winners()],
            }
        )
        self.over = True

    #: The event tiles that act on a move, by tile id (the others act elsewhere or not at all).
    ARRIVALS: ClassVar[Mapping[str, Handler]] = {
        "communicative": _arrival_communicative,
        "heels": _arrival_heels,
        "mysterious": _arrival_mysterious,
        "ostentation": _arrival_ostentation,
        "incredulous": _arrival_incredulous,
        "dubious": _arrival_dubious,
        "forbidden": _arrival_forbidden,
        "inquiring": _arrival_inquiring,
    }

    STEPS = Steps(
        auto={
            "hide": _step_hide,
            "place": _step_place,
            "lay": _step_lay,
            "identity": _step_identity,
            "draw": _step_draw,
            "dealt": _step_dealt,
            "day": _step_day,
            "turn_end": _step_turn_end,
            "next": _step_next,
            "arrived": _step_arrived,
            "revealed": _step_revealed,
            "score": _step_score,
        },
        decisions={
            "play": Decision(_choices_play, _do_play),
            "move": Decision(_choices_move, _do_move),
            "second": Decision(_choices_second, _do_second),
            "task": Decision(_choices_task, _do_task),
            "william": Decision(_choices_william, _do_william),
            "adson": Decision(_choices_adson, _do_adson),
            "bonus": Decision(_choices_bonus, _do_bonus),
            "awkward": Decision(_choices_awkward, _do_awkward),
            "reveal": Decision(_choices_reveal, _do_reveal),
            "guess": Decision(_choices_guess, _do_guess),
        },
        chances={
            "hide": _chance_hide,
            "place": _chance_place,
            "lay": _chance_lay,
            "identity": _chance_identity,
            "draw": _chance_draw,
            "first": _chance_first,
        },
    )
