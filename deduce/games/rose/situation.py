"""``suggest`` for the Rose: the decision at hand, its options ranked, and the day-7 guesses.

A log holds no board (cards, pawns, tiles), so ``--situation`` (in
``play``: the words after ``suggest``) says what the decision at hand is,
in the engine's names, with what is at stake:

- ``reveal``: which marker to reveal (every colour but yours not revealed yet);
- ``move MONK+N [MONK-N ...]``: which monk to move, each with the suspicion
  its move brings it (onto its task tile: minus the tile's value; into
  another building: plus the sum of its tiles);
- ``william MONK [N]``, ``adson MONK [N]``: William (Adson) met the monk:
  ``N`` clue (suspicion) points up or down (3 and 5; 6 and 10 on "Tricky");
- ``bonus``: "At the Culprit's Heels" or "Mysterious": +2 clue to one monk,
  or +1 to each of two;
- ``awkward N``: "Awkward": the monk that gets ``N`` suspicion;
- ``guess``: the day-7 guesses.

Each option is valued by :mod:`deduce.games.rose.advice` (clue points
saved, less those the day-7 guesses then cost you), most valuable first.
Without a situation: which marker to reveal, while you have markers to
reveal, then the day-7 guesses. Everything but the guesses needs your
colour (your ``identity`` line).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from deduce.errors import DeduceError
from deduce.games.protocol import Suggestion
from deduce.games.rose.advice import Advisor, Option, ranked
from deduce.games.rose.bots import WAYS, Point, awkward_point, bonus_points, meeting_point
from deduce.games.rose.engine import BONUS_CHOICES, MEETING, REVEALS
from deduce.games.rose.solve import RoseSolution
from deduce.games.words import pick
from deduce.logs.formats.rose import COLOURS
from deduce.logs.model import GameLog
from deduce.report import Table, more_rows, percent

#: The situations' first words.
KINDS = ("reveal", "move", "william", "adson", "bonus", "awkward", "guess")
USAGE = (
    "reveal | move MONK+N [MONK-N ...] | william MONK [N] | adson MONK [N] | "
    "bonus | awkward N | guess"
)
#: A ``move`` option: a monk and the suspicion its move brings, ``red-3``.
MOVE = re.compile(r"([a-z]+)([+-]\d+)")


@dataclass(frozen=True)
class Situation:
    """A decision asked of the observer: its ``kind``, its ``heading``, each option's points.

    ``choices`` is empty for ``reveal`` (the options come from the log) and ``guess``.
    """

    kind: str
    heading: str = ""
    choices: tuple[tuple[Point, ...], ...] = ()


def _number(word: str, text: str, usage: str) -> int:
    """A whole number of points, at least 1."""
    if not word.isdigit() or int(word) < 1:
        raise DeduceError(f"--situation: expected {usage} (N a whole number >= 1), not {text!r}")
    return int(word)


#: Which marker to reveal: its options come from the log.
REVEAL = Situation("reveal", "Which marker to reveal")


def _plain(
    kind: str, heading: str = "", choices: tuple[tuple[Point, ...], ...] = ()
) -> Callable[[Sequence[str], str], Situation]:
    """A situation of one word."""

    def parse(rest: Sequence[str], text: str) -> Situation:
        if rest:
            raise DeduceError(f"--situation: {kind} takes nothing more, not {text!r}")
        return Situation(kind, heading, choices)

    return parse


def _move(rest: Sequence[str], text: str) -> Situation:
    """``move MONK+N ...``: each monk and the suspicion its move brings."""
    found = [MOVE.fullmatch(word) for word in rest]
    if not rest or not all(found):
        raise DeduceError(f"--situation: expected move MONK+N [MONK-N ...], not {text!r}")
    choices = tuple(
        (Point(pick(m.group(1), COLOURS, "monk"), "suspicion", int(m.group(2)), "move"),)
        for m in found
        if m
    )
    return Situation("move", "Which monk to move", choices)


def _meeting(pawn: str) -> Callable[[Sequence[str], str], Situation]:
    """``william MONK [N]`` or ``adson MONK [N]``: the monk met, its points up or down."""
    usage = f"{pawn} MONK [N]"

    def parse(rest: Sequence[str], text: str) -> Situation:
        if not 1 <= len(rest) <= 2:
            raise DeduceError(f"--situation: expected {usage}, not {text!r}")
        monk = pick(rest[0], COLOURS, "monk")
        points = _number(rest[1], text, usage) if len(rest) == 2 else MEETING[pawn][1]
        choices = tuple((meeting_point(pawn, monk, way, points),) for way in WAYS)
        return Situation(pawn, f"{pawn.capitalize()} met {monk}: which way", choices)

    return parse


def _awkward(rest: Sequence[str], text: str) -> Situation:
    """``awkward N``: the monk that gets N suspicion."""
    if len(rest) != 1:
        raise DeduceError(f"--situation: expected awkward N, not {text!r}")
    points = _number(rest[0], text, "awkward N")
    choices = tuple((awkward_point(colour, points),) for colour in COLOURS)
    return Situation("awkward", f"Awkward: which monk gets {points} suspicion", choices)


#: How each situation's words after the first are read.
PARSERS: dict[str, Callable[[Sequence[str], str], Situation]] = {
    "reveal": _plain(REVEAL.kind, REVEAL.heading),
    "move": _move,
    "william": _meeting("william"),
    "adson": _meeting("adson"),
    "bonus": _plain(
        "bonus",
        "Which monks get the bonus",
        tuple(bonus_points(action) for action in BONUS_CHOICES),
    ),
    "awkward": _awkward,
    "guess": _plain("guess"),
}


def parse_situation(text: str) -> Situation:
    """Read a situation (:data:`USAGE`); a one-line :class:`DeduceError` if it is not one."""
    words = text.split()
    if not words or words[0] not in KINDS:
        raise DeduceError(f"--situation: expected {USAGE}, not {text!r}")
    return PARSERS[words[0]](words[1:], text)


def revealed(log: GameLog) -> set[str]:
    """The markers the log's observer revealed."""
    me = log.header.me
    return {e.get("colour") for e in log.events if e.type == "reveal" and e.get("player") == me}


def hidden_markers(log: GameLog, mine: str) -> list[str]:
    """The markers the observer may still reveal: every colour but theirs not revealed yet."""
    return [c for c in COLOURS if c != mine and c not in revealed(log)]


def options(situation: Situation, advisor: Advisor) -> list[Option]:
    """The situation's options, valued by ``advisor``, most valuable first."""
    if situation.kind == "reveal":
        colours = hidden_markers(advisor.exposure.log, advisor.mine)
        if not colours:
            raise DeduceError("you have revealed every marker you may: nothing to reveal")
        return ranked([advisor.reveal(colour) for colour in colours])
    return ranked([advisor.choice(points) for points in situation.choices])


def _cell(value: float) -> str:
    """Clue points, signed, two decimals (``-0.00`` reads ``+0.00``)."""
    return f"{value + 0.0:+.2f}"


def ranking(situation: Situation, advisor: Advisor, top: int) -> tuple[dict[str, Any], Table]:
    """The situation's options ranked: as JSON (every option) and as a table (``top`` rows).

    The JSON holds the situation's kind, your colour, the opponents' reading
    (``guesser``) and the options; the table the first ``top`` options, then
    how many more.
    """
    found = options(situation, advisor)
    data = {
        "kind": situation.kind,
        "colour": advisor.mine,
        "guesser": advisor.guesser,
        "choices": [option.to_json() for option in found],
    }
    rows: list[list[Any]] = [
        [rank, option.action, _cell(option.saved), _cell(option.shown), _cell(option.value)]
        for rank, option in enumerate(found[:top], 1)
    ]
    title = (
        f"{situation.heading} (you are {advisor.mine}; clue points saved for your monk, "
        "and shown: what the day-7 guesses then cost you more; advised first)"
    )
    headers = ["rank", "choice", "saved", "shown", "value"]
    return data, Table(title, headers, rows + more_rows(len(rows), len(found), len(headers)))


def guesses(solution: RoseSolution) -> Suggestion:
    """The day-7 guesses, all of different colours, and each one's chance."""
    best = solution.best_guesses()
    chances = {p: solution.probabilities[p].get(c, Fraction(0)) for p, c in best.items()}
    expected = sum(chances.values())
    data = {
        "game": "rose",
        "guesses": best,
        "probabilities": {p: float(q) for p, q in chances.items()},
        "expected_right": float(expected),
    }
    rows = [[p, c, percent(chances[p]) or "0%"] for p, c in best.items()]
    title = f"Day-7 guesses (all different; expected right: {float(expected):.2f})"
    return Suggestion(data, [Table(title, ["player", "guess", "chance"], rows)])


def _advisor(solution: RoseSolution, kind: str) -> Advisor:
    """The advisor of the solve's log; an error when the log has no colour of yours."""
    if solution.exposure is None:
        raise DeduceError(
            "the log has no colour of yours (an identity line of the log's player): "
            f"no advice on {kind}"
        )
    return Advisor.of(solution.exposure)


def suggestion(solution: RoseSolution, text: str | None, top: int) -> Suggestion:
    """``suggest``'s advice on a consistent solve: the situation ``text``, or the default.

    The default: which marker to reveal (when the log has your colour and
    you have markers to reveal), then the day-7 guesses.
    """
    situation = parse_situation(text) if text else None
    if situation is not None and situation.kind != "guess":
        data, table = ranking(situation, _advisor(solution, situation.kind), top)
        return Suggestion({"game": "rose", "situation": data}, [table])
    advice = guesses(solution)
    exposure = solution.exposure
    if situation is not None or exposure is None or len(revealed(exposure.log)) >= REVEALS:
        return advice
    data, table = ranking(REVEAL, Advisor.of(exposure), top)
    return Suggestion({**advice.data, "reveal": data}, [table, *advice.tables])
