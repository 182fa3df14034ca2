"""``deduce play``: the live assistant at the table, a thin read-eval-print loop.

Each input line is an event in the line syntax (its first word is an event
type of the game; a bare ``show`` is the command) or a command of
:data:`COMMANDS`. A new command is one more entry there. The work is done by
:mod:`deduce.assist`: the session writes the log, the solver answers, and
this module only reads lines and prints.

At a terminal the table after each event comes at once, and its chances
come later from a background process (:mod:`deduce.assist.background`):
each better table is printed above the prompt, the line being typed drawn
again under it. With input from a pipe each solve is waited for, so that a
script gets every table whole (``--background``/``--no-background`` choose).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from time import perf_counter
from typing import cast

import click

from deduce.assist.background import (
    LADDER,
    OTHERS_AFTER,
    OTHERS_LADDER,
    OTHERS_NICENESS,
    Refined,
    Refiner,
    Unknown,
    ladder,
)
from deduce.assist.compact import (
    compact_tables,
    computing,
    contradiction,
    shows_chances,
)
from deduce.assist.complete import (
    EVENT,
    LINE_EVENT,
    TOPIC,
    WHY,
    answer_candidates,
    candidates,
    completed,
    joined_words,
)
from deduce.assist.live import Inconsistent, solve_live
from deduce.assist.lock import LogLock
from deduce.assist.newlog import (
    SPECTATOR,
    free_name,
    header_text,
    opening_event,
    openings,
    questions,
    raw_header,
    words,
)
from deduce.assist.session import Session, is_new, syntax_for
from deduce.assist.vocabulary import Vocabulary, vocabulary
from deduce.assist.why import why
from deduce.errors import DeduceError, LogError
from deduce.games.protocol import Others
from deduce.logs.formats import event_types
from deduce.logs.model import Event, GameLog
from deduce.logs.text import show_event, usage
from deduce.registry import GAMES
from deduce.registry import game as game_named
from deduce.report import render
from deduce.solving import (
    Solution,
    SolveOptions,
    others_of,
    rule_warnings,
    solution_tables,
    solve_log,
    with_model_file,
)
from deduce.suggest import AdviceOptions, suggest

from .options import (
    COMMAND_SETTINGS,
    ROSE_SITUATIONS,
    SITUATIONS,
    guesser_option,
    jobs_option,
    read_deck,
    refuse_options,
)
from .terminal import (
    AbovePrompt,
    catch_ctrl_c,
    draw_above,
    on_prompt,
    remember,
    setup_readline,
    use_completer,
)

#: Seconds for each solve when it is waited for (piped input, --no-background), and for
#: ``what-if``, ``suggest``'s advice and the smallest ``why``: --budget's default.
WAIT_BUDGET = 2.0
#: What follows a contradiction in the log: the event that revealed it is kept.
KEPT = (
    " Every event is kept (the wrong one may be an earlier line): type `explain` for "
    "why, `undo` to remove the last event."
)
#: What follows a contradiction after an undo, drop, edit or insert.
EXPLAIN = " Type `explain` for why."


class _Quit(Exception):
    """The user asked to leave."""


@dataclass(frozen=True)
class Command:
    """One command: what it does, its usage and help text, and what its argument completes to.

    ``usage`` and ``help`` may name ``{why}`` and ``{why_meaning}``, the
    game's ``why`` query and what it means. ``run(repl, args)`` gets the
    words after the command.
    """

    run: Callable[[Repl, list[str]], None]
    usage: str
    help: str
    argument: str = ""


class Repl:
    """The loop over one session: reads lines, records events, answers commands.

    ``options``: how a solve that is waited for solves (``budget``: its
    time). ``budgets``: the ladder of the background refinement; None waits
    for each solve after an event instead.
    """

    def __init__(
        self,
        session: Session,
        options: SolveOptions,
        budget: float,
        interactive: bool,
        budgets: tuple[float, ...] | None = None,
    ) -> None:
        self.session = session
        self.options = options
        self.budget = budget
        self.interactive = interactive
        self.budgets = budgets
        self.refused = 0
        self.refiner: Refiner | None = None
        #: What the others know (the Abbey's race to accuse), refined once the chances show.
        self.others: Refiner | None = None
        self._warned = ""  # the warnings about the others, as printed last
        self._race_due = False  # the position's others job waits for its chances
        self._race_timer: threading.Timer | None = None  # ... or for OTHERS_AFTER seconds
        self._immediate = options if budgets is None else replace(options, budget=0.0)
        self._solved: tuple[GameLog, Solution | Inconsistent] | None = None
        self._shown = ""  # the position's short tables, as printed last
        self._since = time.monotonic()  # when the position's background job started
        self._at_prompt = False  # readline is waiting for the line (see read)
        self._hooked = False  # readline says when it is (see watch_prompt)
        self._warm = game_named(self.session.game).warm()
        self._matches: list[str] = []
        #: Where the refiner's tables wait for the prompt (a terminal's, see run).
        self.above: AbovePrompt | None = None

    @property
    def game(self) -> str:
        """The log's game."""
        return self.session.game

    @property
    def prompt(self) -> str:
        """The prompt of an event line."""
        return f"{self.game}> "

    # ---------------------------------------------------------------- solving and printing

    def solution(self, full: bool = False) -> Solution | Inconsistent:
        """The solution of the log as the file holds it now (solved again only if it changed).

        The best one shown: in the background mode, at once (a budget of 0),
        then as refined. ``full``: an inconsistent log comes with its
        conflicting lines and their explanation (see :mod:`deduce.assist.live`).
        """
        log = self.session.refresh()
        known = self._solved[1] if self._solved is not None and self._solved[0] == log else None
        if known is None or (full and isinstance(known, Inconsistent)):
            known = (
                solve_log(log, self.options, self._warm)
                if full
                else solve_live(log, self._immediate, self._warm)
            )
            self._solved = (log, known)
        return known

    def full_solution(self) -> Solution:
        """The solution with a contradiction's lines and explanation (``explain``, ``show``)."""
        solution = self.solution(full=True)
        assert not isinstance(solution, Inconsistent)
        return solution

    def show_compact(
        self, solution: Solution | Inconsistent, hint: str = "", pending: bool = False
    ) -> tuple[str, bool]:
        """Print the short tables of a solution, or the one-line contradiction and ``hint``.

        ``pending``: its chances are being computed. Returns what was
        printed, and whether the tables show their chances (none missing
        for time; nothing to wait for in a contradiction).
        """
        tables = compact_tables(solution)
        text = (
            render(computing(tables) if pending else tables)
            if solution.consistent
            else f"{contradiction(solution)}{hint}"
        )
        click.echo(text)
        return text, shows_chances(tables)

    def show_position(self, hint: str) -> None:
        """The short tables of the log as the file holds it now, after an event or a change.

        In the background mode they come at once, and a job refines their
        chances from then on. The job of the position before is cancelled
        first, so that it takes no time from this solve.
        """
        if self.refiner is not None:
            self.refiner.cancel()
        if self.others is not None:
            self.others.cancel()
        self._stop_racing()
        if self.above is not None:
            self.above.clear()  # a table of the position before, not yet shown
        solution = self.solution()
        pending = self.refiner is not None and self.refiner.start(
            self.session.log, self.options, solution
        )
        self._since = time.monotonic()
        self._shown, shown = self.show_compact(solution, hint, pending)
        self._warned = ""
        self._race_due = self.others is not None and solution.consistent
        if not pending or shown:
            self.race(self.session.log)
        elif self._race_due:
            self._race_timer = threading.Timer(OTHERS_AFTER, self._race_anyway, (self.session.log,))
            self._race_timer.daemon = True
            self._race_timer.start()

    def race(self, log: GameLog) -> None:
        """Start the position's others job, if it waits.

        The chances come first: at five and six players both jobs want
        every core, and the chances are what the player reads. So the job
        starts once the chances show (or their job ends), or after
        :data:`OTHERS_AFTER` seconds without them.
        """
        if self._race_due and self.others is not None:
            self._race_due = False
            self.others.start(log, self.options, Unknown())

    def _stop_racing(self) -> None:
        """The timer of the others job, if any, is cancelled (a new position, the end)."""
        if self._race_timer is not None:
            self._race_timer.cancel()

    def _race_anyway(self, log: GameLog) -> None:
        """The timer's end (in its thread): the others job starts, unless the log changed."""
        assert self.refiner is not None
        with self.refiner.lock:
            if log is self.session.log:
                self.race(log)

    def raced(self, result: Refined) -> None:
        """What the others know (the lock held): a warning for each who may accuse, once."""
        if result.error:
            self.above_prompt(f"Error: estimating what the others know stopped: {result.error}")
            return
        known = cast(Others, result.solution)  # what this refiner's jobs give
        text = "\n".join(f"Warning: {line}" for line in known.warnings())
        if text and text != self._warned:
            self._warned = text
            self.above_prompt(text)

    def refined(self, result: Refined) -> None:
        """A background result (the refiner's lock held): printed when it changes the table."""
        if result.error:
            self.above_prompt(f"Error: computing the chances stopped: {result.error}", err=True)
            return
        assert result.solution is not None
        self._solved = (result.log, result.solution)
        tables = compact_tables(result.solution)
        if result.last or shows_chances(tables):
            self.race(result.log)
        text = render(tables if result.last else computing(tables))
        if text != self._shown:  # how long it has been computing alone changes nothing
            self._shown = text
            self.above_prompt(
                render(tables if result.last else computing(tables, self.computing_for))
            )

    @property
    def computing_for(self) -> float:
        """Seconds since the shown position's background job started."""
        return time.monotonic() - self._since

    def above_prompt(self, text: str, err: bool = False) -> None:
        """Print ``text`` between lines: above the prompt, if it waits, drawn again under it.

        In the refiner's thread. At a terminal whose input hook is set
        (:class:`~deduce.cli.terminal.AbovePrompt`), the text waits for
        readline's next idle moment; otherwise it is printed now, and the
        prompt drawn again by hand (an output that went away shows nothing).
        """
        if self.above is not None and self.above.installed:
            self.above.post(text, err)
            return
        with contextlib.suppress(OSError):
            if self._at_prompt:
                draw_above(self.prompt, text, err)
            else:
                click.echo(text, err=err)

    @property
    def refining(self) -> bool:
        """Whether the chances of the position shown are being computed in the background."""
        return self.refiner is not None and self.refiner.worker is not None

    def busy(self) -> contextlib.AbstractContextManager[object]:
        """Held while a line is handled: a background result waits for the prompt."""
        held = contextlib.ExitStack()
        for refiner in (self.refiner, self.others):
            if refiner is not None:
                held.enter_context(refiner.lock)
        return held

    def text(self, event: Event) -> str:
        """An event as ``line N: <line syntax>``."""
        return f"line {event.line}: {show_event(event, self.game)}"

    # ---------------------------------------------------------------- the loop

    def run(self) -> None:
        """Greet, then handle lines until ``quit``, Ctrl-D or the end of the input.

        In the background mode, the refiner lives as long as the loop: its
        worker is gone when this returns, however the loop ended.
        """
        log = self.session.log
        me = log.header.me or SPECTATOR
        click.echo(
            f"{self.session.path}: {self.game}, players {' '.join(log.header.players)}, "
            f"you are {me}; {len(log.events)} events. Type `help` for the commands."
        )
        with contextlib.ExitStack() as stack:
            if self.budgets is not None:
                if self.interactive:  # the refiner's tables come while a line is typed
                    self.above = stack.enter_context(AbovePrompt(self.prompt))
                self.refiner = stack.enter_context(Refiner(self.refined, self.budgets))
                if game_named(self.game).knows_others:
                    self.others = stack.enter_context(
                        Refiner(
                            self.raced, OTHERS_LADDER, others_of, "deduce-others", OTHERS_NICENESS
                        )
                    )
            stack.callback(self._stop_racing)
            with self.busy():
                self.show_position(KEPT)
            while (line := self.read()) is not None:
                with self.busy():
                    try:
                        self.handle(line)
                    except _Quit:
                        break
                    except DeduceError as exc:
                        self.refused += 1
                        click.echo(f"Error: {exc}", err=True)
                    except KeyboardInterrupt:
                        click.echo("Interrupted (every recorded event is saved).", err=True)
        click.echo(f"Saved: {self.session.path}")

    def read(self) -> str | None:
        """The next line (None at the end of input). Ctrl-C drops the line being typed."""
        while True:
            try:
                if not self.interactive:
                    line = sys.stdin.readline()
                    return line if line else None
                self._at_prompt = not self._hooked  # else readline says when (watch_prompt)
                if self.above is not None:
                    self.above.wake()  # a table a Ctrl-C kept from showing
                line = input(self.prompt)
            except KeyboardInterrupt:
                click.echo("")
                continue
            except EOFError:
                click.echo("")
                return None
            finally:
                self._at_prompt = False
            remember(line)
            return line

    def watch_prompt(self) -> None:
        """Have readline say when the prompt is drawn and waits (where it can)."""
        self._hooked = on_prompt(self._prompting)

    def _prompting(self) -> None:
        """Readline drew the prompt and waits for the line."""
        self._at_prompt = True

    def handle(self, line: str) -> None:
        """Record one event line or run one command."""
        found = line.partition("#")[0].split()
        if not found:
            return
        name, args = found[0], found[1:]
        if name in event_types(self.game) and not (name in COMMANDS and not args):
            self.record(line.strip())
        elif name in COMMANDS:
            COMMANDS[name].run(self, args)
        else:
            raise DeduceError(
                f"unknown command {name!r} (commands: {', '.join(COMMANDS)}; "
                f"{self.game} events: {', '.join(event_types(self.game))})"
            )

    def record(self, line: str) -> None:
        """Write one event to the log (on disk before this returns), then show the tables.

        If the file changed on disk since this session last wrote it, say so
        first: the event goes after what is there now.
        """
        if self.session.changed_on_disk():
            click.echo(
                f"Note: {self.session.path} changed on disk since deduce last read or "
                "wrote it; the event goes after its current content.",
                err=True,
            )
        event = self.session.add(line)
        click.echo(f"Recorded {self.text(event)}")
        for warning in rule_warnings(self.session.log, self.options, event.line):
            click.echo(f"Warning: {warning}", err=True)
        self.show_position(KEPT)

    # ---------------------------------------------------------------- completion

    def complete(self, text: str, state: int) -> str | None:
        """The readline completer: the ``state``-th word completing the current one."""
        import readline

        if state == 0:
            line = readline.get_line_buffer()[: readline.get_endidx()]
            commands = {name: c.argument for name, c in COMMANDS.items()}
            known = vocabulary(self.session.log.header, self.session.path)
            found = candidates(line, self.game, known, commands)
            self._matches = completed(found, joined_words(self.game, known))
        return self._matches[state] if state < len(self._matches) else None


# -------------------------------------------------------------------- commands


def _help(repl: Repl, args: list[str]) -> None:
    """Every command and event type, or one of them in full."""
    game = repl.game
    owner = game_named(game)
    topics = {"why": owner.why_usage, "why_meaning": owner.why_meaning}
    if not args:
        width = max(len(c.usage.format(**topics)) for c in COMMANDS.values())
        click.echo("Commands:")
        for command in COMMANDS.values():
            click.echo(
                f"  {command.usage.format(**topics):<{width}}  "
                f"{command.help.splitlines()[0].format(**topics)}"
            )
        click.echo(
            f"Events ({game}), recorded in the log: type them as below (`help EVENT` for one)."
        )
        for type_ in event_types(game):
            click.echo(f"  {usage(game, type_)}")
        return
    topic = args[0]
    if topic in event_types(game):
        click.echo(f"Event: {usage(game, topic)}")
    if topic in COMMANDS:
        command = COMMANDS[topic]
        click.echo(f"Command: {command.usage.format(**topics)}")
        click.echo(command.help.format(**topics))
    if topic not in COMMANDS and topic not in event_types(game):
        raise DeduceError(f"no help on {topic!r}: try `help`")


def _undo(repl: Repl, args: list[str]) -> None:
    """Remove the last event from the file, then show the tables."""
    event = repl.session.undo()
    click.echo(f"Removed {repl.text(event)}")
    repl.show_position(EXPLAIN)


def _line_number(args: list[str], usage: str) -> int:
    """The LINE argument of ``drop``, ``edit`` and ``insert``."""
    if not args or not args[0].isdigit():
        raise DeduceError(f"usage: {usage}")
    return int(args[0])


def _line_and_event(args: list[str], usage: str) -> tuple[int, str]:
    """The LINE and EVENT arguments of ``edit`` and ``insert``."""
    if len(args) < 2:
        raise DeduceError(f"usage: {usage}")
    return _line_number(args, usage), " ".join(args[1:])


def _drop(repl: Repl, args: list[str]) -> None:
    """Remove the event on a line from the file, then show the tables."""
    if len(args) != 1:
        raise DeduceError("usage: drop LINE")
    event = repl.session.drop(_line_number(args, "drop LINE"))
    click.echo(f"Removed {repl.text(event)}")
    repl.show_position(EXPLAIN)


def _edit(repl: Repl, args: list[str]) -> None:
    """Replace the event on a line, then show the tables."""
    old, new = repl.session.edit(*_line_and_event(args, "edit LINE EVENT"))
    click.echo(
        f"Replaced line {old.line}: {show_event(old, repl.game)}\n      with {repl.text(new)}"
    )
    repl.show_position(EXPLAIN)


def _insert(repl: Repl, args: list[str]) -> None:
    """Add an event before the one on a line, then show the tables."""
    event = repl.session.insert(*_line_and_event(args, "insert LINE EVENT"))
    click.echo(f"Inserted {repl.text(event)} (the lines from there on moved down one)")
    repl.show_position(EXPLAIN)


def _why(repl: Repl, args: list[str]) -> None:
    """The events that rule an answer out."""
    answer = why(repl.session.refresh(), args, perf_counter() + repl.budget)
    if answer.possible:
        click.echo(f"Possible: {answer.statement}. No event rules it out.")
        return
    click.echo(f"Ruled out: {answer.statement}.")
    if not answer.events:
        click.echo("No event is needed: the header and the game's structure rule it out.")
        return
    size = "The smallest" if answer.smallest else "A minimal"
    click.echo(f"{size} set of events that rules it out (remove any one and it is possible again):")
    for event in answer.events:
        click.echo(f"  {repl.text(event)}")
    if not answer.smallest:
        click.echo("(The search for a smaller set stopped at the time budget.)")


def _what_if(repl: Repl, args: list[str]) -> None:
    """The tables if an event were recorded, writing nothing."""
    if not args:
        raise DeduceError("usage: what-if EVENT (an event line, as you would record it)")
    line = " ".join(args)
    log = repl.session.extended(line)[1]
    click.echo(f"What if {repl.text(log.events[-1])} (not recorded):")
    repl.show_compact(solve_live(log, repl.options))


def _explain(repl: Repl, args: list[str]) -> None:
    """Why the log contradicts itself."""
    solution = repl.full_solution()
    if solution.consistent:
        click.echo("The log is consistent: there is no contradiction to explain.")
        return
    click.echo("\n".join(solution.explanation))
    by_line = {e.line: e for e in repl.session.log.events}
    click.echo("The lines as written:")
    for line in solution.conflict:
        click.echo(f"  {repl.text(by_line[line])}")
    click.echo("Fix the wrong line in the file, or `undo` the last event.")


def _show(repl: Repl, args: list[str]) -> None:
    """The full tables of ``deduce solve``, from the solve the short table shows."""
    tables = solution_tables(repl.full_solution())
    click.echo(render(computing(tables, repl.computing_for) if repl.refining else tables))


def _suggest(repl: Repl, args: list[str]) -> None:
    """What to do next, as ``deduce suggest`` advises it, from the solve the table shows.

    ``args``: an Abbey or Rose situation (``asked bob has baldwin``, ``show bob``,
    ``mass 1``; ``reveal``, ``william red``), as ``deduce suggest --situation`` takes it.
    """
    log = repl.session.refresh()
    if args and "situation" not in game_named(log.header.game).owned.get("suggest", ()):
        raise DeduceError(
            "usage: suggest (a situation applies only to the Abbey and the Rose, "
            f"not to {log.header.game})"
        )
    solution = repl.solution()
    shown = None if isinstance(solution, Inconsistent) else solution
    advice = AdviceOptions(situation=" ".join(args)) if args else None
    click.echo(render(suggest(log, repl.options, advice, solution=shown).tables))


def _quit(repl: Repl, args: list[str]) -> None:
    """Leave (every recorded event is already saved)."""
    raise _Quit


#: The commands, in the order ``help`` lists them.
COMMANDS: dict[str, Command] = {
    "help": Command(
        _help,
        "help [COMMAND|EVENT]",
        "Show the commands and events, or one of them in full.",
        TOPIC,
    ),
    "undo": Command(
        _undo,
        "undo",
        "Remove the last event from the log file.\n"
        "The file is rewritten atomically; every other line stays as it was.",
    ),
    "drop": Command(
        _drop,
        "drop LINE",
        "Remove the event on LINE from the log file.\n"
        "The file is rewritten atomically; every other line stays as it was, and "
        "the log without it must still be valid.",
    ),
    "edit": Command(
        _edit,
        "edit LINE EVENT",
        "Replace the event on LINE with EVENT (line syntax).\n"
        "The file is rewritten atomically; every other line stays as it was, and "
        "the log with it must be valid.",
        LINE_EVENT,
    ),
    "insert": Command(
        _insert,
        "insert LINE EVENT",
        "Add a forgotten EVENT (line syntax) before the event now on LINE.\n"
        "The file is rewritten atomically; the lines from LINE on move down one, "
        "every other line stays as it was, and the log with it must be valid.",
        LINE_EVENT,
    ),
    "why": Command(
        _why,
        "{why}",
        "Show the events that rule an answer out.\n{why_meaning}\n"
        "The set is minimal: remove any one of its events and the answer is possible "
        "again.\nIt says `the smallest` when every smaller set of the log's events was "
        "tried (within --budget seconds).\nAn Abbey draw, take or Mass in it stands "
        "for the cards it names; soft evidence (behaviour, claims) rules nothing out.",
        WHY,
    ),
    "what-if": Command(
        _what_if,
        "what-if EVENT",
        "Show the tables if EVENT were recorded, without writing it.",
        EVENT,
    ),
    "explain": Command(
        _explain, "explain", "Explain a contradiction: which lines cannot all be true, and why."
    ),
    "show": Command(_show, "show", "Show the full tables of `deduce solve`."),
    "suggest": Command(
        _suggest,
        "suggest [SITUATION]",
        "Advise what to do next, as `deduce suggest` does.\n"
        "Abbey: the questions and rooms worth most, and whether to accuse; "
        "Black Rose: where to investigate and whom to accuse; Rose: which marker "
        "to reveal and the day-7 guesses.\nAbbey SITUATION, a decision outside your move (as "
        f"`deduce suggest --situation`): {SITUATIONS}.\nRose SITUATION, the decision at "
        f"hand: {ROSE_SITUATIONS}.",
    ),
    "quit": Command(_quit, "quit", "Leave (Ctrl-D too). Every recorded event is already saved."),
    "exit": Command(_quit, "exit", "Leave (Ctrl-D too). Every recorded event is already saved."),
}


# -------------------------------------------------------------------- readline and new logs


class SetupCompleter:
    """Tab completion for a new log's questions (see :func:`_create`).

    ``words``: what the current question's words may be (none: free text);
    ``event``: for your hand or role, the event line the answer completes,
    with the game and the log's vocabulary, so the event grammar completes it.
    """

    def __init__(self) -> None:
        self.words: tuple[str, ...] = ()
        self.event: tuple[str, str, Vocabulary] | None = None
        self._matches: list[str] = []

    def complete(self, text: str, state: int) -> str | None:
        """The readline completer: the ``state``-th word completing the current one."""
        import readline

        if state == 0:
            typed = readline.get_line_buffer()[: readline.get_endidx()]
            joined: tuple[str, ...] = ()
            if self.event is None:
                found = answer_candidates(typed, self.words)
            else:
                prefix, game, known = self.event
                found = candidates(f"{prefix} {typed}", game, known, {})
                joined = joined_words(game, known)
            self._matches = completed(found, joined)
        return self._matches[state] if state < len(self._matches) else None


def _message(exc: DeduceError) -> str:
    """An error about a new log's answers, without the file and line of the header."""
    return exc.message if isinstance(exc, LogError) else str(exc)


def _create(path: str, deck: object, tab: SetupCompleter) -> Session:
    """Ask the game, the players, who you are and the game's header keys; write the header.

    Then ask the observer's own hand (Abbey) or role (Black Rose): the log's
    first events. ``deck`` (``--deck``) goes inline into an Abbey header.
    ``tab`` completes each answer from what its question accepts.
    """
    click.echo(f"New log: {path}")
    tab.words = tuple(GAMES)
    choice = click.Choice(tuple(GAMES))
    game = click.prompt(
        "Game",
        type=choice,
        value_proc=lambda answer: choice.convert(answer.strip().lower(), None, None),
    )
    refuse_options(game, "play")
    players: str | None = None
    me: str | None = None
    answers: dict[str, str] = {}
    while True:
        tab.words = ()
        players = click.prompt("Players, in turn order", default=players)
        tab.words = (*words(players), SPECTATOR)
        me = click.prompt(f"Who are you ({', '.join(words(players))} or {SPECTATOR})", default=me)
        for question in questions(game, words(players)):
            tab.words = words(players) if question.kind == "player" else ()
            optional = "" if not question.required else None
            answers[question.key] = click.prompt(
                question.prompt,
                default=answers.get(question.key, optional),
                show_default=question.required,
            )
        raw = raw_header(game, players, me, answers)
        raw.update(game_named(game).inline(deck))
        try:
            header = header_text(raw, path, syntax_for(path))
            break
        except DeduceError as exc:
            click.echo(f"Error: {_message(exc)}", err=True)
    session = Session.create(path, header)
    known = vocabulary(session.log.header, path)
    for question in openings(game, str(raw["me"] or SPECTATOR)):
        tab.event = (question.key, game, known)
        while True:
            line = opening_event(
                question, click.prompt(question.prompt, default="", show_default=False)
            )
            try:
                if line is not None:
                    session.add(line)
                break
            except DeduceError as exc:
                click.echo(f"Error: {_message(exc)}", err=True)
    tab.event = None
    return session


@click.command(context_settings=COMMAND_SETTINGS)
@click.argument("log", required=False)
@click.option(
    "--budget",
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help="Abbey: time for the chances after an event, past which they are "
    "estimated: the first background step (default: "
    f"{', '.join(f'{b:g}' for b in LADDER[:-1])}, then {LADDER[-1]:g} s, "
    "while you are idle), or the whole solve when it is waited for (default "
    f"{WAIT_BUDGET:g} s). Also the time for `what-if`, for the whole advice of "
    "`suggest` and, in every game, to look for the smallest `why` answer "
    f"(default {WAIT_BUDGET:g} s).",
)
@click.option(
    "--background/--no-background",
    default=None,
    help="Show the exact candidates at once after each event, and compute the "
    "chances in a background process, printed as they improve (the default "
    "at a terminal); or wait for each solve (the default with piped input, "
    "so that a script gets every table whole).",
)
@click.option(
    "--hard", is_flag=True, help="Ignore soft evidence (Rose behaviour, Black Rose claims)."
)
@click.option(
    "--deck",
    "deck_file",
    metavar="FILE",
    help="Abbey: your deck file (`deduce deck template` writes one to fill in); a "
    "new log carries it inline in its header.",
)
@click.option(
    "--model", "model_file", metavar="FILE", help="Rose: behaviour model; Black Rose: claims model."
)
@guesser_option
@jobs_option
def play(
    log: str | None,
    budget: float | None,
    background: bool | None,
    hard: bool,
    deck_file: str | None,
    model_file: str | None,
    guesser: str | None,
    jobs: int,
) -> None:
    """Play along at the table: record events in LOG and see the chances after each one.

    LOG is continued if it exists (a .jsonl file in JSON Lines, any other in
    the line syntax); otherwise it is created after a few questions. Without
    LOG, the file name is asked. Type events in the line syntax, or `help`.
    Every event is on disk before the next prompt. With input from a pipe,
    the exit status is 1 when some line was refused.
    """
    interactive = sys.stdin.isatty()
    if background is None:
        background = interactive
    deck = read_deck(deck_file)
    tab = SetupCompleter()
    if interactive:
        setup_readline(tab.complete)
    path = log or click.prompt("Log file", default=free_name())
    with LogLock(path):
        if is_new(path):
            session = _create(path, deck, tab)
        else:
            session = Session(path)
            if deck is not None:
                raise click.UsageError(
                    f"--deck: {path} exists; its header names its deck (a "
                    "new log carries --deck inline)"
                )
        refuse_options(session.game, "play")
        wait = WAIT_BUDGET if budget is None else budget
        options = with_model_file(
            SolveOptions(budget=wait, hard=hard, jobs=jobs, guesser=guesser),
            session.game,
            model_file,
        )
        repl = Repl(session, options, wait, interactive, ladder(budget) if background else None)
        if interactive:
            use_completer(repl.complete)
            repl.watch_prompt()
            catch_ctrl_c()
        repl.run()
    if repl.refused and not interactive:
        sys.exit(1)  # a script of lines: say that some were refused
