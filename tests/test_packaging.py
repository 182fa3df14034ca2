"""The package list of pyproject.toml names every package of the tree; no test oracle ships."""

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")

ROOT = Path(__file__).resolve().parent.parent


def _tree_packages() -> set[str]:
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("deduce/**/__init__.py")}
    found |= {
        "deduce." + ".".join(p.parent.relative_to(ROOT).parts)
        for p in ROOT.glob("cli/**/__init__.py")
    }
    return found


def test_every_package_is_installed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["packages"]) == _tree_packages()
    assert config["package-dir"]["deduce.cli"] == "cli"


def test_no_top_level_cli_module():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["project"]["scripts"]["deduce"] == "deduce.cli.main:main"
    assert not any(
        p == "cli" or p.startswith("cli.") for p in config["tool"]["setuptools"]["packages"]
    )


def test_no_test_oracle_in_the_package():
    """The brute-force references live in tests/oracles/, and nothing installed imports them."""
    oracles = {p.stem for p in (ROOT / "tests" / "oracles").glob("*.py")} - {"__init__"}
    assert oracles == {"abbey", "rose", "blackrose"}
    installed = [*ROOT.glob("deduce/**/*.py"), *ROOT.glob("cli/**/*.py")]
    assert not [p for p in installed if "brute" in p.stem]
    imports = ("import oracles", "from oracles")
    assert not [p for p in installed if any(i in p.read_text(encoding="utf-8") for i in imports)]
