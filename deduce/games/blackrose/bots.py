"""Black Rose bots: players that decide from their own observation, never from the state.

- ``random``: any legal action, uniformly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random

from deduce.games.blackrose.engine import Action, BlackRoseGame, Observation

Bot = Callable[[Observation, Sequence[Action], Random], Action]


def random_bot(game: BlackRoseGame, seat: int) -> Bot:
    """A bot choosing uniformly among the legal actions."""
    del game, seat

    def act(obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        return rng.choice(list(legal))
    return act


#: The bots by name, for ``deduce.games.simulate.play_game``.
BOTS: dict[str, Callable[[BlackRoseGame, int], Bot]] = {"random": random_bot}
