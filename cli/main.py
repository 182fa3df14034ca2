"""The root ``deduce`` command group and its commands."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import click

from cli.options import emit, output_options
from deduce import __version__
from deduce.errors import DeduceError
from deduce.games.abbey import report as abbey_report
from deduce.games.abbey.board import load_board_file
from deduce.games.abbey.bots import BOTS
from deduce.games.abbey.cards import load_cards_file
from deduce.games.abbey.check import CheckSummary, check_games
from deduce.games.abbey.deck import load_deck_file
from deduce.games.abbey.engine import AbbeyGame
from deduce.games.abbey.simulate import record_game
from deduce.games.abbey.solve import ENGINES, AbbeySolution, solve_abbey
from deduce.games.rose import report as rose_report
from deduce.games.rose.solve import RoseSolution, solve_rose
from deduce.games.simulate import bot_lineup, write_game
from deduce.games.simulate import simulate as simulate_games
from deduce.logs.io import (
    SYNTAXES,
    detect_syntax,
    format_log,
    parse_log,
    read_log,
    read_log_text,
    write_log,
)

#: Exit status of ``solve`` when the log contradicts itself.
EXIT_INCONSISTENT = 3
#: Exit status of ``check`` when the solver eliminated the truth.
EXIT_UNSOUND = 4
#: Exit status on an unexpected internal error.
EXIT_INTERNAL = 70


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deduce")
def cli() -> None:
    """Exact deduction for Mystery of the Abbey, The Name of the Rose and The Black Rose."""


@cli.command()
@click.argument("log")
@click.option("--deck", "deck_file", metavar="FILE",
              help="Abbey deck file (JSON list of cards) replacing the bundled default deck.")
@click.option("--engine", type=click.Choice(ENGINES), default="count", show_default=True,
              help="count: exact counting; csp: python-constraint search, checked against it.")
@click.option("--hard", is_flag=True, help="Ignore soft (behaviour) events.")
@click.option("--budget", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="Time for exact probabilities; past it they are estimated (candidates "
                   "stay exact). Default: no limit, always exact.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the estimate's random moves (with --budget).")
@output_options
def solve(log: str, deck_file: str | None, engine: str, hard: bool, budget: float | None,
          seed: int, output: str) -> None:
    """Solve LOG (canonical JSON Lines or line syntax): candidates and probabilities.

    Exits with status 3 when the log contradicts itself.
    """
    deck = load_deck_file(deck_file) if deck_file else None
    game_log = read_log(log, deck)
    solution: AbbeySolution | RoseSolution
    if game_log.header.game == "abbey":
        solution = solve_abbey(game_log, deck, engine, budget=budget, seed=seed)
        tables = abbey_report.tables(solution)
    elif game_log.header.game == "rose":
        solution = solve_rose(game_log, hard=hard)
        tables = rose_report.tables(solution)
    else:
        raise DeduceError(f"{log}: solving {game_log.header.game} logs is not supported yet")
    emit(output, solution.to_json(), tables)
    if not solution.consistent:
        sys.exit(EXIT_INCONSISTENT)


@cli.command()
@click.argument("log")
@click.option("--to", "syntax", type=click.Choice(SYNTAXES),
              help="Target syntax (default: the other one).")
@click.option("-o", "--output", "out", metavar="FILE",
              help="Write to this file (atomically) instead of standard output.")
@click.option("--deck", "deck_file", metavar="FILE",
              help="Abbey deck file used to check card names.")
def convert(log: str, syntax: str | None, out: str | None, deck_file: str | None) -> None:
    """Convert LOG between the canonical JSON Lines and the line syntax, without loss."""
    deck = load_deck_file(deck_file) if deck_file else None
    text = read_log_text(log)
    game_log = parse_log(text, log, deck)
    target = syntax or next(s for s in SYNTAXES if s != detect_syntax(text))
    if out:
        write_log(game_log, out, target)
    else:
        click.echo(format_log(game_log, target), nl=False)


GAMES_SIMULATED = ("abbey",)


def _game_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by ``simulate`` and ``check``: players, games, seed, bots, workers."""
    for option in reversed((
        click.argument("game", type=click.Choice(GAMES_SIMULATED)),
        click.option("--players", type=click.IntRange(3, 6), default=4, show_default=True,
                     help="Seats at the table."),
        click.option("--games", type=click.IntRange(min=1), default=10, show_default=True,
                     help="How many games."),
        click.option("--seed", type=int, default=1, show_default=True,
                     help="Seed of the run: the same seed gives the same games."),
        click.option("--bots", default="notepad", show_default=True, metavar="NAMES",
                     help=f"Comma-separated bots ({', '.join(BOTS)}): one for every seat, "
                          "or one per seat in order."),
        click.option("--workers", type=click.IntRange(min=0), default=1, show_default=True,
                     help="Processes to use (0: every core)."),
        click.option("--deck", "deck_file", metavar="FILE",
                     help="Suspect cards (24) replacing the bundled default deck."),
        click.option("--board", "board_file", metavar="FILE",
                     help="Rooms and doors replacing the bundled default board."),
        click.option("--cards", "cards_file", metavar="FILE",
                     help="Mass, event, book and crypt cards replacing the bundled defaults."),
    )):
        command = option(command)
    return command


def _table(players: int, deck_file: str | None, board_file: str | None,
           cards_file: str | None) -> AbbeyGame:
    """The game to simulate, with any data files the user gave."""
    return AbbeyGame.create(players, load_deck_file(deck_file) if deck_file else None,
                            load_board_file(board_file) if board_file else None,
                            load_cards_file(cards_file) if cards_file else None)


def _progress(items: Iterable[Any], total: int, label: str) -> Iterator[Any]:
    """Yield ``items``, with a progress bar on standard error for long runs."""
    if total < 5:
        yield from items
        return
    with click.progressbar(items, length=total, label=label, file=sys.stderr) as bar:
        yield from bar


@cli.command()
@_game_options
@click.option("--out", required=True, metavar="DIR", help="Folder to write the games into.")
def simulate(game: str, players: int, games: int, seed: int, bots: str, workers: int,
             deck_file: str | None, board_file: str | None, cards_file: str | None,
             out: str) -> None:
    """Play GAME with bots and write each game's truth and every player's log.

    Writes DIR/game-NNNN/truth.json and DIR/game-NNNN/PLAYER.jsonl.
    """
    del game  # only abbey so far
    table = _table(players, deck_file, board_file, cards_file)
    lineup = bot_lineup(bots.split(","), players, BOTS)
    for record in _progress(simulate_games(record_game, table, games, seed, lineup, workers), games,
                            "Simulating"):
        write_game(record, Path(out))
    click.echo(f"{games} game{'s' if games != 1 else ''} written to {out}", err=True)


@cli.command()
@_game_options
@click.option("--budget", type=click.FloatRange(min=0), default=0.2, show_default=True,
              metavar="SECONDS", help="Time for each position's solve.")
@click.option("--every", type=click.IntRange(min=1), default=1, show_default=True,
              help="Check after every N-th event of each log (the whole log always).")
@click.option("--fast", is_flag=True,
              help="Check the propagated model only (no counting, no estimates).")
@output_options
def check(game: str, players: int, games: int, seed: int, bots: str, workers: int,
          deck_file: str | None, board_file: str | None, cards_file: str | None,
          budget: float, every: int, fast: bool, output: str) -> None:
    """Simulate GAME and check the solver on every player's log against the truth.

    Exits with status 4 when the truth was ever eliminated (a soundness failure).
    """
    del game  # only abbey so far
    table = _table(players, deck_file, board_file, cards_file)
    lineup = bot_lineup(bots.split(","), players, BOTS)
    runs = check_games(table, games, seed, lineup, budget, every, fast, workers)
    checks = [c for run in _progress(runs, games, "Checking") for c in run]
    summary = CheckSummary.of(checks)
    emit(output, summary.to_json(), abbey_report.check_tables(summary))
    if summary.failures:
        sys.exit(EXIT_UNSOUND)


def main() -> None:
    """Console entry point: library errors become one-line messages, never tracebacks."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except DeduceError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except Exception as exc:  # the user gets one line, never a traceback
        if os.environ.get("DEDUCE_DEBUG"):
            raise
        click.echo(f"Error: internal error ({type(exc).__name__}: {exc}); "
                   "set DEDUCE_DEBUG=1 for details and please report it", err=True)
        sys.exit(EXIT_INTERNAL)
