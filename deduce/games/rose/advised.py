"""The ``advised`` Rose bot: every decision taken from :mod:`deduce.games.rose.advice`.

It is the ``solver`` bot (the ``monk`` bot's valuation of cards, moves,
time tiles and the end of the day; the solver's day-7 guesses, which weigh
behaviour), with two changes:

- every choice's points are worth what they save its monk less what they
  show of it (:meth:`~deduce.games.rose.advice.Advisor.worth`), and it never
  bluffs: what a choice shows, not a decoy, is what keeps its colour hidden;
- it reveals the marker of the highest value
  (:meth:`~deduce.games.rose.advice.Advisor.reveal`), not one at random.

It reads the opponents as :attr:`Advised.GUESSER` says: ``markers`` (the
exposure's default, as the ``monk`` bots guess); ``advised-play`` takes
them to read behaviour too (``play``, as the ``solver`` bots guess). It sees
its observation only (its log and its colour); the values are
deterministic and ties go to its own random stream, so a seed gives the
same game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from random import Random

from deduce.games.rose.advice import Advisor
from deduce.games.rose.bots import Point, SolverBot, best_action
from deduce.games.rose.engine import Action, ColourAction, Observation, RoseGame
from deduce.games.rose.exposure import DEFAULT_GUESSER, Exposure, exposure_of
from deduce.games.rose.solve import solve_rose


def likely(row: Mapping[str, Fraction], floor: Fraction) -> dict[str, Fraction]:
    """The colours of at least ``floor`` chance (the likeliest, if none), chances rescaled."""
    kept = {c: p for c, p in row.items() if p >= floor} or {
        max(row, key=row.__getitem__): Fraction(1)
    }
    total = sum(kept.values(), Fraction(0))
    return {c: p / total for c, p in kept.items()}


class Advised(SolverBot):
    """The solver bot with every choice weighed against what it shows (see the module docstring)."""

    BLUFF = 0.0
    #: How the opponents read the log (a guesser of :mod:`deduce.games.rose.exposure`).
    GUESSER = DEFAULT_GUESSER
    #: An opponent's colours less likely than this are left out of its exposure.
    FLOOR = Fraction(1, 100)

    def __init__(self, game: RoseGame, seat: int) -> None:
        super().__init__(game, seat)
        self._advice: tuple[int, Advisor] | None = None

    def __call__(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        """Decide ``obs.decision`` among ``legal``: a reveal by the advisor, the rest by value."""
        if obs.decision != "reveal":
            return super().__call__(obs, legal, rng)
        advisor = self.advisor(obs)
        colours: list[ColourAction] = [str(colour) for colour in legal]
        return best_action(colours, lambda colour: advisor.reveal(colour).value, rng)

    def advisor(self, obs: Observation) -> Advisor:
        """The advisor of the observation's log (one per log prefix)."""
        if self._advice is None or self._advice[0] != len(obs.log):
            advisor = Advisor(obs.player, obs.identity, self.GUESSER, lambda: self._exposure(obs))
            self._advice = (len(obs.log), advisor)
        return self._advice[1]

    def _exposure(self, obs: Observation) -> Exposure:
        """Its exposure, each opponent's unlikely colours left out (:func:`likely`)."""
        log = self.read(obs)
        found = exposure_of(log, solve_rose(log), self.GUESSER)
        assert found is not None, "a bot's log has its colour and a history"
        posterior = {p: likely(row, self.FLOOR) for p, row in found.posterior.items()}
        return replace(found, posterior=posterior)

    def _worth(self, obs: Observation, point: Point, mine: str) -> float:
        """What the points save its monk (``mine``: it never bluffs), less what they show."""
        return self.advisor(obs).worth(point)


class AdvisedPlay(Advised):
    """The ``advised`` bot that takes the opponents to read behaviour too."""

    GUESSER = "play"
