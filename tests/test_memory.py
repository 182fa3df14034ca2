"""The exact count gives up with a message, not a killed process, when memory runs short."""

import os

import pytest
from click.testing import CliRunner

from deduce import memory
from deduce.cli.main import cli
from deduce.errors import DeduceError

ABBEY = "examples/abbey-4p.log"


def test_the_limit_comes_from_the_environment_in_megabytes(monkeypatch):
    monkeypatch.setenv("DEDUCE_MEMORY", "512")
    assert memory.memory_limit() == 512 * 2**20
    monkeypatch.setenv("DEDUCE_MEMORY", "lots")
    with pytest.raises(DeduceError, match="DEDUCE_MEMORY: not a number of megabytes: 'lots'"):
        memory.memory_limit()


def test_workers_share_the_default_limit_but_keep_a_chosen_one(monkeypatch):
    monkeypatch.delenv("DEDUCE_MEMORY", raising=False)
    whole = memory.memory_limit()
    assert whole is not None and whole > 0
    memory.share(4)
    assert memory.memory_limit() == pytest.approx(whole / 4, rel=1e-6)
    monkeypatch.setenv("DEDUCE_MEMORY", "100")
    memory.share(4)
    assert os.environ["DEDUCE_MEMORY"] == "100"


def test_sizes_read_as_people_say_them():
    assert memory.size(512 * 2**20) == "512 MB"
    assert memory.size(int(11.8 * 2**30)) == "11.8 GB"


def test_resident_memory_is_read():
    held = memory.resident()
    assert held is None or held > 2**20  # a Python process holds more than a megabyte


def test_an_exact_count_out_of_memory_is_a_message_and_a_budget_estimates(monkeypatch):
    if memory.resident() is None:
        pytest.skip("no /proc: the resident memory is not known here")
    monkeypatch.setenv("DEDUCE_MEMORY", "1")  # far below what any process holds
    runner = CliRunner()
    result = runner.invoke(cli, ["solve", ABBEY, "--exact"])  # main() prints "Error: ..."
    assert isinstance(result.exception, DeduceError)
    assert str(result.exception).startswith(
        f"{ABBEY}: counting every history exactly needs "
        "more than 1 MB of memory here; give --budget "
        "SECONDS"
    )
    # with a budget the capped count answers instead, in memory bounded by its cap (exactly
    # here: this log's layers never reach the cap)
    estimated = runner.invoke(cli, ["solve", ABBEY, "--budget", "0.5", "--json"])
    assert estimated.exit_code == 0 and '"consistent": true' in estimated.output
