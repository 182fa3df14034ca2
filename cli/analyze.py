"""``deduce analyze``: the post-game timeline of one player's log, with an optional plot."""

from __future__ import annotations

import click

from deduce.analyze import (
    analysis_tables,
    load_truth,
    others_sure,
    plot_backend,
    plot_timeline,
    solve_prefixes,
)
from deduce.analyze import analyze as analyze_log
from deduce.logs.io import read_log
from deduce.solving import SolveOptions, with_model_file

from .options import (
    COMMAND_SETTINGS,
    emit,
    jobs_option,
    output_options,
    read_deck,
    refuse_options,
)
from .progress import progress


@click.command(context_settings=COMMAND_SETTINGS)
@click.argument("log")
@click.option(
    "--budget",
    type=click.FloatRange(min=0),
    default=15.0,
    show_default=True,
    metavar="SECONDS",
    help="Abbey: time for the probabilities of the whole replay, shared among the "
    "positions: past its share a position's probabilities are estimated "
    "(candidates stay exact).",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Abbey: seed of the estimates' random moves.",
)
@click.option("--deck", "deck_file", metavar="FILE", help="Abbey deck file.")
@click.option("--hard", is_flag=True, help="Ignore soft (behaviour) events.")
@click.option(
    "--model", "model_file", metavar="FILE", help="Rose: behaviour model; Black Rose: claims model."
)
@click.option(
    "--truth",
    "truth_file",
    metavar="FILE",
    help="The simulator's truth.json of this game: the answer to measure against.",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="How many of the most informative events to list.",
)
@click.option(
    "--plot",
    "plot_file",
    metavar="FILE.png",
    help="Also draw the timeline to this PNG file (needs matplotlib).",
)
@jobs_option
@output_options
def analyze(
    log: str,
    budget: float,
    seed: int,
    deck_file: str | None,
    hard: bool,
    model_file: str | None,
    truth_file: str | None,
    top: int,
    plot_file: str | None,
    jobs: int,
    output: str,
) -> None:
    """Replay LOG event by event: candidates, the answer's chance and the entropy.

    Also reports the first line from which the answer was certain, how many
    events before the accusation that was, and the most informative events.
    """
    deck = read_deck(deck_file)
    game_log = read_log(log, deck)
    game = game_log.header.game
    refuse_options(game, "analyze")
    if plot_file:
        plot_backend()  # fail before the long part when matplotlib is missing
    options = SolveOptions(deck=deck, hard=hard, budget=budget, seed=seed, jobs=jobs)
    options = with_model_file(options, game, model_file)
    truth = load_truth(truth_file, game_log) if truth_file else None
    positions = progress(
        solve_prefixes(game_log, options), len(game_log.events) + 1, "Solving each position"
    )
    others = others_sure(game_log, options)
    result = analyze_log(game_log, list(positions), truth, top, others)
    if plot_file:
        plot_timeline(result, plot_file)
    emit(output, result.to_json(), analysis_tables(result))
