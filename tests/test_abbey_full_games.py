"""The SAT closure, the exact count and python-constraint agree on full 24-card games.

Fixed positions of the benchmark games (3 to 6 players, the default deck):
the SAT closure, which the candidate sets come from, must equal the
python-constraint closure; where the exact count is quick, its support must
too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deduce.games.abbey.solver.count.histories import count_histories
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.search.csp import CspEngine
from deduce.games.abbey.solver.timeline import AbbeyPosition, build_timeline
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import read_log

CASES = Path(__file__).parent / "data" / "cases"

#: (case, events kept): positions where the reference closure takes well under a second.
POSITIONS = [
    ("abbey-3p-02", 6),
    ("abbey-3p-02", 12),
    ("abbey-4p-02", 9),
    ("abbey-4p-02", 15),
    ("abbey-5p-02", 3),
    ("abbey-5p-02", 15),
    ("abbey-6p-02", 3),
    ("abbey-6p-02", 12),
]


def _models(case: str, kept: int):
    log = read_log(CASES / f"{case}.jsonl")
    setup = setup_from_header(log.header, log.path)
    events = log.events[:kept]
    timeline = build_timeline(setup, events, log.path)
    return build_model(AbbeyPosition(setup, tuple(events), timeline)), sat_model(
        AbbeyPosition(setup, tuple(events), timeline)
    )


@pytest.mark.parametrize(("case", "kept"), POSITIONS)
def test_sat_closure_equals_the_python_constraint_closure(case, kept):
    model, sat = _models(case, kept)
    reference = CspEngine(model).closure()
    assert reference is not None
    assert sat.closure() == reference


@pytest.mark.parametrize(("case", "kept"), POSITIONS[:3])
def test_exact_count_support_equals_the_sat_closure(case, kept):
    model, sat = _models(case, kept)
    counts = count_histories(model)
    assert [set(row) for row in counts.holders] == sat.closure()
