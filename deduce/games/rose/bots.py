"""Name of the Rose bots: players that decide from their own observation, never from the state.

- ``monk``: plays for its own monk while hiding it. Every choice is worth
  the clue points it is expected to save its monk (:func:`gain`): a point of
  suspicion counts :data:`SUSPICION_WEIGHT` of a clue point (the day's
  conversion turns about four points of suspicion into one place, one clue
  point), and points given to any other monk count :data:`OTHERS` as much, the
  other way (a rival's clue points help as much as one's own saved, shared
  among five). It plays the card whose best move is worth most, spends a time
  tile only to save :data:`TILE_COST`, and avoids ending the day, which
  brings an event tile (+2 clue at the end: :data:`END_DAY_COST`). Its
  bluff: at the start it picks a *decoy*, a colour it is not, uniformly, and
  then every decision is made, with chance :data:`Monk.BLUFF` (two in five), as
  if the decoy were its monk. It reveals a marker uniformly among those it may
  (the prior the solver assumes) and guesses on the seventh day from the
  hard facts only (the best joint guess of :func:`solve_rose` with ``hard``).
- ``solver``: the ``monk`` player whose seventh-day guesses weigh the
  behaviour of the others too (the solver with its behaviour model).
- ``bluffer``: the ``monk`` player that decides half its choices for its
  decoy (:data:`Bluffer.BLUFF`), so that it promotes another colour as often
  as its own. No model is fitted to it: it is there to test the soft
  evidence against a style it was not fitted to.
- ``random``: any legal action, uniformly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import NamedTuple, TypeVar

from deduce.games.rose.engine import (
    BONUS_POINTS,
    MEETING,
    SUNDIAL,
    Action,
    BonusAction,
    ColourAction,
    GuessAction,
    MeetingAction,
    MoveAction,
    Observation,
    PlayAction,
    RoseGame,
    SecondAction,
    TaskAction,
    card_moves,
    card_time,
    move_context,
)
from deduce.games.rose.solve import solve_rose
from deduce.logs.formats.rose import COLOURS
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import GameLog

Bot = Callable[[Observation, Sequence[Action], Random], Action]
#: How a bot values one action of a decision, playing as the colour given:
#: ``(obs, action, colour)``, the action of that decision's type (``PlayAction``...).
Value = Callable[..., float]
#: One decision's action.
A = TypeVar("A", bound=Action)

#: Clue points worth one suspicion point.
SUSPICION_WEIGHT = 0.25
#: Worth of a point given to another monk, against a point saved for one's own.
OTHERS = 0.2
#: Worth of a time tile kept for later.
TILE_COST = 0.5
#: Cost of ending the day: the event tile's two clue points at the end.
END_DAY_COST = 2.0
#: William's and Adson's two ways with a monk met: its marker up, or down.
WAYS: tuple[MeetingAction, ...] = (1, -1)


def random_bot(game: RoseGame, seat: int) -> Bot:
    """A bot choosing uniformly among the legal actions."""
    del game, seat

    def act(obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        return rng.choice(list(legal))

    return act


class Point(NamedTuple):
    """Points one choice gives a monk: the track, how many (before the track's ends) and why.

    ``cause`` is that of the ``points`` event the choice writes to the log
    (``william``, ``adson``, ``move``, ``bonus``: see :mod:`deduce.logs.formats.rose`).
    """

    monk: str
    track: str
    n: int
    cause: str


#: How a bot values the points of one choice, playing as the colour given: ``(point, colour)``.
Worth = Callable[[Point, str], float]


def gain(monk: str, track: str, n: int, mine: str) -> float:
    """Worth, in clue points saved for ``mine``, of ``n`` points to ``monk`` on ``track``."""
    points = n * (1.0 if track == "clue" else SUSPICION_WEIGHT)
    return -points if monk == mine else OTHERS * points


def point_gain(point: Point, mine: str) -> float:
    """:func:`gain` of one choice's points."""
    return gain(point.monk, point.track, point.n, mine)


def meeting_point(pawn: str, monk: str, way: MeetingAction, points: int) -> Point:
    """William's clue or Adson's suspicion ``points`` to a monk met, up (1) or down (-1)."""
    return Point(monk, MEETING[pawn][0], way * points, pawn)


def task_point(tile: TaskAction) -> Point:
    """A monk on its task tile: its suspicion down by the tile's value."""
    colour, value = tile
    return Point(colour, "suspicion", -value, "move")


def bonus_points(action: BonusAction) -> tuple[Point, ...]:
    """An event tile's clue points: +2 to one monk, or +1 to each of two."""
    return tuple(Point(monk, "clue", BONUS_POINTS // len(action), "bonus") for monk in action)


def awkward_point(colour: ColourAction, points: int) -> Point:
    """With "Awkward": the card's time value in suspicion to the monk chosen."""
    return Point(colour, "suspicion", points, "bonus")


def move_points(obs: Observation, move: MoveAction) -> list[tuple[Point, ...]]:
    """The choices a move brings, before the day's event tile: for each, the points of each way.

    A monk takes its best task tile (its suspicion down by the tile's value)
    or collects the building's suspicion: one way. William or Adson meet each
    monk there, in colour order, and give it their points up or down: two ways.
    """
    pawn, building = move
    if pawn in MEETING:
        points = MEETING[pawn][1] * (2 if obs.event == "tricky" else 1)
        met = [m for m in COLOURS if obs.positions[m] == building]
        return [tuple(meeting_point(pawn, m, way, points) for way in WAYS) for m in met]
    tiles = obs.tasks[building]
    own = [value for colour, value in tiles if colour == pawn]
    if own:
        return [(task_point((pawn, max(own))),)]
    return [(Point(pawn, "suspicion", sum(value for _, value in tiles), "move"),)]


def move_value(obs: Observation, move: MoveAction, mine: str, worth: Worth = point_gain) -> float:
    """Worth of moving a pawn to a building now: each of its choices made the best way.

    ``worth`` values the points of one way (by default what they save ``mine``).
    """
    return sum(max(worth(point, mine) for point in ways) for ways in move_points(obs, move))


def best_action(legal: Sequence[A], value: Callable[[A], float], rng: Random) -> A:
    """A legal action of the highest value, ties broken at random."""
    values = [value(action) for action in legal]
    top = max(values)
    return rng.choice([a for a, v in zip(legal, values) if v >= top - 1e-9])


class Monk:
    """The player who plays for its own monk while hiding it (see the module docstring)."""

    #: Chance that a decision is made for the decoy's monk instead of one's own.
    BLUFF = 0.4
    #: Whether the seventh day's guesses weigh the behaviour events (the solver bot).
    SOFT = False

    def __init__(self, game: RoseGame, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.decoy: str | None = None

    def __call__(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        """Decide ``obs.decision`` among ``legal``."""
        if self.decoy is None:
            self.decoy = rng.choice([c for c in COLOURS if c != obs.identity])
        if obs.decision == "reveal":
            return rng.choice(list(legal))
        if obs.decision == "guess":
            return self._guess(obs)
        mine = self.decoy if rng.random() < self.BLUFF else obs.identity
        value = self._values()[obs.decision]
        return best_action(legal, lambda action: value(obs, action, mine), rng)

    def _worth(self, obs: Observation, point: Point, mine: str) -> float:
        """What the points of one choice are worth, playing as ``mine``: what they save it."""
        return point_gain(point, mine)

    def _move(self, obs: Observation, move: MoveAction, mine: str) -> float:
        return move_value(obs, move, mine, lambda point, colour: self._worth(obs, point, colour))

    def _value_play(self, obs: Observation, action: PlayAction, mine: str) -> float:
        card_id, pawn, tiles = action
        card = self.game.data.card(card_id)
        moves = card_moves(move_context(card, pawn), obs.positions, self.game.data.buildings)
        best = max((self._move(obs, move, mine) for move in moves), default=0.0)
        ends_day = obs.time + card_time(card, pawn) - tiles >= SUNDIAL
        return best - TILE_COST * tiles - (END_DAY_COST if ends_day else 0.0)

    def _value_move(self, obs: Observation, action: MoveAction, mine: str) -> float:
        return self._move(obs, action, mine)

    def _value_second(self, obs: Observation, action: SecondAction, mine: str) -> float:
        return 0.0 if action is None else self._move(obs, action, mine)

    def _value_task(self, obs: Observation, action: TaskAction, mine: str) -> float:
        return self._worth(obs, task_point(action), mine)

    def _meeting(self, obs: Observation, pawn: str, action: MeetingAction, mine: str) -> float:
        """William's or Adson's points to the monk met, up or down."""
        point = meeting_point(pawn, obs.context["monk"], action, obs.context["points"])
        return self._worth(obs, point, mine)

    def _value_william(self, obs: Observation, action: MeetingAction, mine: str) -> float:
        return self._meeting(obs, "william", action, mine)

    def _value_adson(self, obs: Observation, action: MeetingAction, mine: str) -> float:
        return self._meeting(obs, "adson", action, mine)

    def _value_bonus(self, obs: Observation, action: BonusAction, mine: str) -> float:
        return sum(self._worth(obs, point, mine) for point in bonus_points(action))

    def _value_awkward(self, obs: Observation, action: ColourAction, mine: str) -> float:
        return self._worth(obs, awkward_point(action, obs.context["points"]), mine)

    def _values(self) -> dict[str, Value]:
        """How this bot values an action of each decision (reveal and guess are apart)."""
        return {
            "play": self._value_play,
            "move": self._value_move,
            "second": self._value_second,
            "task": self._value_task,
            "william": self._value_william,
            "adson": self._value_adson,
            "bonus": self._value_bonus,
            "awkward": self._value_awkward,
        }

    def read(self, obs: Observation) -> GameLog:
        """The observation's log, as the log reader reads it."""
        return parse_jsonl(self.game.log_text(obs.player, obs.log), f"{obs.player}.jsonl")

    def _guess(self, obs: Observation) -> GuessAction:
        """One colour per other player, all different: the solver's best joint guess."""
        guesses = solve_rose(self.read(obs), hard=not self.SOFT).best_guesses()
        return tuple(guesses[p] for p in obs.context["of"])


class SolverBot(Monk):
    """The ``monk`` player whose seventh-day guesses weigh the others' behaviour too."""

    SOFT = True


class Bluffer(Monk):
    """The ``monk`` player that plays for its decoy as often as for its own monk."""

    BLUFF = 0.5
