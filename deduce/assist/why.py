"""``why``: the events that rule an answer out, as a minimal (if possible, smallest) set.

The question is put as a *hypothesis*, an event that would make the answer
true, added after the log's last event:

=========================  ==================================================
query                      hypothesis
=========================  ==================================================
abbey ``why CARD``         ``culprit CARD``
abbey ``why CARD PLAYER``  ``has PLAYER CARD`` (why PLAYER cannot hold it now)
rose ``why PLAYER COLOUR`` ``identity PLAYER COLOUR``
blackrose ``why SUSPECT``  the suspect is an accomplice
blackrose ``why PLAYER``   ``role PLAYER possessed``
=========================  ==================================================

Each game builds its hypothesis (:meth:`deduce.games.protocol.Game.query`).
When the log plus the hypothesis is inconsistent, the answer is ruled out,
and the game's own conflict finder (Abbey
:func:`~deduce.games.abbey.solver.sat.conflict.minimal_conflict`, Rose
:func:`~deduce.games.rose.solve.minimal_conflict`, Black Rose
:func:`~deduce.games.blackrose.solve.minimal_conflict`) gives a minimal set
of events that conflicts with it: remove any one of them and the answer is
possible again. :func:`~deduce.subsets.smallest` then looks for a
smaller set within the deadline. As in the conflicts of ``solve``, Abbey
transfers stay in place as the game's structure: a ``draw``, ``take`` or
``mass`` in the answer stands for the card(s) it names, and removing it
means forgetting those cards.

"The suspect is an accomplice" is no event of the log format, but it is a
constraint the Black Rose model already has: with the other six suspects as
the dead, a Goal's "at least five of the dead are innocent" says that at most
one of the six is an accomplice, so (two accomplices among seven) that the
suspect is one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deduce.errors import DeduceError
from deduce.logs.model import Event, GameLog
from deduce.registry import game
from deduce.subsets import smallest


@dataclass(frozen=True)
class Why:
    """The answer to one ``why`` query.

    ``statement``: the answer asked about, in words (``aymeric is the
    culprit``). ``events``: when it is ruled out, the events of a minimal set
    that rules it out, in log order (empty: the header and the game's
    structure alone rule it out). ``smallest``: no set of fewer events rules
    it out (every smaller one was tried).
    """

    statement: str
    possible: bool
    events: tuple[Event, ...] = ()
    smallest: bool = False


def why(log: GameLog, words: Sequence[str], deadline: float | None = None) -> Why:
    """Answer ``why WORDS`` about ``log`` (see the module docstring).

    ``deadline`` (a :func:`time.perf_counter` time) bounds the search for a
    set smaller than the minimal one found. Raises ``DeduceError`` for a
    query that does not fit the game, or when the log is itself inconsistent.
    """
    question = game(log.header.game).query(log, words)
    if not question.log_consistent():
        raise DeduceError("the log itself is inconsistent: see `explain` first")
    if question.consistent(question.pool):
        return Why(question.statement, True)
    lines, proved = smallest(
        question.pool,
        lambda kept: not question.consistent(kept),
        sorted(question.minimal()),
        deadline,
    )
    chosen = set(lines)
    return Why(question.statement, False, tuple(e for e in log.events if e.line in chosen), proved)
