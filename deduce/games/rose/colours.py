"""The six monk colours of The Name of the Rose (identity cards and markers)."""

from __future__ import annotations

#: Monk colours as lowercase ids, in the order the log format lists them.
COLOURS: tuple[str, ...] = ("red", "blue", "white", "grey", "black", "orange")
