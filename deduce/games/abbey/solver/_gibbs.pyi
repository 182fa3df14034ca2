"""Compiled block Gibbs moves (``_gibbs.c``): see ``gibbs.Compiled``."""

from typing import Any

def run(
    arrays: tuple[Any, ...],
    moves: int,
    seed: int,
    pool_share: float,
    join_share: float,
    culprit_share: float,
    largest: int,
    fewest_random: int,
    most_random: int,
    most: int,
) -> None: ...
