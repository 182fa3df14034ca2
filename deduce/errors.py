"""Errors that reach the user as one clear line."""

from __future__ import annotations


class DeduceError(Exception):
    """A problem with the user's input or request, reported as one line."""


class OutOfMemory(DeduceError):
    """A computation stopped at the memory limit: the input is fine, the machine too small."""


class LogError(DeduceError):
    """A problem at one line of one log (or deck) file.

    ``str(error)`` is ``FILE:LINE: message`` (``FILE: message`` without a line).
    """

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


class InconsistentLog(DeduceError):
    """A request that needs a consistent log met one that contradicts itself."""
