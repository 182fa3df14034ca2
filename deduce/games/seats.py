"""The seats of a simulated game: names given, or default names for a count, checked."""

from __future__ import annotations

from collections.abc import Sequence

from deduce.errors import DeduceError

#: Seat names used when only a count is given, in seat order.
NAMES: tuple[str, ...] = ("ana", "bob", "cai", "dee", "eve", "fay")


def seat_names(game: str, players: int | Sequence[str], low: int, high: int) -> tuple[str, ...]:
    """The seats' names: ``players`` itself, or the first ``players`` default names.

    A count outside ``low`` to ``high`` or a repeated name is a one-line error.
    """
    names = tuple(NAMES[: max(players, 0)]) if isinstance(players, int) else tuple(players)
    count = players if isinstance(players, int) else len(names)
    if not low <= count <= high or len(set(names)) != count:
        article = "an" if game[0] in "aeiou" else "a"
        raise DeduceError(
            f"{article} {game} game needs {low} to {high} players with distinct names"
        )
    return names
