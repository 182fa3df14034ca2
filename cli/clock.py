"""Each command's own clock, started when its command line is read, for whole-command budgets."""

from __future__ import annotations

from time import perf_counter

import click

_KEY = "deduce.started"


def start_clock(ctx: click.Context) -> None:
    """Start the clock of the command being invoked."""
    ctx.meta[_KEY] = perf_counter()


def elapsed() -> float:
    """Seconds since the current command's clock started (0 outside a command)."""
    ctx = click.get_current_context(silent=True)
    started = None if ctx is None else ctx.meta.get(_KEY)
    return 0.0 if started is None else perf_counter() - started
