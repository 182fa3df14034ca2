"""Solve a log of any game: one entry point, its tables, and the game's main question.

Every command that solves logs without caring which game they are from
(``solve``, ``batch``, ``analyze``, ``play``) goes through :func:`solve_log`
with one :class:`~deduce.games.protocol.SolveOptions`, prints
:func:`solution_tables`, and reads the game's main question off
:func:`outlook`, each game answering through :mod:`deduce.registry`:

- **abbey**: who is the culprit (answers: card ids);
- **rose**: which colour every other player is (answers: ``player=colour``
  for each reported player, in seat order, joined by spaces);
- **blackrose**: which two suspects are the accomplices (answers:
  ``first+second``, as in the JSON output).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from deduce.games.protocol import Solution, SolveOptions
from deduce.logs.model import GameLog
from deduce.registry import game, game_of
from deduce.report import NO_TIME, UNKNOWN, Table, estimated, percent, usable

__all__ = [
    "Outlook",
    "Solution",
    "SolveOptions",
    "others_of",
    "outlook",
    "rule_warnings",
    "solution_tables",
    "solve_log",
    "with_model_file",
]


def with_model_file(options: SolveOptions, name: str, path: str | None) -> SolveOptions:
    """``options`` with game ``name``'s soft-evidence model read from ``path``.

    Without a path, ``options`` unchanged; a game without a model is an error.
    """
    if path is None:
        return options
    return replace(options, model=game(name).load("model", path))


def solve_log(log: GameLog, options: SolveOptions | None = None, warm: Any = None) -> Solution:
    """Solve a validated log of any game with ``options`` (default: exact, bundled models).

    ``warm`` (from the game's ``warm()``), kept by a caller that solves one
    log position after position (``analyze``, ``play``), lets the Abbey grow
    its SAT model instead of building it again; the other games solve from
    scratch.
    """
    return game(log.header.game).solve(log, options or SolveOptions(), warm)


def others_of(log: GameLog, options: SolveOptions) -> Any:
    """What the other players of ``log`` know, within ``options.budget`` (None: not known).

    The game's :meth:`~deduce.games.protocol.Game.others`: the Abbey's race
    to accuse, which ``play`` refines in the background beside the chances.
    """
    return game(log.header.game).others(log, options)


def rule_warnings(
    log: GameLog, options: SolveOptions | None = None, line: int | None = None
) -> list[str]:
    """Lines the rules forbid but the solver can read, as ``path:line: what is wrong``.

    ``line``: only that line's warnings (``play``, after recording it).
    """
    found = game(log.header.game).warnings(log, options or SolveOptions())
    return [f"{log.path}:{at}: {text}" for at, text in found if line in (None, at)]


def solution_tables(solution: Solution) -> list[Table]:
    """The tables ``deduce solve`` prints for ``solution``."""
    return game_of(solution).tables(solution)


@dataclass(frozen=True)
class Outlook:
    """The game's main question as one distribution over its possible answers.

    ``answers``: answer -> probability, most probable first, possible answers
    only (empty when the log is inconsistent). ``exact``: the probabilities
    are exact (the Abbey may estimate them under a time budget); the set of
    answers always is. ``error``: an estimate's bound (0 when exact).
    ``picks``: the answers a player acts on when they are not simply the most
    probable ones (see :meth:`deduce.games.protocol.Game.picks`).
    """

    game: str
    consistent: bool
    exact: bool
    answers: dict[str, float] = field(default_factory=dict)
    error: float = 0.0
    picks: tuple[str, ...] = ()

    @property
    def question(self) -> str:
        """What the answers are about: culprit, colours or accomplices."""
        return game(self.game).question

    @property
    def candidates(self) -> int:
        """How many answers are still possible."""
        return len(self.answers)

    @property
    def pick(self) -> str:
        """What the main answer is, in words: ``the most probable``, ``the day-7 guess``."""
        return game(self.game).pick

    @property
    def best(self) -> str | None:
        """The main answer: the first of :attr:`leaders` (None when inconsistent)."""
        return self.leaders[0] if self.answers else None

    @property
    def usable(self) -> bool:
        """Whether the probabilities may be shown as numbers (see :func:`deduce.report.usable`).

        A single possible answer is certain however rough the estimate.
        """
        return usable(self.exact, self.error) or len(self.answers) == 1

    @property
    def leaders(self) -> tuple[str, ...]:
        """The main answers, tied ones together (one unless there is a tie).

        The :attr:`picks`, or else the answers tied for the highest probability.
        """
        if self.picks:
            return self.picks
        top = next(iter(self.answers.values()), None)
        return tuple(a for a, p in self.answers.items() if p == top)

    def best_cells(self) -> tuple[str, str]:
        """The main answer and its chance, honest about ties and wide estimates.

        ``("nicola", "61.9%")``; estimated ``("nicola", "~61.9%")``; a tie
        ``("4 tied", "18.8% each")`` (Rose guesses tied on the expected number
        right may differ in chance: ``("2 tied", "12.0% to 15.0%")``); an
        estimate too wide to show ``("?", "not enough time to estimate")``;
        ``("", "")`` when inconsistent.
        """
        if not self.answers:
            return "", ""
        if not self.usable:
            return UNKNOWN, NO_TIME
        leaders = self.leaders
        if self.certain:
            return leaders[0], percent(1)
        chances = sorted({self.answers.get(a, 0.0) for a in leaders})
        shown = [
            (percent(p) or "0%") if self.exact else "~" + estimated(p, self.error) for p in chances
        ]
        if len(leaders) == 1:
            return leaders[0], shown[0]
        each = f"{shown[0]} each" if len(shown) == 1 else f"{shown[0]} to {shown[-1]}"
        return f"{len(leaders)} tied", each

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
    owner = game_of(solution)
    if not solution.consistent:
        return Outlook(owner.name, False, True)
    answers, exact = owner.answers(solution)
    return Outlook(
        owner.name,
        True,
        exact,
        {a: float(p) for a, p in answers.items()},
        owner.error(solution),
        owner.picks(solution),
    )
