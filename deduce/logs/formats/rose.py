"""The Name of the Rose's log format: monk colours, tracks, causes of points, its events.

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

from deduce.logs.grammar import Keyword, Number, Word
from deduce.logs.kinds import choice
from deduce.logs.schema import EventSchema, LogFormat, events, req

#: Monk colours as lowercase ids, in the order the log format lists them.
COLOURS: tuple[str, ...] = ("red", "blue", "white", "grey", "black", "orange")
#: The two scoring tracks.
TRACKS: tuple[str, ...] = ("clue", "suspicion")
#: What a ``points`` event's choice was (see the module docstring).
CAUSES: tuple[str, ...] = ("william", "adson", "move", "bonus")

_PLAYER = Word("player", "PLAYER")
_COLOUR = Word("colour", "COLOUR")

#: What the log format says about the Rose.
FORMAT = LogFormat(
    game="rose",
    events=events(
        EventSchema("identity", (req("player", "player"), req("colour", "colour"))),
        EventSchema("reveal", (req("player", "player"), req("colour", "colour"))),
        EventSchema(
            "guess",
            (
                req("player", "player"),
                req("of", "player", differs_from="player"),
                req("colour", "colour"),
            ),
        ),
        EventSchema(
            "points",
            (
                req("player", "player"),
                req("monk", "colour"),
                req("track", "track"),
                req("n", "nonzero"),
                req("cause", "cause"),
            ),
        ),
    ),
    grammar={
        "identity": (_PLAYER, _COLOUR),
        "reveal": (_PLAYER, _COLOUR),
        "guess": (_PLAYER, Keyword("of", Word("of", "PLAYER")), _COLOUR),
        "points": (
            _PLAYER,
            Word("monk", "COLOUR"),
            Word("track", "clue|suspicion"),
            Number("n", "N"),
            Word("cause", "william|adson|move|bonus"),
        ),
    },
    kinds={
        "colour": choice("colour", COLOURS),
        "track": choice("track", TRACKS),
        "cause": choice("cause", CAUSES),
    },
    soft_events=("points",),
    players=(2, 5),
)
