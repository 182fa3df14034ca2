"""The short tables ``deduce play`` shows after every event (``show`` prints the full ones).

- **abbey**: the most probable culprit candidates (at most
  :data:`TOP_CANDIDATES` rows), the number of candidates in the title, and
  whether the probabilities are estimated;
- **rose**: one row per other player, their possible colours, most probable
  first;
- **blackrose**: the most probable accomplice pairs (at most
  :data:`TOP_PAIRS` rows), and who can be the Possessed.

An inconsistent log has no table: :func:`contradiction` says so in one line,
naming the conflicting lines when they are known (see :mod:`~deduce.assist.live`).
"""

from __future__ import annotations

from fractions import Fraction

from deduce.assist.live import Inconsistent
from deduce.games.abbey.solver.solve import AbbeySolution
from deduce.games.blackrose.solve import BlackRoseSolution
from deduce.games.rose.solve import RoseSolution
from deduce.report import Table, percent, plural
from deduce.solving import Solution, outlook

#: Culprit candidates shown after each Abbey event.
TOP_CANDIDATES = 8
#: Accomplice pairs shown after each Black Rose event.
TOP_PAIRS = 5


def _chance(p: Fraction | float) -> str:
    """A probability; a possible case estimated at 0 reads ``~0%``, never blank."""
    return percent(p) or "~0%"


def _more(shown: int, total: int, columns: int) -> list[list[str]]:
    """The last row of a cut table: how many rows were left out (none if nothing was)."""
    return [[f"... {total - shown} more", *[""] * (columns - 1)]] if total > shown else []


def abbey_table(solution: AbbeySolution) -> Table:
    """The top culprit candidates with their names and chances."""
    view = outlook(solution)
    answers = view.answers
    deck = solution.setup.deck
    rows = [[card, deck.card(card).name, _chance(p)]
            for card, p in list(answers.items())[:TOP_CANDIDATES]]
    title = f"Culprit: {plural(len(answers), 'candidate')}"
    if not solution.exact:
        title += f" (chances estimated, within {100 * solution.error:.1f} points)"
    return Table(title, ["card", "name", "chance"],
                 rows + _more(len(rows), len(answers), 3))


def rose_table(solution: RoseSolution) -> Table:
    """Each other player's possible colours, most probable first, one row per player."""
    rows = []
    for player in solution.players:
        row = solution.probabilities[player]
        ranked = sorted(row, key=lambda c: -row[c])
        rows.append([player, "  ".join(f"{c} {percent(row[c])}" for c in ranked)])
    title = f"Colours: {plural(outlook(solution).candidates, 'possible colouring')}"
    if solution.weighed:
        title += f" (weighing {plural(solution.weighed, 'behaviour event')})"
    return Table(title, ["player", "colours"], rows)


def blackrose_tables(solution: BlackRoseSolution) -> list[Table]:
    """The top accomplice pairs, then who can be the Possessed."""
    pairs = list(solution.pairs.items())
    rows = [[f"{a} + {b}", percent(p)] for (a, b), p in pairs[:TOP_PAIRS]]
    title = f"Accomplices: {plural(len(pairs), 'possible pair')}"
    if solution.weighed:
        title += f" (weighing {plural(solution.weighed, 'claim')})"
    possessed = [["nobody" if who is None else who, percent(p)]
                 for who, p in solution.possessed.items()]
    return [Table(title, ["pair", "chance"], rows + _more(len(rows), len(pairs), 2)),
            Table("The Possessed", ["player", "chance"], possessed)]


def compact_tables(solution: Solution | Inconsistent) -> list[Table]:
    """The short tables of a consistent solution (none for an inconsistent one)."""
    if isinstance(solution, Inconsistent) or not solution.consistent:
        return []
    if isinstance(solution, AbbeySolution):
        return [abbey_table(solution)]
    if isinstance(solution, RoseSolution):
        return [rose_table(solution)]
    return blackrose_tables(solution)


def contradiction(solution: Solution | Inconsistent) -> str:
    """One line for an inconsistent log: which lines cannot all be true, when known."""
    if not solution.conflict:
        return "Contradiction: no history of the game fits every event."
    lines = ", ".join(map(str, solution.conflict))
    return f"Contradiction: lines {lines} cannot all be true."
