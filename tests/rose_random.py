"""Rose logs for tests: written in the line syntax, or drawn at random (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from deduce.logs.formats.rose import CAUSES, COLOURS, TRACKS
from deduce.logs.io import parse_log
from deduce.logs.model import GameLog

NAMES = ("ana", "bob", "cai", "dee", "eve")


def rose(players: str, me: str | None, *events: str) -> GameLog:
    """A log in the line syntax (``me`` None: a spectator): header on lines 1-3, events after."""
    observer = "spectator" if me is None else f"me {me}"
    return parse_log(
        "\n".join([f"game rose\nplayers {players}\n{observer}", *events]) + "\n", "t.log"
    )


def only(log: GameLog, lines: set[int]) -> GameLog:
    """The log with only the events on ``lines``."""
    return replace(log, events=tuple(e for e in log.events if e.line in lines))


# --------------------------------------------------------------------------
# random logs


@st.composite
def rose_logs(draw: st.DrawFn, max_events: int = 8) -> GameLog:
    """A log of 2 to 5 players, any observer, up to ``max_events`` events of every type."""
    players = NAMES[: draw(st.integers(2, 5))]
    me = draw(st.sampled_from([None, *players]))
    player, colour = st.sampled_from(players), st.sampled_from(COLOURS)
    points = st.builds(
        "points {} {} {} {} {}".format,
        player,
        colour,
        st.sampled_from(TRACKS),
        st.sampled_from([-5, -3, -1, 1, 2, 3]),
        st.sampled_from(CAUSES),
    )
    guess = st.builds(
        "guess {0[0]} of {0[1]} {1}".format, st.permutations(players).map(lambda p: p[:2]), colour
    )
    reveal = st.builds("reveal {} {}".format, player, colour)
    event = st.one_of(
        st.builds("identity {} {}".format, player, colour), reveal, reveal, points, points, guess
    )
    return rose(" ".join(players), me, *draw(st.lists(event, max_size=max_events)))
