"""The status line: on a terminal only, after a second, erased before the results."""

import time

from deduce.cli import progress


def test_nothing_is_shown_when_standard_error_is_not_a_terminal(capsys):
    assert list(progress.progress(range(3), 3, "Solving")) == [0, 1, 2]
    with progress.status("Solving", "hint"):
        pass
    assert capsys.readouterr().err == ""


def test_a_long_run_on_a_terminal_shows_then_erases_its_line(capsys, monkeypatch):
    monkeypatch.setattr(progress, "on_terminal", lambda: True)
    monkeypatch.setattr(progress, "DELAY", 0)  # the line shows at once: no race with a delay
    monkeypatch.setattr(progress, "TICK", 0.01)

    def slow():
        for i in range(3):
            time.sleep(0.05)
            yield i

    assert list(progress.progress(slow(), 3, "Checking")) == [0, 1, 2]
    with progress.status("Solving", "--budget SECONDS caps the time"):
        time.sleep(0.15)
    err = capsys.readouterr().err
    assert "Checking: " in err and "/3 in " in err
    assert "Solving: 0 s (--budget SECONDS caps the time)" in err
    assert err.endswith("\r")  # the line is erased: the results start on a clean line


def test_a_short_run_on_a_terminal_shows_nothing(capsys, monkeypatch):
    monkeypatch.setattr(progress, "on_terminal", lambda: True)
    with progress.status("Solving"):
        pass
    assert capsys.readouterr().err == ""
