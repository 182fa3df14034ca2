"""The games deduce knows, by name: the one place that lists them.

Every command reaches a game through :func:`game` and the protocol of
:mod:`deduce.games.protocol`; adding a game is one more entry in
:data:`GAMES` (and its name in the log format's list,
:data:`deduce.logs.model.GAMES`, which a test keeps in step).
"""

from __future__ import annotations

from deduce.errors import DeduceError
from deduce.games.abbey.game import GAME as ABBEY
from deduce.games.blackrose.game import GAME as BLACKROSE
from deduce.games.protocol import Game, Solution
from deduce.games.rose.game import GAME as ROSE

#: Name -> game, in the order commands list them.
GAMES: dict[str, Game] = {g.name: g for g in (ABBEY, ROSE, BLACKROSE)}


def game(name: str) -> Game:
    """The game called ``name`` (a one-line error for a game deduce does not know)."""
    try:
        return GAMES[name]
    except KeyError:
        raise DeduceError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None


def game_of(solution: Solution) -> Game:
    """The game a solution belongs to."""
    return GAMES[solution.game]


def owners(command: str) -> dict[str, tuple[str, ...]]:
    """Game -> the parameters of ``command`` only that game uses (for refusing the others)."""
    return {name: g.owned[command] for name, g in GAMES.items() if command in g.owned}
