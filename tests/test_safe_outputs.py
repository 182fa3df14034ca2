"""Commands never overwrite their input or mix old and new output without being told."""

from pathlib import Path

from click.testing import CliRunner

from deduce.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


def test_convert_refuses_to_write_over_its_input(tmp_path):
    log = tmp_path / "x.log"
    text = "# our game\n" + (ROOT / "examples" / "abbey-4p.log").read_text()
    log.write_text(text)
    result = CliRunner().invoke(cli, ["convert", str(log), "-o", str(log)])
    assert result.exit_code == 2 and "refusing to write over the log" in result.output
    assert log.read_text() == text  # not a byte changed
    other = tmp_path / "x.jsonl"
    assert CliRunner().invoke(cli, ["convert", str(log), "-o", str(other)]).exit_code == 0
    assert other.read_text().startswith("{")


def test_simulate_refuses_a_folder_in_use_unless_forced(tmp_path):
    out = tmp_path / "sim"
    args = ["simulate", "rose", "--players", "3", "--out", str(out)]
    assert CliRunner().invoke(cli, [*args, "--games", "2"]).exit_code == 0
    (out / "notes.txt").write_text("mine")
    refused = CliRunner().invoke(cli, [*args, "--games", "1"])
    assert refused.exit_code == 2 and "is not empty" in refused.output
    assert sorted(p.name for p in out.iterdir()) == ["game-0001", "game-0002", "notes.txt"]
    assert CliRunner().invoke(cli, [*args, "--games", "1", "--force"]).exit_code == 0
    # the old games are gone, the user's own file stays
    assert sorted(p.name for p in out.iterdir()) == ["game-0001", "notes.txt"]
