"""The user data files of the soundness runs (benchmarks/data/): valid, and not the defaults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
DEFAULTS = ROOT / "deduce" / "data"

#: game, its options with the user files, the bundled file each replaces
RUNS = [
    (
        "abbey",
        [
            "--deck",
            "abbey-deck.json",
            "--board",
            "abbey-board.json",
            "--cards",
            "abbey-cards.json",
            "--fast",
            "--every",
            "50",
        ],
    ),
    ("rose", ["--data", "rose-game.json"]),
    ("blackrose", ["--cards", "blackrose-cards.json"]),
]


@pytest.mark.parametrize(("game", "options"), RUNS, ids=[g for g, _ in RUNS])
def test_a_check_with_the_user_files_runs_sound(game, options):
    words = [str(DATA / w) if w.endswith(".json") else w for w in options]
    result = CliRunner().invoke(
        cli, ["check", game, "--games", "2", "--players", "3", *words, "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["soundness_failures"] == 0


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.json")))
def test_each_user_file_differs_from_the_default_and_says_how(name):
    mine, default = (json.loads((folder / name).read_text()) for folder in (DATA, DEFAULTS))
    assert "soundness runs" in mine["note"] and "Not the printed" in mine["note"]
    assert {k: v for k, v in mine.items() if k != "note"} != {
        k: v for k, v in default.items() if k != "note"
    }
