"""Fixtures shared by the test files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def log_file(tmp_path: Path) -> Callable[..., str]:
    """``write(text, name="g.log")``: a file of ``text`` in a fresh folder, by path."""

    def write(text: str, name: str = "g.log") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write
