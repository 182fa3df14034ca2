"""The Abbey solution as tables: culprit candidates and the card-by-holder grid."""

from __future__ import annotations

from deduce.games.abbey.deck import TRAITS
from deduce.games.abbey.solve import AbbeySolution
from deduce.games.abbey.timeline import holder_names
from deduce.report import Table, percent


def candidate_table(solution: AbbeySolution) -> Table:
    """Culprit candidates, most probable first, with traits and probability."""
    deck = solution.setup.deck
    rows = []
    for cid in solution.candidates:
        card = deck.card(cid)
        traits = " ".join(t for t in TRAITS if t in card.traits)
        rows.append([cid, card.name, traits, _shown(solution.culprit, cid)])
    title = f"Culprit: {len(rows)} candidate{'s' if len(rows) != 1 else ''}"
    if not solution.exact:
        title += (f" (exact; probabilities estimated, within {100 * solution.error:.1f} points"
                  " at 95% confidence)")
    return Table(title, ["card", "name", "traits", "probability"], rows)


def holder_table(solution: AbbeySolution) -> Table:
    """Every card against every possible current holder (blank: impossible)."""
    names = holder_names(solution.setup)
    rows = [[cid, *(_shown(solution.holders[cid], h) for h in names)]
            for cid in solution.setup.deck.ids]
    return Table("Who holds each card now", ["card", *names], rows)


def _shown(row: dict, key: str) -> str:
    """A cell: blank when impossible; a possible case never reads as blank, even estimated at 0."""
    if key not in row:
        return ""
    return percent(row[key]) or "~0%"


def conflict_table(solution: AbbeySolution) -> Table:
    """The explanation of a contradiction, one sentence per row."""
    head, *sentences = solution.explanation
    return Table(f"Inconsistent log. {head}", ["why"], [[s] for s in sentences])


def tables(solution: AbbeySolution) -> list[Table]:
    """The tables printed by ``deduce solve`` for this solution."""
    if not solution.consistent:
        return [conflict_table(solution)]
    return [candidate_table(solution), holder_table(solution)]
