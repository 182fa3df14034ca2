"""Fuzzed input files: every kind of file deduce reads, mutated from a valid one.

Each :data:`READERS` entry names a kind of file, a valid seed text and the
function that reads such a file. :func:`mutate` applies a few random
byte-level mutations (flip, insert, delete, duplicate or swap lines, cut
the end, splice in a fragment of another seed). :func:`outcome` feeds one
input to its reader and says what happened: ``"ok"``, ``"error"`` (a
one-line ``DeduceError`` naming the file and line) or ``"crash"`` with the
reason (a traceback's exception, a message on several lines or without the
file and line).

The suite runs a bounded Hypothesis test over these (``tests/test_fuzz.py``);
``python -m tools.fuzz`` runs many more.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deduce.errors import DeduceError
from deduce.games.abbey.rules.board import load_board_file
from deduce.games.abbey.rules.cards import load_cards_file as load_abbey_cards
from deduce.games.blackrose.cards import load_cards_file as load_blackrose_cards
from deduce.games.blackrose.claims import load_model_file as load_claims
from deduce.games.rose.behaviour import load_model_file as load_behaviour
from deduce.games.rose.data import load_data_file
from deduce.logs.formats.abbey import load_deck_file
from deduce.logs.io import read_log

ROOT = Path(__file__).resolve().parent.parent


def _bundled(name: str) -> bytes:
    return (ROOT / "deduce" / "data" / name).read_bytes()


def _example(name: str) -> bytes:
    return (ROOT / "examples" / name).read_bytes()


#: kind -> (file suffix, seed bytes, reader of a path)
READERS: dict[str, tuple[str, Callable[[], bytes], Callable[[str], Any]]] = {
    "abbey log (lines)": (".log", lambda: _example("abbey-4p.log"), read_log),
    "abbey log (jsonl)": (".jsonl", lambda: _example("abbey-6p.jsonl"), read_log),
    "rose log": (".jsonl", lambda: _example("rose-4p.jsonl"), read_log),
    "blackrose log": (".jsonl", lambda: _example("blackrose-4p.jsonl"), read_log),
    "deck": (".json", lambda: _bundled("abbey-deck.json"), load_deck_file),
    "board": (".json", lambda: _bundled("abbey-board.json"), load_board_file),
    "abbey cards": (".json", lambda: _bundled("abbey-cards.json"), load_abbey_cards),
    "blackrose cards": (".json", lambda: _bundled("blackrose-cards.json"), load_blackrose_cards),
    "rose data": (".json", lambda: _bundled("rose-game.json"), load_data_file),
    "rose model": (".json", lambda: _bundled("rose-behaviour.json"), load_behaviour),
    "blackrose model": (".json", lambda: _bundled("blackrose-claims.json"), load_claims),
}

#: Bytes that break parsers in interesting ways.
SPECIAL = [
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\r",
    b"\n",
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b",",
    b":",
    b"#",
    b"+",
    b" ",
    b"-1",
    b"0",
    b"1e999",
    b"NaN",
    b"null",
    b"true",
    b"\xef\xbb\xbf",
    b"\\u0000",
    b"99999999999999999999",
]


def mutate(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    """One to four random mutations of ``data`` (``others``: seeds to splice from)."""
    for _ in range(rng.randint(1, 4)):
        lines = data.split(b"\n")
        kind = rng.randrange(8)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:  # replace one byte
            data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
        elif kind == 1:  # insert a special token
            data = data[:at] + rng.choice(SPECIAL) + data[at:]
        elif kind == 2:  # delete a stretch
            data = data[:at] + data[at + rng.randint(1, 40) :]
        elif kind == 3:  # duplicate a line
            i = rng.randrange(len(lines))
            data = b"\n".join([*lines[:i], lines[i], *lines[i:]])
        elif kind == 4 and len(lines) > 1:  # swap two lines
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif kind == 5:  # cut the end
            data = data[:at]
        elif kind == 6 and others:  # splice a fragment of another file
            other = rng.choice(others)
            start = rng.randrange(len(other) + 1)
            data = data[:at] + other[start : start + rng.randint(1, 200)] + data[at:]
        else:  # change a number
            digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
            if digits:
                i = rng.choice(digits)
                data = data[:i] + str(rng.choice([0, 1, 2, 7, 24, 99, -1])).encode() + data[i + 1 :]
    return data


def seeds() -> dict[str, bytes]:
    """Every reader's valid seed."""
    return {kind: seed() for kind, (_, seed, _) in READERS.items()}


def outcome(kind: str, data: bytes, folder: Path) -> tuple[str, str]:
    """Feed ``data`` to the reader of ``kind`` through a file in ``folder``."""
    suffix, _, reader = READERS[kind]
    path = folder / f"input{suffix}"
    path.write_bytes(data)
    try:
        reader(str(path))
    except DeduceError as exc:
        message = str(exc)
        if "\n" in message or not re.match(rf"{re.escape(str(path))}:\d+: ", message):
            return "crash", f"not a one-line error naming the file and line: {message!r}"
        return "error", message
    except RecursionError:
        return "crash", "RecursionError"
    except Exception as exc:  # anything else is a traceback for the user
        return "crash", f"{type(exc).__name__}: {exc}"
    return "ok", ""
