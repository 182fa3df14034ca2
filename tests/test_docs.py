"""The documentation stays true to the commands: pages, options, links, the generated reference."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
GENERATOR = ROOT / "tools" / "cli_reference.py"

FIRST_BLOCK = [
    "pip install . && deduce solve examples/abbey-4p.log",
    "pip install '.[test]' && pytest",
]


def _tool(path: Path = GENERATOR):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _tool()
APP = GEN.app()
CTX = click.Context(APP, info_name="deduce")
COMMANDS = sorted(APP.list_commands(CTX))


def _command(name: str) -> click.Command:
    command = APP.get_command(CTX, name)
    assert command is not None, f"the root group lists {name!r} but cannot load it"
    return command


def _long_options(command: click.Command) -> list[str]:
    return sorted(
        {
            opt
            for param in command.params
            if isinstance(param, click.Option)
            for opt in param.opts + param.secondary_opts
            if opt.startswith("--") and opt != "--help"
        }
    )


def _argument_names(command: click.Command) -> list[str]:
    return [
        (param.metavar or param.name.upper()).rstrip(".").strip()
        for param in command.params
        if isinstance(param, click.Argument)
    ]


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def _without_code(text: str) -> str:
    """The text with fenced blocks and inline code removed (links in them are not links)."""
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def test_the_root_group_has_commands():
    assert {"solve", "convert", "play", "suggest", "analyze", "batch", "check", "simulate"} <= set(
        COMMANDS
    )


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_a_page_naming_its_options_and_arguments(name):
    page = DOCS / f"{name}.md"
    assert page.is_file(), f"docs/{name}.md is missing for the command {name!r}"
    text = page.read_text(encoding="utf-8")
    command = _command(name)
    missing = [opt for opt in _long_options(command) if opt not in text]
    assert not missing, f"docs/{name}.md does not mention {', '.join(missing)}"
    missing = [arg for arg in _argument_names(command) if arg not in text]
    assert not missing, f"docs/{name}.md does not mention the argument {', '.join(missing)}"


def test_the_reference_page_is_generated_from_the_help():
    page = DOCS / "reference.md"
    assert page.is_file(), "docs/reference.md is missing: run python -m tools.cli_reference"
    assert page.read_text(encoding="utf-8") == GEN.render(), (
        "docs/reference.md is out of date: run python -m tools.cli_reference"
    )


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_point_to_existing_files(page):
    text = _without_code(page.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, flags=re.I) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if not (page.parent / path).exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)} links to missing files: {broken}"


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_every_page_has_a_title_and_a_way_back(page):
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# "), f"docs/{page.name} must start with a '# Title' line"
    if page.name != "index.md":
        assert "(index.md" in text or "(../README.md" in text, (
            f"docs/{page.name} must link back to index.md or the README"
        )


def test_the_index_lists_every_page():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    missing = [
        page.name
        for page in sorted(DOCS.glob("*.md"))
        if page.name != "index.md" and f"({page.name}" not in index
    ]
    assert not missing, f"docs/index.md does not link to {missing}"


def test_readme_is_short_and_starts_with_the_two_commands():
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; the details go in docs/"
    assert lines[0] == "# deduce"
    block = re.search(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M)
    assert block is not None, "README.md has no fenced block"
    assert block.group(1).splitlines() == FIRST_BLOCK


def test_readme_links_every_command_page():
    text = README.read_text(encoding="utf-8")
    missing = [name for name in COMMANDS if f"(docs/{name}.md" not in text]
    assert not missing, f"README.md does not link to the pages of {missing}"


def test_the_import_graph_of_the_development_page_is_the_code_s():
    pytest.importorskip("grimp")
    graph = _tool(ROOT / "tools" / "import_graph.py")
    # run as the maintainer runs it, from the top of the checkout
    drawn = subprocess.run(
        [sys.executable, "-m", "tools.import_graph"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert graph.current() == drawn, (
        "docs/development.md's import graph is out of date: run "
        "python -m tools.import_graph --write"
    )


def test_the_quick_start_shows_every_event_s_syntax():
    from deduce.logs.formats import event_types
    from deduce.logs.text import usage

    page = (DOCS / "quick-start.md").read_text(encoding="utf-8")
    missing = [
        usage(game, kind)
        for game in ("abbey", "rose", "blackrose")
        for kind in event_types(game)
        if usage(game, kind) not in page
    ]
    assert missing == []
