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

When the log plus the hypothesis is inconsistent, the answer is ruled out,
and the game's own conflict finder (Abbey
:func:`~deduce.games.abbey.solver.sat.conflict.minimal_conflict`, Rose
:func:`~deduce.games.rose.solve.minimal_conflict`, Black Rose
:func:`~deduce.games.blackrose.solve.minimal_conflict`) gives a minimal set
of events that conflicts with it: remove any one of them and the answer is
possible again. :func:`~deduce.assist.minimum.smallest` then looks for a
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

import difflib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from deduce.assist.minimum import smallest
from deduce.assist.vocabulary import vocabulary
from deduce.errors import DeduceError
from deduce.games.abbey.solver.sat import conflict as abbey_conflict
from deduce.games.abbey.solver.timeline import TRANSFERS, build_timeline
from deduce.games.blackrose import csp as blackrose_csp
from deduce.games.blackrose import solve as blackrose_solve
from deduce.games.rose import csp as rose_csp
from deduce.games.rose import solve as rose_solve
from deduce.logs.model import Event, GameLog
from deduce.logs.vocabulary.abbey import setup_from_header

#: The ``why`` query of each game, as its help shows it.
USAGE = {"abbey": "why CARD [PLAYER]", "rose": "why PLAYER COLOUR",
         "blackrose": "why SUSPECT|PLAYER"}
#: What each game's ``why`` queries mean, for its help.
MEANING = {
    "abbey": "why CARD: why CARD cannot be the culprit; "
             "why CARD PLAYER: why PLAYER cannot hold CARD now.",
    "rose": "why PLAYER COLOUR: why PLAYER cannot be COLOUR.",
    "blackrose": "why SUSPECT: why SUSPECT cannot be an accomplice; "
                 "why PLAYER: why PLAYER cannot be the Possessed.",
}
#: For each word of a game's query, the grammar keys whose words it takes (for completion).
ARGUMENTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "abbey": (("card",), ("player",)),
    "rose": (("player",), ("colour",)),
    "blackrose": (("suspect", "player"),),
}


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


@dataclass(frozen=True)
class _Question:
    """A hypothesis put to one log, whatever the game.

    ``pool``: the lines that can belong to an answer. ``consistent(kept)``:
    whether the log's events on ``kept`` lines of the pool (and every event
    outside it), plus the hypothesis, can all be true. ``minimal()``: the
    game's minimal conflicting lines, the hypothesis left out.
    """

    statement: str
    pool: tuple[int, ...]
    consistent: Callable[[Collection[int]], bool]
    minimal: Callable[[], Collection[int]]
    log_consistent: Callable[[], bool]


def why(log: GameLog, words: Sequence[str], deadline: float | None = None) -> Why:
    """Answer ``why WORDS`` about ``log`` (see the module docstring).

    ``deadline`` (a :func:`time.perf_counter` time) bounds the search for a
    set smaller than the minimal one found. Raises ``DeduceError`` for a
    query that does not fit the game, or when the log is itself inconsistent.
    """
    question = _QUESTIONS[log.header.game](log, words)
    if not question.log_consistent():
        raise DeduceError("the log itself is inconsistent: see `explain` first")
    if question.consistent(question.pool):
        return Why(question.statement, True)
    lines, proved = smallest(question.pool, lambda kept: not question.consistent(kept),
                             sorted(question.minimal()), deadline)
    chosen = set(lines)
    return Why(question.statement, False, tuple(e for e in log.events if e.line in chosen),
               proved)


def _pick(word: str, choices: Sequence[str], noun: str) -> str:
    """``word`` if it is one of ``choices``; else a one-line error suggesting the closest."""
    if word in choices:
        return word
    close = difflib.get_close_matches(word, choices, n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"{noun}s: {', '.join(choices)}"
    raise DeduceError(f"unknown {noun} '{word}' ({hint})")


def _arity(words: Sequence[str], game: str, low: int, high: int) -> None:
    """Refuse a query with too few or too many words."""
    if not low <= len(words) <= high:
        raise DeduceError(f"usage: {USAGE[game]}")


def _next_line(log: GameLog) -> int:
    """A line number after every line of the log, for the hypothesis."""
    return max((e.line for e in log.events), default=log.header.line) + 1


def _abbey(log: GameLog, words: Sequence[str]) -> _Question:
    """``why CARD``: culprit CARD; ``why CARD PLAYER``: has PLAYER CARD."""
    _arity(words, "abbey", 1, 2)
    known = vocabulary(log.header, log.path)
    card = _pick(words[0], known["card"], "card")
    if len(words) == 2:
        player = _pick(words[1], known["player"], "player")
        statement = f"{player} holds {card} now"
        hypothesis = Event("has", {"player": player, "card": card}, _next_line(log))
    else:
        statement = f"{card} is the culprit"
        hypothesis = Event("culprit", {"card": card}, _next_line(log))
    setup = setup_from_header(log.header, log.path)
    events = (*log.events, hypothesis)
    timeline = build_timeline(setup, events, log.path)
    pool = tuple(e.line for e in log.events if _informative(e))

    skipping = abbey_conflict.consistency(setup, timeline, events)

    def consistent(kept: Collection[int]) -> bool:
        return skipping(frozenset(pool) - set(kept))

    def minimal() -> set[int]:
        found = abbey_conflict.minimal_conflict(setup, timeline, events)
        return {*found.lines, *found.transfers} - {hypothesis.line}

    def log_consistent() -> bool:
        return abbey_conflict.consistency(
            setup, build_timeline(setup, log.events, log.path), log.events)(())

    return _Question(statement, pool, consistent, minimal, log_consistent)


def _informative(event: Event) -> bool:
    """Whether dropping an Abbey event can matter: an observation, or a transfer naming cards."""
    return event.type not in TRANSFERS or abbey_conflict.carries_cards(event)


def _rose(log: GameLog, words: Sequence[str]) -> _Question:
    """``why PLAYER COLOUR``: identity PLAYER COLOUR."""
    _arity(words, "rose", 2, 2)
    known = vocabulary(log.header, log.path)
    player = _pick(words[0], known["player"], "player")
    colour = _pick(words[1], known["colour"], "colour")
    hypothesis = Event("identity", {"player": player, "colour": colour}, _next_line(log))
    seats = log.header.players
    hard = rose_csp.hard_events(log.events)

    def consistent(kept: Collection[int]) -> bool:
        return rose_csp.is_consistent(seats, [*(e for e in hard if e.line in kept), hypothesis])

    def minimal() -> set[int]:
        return set(rose_solve.minimal_conflict(seats, [*log.events, hypothesis])) - {
            hypothesis.line}

    return _Question(f"{player} is {colour}", tuple(e.line for e in hard), consistent, minimal,
                     lambda: rose_csp.is_consistent(seats, log.events))


def _blackrose(log: GameLog, words: Sequence[str]) -> _Question:
    """``why PLAYER``: role PLAYER possessed; ``why SUSPECT``: the suspect is an accomplice."""
    _arity(words, "blackrose", 1, 1)
    setting = blackrose_csp.Setting.of(log.header)
    line = _next_line(log)
    if words[0] in setting.players:
        statement = f"{words[0]} is the Possessed"
        hypothesis = blackrose_csp.Fact(
            Event("role", {"player": words[0], "role": "possessed"}, line))
    else:
        suspect = _pick(words[0], setting.suspects, "suspect")
        others = tuple(s for s in setting.suspects if s != suspect)
        statement = f"{suspect} is an accomplice"
        hypothesis = blackrose_csp.Fact(
            Event("goal", {"card": "why", "condition": {"innocent_dead_at_least":
                                                        len(others) - 1}}, line), others)
    known = blackrose_csp.facts(log.events)

    def consistent(kept: Collection[int]) -> bool:
        return blackrose_csp.is_consistent(
            setting, [*(f for f in known if f.line in kept), hypothesis])

    def minimal() -> set[int]:
        found = blackrose_solve.minimal_conflict(setting, [*known, hypothesis])
        return {f.line for f in found if f is not hypothesis}

    return _Question(statement, tuple(f.line for f in known), consistent, minimal,
                     lambda: blackrose_csp.is_consistent(setting, known))


_QUESTIONS: dict[str, Callable[[GameLog, Sequence[str]], _Question]] = {
    "abbey": _abbey, "rose": _rose, "blackrose": _blackrose}
