"""Rose results as tables: the guesses, each player's colour probabilities, or the conflict.

Also the short table ``play`` shows after every event, and a check run's summary.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from deduce.games.rose.solve import RoseSolution
from deduce.logs.vocabulary.rose import COLOURS
from deduce.report import Table, percent, plural

if TYPE_CHECKING:  # the check pulls in the engine and bots, which solving does not need
    from deduce.games.rose.check import CheckSummary


def _chance(solution: RoseSolution, player: str, colour: str) -> str:
    """A cell: the probability that ``player`` is ``colour`` (``0%`` when impossible)."""
    return percent(solution.probabilities[player].get(colour, Fraction(0))) or "0%"


def guess_table(solution: RoseSolution) -> Table:
    """Per player: the most probable colour, and the day-7 joint guess (all colours different).

    The title gives the day-7 guess as the main answer, as ``batch``,
    ``analyze`` and ``suggest`` show it: the expected number right, the
    chance that all are right, and how many guesses tie.
    """
    best, tied = solution.guess, solution.tied_guesses()
    joint = tied[0]
    rows = [[p, best[p], _chance(solution, p, best[p]), joint[p], _chance(solution, p, joint[p])]
            for p in solution.players]
    expected = sum(solution.probabilities[p].get(joint[p], Fraction(0)) for p in solution.players)
    whole = solution.joint.get(tuple(joint[p] for p in solution.players), Fraction(0))
    title = (f"Guesses (the day-7 guess: expected right {float(expected):.2f} of "
             f"{len(solution.players)}, all right {percent(whole) or '0%'}")
    if len(tied) > 1:
        title += f"; tied with {plural(len(tied) - 1, 'other guess', 'other guesses')}"
    return Table(title + ")", ["player", "most probable", "chance", "day-7 guess", "chance"], rows)


def identity_table(solution: RoseSolution) -> Table:
    """Every reported player against every colour (blank: impossible)."""
    rows = [[p, *(percent(solution.probabilities[p].get(c, 0)) for c in COLOURS)]
            for p in solution.players]
    events = solution.weighed
    title = "Who is which monk"
    if events:
        title += f" (weighing {plural(events, 'behaviour event')})"
    return Table(title, ["player", *COLOURS], rows)


def conflict_table(solution: RoseSolution) -> Table:
    """The explanation of a contradiction, one sentence per row."""
    head, *sentences = solution.explanation
    return Table(f"Inconsistent log. {head}", ["why"], [[s] for s in sentences])


def tables(solution: RoseSolution) -> list[Table]:
    """The tables printed by ``deduce solve`` for this solution (the matrix last, for ``--csv``)."""
    if not solution.consistent:
        return [conflict_table(solution)]
    return [guess_table(solution), identity_table(solution)]


def compact_table(solution: RoseSolution) -> Table:
    """Each other player's possible colours, most probable first: the table ``play`` shows."""
    rows = []
    for player in solution.players:
        row = solution.probabilities[player]
        ranked = sorted(row, key=lambda c: -row[c])
        rows.append([player, "  ".join(f"{c} {percent(row[c])}" for c in ranked)])
    title = f"Colours: {plural(len(solution.joint), 'possible colouring')}"
    if solution.weighed:
        title += f" (weighing {plural(solution.weighed, 'behaviour event')})"
    return Table(title, ["player", "colours"], rows)


def check_tables(summary: CheckSummary) -> list[Table]:
    """A check run: Brier score and accuracy per reading, then any soundness failure."""
    data = summary.to_json()
    rows = [[reading, data[reading]["guesses"], f"{data[reading]['brier']:.4f}",
             f"{100 * data[reading]['accuracy']:.1f}%",
             f"{100 * data[reading]['day7_accuracy']:.1f}%"] for reading in ("behaviour", "hard")]
    title = (f"{summary.games} games of {summary.players} players ({summary.seconds:.1f} s), "
             f"at the seventh day's guesses: {data['soundness_failures']} soundness failures")
    scores = Table(title, ["reading", "guesses", "Brier score", "most probable right",
                           "day-7 guess right"], rows)
    if not summary.failures:
        return [scores]
    return [scores, Table("Soundness failures (the truth eliminated)", ["failure"],
                          [[f] for f in summary.failures[:20]])]
