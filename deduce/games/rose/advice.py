"""Advice on every Rose decision: the clue points an option saves your monk, less what it shows.

The lowest clue score wins. Each option of a decision is worth, in clue
points, ``value = saved - shown`` (the higher the better):

- ``saved``: what the points the option gives save your monk, as the
  ``monk`` bot counts them (:func:`deduce.games.rose.bots.gain`: a clue
  point to your monk costs 1, a suspicion point a quarter, and points to
  any other monk count a fifth as much, the other way). A revealed marker
  gives its colour 2 clue points.
- ``shown``: what the option's public trace costs you on the seventh day.
  A choice that moves a monk's marker writes a ``points`` event to every
  player's log, a revealed marker a ``reveal`` event; cards, pawn moves
  that touch no monk and time tiles write nothing, and show nothing. With
  the trace in the log, the opponents read your colour anew: ``shown`` is
  the exposure with it (:mod:`deduce.games.rose.exposure`: the clue points
  the opponents' day-7 guesses are expected to cost you, were they placed
  now) less the exposure without it. The opponents read the log as the
  exposure's *guesser* does: ``markers`` (the default, as the ``monk`` bots
  guess) reads the revealed markers only, so a ``points`` event shows
  nothing to it and only the reveals are weighed; ``play`` also reads every
  ``points`` event with the styles model (as the ``solver`` bots guess), so
  a choice that helps your monk can show it, and one that helps another
  monk can hide it.

Every decision of the engine (:class:`~deduce.games.rose.engine.Observation`)
comes down to these values: a card's play is worth its best move (each
choice the move brings made its best way:
:func:`~deduce.games.rose.bots.move_points`), less the time tiles it spends
and the end of the day it brings, as the ``monk`` bot weighs them (they
leave no trace); William's and Adson's points, the task tile, a bonus and
"Awkward"'s suspicion are worth their points (:meth:`Advisor.worth`); a
marker to reveal is :meth:`Advisor.reveal`. The day-7 guesses are the
solver's (:meth:`~deduce.games.rose.solve.RoseSolution.best_guesses`).

The reading is short-sighted: the guesses as if placed now, each choice's
points weighed on their own, and a revealed marker as if the others
revealed none in the same round (all the round's markers turn over
together). An advisor belongs to one log prefix; it works out the exposure
only when a trace the guesser reads asks for it, once per distinct trace.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from deduce.games.rose.bots import Point, gain, point_gain
from deduce.games.rose.engine import REVEAL_POINTS
from deduce.games.rose.exposure import Exposure, reads
from deduce.games.words import next_line
from deduce.logs.model import Event, GameLog

#: A public event of the log, as its type and keys (``points``, ``reveal``).
TraceEvent = tuple[str, tuple[tuple[str, Any], ...]]
#: The public events an option writes to the log.
Trace = tuple[TraceEvent, ...]


@dataclass(frozen=True)
class Option:
    """One option of a decision: ``action`` in words, what it ``saved``, what it ``shown``."""

    action: str
    saved: float
    shown: float

    @property
    def value(self) -> float:
        """Clue points saved, less the clue points the day-7 guesses then cost you."""
        return self.saved - self.shown

    def to_json(self) -> dict[str, Any]:
        """The option's keys in ``suggest --json``."""
        return {
            "action": self.action,
            "saved": self.saved,
            "shown": self.shown,
            "value": self.value,
        }


def ranked(options: Sequence[Option]) -> list[Option]:
    """The options, the most valuable first (ties keep their order)."""
    return sorted(options, key=lambda option: -option.value)


def describe(points: Sequence[Point]) -> str:
    """A choice's points in words: ``red -3 suspicion``, ``red +1, blue +1 clue``."""
    monks = ", ".join(f"{point.monk} {point.n:+d}" for point in points)
    return f"{monks} {points[0].track}"


def points_trace(point: Point) -> Trace:
    """The ``points`` event a choice writes: none when it moves no marker (``n`` is 0)."""
    if point.n == 0:
        return ()
    return (("points", tuple(point._asdict().items())),)


def reveal_trace(colour: str) -> Trace:
    """The ``reveal`` event of a marker turned over."""
    return (("reveal", (("colour", colour),)),)


def _as_read(event: TraceEvent) -> TraceEvent:
    """The event as the solver reads it: a ``points`` event's ``n`` by its sign only.

    The behaviour models read a choice's monk, cause and sign (its *kind*:
    :func:`deduce.games.rose.behaviour.kind_of`), so choices alike in these
    show the same, and share one exposure.
    """
    kind, keys = event
    if kind != "points":
        return event
    return kind, tuple((k, (v > 0) - (v < 0) if k == "n" else v) for k, v in keys)


class Advisor:
    """The values of the options open to a log's observer (see the module docstring).

    ``me`` and ``mine``: the observer and their colour; ``guesser``: how the
    opponents read the log; ``exposure``: gives the observer's exposure in
    the log, read that way (:func:`deduce.games.rose.exposure.exposure_of`),
    called the first time a trace the guesser reads is weighed.
    """

    def __init__(self, me: str, mine: str, guesser: str, exposure: Callable[[], Exposure]) -> None:
        self.me = me
        self.mine = mine
        self.guesser = guesser
        self._exposure = exposure
        self._shown: dict[Trace, float] = {}

    @classmethod
    def of(cls, exposure: Exposure) -> Advisor:
        """The advisor of an exposure's log and guesser."""
        return cls(str(exposure.log.header.me), exposure.colour, exposure.guesser, lambda: exposure)

    @cached_property
    def exposure(self) -> Exposure:
        """The observer's exposure in the log as it is."""
        return self._exposure()

    def shown(self, trace: Trace) -> float:
        """How many more clue points the day-7 guesses cost the observer once ``trace`` is logged.

        0 for a trace the guesser does not read.
        """
        read = tuple(_as_read(event) for event in trace if reads(self.guesser, event[0]))
        if not read:
            return 0.0
        if read not in self._shown:
            after = replace(self.exposure, log=self._logged(read)).expected
            self._shown[read] = float(after - self.exposure.expected)
        return self._shown[read]

    def _logged(self, trace: Trace) -> GameLog:
        """The log with the observer's ``trace`` after its last line."""
        log = self.exposure.log
        line = next_line(log)
        added = tuple(
            Event(kind, {"player": self.me, **dict(keys)}, line + i)
            for i, (kind, keys) in enumerate(trace)
        )
        return replace(log, events=(*log.events, *added))

    def worth(self, point: Point) -> float:
        """One choice's points: what they save the observer's monk, less what they show."""
        return point_gain(point, self.mine) - self.shown(points_trace(point))

    def choice(self, points: Sequence[Point]) -> Option:
        """The option of a choice that gives these points (to one monk, or two), in words."""
        saved = sum((point_gain(point, self.mine) for point in points), 0.0)
        trace = tuple(event for point in points for event in points_trace(point))
        return Option(describe(points), saved, self.shown(trace))

    def reveal(self, colour: str) -> Option:
        """Revealing the ``colour`` marker: +2 clue to that monk, and what it shows."""
        saved = gain(colour, "clue", REVEAL_POINTS, self.mine)
        return Option(colour, saved, self.shown(reveal_trace(colour)))
