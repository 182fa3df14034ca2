"""``deduce play`` driven as a user would: through a pseudo-terminal, and through a pipe.

The pseudo-terminal runs the real program (``python -m deduce.cli.main play``)
with readline: prompts, tab completion, history, Ctrl-C and Ctrl-D. Every
test uses a temporary HOME and history file.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from deduce.logs.io import read_log

ROOT = Path(__file__).resolve().parent.parent
DEDUCE = shutil.which("deduce")
TIMEOUT = 30
ROSE = ('{"game": "rose", "version": 1, "players": ["ana", "bob", "cai"], "me": "ana"}\n'
        '{"type": "identity", "player": "ana", "colour": "red"}\n')


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "TERM": "dumb", "HOME": str(tmp_path),
            "DEDUCE_HISTORY": str(tmp_path / "history")}


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "deduce.cli.main", "play", *args],
                          cwd=str(tmp_path), env=_env(tmp_path), encoding="utf-8", timeout=TIMEOUT,
                          dimensions=(50, 200))
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
    assert read_log(tmp_path / "new.log").events[0].fields == {"player": "bob",
                                                               "role": "possessed"}
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

    _command(child, "why aymeric", "Ruled out: aymeric is the culprit.",
             "The smallest set of events that rules it out", "line 5: has bob aymeric")
    _command(child, "why baldwin", "Possible: baldwin is the culprit.")
    before = log.read_bytes()
    _command(child, "what-if culprit baldwin",
             "What if line 6: culprit baldwin (not recorded):", "Culprit: 1 candidate")
    assert log.read_bytes() == before

    child.send("has bo")  # Ctrl-C drops the line being typed
    child.expect_exact("has bo")
    # Let readline go back to waiting for a key: a SIGINT that lands while it is
    # still busy with the keys can be missed (a CPython readline race).
    time.sleep(0.5)
    child.sendintr()
    child.expect_exact("abbey> ")
    _command(child, "lacks bob aymeric", "Recorded line 6: lacks bob aymeric",
             "Contradiction: no history of the game fits every event. Every event is kept")
    _command(child, "explain", "These events cannot all be true:",
             "line 5 says bob holds Father Aymeric", "line 6 says bob does not hold Father Aymeric",
             "  line 5: has bob aymeric", "  line 6: lacks bob aymeric")
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
    _command(child, "reveal bob blue", "Recorded line 3: reveal bob blue",
             "bob       white 25.0%  grey 25.0%  black 25.0%  orange 25.0%", prompt="rose> ")
    assert path.read_text() == ROSE + '{"type": "reveal", "player": "bob", "colour": "blue"}\n'
    _command(child, "why bob blue", "Ruled out: bob is blue.", "line 3: reveal bob blue",
             prompt="rose> ")
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
    return subprocess.run([DEDUCE, "play", *args], input=stdin, capture_output=True, text=True,
                          cwd=tmp_path, env=_env(tmp_path), timeout=TIMEOUT)


def test_piped_input_is_read_line_by_line(tmp_path):
    (tmp_path / "g.log").write_text("game abbey\nplayers ana bob cai dee\nme ana\n")
    lines = ["count bob fat 1", "count bob fatt 1", "show cai to ana baldwin", "show", "foo",
             "quit", "show dee to ana conrad"]
    done = _piped(tmp_path, "\n".join(lines) + "\n", "g.log")
    assert done.returncode == 1  # some lines were refused
    assert "Recorded line 4: count bob fat 1\nCulprit: 24 candidates" in done.stdout
    assert "Error: g.log:5: unknown trait 'fatt'" in done.stderr
    assert "Recorded line 5: show cai to ana baldwin\nCulprit: 23 candidates" in done.stdout
    assert "Who holds each card now" in done.stdout
    assert "Error: unknown command 'foo' (commands: help, undo, drop, edit, why" in done.stderr
    assert (tmp_path / "g.log").read_text().endswith(
        "me ana\ncount bob fat 1\nshow cai to ana baldwin\n")


def test_suggest_inside_play(tmp_path):
    shutil.copy(ROOT / "examples" / "abbey-6p.jsonl", tmp_path / "g.jsonl")
    done = _piped(tmp_path, "suggest\nhelp suggest\n", "g.jsonl")
    assert done.returncode == 0, done.stderr
    assert "not allowed yet: 2 cards left in the pile" in done.stdout
    assert "draw the top card of the pile" in done.stdout
    assert "Command: suggest" in done.stdout


def test_a_new_black_rose_log_from_piped_answers(tmp_path):
    # the answers: game, players, me, the Rector, the suspects (bundled), my role (skipped)
    done = _piped(tmp_path, "blackrose\nana bob cai\nana\nbob\n\n\nproof s1\nwhy s1\n",
                  "new.log")
    assert done.returncode == 0, done.stderr
    assert "Accomplices: 15 possible pairs" in done.stdout
    assert "Ruled out: s1 is an accomplice." in done.stdout
    assert (tmp_path / "new.log").read_text() == (
        "game blackrose\nversion 1\nplayers ana bob cai\nme ana\nrector bob\nproof s1\n")


@pytest.mark.parametrize(("words", "word"), [("deduce so", "solve"), ("deduce pl", "play")])
def test_shell_completion_of_the_deduce_command(tmp_path, words, word):
    env = {**os.environ, "_DEDUCE_COMPLETE": "bash_complete", "COMP_WORDS": words,
           "COMP_CWORD": "1"}
    done = subprocess.run([DEDUCE], capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert f"plain,{word}" in done.stdout.splitlines()


def test_what_if_without_an_event_says_how_to_use_it(tmp_path):
    (tmp_path / "g.log").write_text("game abbey\nplayers ana bob cai dee\nme ana\n")
    done = _piped(tmp_path, "what-if\n", "g.log")
    assert "usage: what-if EVENT" in done.stdout + done.stderr
    assert "not an event line" not in done.stdout + done.stderr
