"""A deck file to fill in with the cards from the box (``deduce deck template``).

The rulebook prints how many of the 24 suspects carry each trait, not the
cards themselves, so deduce cannot ship the printed deck. The template is a
valid deck file (the bundled default's 24 slots, which meet every printed
total) whose note tells the player how to turn it into the deck in their box.
"""

from __future__ import annotations

import json

from deduce.logs.vocabulary.abbey import RULEBOOK_TOTALS, TRAIT_GROUPS, default_deck

STEPS = (
    "Fill this file in with the 24 suspect cards of your box, then play with "
    "`deduce play --deck FILE` (a new log carries the deck in its header) or solve with "
    "`deduce solve --deck FILE LOG`. For each card: 'id' is the short lowercase name you will "
    "type in the log (letters, digits, - and _; for example the monk's name), 'name' the name "
    "printed on the card, 'traits' one trait of each group read off the card: "
    + "; ".join(f"{group}: {' or '.join(traits)}" for group, traits in TRAIT_GROUPS.items())
    + ". deduce checks the whole deck against the rulebook's totals: "
    + ", ".join(f"{trait} {n}" for trait, n in RULEBOOK_TOTALS.items())
    + ". The 24 slots below start as deduce's invented default deck, which meets those "
    "totals: replace every id, name and trait with your cards'."
)


def deck_template() -> str:
    """The template's JSON text: ``note`` (the steps above) and the 24 ``cards``."""
    cards = [card.to_json() for card in default_deck().cards]
    return json.dumps({"note": STEPS, "cards": cards}, indent=1, ensure_ascii=False) + "\n"
