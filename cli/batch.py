"""``deduce batch``: solve every log of some files and folders, in parallel, and sum up."""

from __future__ import annotations

import sys
import time

import click

from deduce.batch import BatchSummary, batch_json, batch_tables, find_logs, solve_files
from deduce.solving import SolveOptions
from deduce.workers import Workers

from .options import (
    COMMAND_SETTINGS,
    budget_options,
    emit,
    output_options,
    read_deck,
    workers_options,
)
from .progress import progress
from .status import EXIT_INCONSISTENT

#: Exit status when some log is invalid or hit an internal error.
EXIT_FAILED = 1


@click.command(context_settings=COMMAND_SETTINGS)
@click.argument("paths", nargs=-1, required=True, metavar="FILES_OR_DIRS...")
@workers_options(0, "Processes to use (0: every core; 1: no extra process).")
@click.option(
    "--deck",
    "deck_file",
    metavar="FILE",
    help="Abbey deck file (JSON list of cards) replacing the bundled default deck.",
)
@click.option("--hard", is_flag=True, help="Ignore soft (behaviour) events.")
@budget_options
@output_options
def batch(
    paths: tuple[str, ...],
    workers: Workers,
    deck_file: str | None,
    hard: bool,
    budget: float | None,
    seed: int,
    output: str,
) -> None:
    """Solve every log in FILES_OR_DIRS (any game, mixed) and sum up.

    A folder is searched recursively for files ending in .jsonl or .log; a
    file named explicitly is solved whatever its name. Options that concern
    one game (--deck, --budget, --seed: Abbey; --hard: Rose and Black Rose)
    apply to that game's logs. Every log is solved even when some are bad.
    --csv prints the table of logs. Exits with status 1 when a log is
    invalid or could not be solved, otherwise 3 when a log contradicts itself.
    """
    logs = find_logs(paths)
    if not logs:
        raise click.UsageError("no logs found (a folder's logs end in .jsonl or .log)")
    deck = read_deck(deck_file)
    options = SolveOptions(deck=deck, hard=hard, budget=budget, seed=seed)
    start = time.perf_counter()
    results = list(progress(solve_files(logs, options, workers), len(logs), "Solving"))
    summary = BatchSummary.of(results, time.perf_counter() - start)
    tables = batch_tables(results, summary)
    emit(output, batch_json(results, summary), tables[:1] if output == "csv" else tables)
    if summary.failed:
        sys.exit(EXIT_FAILED)
    if summary.inconsistent:
        sys.exit(EXIT_INCONSISTENT)
