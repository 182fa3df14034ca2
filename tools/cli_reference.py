"""Write docs/reference.md, the command-line reference, from the commands' own help.

Run ``python -m tools.cli_reference`` after changing a command's options or help;
``tests/test_docs.py`` checks that the page matches :func:`render`. The help is
rendered at a fixed width, so the page does not depend on the terminal.
"""

from __future__ import annotations

from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "reference.md"
PROG = "deduce"
WIDTH = 80

HEADER = """\
# Command reference

[README](../README.md) · [Documentation index](index.md)

This page is generated from the commands' `--help` by `python -m tools.cli_reference`;
do not edit it by hand. Each command also has its own page with examples (see the
[index](index.md)).
"""


def app() -> click.Group:
    """The root ``deduce`` command group (the only place that names its module)."""
    from deduce.cli.main import cli

    return cli


def _context(command: click.Command, name: str, parent: click.Context | None) -> click.Context:
    """A context for ``command`` with its own settings, at the fixed width :data:`WIDTH`."""
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    return click.Context(command, info_name=name, parent=parent, **settings)


def render() -> str:
    """The text of docs/reference.md: the root help, then each command's help, sorted."""
    group = app()
    root = _context(group, PROG, None)
    parts = [HEADER, f"## `{PROG}`\n", "```text", root.get_help(), "```\n"]
    for name in sorted(group.list_commands(root)):
        command = group.get_command(root, name)
        if command is None:
            continue
        parts += [
            f"## `{PROG} {name}`\n",
            f"More: [{name}.md]({name}.md)\n",
            "```text",
            _context(command, name, root).get_help(),
            "```\n",
        ]
    return "\n".join(parts)


def main() -> None:
    """Write :data:`PAGE` from :func:`render`."""
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    PAGE.write_text(render(), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
