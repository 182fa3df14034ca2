"""How much memory a long exact computation may take before it gives up.

Counting every history of a long Abbey log can outgrow the machine; the
system would then kill the process without a word. The counter checks the
process's resident memory between slices of work against
:func:`memory_limit` and stops with a clear message instead.

The limit is ``DEDUCE_MEMORY`` (megabytes, per process) when set, else
:data:`MEMORY_SHARE` of the machine's physical memory, shared evenly by
the worker processes of a pool (:func:`share`).
"""

from __future__ import annotations

import os

from deduce.errors import DeduceError

#: Share of the machine's memory one computation may fill (all workers together).
MEMORY_SHARE = 0.5
#: The environment variable that sets the limit, in megabytes per process.
VARIABLE = "DEDUCE_MEMORY"


def memory_limit() -> int | None:
    """Bytes this process may hold while counting (None: unknown, no limit)."""
    chosen = os.environ.get(VARIABLE)
    if chosen:
        try:
            return int(float(chosen) * 2**20)
        except ValueError:
            raise DeduceError(f"{VARIABLE}: not a number of megabytes: {chosen!r}") from None
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") * MEMORY_SHARE)
    except (AttributeError, OSError, ValueError):
        return None


def share(workers: int) -> None:
    """In a pool's worker: take one ``workers``-th of the default limit (a pool initializer).

    A limit the user set with ``DEDUCE_MEMORY`` is left as it is.
    """
    if os.environ.get(VARIABLE):
        return
    limit = memory_limit()
    if limit is not None:
        os.environ[VARIABLE] = str(limit / max(1, workers) / 2**20)


def size(n: int) -> str:
    """Bytes for people: ``512 MB``, ``11.8 GB``."""
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{n / 2**20:.0f} MB"


def resident() -> int | None:
    """The process's resident memory in bytes (None where ``/proc`` is not available)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")
