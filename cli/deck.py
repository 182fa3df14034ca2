"""``deduce deck``: deck files for Mystery of the Abbey."""

from __future__ import annotations

import click

from deduce import registry

from .options import COMMAND_SETTINGS


@click.group(context_settings=COMMAND_SETTINGS)
def deck() -> None:
    """Deck files: a template to fill in with the suspect cards of your box."""


@deck.command(context_settings=COMMAND_SETTINGS)
def template() -> None:
    """Print a deck file to fill in: 24 slots, the traits and the rulebook's totals.

    Save it (deduce deck template > my-deck.json), replace each card's id, name
    and traits with those of your box, then use it with --deck.
    """
    click.echo(registry.template("deck"), nl=False)
