"""The one interface every game gives the commands, and the values that cross it.

In the style of OpenSpiel's registered games: each game package has a
``game.py`` holding one object that satisfies :class:`Game`, and
:mod:`deduce.registry` names them. The services (solving, ``analyze``,
``batch``, ``suggest``, the live assistant) and the command line reach a
game only through this protocol, never through its modules; adding a game
is one more ``game.py`` and one line of the registry.

What a game answers:

- **solve**: :meth:`Game.solve` a log into a :class:`Solution`, its tables
  (full, and compact for ``play``), and its main question as
  :meth:`Game.answers` (the Abbey's culprit, the Rose's colouring, the Black
  Rose's accomplice pair);
- **analyze**: the answer a log itself reveals (:meth:`Game.revealed`), the
  answer of a simulator's truth file, and what counts as the accusation;
- **why**: the hypothesis a query puts to the log (:meth:`Game.query`);
- **play**: the header questions of a new log, the words completion offers,
  the input checks the reader leaves to the solver, a fast consistency test;
- **suggest**, **simulate** and **check**;
- **options**: which command-line options the game owns
  (:attr:`Game.owned`) and the data files it reads (:meth:`Game.load`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from deduce.errors import DeduceError
from deduce.games.simulate import Simulator
from deduce.logs.model import Event, GameLog, Header
from deduce.report import Table
from deduce.workers import Workers


@dataclass(frozen=True)
class SolveOptions:
    """How to solve: each game reads its own options and ignores the others.

    ``deck``/``engine``/``budget``/``seed`` are the Abbey's (see
    :func:`~deduce.games.abbey.solver.solve.solve_abbey`; ``deck`` as its
    :meth:`Game.load` read it); ``hard`` drops soft
    evidence (Rose behaviour, Black Rose claims); ``model`` replaces the
    game's bundled soft-evidence model (read by :meth:`Game.load`).
    ``jobs``: the processes a long solve may use (the Abbey's estimates).
    ``carry``: what a solve of an earlier prefix of the same log left to go
    on from (its solution's ``carry``: the Abbey's chains), or None.
    ``opponents``: also say what the other players know (the Abbey's race
    to accuse), in part of the budget. ``guesser``: how the others read the
    log for the observer's secret (the Rose's exposure: ``markers`` or
    ``play``); None: the game's default.
    ``progress``, when given, gets each better solution found on the way
    to the answer of a long solve (the Abbey's estimates, round by round);
    the games that answer at once never call it.
    """

    deck: object = None
    engine: str = "sat"
    hard: bool = False
    budget: float | None = None
    seed: int = 0
    model: Any = None
    progress: Callable[[Any], None] | None = None
    jobs: int = 1
    carry: Any = None
    opponents: bool = False
    guesser: str | None = None


@dataclass(frozen=True)
class AdviceOptions:
    """What ``suggest`` asks beyond solving.

    ``top``: how many Abbey moves to list; ``unseen``: the Black Rose's unseen
    clue cards, or ``cards``: the cards data that bounds them; ``situation``:
    the Abbey decision asked of the observer now (a question, a card to show,
    Mass), in the words of :mod:`deduce.games.abbey.advice.situation`.
    """

    top: int = 10
    unseen: int | None = None
    cards: Any = None
    situation: str | None = None


@dataclass(frozen=True)
class CheckOptions:
    """How ``check`` checks.

    The Abbey's time per position, stride and fast mode; the soft-evidence
    model of the Rose and the Black Rose.
    """

    budget: float = 0.2
    every: int = 1
    fast: bool = False
    model: Any = None


@dataclass(frozen=True)
class Suggestion:
    """Advice as JSON-ready data and as tables for people."""

    data: dict[str, Any]
    tables: list[Table]


@dataclass(frozen=True)
class Revealed:
    """The answer a log itself reveals, and the line that reveals it."""

    value: str
    line: int


@dataclass(frozen=True)
class CheckReport:
    """A ``check`` run summed up: its JSON, its tables, and how many soundness failures."""

    data: dict[str, Any]
    tables: list[Table]
    failures: int


@dataclass(frozen=True)
class Question:
    """One header key a new log asks about: ``kind`` says how the answer is read.

    Kinds: ``player`` (one id), ``count`` (an integer), ``ids`` (ids separated
    by spaces or commas). An optional key left unanswered stays out of the
    header.
    """

    key: str
    prompt: str
    kind: str
    required: bool = True


@dataclass(frozen=True)
class Query:
    """A ``why`` hypothesis put to one log, whatever the game.

    ``statement``: the answer asked about, in words. ``pool``: the lines that
    can belong to an answer. ``consistent(kept)``: whether the log's events on
    ``kept`` lines of the pool (and every event outside it), plus the
    hypothesis, can all be true. ``minimal()``: the game's minimal
    conflicting lines, the hypothesis left out. ``log_consistent()``: whether
    the log alone can be true.
    """

    statement: str
    pool: tuple[int, ...]
    consistent: Callable[[Collection[int]], bool]
    minimal: Callable[[], Collection[int]]
    log_consistent: Callable[[], bool]


class Solution(Protocol):
    """What every game's solution has: consistency, the conflict's lines, and JSON."""

    game: ClassVar[str]

    @property
    def consistent(self) -> bool:
        """Whether some history fits the log."""
        ...

    @property
    def conflict(self) -> tuple[int, ...]:
        """The lines of a minimal conflict (an inconsistent log's)."""
        ...

    @property
    def explanation(self) -> tuple[str, ...]:
        """The conflict in words, one sentence each."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The solution as the JSON of ``solve --json``."""
        ...


#: A game's own solution type (the Abbey's ``AbbeySolution``...).
S = TypeVar("S", bound=Solution)


class Others(Protocol):
    """What the other players know, apart from a solve (:meth:`Game.others`).

    ``to_json`` has ``exact`` and ``error`` as a solution's, so that a
    background refinement keeps the better estimate; ``warnings`` are the
    lines to show the player (``bob may be able to accuse: 62%``).
    """

    @property
    def consistent(self) -> bool:
        """Whether the log has a history at all."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The estimate as JSON, with ``exact`` and ``error``."""
        ...

    def warnings(self) -> list[str]:
        """Lines to show the player now (none: nothing to warn about)."""
        ...


class Weighed(Solution, Protocol):
    """A solution that counts the soft evidence it weighed."""

    @property
    def weighed(self) -> int:
        """How many soft events the solve weighed."""
        ...


class Game(Protocol[S]):
    """One game, as the commands see it (see the module docstring), generic over its solution.

    The registry holds the games side by side, so it sees ``Game[Any]``: each
    game's methods take only its own solutions, which the registry routes to
    it by name (:func:`deduce.registry.game_of`).
    """

    #: The game's name in logs and on the command line.
    name: str
    #: What the main question is about: ``culprit``, ``colours``, ``accomplices``.
    question: str
    #: What the certainty line is measured against, in words.
    accusation: str
    #: The answer a player acts on, in words: ``the most probable``, ``the day-7 guess``.
    pick: str
    #: Whether solves may weigh soft evidence (then candidates come from a hard solve).
    soft: bool
    #: The engines ``solve --engine`` offers for this game (none: the game has one).
    engines: tuple[str, ...]
    #: Command -> the parameter names of its options that only this game uses.
    owned: Mapping[str, tuple[str, ...]]
    #: The ``why`` query as help shows it, what it means, and for each of its words the
    #: grammar keys whose words it takes (for completion).
    why_usage: str
    why_meaning: str
    why_arguments: tuple[tuple[str, ...], ...]
    #: The bots, data files and recorder of ``simulate`` and ``check``.
    simulator: Simulator
    #: Data files the log reader needs before it knows a log's game (the Abbey's ``deck``):
    #: :meth:`load` reads them, and the reader and :meth:`solve` get what it read.
    log_files: tuple[str, ...]
    #: Whether :meth:`others` says what the other players know (``play`` refines it).
    knows_others: bool

    def load(self, kind: str, path: str) -> Any:
        """Read a data file the game owns: ``deck``, ``model`` (soft evidence) or ``cards``."""
        ...

    def inline(self, supplied: object) -> dict[str, Any]:
        """The header keys that carry ``supplied`` (a :attr:`log_files` file's data) in a log.

        A new log carries the player's data: the Abbey's deck goes inline.
        """
        ...

    def template(self, kind: str) -> str:
        """A :attr:`log_files` file to fill in (``deduce deck template``)."""
        ...

    def warm(self) -> Any:
        """State a caller keeps to solve one log position after position (None: none)."""
        ...

    def solve(self, log: GameLog, options: SolveOptions, warm: Any = None) -> S:
        """Solve a validated log of this game."""
        ...

    def tables(self, solution: S) -> list[Table]:
        """The tables ``deduce solve`` prints."""
        ...

    def compact_tables(self, solution: S) -> list[Table]:
        """The short tables ``deduce play`` shows after every event (consistent solutions)."""
        ...

    def answers(self, solution: S) -> tuple[Mapping[str, Any], bool]:
        """The main question's possible answers and their probabilities, most probable first.

        Also whether the probabilities are exact (of a consistent solution).
        """
        ...

    def picks(self, solution: S) -> tuple[str, ...]:
        """The answers a player acts on (:attr:`pick`), tied ones together.

        Labels of :meth:`answers`; empty when they are simply the most
        probable ones. Every command shows these as the main answer. A pick may be impossible
        (probability 0): the Rose's best guess player by player need not be a
        possible colouring.
        """
        ...

    def weighed(self, solution: S) -> bool:
        """Whether the solve weighed soft evidence."""
        ...

    def error(self, solution: S) -> float:
        """The bound on the error of the probabilities (0: exact)."""
        ...

    def revealed(self, log: GameLog) -> Revealed | None:
        """The answer the log itself reveals, if any."""
        ...

    def is_accusation(self, event: Event) -> bool:
        """Whether ``event`` is what the certainty line is measured against."""
        ...

    def truth_answer(self, log: GameLog, raw: Any) -> str:
        """The answer in a simulator's parsed ``truth.json`` (problems raise ``Invalid``)."""
        ...

    def query(self, log: GameLog, words: Sequence[str]) -> Query:
        """The hypothesis of ``why WORDS`` (a bad query raises ``DeduceError``)."""
        ...

    def words(self, header: Header, path: str) -> dict[str, tuple[str, ...]]:
        """Grammar key -> the game's words it can hold (cards, colours, suspects...)."""
        ...

    def questions(self, players: tuple[str, ...]) -> tuple[Question, ...]:
        """The header keys a new log asks about once the players are known."""
        ...

    def check_input(self, log: GameLog) -> None:
        """Raise the input errors the reader leaves to the solver."""
        ...

    def warnings(self, log: GameLog, options: SolveOptions) -> tuple[tuple[int, str], ...]:
        """Lines the rules forbid but the solver can still read: (line, what is wrong).

        ``options``: as for solving (the Abbey's ``--deck``).

        They are warnings, not input errors: the log records what happened at
        the table, and its information stays valid.
        """
        ...

    def openings(self, me: str) -> tuple[Question, ...]:
        """What a new log asks its observer about their own cards or role.

        Each question's ``key`` is the start of the event line its answer
        completes (``hand ana``, then the cards).
        """
        ...

    def impossible(self, log: GameLog, warm: Any = None) -> bool:
        """Whether a quick test finds that no history fits the log (False: solve to know)."""
        ...

    def others(self, log: GameLog, options: SolveOptions) -> Others | None:
        """What the other players know, estimated within ``options.budget`` (None: not known).

        Computed apart from the solve, in ``play``'s background (when
        :attr:`knows_others`).
        """
        ...

    def could_be_sure(self, log: GameLog, options: SolveOptions) -> dict[str, bool]:
        """For each other player: whether some history of ``log`` has them sure of the answer.

        True is certain (a history shows it), False only that none was found
        (when :attr:`knows_others`; empty otherwise, and for a log without a
        history).
        """
        ...

    def suggest(
        self, log: GameLog, options: SolveOptions, advice: AdviceOptions, solution: S | None = None
    ) -> Suggestion:
        """Advice for the observer of a consistent log (raises ``InconsistentLog`` otherwise).

        ``solution``: the solve of this position the caller shows, so that the
        advice and the tables cannot disagree (None: the game solves it).
        """
        ...

    def check(
        self,
        table: Any,
        games: int,
        seed: int,
        lineup: Sequence[str],
        workers: Workers,
        options: CheckOptions,
    ) -> Iterator[Any]:
        """Simulate and check ``games`` games: one result per game, in order."""
        ...

    def check_report(self, players: int, results: Sequence[Any]) -> CheckReport:
        """The results of :meth:`check` summed up."""
        ...


class FromScratch:
    """The parts of :class:`Game` shared by games that solve each position from scratch.

    No state kept between positions, no input left to the solver to check, no
    quick test of consistency before a full solve, soft evidence counted in
    the solution's ``weighed``, and exact probabilities.
    """

    #: No data file for the log reader.
    log_files: tuple[str, ...] = ()
    #: Nothing apart from the solve about what the others know.
    knows_others: bool = False

    def inline(self, supplied: object) -> dict[str, Any]:
        """No data file, so nothing to carry."""
        return {}

    def template(self, kind: str) -> str:
        """No data file to fill in."""
        raise DeduceError(f"no {kind} template")

    def warm(self) -> None:
        """No state: every position is solved from scratch."""
        return None

    def check_input(self, log: GameLog) -> None:
        """The reader checks everything."""
        return None

    def impossible(self, log: GameLog, warm: Any = None) -> bool:
        """No quick test: a full solve says whether the log is consistent."""
        return False

    def others(self, log: GameLog, options: SolveOptions) -> None:
        """Nothing computed apart from the solve about what the others know."""
        return None

    def could_be_sure(self, log: GameLog, options: SolveOptions) -> dict[str, bool]:
        """Nothing said about what the others could know."""
        return {}

    def openings(self, me: str) -> tuple[Question, ...]:
        """Nothing to ask the observer."""
        return ()

    def warnings(self, log: GameLog, options: SolveOptions) -> tuple[tuple[int, str], ...]:
        """No rule to warn about."""
        return ()

    def weighed(self, solution: Weighed) -> bool:
        """Whether the solve weighed soft evidence (its ``weighed`` count)."""
        return bool(solution.weighed)

    def error(self, solution: Solution) -> float:
        """Exact probabilities: no error."""
        return 0.0
