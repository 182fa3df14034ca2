"""The terminal under ``deduce play``: readline, and text shown above a waiting prompt.

Readline gives the prompt its completion and history (kept in a file, a line
appended as each is typed). Text may also come while a line is being typed:
the chances refined in the background.

**Why text for the prompt is queued.** Readline draws the prompt and handles
each key in C, with Python's lock released, so a thread that writes to the
terminal meanwhile writes *between* readline's own writes: a table delivered
just as the prompt is drawn could split it ("a", then the table, then
"bbey> "), and one written while a key is handled could leave readline's idea
of the line apart from the screen. So :class:`AbovePrompt` queues the text and
the thread that reads the line prints it, from the input hook
(``PyOS_InputHook``), which readline calls between keys while it waits.
Readline is idle there: the line is cleared, the text printed, and readline
draws the prompt and the line again itself (``rl_forced_update_display``), the
cursor where it was. The hook is set only while text waits, and a signal
(:data:`WAKE`, whose handler does nothing) ends readline's wait for a key, so
that the text shows at once: with no hook, that wait has no end but a key or
a signal.

Where the hook cannot be set (no readline, a build whose C symbols ctypes
cannot reach, another program's hook already there), the text is printed at
once and the prompt drawn again by hand, as well as can be done from outside.

A Ctrl-C that lands while the hook runs interrupts the hook, not the prompt
(readline calls the hook before it looks for signals): it is raised again a
moment later, once the hook is unset, so that it drops the line being typed as
any other Ctrl-C does.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

import click

#: Where readline history is kept, unless the environment variable DEDUCE_HISTORY says.
HISTORY = "~/.deduce_history"
#: Lines of history kept.
HISTORY_LENGTH = 1000


# -------------------------------------------------------------------- completion and history


def history_file() -> str:
    """The readline history file (``DEDUCE_HISTORY``, else ``~/.deduce_history``)."""
    return os.path.expanduser(os.environ.get("DEDUCE_HISTORY") or HISTORY)


def setup_readline(completer: Callable[[str, int], str | None]) -> None:
    """Tab completion and the history file (loaded now, one line appended per line typed)."""
    try:
        import readline
    except ImportError:  # no readline on this platform: plain input
        return
    readline.set_completer_delims(" \t\n,")  # setup answers may list words with commas
    readline.set_completer(completer)
    libedit = "libedit" in (readline.__doc__ or "")
    readline.parse_and_bind("bind ^I rl_complete" if libedit else "tab: complete")
    readline.clear_history()
    readline.set_history_length(HISTORY_LENGTH)
    path = history_file()
    with contextlib.suppress(OSError):
        open(path, "a").close()  # lines are appended to it as they are typed
        readline.read_history_file(path)
        readline.write_history_file(path)  # keeps the last HISTORY_LENGTH lines


def use_completer(completer: Callable[[str, int], str | None]) -> None:
    """Hand tab completion to ``completer`` (the event prompt, once the setup is done)."""
    with contextlib.suppress(ImportError):
        import readline

        readline.set_completer(completer)


def on_prompt(callback: Callable[[], None]) -> bool:
    """Have readline call ``callback`` once the prompt is drawn; whether it can."""
    try:
        import readline
    except ImportError:
        return False
    if not hasattr(readline, "set_pre_input_hook"):
        return False
    readline.set_pre_input_hook(callback)
    return True


def typed() -> str:
    """What is typed at the prompt so far (nothing without readline)."""
    try:
        import readline
    except ImportError:
        return ""
    return readline.get_line_buffer()


def catch_ctrl_c() -> None:
    """Make Ctrl-C clear the line at the prompt, even if the program started with it ignored.

    A program started with SIGINT ignored (by a launcher, a test runner)
    would keep ignoring it, so the prompt installs Python's own handler.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)


def remember(line: str) -> None:
    """Append a typed line to the history file, so a crash loses none of it."""
    if not line.strip():
        return
    try:
        import readline

        readline.append_history_file(1, history_file())
    except (ImportError, OSError):
        pass


# -------------------------------------------------------------------- text above the prompt

#: The signal that wakes the prompt to show what is queued (its handler does nothing).
WAKE = getattr(signal, "SIGUSR1", None)
#: Seconds after which a Ctrl-C that interrupted the hook is raised again.
AGAIN_SECONDS = 0.01


class AbovePrompt:
    """Shows text above a waiting prompt, from any thread, without racing readline.

    See the module docstring. :meth:`install` prepares the input hook
    (whether it could); :meth:`post` queues a text, sets the hook and wakes
    the prompt, and the hook prints what is queued and unsets itself;
    :meth:`clear` drops what is queued (it went stale). Use it as a context
    manager: everything is put back on exit.
    """

    def __init__(self, prompt: str) -> None:
        self.prompt = prompt
        self._queue: deque[tuple[str, bool]] = deque()
        self._lock = threading.Lock()  # the queue and whether the hook is set, together
        self._redraw: Callable[[], int] | None = None  # readline's rl_forced_update_display
        self._callback: Any = None  # the hook as a C function, kept alive while installed
        self._address: int | None = None  # ... and its address
        self._slot: Any = None  # PyOS_InputHook
        self._unraisable: Callable[[Any], Any] | None = None  # the hook it replaced
        self._wake_handler: Any = None  # WAKE's handler before
        self._alarm_handler: Any = None  # SIGALRM's handler before

    @property
    def installed(self) -> bool:
        """Whether the hook is ready (else :meth:`post` cannot be used)."""
        return self._slot is not None

    def install(self) -> bool:
        """Prepare the input hook, if this Python and its readline allow it; whether it is."""
        try:
            import ctypes
            import readline

            redraw = ctypes.CDLL(readline.__file__).rl_forced_update_display
            slot = ctypes.c_void_p.in_dll(ctypes.pythonapi, "PyOS_InputHook")
        except (ImportError, OSError, AttributeError, ValueError):
            return False
        if WAKE is None or slot.value is not None:  # another hook (a GUI toolkit's): leave it
            return False
        redraw.restype, redraw.argtypes = ctypes.c_int, []
        self._redraw = redraw
        self._callback = ctypes.CFUNCTYPE(ctypes.c_int)(self._on_input)
        self._address = ctypes.cast(self._callback, ctypes.c_void_p).value
        self._wake_handler = signal.signal(WAKE, _woken)
        self._alarm_handler = signal.signal(signal.SIGALRM, _interrupt)
        self._unraisable = sys.unraisablehook
        sys.unraisablehook = self._on_unraisable
        self._slot = slot
        return True

    def uninstall(self) -> None:
        """Unset the hook and put back what it replaced (nothing queued is shown any more)."""
        if self._slot is None:
            return
        with self._lock:
            self._slot.value = None
            self._slot = None
            self._queue.clear()
        assert WAKE is not None and self._unraisable is not None
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(WAKE, self._wake_handler)
        signal.signal(signal.SIGALRM, self._alarm_handler)
        sys.unraisablehook = self._unraisable
        self._callback = self._unraisable = self._wake_handler = self._alarm_handler = None

    def __enter__(self) -> AbovePrompt:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def post(self, text: str, err: bool = False) -> None:
        """Show ``text`` (on stderr if ``err``) at the prompt's next idle moment."""
        with self._lock:
            self._queue.append((text, err))
        self.wake()

    def wake(self) -> None:
        """Set the hook if anything is queued, and wake the prompt's wait for a key."""
        with self._lock:
            if self._slot is None or not self._queue:
                return
            self._slot.value = self._address
        main = threading.main_thread().ident
        if WAKE is not None and main is not None:
            signal.pthread_kill(main, WAKE)

    def clear(self) -> None:
        """Drop what is queued and not yet shown."""
        with self._lock:
            self._queue.clear()

    def _on_input(self) -> int:
        """The input hook: print what is queued above the prompt, and let readline redraw."""
        with self._lock:
            shown = list(self._queue)
            self._queue.clear()
            if self._slot is not None:
                self._slot.value = None  # readline waits for a key again, with no hook
        if not shown:
            return 0
        with contextlib.suppress(OSError):  # the terminal went away: nothing to show it on
            _erase(self.prompt)
            for text, err in shown:
                click.echo(text, err=err)
            assert self._redraw is not None
            self._redraw()
        return 0

    def _on_unraisable(self, unraisable: Any) -> None:
        """A Ctrl-C that interrupted the hook comes again; anything else goes on as before.

        The hook is unset, and a timer signal (:func:`_interrupt`) raises the
        Ctrl-C again a moment later, once readline waits for a key with no
        hook to call first: it then drops the line. What was queued shows at
        the next :meth:`wake`. (Raising it here would interrupt this method
        instead: Python looks for signals again as soon as any call returns.)
        """
        if issubclass(unraisable.exc_type, KeyboardInterrupt):
            if self._slot is not None:
                self._slot.value = None
            signal.setitimer(signal.ITIMER_REAL, AGAIN_SECONDS)  # see _interrupt
            return
        assert self._unraisable is not None
        self._unraisable(unraisable)


def draw_above(prompt: str, text: str, err: bool = False) -> None:
    """Print ``text`` above a waiting ``prompt`` by hand, and the prompt and the line again.

    Where :class:`AbovePrompt` cannot be installed: this races readline, and
    leaves the cursor at the end of the line.
    """
    line = typed()
    _erase(prompt)
    click.echo(text, err=err)
    click.echo(prompt + line, nl=False)


def _erase(prompt: str) -> None:
    """Blank the prompt's line (the prompt and what is typed) and go back to its start."""
    click.echo("\r" + " " * (len(prompt) + len(typed())) + "\r", nl=False)


def _interrupt(signum: int, frame: object) -> None:
    """SIGALRM's handler while the hook is installed: the Ctrl-C the hook took, again."""
    raise KeyboardInterrupt


def _woken(signum: int, frame: object) -> None:
    """WAKE's handler: nothing to do, the signal only ends the prompt's wait for a key."""
