"""``deduce suggest``: what to ask, where to go, whom to accuse, for a log of any game."""

from __future__ import annotations

import click

from deduce.logs.io import read_log
from deduce.registry import game as game_named
from deduce.solving import SolveOptions, with_model_file
from deduce.suggest import AdviceOptions
from deduce.suggest import suggest as suggest_moves

from .options import (
    COMMAND_SETTINGS,
    ROSE_SITUATIONS,
    SITUATIONS,
    emit,
    guesser_option,
    jobs_option,
    output_options,
    read_deck,
    refuse_options,
)
from .progress import status


@click.command(context_settings=COMMAND_SETTINGS)
@click.argument("log")
@click.option(
    "--budget",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    metavar="SECONDS",
    help="Abbey: time for the whole advice: the position's chances, then exact "
    "values, then estimates (at least 40 histories). Long five- and "
    "six-player games need 10 or more for exact chances.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Abbey: seed of the estimate's random moves.",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Abbey: how many moves to list.",
)
@click.option(
    "--situation",
    metavar="TEXT",
    help=f"Abbey: the decision asked of you now: {SITUATIONS}. Rose: the decision at "
    f"hand, its options ranked: {ROSE_SITUATIONS}.",
)
@click.option("--deck", "deck_file", metavar="FILE", help="Abbey deck file.")
@click.option(
    "--unseen",
    type=click.IntRange(min=0),
    metavar="N",
    help="Black Rose: clue cards you have not seen (default: an upper bound from "
    "the cards file and the Proofs in the log).",
)
@click.option(
    "--cards",
    "cards_file",
    metavar="FILE",
    help="Black Rose: clue and Rector cards replacing the defaults.",
)
@click.option(
    "--hard", is_flag=True, help="Rose and Black Rose: ignore soft evidence (behaviour, claims)."
)
@click.option(
    "--model", "model_file", metavar="FILE", help="Rose: behaviour model; Black Rose: claims model."
)
@guesser_option
@jobs_option
@output_options
def suggest(
    log: str,
    budget: float,
    seed: int,
    top: int,
    situation: str | None,
    deck_file: str | None,
    unseen: int | None,
    cards_file: str | None,
    hard: bool,
    model_file: str | None,
    guesser: str | None,
    jobs: int,
    output: str,
) -> None:
    """Advise the observer of LOG: what to do next, and when to accuse.

    Abbey: the questions and card-moving rooms ranked by what they teach
    about the culprit, the accusation and the revelation; with --situation,
    first the decision asked of you (answer or silence, which card to show,
    which cards to pass), each choice with the bits it teaches and gives
    away. Black Rose: where to investigate. Rose: which marker to reveal and
    the day-7 guesses; with --situation, the decision at hand (a move,
    William's or Adson's points, a bonus...), each option with the clue
    points it saves your monk and those it shows of your colour.
    """
    deck = read_deck(deck_file)
    game_log = read_log(log, deck)
    game = game_log.header.game
    refuse_options(game, "suggest")
    if unseen is not None and cards_file:
        raise click.UsageError(
            "--unseen and --cards cannot be used together (the cards "
            "only serve to bound the unseen ones)"
        )
    options = SolveOptions(
        deck=deck, hard=hard, budget=budget, seed=seed, jobs=jobs, guesser=guesser
    )
    options = with_model_file(options, game, model_file)
    cards = game_named(game).load("cards", cards_file) if cards_file else None
    with status("Advising", f"within {budget:g} s"):
        advice = suggest_moves(game_log, options, AdviceOptions(top, unseen, cards, situation))
    emit(output, advice.data, advice.tables)
