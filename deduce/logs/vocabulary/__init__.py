"""Each game's vocabulary in logs: the words and header facts the log layer checks.

The log format names every game's events and header keys, so their
vocabularies live here, below the games: the Abbey's deck and setup sizes,
the Rose's colours, tracks and causes, the Black Rose's suspects. The games
import them from here; nothing here imports a game.
"""
