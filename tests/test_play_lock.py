"""One ``deduce play`` per log, and a log changed on disk is said to be changed."""

from __future__ import annotations

import os
import sys

import pexpect
import pytest
from click.testing import CliRunner

from deduce.assist.lock import LogLock, lock_path
from deduce.assist.session import Session
from deduce.cli.main import cli
from deduce.errors import DeduceError

ROSE = "game rose\nplayers ana bob cai\nme ana\n"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no advisory locks on Windows")


def _spawn(tmp_path, path):
    env = {
        **os.environ,
        "TERM": "dumb",
        "HOME": str(tmp_path),
        "DEDUCE_HISTORY": str(tmp_path / "history"),
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "deduce.cli.main", "play", str(path)],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=30,
    )
    child.delaybeforesend = None
    return child


def _log(tmp_path, text=ROSE):
    path = tmp_path / "game.log"
    path.write_text(text)
    return path


def test_a_second_session_on_the_same_log_is_refused(tmp_path):
    path = _log(tmp_path)
    with LogLock(str(path)):
        result = CliRunner().invoke(cli, ["play", str(path)], input="identity ana red\n")
        assert isinstance(result.exception, DeduceError)
        assert "another deduce play has this log open (process " in str(result.exception)
        assert path.read_text() == ROSE  # nothing written
    result = CliRunner().invoke(cli, ["play", str(path)], input="identity ana red\n")
    assert result.exit_code == 0, result.output
    assert path.read_text() == ROSE + "identity ana red\n"
    assert not (tmp_path / "game.log.lock").exists()  # a clean exit removes the lock file


def test_a_lock_file_left_by_a_dead_session_does_not_block(tmp_path):
    path = _log(tmp_path)
    (tmp_path / "game.log.lock").write_text("999999")  # no process holds it
    result = CliRunner().invoke(cli, ["play", str(path)], input="identity ana red\n")
    assert result.exit_code == 0, result.output


def test_the_lock_is_held_while_a_session_runs(tmp_path):
    path = _log(tmp_path)
    child = _spawn(tmp_path, path)
    child.expect_exact("rose> ")
    with pytest.raises(DeduceError, match="another deduce play has this log open"):
        LogLock(str(path)).acquire()
    assert (tmp_path / "game.log.lock").read_text() == str(child.pid)
    child.sendeof()
    child.expect(pexpect.EOF)
    LogLock(str(path)).acquire().release()  # free again
    assert lock_path(str(path)) == str(path) + ".lock"


def test_a_change_on_disk_is_said_before_the_next_event(tmp_path):
    path = _log(tmp_path)
    session = Session(str(path))
    assert not session.changed_on_disk()
    with open(path, "a") as handle:
        handle.write("# a note added in another editor\n")
    assert session.changed_on_disk()
    child = _spawn(tmp_path, path)
    child.expect_exact("rose> ")
    child.sendline("identity ana red")
    child.expect_exact("Recorded line 5")
    child.expect_exact("rose> ")
    with open(path, "a") as handle:
        handle.write("# another note\n")
    child.sendline("identity bob blue")
    child.expect_exact("changed on disk since deduce last read or wrote it")
    child.expect_exact("Recorded line 7")
    child.expect_exact("rose> ")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert path.read_text() == (
        ROSE + "# a note added in another editor\nidentity ana red\n"
        "# another note\nidentity bob blue\n"
    )


def test_a_lock_that_cannot_be_made_is_a_one_line_error(tmp_path):
    missing = tmp_path / "no-such-folder" / "game.log"
    with pytest.raises(DeduceError, match="cannot create the lock file"):
        LogLock(str(missing)).acquire()
