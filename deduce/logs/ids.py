"""Identifiers shared by every game's logs and data files."""

from __future__ import annotations

import re

#: A card, player, room or suspect id: lowercase letters, digits, ``_`` and ``-``.
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
