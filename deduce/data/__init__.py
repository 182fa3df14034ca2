"""Bundled data files (default deck, board, cards, suspect lists) and the JSON readers for them.

The defaults are not the printed cards or board (see each loader's module);
users replace them with files of the same shape, read by :func:`read_json_file`.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from deduce.errors import LogError


def bundled_json(name: str) -> Any:
    """The parsed JSON of a bundled data file."""
    return json.loads(resources.files(__name__).joinpath(name).read_text("utf-8"))


def read_json_file(path: str, what: str) -> Any:
    """A user's JSON file; any problem is a one-line error naming the file (and line).

    ``what`` names the kind of file in messages (``"deck file"``...).
    """
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise LogError(path, None, f"cannot read {what}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise LogError(path, None, f"{what} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise LogError(path, exc.lineno, f"{what} is not valid JSON: {exc.msg}") from None
