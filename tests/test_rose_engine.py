"""The Name of the Rose rules, checked on the engine through its public interface.

One test (or one parametrized test) per rule, built from the rulebook's
statements and worked examples (/work/shared/rules/name-of-the-rose.txt).
``start`` resolves every chance node with its first outcome (so the event
tiles, pawns, task tiles, identities and cards come in data order: with four
players ana is red, bob blue, cai white and dee grey), lets the chosen seat
start, then, as test shortcuts, parks each pawn on a building of its own
(``PARK``), clears the task tiles of the other buildings (``EMPTY``: a monk
moved there changes nothing) and sets the day's event tile. Tests then set public-looking fields
(``positions``, ``tasks``, ``suspicion``, ``time``...) directly and drive the
decisions with ``apply_action``. Cards are those of the bundled default data.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

import pytest

from deduce.errors import DeduceError
from deduce.games.rose.engine import PAWNS, RoseGame, RoseState
from deduce.games.rose.simulate import BOTS
from deduce.games.simulate import play_game
from deduce.logs.formats.rose import COLOURS
from deduce.logs.jsonl import parse_jsonl

#: Where ``start`` parks the pawns: one building each, away from the buildings tests use.
PARK = dict(
    zip(
        PAWNS,
        (
            "stables",
            "dormitory",
            "workshops",
            "refectory",
            "kitchen",
            "gatehouse",
            "hospital",
            "bathhouse",
        ),
    )
)
#: Buildings with no pawn and no task tile after ``start``.
EMPTY = ("library", "scriptorium", "church", "chapter-house", "cloister", "gardens")
WA = "william-adson-1"
LOGGED = {"identity", "reveal", "points", "guess"}


# ------------------------------------------------------------------ helpers


def settle(state: RoseState, first: int = 0) -> None:
    """Resolve chance nodes with their first outcome (``first`` starts day 1)."""
    while state.is_chance_node():
        step = state.pending()
        assert step is not None
        state.apply_action(first if step[1] == "first" else step[2][0])


def start(n: int = 4, first: int = 0, event: str = "caught", day: int = 1) -> RoseState:
    """A set-up state at ``first``'s play on ``day``, pawns parked, with this event tile."""
    state = RoseGame.create(n).new_state()
    settle(state, first)
    state.positions.update(PARK)
    for building in EMPTY:
        state.tasks[building] = []
    state.day = day
    set_event(state, event)
    return state


def set_event(state: RoseState, tile: str) -> None:
    """The day's event tile is ``tile`` (swapped with its place among the six, if there)."""
    tiles, i = state.event_tiles, state.day - 1
    if tile in tiles:
        j = tiles.index(tile)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    else:
        tiles[i] = tile


def hand(state: RoseState, seat: int, *cards: str) -> None:
    """``seat`` holds ``cards``, each swapped with a card of the old hand (the rest to the pile)."""
    old = [c for c in state.hands[seat] if c not in cards]
    for card in cards:
        if card not in state.hands[seat]:
            place = next(p for p in (state.pile, state.discards, *state.hands) if card in p)
            place[place.index(card)] = old.pop()
    state.pile += old
    state.hands[seat] = list(cards)
    every = [*state.pile, *state.discards, *(c for h in state.hands for c in h)]
    assert sorted(every) == sorted(c.id for c in state.game.data.cards)


def pending(state: RoseState) -> tuple[int, str]:
    """(seat, decision) of the pending decision."""
    seat = state.current_player()
    assert seat >= 0, "no decision pending"
    return seat, state.observation(seat).decision


def decide(state: RoseState, seat: int, decision: str, action: Any) -> None:
    """``seat`` takes ``action`` at its pending ``decision``; then the draws are dealt."""
    assert pending(state) == (seat, decision)
    state.apply_action(action)
    settle(state)


def play(state: RoseState, seat: int, card: str, pawn: str | None = None, tiles: int = 0) -> None:
    decide(state, seat, "play", (card, pawn, tiles))


def move(state: RoseState, seat: int, pawn: str, building: str) -> None:
    decide(state, seat, "move", (pawn, building))


def quiet(state: RoseState, seat: int, pawn: str = "adson") -> None:
    """A turn changing nothing but the time: William (5) or Adson (0) to an empty building."""
    hand(state, seat, f"william-adson-{seat + 1}")
    play(state, seat, f"william-adson-{seat + 1}", pawn)
    taken = set(state.positions.values())
    move(state, seat, pawn, next(b for b in EMPTY if b not in taken))


def end_day(state: RoseState, seat: int) -> None:
    """Quiet turns until ``seat`` plays, then ``seat`` ends the day: William from 23 o'clock."""
    while pending(state)[0] != seat:
        quiet(state, pending(state)[0])
    state.time = 23
    quiet(state, seat, "william")


def points(state: RoseState, seat: int = 0) -> list[dict[str, Any]]:
    """The ``points`` events of ``seat``'s log, without their type."""
    return [
        {k: v for k, v in e.items() if k != "type"}
        for e in state.logs[seat]
        if e["type"] == "points"
    ]


def since(state: RoseState, mark: int, kind: str) -> list[dict[str, Any]]:
    """Truth events of type ``kind`` after the first ``mark`` ones."""
    return [e for e in state.events[mark:] if e["type"] == kind]


def pt(player: str, monk: str, track: str, n: int, cause: str) -> dict[str, Any]:
    return {"player": player, "monk": monk, "track": track, "n": n, "cause": cause}


def clue_delta(state: RoseState, before: dict[str, int]) -> dict[str, int]:
    return {c: state.clue[c] - before[c] for c in COLOURS if state.clue[c] != before[c]}


# -------------------------------------------------------------------- setup


def test_setup() -> None:
    """Pawns on different buildings, 6 of 14 event tiles, markers at 10 and 5, two task
    tiles per building and 14 in a row, 3 cards each, an identity each."""
    game = RoseGame.create(4)
    state = game.new_state()
    assert state.chance_outcomes() == [(e, 1 / 14) for e in game.data.events]
    settle(state, first=2)
    assert set(state.positions) == set(PAWNS)
    assert len(set(state.positions.values())) == 8
    assert len(set(state.event_tiles)) == 6 and set(state.event_tiles) <= set(game.data.events)
    assert state.suspicion == dict.fromkeys(COLOURS, 10)
    assert state.clue == dict.fromkeys(COLOURS, 5)
    assert (state.day, state.time, state.event) == (1, 0, state.event_tiles[0])
    assert all(len(tiles) == 2 for tiles in state.tasks.values())
    assert len(state.row) == 14
    laid = [t for tiles in state.tasks.values() for t in tiles] + state.row
    assert Counter(laid) == Counter(game.data.tasks)
    assert [len(h) for h in state.hands] == [3] * 4 and len(state.pile) == 60 - 12
    assert len(set(state.identities)) == 4 and set(state.identities) <= set(COLOURS)
    assert pending(state) == (2, "play")


def test_the_first_player_is_random() -> None:
    """The rulebook: "Randomly determine the starting player for the first day."."""
    state = RoseGame.create(3).new_state()
    while state.pending()[1] != "first":  # type: ignore[index]
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.chance_outcomes() == [(s, 1 / 3) for s in range(3)]
    state.apply_action(1)
    settle(state)
    assert pending(state) == (1, "play")


def test_game_sizes_and_names() -> None:
    assert RoseGame.create(5).players == ("ana", "bob", "cai", "dee", "eve")
    assert RoseGame.create(["x", "y"]).players == ("x", "y")
    for bad in (1, 6, ["x", "x"]):
        with pytest.raises(DeduceError, match="2 to 5 players"):
            RoseGame.create(bad)


def test_observation() -> None:
    state = start(event="hurry")
    obs = state.observation(0)
    assert (obs.seat, obs.player, obs.identity, obs.decision, obs.context) == (
        0,
        "ana",
        "red",
        "play",
        {},
    )
    assert obs.hand == tuple(state.hands[0]) and obs.log == tuple(state.logs[0])
    assert (obs.day, obs.time, obs.event, obs.row, obs.pile) == (1, 0, "hurry", 14, 48)
    assert obs.positions == PARK and obs.tasks["library"] == tuple(state.tasks["library"])
    assert obs.suspicion == dict.fromkeys(COLOURS, 10) and obs.clue == dict.fromkeys(COLOURS, 5)
    assert (obs.time_tiles, obs.usable, obs.revealed, obs.events_held) == (
        (0,) * 4,
        0,
        ((),) * 4,
        (0,) * 4,
    )
    other = state.observation(1)
    assert (other.decision, other.context, other.identity) == ("", {}, "blue")


def test_an_illegal_action_is_refused() -> None:
    state = start()
    with pytest.raises(DeduceError, match="illegal action"):
        state.apply_action(("no-such-card", None, 0))


# ---------------------------------------------------------------- the turn


def test_a_card_moves_the_time_marker_and_a_card_is_drawn() -> None:
    """Play a card, move the time marker by its value, move a pawn, draw a card."""
    state = start()
    hand(state, 0, "orange-3", "church-2", WA)
    assert set(state.legal_actions()) == {
        ("orange-3", None, 0),
        ("church-2", None, 0),
        (WA, "william", 0),
        (WA, "adson", 0),
    }
    play(state, 0, "orange-3")
    assert state.time == 3 and state.discards[-1] == "orange-3"
    move(state, 0, "orange", "gardens")
    assert len(state.hands[0]) == 3 and "orange-3" not in state.hands[0]
    assert pending(state) == (1, "play")


@pytest.mark.parametrize(("pawn", "time"), [("william", 5), ("adson", 0)])
def test_william_adson_card_time(pawn: str, time: int) -> None:
    """The rulebook: "5 spaces for William, 0 spaces for Adson"."""
    state = start()
    hand(state, 0, WA)
    play(state, 0, WA, pawn)
    assert state.time == time
    assert state.legal_actions() == [
        (pawn, b) for b in state.game.data.buildings if b != PARK[pawn]
    ]


def test_time_tiles_example() -> None:
    """2 spaces from the blue space, a 3 card and 2 time tiles: the marker moves 1 space;
    the tiles (the oldest) go to the end of the row."""
    state = start()
    state.time = 22
    state.time_tiles[0] = [("red", 1), ("blue", 2), ("white", 3)]
    row = list(state.row)
    hand(state, 0, "orange-3", "library-3", "gardens-4")
    legal = state.legal_actions()
    assert [a[2] for a in legal if a[0] == "orange-3"] == [0, 1, 2, 3]
    play(state, 0, "orange-3", tiles=2)
    assert state.time == 23
    assert state.time_tiles[0] == [("white", 3)]
    assert state.row == [*row, ("red", 1), ("blue", 2)]
    move(state, 0, "orange", "gardens")
    assert pending(state) == (1, "play") and state.day == 1


def test_tiles_never_move_the_marker_backwards() -> None:
    """At most as many tiles as the card's value: a 1 card uses 0 or 1, Adson none."""
    state = start()
    state.time_tiles[0] = [("red", 1), ("blue", 2), ("white", 3)]
    hand(state, 0, "red-1", WA)
    assert sorted(state.legal_actions(), key=str) == sorted(
        [("red-1", None, 0), ("red-1", None, 1), (WA, "adson", 0)]
        + [(WA, "william", k) for k in range(4)],
        key=str,
    )


def test_a_tile_is_usable_from_the_next_turn() -> None:
    """ "Tiles cannot be used in this manner on the same turn that they were collected."
    They are used at step 2 and collected at step 4: usable on the player's next turn."""
    state = start(2)
    state.tasks["church"] = [("orange", 2), ("blue", 5)]
    hand(state, 0, "orange-1")
    assert state.legal_actions() == [("orange-1", None, 0)]
    play(state, 0, "orange-1")
    move(state, 0, "orange", "church")
    assert state.time_tiles[0] == [("orange", 2)]
    quiet(state, 1)
    hand(state, 0, "orange-2")
    assert state.observation(0).usable == 1
    assert state.legal_actions() == [("orange-2", None, 0), ("orange-2", None, 1)]


@pytest.mark.parametrize(
    ("time", "card", "ends"), [(22, "red-1", False), (23, "red-1", True), (21, "red-4", True)]
)
def test_the_day_ends_when_the_marker_reaches_or_passes_the_blue_space(
    time: int, card: str, ends: bool
) -> None:
    """The day ends once the marker reaches or passes 24; the player finishes the turn,
    gets the day's event tile and starts the next day (two turns in a row)."""
    state = start(day=2, event="dubious")
    state.time = time
    hand(state, 0, card)
    play(state, 0, card)
    move(state, 0, "red", "gardens")
    if not ends:
        assert pending(state) == (1, "play") and state.day == 2
        return
    assert state.day == 3 and state.time == 0
    assert state.events_held == [["dubious"], [], [], []]
    assert pending(state) == (0, "play")
    assert state.observation(0).event == state.event_tiles[2]


def test_the_draw_pile_is_reshuffled_when_empty() -> None:
    """The rulebook: "the discarded action cards are reshuffled to form a new draw pile"."""
    state = start()
    hand(state, 0, "orange-3", "red-1", "blue-1")
    state.discards += state.pile
    state.pile = []
    cards = len(state.discards) + 1
    play(state, 0, "orange-3")
    mark = len(state.events)
    move(state, 0, "orange", "gardens")
    assert since(state, mark, "reshuffle") == [{"type": "reshuffle", "cards": cards}]
    assert len(state.pile) == cards - 1 and state.discards == [] and len(state.hands[0]) == 3


# ------------------------------------------------------------------ moving


def test_a_monk_card_moves_that_monk_to_any_other_building() -> None:
    state = start()
    hand(state, 0, "orange-3")
    play(state, 0, "orange-3")
    assert state.legal_actions() == [
        ("orange", b) for b in state.game.data.buildings if b != "gatehouse"
    ]


def test_a_building_card_moves_any_pawn_from_another_building() -> None:
    state = start()
    state.positions["grey"] = "church"
    hand(state, 0, "church-2")
    play(state, 0, "church-2")
    assert state.legal_actions() == [(p, "church") for p in PAWNS if p != "grey"]


def test_a_building_card_with_every_pawn_there_moves_nothing() -> None:
    """Reading: the card may be played; nothing can move, so nothing happens."""
    state = start()
    state.positions.update(dict.fromkeys(PAWNS, "church"))
    hand(state, 0, "church-2")
    mark = len(state.events)
    play(state, 0, "church-2")
    assert pending(state) == (1, "play") and state.time == 2
    assert since(state, mark, "move") == []


# -------------------------------------------------------------- the action


def test_orange_monk_church_task_example() -> None:
    """Church: a blue 5 and an orange 2 tile; the orange monk takes the orange tile and
    goes 2 spaces back on the suspicion track; the tile becomes a time tile."""
    state = start()
    state.tasks["church"] = [("blue", 5), ("orange", 2)]
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert state.suspicion["orange"] == 8
    assert state.tasks["church"] == [("blue", 5)]
    assert state.time_tiles[0] == [("orange", 2)]
    for seat in range(4):
        assert points(state, seat) == [pt("ana", "orange", "suspicion", -2, "move")]


def test_a_task_never_goes_below_zero() -> None:
    state = start()
    state.suspicion["orange"] = 1
    state.tasks["church"] = [("orange", 2), ("blue", 5)]
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert state.suspicion["orange"] == 0
    assert points(state) == [pt("ana", "orange", "suspicion", -2, "move")]


def test_two_own_tiles_the_player_chooses_one() -> None:
    """Two tiles of the monk's colour: "only take and carry out one of them (of his choice)"."""
    state = start()
    state.tasks["church"] = [("orange", 2), ("orange", 4)]
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert state.observation(0).context == {"monk": "orange", "building": "church"}
    assert state.legal_actions() == [("orange", 2), ("orange", 4)]
    decide(state, 0, "task", ("orange", 4))
    assert state.suspicion["orange"] == 6 and state.tasks["church"] == [("orange", 2)]


def test_two_equal_own_tiles_need_no_choice() -> None:
    state = start()
    state.tasks["church"] = [("orange", 2), ("orange", 2)]
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert pending(state) == (1, "play") and state.tasks["church"] == [("orange", 2)]


@pytest.mark.parametrize(
    ("row", "refilled", "left"),
    [
        ([("red", 1), ("grey", 4), ("black", 3)], [("red", 1), ("grey", 4)], [("black", 3)]),
        ([("red", 1)], [("red", 1)], []),
        ([], [], []),
    ],
)
def test_an_emptied_building_is_refilled_from_the_row(
    row: list[Any], refilled: list[Any], left: list[Any]
) -> None:
    """The first two tiles of the row, face up; reading: what there is of them."""
    state = start()
    state.tasks["church"] = [("orange", 3)]
    state.row = list(row)
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert state.tasks["church"] == refilled and state.row == left
    assert state.observation(1).row == len(left)


def test_orange_monk_church_no_task_example() -> None:
    """Church: a blue 2 and a white 2 tile: orange goes 4 spaces forward on suspicion."""
    state = start()
    state.tasks["church"] = [("blue", 2), ("white", 2)]
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert state.suspicion["orange"] == 14 and state.tasks["church"] == [("blue", 2), ("white", 2)]
    assert state.time_tiles[0] == []
    assert points(state) == [pt("ana", "orange", "suspicion", 4, "move")]


def test_suspicion_stops_at_40_and_an_empty_building_arouses_none() -> None:
    state = start()
    state.suspicion["orange"] = 38
    state.tasks["church"] = [("blue", 2), ("white", 2)]
    state.tasks["gardens"] = []
    hand(state, 0, "orange-2", "orange-3")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert state.suspicion["orange"] == 40
    assert points(state) == [pt("ana", "orange", "suspicion", 4, "move")]
    quiet(state, 1)
    quiet(state, 2)
    quiet(state, 3)
    hand(state, 0, "orange-3")
    play(state, 0, "orange-3")
    move(state, 0, "orange", "gardens")
    assert state.suspicion["orange"] == 40 and len(points(state)) == 1


def test_william_then_blue_then_adson_in_the_library_example() -> None:
    """William to the library with grey and white: grey +3, white -3 clue. Blue into the
    library: suspicion up by the sum of its tiles, William has no effect. Adson to the
    library: grey and white +5, blue -5 suspicion."""
    state = start()
    state.positions.update(grey="library", white="library")
    state.tasks["library"] = [("red", 1), ("black", 3)]
    hand(state, 0, WA)
    play(state, 0, WA, "william")
    move(state, 0, "william", "library")
    assert state.observation(0).context == {"monk": "white", "points": 3}
    assert state.legal_actions() == [1, -1]
    decide(state, 0, "william", -1)
    assert state.observation(0).context == {"monk": "grey", "points": 3}
    decide(state, 0, "william", 1)
    assert (state.clue["grey"], state.clue["white"]) == (8, 2)
    hand(state, 1, "library-1")
    play(state, 1, "library-1")
    move(state, 1, "blue", "library")
    assert state.suspicion["blue"] == 14 and pending(state) == (2, "play")
    hand(state, 2, "william-adson-2")
    play(state, 2, "william-adson-2", "adson")
    move(state, 2, "adson", "library")
    for monk, way in (("blue", -1), ("white", 1), ("grey", 1)):
        assert state.observation(2).context == {"monk": monk, "points": 5}
        decide(state, 2, "adson", way)
    assert [state.suspicion[c] for c in ("grey", "white", "blue")] == [15, 15, 9]
    assert points(state, 3) == [
        pt("ana", "white", "clue", -3, "william"),
        pt("ana", "grey", "clue", 3, "william"),
        pt("bob", "blue", "suspicion", 4, "move"),
        pt("cai", "blue", "suspicion", -5, "adson"),
        pt("cai", "white", "suspicion", 5, "adson"),
        pt("cai", "grey", "suspicion", 5, "adson"),
    ]


@pytest.mark.parametrize("pawn", ["william", "adson"])
def test_william_or_adson_meeting_no_monk_does_nothing(pawn: str) -> None:
    state = start()
    quiet(state, 0, pawn)
    assert pending(state) == (1, "play") and points(state) == []


def test_monks_moving_to_william_give_no_clue_points() -> None:
    """The rulebook: "only awarded if William or Adson move to the monks (not the other way)"."""
    state = start()
    state.positions["william"] = "gardens"
    state.tasks["gardens"] = [("orange", 1), ("red", 1)]
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "gardens")
    assert pending(state) == (1, "play") and state.clue == dict.fromkeys(COLOURS, 5)


# ------------------------------------------------------------ end of the day


CONVERSION_EXAMPLE = {"grey": 30, "blue": 20, "white": 20, "red": 15, "black": 15, "orange": 12}


@pytest.mark.parametrize(("event", "factor"), [("hurry", 1), ("caught", 2)])
def test_end_of_day_conversion_example(event: str, factor: int) -> None:
    """Grey first, blue and white second, red and black third, orange last: 5, 4, 4, 3,
    3, 2 clue ("Caught": 10, 8, 8, 6, 6, 4); then every suspicion marker back to 10."""
    state = start(day=2, event=event)
    state.suspicion.update(CONVERSION_EXAMPLE)
    before = dict(state.clue)
    end_day(state, 1)
    assert clue_delta(state, before) == {
        c: n * factor
        for c, n in {"grey": 5, "blue": 4, "white": 4, "red": 3, "black": 3, "orange": 2}.items()
    }
    assert state.suspicion == dict.fromkeys(COLOURS, 10)
    assert pending(state) == (1, "play")


def test_end_of_day_conversion_with_all_six_tied() -> None:
    """Reading: all six share first place and get 5."""
    state = start(day=2, event="hurry")
    state.suspicion = dict.fromkeys(COLOURS, 17)
    end_day(state, 0)
    assert state.clue == dict.fromkeys(COLOURS, 10)
    assert state.suspicion == dict.fromkeys(COLOURS, 10)


def test_conversions_are_not_logged() -> None:
    state = start(day=2)
    state.suspicion.update(CONVERSION_EXAMPLE)
    end_day(state, 0)
    assert all(e["type"] == "identity" for e in state.logs[0])


@pytest.mark.parametrize("day", [1, 3, 5])
def test_revelation_rounds(day: int) -> None:
    """After days 1, 3 and 5 each player reveals a hidden marker, never their own colour;
    the markers turn over together and each gives its colour +2 clue."""
    state = start(day=day)
    for seat in range(4):
        state.revealed[seat] = [c for c in ("orange", "black") if c != state.identities[seat]][
            : (day - 1) // 2
        ]
    end_day(state, 2)
    before = dict(state.clue)
    assert pending(state) == (0, "reveal")
    assert state.legal_actions() == [
        c for c in COLOURS if c != "red" and c not in state.revealed[0]
    ]
    choices = ("blue", "red", "red", "white")
    for seat, colour in enumerate(choices):
        assert state.observation(seat).revealed[0] == tuple(state.revealed[0])
        decide(state, seat, "reveal", colour)
    assert [r[-1] for r in state.revealed] == list(choices)
    assert clue_delta(state, before) == {"red": 4, "blue": 2, "white": 2}
    reveals = [e for e in state.logs[3] if e["type"] == "reveal"]
    assert reveals == [
        {"type": "reveal", "player": p, "colour": c} for p, c in zip(state.game.players, choices)
    ]
    assert all(e in state.logs[0] for e in reveals)
    assert pending(state) == (2, "play") and state.day == day + 1


@pytest.mark.parametrize("day", [2, 4])
def test_no_revelation_after_even_days(day: int) -> None:
    state = start(day=day)
    end_day(state, 1)
    assert pending(state) == (1, "play")


def test_no_colour_is_revealed_twice() -> None:
    state = start(2, day=3)
    state.revealed[0] = ["blue"]
    end_day(state, 0)
    assert state.legal_actions() == ["white", "grey", "black", "orange"]


# ----------------------------------------------------------- the seventh day


def to_guesses(n: int) -> RoseState:
    """The guesses of day 7; the sixth day was ended by ana (one event tile)."""
    state = start(n, day=6)
    end_day(state, 0)
    assert state.day == 7 and state.event is None
    return state


def test_the_seventh_day_is_guesses_only() -> None:
    """One marker in front of each other player; one player's guesses are all different."""
    state = to_guesses(4)
    assert pending(state) == (0, "guess")
    assert state.observation(0).context == {"of": ("bob", "cai", "dee")}
    assert state.legal_actions() == list(permutations(COLOURS, 3))
    with pytest.raises(DeduceError):
        state.apply_action(("blue", "blue", "red"))


def test_guess_scoring_example() -> None:
    """Four players; blue, orange and blue in front of the Blue player: 2 x 4 = 8 clue.
    Each event tile held: +2 clue."""
    state = to_guesses(4)
    before = dict(state.clue)
    guesses = [
        ("blue", "red", "black"),
        ("orange", "black", "red"),
        ("black", "orange", "red"),
        ("orange", "blue", "red"),
    ]
    for seat, guess in enumerate(guesses):
        decide(state, seat, "guess", guess)
    assert state.is_terminal()
    assert clue_delta(state, before) == {"blue": 8, "red": 2}
    log = state.logs[1]
    assert log[-3:] == [
        {"type": "identity", "player": p, "colour": c}
        for p, c in (("ana", "red"), ("cai", "white"), ("dee", "grey"))
    ]
    assert log[-15:-3] == [
        {"type": "guess", "player": p, "of": o, "colour": c}
        for p, guess in zip(state.game.players, guesses)
        for o, c in zip([q for q in state.game.players if q != p], guess)
    ]


@pytest.mark.parametrize(("n", "each"), [(2, 12), (3, 6), (4, 4), (5, 3)])
def test_correct_guesses_by_player_count(n: int, each: int) -> None:
    state = to_guesses(n)
    before = dict(state.clue)
    for seat in range(n):
        decide(state, seat, "guess", tuple(c for s, c in enumerate(state.identities) if s != seat))
    assert clue_delta(state, before) == {
        c: each * (n - 1) + (2 if s == 0 else 0) for s, c in enumerate(state.identities)
    }
    assert state.scores == [state.clue[c] for c in state.identities]
    assert state.returns() == [-float(s) for s in state.scores]


def test_the_clue_track_wraps_past_50_and_stops_at_0() -> None:
    """Past 50 the marker starts at 0 again and 50 is added: the score goes on."""
    state = start()
    state.positions.update(blue="library", white="library")
    state.clue.update(blue=49, white=2)
    hand(state, 0, WA)
    play(state, 0, WA, "william")
    move(state, 0, "william", "library")
    decide(state, 0, "william", 1)
    decide(state, 0, "william", -1)
    assert state.observation(1).clue["blue"] == 52 and state.clue["white"] == 0
    assert points(state) == [
        pt("ana", "blue", "clue", 3, "william"),
        pt("ana", "white", "clue", -3, "william"),
    ]


@pytest.mark.parametrize(
    ("clue", "tiles", "winners"),
    [
        ((30, 20, 40, 25), (0, 3, 0, 0), [1]),
        ((20, 20, 40, 25), (2, 1, 0, 0), [1]),
        ((20, 20, 40, 20), (1, 2, 0, 1), [0, 3]),
    ],
)
def test_the_lowest_clue_score_wins(
    clue: tuple[int, ...], tiles: tuple[int, ...], winners: list[int]
) -> None:
    """Lowest clue score among the colours played; tie: fewest event tiles; else several."""
    state = start()
    state.clue.update(zip(state.identities, clue))
    state.clue.update(black=0, orange=1)  # colours nobody plays do not count
    state.events_held = [["caught"] * k for k in tiles]
    assert state.winners() == winners


# ----------------------------------------------------------- the event tiles


def test_communicative() -> None:
    """William moved to Adson's building: a conversion, markers back to 10; none when all
    six are tied; the normal conversion still comes at the end of the day."""
    state = start(day=2, event="communicative")
    state.positions["adson"] = "church"
    state.suspicion.update(CONVERSION_EXAMPLE)
    before = dict(state.clue)
    hand(state, 0, WA)
    play(state, 0, WA, "william")
    move(state, 0, "william", "church")
    assert clue_delta(state, before) == {
        "grey": 5,
        "blue": 4,
        "white": 4,
        "red": 3,
        "black": 3,
        "orange": 2,
    }
    assert state.suspicion == dict.fromkeys(COLOURS, 10)
    before = dict(state.clue)
    hand(state, 1, "william-adson-2")
    play(state, 1, "william-adson-2", "adson")
    move(state, 1, "adson", "gardens")
    hand(state, 2, "church-2")
    play(state, 2, "church-2")
    move(state, 2, "adson", "church")  # a building card: Adson placed on William's building
    assert state.clue == before  # all six tied: no conversion
    state.suspicion["red"] = 11
    end_day(state, 3)
    assert clue_delta(state, before) == {"red": 5, **{c: 4 for c in COLOURS if c != "red"}}


def test_at_the_culprits_heels() -> None:
    """After William's clue points, +2 clue to any one monk or +1 to any two (never back)."""
    state = start(event="heels")
    state.positions.update(grey="library", black="church")
    hand(state, 0, WA)
    play(state, 0, WA, "william")
    move(state, 0, "william", "library")
    decide(state, 0, "william", -1)
    assert state.observation(0).context == {"event": "heels"}
    assert len(state.legal_actions()) == 6 + 15
    decide(state, 0, "bonus", ("red",))
    hand(state, 1, "church-2")
    play(state, 1, "church-2")
    move(state, 1, "william", "church")  # a building card moving William: William moved
    decide(state, 1, "william", 1)
    decide(state, 1, "bonus", ("blue", "black"))
    assert clue_delta(state, dict.fromkeys(COLOURS, 5)) == {
        "grey": -3,
        "red": 2,
        "blue": 1,
        "black": 4,
    }
    assert points(state) == [
        pt("ana", "grey", "clue", -3, "william"),
        pt("ana", "red", "clue", 2, "bonus"),
        pt("bob", "black", "clue", 3, "william"),
        pt("bob", "blue", "clue", 1, "bonus"),
        pt("bob", "black", "clue", 1, "bonus"),
    ]
    hand(state, 2, "orange-2")
    play(state, 2, "orange-2")
    move(state, 2, "orange", "gardens")
    assert pending(state) == (3, "play")


def test_in_a_hurry() -> None:
    """Nobody may use time tiles; task tiles are still collected."""
    state = start(event="hurry")
    state.time_tiles[0] = [("red", 1), ("blue", 2)]
    state.tasks["church"] = [("orange", 2), ("blue", 5)]
    hand(state, 0, "orange-3")
    assert state.observation(0).usable == 0 and state.observation(0).time_tiles[0] == 2
    assert state.legal_actions() == [("orange-3", None, 0)]
    play(state, 0, "orange-3")
    move(state, 0, "orange", "church")
    assert len(state.time_tiles[0]) == 3


def test_without_ostentation() -> None:
    """A monk moved to a building with no pawn at all gets -1 clue (not logged)."""
    state = start(event="ostentation")
    state.positions["william"] = "church"
    hand(state, 0, "orange-2", "red-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "gardens")
    assert state.clue["orange"] == 4
    hand(state, 1, "red-2")
    play(state, 1, "red-2")
    move(state, 1, "red", "church")
    assert state.clue["red"] == 5
    assert points(state) == []


def test_mysterious() -> None:
    """A monk moved to William's building: +2 clue to one monk or +1 to two."""
    state = start(event="mysterious")
    state.positions.update(william="church", grey="library")
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert state.observation(0).context == {"event": "mysterious"}
    decide(state, 0, "bonus", ("grey", "orange"))
    assert clue_delta(state, dict.fromkeys(COLOURS, 5)) == {"orange": 1, "grey": 1}
    hand(state, 1, WA)
    play(state, 1, WA, "william")
    move(state, 1, "william", "library")  # William moving to a monk is not "Mysterious"
    decide(state, 1, "william", 1)
    assert pending(state) == (2, "play")


def test_studious_building_card() -> None:
    """Two pawns moved to the building, each action in turn; the time moves once."""
    state = start(event="studious")
    state.tasks["church"] = [("orange", 2), ("grey", 1)]
    hand(state, 0, "church-2")
    play(state, 0, "church-2")
    move(state, 0, "orange", "church")
    assert pending(state) == (0, "second")
    assert state.legal_actions() == [None, *((p, "church") for p in PAWNS if p != "orange")]
    decide(state, 0, "second", ("grey", "church"))
    assert (state.suspicion["orange"], state.suspicion["grey"], state.time) == (8, 9, 2)
    assert state.time_tiles[0] == [("orange", 2), ("grey", 1)]
    assert pending(state) == (1, "play")


def test_studious_monk_and_william_cards() -> None:
    """A monk card moves the monk twice; a William/Adson card the same pawn twice."""
    state = start(event="studious")
    state.positions.update(grey="library", white="cloister")
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert all(a is None or a[0] == "orange" for a in state.legal_actions())
    decide(state, 0, "second", ("orange", "gardens"))
    assert state.positions["orange"] == "gardens"
    hand(state, 1, WA)
    play(state, 1, WA, "william")
    move(state, 1, "william", "library")
    decide(state, 1, "william", 1)
    assert {a[0] for a in state.legal_actions() if a} == {"william"}
    decide(state, 1, "second", ("william", "cloister"))
    decide(state, 1, "william", -1)
    assert (state.clue["grey"], state.clue["white"], state.time) == (8, 2, 7)
    hand(state, 2, "red-1")
    play(state, 2, "red-1")
    move(state, 2, "red", "scriptorium")
    decide(state, 2, "second", None)
    assert pending(state) == (3, "play")


def test_incredulous() -> None:
    """A monk moved to the church: each opponent returns a time tile (reading: the
    oldest) to the end of the row; not the active player; not for William or Adson."""
    state = start(event="incredulous")
    state.time_tiles = [[("red", 1)], [("blue", 2), ("grey", 3)], [], [("white", 4)]]
    row = list(state.row)
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "church")
    assert state.time_tiles[1:] == [[("grey", 3)], [], []]
    assert state.time_tiles[0][0] == ("red", 1)
    assert state.row == [*row, ("blue", 2), ("white", 4)]
    hand(state, 1, WA)
    play(state, 1, WA, "william")
    move(state, 1, "william", "church")
    decide(state, 1, "william", 1)
    assert state.time_tiles[1] == [("grey", 3)] and state.time_tiles[0][0] == ("red", 1)


def test_awkward_example() -> None:
    """A red 4 card: then white +4 suspicion (tiles used do not count). A William card:
    black +5. Adson: nothing, his time value is 0."""
    state = start(event="awkward")
    state.tasks["library"] = [("red", 2), ("blue", 1)]
    state.time_tiles[0] = [("grey", 1)]
    hand(state, 0, "red-4")
    play(state, 0, "red-4", tiles=1)
    move(state, 0, "red", "library")
    assert state.observation(0).context == {"points": 4}
    assert state.legal_actions() == list(COLOURS)
    decide(state, 0, "awkward", "white")
    quiet(state, 1, "william")
    decide(state, 1, "awkward", "black")
    quiet(state, 2, "adson")
    assert pending(state) == (3, "play")
    assert (state.suspicion["white"], state.suspicion["black"]) == (14, 15)
    assert points(state) == [
        pt("ana", "red", "suspicion", -2, "move"),
        pt("ana", "white", "suspicion", 4, "bonus"),
        pt("bob", "black", "suspicion", 5, "bonus"),
    ]


def test_tricky() -> None:
    """William gives or takes 6 clue, Adson 10 suspicion."""
    state = start(event="tricky")
    state.positions["grey"] = "library"
    hand(state, 0, WA)
    play(state, 0, WA, "william")
    move(state, 0, "william", "library")
    assert state.observation(0).context == {"monk": "grey", "points": 6}
    decide(state, 0, "william", 1)
    hand(state, 1, "william-adson-2")
    play(state, 1, "william-adson-2", "adson")
    move(state, 1, "adson", "library")
    decide(state, 1, "adson", 1)
    assert (state.clue["grey"], state.suspicion["grey"]) == (11, 20)
    assert [p["n"] for p in points(state)] == [6, 10]


def test_dubious() -> None:
    """The moved monk gets +1 clue, wherever it goes (not logged)."""
    state = start(event="dubious")
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "gardens")
    quiet(state, 1, "william")
    assert clue_delta(state, dict.fromkeys(COLOURS, 5)) == {"orange": 1}
    assert points(state) == []


def test_forbidden() -> None:
    """A monk moved to the library gets +2 clue."""
    state = start(event="forbidden")
    hand(state, 0, "orange-2")
    play(state, 0, "orange-2")
    move(state, 0, "orange", "library")
    hand(state, 1, "red-2")
    play(state, 1, "red-2")
    move(state, 1, "red", "church")
    hand(state, 2, WA)
    play(state, 2, WA, "william")
    move(state, 2, "william", "library")
    decide(state, 2, "william", -1)  # William meets orange in the library: -3, no bonus
    assert clue_delta(state, dict.fromkeys(COLOURS, 5)) == {"orange": 2 - 3}


def test_inquiring_example() -> None:
    """Blue moved to the red and black monks: red and black +1 clue each, blue nothing."""
    state = start(event="inquiring")
    state.positions.update(red="church", black="church", william="church")
    hand(state, 0, "blue-2")
    play(state, 0, "blue-2")
    move(state, 0, "blue", "church")
    assert clue_delta(state, dict.fromkeys(COLOURS, 5)) == {"red": 1, "black": 1}


def test_suspicious() -> None:
    """After each turn the monk(s) with the most suspicion get +1 clue; all six tied:
    nothing."""
    state = start(event="suspicious")
    quiet(state, 0)
    assert state.clue == dict.fromkeys(COLOURS, 5)
    state.suspicion.update(grey=20)
    quiet(state, 1)
    state.suspicion.update(blue=20)
    quiet(state, 2)
    assert clue_delta(state, dict.fromkeys(COLOURS, 5)) == {"grey": 2, "blue": 1}
    state.suspicion["orange"] = 12
    state.tasks["church"] = [("black", 5), ("red", 5)]
    hand(state, 3, "orange-2")
    play(state, 3, "orange-2")
    move(state, 3, "orange", "church")  # judged after the action: orange leads with 22
    assert clue_delta(state, dict.fromkeys(COLOURS, 5)) == {"grey": 2, "blue": 1, "orange": 1}


# -------------------------------------------------------------- whole games


def check_log(game: RoseGame, state: RoseState, seat: int) -> None:
    """The log passes the reader; own identity first, every other identity last."""
    player, log = game.players[seat], state.logs[seat]
    parse_jsonl(game.log_text(player, log), f"{player}.jsonl")
    assert {e["type"] for e in log} <= LOGGED
    assert log[0] == {"type": "identity", "player": player, "colour": state.identities[seat]}
    others = [
        {"type": "identity", "player": p, "colour": c}
        for p, c in zip(game.players, state.identities)
        if p != player
    ]
    n = len(game.players)
    assert log[-(n - 1) :] == others
    assert len([e for e in log if e["type"] == "guess"]) == n * (n - 1)
    assert [e for e in log if e["type"] in ("points", "reveal", "guess")] == [
        e for e in state.logs[0] if e["type"] in ("points", "reveal", "guess")
    ]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_finish_with_valid_logs(n: int) -> None:
    game = RoseGame.create(n)
    for i in range(100):
        state = play_game(game, f"rose-test:{n}:{i}", ["random"] * n, BOTS)
        assert state.is_terminal() and state.day == 7
        assert len(state.winners()) >= 1
        assert all(len(r) == 3 for r in state.revealed)
        for seat in range(n):
            check_log(game, state, seat)


def test_the_same_seed_gives_the_same_game() -> None:
    game = RoseGame.create(3)
    first = play_game(game, "same", ["random"] * 3, BOTS).events
    assert play_game(game, "same", ["random"] * 3, BOTS).events == first
    assert play_game(game, "other", ["random"] * 3, BOTS).events != first


def test_log_text_is_canonical() -> None:
    game = RoseGame.create(2)
    state = play_game(game, "text", ["random"] * 2, BOTS)
    text = game.log_text("bob", state.logs[1])
    assert text.splitlines()[0] == (
        '{"game": "rose", "version": 1, "players": ["ana", "bob"], "me": "bob"}'
    )
    assert text.endswith("\n") and len(text.splitlines()) == len(state.logs[1]) + 1
