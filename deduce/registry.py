"""The games deduce knows, by name: the one place that lists them.

Every command reaches a game through :func:`game` and the protocol of
:mod:`deduce.games.protocol`; adding a game is one more entry in
:data:`GAMES` (and its format in the log format's list,
:data:`deduce.logs.formats.FORMATS`, which a test keeps in step).
"""

from __future__ import annotations

from typing import Any

from deduce.errors import DeduceError
from deduce.games.abbey.game import GAME as ABBEY
from deduce.games.blackrose.game import GAME as BLACKROSE
from deduce.games.protocol import Game, Solution
from deduce.games.rose.game import GAME as ROSE

#: Name -> game, in the order commands list them.
GAMES: dict[str, Game[Any]] = {g.name: g for g in (ABBEY, ROSE, BLACKROSE)}


def game(name: str) -> Game[Any]:
    """The game called ``name`` (a one-line error for a game deduce does not know)."""
    try:
        return GAMES[name]
    except KeyError:
        raise DeduceError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None


def game_of(solution: Solution) -> Game[Any]:
    """The game a solution belongs to."""
    return GAMES[solution.game]


def read_log_file(kind: str, path: str) -> object:
    """Read a data file the log reader needs before it knows a log's game (``--deck``).

    The one game that lists ``kind`` in its :attr:`~deduce.games.protocol.Game.log_files`
    reads it; what it returns goes to the reader (``read_log(path, supplied)``) and to
    the solve options.
    """
    return _reader(kind).load(kind, path)


def template(kind: str) -> str:
    """A data file of ``kind`` to fill in (``deduce deck template``), from the game reading it."""
    return _reader(kind).template(kind)


def _reader(kind: str) -> Game[Any]:
    """The one game that reads ``kind`` files before its logs."""
    (reader,) = (g for g in GAMES.values() if kind in g.log_files)
    return reader


def owners(command: str) -> dict[str, tuple[str, ...]]:
    """Game -> the parameters of ``command`` only that game uses (for refusing the others)."""
    return {name: g.owned[command] for name, g in GAMES.items() if command in g.owned}
