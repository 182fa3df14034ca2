"""Edits of a data file's JSON object, for the tables of broken files in the data tests.

An edit is a function that changes the parsed object in place; the tests
apply one to a fresh copy of the default file and check the error it gives.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from deduce.errors import LogError

Edit = Callable[[dict[str, Any]], None]


def set_key(key: str, value: Any) -> Edit:
    """Set the top-level ``key`` to ``value``."""

    def change(raw: dict[str, Any]) -> None:
        raw[key] = value

    return change


def item_edit(key: str) -> Callable[..., Edit]:
    """``edit(i, **changes)``: update item ``i`` of the top-level list ``key`` with ``changes``."""

    def edit(i: int, **changes: Any) -> Edit:
        def change(raw: dict[str, Any]) -> None:
            raw[key][i].update(changes)

        return change

    return edit


def assert_refused(
    build: Callable[[Any, str], Any],
    raw: dict[str, Any],
    change: Edit,
    message: str,
    path: str = "d.json",
) -> None:
    """``build(edited copy of raw, path)`` fails with one line starting ``path: message``."""
    edited = copy.deepcopy(raw)
    change(edited)
    with pytest.raises(LogError) as info:
        build(edited, path)
    assert str(info.value).startswith(f"{path}: {message}")
    assert "\n" not in str(info.value)
