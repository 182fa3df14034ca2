"""Solve an Abbey log: culprit candidates, current holders, exact probabilities, conflicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from deduce.errors import DeduceError
from deduce.games.abbey.conflict import minimal_conflict
from deduce.games.abbey.count import count_histories
from deduce.games.abbey.csp import CspEngine
from deduce.games.abbey.deck import Deck
from deduce.games.abbey.explain import explain_conflict
from deduce.games.abbey.model import build_model
from deduce.games.abbey.setup import AbbeySetup, setup_from_header
from deduce.games.abbey.timeline import CULPRIT, build_timeline
from deduce.logs.model import GameLog

ENGINES = ("count", "csp")


@dataclass(frozen=True)
class AbbeySolution:
    """What can still be true. Probabilities are exact fractions; zero entries are left out."""

    setup: AbbeySetup
    consistent: bool
    culprit: dict[str, Fraction] = field(default_factory=dict)
    holders: dict[str, dict[str, Fraction]] = field(default_factory=dict)
    conflict: tuple[int, ...] = ()
    explanation: tuple[str, ...] = ()
    exact: bool = True

    @property
    def candidates(self) -> list[str]:
        """Culprit candidates, most probable first (ties in deck order)."""
        order = {cid: i for i, cid in enumerate(self.setup.deck.ids)}
        return sorted(self.culprit, key=lambda c: (-self.culprit[c], order[c]))

    def to_json(self) -> dict[str, Any]:
        """The spec's ``solve --json`` object."""
        if not self.consistent:
            return {"game": "abbey", "consistent": False, "exact": self.exact,
                    "conflict": list(self.conflict)}
        return {
            "game": "abbey", "consistent": True, "exact": self.exact,
            "culprit": {"candidates": self.candidates,
                        "probabilities": {c: float(self.culprit[c]) for c in self.candidates}},
            "holders": {card: {h: float(p) for h, p in row.items()}
                        for card, row in self.holders.items()},
        }


def solve_abbey(log: GameLog, deck: Deck | None = None, engine: str = "count") -> AbbeySolution:
    """Solve a validated abbey log.

    ``engine`` picks how candidates are closed: ``count`` reads them off the
    exact counts; ``csp`` searches python-constraint solutions and checks that
    they agree with the counts.
    """
    if engine not in ENGINES:
        raise DeduceError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    setup = setup_from_header(log.header, log.path, deck)
    timeline = build_timeline(setup, log.events, log.path)
    model = build_model(setup, timeline, log.events)
    counts = count_histories(model)
    if engine == "csp":
        _check_agreement(CspEngine(model).closure(), counts.holders, log.path)
    if not counts.total:
        conflict = minimal_conflict(setup, timeline, log.events)
        explanation = explain_conflict(setup, log.events, conflict.lines, conflict.transfers)
        return AbbeySolution(setup, False, conflict=conflict.lines, explanation=tuple(explanation))
    names = timeline.holders
    probabilities = counts.probabilities()
    holders = {card: {names[h]: p for h, p in row.items()}
               for card, row in zip(setup.deck.ids, probabilities)}
    culprit = {card: row[CULPRIT] for card, row in zip(setup.deck.ids, probabilities)
               if CULPRIT in row}
    return AbbeySolution(setup, True, culprit, holders)


def _check_agreement(closure: list[set[int]] | None, counted: tuple[dict[int, int], ...],
                     path: str) -> None:
    """Fail loudly if the two engines ever disagree about what is possible."""
    support = [set(row) for row in counted]
    if (closure or [set() for _ in counted]) != support:
        raise DeduceError(f"{path}: internal error: the constraint search and the exact count "
                          "disagree on the possible holders; please report this log")
