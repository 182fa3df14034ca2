"""How exposed the observer's colour is: the chance that each opponent's day-7 guess names it.

On the seventh day every player places one colour marker before each other
player, and each right guess costs the guessed player clue points
(:data:`~deduce.games.rose.engine.GUESS_POINTS`: 12, 6, 4 or 3 at 2 to 5
players). The observer knows their own colour (their ``identity`` event);
an opponent ``Q`` does not, and guesses it from what ``Q`` knows:

- ``Q``'s view: the public events (:data:`~deduce.games.rose.observe.PUBLIC`:
  every ``reveal``, ``points`` and ``guess`` line, the observer's revealed
  markers among them) and ``Q``'s own colour. The ``identity`` lines of the
  observer's log (their own, and any other they wrote) are the observer's alone.
- ``Q``'s guess: the best joint guess of :meth:`RoseSolution.tied_guesses`
  solved from that view, by a *guesser*: ``markers`` reads the hard events
  only (as the ``monk`` bot guesses), ``play`` reads behaviour too, with the
  solve's model (as the ``solver`` bot does). When several guesses tie, each
  is taken as equally likely: the chance is the share of the tied guesses
  that name the observer's colour.

``Q``'s colour is hidden from the observer, so the chance is averaged over
the observer's posterior of it (the solve's probabilities): ``Q``'s view
depends only on ``Q``'s colour and the public events, so each possible
colour of ``Q`` is one solve of that view. The result is exact (fractions)
whenever the solves are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from deduce.errors import DeduceError
from deduce.games.rose.behaviour import BehaviourModel
from deduce.games.rose.csp import HARD_EVENTS
from deduce.games.rose.engine import GUESS_POINTS
from deduce.games.rose.observe import PUBLIC
from deduce.games.rose.solve import RoseSolution, solve_rose
from deduce.games.rose.styles import StyleModel
from deduce.logs.model import Event, GameLog

#: The guessers: hard events only, or behaviour too.
GUESSERS: tuple[str, ...] = ("markers", "play")
#: The guesser ``solve`` assumes: it fits the default bots (see ``docs/rose.md``).
DEFAULT_GUESSER = "markers"


@dataclass(frozen=True)
class Exposure:
    """The observer's exposure in ``log``, worked out when first asked for.

    ``colour``: the observer's; ``posterior``: opponent -> their possible
    colours and probabilities, as the observer's solve found them, in seat
    order; ``points``: the clue points each right guess costs at this number
    of players; ``guesser`` and ``model``: how the opponents read the log
    (see the module docstring). A solve carries it unworked, so that the
    commands that show no exposure (``analyze``, which solves every prefix
    of a log) do not pay for it.
    """

    log: GameLog
    colour: str
    posterior: Mapping[str, Mapping[str, Fraction]]
    points: int
    guesser: str = DEFAULT_GUESSER
    model: BehaviourModel | StyleModel | None = None

    @cached_property
    def chances(self) -> dict[str, Fraction]:
        """Opponent -> the chance that their guess names the observer's colour."""
        return {
            p: chance(self.log, p, row, self.colour, self.guesser, self.model)
            for p, row in self.posterior.items()
        }

    def cost(self, player: str) -> Fraction:
        """The clue points ``player``'s guess costs the observer, in expectation."""
        return self.chances[player] * self.points

    @property
    def expected(self) -> Fraction:
        """The clue points every opponent's guess costs the observer, in expectation."""
        return sum(self.chances.values(), Fraction(0)) * self.points

    def to_json(self) -> dict[str, Any]:
        """The ``solve --json`` keys: ``exposure`` per opponent, and ``exposure_points``."""
        return {
            "exposure": {p: float(q) for p, q in self.chances.items()},
            "exposure_points": float(self.expected),
        }


def own_colour(log: GameLog) -> str | None:
    """The observer's colour, from their ``identity`` line (None: no observer, or no such line)."""
    me = log.header.me
    return next(
        (e.get("colour") for e in log.events if e.type == "identity" and e.get("player") == me),
        None,
    )


def view(log: GameLog, player: str, colour: str) -> GameLog:
    """The log ``player`` would keep as ``colour``: their identity, then the public events."""
    own = Event("identity", {"player": player, "colour": colour}, log.header.line + 1)
    public = tuple(e for e in log.events if e.type in PUBLIC)
    return replace(log, header=replace(log.header, me=player), events=(own, *public))


def reads(guesser: str, kind: str) -> bool:
    """Whether ``guesser`` reads events of this type: ``markers`` the hard ones, ``play`` all.

    An event the guesser does not read leaves their solve of a view as it was.
    """
    return kind in (HARD_EVENTS if guesser == "markers" else PUBLIC)


def solve_view(
    log: GameLog, guesser: str, model: BehaviourModel | StyleModel | None = None
) -> RoseSolution:
    """What ``log``'s observer makes of it as ``guesser`` (``play``: with ``model``)."""
    return solve_rose(log, hard=guesser == "markers", model=model)


def naming(solution: RoseSolution, player: str, colour: str) -> Fraction:
    """The share of ``solution``'s tied day-7 guesses that guess ``player`` as ``colour``."""
    tied = solution.tied_guesses()
    return Fraction(sum(guess[player] == colour for guess in tied), len(tied))


def chance(
    log: GameLog,
    player: str,
    colours: Mapping[str, Fraction],
    mine: str,
    guesser: str,
    model: BehaviourModel | StyleModel | None = None,
) -> Fraction:
    """The chance that ``player``'s guess of the observer names ``mine``, the observer's colour.

    ``colours``: ``player``'s possible colours and their probabilities.
    """
    me = str(log.header.me)
    return sum(
        (
            p * naming(solve_view(view(log, player, colour), guesser, model), me, mine)
            for colour, p in colours.items()
        ),
        Fraction(0),
    )


def exposure_of(
    log: GameLog,
    solution: RoseSolution,
    guesser: str = DEFAULT_GUESSER,
    model: BehaviourModel | StyleModel | None = None,
) -> Exposure | None:
    """The observer's exposure in ``log`` (solved as ``solution``), unworked; or None.

    None when the log has no observer, no ``identity`` line of theirs, or
    no consistent history.
    """
    if guesser not in GUESSERS:
        raise DeduceError(f"unknown guesser {guesser!r} (expected: {', '.join(GUESSERS)})")
    mine = own_colour(log)
    if mine is None or not solution.consistent:
        return None
    points = GUESS_POINTS[len(log.header.players)]
    return Exposure(log, mine, solution.probabilities, points, guesser, model)
