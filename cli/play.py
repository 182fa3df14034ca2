"""``deduce play``: the live assistant at the table, a thin read-eval-print loop.

Each input line is an event in the line syntax (its first word is an event
type of the game; a bare ``show`` is the command) or a command of
:data:`COMMANDS`. A new command is one more entry there. The work is done by
:mod:`deduce.assist`: the session writes the log, the solver answers, and
this module only reads lines and prints.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

import click

from deduce.assist.compact import compact_tables, contradiction
from deduce.assist.complete import EVENT, TOPIC, WHY, answer_candidates, candidates, completed
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
from deduce.logs.model import GAMES, Event, GameLog
from deduce.logs.schema import event_types
from deduce.logs.text import show_event, usage
from deduce.logs.vocabulary.abbey import Deck, load_deck_file
from deduce.registry import game as game_named
from deduce.report import render
from deduce.solving import (
    Solution,
    SolveOptions,
    rule_warnings,
    solution_tables,
    solve_log,
    with_model_file,
)
from deduce.suggest import suggest

from .options import COMMAND_SETTINGS, refuse_options

#: Where readline history is kept, unless the environment variable DEDUCE_HISTORY says.
HISTORY = "~/.deduce_history"
#: Lines of history kept.
HISTORY_LENGTH = 1000
#: What follows a contradiction in the log: the event that revealed it is kept.
KEPT = (" Every event is kept (the wrong one may be an earlier line): type `explain` for "
        "why, `undo` to remove the last event.")


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
    """The loop over one session: reads lines, records events, answers commands."""

    def __init__(self, session: Session, options: SolveOptions, budget: float,
                 interactive: bool) -> None:
        self.session = session
        self.options = options
        self.budget = budget
        self.interactive = interactive
        self.refused = 0
        self._solved: tuple[GameLog, Solution | Inconsistent] | None = None
        self._warm = game_named(self.session.game).warm()
        self._matches: list[str] = []

    @property
    def game(self) -> str:
        """The log's game."""
        return self.session.game

    # ---------------------------------------------------------------- solving and printing

    def solution(self, full: bool = False) -> Solution | Inconsistent:
        """The solution of the log as the file holds it now (solved again only if it changed).

        ``full``: an inconsistent log comes with its conflicting lines and their
        explanation (see :mod:`deduce.assist.live`).
        """
        log = self.session.refresh()
        known = self._solved[1] if self._solved is not None and self._solved[0] == log else None
        if known is None or (full and isinstance(known, Inconsistent)):
            known = (solve_log(log, self.options, self._warm) if full
                     else solve_live(log, self.options, self._warm))
            self._solved = (log, known)
        return known

    def full_solution(self) -> Solution:
        """The solution with a contradiction's lines and explanation (``explain``, ``show``)."""
        solution = self.solution(full=True)
        assert not isinstance(solution, Inconsistent)
        return solution

    def show_compact(self, solution: Solution | Inconsistent, hint: str = "") -> None:
        """The short tables of a solution, or the one-line contradiction followed by ``hint``."""
        if solution.consistent:
            click.echo(render(compact_tables(solution)))
        else:
            click.echo(f"{contradiction(solution)}{hint}")

    def text(self, event: Event) -> str:
        """An event as ``line N: <line syntax>``."""
        return f"line {event.line}: {show_event(event, self.game)}"

    # ---------------------------------------------------------------- the loop

    def run(self) -> None:
        """Greet, then handle lines until ``quit``, Ctrl-D or the end of the input."""
        log = self.session.log
        me = log.header.me or SPECTATOR
        click.echo(f"{self.session.path}: {self.game}, players {' '.join(log.header.players)}, "
                   f"you are {me}; {len(log.events)} events. Type `help` for the commands.")
        self.show_compact(self.solution(), KEPT)
        while (line := self.read()) is not None:
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
                line = input(f"{self.game}> ")
            except KeyboardInterrupt:
                click.echo("")
                continue
            except EOFError:
                click.echo("")
                return None
            _remember(line)
            return line

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
            raise DeduceError(f"unknown command {name!r} (commands: {', '.join(COMMANDS)}; "
                              f"{self.game} events: {', '.join(event_types(self.game))})")

    def record(self, line: str) -> None:
        """Write one event to the log (on disk before this returns), then show the tables.

        If the file changed on disk since this session last wrote it, say so
        first: the event goes after what is there now.
        """
        if self.session.changed_on_disk():
            click.echo(f"Note: {self.session.path} changed on disk since deduce last read or "
                       "wrote it; the event goes after its current content.", err=True)
        event = self.session.add(line)
        click.echo(f"Recorded {self.text(event)}")
        for warning in rule_warnings(self.session.log, self.options, event.line):
            click.echo(f"Warning: {warning}", err=True)
        self.show_compact(self.solution(), KEPT)

    # ---------------------------------------------------------------- completion

    def complete(self, text: str, state: int) -> str | None:
        """The readline completer: the ``state``-th word completing the current one."""
        import readline

        if state == 0:
            line = readline.get_line_buffer()[:readline.get_endidx()]
            commands = {name: c.argument for name, c in COMMANDS.items()}
            known = vocabulary(self.session.log.header, self.session.path)
            self._matches = completed(candidates(line, self.game, known, commands))
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
            click.echo(f"  {command.usage.format(**topics):<{width}}  "
                       f"{command.help.splitlines()[0].format(**topics)}")
        click.echo(f"Events ({game}), recorded in the log: type them as below "
                   "(`help EVENT` for one).")
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
    repl.show_compact(repl.solution(), " Type `explain` for why.")


def _line_number(args: list[str], usage: str) -> int:
    """The LINE argument of ``edit`` and ``drop``."""
    if not args or not args[0].isdigit():
        raise DeduceError(f"usage: {usage}")
    return int(args[0])


def _drop(repl: Repl, args: list[str]) -> None:
    """Remove the event on a line from the file, then show the tables."""
    if len(args) != 1:
        raise DeduceError("usage: drop LINE")
    event = repl.session.drop(_line_number(args, "drop LINE"))
    click.echo(f"Removed {repl.text(event)}")
    repl.show_compact(repl.solution(), " Type `explain` for why.")


def _edit(repl: Repl, args: list[str]) -> None:
    """Replace the event on a line, then show the tables."""
    if len(args) < 2:
        raise DeduceError("usage: edit LINE EVENT")
    old, new = repl.session.edit(_line_number(args, "edit LINE EVENT"), " ".join(args[1:]))
    click.echo(f"Replaced line {old.line}: {show_event(old, repl.game)}\n"
               f"      with {repl.text(new)}")
    repl.show_compact(repl.solution(), " Type `explain` for why.")


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
    click.echo(f"{size} set of events that rules it out (remove any one and it is possible "
               "again):")
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
    """The full tables of ``deduce solve``."""
    click.echo(render(solution_tables(repl.full_solution())))


def _suggest(repl: Repl, args: list[str]) -> None:
    """What to do next, as ``deduce suggest`` advises it, from the solve the table shows."""
    solution = repl.solution()
    shown = None if isinstance(solution, Inconsistent) else solution
    click.echo(render(suggest(repl.session.refresh(), repl.options, solution=shown).tables))


def _quit(repl: Repl, args: list[str]) -> None:
    """Leave (every recorded event is already saved)."""
    raise _Quit


#: The commands, in the order ``help`` lists them.
COMMANDS: dict[str, Command] = {
    "help": Command(_help, "help [COMMAND|EVENT]",
                    "Show the commands and events, or one of them in full.", TOPIC),
    "undo": Command(_undo, "undo",
                    "Remove the last event from the log file.\n"
                    "The file is rewritten atomically; every other line stays as it was."),
    "drop": Command(_drop, "drop LINE",
                    "Remove the event on LINE from the log file.\n"
                    "The file is rewritten atomically; every other line stays as it was, and "
                    "the log without it must still be valid."),
    "edit": Command(_edit, "edit LINE EVENT",
                    "Replace the event on LINE with EVENT (line syntax).\n"
                    "The file is rewritten atomically; every other line stays as it was, and "
                    "the log with it must be valid."),
    "why": Command(_why, "{why}",
                   "Show the events that rule an answer out.\n{why_meaning}\n"
                   "The set is minimal: remove any one of its events and the answer is possible "
                   "again.\nIt says `the smallest` when every smaller set of the log's events was "
                   "tried (within --budget seconds).\nAn Abbey draw, take or Mass in it stands "
                   "for the cards it names; soft evidence (behaviour, claims) rules nothing out.",
                   WHY),
    "what-if": Command(_what_if, "what-if EVENT",
                       "Show the tables if EVENT were recorded, without writing it.", EVENT),
    "explain": Command(_explain, "explain",
                       "Explain a contradiction: which lines cannot all be true, and why."),
    "show": Command(_show, "show", "Show the full tables of `deduce solve`."),
    "suggest": Command(_suggest, "suggest",
                       "Advise what to do next, as `deduce suggest` does.\n"
                       "Abbey: the questions and rooms worth most, and whether to accuse; "
                       "Black Rose: where to investigate and whom to accuse; Rose: the day-7 "
                       "guesses."),
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
            typed = readline.get_line_buffer()[:readline.get_endidx()]
            if self.event is None:
                found = answer_candidates(typed, self.words)
            else:
                prefix, game, known = self.event
                found = candidates(f"{prefix} {typed}", game, known, {})
            self._matches = completed(found)
        return self._matches[state] if state < len(self._matches) else None



def _history_file() -> str:
    """The readline history file (``DEDUCE_HISTORY``, else ``~/.deduce_history``)."""
    return os.path.expanduser(os.environ.get("DEDUCE_HISTORY") or HISTORY)


def _setup_readline(completer: Callable[[str, int], str | None]) -> None:
    """Tab completion and the history file (loaded now, one line appended per line typed)."""
    try:
        import readline
    except ImportError:  # no readline on this platform: plain input
        return
    readline.set_completer_delims(" \t\n,")  # setup answers may list words with commas
    readline.set_completer(completer)
    libedit = "libedit" in (readline.__doc__ or "")
    readline.parse_and_bind("bind ^I rl_complete" if libedit else "tab: complete")
    readline.clear_history()
    readline.set_history_length(HISTORY_LENGTH)
    path = _history_file()
    with contextlib.suppress(OSError):
        open(path, "a").close()  # lines are appended to it as they are typed
        readline.read_history_file(path)
        readline.write_history_file(path)  # keeps the last HISTORY_LENGTH lines


def _use_completer(completer: Callable[[str, int], str | None]) -> None:
    """Hand tab completion to ``completer`` (the event prompt, once the setup is done)."""
    with contextlib.suppress(ImportError):
        import readline

        readline.set_completer(completer)


def _catch_ctrl_c() -> None:
    """Make Ctrl-C clear the line at the prompt, even if the program started with it ignored.

    A program started with SIGINT ignored (by a launcher, a test runner)
    would keep ignoring it, so the prompt installs Python's own handler.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _remember(line: str) -> None:
    """Append a typed line to the history file, so a crash loses none of it."""
    if not line.strip():
        return
    try:
        import readline

        readline.append_history_file(1, _history_file())
    except (ImportError, OSError):
        pass


def _message(exc: DeduceError) -> str:
    """An error about a new log's answers, without the file and line of the header."""
    return exc.message if isinstance(exc, LogError) else str(exc)


def _create(path: str, deck: Deck | None, tab: SetupCompleter) -> Session:
    """Ask the game, the players, who you are and the game's header keys; write the header.

    Then ask the observer's own hand (Abbey) or role (Black Rose): the log's
    first events. ``deck`` (``--deck``) goes inline into an Abbey header.
    ``tab`` completes each answer from what its question accepts.
    """
    click.echo(f"New log: {path}")
    tab.words = GAMES
    choice = click.Choice(GAMES)
    game = click.prompt("Game", type=choice,
                        value_proc=lambda answer: choice.convert(answer.strip().lower(), None,
                                                                 None))
    refuse_options(game, "play")
    players: str | None = None
    me: str | None = None
    answers: dict[str, str] = {}
    while True:
        tab.words = ()
        players = click.prompt("Players, in turn order", default=players)
        tab.words = (*words(players), SPECTATOR)
        me = click.prompt(f"Who are you ({', '.join(words(players))} or {SPECTATOR})",
                          default=me)
        for question in questions(game, words(players)):
            tab.words = words(players) if question.kind == "player" else ()
            optional = "" if not question.required else None
            answers[question.key] = click.prompt(question.prompt,
                                                 default=answers.get(question.key, optional),
                                                 show_default=question.required)
        raw = raw_header(game, players, me, answers)
        if deck is not None:
            raw["deck"] = deck.to_json()
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
            line = opening_event(question, click.prompt(question.prompt, default="",
                                                        show_default=False))
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
@click.option("--budget", type=click.FloatRange(min=0), default=2.0, show_default=True,
              metavar="SECONDS",
              help="Abbey: time for each solve after an event (past it the chances are "
                   "estimated) and for the exact values of `suggest`. Every game: time to "
                   "look for the smallest `why` answer.")
@click.option("--hard", is_flag=True, help="Ignore soft evidence (Rose behaviour, Black Rose "
                                           "claims).")
@click.option("--deck", "deck_file", metavar="FILE",
              help="Abbey: your deck file (`deduce deck template` writes one to fill in); a "
                   "new log carries it inline in its header.")
@click.option("--model", "model_file", metavar="FILE",
              help="Rose: behaviour model; Black Rose: claims model.")
def play(log: str | None, budget: float, hard: bool, deck_file: str | None,
         model_file: str | None) -> None:
    """Play along at the table: record events in LOG and see the chances after each one.

    LOG is continued if it exists (a .jsonl file in JSON Lines, any other in
    the line syntax); otherwise it is created after a few questions. Without
    LOG, the file name is asked. Type events in the line syntax, or `help`.
    Every event is on disk before the next prompt. With input from a pipe,
    the exit status is 1 when some line was refused.
    """
    interactive = sys.stdin.isatty()
    deck = load_deck_file(deck_file) if deck_file else None
    tab = SetupCompleter()
    if interactive:
        _setup_readline(tab.complete)
    path = log or click.prompt("Log file", default=free_name())
    with LogLock(path):
        if is_new(path):
            session = _create(path, deck, tab)
        else:
            session = Session(path)
            if deck is not None:
                raise click.UsageError(f"--deck: {path} exists; its header names its deck (a "
                                       "new log carries --deck inline)")
        refuse_options(session.game, "play")
        options = with_model_file(SolveOptions(budget=budget, hard=hard), session.game,
                                  model_file)
        repl = Repl(session, options, budget, interactive)
        if interactive:
            _use_completer(repl.complete)
            _catch_ctrl_c()
        repl.run()
    if repl.refused and not interactive:
        sys.exit(1)  # a script of lines: say that some were refused
