"""Draw deduce's import graph, package by package, as a Mermaid diagram.

``python -m tools.import_graph`` (from the top of the repository, which puts
the checkout's ``deduce`` and ``cli`` on the path) prints the diagram that
``docs/development.md`` shows between its ``import-graph`` markers; with
``--write`` it replaces it there. ``tests/test_docs.py`` checks that the page
holds the graph of the code as it is. The graph comes from the code's own
imports, read by grimp (import-linter's graph library); imports made only for
type checking are left out, as the contracts in ``pyproject.toml`` leave them,
and so are the helpers every layer uses (``deduce.errors``, ``deduce.report``,
``deduce.data``).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "development.md"
BEGIN, END = "<!-- import-graph -->", "<!-- /import-graph -->"

#: The boxes of the picture, most specific first within a package: a module belongs to
#: the first box whose name is a prefix of it.
NODES = (
    "cli",
    "deduce.analyze",
    "deduce.batch",
    "deduce.suggest",
    "deduce.assist",
    "deduce.solving",
    "deduce.registry",
    "deduce.games.abbey.game",
    "deduce.games.abbey.sim",
    "deduce.games.abbey.report",
    "deduce.games.abbey.advice",
    "deduce.games.abbey.rules",
    "deduce.games.abbey.solver",
    "deduce.games.rose",
    "deduce.games.blackrose",
    "deduce.games.protocol",
    "deduce.games",
    "deduce.logs.formats.abbey",
    "deduce.logs.formats.rose",
    "deduce.logs.formats.blackrose",
    "deduce.logs",
)


def node_of(module: str) -> str | None:
    """The box ``module`` is drawn in (None: left out, like ``deduce`` itself)."""
    return next((n for n in NODES if module == n or module.startswith(n + ".")), None)


def edges() -> list[tuple[str, str]]:
    """The imports between boxes, sorted (no box's imports of itself)."""
    import grimp

    graph = grimp.build_graph("deduce", "cli", exclude_type_checking_imports=True)
    found: set[tuple[str, str]] = set()
    for module in graph.modules:
        source = node_of(module)
        for imported in graph.find_modules_directly_imported_by(module):
            target = node_of(imported)
            if source and target and source != target:
                found.add((source, target))
    return sorted(found)


def _id(node: str) -> str:
    return node.replace(".", "_")


def _label(node: str) -> str:
    return (
        node.removeprefix("deduce.").replace("games.", "", 1)
        if node != "deduce.games"
        else "games (shared)"
    )


def render() -> str:
    """The Mermaid block, markers included."""
    pairs = edges()
    used = sorted({n for pair in pairs for n in pair}, key=NODES.index)
    lines = [BEGIN, "```mermaid", "graph TD"]
    lines += [f'    {_id(n)}["{_label(n)}"]' for n in used]
    lines += [f"    {_id(a)} --> {_id(b)}" for a, b in pairs]
    lines += ["```", END]
    return "\n".join(lines)


def current() -> str:
    """The block ``docs/development.md`` holds now."""
    text = PAGE.read_text(encoding="utf-8")
    found = re.search(re.escape(BEGIN) + ".*?" + re.escape(END), text, re.S)
    return found.group(0) if found else ""


def main() -> None:
    """Print the graph, or write it into ``docs/development.md`` with ``--write``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update docs/development.md")
    block = render()
    if not parser.parse_args().write:
        print(block)
        return
    text = PAGE.read_text(encoding="utf-8")
    old = current()
    if not old:
        raise SystemExit(f"{PAGE}: no {BEGIN} ... {END} markers")
    PAGE.write_text(text.replace(old, block), encoding="utf-8")
    print(f"wrote the import graph into {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
