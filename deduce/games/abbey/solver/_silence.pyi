"""The silence law's likelihood, compiled (``_silence.c``): see ``silence.Silence``."""

from typing import Any

def log_likelihood(arrays: tuple[Any, ...], log_stay: float, anything: float) -> float: ...
