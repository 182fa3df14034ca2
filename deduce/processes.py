"""Helper processes that never outlive the process that started them.

A long computation hands work to processes of its own (``play``'s
background refiner, the Abbey's chains on every core). Each such child
calls :func:`follow_parent` first: a thread waits on the parent's
sentinel and ends the child the moment the parent ends, however it ends
(SIGKILL included), so a child of a child goes as soon as its parent has
gone. :func:`context` starts them by fork on Linux (in milliseconds, the
parent's state shared) and by spawn elsewhere.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import sys
import threading
from typing import Any


def context() -> Any:
    """Fork on Linux (a child starts in milliseconds), spawn elsewhere."""
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    return multiprocessing.get_context(method)


def cores() -> int:
    """The cores this process may run on (what "every core" means here)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def follow_parent() -> None:
    """In a child: end this process as soon as its parent ends."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()


def lower_priority(steps: int) -> None:
    """Let the other processes of the machine go first (``steps`` of niceness), where possible."""
    if hasattr(os, "nice"):
        try:
            os.nice(steps)
        except OSError:  # not allowed here: keep the priority
            pass


def _exit_with(sentinel: int) -> None:
    """Wait for the parent's end (its sentinel is ready), then end this process at once."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)
