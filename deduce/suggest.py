"""What to do next, for a log of any game: ``deduce suggest`` and ``suggest`` in ``play``.

Each game advises through its ``suggest`` (:class:`deduce.games.protocol.Game`):

- **abbey**: every question and card-moving room ranked by the information
  its answer brings about the culprit (exact within the time budget, else
  estimated), and the accusation: the most probable suspect, its chance,
  the expected points (+4 right, -2 wrong: ``6p - 2``) and whether to accuse
  now (:mod:`deduce.games.abbey.advice.suggest`);
- **blackrose**: which suspect (or the Graveyard) to investigate and the
  pair to accuse;
- **rose**: the day-7 guesses, all of different colours, maximising the
  expected number of right guesses.

An inconsistent log gets no advice: the error names the conflicting lines.
"""

from __future__ import annotations

from deduce.errors import InconsistentLog
from deduce.games.protocol import AdviceOptions, SolveOptions, Suggestion
from deduce.logs.model import GameLog
from deduce.registry import game
from deduce.solving import Solution, solve_log

__all__ = ["AdviceOptions", "Suggestion", "suggest"]


def suggest(
    log: GameLog,
    options: SolveOptions | None = None,
    advice: AdviceOptions | None = None,
    solution: Solution | None = None,
) -> Suggestion:
    """Advice for the observer of ``log``; an inconsistent log is an error.

    ``options``: the solving options (Abbey: ``budget`` is the time for exact
    values before estimating them, ``deck``, ``seed``; Rose and Black Rose:
    ``hard`` and the model). ``advice``: how many Abbey options to list, and
    the Black Rose's unseen clue cards (default: an upper bound from the
    cards data). ``solution``: the solve of this position the caller shows
    (``play``), so that the advice and the table come from the same solve.
    """
    options = options or SolveOptions()
    try:
        return game(log.header.game).suggest(log, options, advice or AdviceOptions(), solution)
    except InconsistentLog:
        solution = solve_log(log, options)  # for the conflicting lines
    raise InconsistentLog(
        f"{log.path}: the log is inconsistent (lines "
        f"{', '.join(map(str, solution.conflict))}): no advice; "
        "see deduce solve"
    )
