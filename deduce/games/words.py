"""Reading the words of a ``why`` query, the same way in every game."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from deduce.errors import DeduceError
from deduce.logs.model import GameLog


def pick(word: str, choices: Sequence[str], noun: str) -> str:
    """``word`` if it is one of ``choices``; else a one-line error suggesting the closest."""
    if word in choices:
        return word
    close = difflib.get_close_matches(word, choices, n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"{noun}s: {', '.join(choices)}"
    raise DeduceError(f"unknown {noun} '{word}' ({hint})")


def arity(words: Sequence[str], usage: str, low: int, high: int) -> None:
    """Refuse a query with too few or too many words (``usage``: the query as help shows it)."""
    if not low <= len(words) <= high:
        raise DeduceError(f"usage: {usage}")


def next_line(log: GameLog) -> int:
    """A line number after every line of the log, for a hypothesis."""
    return max((e.line for e in log.events), default=log.header.line) + 1
