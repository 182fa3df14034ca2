"""``deduce batch``: finding logs, solving a mixed folder, statuses, outputs, exit statuses.

The logs are the bundled examples, small hand-written Abbey logs and games
of the other two engines played by their bots. Every solved result is
compared with ``solve_log`` on the file alone.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import deduce.batch
import deduce.cli.main
import deduce.workers
from deduce.batch import STATUSES, find_logs, folder_logs, solve_file
from deduce.cli.batch import batch
from deduce.cli.status import EXIT_INCONSISTENT
from deduce.errors import OutOfMemory
from deduce.games.simulate import simulate, write_game
from deduce.logs.io import read_log
from deduce.registry import GAMES
from deduce.report import percent
from deduce.solving import SolveOptions, outlook, solve_log

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

CARDS6 = [
    {"id": "a1", "traits": ["templar", "father", "hooded", "bearded", "fat"]},
    {"id": "a2", "traits": ["templar", "brother", "hooded", "shaven", "thin"]},
    {"id": "a3", "traits": ["franciscan", "novice", "bareheaded", "bearded", "fat"]},
    {"id": "a4", "traits": ["franciscan", "father", "hooded", "shaven", "thin"]},
    {"id": "a5", "traits": ["benedictine", "brother", "bareheaded", "bearded", "thin"]},
    {"id": "a6", "traits": ["benedictine", "novice", "bareheaded", "shaven", "fat"]},
]
INLINE6 = "".join(f"card {c['id']} {' '.join(c['traits'])}\n" for c in CARDS6)


def small(events: str, inline: bool = True) -> str:
    """A two-player Abbey log on a six-card deck (pile 1, hand 2): inline, or for --deck."""
    deck = INLINE6 if inline else ""
    return f"game abbey\nplayers ana bob\nme ana\n{deck}pile 1\nhand 2\n\n{events}"


# ana holds a1, a2; bob lacks a5: a5 is the culprit with 1/2, a3, a4, a6 with 1/6 each.
SMALL = small("hand ana a1 a2\nlacks bob a5\n")
# ana's hand of two cannot be joined by a third card of hers at bob's (lines 13 and 15).
CONFLICT = small("hand ana a1 a2\nlacks bob a5\nhas bob a1\n")
# Line 4 names a player who is not at the table.
INVALID = "game rose\nplayers ana bob cai\nme ana\nreveal bobb red\n"


def put(path: Path, text: str | bytes) -> str:
    """Write ``text`` at ``path`` (folders created) and return the path as a string."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def simulated(out: Path, game: str, seed: int) -> None:
    """One game of ``game`` played by its default bots, written under ``out``."""
    simulator = GAMES[game].simulator
    table = simulator.create(4, {})
    for record in simulate(simulator.record, table, 1, seed, (simulator.default_bot,) * 4):
        write_game(record, out)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """A folder of good logs of all three games, with files that are not logs beside them."""
    root = tmp_path_factory.mktemp("mixed")
    shutil.copy(EXAMPLES / "abbey-4p.log", root / "abbey-4p.log")
    shutil.copy(EXAMPLES / "rose-4p.jsonl", root / "rose-4p.jsonl")
    put(root / "small.log", SMALL)
    simulated(root / "sim" / "rose", "rose", 1)
    simulated(root / "sim" / "blackrose", "blackrose", 2)
    put(root / "notes.txt", "not a log\n")
    return root


@pytest.fixture(scope="module")
def with_bad(mixed, tmp_path_factory) -> Path:
    """The mixed folder plus an inconsistent and an invalid log."""
    root = tmp_path_factory.mktemp("bad")
    shutil.copytree(mixed, root, dirs_exist_ok=True)
    put(root / "conflict.log", CONFLICT)
    put(root / "invalid.log", INVALID)
    return root


def invoke(*args: str | Path, code: int = 0) -> click.testing.Result:
    result = CliRunner().invoke(batch, [str(a) for a in args])
    assert result.exit_code == code, (result.output, result.exception)
    return result


def batch_json(*args: str | Path, code: int = 0) -> dict:
    return json.loads(invoke(*args, "--json", code=code).stdout)


def by_name(data: dict, root: Path) -> dict[str, dict]:
    """Each log's entry by its path relative to ``root``."""
    return {os.path.relpath(entry["path"], root): entry for entry in data["logs"]}


def without_times(data: dict) -> dict:
    """The batch output without what depends on the clock."""
    logs = [{k: v for k, v in entry.items() if k != "seconds"} for entry in data["logs"]]
    summary = {k: v for k, v in data["summary"].items() if k not in ("seconds", "logs_per_second")}
    return {"logs": logs, "summary": summary}


# --------------------------------------------------------------------------
# finding logs


def test_folders_are_searched_recursively_for_log_endings_in_sorted_order(tmp_path):
    for name in (
        "b.log",
        "a.jsonl",
        "sub/deeper/c.log",
        "sub/a.log",
        "truth.json",
        "notes.txt",
        "log",
        "x.log.bak",
    ):
        put(tmp_path / name, SMALL)
    (tmp_path / "folder.log").mkdir()
    found = [os.path.relpath(p, tmp_path) for p in folder_logs(str(tmp_path))]
    assert found == sorted(found)
    assert sorted(found) == sorted(["a.jsonl", "b.log", "sub/a.log", "sub/deeper/c.log"])


def test_files_named_explicitly_are_kept_whatever_their_name_and_once(tmp_path):
    notes = put(tmp_path / "game.txt", SMALL)
    log = put(tmp_path / "sub" / "g.log", SMALL)
    missing = str(tmp_path / "missing.log")
    found = find_logs([notes, str(tmp_path / "sub"), log, missing, f"{tmp_path}/./game.txt"])
    assert found == [notes, log, missing]
    relative = os.path.relpath(log)  # the same file, spelt from the working folder
    assert find_logs([str(tmp_path / "sub"), relative]) == [log]


def test_symlinked_folders_are_not_followed(tmp_path):
    put(tmp_path / "real" / "g.log", SMALL)
    (tmp_path / "top").mkdir()
    (tmp_path / "top" / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    assert folder_logs(str(tmp_path / "top")) == []


def test_nothing_found_is_a_usage_error(tmp_path):
    put(tmp_path / "truth.json", "{}")
    result = invoke(tmp_path, code=2)
    assert "no logs found" in result.output


# --------------------------------------------------------------------------
# solving a mixed folder


def test_every_log_is_solved_as_solve_log_solves_it_alone(mixed):
    data = batch_json(mixed, "--workers", "1")
    paths = find_logs([str(mixed)])
    assert [entry["path"] for entry in data["logs"]] == paths
    assert len(paths) == 3 + 4 + 4
    assert {entry["game"] for entry in data["logs"]} == {"abbey", "rose", "blackrose"}
    for entry in data["logs"]:
        solution = solve_log(read_log(entry["path"]), SolveOptions())
        assert entry["status"] == "ok"
        assert entry["game"] == solution.to_json()["game"]
        assert entry["solution"] == solution.to_json()
    assert data["summary"] == {
        **data["summary"],
        "logs": 11,
        "ok": 11,
        "inconsistent": 0,
        "invalid": 0,
        "error": 0,
    }


def test_small_abbey_log_answer_and_probability_in_the_table(mixed):
    out = invoke(mixed, "--workers", "1").stdout
    row = next(line for line in out.splitlines() if line.startswith(str(mixed / "small.log")))
    assert row.split()[1:6] == ["abbey", "ok", "4", "a5", "50.0%"]


def test_one_worker_and_two_workers_give_the_same_results(with_bad):
    one = batch_json(with_bad, "--workers", "1", code=1)
    two = batch_json(with_bad, "--workers", "2", code=1)
    assert without_times(one) == without_times(two)
    assert [e["path"] for e in two["logs"]] == find_logs([str(with_bad)])


def test_bad_logs_are_reported_and_the_others_still_solved(with_bad):
    data = batch_json(with_bad, "--workers", "2", code=1)
    logs = by_name(data, with_bad)
    invalid, conflict = logs["invalid.log"], logs["conflict.log"]
    assert invalid == {**invalid, "game": None, "status": "invalid"}
    assert invalid["error"].startswith(f"{with_bad / 'invalid.log'}:4: ")
    assert "bobb" in invalid["error"] and "\n" not in invalid["error"]
    assert conflict["status"] == "inconsistent"
    assert conflict["solution"] == {
        "game": "abbey",
        "consistent": False,
        "exact": True,
        "conflict": [13, 15],
    }
    assert [e["status"] for e in data["logs"]].count("ok") == 11
    assert data["summary"] == {
        **data["summary"],
        "logs": 13,
        "ok": 11,
        "inconsistent": 1,
        "invalid": 1,
        "error": 0,
    }


def test_bad_logs_in_the_table(with_bad):
    out = invoke(with_bad, "--workers", "1", code=1).stdout
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(str(with_bad))}
    assert rows[str(with_bad / "conflict.log")].split()[1:4] == ["abbey", "inconsistent", "0"]
    assert rows[str(with_bad / "conflict.log")].endswith("lines 13, 15 cannot all be true")
    assert rows[str(with_bad / "invalid.log")].split()[1] == "invalid"
    assert f"{with_bad / 'invalid.log'}:4: " in rows[str(with_bad / "invalid.log")]
    totals = out.splitlines()[-1].split()
    assert totals[:5] == ["13", "11", "1", "1", "0"]


def test_exit_status_is_3_when_a_log_contradicts_itself_and_none_is_invalid(tmp_path):
    good, bad = put(tmp_path / "good.log", SMALL), put(tmp_path / "bad.log", CONFLICT)
    assert invoke(good, bad, "--workers", "1", code=EXIT_INCONSISTENT).stdout
    assert invoke(good, "--workers", "1", code=0).stdout


def test_unreadable_files_are_invalid_entries_never_tracebacks(tmp_path):
    good = put(tmp_path / "good.log", SMALL)
    binary = put(tmp_path / "binary.log", b"game abbey\n\x00\x01")
    (tmp_path / "gone.log").symlink_to(tmp_path / "nowhere")
    missing = str(tmp_path / "missing.log")
    data = batch_json(tmp_path, missing, "--workers", "1", code=1)
    logs = {e["path"]: e for e in data["logs"]}
    assert logs[good]["status"] == "ok"
    assert logs[binary]["error"] == f"{binary}:2: binary data (a NUL byte): this is not a text log"
    gone = str(tmp_path / "gone.log")
    assert logs[gone]["error"] == f"{gone}: cannot read log: No such file or directory"
    assert logs[missing]["error"] == f"{missing}: cannot read log: No such file or directory"
    assert solve_file(str(tmp_path), SolveOptions()).error == (
        f"{tmp_path}: cannot read log: Is a directory"
    )


def test_an_internal_error_is_one_line_and_stops_nothing(tmp_path, monkeypatch):
    good, other = put(tmp_path / "a.log", SMALL), put(tmp_path / "b.log", SMALL)

    def failing(log, options):
        if log.path == good:
            raise ValueError("broken\nsolver")
        return solve_log(log, options)

    monkeypatch.setattr(deduce.batch, "solve_log", failing)
    data = batch_json(good, other, "--workers", "1", code=1)
    first, second = data["logs"]
    assert first == {
        **first,
        "game": "abbey",
        "status": "error",
        "error": f"{good}: internal error (ValueError: broken solver)",
    }
    assert second["status"] == "ok"
    assert data["summary"]["error"] == 1


def test_a_log_past_the_memory_limit_is_an_error_not_invalid(tmp_path, monkeypatch):
    big, other = put(tmp_path / "a.log", SMALL), put(tmp_path / "b.log", SMALL)

    def counting(log, options):
        if log.path == big:
            raise OutOfMemory(f"{big}: counting every history exactly needs more than 1 GB")
        return solve_log(log, options)

    monkeypatch.setattr(deduce.batch, "solve_log", counting)
    first, second = batch_json(big, other, "--workers", "1", code=1)["logs"]
    assert first == {
        **first,
        "status": "error",
        "error": f"{big}: counting every history exactly needs more than 1 GB",
    }
    assert second["status"] == "ok"


def test_a_worker_process_that_dies_gives_error_results_not_a_crash(tmp_path, monkeypatch):
    paths = [put(tmp_path / f"{i}.log", SMALL) for i in range(4)]

    def dying(log, options):
        if log.path == paths[1]:
            os._exit(9)
        return solve_log(log, options)

    monkeypatch.setattr(deduce.batch, "solve_log", dying)  # inherited by the forked workers
    data = batch_json(*paths, "--workers", "2", code=1)
    assert [entry["path"] for entry in data["logs"]] == paths
    assert data["logs"][1]["status"] == "error"
    assert data["logs"][1]["error"].startswith(f"{paths[1]}: internal error (BrokenProcessPool: ")
    assert {entry["status"] for entry in data["logs"]} <= {"ok", "error"}


# --------------------------------------------------------------------------
# options that concern one game


def test_game_options_apply_to_their_game_only(tmp_path):
    deck = put(tmp_path / "deck.json", json.dumps(CARDS6))
    abbey = put(tmp_path / "a.log", small("hand ana a1 a2\nlacks bob a5\n", inline=False))
    rose = str(EXAMPLES / "rose-4p.jsonl")
    data = batch_json(abbey, rose, "--deck", deck, "--hard", "--workers", "1")
    inline = solve_log(read_log(put(tmp_path / "inline.log", SMALL)), SolveOptions())
    hard = solve_log(read_log(rose), SolveOptions(hard=True))
    assert [e["solution"] for e in data["logs"]] == [inline.to_json(), hard.to_json()]
    assert hard.to_json() != solve_log(read_log(rose), SolveOptions()).to_json()


def test_budget_and_seed_reach_abbey_logs(tmp_path):
    log = put(tmp_path / "g.log", SMALL)
    data = batch_json(log, "--budget", "0", "--seed", "5", "--workers", "1")
    solution = data["logs"][0]["solution"]
    assert solution["exact"] is False and solution["error"] > 0
    assert sorted(solution["culprit"]["candidates"]) == ["a3", "a4", "a5", "a6"]
    assert batch_json(log, "--workers", "1")["logs"][0]["solution"]["exact"] is True
    row = invoke(log, "--budget", "0", "--workers", "1").stdout.splitlines()[3].split()
    assert row[:4] == [log, "abbey", "ok", "4"]
    # an estimate shows with "~", or not at all when its bound is too wide to be useful
    assert (row[4] == "a5" and row[5].startswith("~")) or row[4:9] == [
        "?",
        "not",
        "enough",
        "time",
        "to",
    ]


def test_a_bad_deck_file_is_one_error_line_from_the_console_script(tmp_path, monkeypatch, capsys):
    group = click.Group(commands={"batch": batch})
    monkeypatch.setattr(deduce.cli.main, "cli", group)
    monkeypatch.setattr(
        sys,
        "argv",
        ["deduce", "batch", put(tmp_path / "g.log", SMALL), "--deck", str(tmp_path / "none.json")],
    )
    with pytest.raises(SystemExit) as exit_:
        deduce.cli.main.main()
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and err.count("\n") == 1 and "none.json" in err


# --------------------------------------------------------------------------
# outputs


def test_json_shape(with_bad):
    data = batch_json(with_bad, "--workers", "1", code=1)
    assert list(data) == ["logs", "summary"]
    for entry in data["logs"]:
        last = "error" if entry["status"] in ("invalid", "error") else "solution"
        assert list(entry) == ["path", "game", "status", "seconds", last]
        assert entry["seconds"] >= 0
    summary = data["summary"]
    assert list(summary) == ["logs", *STATUSES, "seconds", "logs_per_second"]
    assert summary["logs"] == len(data["logs"]) == sum(summary[s] for s in STATUSES)
    assert summary["logs_per_second"] == pytest.approx(
        summary["logs"] / summary["seconds"], rel=1e-2
    )


def test_csv_has_one_row_per_log_with_the_answer(mixed):
    rows = list(csv.DictReader(io.StringIO(invoke(mixed, "--csv", "--workers", "1").stdout)))
    assert list(rows[0]) == [
        "file",
        "game",
        "status",
        "candidates",
        "answer",
        "probability",
        "seconds",
        "problem",
    ]
    assert [row["file"] for row in rows] == find_logs([str(mixed)])
    for row in rows:
        view = outlook(solve_log(read_log(row["file"])))
        assert (row["status"], int(row["candidates"]), row["answer"]) == (
            "ok",
            view.candidates,
            view.best,
        )
        assert row["probability"] == percent(view.probability(view.best))


def test_tables_and_progress_bar(mixed):
    result = invoke(mixed, "--workers", "1", "--fmt", "github")
    assert result.stdout.startswith("11 logs\n| file ")
    assert "Totals\n| logs " in result.stdout
    assert "Solving" not in result.stderr  # not a terminal: no status line


def test_a_pool_that_broke_while_logs_were_handed_out_gives_error_results(tmp_path):
    pool = ProcessPoolExecutor(1)
    with pytest.raises(BrokenProcessPool):
        pool.submit(os._exit, 9).result()  # a worker dies: the pool is broken
    path = put(tmp_path / "g.log", SMALL)
    jobs = [(path, SolveOptions())]
    [result] = deduce.workers._spread(
        pool.submit, 1, solve_file, jobs, deduce.batch._failed, 1, deduce.workers._result
    )
    pool.shutdown()
    assert result.status == "error"
    assert result.error.startswith(f"{path}: internal error (BrokenProcessPool: ")
