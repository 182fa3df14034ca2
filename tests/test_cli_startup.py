"""The root command lists every command without importing it, and lists it truthfully."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click
from click.testing import CliRunner

from cli.main import COMMANDS, cli


def test_every_listed_line_is_the_commands_own_short_help():
    for name, (module, summary) in COMMANDS.items():
        command = getattr(importlib.import_module(f"cli.{module}"), name)
        assert command.get_short_help_str(limit=1_000) == summary, name


def test_help_lists_every_command_as_click_would():
    lazy = CliRunner().invoke(cli, ["--help"], terminal_width=80).output
    loaded = click.Group("cli", commands=[cli.get_command(None, name) for name in COMMANDS],
                         help=cli.help, params=cli.params,
                         context_settings=cli.context_settings)
    assert lazy.split("Commands:")[1] == CliRunner().invoke(
        loaded, ["--help"], terminal_width=80).output.split("Commands:")[1]


def test_help_imports_no_command_and_no_solver():
    code = ("import sys; from cli.main import main; sys.argv = ['deduce', '--help']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "loaded = [m for m in sys.modules if m.startswith(('cli.', 'deduce.games', 'pysat',"
            " 'constraint', 'tabulate'))]\n"
            "print(sorted(loaded), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stderr.strip() == "['cli.main', 'cli.status']"
