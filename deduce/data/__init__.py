"""Bundled data files: default decks and suspect lists (defaults, not printed cards)."""
