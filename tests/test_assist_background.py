"""The background refinement of the chances, with fake solve functions in real worker processes.

Each fake leaves a marker file beside the job's log (``LOG.rung-BUDGET``) as
it starts a rung, so that a test knows where a worker is without timing it.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from deduce.assist import background
from deduce.assist.background import LADDER, Refined, Refiner, better, ladder
from deduce.assist.live import Inconsistent
from deduce.errors import DeduceError
from deduce.logs.io import parse_log
from deduce.logs.model import GameLog
from deduce.solving import Solution, SolveOptions, solve_log

TEXT = (
    "game abbey\nplayers ana bob cai dee\nme ana\nhand ana aymeric baldwin conrad dagobert "
    "eustache\n"
)
#: An exact solution; the fakes return it, or it as an estimate.
EXACT = solve_log(parse_log(TEXT, "g.log"))
#: Seconds any wait of these tests may last before it fails (a bound, never a measure).
PATIENCE = 60.0


def _estimate(error: float) -> Solution:
    return replace(EXACT, exact=False, error=error)


def _mark(log: GameLog, options: SolveOptions) -> None:
    Path(f"{log.path}.rung-{options.budget:g}").touch()


def _exact_at_five(log: GameLog, options: SolveOptions) -> Solution:
    """An estimate within 0.5 below a budget of 5, exact from there."""
    _mark(log, options)
    assert options.budget is not None
    return EXACT if options.budget >= 5 else _estimate(0.5)


def _never_better(log: GameLog, options: SolveOptions) -> Solution:
    _mark(log, options)
    return _estimate(1.0)


def _then_forever(log: GameLog, options: SolveOptions) -> Solution:
    """An estimate at the first rung (budget 1), then a count that never ends."""
    _mark(log, options)
    if options.budget == 1:
        return _estimate(0.5)
    time.sleep(10 * PATIENCE)
    raise AssertionError("never reached")


def _narrowing(log: GameLog, options: SolveOptions) -> Solution:
    """Estimates on the way (0.4, a worse 0.6, 0.2), then an answer within 0.1."""
    assert options.progress is not None
    for error in (0.4, 0.6, 0.2):
        options.progress(_estimate(error))
    return _estimate(0.1)


def _forever(log: GameLog, options: SolveOptions) -> Solution:
    _mark(log, options)
    time.sleep(10 * PATIENCE)
    raise AssertionError("never reached")


def _out_of_memory(log: GameLog, options: SolveOptions) -> Solution:
    raise DeduceError(f"{log.path}: counting every history exactly needs more than 2 GB")


def _broken(log: GameLog, options: SolveOptions) -> Solution:
    raise ValueError("a bug\nover two lines")


class Delivered:
    """What a refiner delivers, kept in order, and waited for."""

    def __init__(self) -> None:
        self.results: list[Refined] = []
        self._changed = threading.Condition()

    def __call__(self, result: Refined) -> None:
        with self._changed:
            self.results.append(result)
            self._changed.notify_all()

    def wait(self, count: int) -> list[Refined]:
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.results) >= count, PATIENCE)
            return list(self.results)


def _log(tmp_path: Path, name: str = "a.log") -> GameLog:
    return parse_log(TEXT, str(tmp_path / name))


def _wait_for(path: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not os.path.exists(path):
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.01)


def _gone(pid: int) -> bool:
    """Whether no process has the id ``pid`` any more (killed and reaped: no zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_ladder_starts_at_the_players_budget():
    assert ladder() == LADDER
    assert ladder(2) == (2, *[b for b in LADDER if b > 2])
    assert ladder(LADDER[-1] + 1) == (LADDER[-1] + 1,)


def test_exact_beats_an_estimate_and_a_much_narrower_bound_a_wider_one():
    assert better(EXACT, _estimate(0.01))
    assert not better(_estimate(0.01), EXACT)
    assert better(_estimate(0.2), _estimate(0.5))
    assert not better(_estimate(0.5), _estimate(0.5))
    assert not better(_estimate(0.4), _estimate(0.5))  # not a third narrower: not worth a table
    assert not better(EXACT, EXACT)


def test_each_rung_that_improves_is_delivered_and_the_job_stops_once_exact(tmp_path):
    delivered = Delivered()
    log = _log(tmp_path)
    with Refiner(delivered, (1, 5, 30), _exact_at_five) as refiner:
        assert refiner.start(log, SolveOptions(), _estimate(1.0))
        first, second = delivered.wait(2)
        assert (first.budget, first.solution.error, first.last) == (1, 0.5, False)
        assert (second.budget, second.solution.exact, second.last) == (5, True, True)
        assert first.log == second.log == log
        assert refiner.worker is None
    assert not os.path.exists(f"{log.path}.rung-30")  # exact at 5: no longer rung
    assert len(delivered.results) == 2


def test_the_estimates_on_the_way_are_delivered_as_they_come(tmp_path):
    delivered = Delivered()
    with Refiner(delivered, (1, 120), _narrowing) as refiner:
        refiner.start(_log(tmp_path), SolveOptions(), _estimate(1.0))
        results = delivered.wait(4)
        # per rung: 0.4 and 0.2 improve (0.6 does not); the rung's answer 0.1 too, once
        assert [(r.budget, r.solution.error, r.last) for r in results] == [
            (1, 0.4, False),
            (1, 0.2, False),
            (1, 0.1, False),
            (120, 0.1, True),
        ]
        assert refiner.worker is None


def test_a_result_that_improves_nothing_is_delivered_only_as_the_last_word(tmp_path):
    delivered = Delivered()
    with Refiner(delivered, (1, 2), _never_better) as refiner:
        refiner.start(_log(tmp_path), SolveOptions(), _estimate(1.0))
        (last,) = delivered.wait(1)
        assert (last.budget, last.last, last.solution.error) == (2, True, 1.0)
        assert refiner.worker is None


def test_nothing_starts_for_an_exact_or_inconsistent_position(tmp_path):
    with Refiner(Delivered(), (1,), _forever) as refiner:
        assert not refiner.start(_log(tmp_path), SolveOptions(), EXACT)
        assert not refiner.start(_log(tmp_path), SolveOptions(), Inconsistent())
        assert refiner.worker is None
    assert not os.path.exists(f"{tmp_path / 'a.log'}.rung-1")


def test_a_new_position_kills_the_running_worker_at_once(tmp_path):
    delivered = Delivered()
    first, second = _log(tmp_path, "a.log"), _log(tmp_path, "b.log")
    with Refiner(delivered, (1, 5), _forever) as refiner:
        refiner.start(first, SolveOptions(), _estimate(1.0))
        _wait_for(f"{first.path}.rung-1")  # its worker is counting
        old = refiner.worker
        assert old is not None and not _gone(old)
        refiner.start(second, SolveOptions(), _estimate(1.0))
        assert _gone(old)  # killed and reaped before start returned
        assert refiner.worker not in (None, old)
        _wait_for(f"{second.path}.rung-1")
        new = refiner.worker
    assert new is not None and _gone(new)  # the end of the session ends the worker
    assert delivered.results == []


def test_a_result_that_came_for_a_superseded_position_is_never_delivered(tmp_path):
    delivered = Delivered()
    stale, current = _log(tmp_path, "a.log"), _log(tmp_path, "b.log")
    with Refiner(delivered, (1, 5), _then_forever) as refiner:
        with refiner.lock:  # the prompt is busy: nothing is delivered meanwhile
            refiner.start(stale, SolveOptions(), _estimate(1.0))
            _wait_for(f"{stale.path}.rung-5")  # its first result is waiting in the pipe
            refiner.start(current, SolveOptions(), _estimate(1.0))
        (result,) = delivered.wait(1)
        assert (result.log, result.budget, result.solution.error) == (current, 1, 0.5)
    assert [r.log for r in delivered.results] == [current]


@pytest.mark.parametrize(
    ("solve", "message"),
    [
        (_out_of_memory, "a.log: counting every history exactly needs more than 2 GB"),
        (_broken, "internal error (ValueError: a bug over two lines)"),
    ],
)
def test_an_error_in_the_worker_comes_back_as_one_line(tmp_path, capfd, solve, message):
    delivered = Delivered()
    with Refiner(delivered, (1, 5), solve) as refiner:
        refiner.start(_log(tmp_path), SolveOptions(), _estimate(1.0))
        (result,) = delivered.wait(1)
        assert result.error.endswith(message) and result.last and result.solution is None
        assert refiner.worker is None
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


def test_a_closed_refiner_starts_nothing(tmp_path):
    refiner = Refiner(Delivered(), (1,), _forever)
    refiner.close()
    assert not refiner.start(_log(tmp_path), SolveOptions(), _estimate(1.0))
    assert refiner.worker is None


def test_spawned_workers_refine_too(tmp_path, monkeypatch):
    monkeypatch.setattr(background, "context", lambda: multiprocessing.get_context("spawn"))
    delivered = Delivered()
    with Refiner(delivered, (1, 5), _exact_at_five) as refiner:
        refiner.start(_log(tmp_path), SolveOptions(), _estimate(1.0))
        assert [r.budget for r in delivered.wait(2)] == [1, 5]
