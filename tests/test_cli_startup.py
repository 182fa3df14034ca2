"""The root command lists every command without importing it, and lists it truthfully;
budgets count from the command line."""

from __future__ import annotations

import importlib
import subprocess
import sys
import time

import click
from click.testing import CliRunner

from deduce.cli.clock import start_clock
from deduce.cli.main import COMMANDS, cli
from deduce.cli.options import EXIT_RESERVE, left_of


def test_every_listed_line_is_the_commands_own_short_help():
    for name, (module, summary) in COMMANDS.items():
        command = getattr(importlib.import_module(f"deduce.cli.{module}"), name)
        assert command.get_short_help_str(limit=1_000) == summary, name


def test_help_lists_every_command_as_click_would():
    lazy = CliRunner().invoke(cli, ["--help"], terminal_width=80).output
    loaded = click.Group(
        "cli",
        commands=[cli.get_command(None, name) for name in COMMANDS],
        help=cli.help,
        params=cli.params,
        context_settings=cli.context_settings,
    )
    assert (
        lazy.split("Commands:")[1]
        == CliRunner().invoke(loaded, ["--help"], terminal_width=80).output.split("Commands:")[1]
    )


def test_help_imports_no_command_and_no_solver(tmp_path):
    code = (
        "import sys; from deduce.cli.main import main; sys.argv = ['deduce', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "loaded = [m for m in sys.modules if m.startswith(('deduce.cli.', 'deduce.games',"
        " 'pysat', 'constraint', 'tabulate'))]\n"
        "print(sorted(loaded), file=sys.stderr)"
    )
    # run outside the checkout: the installed package, as the console script imports it
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert done.stderr.strip() == "['deduce.cli.clock', 'deduce.cli.main', 'deduce.cli.status']"


def test_a_command_budget_counts_from_the_command_line():
    with click.Context(click.Command("x")) as ctx:
        start_clock(ctx)
        time.sleep(0.01)
        left = left_of(1.0)
        assert left is not None and left <= 1.0 - EXIT_RESERVE - 0.01
        assert left_of(None) is None and left_of(0.0) == 0.0
