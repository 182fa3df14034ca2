"""The default solve against the brute-force enumerator, on random small logs.

Spectators with several masses and thefts, observers, inconsistent logs:
each must come out exactly as the brute force says, within the default
budget of ``deduce solve``; a log that would need longer fails.
"""

from __future__ import annotations

import pytest
from abbey_fuzz import disagreement, fuzz_log, solve_both

from deduce.cli.options import DEFAULT_BUDGET

LOGS = 90
CHUNK = 30


@pytest.mark.parametrize("first", range(0, LOGS, CHUNK))
def test_the_default_solve_agrees_with_brute_force(first):
    checked = 0
    for seed in range(first, first + CHUNK):
        found = fuzz_log(seed)
        if found is None:
            continue
        solution, brute = solve_both(*found, DEFAULT_BUDGET)
        assert disagreement(solution, brute) == "", f"log {seed}"
        checked += 1
    assert checked >= CHUNK // 2
