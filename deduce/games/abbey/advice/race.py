"""What the others know, for the advice and the tables: who may accuse first.

The views themselves are :mod:`~deduce.games.abbey.solver.opponents`; this
module reads them for a player: the table of each opponent's chance of
being sure of the culprit, and the chance that someone accuses first.
"""

from __future__ import annotations

from collections.abc import Mapping

from deduce.games.abbey.solver.opponents import OpponentView, Race
from deduce.report import NO_TIME, Table, chance

#: The chance an accusation needs with no rival, and with a surely sure one. The
#: expected points alone (2/3 with no rival, a third against a sure one) made 0.16 wrong
#: accusations a game at four players; these, 0.08 (``benchmarks/README.md``).
ALONE, RACED = 0.8, 0.5


def rival(views: Race | None) -> float:
    """The chance that someone is sure of the culprit now, at least (0: not known).

    The lower bound of the chance that at least one is sure, read from the
    same histories (:attr:`Race.anyone`), or of one opponent's chance if
    that is larger: the chance that someone is sure is no smaller.
    """
    if views is None:
        return 0.0
    lows = [v.certain - v.error for v in views.views.values()]
    if views.anyone is not None:
        lows.append(views.anyone[0] - views.anyone[1])
    return max([0.0, *lows])


def needed(first: float) -> float:
    """The chance an accusation needs now, against a rival sure with chance ``first``.

    ``first``: the chance that someone else is sure (:func:`rival`), who
    then accuses before the observer's next turn. The chance needed falls
    from :data:`ALONE` with no rival to :data:`RACED` with a surely sure
    one, in a straight line. The accusation's points (+4 right, -2 wrong:
    ``6p - 2``) must then reach 2.8 alone and 1 against a sure rival.
    """
    return ALONE - (ALONE - RACED) * first


def worth_accusing(low: float, first: float) -> bool:
    """Whether to accuse a suspect of chance ``low`` or more now, against a rival ``first``."""
    return low >= needed(first)


def sure(view: OpponentView) -> str:
    """A chance of being sure in a table: ``~0%``, ``100%``, or ``62.0% ± 9.1`` estimated."""
    return (
        chance(view.certain)
        if view.error == 0
        else f"{chance(view.certain)} ± {100 * view.error:.1f}"
    )


def opponents_table(views: Mapping[str, OpponentView]) -> Table:
    """What the others know: each one's chance of being sure of the culprit now.

    Each chance is shown with its bound (none when exact); the candidates
    their view leaves are an average over the histories. No views: no
    estimate came in time.
    """
    rows = [[player, sure(view), f"{view.candidates:.1f}"] for player, view in views.items()]
    title = "What the others know: the chance that each is sure of the culprit now"
    if not views:
        title += f" ({NO_TIME} it; give a longer --budget)"
    elif any(view.error for view in views.values()):
        title += (
            " (estimated from the histories of your log, weighed by who has not accused"
            " and what they asked;"
            " ± points at 95% confidence)"
        )
    return Table(title, ["player", "sure of the culprit", "candidates left"], rows)
