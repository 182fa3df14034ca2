"""``--cluster``: simulate, check and batch on a Dask cluster of two local worker processes.

The module starts its own cluster on free ports. Each worker process loads
:data:`PRELOAD`, which makes some jobs kill their worker: a log whose name
holds ``dies-once`` or a Rose game seeded :data:`DIES_ONCE` the first time it
runs, a log named ``always-dies`` or a game seeded :data:`ALWAYS_DIES` every
time. The scheduler gives a job up after two dead workers, and holds on each
worker only the job it runs, so that a death costs no other job a try.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import deduce.cli.main
import deduce.games.rose.simulate
import deduce.workers
from deduce.batch import find_logs
from deduce.cli.main import cli
from deduce.errors import DeduceError
from deduce.games.simulate import run_games, simulate, write_game
from deduce.registry import GAMES
from deduce.workers import Workers

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: The seed of a Rose game whose worker dies the first time it plays it, and of one whose
#: worker dies every time (game 3 of runs seeded 71 and 72).
DIES_ONCE, ALWAYS_DIES = "rose:71:3", "rose:72:3"

PRELOAD = """
import os

import deduce.batch
import deduce.games.rose.simulate as rose

MARKS = {marks!r}
ONCE, ALWAYS = {once!r}, {always!r}


def dies(name):
    # Whether the job called name kills its worker now: every time, or the first time.
    if name == ALWAYS or "always-dies" in name:
        return True
    if name != ONCE and "dies-once" not in name:
        return False
    try:
        os.close(os.open(os.path.join(MARKS, name.replace(os.sep, "_")),
                         os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return False
    return True


def fatal(real, name_of):
    def run(*args):
        if dies(name_of(*args)):
            os._exit(1)
        return real(*args)
    return run


deduce.batch.solve_log = fatal(deduce.batch.solve_log, lambda log, options: log.path)
rose.play_game = fatal(rose.play_game, lambda game, seed, lineup, bots: seed)
"""


@pytest.fixture(scope="module")
def marks(tmp_path_factory) -> Path:
    """The folder of :data:`PRELOAD`'s marks: one file per job that killed its worker once."""
    return tmp_path_factory.mktemp("marks")


@pytest.fixture(scope="module")
def address(marks):
    """The scheduler of two one-thread worker processes that load :data:`PRELOAD`."""
    preload = PRELOAD.format(marks=str(marks), once=DIES_ONCE, always=ALWAYS_DIES)
    settings = {
        "distributed.scheduler.allowed-failures": 1,
        "distributed.scheduler.worker-saturation": 1.0,
    }
    with (
        dask.config.set(settings),
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            scheduler_port=0,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
            preload=[preload],
        ) as cluster,
    ):
        yield cluster.scheduler_address


@pytest.fixture(autouse=True)
def full(request):
    """Before a test on the cluster, both workers (those a test killed are restarted)."""
    if "address" in request.fixturenames:
        address = request.getfixturevalue("address")
        with distributed.Client(address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=120)


def invoke(*args: str, code: int = 0) -> click.testing.Result:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, (result.output, result.exception)
    return result


def console(monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """Run the console script with ``args``: its exit status and what it printed on stderr."""
    monkeypatch.setattr(sys, "argv", ["deduce", *args])
    with pytest.raises(SystemExit) as exit_:
        deduce.cli.main.main()
    return exit_.value.code, capsys.readouterr().err


def files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def untimed(data):
    """``data`` without its ``seconds`` and ``logs_per_second`` (they vary from run to run)."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in ("seconds", "logs_per_second")}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data


def refuse(job, error):
    raise error


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    """Six logs: the examples and two simulated Black Rose games."""
    root = tmp_path_factory.mktemp("logs")
    for example in sorted(EXAMPLES.glob("*-4p.*")):
        shutil.copy(example, root / example.name)
    simulator = GAMES["blackrose"].simulator
    for record in simulate(simulator.record, simulator.create(4, {}), 1, 5, ("advised",) * 4):
        write_game(record, root / "sim")
    assert len(find_logs([str(root)])) >= 6
    return root


def batch_data(*args: str, code: int = 0) -> dict:
    return json.loads(invoke("batch", *args, "--json", "--budget", "1", code=code).stdout)


# --------------------------------------------------------------------------
# the same results as a local run, in order


def test_simulate_writes_the_files_of_a_local_run(address, tmp_path):
    invoke("simulate", "rose", "--games", "6", "--seed", "4", "--out", str(tmp_path / "here"))
    invoke(
        "simulate",
        "rose",
        "--games",
        "6",
        "--seed",
        "4",
        "--out",
        str(tmp_path / "there"),
        "--cluster",
        address,
    )
    assert files(tmp_path / "there") == files(tmp_path / "here")
    assert len(files(tmp_path / "here")) == 6 * 5


@pytest.mark.parametrize("game", ["rose", "blackrose"])
def test_check_reports_the_figures_of_a_local_run(address, game):
    args = ("check", game, "--games", "6", "--seed", "8", "--json")
    here = json.loads(invoke(*args, "--workers", "2").stdout)
    there = json.loads(invoke(*args, "--cluster", address).stdout)
    assert untimed(there) == untimed(here)
    assert there["games"] == 6


def test_batch_gives_the_results_of_a_local_run_in_input_order(address, logs):
    here = batch_data(str(logs), "--workers", "1")
    there = batch_data(str(logs), "--cluster", address)
    assert untimed(there) == untimed(here)
    assert [entry["path"] for entry in there["logs"]] == find_logs([str(logs)])
    assert {entry["status"] for entry in there["logs"]} == {"ok"}


def test_results_come_in_job_order_whatever_finishes_first(address):
    # A function of the standard library: the workers must not import this test module
    # (its imports may not resolve from the workers' folder).
    jobs = [
        (f"sleep {delay}; echo {n}",)
        for delay, n in [(0.4, 1), (0.2, 2), (0.0, 3), (0.0, 4), (0.0, 5), (0.0, 6)]
    ]
    assert list(Workers(cluster=address).map(subprocess.getoutput, jobs, refuse)) == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
    ]


def test_run_games_on_the_cluster_yields_every_game_in_order(address):
    simulator = GAMES["rose"].simulator
    table, lineup = simulator.create(3, {}), ("monk",) * 3
    there = list(run_games(simulator.record, table, 9, 2, lineup, workers=Workers(cluster=address)))
    assert [record.index for record in there] == list(range(1, 10))
    assert there == list(run_games(simulator.record, table, 9, 2, lineup))


# --------------------------------------------------------------------------
# a worker that dies


def test_a_game_whose_worker_died_once_is_played_again(address, marks, tmp_path):
    invoke("simulate", "rose", "--games", "6", "--seed", "71", "--out", str(tmp_path / "here"))
    invoke(
        "simulate",
        "rose",
        "--games",
        "6",
        "--seed",
        "71",
        "--out",
        str(tmp_path / "there"),
        "--cluster",
        address,
    )
    assert files(tmp_path / "there") == files(tmp_path / "here")
    assert (marks / DIES_ONCE).exists()  # its first worker did die


def test_a_log_whose_worker_died_once_is_solved_again(address, marks, logs, tmp_path):
    shutil.copytree(logs, tmp_path, dirs_exist_ok=True)
    dying = str(tmp_path / "dies-once.jsonl")
    shutil.copy(EXAMPLES / "rose-4p.jsonl", dying)
    here = batch_data(str(tmp_path), "--workers", "1")
    there = batch_data(str(tmp_path), "--cluster", address)
    assert untimed(there) == untimed(here)
    assert {entry["status"] for entry in there["logs"]} == {"ok"}
    assert (marks / dying.replace(os.sep, "_")).exists()  # its first worker did die


def test_a_game_that_always_kills_its_worker_stops_the_run_naming_it(
    address, tmp_path, monkeypatch, capsys
):
    out = tmp_path / "games"
    code, err = console(
        monkeypatch,
        capsys,
        "simulate",
        "rose",
        "--games",
        "6",
        "--seed",
        "72",
        "--out",
        str(out),
        "--cluster",
        address,
    )
    assert code == 1, err
    assert err.startswith("Error: game 3 was lost: its worker process died (KilledWorker)")
    assert err.count("\n") == 1
    assert sorted(p.name for p in out.iterdir()) == ["game-0001", "game-0002"]
    result = invoke("check", "rose", "--games", "6", "--seed", "72", "--cluster", address, code=1)
    assert isinstance(result.exception, DeduceError)
    assert str(result.exception).startswith("game 3 was lost")


def test_a_log_that_always_kills_its_worker_is_the_only_error(address, logs, tmp_path):
    shutil.copytree(logs, tmp_path, dirs_exist_ok=True)
    dying = str(tmp_path / "always-dies.jsonl")
    shutil.copy(EXAMPLES / "rose-4p.jsonl", dying)
    data = batch_data(str(tmp_path), "--cluster", address, code=1)
    assert [entry["path"] for entry in data["logs"]] == find_logs([str(tmp_path)])
    failed = [entry for entry in data["logs"] if entry["status"] != "ok"]
    assert [entry["path"] for entry in failed] == [dying]
    assert failed[0]["status"] == "error"
    assert failed[0]["error"].startswith(f"{dying}: internal error (KilledWorker: ")
    assert data["summary"]["ok"] == len(data["logs"]) - 1


def test_a_local_process_that_dies_stops_the_games_with_one_line(monkeypatch):
    real = deduce.games.rose.simulate.play_game

    def dying(game, seed, lineup, bots):
        if seed == "rose:5:2":
            os._exit(9)
        return real(game, seed, lineup, bots)

    monkeypatch.setattr(deduce.games.rose.simulate, "play_game", dying)  # the forks inherit it
    simulator = GAMES["rose"].simulator
    games = run_games(simulator.record, simulator.create(3, {}), 4, 5, ("monk",) * 3, workers=2)
    with pytest.raises(
        DeduceError,
        match=r"^game [12] was lost: its worker process died "
        r"\(BrokenProcessPool\); the run stops there$",
    ):
        list(games)


# --------------------------------------------------------------------------
# no extra, no scheduler


def test_without_the_extra_cluster_is_one_line_telling_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # its import now fails
    code, err = console(
        monkeypatch, capsys, "check", "rose", "--games", "2", "--cluster", "tcp://127.0.0.1:8786"
    )
    assert code == 1
    assert err == "Error: a cluster needs the cluster extra: pip install 'deduce[cluster]'\n"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("where", ["tcp://127.0.0.1:{port}", "127.0.0.1", "http://127.0.0.1:1"])
def test_a_scheduler_that_cannot_be_reached_is_one_line(where, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(deduce.workers, "CONNECT_SECONDS", 0.5)
    cluster = where.format(port=closed_port())
    for args in (
        ("simulate", "rose", "--out", str(tmp_path)),
        ("check", "blackrose"),
        ("batch", str(EXAMPLES)),
    ):
        code, err = console(monkeypatch, capsys, *args, "--cluster", cluster)
        assert code == 1, args
        assert err.startswith(f"Error: cannot reach the Dask scheduler at {cluster}: ")
        assert err.count("\n") == 1


def test_a_scheduler_without_workers_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(deduce.workers, "CONNECT_SECONDS", 0.5)
    with distributed.LocalCluster(
        n_workers=0, scheduler_port=0, dashboard_address=":0", silence_logs=logging.CRITICAL
    ) as empty:
        code, err = console(
            monkeypatch, capsys, "check", "rose", "--cluster", empty.scheduler_address
        )
    assert code == 1
    assert err == (
        f"Error: the Dask scheduler at {empty.scheduler_address} has no worker "
        "(none joined within 0.5 s)\n"
    )


def test_workers_and_cluster_together_are_a_usage_error():
    result = invoke("check", "rose", "--workers", "2", "--cluster", "tcp://127.0.0.1:1", code=2)
    assert "--workers does not apply with --cluster" in result.output


def test_a_number_of_workers_stands_for_local_processes():
    assert Workers.of(3) == Workers(3) and Workers.of(Workers(cluster="x")).cluster == "x"
    assert Workers() == Workers(1, None)


class Pending:
    """A cluster future still running: ``result`` times out, unless it is done.

    ``outcome`` (an exception) is what the job ended with once done: raised
    by ``result`` without a timeout.
    """

    def __init__(self, done: bool = False, outcome: Exception | None = None) -> None:
        self.finished = done
        self.outcome = outcome

    def result(self, timeout=None):
        if timeout is None and self.outcome is not None:
            raise self.outcome
        raise TimeoutError("timed out")

    def done(self) -> bool:
        return self.finished


class KilledWorker(Exception):
    """Stands for Dask's: the scheduler gave up on a job whose workers died."""


class Lost:
    """A client whose cluster has no worker: none joins."""

    def wait_for_workers(self, n, timeout=None):
        raise TimeoutError("no worker")


def test_a_cluster_that_lost_every_worker_stops_the_run_with_one_line(monkeypatch):
    monkeypatch.setattr(deduce.workers, "POLL_SECONDS", 0.01)
    with pytest.raises(
        DeduceError,
        match=r"^the Dask cluster at tcp://h:1 has had no worker "
        r"for 60 s: its workers were lost$",
    ):
        deduce.workers._await(Lost(), "tcp://h:1", Pending())
    # a job that itself timed out is that job's error, not a lost cluster
    with pytest.raises(TimeoutError, match="timed out"):
        deduce.workers._await(Lost(), "tcp://h:1", Pending(done=True))
    # a job that ended while the wait timed out gives its own outcome: here its dead worker
    with pytest.raises(KilledWorker) as raised:
        deduce.workers._await(Lost(), "tcp://h:1", Pending(True, KilledWorker("game 3")))
    assert deduce.workers.died(raised.value)
