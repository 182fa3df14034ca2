"""The root ``deduce`` command group and its commands."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from cli.analyze import analyze
from cli.batch import batch
from cli.options import (
    EXIT_INCONSISTENT,
    EXIT_INTERNAL,
    EXIT_UNSOUND,
    emit,
    output_options,
    refuse_options,
)
from cli.play import play
from cli.progress import progress
from cli.suggest import suggest
from deduce import __version__
from deduce.errors import DeduceError
from deduce.games.abbey import check as abbey_check
from deduce.games.abbey import report as abbey_report
from deduce.games.abbey.deck import load_deck_file
from deduce.games.abbey.solve import ENGINES
from deduce.games.blackrose import check as blackrose_check
from deduce.games.blackrose import claims as blackrose_claims
from deduce.games.blackrose import report as blackrose_report
from deduce.games.rose import check as rose_check
from deduce.games.rose import report as rose_report
from deduce.games.rose.behaviour import load_model_file
from deduce.games.simulate import bot_lineup, write_game
from deduce.games.simulate import simulate as simulate_games
from deduce.games.simulators import SIMULATORS, Simulator
from deduce.logs.io import (
    SYNTAXES,
    detect_syntax,
    format_log,
    parse_log,
    read_log,
    read_log_text,
    write_log,
)
from deduce.solving import SolveOptions, solution_tables, solve_log


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
@click.option("--model", "model_file", metavar="FILE",
              help="Rose: behaviour model; Black Rose: claims model (replacing the bundled "
                   "parameters).")
@click.option("--budget", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="Time for exact probabilities; past it they are estimated (candidates "
                   "stay exact). Default: no limit, always exact.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the estimate's random moves (with --budget).")
@output_options
def solve(log: str, deck_file: str | None, engine: str, hard: bool, model_file: str | None,
          budget: float | None, seed: int, output: str) -> None:
    """Solve LOG (canonical JSON Lines or line syntax): candidates and probabilities.

    Exits with status 3 when the log contradicts itself.
    """
    deck = load_deck_file(deck_file) if deck_file else None
    game_log = read_log(log, deck)
    refuse_options(game_log.header.game, {"abbey": ("deck_file", "engine", "budget", "seed"),
                                          "rose": ("model_file",),
                                          "blackrose": ("model_file",)})
    options = SolveOptions(deck=deck, engine=engine, hard=hard, budget=budget, seed=seed)
    options = options.with_model_file(game_log.header.game, model_file)
    solution = solve_log(game_log, options)
    tables = solution_tables(solution)
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


def _game_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by ``simulate`` and ``check``: the game, seats, games, seed, bots, data."""
    bots = "; ".join(f"{g}: {', '.join(s.bots)}" for g, s in SIMULATORS.items())
    defaults = ", ".join(f"{g}: {s.default_bot}" for g, s in SIMULATORS.items())
    for option in reversed((
        click.argument("game", type=click.Choice(tuple(SIMULATORS))),
        click.option("--players", type=click.IntRange(min=2), default=4, show_default=True,
                     help="Seats at the table (abbey: 3 to 6; rose: 2 to 5; blackrose: 3 to 5)."),
        click.option("--games", type=click.IntRange(min=1), default=10, show_default=True,
                     help="How many games."),
        click.option("--seed", type=int, default=1, show_default=True,
                     help="Seed of the run: the same seed gives the same games."),
        click.option("--bots", metavar="NAMES",
                     help=f"Comma-separated bots ({bots}): one for every seat, or one per "
                          f"seat in order. Default: {defaults}."),
        click.option("--workers", type=click.IntRange(min=0), default=1, show_default=True,
                     help="Processes to use (0: every core)."),
        click.option("--deck", metavar="FILE",
                     help="Abbey: suspect cards (24) replacing the bundled default deck."),
        click.option("--board", metavar="FILE",
                     help="Abbey: rooms and doors replacing the bundled default board."),
        click.option("--cards", metavar="FILE",
                     help="Abbey: Mass, event, book and crypt cards; Black Rose: clue and Rector "
                          "cards (replacing the defaults)."),
        click.option("--data", metavar="FILE",
                     help="Rose: buildings, action cards, task and event tiles replacing the "
                          "defaults."),
    )):
        command = option(command)
    return command


def _setup(game: str, players: int, bots: str | None,
           files: dict[str, str | None]) -> tuple[Simulator, Any, tuple[str, ...]]:
    """The simulator, the game with the user's data files, and each seat's bot."""
    simulator = SIMULATORS[game]
    table = simulator.create(players, files)
    lineup = bot_lineup((bots or simulator.default_bot).split(","), players, simulator.bots)
    return simulator, table, lineup


@cli.command()
@_game_options
@click.option("--out", required=True, metavar="DIR", help="Folder to write the games into.")
def simulate(game: str, players: int, games: int, seed: int, bots: str | None, workers: int,
             out: str, **files: str | None) -> None:
    """Play GAME with bots and write each game's truth and every player's log.

    Writes DIR/game-NNNN/truth.json and DIR/game-NNNN/PLAYER.jsonl.
    """
    simulator, table, lineup = _setup(game, players, bots, files)
    records = simulate_games(simulator.record, table, games, seed, lineup, workers)
    for record in progress(records, games, "Simulating"):
        write_game(record, Path(out))
    click.echo(f"{games} game{'s' if games != 1 else ''} written to {out}", err=True)


@cli.command()
@_game_options
@click.option("--budget", type=click.FloatRange(min=0), default=0.2, show_default=True,
              metavar="SECONDS", help="Abbey: time for each position's solve.")
@click.option("--every", type=click.IntRange(min=1), default=1, show_default=True,
              help="Abbey: check after every N-th event of each log (the whole log always).")
@click.option("--fast", is_flag=True,
              help="Abbey: check the propagated model only (no counting, no estimates).")
@click.option("--model", "model_file", metavar="FILE",
              help="Rose: behaviour model; Black Rose: claims model (replacing the bundled "
                   "parameters).")
@output_options
def check(game: str, players: int, games: int, seed: int, bots: str | None, workers: int,
          budget: float, every: int, fast: bool, model_file: str | None, output: str,
          **files: str | None) -> None:
    """Simulate GAME and check the solver on every player's log against the truth.

    Abbey: after every event, the truth must survive and the culprit's
    determination is timed. Rose: at the seventh day's guesses, the truth
    must survive; Brier score and guess accuracy with and without the
    behaviour model. Black Rose: at every vote, the same with and without
    the claims, and each side's wins. Exits with status 4 when the truth was
    ever eliminated.
    """
    refuse_options(game, {"abbey": ("budget", "every", "fast"), "rose": ("model_file",),
                           "blackrose": ("model_file",)})
    _, table, lineup = _setup(game, players, bots, files)
    summary: abbey_check.CheckSummary | rose_check.CheckSummary | blackrose_check.CheckSummary
    if game == "abbey":
        runs = abbey_check.check_games(table, games, seed, lineup, budget, every, fast, workers)
        summary = abbey_check.CheckSummary.of(
            [c for run in progress(runs, games, "Checking") for c in run])
        tables = abbey_report.check_tables(summary)
    elif game == "rose":
        model = load_model_file(model_file) if model_file else None
        checks = rose_check.check_games(table, games, seed, lineup, model, workers)
        summary = rose_check.CheckSummary.of(players, list(progress(checks, games, "Checking")))
        tables = rose_report.check_tables(summary)
    else:
        claims = blackrose_claims.load_model_file(model_file) if model_file else None
        found = blackrose_check.check_games(table, games, seed, lineup, claims, workers)
        summary = blackrose_check.CheckSummary.of(players,
                                                  list(progress(found, games, "Checking")))
        tables = blackrose_report.check_tables(summary)
    emit(output, summary.to_json(), tables)
    if summary.failures:
        sys.exit(EXIT_UNSOUND)


cli.add_command(suggest)
cli.add_command(batch)
cli.add_command(analyze)
cli.add_command(play)


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


if __name__ == "__main__":
    main()
