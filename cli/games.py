"""``deduce simulate`` and ``deduce check``: whole games played by bots."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from deduce.games.protocol import CheckOptions, Game
from deduce.games.simulate import bot_lineup, write_game
from deduce.games.simulate import simulate as simulate_games
from deduce.registry import GAMES
from deduce.report import plural
from deduce.workers import Workers

from .options import COMMAND_SETTINGS, emit, output_options, refuse_options, workers_options
from .progress import progress
from .status import EXIT_UNSOUND


def _game_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by ``simulate`` and ``check``: the game, seats, games, seed, bots, data."""
    bots = "; ".join(f"{g}: {', '.join(s.simulator.bots)}" for g, s in GAMES.items())
    defaults = ", ".join(f"{g}: {s.simulator.default_bot}" for g, s in GAMES.items())
    for option in reversed(
        (
            click.argument("game", type=click.Choice(tuple(GAMES))),
            click.option(
                "--players",
                type=click.IntRange(min=2),
                default=4,
                show_default=True,
                help="Seats at the table (abbey: 3 to 6; rose: 2 to 5; blackrose: 3 to 5).",
            ),
            click.option(
                "--games",
                type=click.IntRange(min=1),
                default=10,
                show_default=True,
                help="How many games.",
            ),
            click.option(
                "--seed",
                type=int,
                default=1,
                show_default=True,
                help="Seed of the run: the same seed gives the same games.",
            ),
            click.option(
                "--bots",
                metavar="NAMES",
                help=f"Comma-separated bots ({bots}): one for every seat, or one per "
                f"seat in order. Default: {defaults}.",
            ),
            workers_options(1, "Processes to use (0: every core)."),
            click.option(
                "--deck",
                metavar="FILE",
                help="Abbey: suspect cards (24) replacing the bundled default deck.",
            ),
            click.option(
                "--board",
                metavar="FILE",
                help="Abbey: rooms and doors replacing the bundled default board.",
            ),
            click.option(
                "--cards",
                metavar="FILE",
                help="Abbey: Mass, event, book and crypt cards; Black Rose: clue and Rector "
                "cards (replacing the defaults).",
            ),
            click.option(
                "--data",
                metavar="FILE",
                help="Rose: buildings, action cards, task and event tiles replacing the defaults.",
            ),
        )
    ):
        command = option(command)
    return command


def _setup(
    name: str, players: int, bots: str | None, files: dict[str, str | None]
) -> tuple[Game, Any, tuple[str, ...]]:
    """The game, its engine's table with the user's data files, and each seat's bot."""
    game = GAMES[name]
    simulator = game.simulator
    table = simulator.create(players, files)
    lineup = bot_lineup((bots or simulator.default_bot).split(","), players, simulator.bots)
    return game, table, lineup


@click.command(context_settings=COMMAND_SETTINGS)
@_game_options
@click.option(
    "--out", required=True, metavar="DIR", help="Folder to write the games into (new or empty)."
)
@click.option(
    "--force",
    is_flag=True,
    help="Write into a folder that is not empty: its game-NNNN folders are removed "
    "first, so that old and new games never mix.",
)
def simulate(
    game: str,
    players: int,
    games: int,
    seed: int,
    bots: str | None,
    workers: Workers,
    out: str,
    force: bool,
    **files: str | None,
) -> None:
    """Play GAME with bots and write each game's truth and every player's log.

    Writes DIR/game-NNNN/truth.json and DIR/game-NNNN/PLAYER.jsonl.
    """
    owner, table, lineup = _setup(game, players, bots, files)
    folder = Path(out)
    _clear(folder, force)
    records = simulate_games(owner.simulator.record, table, games, seed, lineup, workers)
    for record in progress(records, games, "Simulating"):
        write_game(record, folder)
    click.echo(f"{plural(games, 'game')} written to {out}", err=True)


def _clear(folder: Path, force: bool) -> None:
    """Refuse a folder that is not empty, or with ``force`` remove its old games."""
    if folder.exists() and not folder.is_dir():
        raise click.UsageError(f"--out {folder}: not a folder")
    used = sorted(folder.iterdir()) if folder.is_dir() else []
    if not used:
        return
    if not force:
        raise click.UsageError(
            f"--out {folder} is not empty: old and new games would mix "
            "(choose a new folder, or --force to replace its games)"
        )
    for old in used:
        if old.is_dir() and old.name.startswith("game-"):
            shutil.rmtree(old)


@click.command(context_settings=COMMAND_SETTINGS)
@_game_options
@click.option(
    "--budget",
    type=click.FloatRange(min=0),
    default=0.2,
    show_default=True,
    metavar="SECONDS",
    help="Abbey: time for each position's solve.",
)
@click.option(
    "--every",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Abbey: check after every N-th event of each log (the whole log always).",
)
@click.option(
    "--fast",
    is_flag=True,
    help="Abbey: check the propagated model only (no counting, no estimates).",
)
@click.option(
    "--model",
    "model_file",
    metavar="FILE",
    help="Rose: behaviour model; Black Rose: claims model (replacing the bundled parameters).",
)
@output_options
def check(
    game: str,
    players: int,
    games: int,
    seed: int,
    bots: str | None,
    workers: Workers,
    budget: float,
    every: int,
    fast: bool,
    model_file: str | None,
    output: str,
    **files: str | None,
) -> None:
    """Simulate GAME and check the solver on every player's log against the truth.

    Abbey: after every event, the truth must survive and the culprit's
    determination is timed. Rose: at the seventh day's guesses, the truth
    must survive; Brier score and guess accuracy with and without the
    behaviour model. Black Rose: at every vote, the same with and without
    the claims, and each side's wins. Exits with status 4 when the truth was
    ever eliminated.
    """
    refuse_options(game, "check")
    owner, table, lineup = _setup(game, players, bots, files)
    model = owner.load("model", model_file) if model_file else None
    results = owner.check(
        table, games, seed, lineup, workers, CheckOptions(budget, every, fast, model)
    )
    found = owner.check_report(players, list(progress(results, games, "Checking")))
    emit(output, found.data, found.tables)
    if found.failures:
        sys.exit(EXIT_UNSOUND)
