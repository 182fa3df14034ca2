"""A live status line on standard error, for anything that runs past a second.

Only on a terminal: piped or redirected output never gets it, so a log of
the run holds only the results. The line appears after :data:`DELAY`
seconds, is rewritten a few times a second by a background thread (a single
long solve shows its elapsed time too), and is erased before the command
prints its results.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from time import perf_counter
from typing import Any

import click

#: Seconds before the status line appears.
DELAY = 1.0
#: Seconds between two updates of the line.
TICK = 0.25


def on_terminal() -> bool:
    """Whether standard error is a terminal (the status line is shown only there)."""
    return sys.stderr.isatty()


class _Line:
    """The status line: a thread rewrites it until it is closed."""

    def __init__(self, text: Callable[[float], str]) -> None:
        self._text = text
        self._start = perf_counter()
        self._done = threading.Event()
        self._width = 0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        if self._done.wait(DELAY):
            return
        while not self._done.is_set():
            line = self._text(perf_counter() - self._start)
            click.echo("\r" + line.ljust(self._width), nl=False, err=True)
            self._width = len(line)
            self._done.wait(TICK)

    def close(self) -> None:
        """Stop the thread and erase the line."""
        self._done.set()
        self._thread.join()
        if self._width:
            click.echo("\r" + " " * self._width + "\r", nl=False, err=True)


@contextmanager
def status(label: str, hint: str = "") -> Iterator[None]:
    """Show ``label`` and the elapsed time while the block runs, on a terminal only.

    ``hint`` follows the time once the block has run past :data:`DELAY` (a
    word on how to make it shorter, for instance ``--budget``).
    """
    if not on_terminal():
        yield
        return
    line = _Line(lambda seconds: f"{label}: {seconds:.0f} s" + (f" ({hint})" if hint else ""))
    try:
        yield
    finally:
        line.close()


def progress(items: Iterable[Any], total: int, label: str) -> Iterator[Any]:
    """Yield ``items``, with a status line (done, total, elapsed) on a terminal only."""
    if not on_terminal():
        yield from items
        return
    done = 0
    line = _Line(lambda seconds: f"{label}: {done}/{total} in {seconds:.0f} s")
    try:
        for item in items:
            done += 1
            yield item
    finally:
        line.close()
