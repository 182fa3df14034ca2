"""One subpackage per game."""
