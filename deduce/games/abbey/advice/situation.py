"""``suggest --situation``: the decisions that come up outside your own move.

A situation names what is asked of you now:

- ``asked PLAYER has CARD`` / ``asked PLAYER count TRAIT[+TRAIT]``: PLAYER asked
  you a question. Answer, and ask one back, or take the vow of silence?
- ``show PLAYER [TRAIT[+TRAIT]]``: you must show PLAYER one of your cards
  (having the traits, if PLAYER named some). Which one?
- ``mass N``: Mass is next, and you will pass N cards to your left. Which?

Each choice gets the bits it brings you about the culprit and the bits it
gives away to the others' paper sheets (:mod:`defence`), as in
:mod:`decisions`. What is given away is exact for that model of the other
players; a question back is exact or a rough estimate, as the moves of
``suggest`` are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deduce.errors import DeduceError
from deduce.games.abbey.advice.advisor import Advice, Option
from deduce.games.abbey.advice.decisions import Choice, Position, ranked
from deduce.games.abbey.advice.race import sure
from deduce.games.abbey.solver.opponents import OpponentView
from deduce.logs.formats.abbey import TRAITS, AbbeySetup
from deduce.logs.model import Event, GameLog
from deduce.report import UNKNOWN, Table

KINDS = ("asked", "show", "mass")
USAGE = (
    "asked PLAYER has CARD | asked PLAYER count TRAIT[+TRAIT] | "
    "show PLAYER [TRAIT[+TRAIT]] | mass N"
)


@dataclass(frozen=True)
class Situation:
    """What is asked of the observer: a ``kind`` of :data:`KINDS`, who asks, and what."""

    kind: str
    player: str = ""
    question: tuple[str, Any] = ("", None)  # asked: ("has", card) or ("count", traits)
    traits: tuple[str, ...] = ()  # show: the traits asked for, if any
    n: int = 0  # mass: cards to pass


def parse_situation(text: str, setup: AbbeySetup) -> Situation:
    """Read a situation (:data:`USAGE`) for a game of ``setup``; a :class:`DeduceError` if bad."""
    words = text.split()
    if not words or words[0] not in KINDS:
        raise DeduceError(f"--situation: expected {USAGE}, not {text!r}")
    kind, rest = words[0], words[1:]
    if kind == "mass":
        if len(rest) != 1 or not rest[0].isdigit() or int(rest[0]) < 1:
            raise DeduceError(f"--situation: expected mass N (N >= 1), not {text!r}")
        return Situation("mass", n=int(rest[0]))
    if not rest:
        raise DeduceError(f"--situation: {kind} needs the player who asks: {USAGE}")
    player = rest[0]
    if player not in setup.players or player == setup.me:
        raise DeduceError(f"--situation: {player!r} is not another player of the log")
    if kind == "show":
        if len(rest) > 2:
            raise DeduceError(f"--situation: expected show PLAYER [TRAIT[+TRAIT]], not {text!r}")
        return Situation("show", player, traits=_traits(rest[1]) if len(rest) == 2 else ())
    if len(rest) != 3 or rest[1] not in ("has", "count"):
        raise DeduceError(
            f"--situation: expected asked PLAYER has CARD or asked PLAYER "
            f"count TRAIT[+TRAIT], not {text!r}"
        )
    if rest[1] == "has":
        if rest[2] not in setup.deck.ids:
            raise DeduceError(f"--situation: unknown card {rest[2]!r}")
        return Situation("asked", player, ("has", rest[2]))
    return Situation("asked", player, ("count", _traits(rest[2])))


def _traits(text: str) -> tuple[str, ...]:
    traits = tuple(text.split("+"))
    unknown = [t for t in traits if t not in TRAITS]
    if unknown:
        raise DeduceError(
            f"--situation: unknown trait {unknown[0]!r} (traits: {', '.join(TRAITS)})"
        )
    return traits


def advise(
    situation: Situation,
    log: GameLog,
    setup: AbbeySetup,
    hand: Sequence[str],
    hands: dict[str, int],
    advice: Advice | None,
    top: int,
    told: Mapping[str, OpponentView] | None = None,
) -> tuple[dict[str, Any], Table]:
    """The situation's choices, best first, as JSON and as a table.

    ``hand``: the observer's cards now; ``hands``: each holder's card count;
    ``advice``: the position's options, for a question back (only a question
    asked of you needs them). ``told``: the asker's chance of being sure of
    the culprit after each choice (:func:`told_by`), as another column.
    """
    position = Position(
        setup, None, [{"type": e.type, **e.fields} for e in log.events], list(hands), hands
    )
    if situation.kind == "asked":
        assert advice is not None, "a question back needs the position's options"
        title = f"{situation.player} asks you: {_question(situation.question)}"
        choices = _reply(situation, hand, position, advice)
    elif situation.kind == "show":
        matching = [c for c in hand if setup.deck.card(c).has_traits(situation.traits)]
        if not matching:
            raise DeduceError(
                f"you hold no card with {'+'.join(situation.traits)} to show: "
                "answer that you have none"
            )
        title = f"Which card to show {situation.player}"
        choices = position.show(situation.player, matching)
    else:
        title = f"Which cards to pass to {position.left} at Mass"
        choices = position.mass(hand, min(situation.n, len(hand)))
    rows = [(_words(c), c) for c in ranked(choices)[:top]]
    data = {
        "kind": situation.kind,
        "player": situation.player or None,
        "choices": [
            {
                "action": words,
                "bits": c.bits,
                "given_away": c.leak,
                "value": c.value,
                "exact": c.exact,
                "error": 0.0 if c.exact else None,
                **({} if told is None else {"asker_sure": _told(told, c)}),
            }
            for words, c in rows
        ],
    }
    asker = [] if told is None else [f"{situation.player} sure after"]
    after = (
        ""
        if told is None
        else f"; {situation.player} sure after: the chance that {situation.player} is then "
        "sure of the culprit, ± its bound"
    )
    table = Table(
        f"{title} (bits learnt about the culprit, bits given away to the others' "
        f"sheets{after}; advised first)",
        ["rank", "choice", "bits learnt", "bits given away", "value", "basis", *asker],
        [
            [
                i,
                words,
                f"{c.bits:.3f}" if c.exact else UNKNOWN,
                f"{c.leak:.3f}",
                f"{c.value:.3f}" if c.exact else UNKNOWN,
                "exact" if c.exact else "rough estimate",
                *([] if told is None else [_told_cell(told, c)]),
            ]
            for i, (words, c) in enumerate(rows, 1)
        ],
    )
    return data, table


def _key(choice: Choice) -> str:
    """What :func:`told_by` calls a choice: ``show CARD``, ``answer`` or ``silence``."""
    kind, *rest = choice.action
    return f"show {rest[0]}" if kind == "show" else kind


def _told(told: Mapping[str, OpponentView], choice: Choice) -> dict[str, float] | None:
    """The asker's chance of being sure after ``choice``, as JSON (None: not estimated)."""
    view = told.get(_key(choice))
    return None if view is None else {"certain": view.certain, "error": view.error}


def _told_cell(told: Mapping[str, OpponentView], choice: Choice) -> str:
    """The asker's chance of being sure after ``choice``, with its bound (``?``: none)."""
    view = told.get(_key(choice))
    return UNKNOWN if view is None else sure(view)


def told_by(situation: Situation, setup: AbbeySetup, hand: Sequence[str]) -> dict[str, list[Event]]:
    """Each choice of a show or a question as the events it adds to the log.

    A show: the card, shown to the asker. A question: the answer (true
    for the observer's hand), and the vow of silence, which adds nothing.
    A Mass moves cards: none (its choices are not told).
    """
    me, line = str(setup.me), 0
    if situation.kind == "show":
        return {
            f"show {card}": [
                Event("show", {"player": me, "to": situation.player, "card": card}, line)
            ]
            for card in hand
            if setup.deck.card(card).has_traits(situation.traits)
        }
    if situation.kind != "asked":
        return {}
    kind, asked = situation.question
    if kind == "has":
        answer = Event("has" if asked in hand else "lacks", {"player": me, "card": asked}, line)
    else:
        n = sum(setup.deck.card(c).has_traits(asked) for c in hand)
        answer = Event("count", {"player": me, "traits": list(asked), "n": n}, line)
    return {"answer": [answer], "silence": []}


def _question(question: tuple[str, Any]) -> str:
    if question[0] == "has":
        return f"do you have {question[1]}?"
    return f"how many {'+'.join(question[1])}?"


def _words(choice: Choice) -> str:
    """A situation's choice in words: ``show X``, ``pass X Y``, an answer, the silence."""
    kind, *rest = choice.action
    if kind == "answer":
        return "answer" + (f", then ask back: {_question(rest[0])}" if rest else "")
    if kind == "silence":
        return "vow of silence"
    if kind == "pass":
        return "pass " + " ".join(rest[0])
    return f"{kind} {rest[0]}"


def _reply(
    situation: Situation, hand: Sequence[str], position: Position, advice: Advice
) -> list[Choice]:
    """Answer and the best question back (from ``advice``), or the vow of silence."""
    back: Option | None = next(
        (o for o in advice.options if o.target == situation.player and o.kind in ("count", "has")),
        None,
    )
    given = position.answer_leak(situation.question, hand)
    if back is None:
        return [Choice(("answer",), 0.0, given, True), Choice(("silence",), 0.0, exact=True)]
    detail = back.detail if back.kind == "count" else back.detail[0]
    return [
        Choice(("answer", (back.kind, detail)), back.gain, given, back.exact),
        Choice(("silence",), 0.0, exact=True),
    ]
