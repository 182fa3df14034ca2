"""One ``deduce play`` per log: an advisory lock beside the log file.

Two sessions appending to one log would interleave their lines. The lock is
``LOG.lock``, beside the log (the log itself is rewritten atomically by
``undo``, ``edit`` and ``drop``, which replaces its inode, so it cannot carry
the lock). It is an advisory ``flock``: the system releases it when the
process ends, however it ends, so a crash never leaves a log locked. The
lock file holds the owner's process id, for the message, and is removed by
a clean exit. Where ``fcntl`` does not exist (Windows), there is no lock.
"""

from __future__ import annotations

import contextlib
import os
from types import TracebackType

from deduce.errors import DeduceError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]


def lock_path(path: str) -> str:
    """The lock file of the log at ``path``."""
    return f"{path}.lock"


class LogLock:
    """The lock of one log, held from :meth:`acquire` to :meth:`release` (or a ``with``)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lock = lock_path(path)
        self._fd: int | None = None

    def acquire(self) -> LogLock:
        """Take the lock, or raise a one-line error naming the session that holds it."""
        if fcntl is None:
            return self
        while True:
            try:
                fd = os.open(self.lock, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise DeduceError(
                    f"{self.path}: cannot create the lock file {self.lock}: {exc.strerror or exc}"
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                owner = os.read(fd, 32).decode("ascii", "replace").strip()
                os.close(fd)
                who = f" (process {owner})" if owner.isdigit() else ""
                raise DeduceError(
                    f"{self.path}: another deduce play has this log open{who}; "
                    "one session per log, so that no line is lost or mixed "
                    f"(if none is running, remove {self.lock})"
                ) from None
            if _same_file(fd, self.lock):  # not a lock file another session just removed
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        self._fd = fd
        return self

    def release(self) -> None:
        """Remove the lock file and let go of the lock."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.lock)
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> LogLock:
        return self.acquire()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()


def _same_file(fd: int, path: str) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        here, there = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)
