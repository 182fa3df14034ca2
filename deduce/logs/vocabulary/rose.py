"""The Name of the Rose's vocabulary in logs: monk colours, tracks and causes of points.

A ``points`` event (soft evidence) records one choice of a player that moved
a monk's marker: ``track`` is the track moved, ``cause`` what the choice was:

- ``william``: William met the monk and the player chose +3 or -3 clue points
  (+6 or -6 on the "Tricky" day);
- ``adson``: Adson met the monk and the player chose +5 or -5 suspicion
  points (+10 or -10 on the "Tricky" day);
- ``move``: the player moved the monk: onto one of its task tiles (suspicion
  down by the tile's value) or into a building without one (suspicion up by
  the sum of the building's tiles);
- ``bonus``: points an event tile let the player give to a monk of their
  choice ("At the Culprit's Heels", "Mysterious": clue; "Awkward": suspicion).
"""

from __future__ import annotations

#: Monk colours as lowercase ids, in the order the log format lists them.
COLOURS: tuple[str, ...] = ("red", "blue", "white", "grey", "black", "orange")
#: The two scoring tracks.
TRACKS: tuple[str, ...] = ("clue", "suspicion")
#: What a ``points`` event's choice was (see the module docstring).
CAUSES: tuple[str, ...] = ("william", "adson", "move", "bonus")
