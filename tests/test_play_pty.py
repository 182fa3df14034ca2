"""``deduce play`` driven as a user would: through a pseudo-terminal, and through a pipe.

The pseudo-terminal runs the real program (``python -m deduce.cli.main play``)
with readline: prompts, tab completion, history, Ctrl-C and Ctrl-D. Every
test uses a temporary HOME and history file.
"""

from __future__ import annotations

import io
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from deduce.assist.background import OTHERS_NICENESS
from deduce.logs.io import read_log

ROOT = Path(__file__).resolve().parent.parent
DEDUCE = shutil.which("deduce")
TIMEOUT = 30
#: 40 events of a five-player game: the candidates come at once, the exact count takes long.
SLOW = ROOT / "tests" / "data" / "abbey-5p-slow.log"
#: Seconds to wait after a Ctrl-C before typing: the terminal flushes its input a moment
#: after it sends the signal, and keys typed at once (as a test types, within a
#: millisecond of the new prompt) can be flushed with it. (The prompt waited for may
#: also be a table's redraw of the line, just before the Ctrl-C drops it.)
AFTER_CTRL_C = 0.3
#: The workers are found in /proc.
PROC = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
ROSE = (
    '{"game": "rose", "version": 1, "players": ["ana", "bob", "cai"], "me": "ana"}\n'
    '{"type": "identity", "player": "ana", "colour": "red"}\n'
)


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "TERM": "dumb",
        "HOME": str(tmp_path),
        "DEDUCE_HISTORY": str(tmp_path / "history"),
    }


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "deduce.cli.main", "play", *args],
        cwd=str(tmp_path),
        env=_env(tmp_path),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 200),
    )
    child.delaybeforesend = None
    return child


def _command(child: pexpect.spawn, line: str, *expected: str, prompt: str = "abbey> ") -> None:
    """Type a line, wait for each expected text in turn, then for the next prompt."""
    child.sendline(line)
    for text in expected:
        child.expect_exact(text)
    child.expect_exact(prompt)


def test_setup_answers_complete_from_what_each_question_accepts(tmp_path):
    child = _spawn(tmp_path, "new.log")
    child.expect_exact("Game (abbey, rose, blackrose):")
    child.send("bl\t")  # a game
    child.expect_exact("blackrose ")
    child.sendline("")
    child.expect_exact("Players, in turn order:")
    child.sendline("Ana, Bob, Cai")
    child.expect_exact("Who are you (ana, bob, cai or spectator):")
    child.send("sp\t")  # a player, or spectator
    child.expect_exact("spectator ")
    child.send("\x7f" * len("spectator ") + "B\t")  # any case
    child.expect_exact("bob ")
    child.sendline("")
    child.expect_exact("Who is the Rector")
    child.send("a\t")
    child.expect_exact("ana ")
    child.sendline("")
    child.expect_exact("The seven suspects")
    child.sendline("")
    child.expect_exact("Your role")
    child.send("po\t")  # the role event's grammar
    child.expect_exact("possessed ")
    child.sendline("")
    child.expect_exact("blackrose> ")
    assert read_log(tmp_path / "new.log").events[0].fields == {"player": "bob", "role": "possessed"}
    child.send("acc\t")  # the event prompt completes events again
    child.expect_exact("accuse ")
    child.send("\x7f" * len("accuse "))
    child.sendeof()
    child.expect(pexpect.EOF)


def test_a_new_abbey_game_at_the_table(tmp_path):
    child = _spawn(tmp_path)
    child.expect_exact("Log file [game.log]:")
    child.sendline("")
    child.expect_exact("Game (abbey, rose, blackrose):")
    child.sendline("abbey")
    child.expect_exact("Players, in turn order:")
    child.sendline("ana bob cai")
    child.expect_exact("Who are you (ana, bob, cai or spectator):")
    child.sendline("zed")
    child.expect_exact("Error: unknown player 'zed'")
    child.expect_exact("Players, in turn order [ana bob cai]:")
    child.sendline("")
    child.expect_exact("Who are you (ana, bob, cai or spectator) [zed]:")
    child.sendline("ana")
    child.expect_exact("Your hand (card ids; Enter to skip):")
    child.sendline("")
    child.expect_exact("Culprit: 24 candidates")
    child.expect_exact("abbey> ")
    log = tmp_path / "game.log"
    header = "game abbey\nversion 1\nplayers ana bob cai\nme ana\n"
    assert log.read_text() == header

    child.send("has b\t")  # a player name completes
    child.expect_exact("has bob ")
    _command(child, "aymeric", "Recorded line 5: has bob aymeric", "Culprit: 23 candidates")
    assert log.read_text() == header + "has bob aymeric\n"

    child.send("und\t")  # and a command
    child.expect_exact("undo ")
    _command(child, "", "Removed line 5: has bob aymeric", "Culprit: 24 candidates")
    assert log.read_text() == header

    child.send("\x1b[A\x1b[A")  # history: the line before `undo`
    _command(child, "", "Recorded line 5: has bob aymeric")

    _command(child, "has bob aymerik", "unknown card 'aymerik' (did you mean 'aymeric'?)")
    assert log.read_text() == header + "has bob aymeric\n"

    _command(
        child,
        "why aymeric",
        "Ruled out: aymeric is the culprit.",
        "The smallest set of events that rules it out",
        "line 5: has bob aymeric",
    )
    _command(child, "why baldwin", "Possible: baldwin is the culprit.")
    before = log.read_bytes()
    _command(
        child,
        "what-if culprit baldwin",
        "What if line 6: culprit baldwin (not recorded):",
        "Culprit: 1 candidate",
    )
    assert log.read_bytes() == before

    child.send("has bo")  # Ctrl-C drops the line being typed
    # A table delivered while the keys arrive redraws the line; its first key may show late.
    child.expect_exact(["has bo", "as bo"])
    # Let readline go back to waiting for a key: a SIGINT that lands while it is
    # still busy with the keys can be missed (a CPython readline race).
    time.sleep(0.5)
    child.sendintr()
    child.expect_exact("abbey> ")
    time.sleep(AFTER_CTRL_C)
    _command(
        child,
        "lacks bob aymeric",
        "Recorded line 6: lacks bob aymeric",
        "Contradiction: no history of the game fits every event. Every event is kept",
    )
    _command(
        child,
        "explain",
        "These events cannot all be true:",
        "line 5 says bob holds Father Aymeric",
        "line 6 says bob does not hold Father Aymeric",
        "  line 5: has bob aymeric",
        "  line 6: lacks bob aymeric",
    )
    _command(child, "help why", "Command: why CARD [PLAYER]", "remove any one of its events")
    child.sendeof()
    child.expect_exact("Saved: game.log")
    child.expect(pexpect.EOF)
    assert log.read_text() == header + "has bob aymeric\nlacks bob aymeric\n"
    history = [line.strip() for line in (tmp_path / "history").read_text().splitlines()]
    assert history[:3] == ["has bob aymeric", "undo", "has bob aymeric"]
    assert "has bo" not in history


def test_continuing_a_json_lines_rose_log(tmp_path):
    path = tmp_path / "rose.jsonl"
    path.write_text(ROSE)
    child = _spawn(tmp_path, "rose.jsonl")
    child.expect_exact("rose.jsonl: rose, players ana bob cai, you are ana; 1 events.")
    child.expect_exact("Colours: 20 possible colourings")
    child.expect_exact("rose> ")
    _command(
        child,
        "reveal bob blue",
        "Recorded line 3: reveal bob blue",
        "bob       white 25.0%  grey 25.0%  black 25.0%  orange 25.0%",
        prompt="rose> ",
    )
    assert path.read_text() == ROSE + '{"type": "reveal", "player": "bob", "colour": "blue"}\n'
    _command(
        child, "why bob blue", "Ruled out: bob is blue.", "line 3: reveal bob blue", prompt="rose> "
    )
    _command(child, "help reveal", "Event: reveal PLAYER COLOUR", prompt="rose> ")
    _command(child, "quit", "Saved: rose.jsonl", prompt="")
    child.expect(pexpect.EOF)


def test_killing_the_program_loses_no_recorded_event(tmp_path):
    (tmp_path / "g.log").write_text("game rose\nplayers ana bob\nme ana\n")
    child = _spawn(tmp_path, "g.log")
    child.expect_exact("rose> ")
    _command(child, "reveal bob red", "Recorded line 4: reveal bob red", prompt="rose> ")
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    assert [e.type for e in read_log(tmp_path / "g.log").events] == ["reveal"]


def _piped(tmp_path: Path, stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [DEDUCE, "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
        timeout=TIMEOUT,
    )


def test_piped_input_is_read_line_by_line(tmp_path):
    (tmp_path / "g.log").write_text("game abbey\nplayers ana bob cai dee\nme ana\n")
    lines = [
        "count bob fat 1",
        "count bob fatt 1",
        "show cai to ana baldwin",
        "show",
        "foo",
        "quit",
        "show dee to ana conrad",
    ]
    done = _piped(tmp_path, "\n".join(lines) + "\n", "g.log")
    assert done.returncode == 1  # some lines were refused
    assert "Recorded line 4: count bob fat 1\nCulprit: 24 candidates" in done.stdout
    assert "Error: g.log:5: unknown trait 'fatt'" in done.stderr
    assert "Recorded line 5: show cai to ana baldwin\nCulprit: 23 candidates" in done.stdout
    assert "Who holds each card now" in done.stdout
    assert (
        "Error: unknown command 'foo' (commands: help, undo, drop, edit, insert, why" in done.stderr
    )
    assert (
        (tmp_path / "g.log")
        .read_text()
        .endswith("me ana\ncount bob fat 1\nshow cai to ana baldwin\n")
    )


def test_suggest_inside_play(tmp_path):
    shutil.copy(ROOT / "examples" / "abbey-6p.jsonl", tmp_path / "g.jsonl")
    done = _piped(tmp_path, "suggest\nhelp suggest\n", "g.jsonl")
    assert done.returncode == 0, done.stderr
    assert "not allowed yet: 2 cards left in the pile" in done.stdout
    assert "draw the top card of the pile" in done.stdout
    assert "Command: suggest" in done.stdout


def test_suggest_inside_play_takes_a_situation(tmp_path):
    shutil.copy(ROOT / "examples" / "abbey-4p.log", tmp_path / "g.log")
    done = _piped(tmp_path, "suggest show dee\nsuggest mass x\n", "g.log")
    assert done.returncode == 1  # the bad situation was refused
    table = done.stdout[done.stdout.index("Which card to show dee") :]
    rows = [line.split()[:3] for line in table.splitlines()[3:5]]
    assert rows == [["1", "show", "foulques"], ["2", "show", "matteo"]]  # dee knows both
    assert "--situation: expected mass N (N >= 1), not 'mass x'" in done.stderr


def test_a_situation_is_refused_outside_the_abbey_and_the_rose(tmp_path):
    shutil.copy(ROOT / "examples" / "blackrose-4p.jsonl", tmp_path / "g.jsonl")
    done = _piped(tmp_path, "suggest mass 1\n", "g.jsonl")
    assert "a situation applies only to the Abbey and the Rose, not to blackrose" in done.stderr


def test_a_new_black_rose_log_from_piped_answers(tmp_path):
    # the answers: game, players, me, the Rector, the suspects (bundled), my role (skipped)
    done = _piped(tmp_path, "blackrose\nana bob cai\nana\nbob\n\n\nproof s1\nwhy s1\n", "new.log")
    assert done.returncode == 0, done.stderr
    assert "Accomplices: 15 possible pairs" in done.stdout
    assert "Ruled out: s1 is an accomplice." in done.stdout
    assert (tmp_path / "new.log").read_text() == (
        "game blackrose\nversion 1\nplayers ana bob cai\nme ana\nrector bob\nproof s1\n"
    )


@pytest.mark.parametrize(("words", "word"), [("deduce so", "solve"), ("deduce pl", "play")])
def test_shell_completion_of_the_deduce_command(tmp_path, words, word):
    env = {
        **os.environ,
        "_DEDUCE_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": "1",
    }
    done = subprocess.run([DEDUCE], capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert f"plain,{word}" in done.stdout.splitlines()


def test_what_if_without_an_event_says_how_to_use_it(tmp_path):
    (tmp_path / "g.log").write_text("game abbey\nplayers ana bob cai dee\nme ana\n")
    done = _piped(tmp_path, "what-if\n", "g.log")
    assert "usage: what-if EVENT" in done.stdout + done.stderr
    assert "not an event line" not in done.stdout + done.stderr


def _workers(pid: int, name: str | None = "deduce-refiner") -> list[int]:
    """The child processes of ``pid``, zombies included: those called ``name`` (None: all).

    The chances' worker calls itself ``deduce-refiner``; the one estimating
    what the others know, ``deduce-others``.
    """
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            called = Path(f"/proc/{entry}/comm").read_text().strip()
        except OSError:  # ended meanwhile
            continue
        if int(stat.rpartition(")")[2].split()[1]) == pid and name in (None, called):
            found.append(int(entry))
    return found


def _worker(pid: int, name: str = "deduce-refiner") -> int:
    """The one child of ``pid`` called ``name``, waited for: a new worker names itself first."""
    deadline = time.monotonic() + TIMEOUT
    while len(found := _workers(pid, name)) != 1:
        assert time.monotonic() < deadline, f"no single {name} worker: {found}"
        time.sleep(0.02)
    return found[0]


def _niceness(pid: int) -> int:
    """The niceness of the process ``pid`` (the 19th field of its stat)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[16])


def _gone(pid: int) -> bool:
    """Whether the process ``pid`` is gone: ended and reaped (no zombie left)."""
    return not os.path.exists(f"/proc/{pid}")


def _ended(pid: int) -> bool:
    """Whether the process ``pid`` ended (gone, or a zombie that some other process must reap)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True


def _slow_log(tmp_path: Path, lines: int | None = None) -> Path:
    """The slow log in ``tmp_path`` as ``g.log``: its first ``lines`` lines, or all of them."""
    path = tmp_path / "g.log"
    path.write_text("".join(SLOW.read_text().splitlines(keepends=True)[:lines]))
    return path


@PROC
def test_every_change_cancels_the_running_count_at_once_and_waits_for_nothing(tmp_path):
    log = _slow_log(tmp_path)
    child = _spawn(tmp_path, "g.log", "--budget", "600")  # the first count alone takes minutes
    child.expect_exact("Culprit: 15 candidates (chances: computing…)")
    child.expect_exact("abbey> ")
    worker = _worker(child.pid)
    for line, shown in [
        ("has cai gregor", ["Recorded line 47: has cai gregor", "Culprit: 14 candidates"]),
        ("undo", ["Removed line 47: has cai gregor", "Culprit: 15 candidates"]),
        (
            "insert 46 has cai gregor",
            ["Inserted line 46: has cai gregor", "Culprit: 14 candidates"],
        ),
        (
            "edit 46 has bob konrad",
            [
                "Replaced line 46: has cai gregor",
                "with line 46: has bob konrad",
                "Culprit: 14 candidates",
            ],
        ),
        ("drop 46", ["Removed line 46: has bob konrad", "Culprit: 15 candidates"]),
        ("has cai gregor", ["Recorded line 47: has cai gregor", "Culprit: 14 candidates"]),
    ]:
        _command(child, line, *shown, "(chances: computing…)")
        assert _gone(worker)  # killed and reaped before the prompt came back
        worker = _worker(child.pid)  # and the new position's count runs
    assert log.read_text() == SLOW.read_text() + "has cai gregor\n"  # on disk at the prompt
    _command(
        child,
        "show",
        "Culprit: 14 candidates (exact; chances: computing…)",
        "Who holds each card now",
    )
    assert _workers(child.pid) == [worker]  # a command that changes nothing cancels nothing
    child.send("has bo")  # Ctrl-C is the prompt's: it drops the line, the count goes on
    child.expect_exact("has bo")
    time.sleep(0.5)  # let readline wait for a key again (see the test above)
    child.sendintr()
    child.expect_exact("abbey> ")
    time.sleep(AFTER_CTRL_C)
    assert _workers(child.pid) == [worker]
    _command(child, "quit", "Saved: g.log", prompt="")
    child.expect(pexpect.EOF)
    assert _gone(worker)
    assert "Traceback" not in child.before


@PROC
def test_the_chances_come_above_the_prompt_and_the_last_table_is_the_last_events(tmp_path):
    _slow_log(tmp_path, 36)  # 30 events: exact within seconds
    child = _spawn(tmp_path, "g.log")
    child.logfile_read = screen = io.StringIO()
    child.expect_exact("Culprit: 16 candidates (chances: computing…)")
    child.expect_exact("abbey> ")
    _command(child, "has cai gregor", "Culprit: 15 candidates (chances: computing…)")
    stale = _worker(child.pid)
    _command(child, "has bob konrad", "Culprit: 14 candidates (chances: computing…)")
    assert _gone(stale)
    child.send("lacks dee")  # the exact chances come while this is typed
    child.expect_exact("abbey> lacks dee", timeout=4 * TIMEOUT)  # drawn again under them
    table = child.before.rpartition("Culprit:")[2]
    assert table.startswith(" 14 candidates") and "%" in table and "computing" not in table
    _command(child, " hugues", "Recorded line 39: lacks dee hugues")
    child.sendeof()
    child.expect_exact("Saved: g.log")
    child.expect(pexpect.EOF)
    after = screen.getvalue().partition("Recorded line 38: has bob konrad")[2]
    assert "15 candidates" not in after and "Traceback" not in screen.getvalue()
    assert _workers(child.pid, None) == []


@PROC
def test_a_killed_session_leaves_no_worker_holding_the_log(tmp_path):
    _slow_log(tmp_path)
    child = _spawn(tmp_path, "g.log", "--budget", "600")
    child.expect_exact("abbey> ")
    worker = _worker(child.pid)
    others = _worker(child.pid, "deduce-others")  # once the chances show, or after 10 s
    workers = _workers(child.pid, None)  # the chances', and what the others know
    assert worker in workers and others in workers
    assert _niceness(others) == _niceness(worker) + OTHERS_NICENESS  # the chances come first
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    deadline = time.monotonic() + TIMEOUT
    while not all(map(_ended, workers)):  # the workers see their parent gone and end
        assert time.monotonic() < deadline, "a worker outlived its session"
        time.sleep(0.05)
    done = _piped(tmp_path, "quit\n", "g.log", "--budget", "0")  # the lock is free again
    assert done.returncode == 0, done.stderr


def test_piped_input_waits_for_each_solve_unless_asked_not_to(tmp_path):
    _slow_log(tmp_path)
    waited = _piped(tmp_path, "has cai gregor\n", "g.log", "--budget", "0.1")
    assert "Recorded line 47: has cai gregor\nCulprit: 14 candidates" in waited.stdout
    assert "computing" not in waited.stdout
    done = _piped(tmp_path, "has bob konrad\n", "g.log", "--background")
    assert done.returncode == 0, done.stderr
    assert "Recorded line 48: has bob konrad\nCulprit: 13 candidates (chances: computing…)" in (
        done.stdout
    )
    assert "Traceback" not in done.stderr


def test_insert_completes_an_event_after_its_line_number(tmp_path):
    (tmp_path / "g.log").write_text("game abbey\nplayers ana bob cai dee\nme ana\nhas bob conrad\n")
    child = _spawn(tmp_path, "g.log")
    child.expect_exact("abbey> ")
    child.send("ins\t")
    child.expect_exact("insert ")
    child.send("4 has b\t")
    child.expect_exact("4 has bob ")
    _command(child, "aymeric", "Inserted line 4: has bob aymeric")
    assert (tmp_path / "g.log").read_text().endswith("me ana\nhas bob aymeric\nhas bob conrad\n")
    child.sendeof()
    child.expect(pexpect.EOF)


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid``: its workers, and theirs."""
    found, todo = [], [pid]
    while todo:
        children = _workers(todo.pop())
        found += children
        todo += children
    return found


@PROC
@pytest.mark.parametrize("how", ["kill", "hangup", "close"])
def test_play_killed_while_its_chains_run_leaves_no_process_and_loses_nothing(tmp_path, how):
    """Killed at random moments while every core works: nothing lives 2 s later, nothing lost.

    ``kill``: SIGKILL to play alone; ``hangup``: SIGHUP to play; ``close``: the
    terminal closes (SIGHUP to its whole process group).
    """
    rng = random.Random(how)
    log = _slow_log(tmp_path)
    busy = 0
    for round_ in range(3):
        child = _spawn(tmp_path, "g.log", "--budget", "2", "--jobs", "3")
        child.expect_exact("abbey> ")
        line = f"lacks cai {['gregor', 'konrad', 'hugues'][round_]}"
        _command(child, line, f"Recorded line {47 + round_}: {line}")
        time.sleep(rng.uniform(1.0, 4.0))  # the estimate's chains run from about 1.2 s
        below = _descendants(child.pid)
        busy += len(below) >= 2  # the refiner and its chains
        if how == "kill":
            os.kill(child.pid, signal.SIGKILL)
        elif how == "hangup":
            os.kill(child.pid, signal.SIGHUP)
        else:
            os.killpg(os.getpgid(child.pid), signal.SIGHUP)
        child.expect(pexpect.EOF)
        deadline = time.monotonic() + 2.0
        while not all(_ended(pid) for pid in below):
            assert time.monotonic() < deadline, "a worker outlived its session by 2 s"
            time.sleep(0.05)
        lines = log.read_text().splitlines()
        assert lines[-1] == line  # every acknowledged event is on disk
    assert busy >= 1, "the chains never ran while play was killed"
    done = _piped(tmp_path, "quit\n", "g.log", "--budget", "0")  # it reopens at once
    assert done.returncode == 0, done.stderr


#: The race log but its last line (cai's second card): then bob knows everything but his own.
RACE = "".join((ROOT / "tests" / "data" / "abbey-race.log").read_text().splitlines(True)[:-1])


def test_play_warns_when_an_opponent_may_accuse(tmp_path):
    """Bob has seen every card but his own and one of cai's: once cai's last is public, he knows."""
    (tmp_path / "race.log").write_text(RACE)
    child = _spawn(tmp_path, "race.log")
    child.expect_exact("abbey> ")
    _command(child, "has cai c3", "Recorded line 17")
    child.expect_exact("Warning: bob may be able to accuse: 100%")
    child.sendline("quit")
    child.expect(pexpect.EOF)
