"""Random small Abbey logs for the differential fuzz of the default solve.

Decks of 9 or 10 cards, 2 or 3 players, spectators (``"me": null``) with
several masses and thefts as often as observers, and one log in four
corrupted (often inconsistent). The suite runs a few hundred of them
(``tests/test_abbey_fuzz_solve.py``); ``benchmarks/fuzz_solve.py`` runs
thousands with the same generator.
"""

from __future__ import annotations

import random

from abbey_random import corrupt, random_game, random_spectator_game
from oracles.abbey import BruteResult, enumerate_posterior

from deduce.errors import LogError
from deduce.games.abbey.solver.solve import AbbeySolution, solve_abbey
from deduce.games.abbey.solver.timeline import build_timeline
from deduce.logs.formats.abbey import AbbeySetup
from deduce.logs.model import Event, GameLog, Header

#: The logs' size: small enough for the brute-force enumerator to list every deal.
SIZES = {"min_cards": 9, "max_cards": 10, "max_deals": 20_000}


def fuzz_log(seed: int) -> tuple[AbbeySetup, list[Event]] | None:
    """The ``seed``-th random log, or None when its corruption broke the public sizes."""
    rng = random.Random(seed)
    if rng.random() < 0.5:
        setup, events, _ = random_spectator_game(rng, masses=(2, 4), thefts=(1, 3), **SIZES)
    else:
        setup, events, _ = random_game(rng, min_events=6, max_events=16, **SIZES)
    if rng.random() < 0.25:
        events = corrupt(rng, events, setup)
    try:
        build_timeline(setup, events, "fuzz")
    except LogError:
        return None
    return setup, events


def solve_both(
    setup: AbbeySetup, events: list[Event], budget: float | None
) -> tuple[AbbeySolution, BruteResult]:
    """The solve of a log (with ``budget``) and the brute force's answer."""
    header = Header(
        "abbey", setup.players, setup.me, extra={"pile": setup.pile, "hand": setup.hand}
    )
    log = GameLog(header, list(events), "fuzz")
    return solve_abbey(log, setup.deck, budget=budget), enumerate_posterior(setup, events)


def disagreement(solution: AbbeySolution, brute: BruteResult) -> str:
    """What the solve gets wrong against the brute force ("" when it agrees exactly).

    A consistent log's probabilities must be exact (the budget running out
    is a failure, not a skip) and equal the brute force's fractions.
    """
    if solution.consistent != brute.consistent:
        return f"consistent: solve {solution.consistent}, brute force {brute.consistent}"
    if not brute.consistent:
        return ""
    if not solution.exact:
        return f"not exact within the budget (error {solution.error:.3f})"
    if solution.holders != brute.holders:
        return "holders differ"
    if solution.culprit != brute.culprit:
        return "culprit differs"
    return ""
