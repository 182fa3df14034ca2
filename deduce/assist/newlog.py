"""A new log: the questions it asks, its header, and a free file name.

Every game asks the seats (``players``, in turn order) and the observer
(``me``: a player, or ``spectator``). Then each game asks the header keys
it needs (:func:`questions`): the Black Rose its Rector and, optionally,
its seven suspects; the Abbey its pile and hand sizes only when the
rulebook's do not apply (with other than 3 to 6 players). The answers become
the raw header that a JSON log would hold, checked by the project's reader
(:func:`header_text`), so a wrong answer gets the reader's own message.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from deduce.errors import DeduceError
from deduce.games.protocol import Question
from deduce.logs.canonical import dump_object
from deduce.logs.io import Syntax, format_log
from deduce.logs.jsonl import parse_jsonl
from deduce.registry import game

#: What ``me`` is answered with for a log without an observer.
SPECTATOR = "spectator"
#: The file name offered for a new log, before numbering (``game-2.log``...).
DEFAULT_NAME = "game.log"


def questions(name: str, players: tuple[str, ...]) -> tuple[Question, ...]:
    """The header keys game ``name`` asks about once the players are known."""
    return game(name).questions(players)


def openings(name: str, me: str) -> tuple[Question, ...]:
    """What game ``name`` asks the observer ``me`` about their own cards or role.

    Each answer, when given, becomes the log's first events (see
    :meth:`deduce.games.protocol.Game.openings`).
    """
    if me == SPECTATOR:
        return ()
    return game(name).openings(me)


def opening_event(question: Question, answer: str) -> str | None:
    """The event line an opening answer makes (None when left empty)."""
    ids = words(answer)
    return f"{question.key} {' '.join(ids)}" if ids else None


def words(answer: str) -> tuple[str, ...]:
    """The ids in an answer, separated by spaces or commas, in lower case (ids are)."""
    return tuple(answer.replace(",", " ").lower().split())


def _value(question: Question, answer: str) -> Any:
    """The raw header value of one answer (the reader checks it)."""
    if question.kind == "ids":
        return list(words(answer))
    answer = answer.strip()
    if question.kind == "count":
        try:
            return int(answer)
        except ValueError:
            raise DeduceError(f"{question.key} must be a whole number, not {answer!r}") from None
    return answer


def raw_header(
    game: str, players: str, me: str, answers: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The raw header of a new log from the answers (``me``: a player or ``spectator``)."""
    seats = words(players)
    observer = me.strip().lower()
    raw: dict[str, Any] = {
        "game": game,
        "version": 1,
        "players": list(seats),
        "me": None if observer == SPECTATOR else observer,
    }
    given = answers or {}
    for question in questions(game, seats):
        answer = given.get(question.key, "")
        if answer.strip() or question.required:
            raw[question.key] = _value(question, answer)
    return raw


def header_text(raw: Mapping[str, Any], path: str, syntax: Syntax) -> str:
    """A new log's text in ``syntax``: the header alone, checked by the reader."""
    return format_log(parse_jsonl(dump_object(raw) + "\n", path), syntax)


def free_name(folder: str = ".") -> str:
    """The first of ``game.log``, ``game-2.log``, ``game-3.log``... that does not exist."""
    stem, ext = os.path.splitext(DEFAULT_NAME)
    number = 1
    name = DEFAULT_NAME
    while os.path.lexists(os.path.join(folder, name)):
        number += 1
        name = f"{stem}-{number}{ext}"
    return name
