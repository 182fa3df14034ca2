"""The registry names every game of the log format, and the games own their options."""

import re
from pathlib import Path

import click
import pytest

from deduce.cli.main import cli
from deduce.errors import DeduceError
from deduce.logs.formats import games
from deduce.registry import GAMES, game, owners

ROOT = Path(__file__).resolve().parent.parent


def test_the_registry_names_the_games_of_the_log_format():
    assert tuple(GAMES) == games()
    assert all(g.name == name for name, g in GAMES.items())


def test_an_unknown_game_is_a_one_line_error():
    with pytest.raises(DeduceError, match="unknown game 'chess'"):
        game("chess")


@pytest.mark.parametrize("command", ["solve", "analyze", "suggest", "check"])
def test_every_owned_option_is_an_option_of_its_command(command):
    params = {p.name for p in cli.get_command(click.Context(cli), command).params}
    found = owners(command)
    assert set(found) == set(GAMES)
    assert all(set(names) <= params for names in found.values())


def test_no_service_branches_on_the_game():
    """Per-game code lives in the game packages, reached through the registry."""
    branch = re.compile(r"\bgame\s*[!=]=|isinstance\([^)]*Solution\b")
    places = [*ROOT.glob("deduce/*.py"), *ROOT.glob("deduce/assist/*.py"), *ROOT.glob("cli/*.py")]
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in places
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if branch.search(line)
    ]
    assert found == []
