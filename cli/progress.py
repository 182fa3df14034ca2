"""A progress bar on standard error for commands that work through many items."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any

import click

#: Runs shorter than this show no progress bar.
MIN_ITEMS = 5


def progress(items: Iterable[Any], total: int, label: str) -> Iterator[Any]:
    """Yield ``items``, with a progress bar on standard error for long runs."""
    if total < MIN_ITEMS:
        yield from items
        return
    with click.progressbar(items, length=total, label=label, file=sys.stderr) as bar:
        yield from bar
