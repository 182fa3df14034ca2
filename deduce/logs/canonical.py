"""The canonical JSON text of a value: one line, stable, safe for line-based tools."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: Separators of the canonical form (those of ``json.dumps`` by default, made explicit).
SEPARATORS = (", ", ": ")

#: Characters other than newline that some tools take as line breaks; always escaped.
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def dump_value(value: Any) -> str:
    """Return ``value`` as canonical one-line JSON text.

    Non-ASCII text is kept as is, except the characters that some tools treat
    as line breaks, which are escaped so physical lines stay unambiguous.
    """
    text = json.dumps(value, ensure_ascii=False, separators=SEPARATORS, allow_nan=False)
    for char, escape in _LINE_BREAKS.items():
        text = text.replace(char, escape)
    return text


def dump_object(obj: Mapping[str, Any]) -> str:
    """Return one canonical JSON line (without the newline)."""
    return dump_value(obj)
