"""The Black Rose's log format: the seven suspects, the roles, its events.

The rulebook does not name the suspects, so the bundled ones
(``deduce/data/blackrose-suspects.json``) are plain ids ``s1`` to ``s7``,
numbered by their place in the arc around the Graveyard board. They are
defaults, not printed cards; a log may list its own seven ids in the header's
``suspects`` key.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from deduce.data import bundled_json
from deduce.logs.grammar import Entry, Flag, HeaderWord, Keyword, Maybe, Pair, Word
from deduce.logs.kinds import KINDS, Scope, choice, distinct_list, identifier, member, show
from deduce.logs.model import Header
from deduce.logs.schema import EventSchema, LogFormat, events, opt, req

#: A game always has exactly this many suspects.
SUSPECT_COUNT = 7
DEFAULT_SUSPECTS_FILE = "blackrose-suspects.json"

#: Role cards (``investigator``: a real one, not possessed).
ROLES: tuple[str, ...] = ("investigator", "possessed", "rector")

#: Documented goal-card conditions and the kind of their value.
CONDITIONS: dict[str, str] = {"innocent_dead_at_least": "count"}


@dataclass(frozen=True)
class Suspect:
    """A suspect: lowercase id and display name."""

    id: str
    name: str


@cache
def default_suspects() -> tuple[Suspect, ...]:
    """Return the bundled default suspects (placeholders, see the module docstring)."""
    raw = bundled_json(DEFAULT_SUSPECTS_FILE)["suspects"]
    return tuple(Suspect(s["id"], s["name"]) for s in raw)


def default_suspect_ids() -> tuple[str, ...]:
    """Return the ids of the bundled default suspects, in board order."""
    return tuple(s.id for s in default_suspects())


def suspects_of(header: Header) -> tuple[str, ...]:
    """Return the suspect ids of a blackrose game: the header's list, else the defaults."""
    listed = header.extra.get("suspects")
    return tuple(listed) if listed is not None else default_suspect_ids()


# --------------------------------------------------------------------------
# Value kinds


def _suspect(value: Any, key: str, scope: Scope, line: int) -> str:
    return member(value, key, scope, line, "suspect", scope.known.get("suspect", ()))


def _suspect_pair(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    return distinct_list(value, key, scope, line, lambda v: _suspect(v, key, scope, line), size=2)


def _suspect_ids(value: Any, key: str, scope: Scope, line: int) -> tuple[str, ...]:
    return distinct_list(
        value, key, scope, line, lambda v: identifier(v, key, scope, line), size=SUSPECT_COUNT
    )


def _condition(value: Any, key: str, scope: Scope, line: int) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) != 1:
        scope.fail(
            line,
            f"{key!r} must be an object with one key "
            f"(conditions: {', '.join(CONDITIONS)}), got {show(value)}",
        )
    ((name, arg),) = value.items()
    if name not in CONDITIONS:
        scope.fail(line, f"unknown condition {show(name)} (conditions: {', '.join(CONDITIONS)})")
    return {name: KINDS[CONDITIONS[name]](arg, name, scope, line)}


def _finish(header: Header, scope: Scope, supplied: object) -> Scope:
    """The events may name the header's suspects (or the bundled ones)."""
    return replace(scope, known={"suspect": suspects_of(header)})


# --------------------------------------------------------------------------
# The format

_PLAYER = Word("player", "PLAYER")
_SUSPECT = Word("suspect", "SUSPECT")

#: What the log format says about the Black Rose.
FORMAT = LogFormat(
    game="blackrose",
    events=events(
        EventSchema("role", (req("player", "player"), req("role", "role"))),
        EventSchema("proof", (req("suspect", "suspect"), opt("player", "player"))),
        EventSchema("accuse", (req("suspects", "suspect_pair"), req("correct", "bool"))),
        EventSchema("kill", (req("suspect", "suspect"),)),
        EventSchema("goal", (req("card", "id"), req("condition", "condition"))),
        EventSchema(
            "claim",
            (req("player", "player"), req("suspect", "suspect"), req("innocent", "bool")),
        ),
    ),
    grammar={
        "role": (_PLAYER, Word("role", "ROLE")),
        "proof": (_SUSPECT, Maybe(Keyword("by", _PLAYER))),
        "accuse": (Pair("suspects", "SUSPECT SUSPECT"), Flag("correct", "right|wrong")),
        "kill": (_SUSPECT,),
        "goal": (Word("card", "CARD"), Entry("condition", "CONDITION K")),
        "claim": (_PLAYER, _SUSPECT, Flag("innocent", "innocent|guilty", "innocent", "guilty")),
    },
    header=(req("rector", "player"), opt("suspects", "suspect_ids")),
    header_words={"rector": HeaderWord("rector"), "suspects": HeaderWord("suspects", "list")},
    kinds={
        "role": choice("role", ROLES),
        "suspect": _suspect,
        "suspect_pair": _suspect_pair,
        "suspect_ids": _suspect_ids,
        "condition": _condition,
    },
    soft_events=("claim",),
    players=(3, 5),
    # the Possessed seat when no investigator is possessed
    reserved_names=("none",),
    finish=_finish,
)
