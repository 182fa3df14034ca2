"""Text above a waiting prompt (``deduce.cli.terminal.AbovePrompt``).

Each test runs a small program in its own process, in a temporary folder (so
that it imports the installed deduce, not the checkout's): the input hook is
the process's, and a pseudo-terminal gives readline a real terminal to draw on.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pexpect
import pytest

pytest.importorskip("readline")

#: Posts numbered ticks from a thread, every few milliseconds, while a line is typed.
TICKS = textwrap.dedent(
    """
    import readline, threading, time
    from deduce.cli.terminal import AbovePrompt
    readline.parse_and_bind("tab: complete")
    readline.set_completer(lambda text, state: ["hello "][state] if state == 0 else None)
    stop = threading.Event()
    def ticks(above):
        n = 0
        while not stop.is_set():
            n += 1
            above.post(f"tick {n}")
            time.sleep(0.003)
    with AbovePrompt("p> ") as above:
        print("installed", above.installed, flush=True)
        thread = threading.Thread(target=ticks, args=(above,))
        thread.start()
        while True:
            try:
                line = input("p> ")
                break
            except KeyboardInterrupt:
                print("dropped", flush=True)
        stop.set()
        thread.join()
    print(f"got [{line}]")
    """
)


def _spawn(tmp_path: Path, program: str) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable,
        ["-c", program],
        cwd=str(tmp_path),
        env={**os.environ, "TERM": "dumb", "HOME": str(tmp_path)},
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 200),
    )
    child.delaybeforesend = None
    return child


def test_text_posted_while_a_line_is_typed_never_splits_the_prompt_or_the_line(tmp_path):
    child = _spawn(tmp_path, TICKS)
    child.logfile_read = screen = io.StringIO()
    child.expect_exact("installed True")
    child.expect_exact("p> ")
    for key in "say hel":  # typed key by key while ticks keep coming
        child.send(key)
        child.expect_exact("tick")
    child.send("\t")  # completion, between ticks
    child.expect_exact("hello ")
    child.send("world")
    child.expect_exact("p> say hello world")  # drawn again whole under a tick
    child.sendline("")
    child.expect_exact("got [say hello world]")
    child.expect(pexpect.EOF)
    # Every tick is on a line of its own, and every prompt drawn is whole.
    ticks = re.findall(r"[^\r\n]*tick \d+", screen.getvalue())
    assert ticks and all(re.fullmatch(r" *tick \d+", t) for t in ticks), ticks[:5]
    assert all(
        line.startswith("p> ") for line in re.findall(r"[^\r\n]*p> [^\r\n]*", screen.getvalue())
    )


def test_ctrl_c_drops_the_line_while_text_keeps_coming(tmp_path):
    child = _spawn(tmp_path, TICKS)
    child.expect_exact("p> ")
    child.send("abc")
    child.expect_exact("p> abc")
    child.sendintr()
    child.expect_exact("dropped")
    time.sleep(0.3)  # the terminal flushes its input a moment after a Ctrl-C
    child.send("xyz")
    child.expect_exact("p> xyz")
    child.sendline("")
    child.expect_exact("got [xyz]")
    child.expect(pexpect.EOF)


def test_a_ctrl_c_that_interrupts_the_hook_is_raised_again(tmp_path):
    program = textwrap.dedent(
        """
        import sys, time, types
        from deduce.cli.terminal import AbovePrompt
        with AbovePrompt("p> ") as above:
            try:
                above._on_unraisable(types.SimpleNamespace(exc_type=KeyboardInterrupt))
                time.sleep(20)
                print("not interrupted")
            except KeyboardInterrupt:
                print("interrupted")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=30, cwd=tmp_path
    )
    assert done.stdout == "interrupted\n", done.stderr


def test_other_unraisable_errors_go_to_the_hook_before_and_uninstall_restores_it(tmp_path):
    program = textwrap.dedent(
        """
        import ctypes, sys, types
        from deduce.cli.terminal import AbovePrompt
        seen = []
        sys.unraisablehook = seen.append
        before = sys.unraisablehook
        slot = ctypes.c_void_p.in_dll(ctypes.pythonapi, "PyOS_InputHook")
        foreign = ctypes.CFUNCTYPE(ctypes.c_int)(lambda: 0)
        slot.value = ctypes.cast(foreign, ctypes.c_void_p).value
        assert not AbovePrompt("q> ").install()  # another program's hook: left alone
        slot.value = None
        with AbovePrompt("p> ") as above:
            assert above.installed and slot.value is None  # set only while text waits
            above._on_unraisable(types.SimpleNamespace(exc_type=ValueError))
        assert slot.value is None and sys.unraisablehook is before
        print(len(seen), seen[0].exc_type.__name__)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=30, cwd=tmp_path
    )
    assert done.stdout == "1 ValueError\n", done.stderr
