"""Solve a log of any game: one entry point, its tables, and the game's main question.

Every command that solves logs without caring which game they are from
(``solve``, ``batch``, ``analyze``, ``play``) goes through :func:`solve_log`
with one :class:`SolveOptions`, prints :func:`solution_tables`, and reads
the game's main question off :func:`outlook`:

- **abbey**: who is the culprit (answers: card ids);
- **rose**: which colour every other player is (answers: ``player=colour``
  for each reported player, in seat order, joined by spaces);
- **blackrose**: which two suspects are the accomplices (answers:
  ``first+second``, as in the JSON output).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from deduce.errors import DeduceError
from deduce.games.abbey import report as abbey_report
from deduce.games.abbey.solver.sat.cnf import Warm
from deduce.games.abbey.solver.solve import AbbeySolution, solve_abbey
from deduce.games.blackrose import claims as blackrose_claims
from deduce.games.blackrose import report as blackrose_report
from deduce.games.blackrose.claims import ClaimsModel
from deduce.games.blackrose.solve import BlackRoseSolution, solve_blackrose
from deduce.games.rose import behaviour as rose_behaviour
from deduce.games.rose import report as rose_report
from deduce.games.rose.behaviour import BehaviourModel
from deduce.games.rose.solve import RoseSolution, solve_rose
from deduce.logs.model import GameLog
from deduce.logs.vocabulary.abbey import Deck
from deduce.report import Table

Solution = AbbeySolution | RoseSolution | BlackRoseSolution

#: What each game's main question is about, as shown in reports.
QUESTIONS = {"abbey": "culprit", "rose": "colours", "blackrose": "accomplices"}


@dataclass(frozen=True)
class SolveOptions:
    """How to solve: each game reads its own options and ignores the others.

    ``deck``/``engine``/``budget``/``seed`` are the Abbey's (see
    :func:`~deduce.games.abbey.solver.solve.solve_abbey`); ``hard`` drops soft
    evidence (Rose behaviour, Black Rose claims); ``behaviour`` and ``claims``
    replace the bundled Rose and Black Rose models.
    """

    deck: Deck | None = None
    engine: str = "sat"
    hard: bool = False
    budget: float | None = None
    seed: int = 0
    behaviour: BehaviourModel | None = None
    claims: ClaimsModel | None = None

    def with_model_file(self, game: str, path: str | None) -> SolveOptions:
        """These options with ``game``'s model read from ``path`` (unchanged without a path)."""
        if path is None:
            return self
        if game == "rose":
            return replace(self, behaviour=rose_behaviour.load_model_file(path))
        if game == "blackrose":
            return replace(self, claims=blackrose_claims.load_model_file(path))
        raise DeduceError(f"{path}: {game} has no model file")


def solve_log(log: GameLog, options: SolveOptions | None = None,
              warm: Warm | None = None) -> Solution:
    """Solve a validated log of any game with ``options`` (default: exact, bundled models).

    ``warm``, kept by a caller that solves one log position after position
    (``analyze``, ``play``), lets the Abbey grow its SAT model instead of
    building it again; the other games solve from scratch.
    """
    options = options or SolveOptions()
    game = log.header.game
    if game == "abbey":
        return solve_abbey(log, options.deck, options.engine, budget=options.budget,
                           seed=options.seed, warm=warm)
    if game == "rose":
        return solve_rose(log, hard=options.hard, model=options.behaviour)
    if game == "blackrose":
        return solve_blackrose(log, hard=options.hard, model=options.claims)
    raise DeduceError(f"{log.path}: solving {game} logs is not supported")


def solution_tables(solution: Solution) -> list[Table]:
    """The tables ``deduce solve`` prints for ``solution``."""
    if isinstance(solution, AbbeySolution):
        return abbey_report.tables(solution)
    if isinstance(solution, RoseSolution):
        return rose_report.tables(solution)
    return blackrose_report.tables(solution)


def game_of(solution: Solution) -> str:
    """The game a solution belongs to."""
    if isinstance(solution, AbbeySolution):
        return "abbey"
    return "rose" if isinstance(solution, RoseSolution) else "blackrose"


@dataclass(frozen=True)
class Outlook:
    """The game's main question as one distribution over its possible answers.

    ``answers``: answer -> probability, most probable first, possible answers
    only (empty when the log is inconsistent). ``exact``: the probabilities
    are exact (the Abbey may estimate them under a time budget); the set of
    answers always is.
    """

    game: str
    consistent: bool
    exact: bool
    answers: dict[str, float] = field(default_factory=dict)

    @property
    def question(self) -> str:
        """What the answers are about: culprit, colours or accomplices."""
        return QUESTIONS[self.game]

    @property
    def candidates(self) -> int:
        """How many answers are still possible."""
        return len(self.answers)

    @property
    def best(self) -> str | None:
        """The most probable answer (None when inconsistent)."""
        return next(iter(self.answers), None)

    @property
    def certain(self) -> bool:
        """Whether exactly one answer is possible."""
        return len(self.answers) == 1

    def probability(self, answer: str) -> float:
        """The probability of ``answer`` (0 when impossible)."""
        return self.answers.get(answer, 0.0)

    @property
    def entropy(self) -> float:
        """The uncertainty left about the answer, in bits."""
        return math.fsum(-p * math.log2(p) for p in self.answers.values() if p > 0)


def outlook(solution: Solution) -> Outlook:
    """The main question of ``solution``'s game as an :class:`Outlook`."""
    game = game_of(solution)
    if not solution.consistent:
        return Outlook(game, False, True)
    answers: dict[str, Fraction | float]
    exact = True
    if isinstance(solution, AbbeySolution):
        answers = {card: solution.culprit[card] for card in solution.candidates}
        exact = solution.exact
    elif isinstance(solution, RoseSolution):
        answers = {colouring_label(solution.players, colours): p
                   for colours, p in solution.joint.items()}
    else:
        answers = {pair_label(pair): p for pair, p in solution.pairs.items()}
    return Outlook(game, True, exact, {a: float(p) for a, p in answers.items()})


def colouring_label(players: tuple[str, ...], colours: tuple[str, ...]) -> str:
    """A Rose answer: ``player=colour`` for each player, in order, joined by spaces."""
    return " ".join(f"{p}={c}" for p, c in zip(players, colours))


def pair_label(suspects: Sequence[str]) -> str:
    """A Black Rose answer: the two suspects in alphabetical order, joined by ``+``."""
    return "+".join(sorted(suspects))
