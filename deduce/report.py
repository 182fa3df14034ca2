"""Tables shared by every command: a title, headers and rows, printed by the CLI."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Table:
    """One table of a report."""

    title: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Any]]


def style_table(
    styles: Mapping[str, Mapping[str, Fraction | float]], names: Mapping[str, str]
) -> Table:
    """What a log says about how each player plays: per player, each style's probability.

    ``styles[player][style]`` is the posterior of that player's style;
    ``names[style]`` the words of its column, in column order.
    """
    rows = [
        [player, *(percent(row.get(style, 0)) or "0%" for style in names)]
        for player, row in styles.items()
    ]
    return Table(
        "How each player plays (what their choices say)", ["player", *names.values()], rows
    )


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``1 candidate``, ``2 candidates``; ``nouns`` when the plural is not ``noun + s``."""
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"


def tie(chances: Iterable[Fraction | float], noun: str) -> str:
    """``2 suspects tied at 17.9%`` when exact chances share the top, else ``""``."""
    values = list(chances)
    top = max(values, default=None)
    tied = sum(1 for v in values if v == top)
    return f"{plural(tied, noun)} tied at {percent(top)}" if top is not None and tied > 1 else ""


def clash(lines: Sequence[int]) -> str:
    """Which lines cannot hold together, in words.

    ``line 7 cannot be true``; ``lines 4, 5 cannot all be true``.
    """
    if len(lines) == 1:
        return f"line {lines[0]} cannot be true"
    return f"lines {', '.join(map(str, lines))} cannot all be true"


def percent(p: Fraction | float) -> str:
    """A probability for people: ``33.3%``; never shows a possible case as 0% or a doubt as 100%."""
    if p == 0:
        return ""
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


#: The widest bound (absolute, at 95% confidence) an estimated probability may have and
#: still be shown as a number. Past it a number would claim more than the solver knows:
#: the cell shows :data:`UNKNOWN` and the title says :data:`NO_TIME`.
USEFUL_BOUND = 0.10
#: A probability cell whose estimate is too wide to show.
UNKNOWN = "?"
#: Why the numbers are missing, in a title.
NO_TIME = "not enough time to estimate"


def usable(exact: bool, error: float) -> bool:
    """Whether probabilities may be shown as numbers: exact, or estimated within the bound."""
    return exact or error <= USEFUL_BOUND


def estimated(p: Fraction | float, error: float) -> str:
    """An estimated probability of a possible case: never 0% or 100%, ``?`` when too wide."""
    if error > USEFUL_BOUND:
        return UNKNOWN
    if p >= 1:
        return ">99.9%"
    return percent(p) or "~0%"


def too_wide(error: float) -> str:
    """The words of a title whose estimates are too wide to show, with their bound.

    An error of 1 (or more) means no estimate was made at all.
    """
    if error >= 1:
        return f"{NO_TIME} the chances; give a longer --budget"
    return (
        f"{NO_TIME} the chances: the estimate is only within {100 * error:.1f} points, "
        f"over {100 * USEFUL_BOUND:.0f}; give a longer --budget"
    )


def chance(p: Fraction | float) -> str:
    """A probability in a short table: a possible case estimated at 0 reads ``~0%``."""
    return percent(p) or "~0%"


def more_rows(shown: int, total: int, columns: int) -> list[list[str]]:
    """The last row of a cut table: how many rows were left out (none if nothing was)."""
    return [[f"... {total - shown} more", *[""] * (columns - 1)]] if total > shown else []


def render(tables: Sequence[Table], fmt: str = "simple") -> str:
    """Tables as text in a tabulate format, each under its title."""
    from tabulate import tabulate  # a tenth of the start-up time: only when printing tables

    parts = []
    for table in tables:
        body = tabulate(table.rows, headers=table.headers, tablefmt=fmt, disable_numparse=True)
        parts.append(f"{table.title}\n{body}" if table.title else body)
    return "\n\n".join(parts)


def to_csv(table: Table) -> str:
    """One table as CSV text with a header row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.headers)
    writer.writerows(table.rows)
    return out.getvalue()
