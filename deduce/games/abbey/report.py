"""Abbey results as tables: the solution, the short table of ``play``, a check run.

The solution's tables are the culprit candidates and who holds each card;
``play`` shows the top candidates after every event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deduce.games.abbey.advice.race import opponents_table
from deduce.games.abbey.solver.solve import AbbeySolution
from deduce.games.abbey.solver.timeline import holder_names
from deduce.games.reliability import reliability_rows
from deduce.logs.formats.abbey import TRAITS
from deduce.report import (
    Table,
    chance,
    estimated,
    more_rows,
    percent,
    plural,
    tie,
    too_wide,
    usable,
)

if TYPE_CHECKING:  # the check pulls in the engine and bots, which solving does not need
    from deduce.games.abbey.sim.check import CheckSummary


def _listing(solution: AbbeySolution) -> tuple[bool, list[str]]:
    """Whether the chances may be shown, and the candidates in the order to list them.

    Most probable first; in deck order when the estimate is too wide to imply
    a ranking (:func:`~deduce.report.usable`).
    """
    shown = usable(solution.culprit_exact, solution.culprit_bound) or len(solution.culprit) == 1
    deck = solution.setup.deck.ids
    return shown, solution.candidates if shown else [c for c in deck if c in solution.culprit]


def _tie(solution: AbbeySolution) -> str:
    """`` (2 suspects tied at 17.9%)`` when exact chances tie for the most probable."""
    tied = tie(solution.culprit.values(), "suspect") if solution.culprit_exact else ""
    return f" ({tied})" if tied else ""


def candidate_table(solution: AbbeySolution) -> Table:
    """Culprit candidates, most probable first, with traits and probability.

    Estimates too wide to show (:func:`~deduce.report.usable`) leave the
    probabilities out and list the candidates in deck order.
    """
    deck = solution.setup.deck
    shown, order = _listing(solution)
    rows: list[list[Any]] = []
    for cid in order:
        card = deck.card(cid)
        traits = " ".join(t for t in TRAITS if t in card.traits)
        rows.append([cid, card.name, traits, _culprit_cell(solution, cid)])
    title = f"Culprit: {plural(len(rows), 'candidate')}"
    title += _tie(solution)
    if not shown:
        title += f" (exact; {too_wide(solution.culprit_bound)})"
    elif not solution.culprit_exact:
        title += (
            f" (exact; probabilities estimated, within {100 * solution.culprit_bound:.1f}"
            " points at 95% confidence)"
        )
    return Table(title, ["card", "name", "traits", "probability"], rows)


def holder_table(solution: AbbeySolution) -> Table:
    """Every card against every possible current holder (blank: impossible)."""
    names = holder_names(solution.setup)
    rows = [
        [cid, *(_shown(solution.holders[cid], h, solution.exact, solution.error) for h in names)]
        for cid in solution.setup.deck.ids
    ]
    title = "Who holds each card now"
    if not solution.exact and solution.culprit_exact:
        title += (
            f" (estimated, within {100 * solution.error:.1f} points at 95% confidence;"
            " the culprit's chances are exact)"
        )
    return Table(title, ["card", *names], rows)


def _culprit_cell(solution: AbbeySolution, card: str) -> str:
    """A culprit candidate's cell, as exact as the culprit's chances are."""
    return _shown(solution.culprit, card, solution.culprit_exact, solution.culprit_bound)


def _shown(row: dict, key: str, exact: bool, error: float) -> str:
    """A cell: blank when impossible, exact as it is, an estimate as :func:`estimated` shows it.

    An estimate never reads 0% or 100%, and ``?`` when its bound is too wide;
    but the only possibility in a row is certain (the possibilities are exact).
    """
    if key not in row:
        return ""
    if exact or len(row) == 1:  # the only possibility is certain, estimate or not
        return percent(1 if len(row) == 1 else row[key])
    return estimated(row[key], error)


def conflict_table(solution: AbbeySolution) -> Table:
    """The explanation of a contradiction, one sentence per row."""
    head, *sentences = solution.explanation
    return Table(f"Inconsistent log. {head}", ["why"], [[s] for s in sentences])


def tables(solution: AbbeySolution) -> list[Table]:
    """The tables printed by ``deduce solve`` for this solution (the holders' last, for CSV)."""
    if not solution.consistent:
        return [conflict_table(solution)]
    others = [] if solution.opponents is None else [opponents_table(solution.opponents)]
    return [candidate_table(solution), *others, holder_table(solution)]


#: Culprit candidates shown after each event in ``play``.
TOP_CANDIDATES = 8


def compact_table(solution: AbbeySolution) -> Table:
    """The top culprit candidates with their names and chances (as honest as the solve)."""
    deck = solution.setup.deck
    shown, order = _listing(solution)
    rows = [
        [
            card,
            deck.card(card).name,
            chance(float(solution.culprit[card]))
            if solution.culprit_exact
            else _culprit_cell(solution, card),
        ]
        for card in order[:TOP_CANDIDATES]
    ]
    title = f"Culprit: {plural(len(order), 'candidate')}"
    title += _tie(solution)
    if not shown:
        title += f" ({too_wide(solution.culprit_bound)})"
    elif not solution.culprit_exact:
        title += f" (chances estimated, within {100 * solution.culprit_bound:.1f} points)"
    return Table(title, ["card", "name", "chance"], rows + more_rows(len(rows), len(order), 3))


def check_tables(summary: CheckSummary) -> list[Table]:
    """The tables printed by ``deduce check``: totals, then any soundness failures."""
    positions = max(summary.positions, 1)
    spread = summary.spread()
    rows: list[list[Any]] = [
        ["games", summary.games],
        ["logs", summary.logs],
        ["positions checked", summary.positions],
        ["soundness failures", len(summary.failures)],
        ["exact probabilities", f"{100 * summary.exact / positions:.1f}%"],
        ["logs that found the culprit", summary.logs - summary.undetermined],
    ]
    rows += [[f"events to the culprit, {k}", "" if v is None else v] for k, v in spread.items()]
    rows.append(["seconds (all positions)", f"{summary.seconds:.1f}"])
    rows.append(["intruders caught owing a card", summary.catches])
    if summary.calibration.positions or summary.estimated.positions:
        rows.append(["scored positions after such a catch", summary.after_catch])
    tables = [Table("Solver against the truth", ["measure", "value"], rows)]
    tables += [
        _calibration_table(c.to_json(), kind)
        for c, kind in ((summary.calibration, "exact"), (summary.estimated, "estimated"))
        if c.positions
    ]
    if summary.failures:
        tables.append(
            Table("Soundness failures", ["where and what"], [[f] for f in summary.failures])
        )
    return tables


def _calibration_table(data: dict[str, Any], kind: str) -> Table:
    """One calibration (``exact`` or ``estimated`` chances) as a reliability table."""
    bound = (
        f", estimates within {100 * data['mean_error']:.1f} points on average (95%)"
        if kind == "estimated"
        else ""
    )
    return Table(
        f"Calibration of the {kind} culprit chances before the culprit was public "
        f"({data['positions']} positions{bound}; Brier score {data['brier']:.4f}, "
        f"{data['uniform_brier']:.4f} with equal chances; the favourite was the culprit in "
        f"{100 * data['favourite_share']:.1f}%, {100 * data['expected_favourite_share']:.1f}% "
        f"predicted)",
        ["chance", "candidates", "mean chance", "were the culprit"],
        reliability_rows(data["reliability"], "culprit_share"),
    )
