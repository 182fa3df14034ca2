"""The root ``deduce`` command group, which imports each command only when it runs.

Every command lives in its own module of :mod:`cli`; :data:`COMMANDS` names
the module and carries the one-line help that ``deduce --help`` lists, so
that listing the commands imports none of them (a test checks that each
line matches its command's own help).
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from deduce import __version__
from deduce.errors import DeduceError

from .clock import start_clock
from .status import EXIT_INTERNAL

#: Command name: (module of :mod:`cli`, the first sentence of its help).
COMMANDS: dict[str, tuple[str, str]] = {
    "analyze": (
        "analyze",
        "Replay LOG event by event: candidates, the answer's chance and the entropy.",
    ),
    "batch": ("batch", "Solve every log in FILES_OR_DIRS (any game, mixed) and sum up."),
    "check": (
        "games",
        "Simulate GAME and check the solver on every player's log against the truth.",
    ),
    "deck": ("deck", "Deck files: a template to fill in with the suspect cards of your box."),
    "convert": (
        "solve",
        "Convert LOG between the canonical JSON Lines and the line syntax, without loss.",
    ),
    "play": (
        "play",
        "Play along at the table: record events in LOG and see the chances after each one.",
    ),
    "simulate": (
        "games",
        "Play GAME with bots and write each game's truth and every player's log.",
    ),
    "solve": (
        "solve",
        "Solve LOG (canonical JSON Lines or line syntax): candidates and probabilities.",
    ),
    "suggest": ("suggest", "Advise the observer of LOG: what to do next, and when to accuse."),
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use, and listed from :data:`COMMANDS`."""

    def list_commands(self, ctx: click.Context) -> list[str]:  # noqa: D102
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:  # noqa: D102
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module = importlib.import_module(f".{COMMANDS[cmd_name][0]}", __package__)
            self.add_command(getattr(module, cmd_name), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list as click writes it, from :data:`COMMANDS` for commands not loaded."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = [
            (
                name,
                self.commands.get(
                    name, click.Command(name, help=COMMANDS[name][1])
                ).get_short_help_str(limit),
            )
            for name in names
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deduce")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Exact deduction for Mystery of the Abbey, The Name of the Rose and The Black Rose."""
    start_clock(ctx)


def main() -> None:
    """Console entry point: library errors become one-line messages, never tracebacks."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except DeduceError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except Exception as exc:  # the user gets one line, never a traceback
        if os.environ.get("DEDUCE_DEBUG"):
            raise
        click.echo(
            f"Error: internal error ({type(exc).__name__}: {exc}); "
            "set DEDUCE_DEBUG=1 for details and please report it",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":
    main()
