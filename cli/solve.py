"""``deduce solve`` and ``deduce convert``: one log, solved or rewritten."""

from __future__ import annotations

import os
import sys

import click

from deduce.logs.io import (
    SYNTAXES,
    Syntax,
    detect_syntax,
    format_log,
    parse_log,
    read_log,
    read_log_text,
    write_log,
)
from deduce.registry import GAMES
from deduce.solving import (
    SolveOptions,
    rule_warnings,
    solution_tables,
    solve_log,
    with_model_file,
)

from .options import (
    COMMAND_SETTINGS,
    budget_options,
    emit,
    guesser_option,
    jobs_option,
    left_of,
    output_options,
    read_deck,
    refuse_options,
)
from .progress import status
from .status import EXIT_INCONSISTENT

#: The engines a game offers (the Abbey's), for ``--engine``.
ENGINES = tuple(e for g in GAMES.values() for e in g.engines)


@click.command(context_settings=COMMAND_SETTINGS)
@click.argument("log")
@click.option(
    "--deck",
    "deck_file",
    metavar="FILE",
    help="Abbey deck file (JSON list of cards) replacing the bundled default deck.",
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="sat",
    show_default=True,
    help="sat: SAT closure, exact count within the budget; count: waits for the "
    "exact count and checks it; csp: python-constraint search, checked too.",
)
@click.option("--hard", is_flag=True, help="Ignore soft (behaviour) events.")
@click.option(
    "--model",
    "model_file",
    metavar="FILE",
    help="Rose: behaviour model; Black Rose: claims model (replacing the bundled parameters).",
)
@click.option(
    "--opponents/--no-opponents",
    default=True,
    show_default=True,
    help="Abbey: also estimate what each other player knows (how likely each is to be "
    "sure of the culprit), in the last fifth of the budget and what the chances leave.",
)
@guesser_option
@budget_options
@jobs_option
@output_options
def solve(
    log: str,
    deck_file: str | None,
    engine: str,
    hard: bool,
    model_file: str | None,
    opponents: bool,
    guesser: str | None,
    budget: float | None,
    seed: int,
    jobs: int,
    output: str,
) -> None:
    """Solve LOG (canonical JSON Lines or line syntax): candidates and probabilities.

    Exits with status 3 when the log contradicts itself.
    """
    deck = read_deck(deck_file)
    game_log = read_log(log, deck)
    refuse_options(game_log.header.game, "solve")
    options = SolveOptions(
        deck=deck,
        engine=engine,
        hard=hard,
        budget=left_of(budget),
        seed=seed,
        jobs=jobs,
        opponents=opponents,
        guesser=guesser,
    )
    options = with_model_file(options, game_log.header.game, model_file)
    for warning in rule_warnings(game_log, options):
        click.echo(f"Warning: {warning}", err=True)
    hint = "exact, however long (--exact)" if budget is None else f"within {budget:g} s"
    with status("Solving", hint):
        solution = solve_log(game_log, options)
    tables = solution_tables(solution)
    emit(output, solution.to_json(), tables)
    if not solution.consistent:
        sys.exit(EXIT_INCONSISTENT)


@click.command(context_settings=COMMAND_SETTINGS)
@click.argument("log")
@click.option(
    "--to", "syntax", type=click.Choice(SYNTAXES), help="Target syntax (default: the other one)."
)
@click.option(
    "-o",
    "--output",
    "out",
    metavar="FILE",
    help="Write to this file (atomically) instead of standard output.",
)
@click.option(
    "--deck", "deck_file", metavar="FILE", help="Abbey deck file used to check card names."
)
def convert(log: str, syntax: Syntax | None, out: str | None, deck_file: str | None) -> None:
    """Convert LOG between the canonical JSON Lines and the line syntax, without loss."""
    if out and os.path.exists(out) and os.path.samefile(out, log):
        raise click.UsageError(
            f"-o {out}: refusing to write over the log being converted "
            "(its comments and layout would be lost); write another file"
        )
    deck = read_deck(deck_file)
    text = read_log_text(log)
    game_log = parse_log(text, log, deck)
    target: Syntax = (
        syntax if syntax is not None else next(s for s in SYNTAXES if s != detect_syntax(text))
    )
    if out:
        write_log(game_log, out, target)
    else:
        click.echo(format_log(game_log, target), nl=False)
