"""Mystery of the Abbey rules, checked on the engine through its public interface.

One test (or one parametrized test) per rule; each docstring quotes the
rulebook statement it checks (/work/shared/rules/mystery-of-the-abbey.txt,
English text). Chance nodes are driven with chosen outcomes: ``start`` deals
in deck order (always the first outcome: culprit, then the pile, then each
seat's hand in turn), then sets the first player and the two confessional
dice. When a situation would take many turns to reach, a test sets a
public-looking field (``positions``, ``hands``, ``pile``, ``bell``...)
directly and says so in a comment; every card stays in the game (24 across
culprit, pile and hands). Rooms are those of the bundled default board.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from deduce.errors import DeduceError
from deduce.games.abbey.rules.engine import AbbeyGame, AbbeyState
from deduce.games.abbey.sim.simulate import BOTS
from deduce.games.machine import TERMINAL
from deduce.games.simulate import play_game
from deduce.logs.formats.abbey import GROUP_OF, TRAITS
from deduce.logs.jsonl import parse_jsonl

CHAPEL = "ecclesia"
CONF_CHAPEL = "confessorium-ecclesiae"
CONF_COURT = "confessorium-aulae"
CHAPTER = "capitulum"
FAR = "culina"  # an empty room far from the chapel, to park pawns out of the way
#: Rulebook sizes: players -> (suspect pile, cards per player).
SIZES = {3: (5, 6), 4: (3, 5), 5: (3, 4), 6: (5, 3)}
MASS_ORDER = ("matins", "lauds", "prime", "terce", "sexte", "none", "vespers", "compline")
#: Room kinds without an action: quiet play only goes there.
QUIET = ("cloister", "empty", "courtyard", "chapel")
NAMES = ("ana", "bob", "cai", "dee", "eve", "fay")


# ------------------------------------------------------------------ helpers


def start(
    n: int = 4, first: int = 0, dice: tuple[int, int] = (0, 0), max_turns: int = 400
) -> AbbeyState:
    """A state dealt in deck order, with this first player and confessional dice."""
    game = AbbeyGame.create(n, max_turns=max_turns)
    state = game.new_state()
    for _ in range(1 + game.pile + n * game.hand):
        chance(state, state.chance_outcomes()[0][0])
    shuffle_in_file_order(state)
    chance(state, first)
    for seat in dice:
        chance(state, seat)
    return state


def dealt(n: int) -> tuple[str, list[str], list[list[str]]]:
    """Culprit, pile and hands of ``start(n)``'s in-order deal."""
    ids = AbbeyGame.create(n).deck.ids
    pile, hand = SIZES[n]
    return (
        ids[0],
        list(ids[1 : 1 + pile]),
        [list(ids[1 + pile + s * hand : 1 + pile + (s + 1) * hand]) for s in range(n)],
    )


def chance(state: AbbeyState, outcome: Any) -> None:
    """Resolve the pending chance node with ``outcome`` (which must be possible)."""
    assert state.is_chance_node()
    assert outcome in [o for o, _ in state.chance_outcomes()]
    state.apply_action(outcome)


def pending(state: AbbeyState) -> tuple[int, str]:
    """(seat, decision name) of the pending decision; (-1, "") at a chance node."""
    seat = state.current_player()
    return (seat, state.observation(seat).decision) if seat >= 0 else (seat, "")


def decide(state: AbbeyState, seat: int, decision: str, action: Any) -> None:
    """``seat`` takes ``action`` at its pending ``decision``."""
    assert pending(state) == (seat, decision)
    state.apply_action(action)


def move(state: AbbeyState, seat: int, room: str) -> None:
    decide(state, seat, "move", ("move", room))


def shuffle_in_file_order(state: AbbeyState) -> None:
    """Resolve the setup's shuffles of the book and event piles: each pile in file order."""
    while isinstance(state.chance_outcomes()[0][0], str):
        chance(state, state.chance_outcomes()[0][0])


def mass_with_event(state: AbbeyState, card: str) -> None:
    """Pass the Mass's cards (first legal choices) with ``card`` on top of the event pile."""
    on_top(state, "events", card)
    while pending(state)[1] == "pass":
        state.apply_action(state.legal_actions()[0])


def on_top(state: AbbeyState, pile: str, card: str) -> None:
    """Put ``card`` on top of its face-down pile: a test shortcut for a lucky shuffle."""
    cards = state.piles[pile]
    cards.insert(0, cards.pop([b.id for b in cards].index(card)))


def since(state: AbbeyState, mark: int, kind: str | None = None) -> list[dict[str, Any]]:
    """Truth events after the first ``mark`` ones, of one type if given."""
    return [e for e in state.events[mark:] if kind is None or e["type"] == kind]


def traits_of(state: AbbeyState, card: str) -> frozenset[str]:
    return state.game.deck.card(card).traits


def cards_total(state: AbbeyState) -> list[str]:
    return [state.culprit, *state.pile, *(c for h in state.hands for c in h)]


def give(state: AbbeyState, cards: list[str], to: int) -> None:
    """Move ``cards`` (from wherever they are) into seat ``to``'s hand: a test shortcut."""
    for card in cards:
        for hand in state.hands:
            if card in hand:
                hand.remove(card)
        if card in state.pile:
            state.pile.remove(card)
        state.hands[to].append(card)
    assert sorted(cards_total(state)) == sorted(state.game.deck.ids)


def resize(state: AbbeyState, sizes: list[int]) -> None:
    """Move cards between hands until each seat holds ``sizes[seat]`` cards."""
    assert sum(sizes) == sum(len(h) for h in state.hands)
    for seat, size in enumerate(sizes):
        while len(state.hands[seat]) > size:
            taker = next(s for s, want in enumerate(sizes) if len(state.hands[s]) < want)
            give(state, [state.hands[seat][-1]], taker)


def quiet_step(state: AbbeyState) -> None:
    """Resolve the pending node without touching cards or rooms with actions.

    Moves go to a room without an action, questions are met with silence,
    Mass passes take the first legal choice, and the event card on top at
    every Mass is the one that does nothing (a shortcut on the pile's order).
    """
    on_top(state, "events", "feast-day")
    _, decision = pending(state)
    legal = state.legal_actions()
    board = state.game.board
    if decision == "move":
        quiet = [a for a in legal if a[0] == "move" and board.room(a[1]).kind in QUIET]
        state.apply_action(quiet[0])
    elif decision == "reply":
        state.apply_action(("silence",))
    elif decision in ("ask", "ask_back", "pass"):
        state.apply_action(legal[0])
    else:
        raise AssertionError(f"quiet play met a {decision} decision")


def quiet_until(state: AbbeyState, done: Callable[[AbbeyState], bool], limit: int = 2000) -> None:
    """Play quietly until ``done(state)``."""
    for _ in range(limit):
        if done(state):
            return
        quiet_step(state)
    raise AssertionError("quiet play never got there")


def quiet_to_move(state: AbbeyState, seat: int) -> None:
    """Play quietly until ``seat`` is to move."""
    quiet_until(state, lambda s: pending(s) == (seat, "move"))


def brush_off(state: AbbeyState, seat: int) -> None:
    """If ``seat`` must ask a question (an encounter), ask the first one and get silence."""
    if pending(state) == (seat, "ask"):
        _, target, _ = state.legal_actions()[0]
        state.apply_action(state.legal_actions()[0])
        decide(state, target, "reply", ("silence",))


def within(state: AbbeyState, room: str, steps: int) -> set[str]:
    """Rooms 1 to ``steps`` doors from ``room`` (breadth-first, independent of the engine)."""
    return {r for r, d in state.game.board.distances(room).items() if 1 <= d <= steps}


def empty_pile(state: AbbeyState, seat: int) -> None:
    """Shortcut for "the parlor's pile has been drawn": its cards go to ``seat``'s hand."""
    give(state, list(state.pile), seat)


# ------------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_setup_deals_rulebook_sizes_and_places_pawns_and_dice(n):
    """Setup: one culprit under the board; 5 (3 or 6 players) or 3 (4 or 5) suspects on the
    board; the rest dealt (6/5/4/3 each); pawns in the Chapel; one die picks the first
    player and two dice the last visitors of the confessionals (colours not in play rerolled)."""
    game = AbbeyGame.create(n)
    state = game.new_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 24 and all(p == pytest.approx(1 / 24) for _, p in outcomes)
    for _ in range(1 + game.pile + n * game.hand):
        chance(state, state.chance_outcomes()[0][0])
    # the book and event piles are shuffled face down, one random card after another
    assert [o for o, _ in state.chance_outcomes()] == [b.id for b in game.cards.events]
    shuffle_in_file_order(state)
    assert [b.id for b in state.piles["library"]] == [b.id for b in game.cards.library]
    # the first-player die and the two confessional dice only show colours in play
    for seat in (n - 1, 1, 2):
        assert [o for o, _ in state.chance_outcomes()] == list(range(n))
        chance(state, seat)
    culprit, pile, hands = dealt(n)
    assert len(state.pile) == SIZES[n][0] and state.pile == pile
    assert [len(h) for h in state.hands] == [SIZES[n][1]] * n and state.hands == hands
    assert state.culprit == culprit
    assert state.holder_of(culprit) == "culprit"
    assert all(culprit not in h for h in state.hands) and culprit not in state.pile
    assert sorted(cards_total(state)) == sorted(game.deck.ids)
    assert state.positions == [CHAPEL] * n
    assert state.observation(0).dice == {CONF_CHAPEL: 1, CONF_COURT: 2}
    assert pending(state) == (n - 1, "move")


# ------------------------------------------------------------ bell and Mass


@pytest.mark.parametrize(
    ("n", "first_rounds", "later_rounds"), [(3, 4, 4), (4, 4, 4), (5, 4, 4), (6, 4, 3)]
)
def test_mass_every_four_rounds_three_with_six_players(n, first_rounds, later_rounds):
    """The first player moves the bell one spot each round (circled 1 on Matins at his
    first turn); "if the bell is already on circled 4 ... immediately call the Mass"; the
    bell goes to the ringer's right neighbour, who becomes first player. Six players:
    "only three turns between each mass": the bell starts on circled 2 of each newly
    uncovered Mass card (not on Matins at the start: that one starts on circled 1)."""
    state = start(n, first=1)
    assert state.bell == 1
    quiet_until(
        state,
        lambda s: (
            s.events[-1]["type"] == "move"
            and len([e for e in s.events if e["type"] == "mass_bell"]) == 2
        ),
    )
    turns: list[list[str]] = [[]]
    ringers = []
    for event in state.events:
        if event["type"] == "move":
            turns[-1].append(event["player"])
        elif event["type"] == "mass_bell":
            ringers.append(event["player"])
            turns.append([])
    first_player, second_player, third_player = 1, 0, n - 1  # each Mass: the right neighbour
    assert ringers == [NAMES[first_player], NAMES[second_player]]
    assert turns[0] == [NAMES[(first_player + i) % n] for i in range(first_rounds * n)]
    assert turns[1] == [NAMES[(second_player + i) % n] for i in range(later_rounds * n)]
    assert turns[2] == [NAMES[third_player]]  # the new first player plays at once
    assert state.bell == 5 - later_rounds


def test_mass_cards_come_in_chronological_order_and_cycle():
    """Mass cards are stacked Matins, Lauds, Prime, Terce, Sexte, None, Vespers, Compline;
    the played card goes to the bottom of the deck, revealing the next one."""
    state = start(6)
    quiet_until(state, lambda s: len([e for e in s.events if e["type"] == "mass"]) == 10)
    rung = [e["mass"] for e in state.events if e["type"] == "mass_bell"]
    assert rung == [*MASS_ORDER, "matins", "lauds"]
    passes = {m.id: m.passes for m in state.game.cards.masses}
    assert [e["n"] for e in state.events if e["type"] == "mass"] == [passes[m] for m in rung]


def test_mass_passes_min_n_cards_to_the_left_all_at_once():
    """ "Each player simultaneously gives one or more suspect cards, as indicated by the Mass
    card, to the player on his left. If a player does not have enough suspect cards in
    hand, he just gives all the ones he had, keeping the ones he receives.\""""
    state = start(4)
    state.bell = 4  # shortcut: three quiet rounds already played
    state.mass_index = 2  # shortcut: Matins and Lauds played, Prime (2 cards) is next
    resize(state, [5, 0, 1, 14])  # bob has no card, cai only one
    before = [list(h) for h in state.hands]
    quiet_until(state, lambda s: s.events[-1]["type"] == "mass_bell")
    assert state.events[-1]["mass"] == "prime"
    decide(state, 0, "pass", ("pass", tuple(sorted(before[0])[:2])))
    # bob passes nothing (no decision); cai can only pass his one card
    assert pending(state) == (2, "pass")
    assert state.legal_actions() == [("pass", (before[2][0],))]
    assert state.hands == before  # nothing moves until everyone has chosen
    state.apply_action(("pass", (before[2][0],)))
    assert pending(state) == (3, "pass") and len(state.legal_actions()) == 14 * 13 // 2
    gave3 = tuple(sorted(before[3])[-2:])
    state.apply_action(("pass", gave3))
    gave = {0: sorted(before[0])[:2], 1: [], 2: before[2], 3: list(gave3)}
    for seat in range(4):
        right = (seat - 1) % 4
        expected = [c for c in before[seat] if c not in gave[seat]] + gave[right]
        assert sorted(state.hands[seat]) == sorted(expected)
    mass = [e for e in state.events if e["type"] == "mass"][-1]
    assert mass["n"] == 2
    assert mass["passes"] == {NAMES[s]: sorted(gave[s]) for s in range(4)}


def test_mass_sends_pawns_to_the_chapel_then_draws_an_event():
    """During Mass: "The pawns of all the players are placed in the Chapel"; after the
    passing "an event card ... is drawn ... and its effect applied immediately"."""
    state = start(4)
    state.bell = 4  # shortcut: three quiet rounds already played
    quiet_until(state, lambda s: s.events[-1]["type"] == "mass_bell")
    assert state.positions == [CHAPEL] * 4
    on_top(state, "events", "bishops-visit")  # the ringer goes to the chapter
    mark = len(state.events)
    while pending(state)[1] == "pass":
        state.apply_action(state.legal_actions()[0])
    assert [e["type"] for e in since(state, mark)][:2] == ["mass", "book"]  # passes first
    assert since(state, mark, "book") == [
        {"type": "book", "player": "ana", "pile": "events", "card": "bishops-visit"}
    ]
    assert state.piles["events"][-1].id == "bishops-visit"  # back under the pile
    assert state.positions[0] == CHAPTER
    assert pending(state) == (3, "move")  # the ringer's right neighbour plays first


# --------------------------------------------------------------- movement


@pytest.mark.parametrize(("n", "steps"), [(3, 2), (4, 2), (5, 2), (6, 3)])
def test_move_is_one_or_two_steps_three_with_six_players_never_back_to_start(n, steps):
    """ "Move your pawn one or two steps ... The move is mandatory and a 2-step move cannot be
    used to immediately come back to the same room"; six players: one, two or three."""
    state = start(n)
    for room in (CHAPEL, "cellula-0", "claustrum-n"):  # a dead end among them
        state.positions[0] = room  # shortcut: put the pawn there
        legal = state.legal_actions()
        ends = {a[1] for a in legal}
        # the library is closed to everyone while all hands are equal (see its own test)
        assert ends == within(state, room, steps) - {room, "bibliotheca"}
        assert ("stay",) not in legal
        with pytest.raises(DeduceError):
            state.apply_action(("move", room))
    if n == 4:
        state.positions[0] = CHAPEL
        assert {a[1] for a in state.legal_actions()} == {
            CONF_CHAPEL,
            "claustrum-n",
            "claustrum-e",
            "claustrum-w",
        }


def test_one_pawn_per_confessional_and_cell_except_the_owner():
    """ "There may be only one pawn at a time in each confessional" and in each cell;
    "the owner of a cell may enter it even if there is already another pawn in it"."""
    state = start(4)
    # shortcuts: bob in the chapel's confessional, cai intruding in bob's cell, dee at home
    state.positions[1:] = [CONF_CHAPEL, "cellula-1", "cellula-3"]
    assert ("move", CONF_CHAPEL) not in state.legal_actions()
    state.positions[0] = "dormitorium"  # shortcut
    legal = state.legal_actions()
    assert ("move", "cellula-1") not in legal
    assert {("move", "cellula-0"), ("move", "cellula-2")} <= set(legal)
    state.positions[0] = "novitiatus"  # shortcut
    assert ("move", "cellula-3") not in state.legal_actions()  # its owner is inside
    move(state, 0, "claustrum-s")
    state.positions[1] = "dormitorium"  # shortcut
    assert ("move", "cellula-1") in state.legal_actions()  # bob's own cell, cai inside


# -------------------------------------------------------------- encounters


@pytest.mark.parametrize("occupied", [True, False])
def test_ending_a_move_with_another_pawn_makes_a_question_compulsory(occupied):
    """ "If your pawn ends its move in a room already occupied by another player's pawn, you
    must ask that player a question" (a count of one trait or "do you have card X")."""
    state = start(4)
    state.positions[1:] = ["claustrum-e" if occupied else FAR, FAR, FAR]  # shortcut
    move(state, 0, "claustrum-e")
    if not occupied:
        assert pending(state) == (1, "move")
        return
    assert pending(state) == (0, "ask")
    legal = state.legal_actions()
    assert {a[1] for a in legal} == {1}  # no way to skip the question
    questions = {a[2] for a in legal}
    assert questions == (
        {("count", (t,)) for t in TRAITS} | {("has", c) for c in state.game.deck.ids}
    )


def test_vow_of_silence_gives_no_answer_and_no_question_back():
    """The asked player may "make a vow of silence ... thus declining to answer"; only an
    answer gives him a question in return."""
    state = start(4)
    state.positions[1:] = ["claustrum-e", FAR, FAR]  # shortcut
    move(state, 0, "claustrum-e")
    mark = len(state.events)
    decide(state, 0, "ask", ("ask", 1, ("count", ("templar",))))
    assert state.legal_actions() == [("answer",), ("silence",)]
    decide(state, 1, "reply", ("silence",))
    assert [e["type"] for e in since(state, mark)] == ["question", "silence"]
    assert pending(state) == (1, "move")


@pytest.mark.parametrize(
    "question",
    [("count", ("templar",)), ("count", ("thin",)), ("has", "jacopo"), ("has", "aymeric")],
)
def test_an_answer_is_truthful_and_earns_a_question_back_that_must_be_answered(question):
    """The asked player may "answer your question, in which case he will then also get to
    ask you a question in return. You are then bound to answer that question.\""""
    state = start(4)
    state.positions[1:] = ["claustrum-e", FAR, FAR]  # shortcut
    move(state, 0, "claustrum-e")
    mark = len(state.events)
    decide(state, 0, "ask", ("ask", 1, question))
    decide(state, 1, "reply", ("answer",))
    answer = since(state, mark)[-1]
    hand = state.hands[1]
    if question[0] == "count":
        n = sum(traits_of(state, c) >= set(question[1]) for c in hand)
        assert answer == {"type": "count", "player": "bob", "traits": list(question[1]), "n": n}
    else:
        kind = "has" if question[1] in hand else "lacks"
        assert answer == {"type": kind, "player": "bob", "card": question[1]}
    assert pending(state) == (1, "ask_back")
    legal = state.legal_actions()
    assert ("pass",) in legal  # "gets to": asking back is a right, not a duty
    assert {a[1] for a in legal if a[0] == "ask"} == {0}  # back to the asker only
    mark = len(state.events)
    state.apply_action(("ask", 0, ("has", state.hands[0][0])))
    # no reply decision: ana's answer follows at once
    assert [e["type"] for e in since(state, mark)] == ["question", "has"]
    assert pending(state) == (1, "move")


# ------------------------------------------------------------------- rooms


@pytest.mark.parametrize("die", [2, 0])
def test_confessional_takes_a_random_card_of_the_die_player_then_turns_the_die(die):
    """ "Randomly draw a Suspect card from the hand of the last player who visited this same
    confessional, as indicated by ... the dice. Then, turn the dice to your own pawn's
    colour" (no card when the die already shows you)."""
    state = start(4, dice=(die, 3))
    victim_hand = list(state.hands[die])
    move(state, 0, CONF_CHAPEL)
    if die == 0:
        assert pending(state) == (1, "move") and since(state, 1, "take") == []
    else:
        outcomes = state.chance_outcomes()
        assert [o for o, _ in outcomes] == victim_hand
        assert all(p == pytest.approx(1 / len(victim_hand)) for _, p in outcomes)
        chance(state, victim_hand[-1])
        assert victim_hand[-1] in state.hands[0] and victim_hand[-1] not in state.hands[die]
        assert state.events[-1] == {
            "type": "take",
            "player": "ana",
            "from": "cai",
            "card": victim_hand[-1],
        }
    assert state.observation(1).dice == {CONF_CHAPEL: 0, CONF_COURT: 3}


def test_visiting_another_players_cell_takes_a_random_card_of_its_owner():
    """ "If you dare a visit, you may randomly draw a Suspect card from the hand of the
    cell's owner, indicated by the color of the cell.\""""
    state = start(4)
    state.positions[0] = "dormitorium"  # shortcut
    owner_hand = list(state.hands[1])
    move(state, 0, "cellula-1")
    assert [o for o, _ in state.chance_outcomes()] == owner_hand
    chance(state, owner_hand[2])
    assert state.events[-1] == {
        "type": "take",
        "player": "ana",
        "from": "bob",
        "card": owner_hand[2],
    }
    assert len(state.hands[0]) == 6 and len(state.hands[1]) == 4


@pytest.mark.parametrize("case", ["still held", "lost", "nothing taken"])
def test_owner_entering_catches_the_intruder_who_gives_back_and_does_penance(case):
    """The owner entering his occupied cell catches the intruder: "He must immediately give
    back the card he took ... (if he doesn't have this card anymore, then another card is
    drawn randomly from his hand). The intruder is then moved to the Chapel for Penance"."""
    state = start(4)
    state.positions[:] = ["dormitorium", "dormitorium", FAR, FAR]  # shortcut
    if case == "nothing taken":
        give(state, list(state.hands[1]), 3)  # bob has nothing to be taken
    move(state, 0, "cellula-1")
    taken = None
    if case != "nothing taken":
        taken = state.hands[1][0]
        chance(state, taken)
    if case == "lost":
        give(state, [taken], 2)  # shortcut: as if someone had taken it from ana since
    ana_before = list(state.hands[0])
    move(state, 1, "cellula-1")
    brush_off(state, 1)  # the encounter comes first (move, encounter, then the room)
    if case == "lost":
        assert [o for o, _ in state.chance_outcomes()] == ana_before
        chance(state, ana_before[1])
        taken = ana_before[1]
    if taken is not None:
        assert state.events[-1] == {"type": "take", "player": "bob", "from": "ana", "card": taken}
        assert taken in state.hands[1]
    assert len(state.hands[0]) == len(ana_before) - (taken is not None)
    assert {"type": "penance", "player": "ana"} in state.events
    assert state.positions[0] == CHAPEL and state.observation(0).penance == {0}


@pytest.mark.parametrize(("card", "kept"), [("book-of-hours", True), ("bestiary", False)])
def test_scriptorium_kept_books_stay_with_the_player_others_act_at_once(card, kept):
    """Starred books "can be removed from the scriptorium ... keep it in front of you, face
    down"; plain books: "Its effects apply immediately", a die picking the other player."""
    state = start(4)
    state.positions[0] = "claustrum-w"  # shortcut
    on_top(state, "scriptorium", card)
    mark = len(state.events)
    move(state, 0, "scriptorium")  # the top book is taken: no chance node
    assert since(state, mark, "book") == [
        {"type": "book", "player": "ana", "pile": "scriptorium", "card": card}
    ]
    if kept:
        assert [b.id for b in state.observation(0).kept] == [card]
        assert card not in [b.id for b in state.piles["scriptorium"]]
        assert pending(state) == (0, "extra")  # usable later, at the end of a turn
        return
    # bestiary: a die names another monk, who shows ana one card of his choice
    assert [o for o, _ in state.chance_outcomes()] == [1, 2, 3]
    chance(state, 2)
    assert pending(state) == (2, "show")
    assert sorted(state.legal_actions()) == sorted(("show", c) for c in state.hands[2])
    state.apply_action(("show", state.hands[2][0]))
    assert state.events[-1] == {
        "type": "show",
        "player": "cai",
        "to": "ana",
        "card": state.hands[2][0],
    }
    assert state.observation(0).kept == ()
    assert state.piles["scriptorium"][-1].id == card  # back under its pile


@pytest.mark.parametrize(
    ("sizes", "allowed"),
    [
        ([5, 5, 5, 5], False),  # nobody has more
        ([4, 6, 5, 5], True),
        ([4, 6, 4, 6], True),  # a tie for the fewest
        ([4, 5, 3, 8], False),  # cai has fewer
    ],
)
def test_library_only_for_the_fewest_cards_while_someone_has_more(sizes, allowed):
    """ "To enter the library, a player must make sure that: 1. no other player has fewer
    cards in hand than he does, and 2. at least one player has more cards in hand.\""""
    state = start(4)
    resize(state, sizes)
    state.positions[0] = "scriptorium"  # shortcut
    assert (("move", "bibliotheca") in state.legal_actions()) is allowed


def test_library_once_a_game():
    """ "A player may only visit the library once during the entire game"; there he draws a
    Bibliotheca card whose "effects apply immediately"."""
    state = start(4)
    resize(state, [4, 6, 5, 5])
    state.positions[0] = "scriptorium"  # shortcut
    on_top(state, "library", "relic-of-saint-galbert")  # another turn at once
    move(state, 0, "bibliotheca")
    assert state.observation(0).library_used
    assert pending(state) == (0, "move")
    state.positions[0] = "scriptorium"  # shortcut: back next to the library
    sizes = [len(h) for h in state.hands]
    assert sizes[0] == min(sizes) < max(sizes)  # still allowed by the hand sizes
    assert ("move", "bibliotheca") not in state.legal_actions()


def test_crypt_card_gives_an_extra_turn_after_the_normal_one_then_goes_back():
    """ "Draw a Crypta card. You may use later ... to immediately play an extra turn after
    fulfilling your normal turn"; played cards go back under their pile."""
    state = start(4)
    state.positions[0] = "sacristia"  # shortcut
    move(state, 0, "crypta")
    assert state.events[-1] == {"type": "crypt", "player": "ana"}
    assert state.observation(0).crypt and list(state.crypt_held) == [0]
    assert pending(state) == (1, "move")  # "use later": not in the turn it was drawn
    quiet_to_move(state, 0)
    assert state.observation(0).crypt
    move(state, 0, "sacristia")
    turns = state.turns
    decide(state, 0, "extra", ("crypt",))
    assert state.turns == turns + 1  # an extra turn, counted as a turn
    assert state.events[-1] == {"type": "crypt_used", "player": "ana"}
    assert not state.observation(0).crypt and state.crypt_held == {}  # back to the crypt
    move(state, 0, "capitulum")  # the extra turn
    decide(state, 0, "chapter", ("pass",))
    assert pending(state) == (1, "move")  # then play goes on clockwise


def test_crypt_one_card_at_a_time():
    """ "Each player may only have one Crypta card at a time.\""""
    state = start(4)
    state.positions[0] = "sacristia"  # shortcut
    move(state, 0, "crypta")
    quiet_to_move(state, 0)
    held = dict(state.crypt_held)
    state.positions[0] = "sacristia"  # shortcut: next to the crypt again
    mark = len(state.events)
    move(state, 0, "crypta")
    assert since(state, mark, "crypt") == [] and state.crypt_held == held


def test_parlor_draws_the_top_suspect_card_while_the_pile_lasts():
    """ "If there are still Suspect cards in the suspects draw pile ..., draw the first one
    and add it to your hand.\""""
    state = start(4)
    _, pile, _ = dealt(4)
    state.positions[0] = "aula"  # shortcut
    move(state, 0, "parlatorium")
    assert state.events[-1] == {"type": "draw", "player": "ana", "card": pile[0]}
    assert state.hands[0][-1] == pile[0] and state.pile == pile[1:]
    assert pending(state) == (1, "move")  # no "show me" while the pile lasts


@pytest.mark.parametrize("matching", [True, False])
def test_parlor_show_me_once_the_pile_is_empty(matching):
    """With no suspect cards left, "specify one or two (no more) characteristics"; a player
    with such cards "shows you one (and only one)"; with none, "he may say so"."""
    state = start(4)
    empty_pile(state, 3)
    state.positions[0] = "aula"  # shortcut
    move(state, 0, "parlatorium")
    assert pending(state) == (0, "parlor")
    legal = state.legal_actions()
    assert ("pass",) in legal
    asks = [a for a in legal if a[0] == "show_me"]
    assert {a[1] for a in asks} == {1, 2, 3}
    for _, _, traits in asks:
        assert len(traits) in (1, 2) and len({GROUP_OF[t] for t in traits}) == len(traits)
    assert len(asks) == 3 * (12 + 57)  # 12 single traits, 57 pairs of two groups
    hand = state.hands[1]
    if matching:
        traits = tuple(t for t in TRAITS if t in traits_of(state, hand[0]))[:2]
    else:
        traits = next(
            t for _, s, t in asks if s == 1 and not any(traits_of(state, c) >= set(t) for c in hand)
        )
    fits = [c for c in hand if traits_of(state, c) >= set(traits)]
    assert bool(fits) is matching
    mark = len(state.events)
    decide(state, 0, "parlor", ("show_me", 1, traits))
    if matching:
        assert pending(state) == (1, "show")
        assert sorted(state.legal_actions()) == sorted(("show", c) for c in fits)
        state.apply_action(("show", fits[-1]))
        assert since(state, mark) == [
            {"type": "show", "player": "bob", "to": "ana", "card": fits[-1], "traits": list(traits)}
        ]
        for seat in (0, 1):  # the asker and the shower know the card
            assert state.logs[seat][-1] == {
                "type": "show",
                "player": "bob",
                "to": "ana",
                "card": fits[-1],
            }
        for seat in (2, 3):  # the others only know a card with those traits was shown
            assert state.logs[seat][-1] == {
                "type": "show",
                "player": "bob",
                "to": "ana",
                "traits": list(traits),
            }
    else:
        count = {"type": "count", "player": "bob", "traits": list(traits), "n": 0}
        assert since(state, mark) == [count]
        assert all(log[-1] == count for log in state.logs)
    assert pending(state) == (1, "move")


def test_revelation_names_one_trait_not_revealed_before():
    """A revelation announces "one (and only one) characteristic"; "You cannot make a
    revelation that has already been made, but you can make a revelation that contradicts
    a previous one"."""
    state = start(4)
    state.positions[:2] = ["claustrum-e", "claustrum-e"]  # shortcut
    state.positions[2:] = [FAR, FAR]
    move(state, 0, CHAPTER)
    brush_off(state, 0)
    assert pending(state) == (0, "chapter")
    assert sorted(state.legal_actions()) == sorted([("pass",)] + [("reveal", t) for t in TRAITS])
    mark = len(state.events)
    state.apply_action(("reveal", "templar"))
    assert since(state, mark) == [{"type": "revelation", "player": "ana", "trait": "templar"}]
    move(state, 1, CHAPTER)
    brush_off(state, 1)
    assert ("reveal", "templar") not in state.legal_actions()
    assert ("reveal", "franciscan") in state.legal_actions()
    assert state.observation(2).revealed == ((0, "templar"),)


@pytest.mark.parametrize("pile_empty", [False, True])
def test_no_accusation_while_the_parlor_pile_has_cards(pile_empty):
    """ "No accusation can be made as long as there are still Suspect cards to be had from
    going into the parlor"; one names any monk (not, in this engine, one's own card)."""
    state = start(4)
    if pile_empty:
        empty_pile(state, 3)
    state.positions[0] = "claustrum-e"  # shortcut
    move(state, 0, CHAPTER)
    accusable = {a[1] for a in state.legal_actions() if a[0] == "accuse"}
    expected = set(state.game.deck.ids) - set(state.hands[0]) if pile_empty else set()
    assert accusable == expected


def test_wrong_accusation_is_disproved_by_the_holder_costs_two_points_and_penance():
    """ "If the accused monk's card is in another player's hand, this player must show it to
    all ... The pawn of the accuser ... is then moved to the Chapel for Penance ... and the
    player who made the unjust accusation loses 2 points.\""""
    state = start(4)
    empty_pile(state, 3)
    state.positions[0] = "claustrum-e"  # shortcut
    move(state, 0, CHAPTER)
    accused = state.hands[2][0]
    mark = len(state.events)
    decide(state, 0, "chapter", ("accuse", accused))
    event = {
        "type": "accuse",
        "player": "ana",
        "card": accused,
        "correct": False,
        "shown_by": "cai",
    }
    assert since(state, mark) == [event, {"type": "penance", "player": "ana"}]
    assert all(event in log for log in state.logs)  # shown to all
    assert state.scores == [-2, 0, 0, 0]
    assert state.positions[0] == CHAPEL and 0 in state.penance
    assert not state.is_terminal()


def test_right_accusation_scores_four_ends_the_game_and_reveals_the_culprit():
    """ "If no player has the accused monk card in hand, the accused must be guilty ... The
    game ends and the player who correctly named the culprit scores 4 points.\""""
    state = start(4)
    empty_pile(state, 3)
    state.positions[0] = "claustrum-e"  # shortcut
    move(state, 0, CHAPTER)
    decide(state, 0, "chapter", ("accuse", state.culprit))
    assert state.events[-2:] == [
        {"type": "accuse", "player": "ana", "card": state.culprit, "correct": True},
        {"type": "culprit", "card": state.culprit},
    ]
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == [] and state.returns() == [4.0, 0.0, 0.0, 0.0]
    assert state.winners() == [0]
    with pytest.raises(DeduceError):
        state.apply_action(("pass",))


# ----------------------------------------------------------------- penance


def test_penance_skips_the_next_turn_and_cannot_be_asked_meanwhile():
    """The pawn in penance "skips his next turn, and may neither ask nor answer questions
    while there"."""
    state = start(4)
    empty_pile(state, 3)
    state.positions[:] = ["claustrum-e", "claustrum-n", FAR, FAR]  # shortcut
    move(state, 0, CHAPTER)
    decide(state, 0, "chapter", ("accuse", state.hands[2][0]))  # wrong: penance
    move(state, 1, CHAPEL)  # only ana's pawn there, praying: no question
    assert pending(state) == (2, "move")
    quiet_to_move(state, 1)
    assert [e for e in state.events if e["type"] == "skip"] == [{"type": "skip", "player": "ana"}]
    assert state.positions[0] == CHAPEL and state.penance == set()
    state.positions[1] = "claustrum-n"  # shortcut: next to the chapel again
    move(state, 1, CHAPEL)
    assert pending(state) == (1, "ask")  # penance over: ana can be asked again
    assert {a[1] for a in state.legal_actions()} == {0}


def test_penance_just_before_mass_skips_the_first_turn_after_it():
    """ "If a pawn goes to penance just before the Mass, he must skip his first turn after
    Mass.\""""
    state = start(4)
    empty_pile(state, 2)
    state.bell = 4  # shortcut: the Mass comes at the start of the next round
    quiet_to_move(state, 3)
    state.positions[3] = "claustrum-e"  # shortcut
    move(state, 3, CHAPTER)
    decide(state, 3, "chapter", ("accuse", state.hands[2][0]))
    quiet_until(
        state,
        lambda s: (
            s.events[-1]["type"] in ("skip", "move") and any(e["type"] == "mass" for e in s.events)
        ),
    )
    # dee, the ringer's right neighbour, is the new first player and skips at once
    assert state.events[-1] == {"type": "skip", "player": "dee"}
    assert pending(state) == (0, "move")


def test_a_pawn_in_penance_stays_praying_in_the_chapel():
    """ "The pawn in penance is placed in the Chapel where he must spend a whole turn
    praying": an event read by a praying bell ringer does not send his pawn elsewhere."""
    state = start(4)
    state.bell = 4  # shortcut: the Mass comes at the start of the next round
    quiet_until(state, lambda s: s.events[-1]["type"] == "mass_bell")
    state.penance.add(0)  # shortcut: the ringer was sent to penance just before the Mass
    mark = len(state.events)
    mass_with_event(state, "bishops-visit")  # "his pawn goes ... to the Chapter"
    assert state.positions[0] == CHAPEL and since(state, mark, "move") == []
    quiet_to_move(state, 1)
    assert {"type": "skip", "player": "ana"} in since(state, mark)


@pytest.mark.parametrize("case", ["die", "choice", "praying ringer", "praying reader"])
def test_penance_also_stops_card_questions(case):
    """Penance: the pawn "may neither ask nor answer questions while there" -- card questions
    included: an event's die skips (rerolls) a praying monk, a chooser cannot name one, a
    praying ringer asks nothing and a praying reader cannot use a question book."""
    state = start(4)
    if case == "praying reader":
        empty_pile(state, 3)
        on_top(state, "scriptorium", "summa-theologica")
        summa = state.piles["scriptorium"].pop(0)  # shortcut: ana kept this book earlier
        state.kept[0].append(summa)
        state.positions[0] = "claustrum-e"  # shortcut
        move(state, 0, CHAPTER)
        decide(state, 0, "chapter", ("accuse", state.hands[2][0]))  # wrong: penance
        assert pending(state) == (1, "move")  # no "extra" decision offering the book
        assert state.observation(0).kept == (summa,)
        return
    state.bell = 4  # shortcut: the Mass comes at the start of the next round
    quiet_until(state, lambda s: s.events[-1]["type"] == "mass_bell")
    praying = 0 if case == "praying ringer" else 3
    state.penance.add(praying)  # shortcut: sent to penance just before the Mass
    mark = len(state.events)
    mass_with_event(state, "abbots-inquiry" if case == "choice" else "confidence")
    if case == "praying ringer":  # no question; dee, the new first player, moves
        assert pending(state) == (3, "move") and since(state, mark, "question") == []
    elif case == "die":
        assert [o for o, _ in state.chance_outcomes()] == [1, 2]
    else:
        assert pending(state) == (0, "target")
        assert state.legal_actions() == [("player", 1), ("player", 2)]


# ----------------------------------------------------------------- scoring


def test_scoring_revelations_at_the_end_and_accusations():
    """ "Each right revelation +2, each false revelation -1" (verified at the end, once the
    culprit is revealed); "correct accusation +4, each false accusation -2"."""
    state = start(4)
    empty_pile(state, 3)
    culprit = traits_of(state, state.culprit)
    state.positions[:] = ["claustrum-e"] * 4  # shortcut
    move(state, 0, CHAPTER)
    brush_off(state, 0)
    decide(state, 0, "chapter", ("reveal", "templar"))
    assert "templar" in culprit
    move(state, 1, CHAPTER)
    brush_off(state, 1)
    decide(state, 1, "chapter", ("reveal", "franciscan"))
    assert "franciscan" not in culprit
    move(state, 2, CHAPTER)
    brush_off(state, 2)
    decide(state, 2, "chapter", ("accuse", state.hands[0][0]))
    move(state, 3, CHAPTER)
    brush_off(state, 3)
    assert state.scores == [0, 0, -2, 0]  # revelations count only at the end
    decide(state, 3, "chapter", ("accuse", state.culprit))
    assert state.returns() == [2.0, -1.0, -2.0, 4.0]
    assert state.winners() == [3]


def test_a_tie_is_won_by_whoever_found_the_culprit():
    """ "In the event of a tie, the player who found the culprit is the winner.\""""
    state = start(4)
    empty_pile(state, 3)
    state.positions[:] = ["claustrum-e", FAR, FAR, FAR]  # shortcut
    move(state, 0, CHAPTER)
    decide(state, 0, "chapter", ("reveal", "templar"))
    quiet_to_move(state, 0)
    state.positions[0] = "claustrum-e"  # shortcut: back next to the chapter hall
    move(state, 0, CHAPTER)
    brush_off(state, 0)
    decide(state, 0, "chapter", ("reveal", "father"))
    state.positions[1] = "claustrum-e"  # shortcut
    move(state, 1, CHAPTER)
    brush_off(state, 1)
    decide(state, 1, "chapter", ("accuse", state.culprit))
    assert state.scores[:2] == [4, 4]
    assert state.winners() == [1]


def test_game_stops_after_max_turns_with_nobody_finding_the_culprit():
    """Engine reading: a game nobody solves stops after ``max_turns`` turns; the culprit is
    then revealed, nobody scores the accusation's 4 points and the top scores share the win."""
    state = start(4, max_turns=10)
    quiet_until(state, lambda s: s.is_terminal())
    assert state.turns == 10 and state.finder is None
    assert len(since(state, 0, "move")) == 10
    assert state.events[-1] == {"type": "culprit", "card": state.culprit}
    assert state.winners() == [0, 1, 2, 3]


# ------------------------------------------------------------- observation


def test_log_deal_each_player_sees_only_their_own_hand():
    """Suspect sheets are hidden in the notebooks: at the deal each player knows his hand."""
    state = start(5)
    _, _, hands = dealt(5)
    for seat, log in enumerate(state.logs):
        assert log == [{"type": "hand", "player": NAMES[seat], "cards": hands[seat]}]


def test_log_cards_drawn_or_taken_are_seen_only_by_those_involved():
    """A draw is seen by the drawer; a card taken by the taker and the victim ("Don't show
    the card"); the others only know that it happened."""
    state = start(4, dice=(2, 2))
    state.positions[0] = "aula"  # shortcut
    move(state, 0, "parlatorium")
    drawn = state.hands[0][-1]
    assert state.logs[0][-1] == {"type": "draw", "player": "ana", "card": drawn}
    for seat in (1, 2, 3):
        assert state.logs[seat][-1] == {"type": "draw", "player": "ana"}
    move(state, 1, CONF_CHAPEL)
    taken = state.hands[2][1]
    chance(state, taken)
    seen = {"type": "take", "player": "bob", "from": "cai", "card": taken}
    assert state.logs[1][-1] == seen and state.logs[2][-1] == seen
    for seat in (0, 3):
        assert state.logs[seat][-1] == {"type": "take", "player": "bob", "from": "cai"}


def test_log_mass_records_what_each_player_gave_and_got():
    """At Mass each player gives cards to his left: he knows what he gave and what he got
    from his right, not the other passes."""
    state = start(4)
    state.bell = 4  # shortcut: the Mass comes at the start of the next round
    quiet_until(state, lambda s: s.events[-1]["type"] == "mass_bell")
    mass_with_event(state, "feast-day")
    mass = [e for e in state.events if e["type"] == "mass"][-1]
    for seat in range(4):
        line = [e for e in state.logs[seat] if e["type"] == "mass"][-1]
        assert line == {
            "type": "mass",
            "n": 1,
            "gave": mass["passes"][NAMES[seat]],
            "got": mass["passes"][NAMES[(seat - 1) % 4]],
        }


def test_log_public_answers_are_the_same_for_everybody():
    """Answers to questions and accusations are public: every log records the same line;
    questions are not logged, nor is a vow of silence."""
    state = start(4)
    empty_pile(state, 3)
    state.positions[:] = ["claustrum-e", "capitulum", FAR, FAR]  # shortcut
    move(state, 0, CHAPTER)
    lengths = [len(log) for log in state.logs]
    decide(state, 0, "ask", ("ask", 1, ("count", ("fat",))))
    decide(state, 1, "reply", ("answer",))
    decide(state, 1, "ask_back", ("ask", 0, ("has", "jacopo")))
    decide(state, 0, "chapter", ("accuse", state.hands[2][0]))
    news = [log[n:] for log, n in zip(state.logs, lengths)]
    assert [e["type"] for e in news[0]] == ["count", "lacks", "accuse"]
    assert all(lines == news[0] for lines in news)


# ------------------------------------------------------------ random play


def _check_logs(state: AbbeyState) -> None:
    """Each log holds only its player's own hand and cards, and the same public lines."""
    game = state.game
    public = []
    for seat, player in enumerate(game.players):
        for line in state.logs[seat]:
            kind = line["type"]
            if kind == "hand":
                assert line["player"] == player
            elif kind in ("draw", "take") and "card" in line:
                assert player in (line["player"], line.get("from"))
            elif kind == "show" and "card" in line:
                assert player in (line["to"], line["player"])
        public.append(
            [
                line
                for line in state.logs[seat]
                if line["type"] in ("count", "has", "lacks", "accuse", "culprit")
            ]
        )
        parse_jsonl(game.log_text(player, state.logs[seat]), f"{player}.jsonl", game.deck)
    assert all(lines == public[0] for lines in public)


def _check_invariants(state: AbbeyState) -> None:
    if not state.events:  # still dealing
        return
    assert sorted(cards_total(state)) == sorted(state.game.deck.ids)
    assert all(state.positions[seat] == CHAPEL for seat in state.penance)
    if (
        not state.is_terminal()
        and not state.is_chance_node()
        and state.observation(state.current_player()).decision == "move"
    ):
        board = state.game.board
        crowd = Counter(state.positions)
        for room, pawns in crowd.items():
            if board.room(room).kind in ("confessional", "cell"):
                assert pawns == 1, room


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_legal_play_never_fails_and_keeps_every_card(n):
    """Any sequence of legal actions runs to the end, the 24 suspects are always all there
    (culprit, pile, hands), pawns in penance are in the chapel, one pawn per confessional
    and cell between turns, and every player's log is a valid canonical log holding only
    what that player saw."""
    game = AbbeyGame.create(n, max_turns=120)
    for seed in range(30):
        rng = random.Random(f"{n}:{seed}")
        state = game.new_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal
            state.apply_action(rng.choice(legal))
            _check_invariants(state)
        _check_logs(state)
    for seed in range(6):  # careful players: more accusations and finished games
        state = play_game(game, f"notepad:{n}:{seed}", ["notepad"] * n, BOTS)
        assert sorted(cards_total(state)) == sorted(game.deck.ids)
        _check_logs(state)
