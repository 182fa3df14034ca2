"""Each Abbey event type, solved exactly on small inline decks.

The decks are small enough to count every deal by hand; the comment above each
expectation gives the count. Most tests use DECK6 with two players (ana, bob),
a pile of 1 and hands of 2 (6 = 1 + 1 + 2 x 2); the three-player tests use
DECK7 with no pile (7 = 1 + 0 + 3 x 2).

Traits of DECK6 (a7 is added in DECK7)::

    a1 templar     father  hooded     bearded fat
    a2 templar     brother hooded     shaven  thin
    a3 franciscan  novice  bareheaded bearded fat
    a4 franciscan  father  hooded     shaven  thin
    a5 benedictine brother bareheaded bearded thin
    a6 benedictine novice  bareheaded shaven  fat
    a7 templar     novice  bareheaded bearded thin

Every history (deal plus hidden choices) has the same weight, so each
probability is a count ratio.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from deduce.errors import LogError
from deduce.games.abbey.solver.explain import describe
from deduce.games.abbey.solver.solve import AbbeySolution, solve_abbey
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import parse_log
from deduce.logs.model import Event

CARDS6 = """\
card a1 templar father hooded bearded fat
card a2 templar brother hooded shaven thin
card a3 franciscan novice bareheaded bearded fat
card a4 franciscan father hooded shaven thin
card a5 benedictine brother bareheaded bearded thin
card a6 benedictine novice bareheaded shaven fat
"""
CARDS7 = CARDS6 + "card a7 templar novice bareheaded bearded thin\n"

PATH = "t.log"


def two(events: str, me: str | None = "ana") -> str:
    """A two-player log on DECK6 (pile 1, hand 2) with ``events`` after a blank line."""
    who = "spectator" if me is None else f"me {me}"
    return f"game abbey\nplayers ana bob\n{who}\n{CARDS6}pile 1\nhand 2\n\n{events}"


def three(events: str, me: str | None = "ana") -> str:
    """A three-player log on DECK7 (pile 0, hand 2)."""
    who = "spectator" if me is None else f"me {me}"
    return f"game abbey\nplayers ana bob cai\n{who}\n{CARDS7}pile 0\nhand 2\n\n{events}"


def solve(text: str) -> AbbeySolution:
    return solve_abbey(parse_log(text, PATH))


def line_of(text: str, line: str) -> int:
    """The 1-based number of the one physical line equal to ``line``."""
    numbers = [i for i, x in enumerate(text.split("\n"), 1) if x == line]
    assert len(numbers) == 1, line
    return numbers[0]


def consistent(text: str) -> AbbeySolution:
    solution = solve(text)
    assert solution.consistent
    assert solution.exact
    assert solution.conflict == ()
    for card, row in solution.holders.items():
        assert sum(row.values()) == 1, card
        assert all(p > 0 for p in row.values()), card
    assert sum(solution.culprit.values()) == 1
    assert solution.culprit == {
        c: row["culprit"] for c, row in solution.holders.items() if "culprit" in row
    }
    return solution


def spread(culprit=0, pile=0, **players) -> dict[str, F]:
    """A holder row with the zero entries left out."""
    row = {"culprit": F(culprit), "pile": F(pile), **{p: F(v) for p, v in players.items()}}
    return {h: p for h, p in row.items() if p}


# --------------------------------------------------------------------------
# No events, and the observation events


def test_no_events_is_the_uniform_deal():
    # 6!/(1! 1! 2! 2!) = 180 deals; every card is the culprit in 1/6 of them.
    solution = consistent(two(""))
    assert solution.culprit == {c: F(1, 6) for c in ("a1", "a2", "a3", "a4", "a5", "a6")}
    for row in solution.holders.values():
        assert row == spread(F(1, 6), F(1, 6), ana=F(1, 3), bob=F(1, 3))


def test_own_hand():
    # a3..a6 fill culprit (1), pile (1) and bob (2): 4!/2! = 12 ways, symmetric.
    solution = consistent(two("hand ana a1 a2\n"))
    assert solution.holders["a1"] == solution.holders["a2"] == {"ana": 1}
    for card in ("a3", "a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 4), F(1, 4), bob=F(1, 2))
    assert solution.candidates == ["a3", "a4", "a5", "a6"]


def test_hand_of_another_player():
    # bob = {a3, a4}; a1, a2, a5, a6 fill culprit, pile and ana's two seats.
    solution = consistent(two("hand bob a3 a4\n"))
    assert solution.holders["a3"] == solution.holders["a4"] == {"bob": 1}
    for card in ("a1", "a2", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 4), F(1, 4), ana=F(1, 2))


def test_has():
    # a3 is bob's; the other 5 cards fill culprit 1, pile 1, ana 2, bob 1.
    solution = consistent(two("has bob a3\n"))
    assert solution.holders["a3"] == {"bob": 1}
    for card in ("a1", "a2", "a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 5), F(1, 5), ana=F(2, 5), bob=F(1, 5))
    assert "a3" not in solution.culprit


def test_lacks_alone():
    # P(a3 not at bob) = 2/3. For a1: P(a1 bob, a3 not) = 1/3 - 1/3 * 1/5 = 4/15,
    # so 2/5; P(a1 culprit, a3 not bob) = 1/6 * 3/5 = 1/10, so 3/20 (pile alike).
    solution = consistent(two("lacks bob a3\n"))
    assert solution.holders["a3"] == spread(F(1, 4), F(1, 4), ana=F(1, 2))
    assert solution.holders["a1"] == spread(F(3, 20), F(3, 20), ana=F(3, 10), bob=F(2, 5))


def test_lacks_with_own_hand():
    # a3 is the culprit or the pile card (1/2 each); a4..a6 fill the other slot and bob's two.
    solution = consistent(two("hand ana a1 a2\nlacks bob a3\n"))
    assert solution.holders["a3"] == spread(F(1, 2), F(1, 2))
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 6), F(1, 6), bob=F(2, 3))
    assert solution.culprit == {"a3": F(1, 2), "a4": F(1, 6), "a5": F(1, 6), "a6": F(1, 6)}
    assert solution.candidates[0] == "a3"


def test_count_one_of_two_traits():
    # fat+bearded cards are a1 and a3; a1 is ana's, so bob holds a3 and one of a4..a6
    # (3 ways), and the remaining two fill culprit and pile (2 ways): 6 histories.
    solution = consistent(two("hand ana a1 a2\ncount bob fat+bearded 1\n"))
    assert solution.holders["a3"] == {"bob": 1}
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 3), F(1, 3), bob=F(1, 3))


def test_count_that_changes_nothing():
    # fat: a1 (ana), a3, a6. Bob holds one of a3/a6 and one of a4/a5: 4 hands x 2 = 8 of
    # the 12 ways, still symmetric between the cards.
    solution = consistent(two("hand ana a1 a2\ncount bob fat 1\n"))
    for card in ("a3", "a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 4), F(1, 4), bob=F(1, 2))


@pytest.mark.parametrize(
    "count",
    ["count bob fat 0", "count bob thin 2", "count bob thin+bareheaded 1\ncount bob hooded 1"],
)
def test_pigeonhole_count_forces_the_hand(count):
    # Every variant leaves bob exactly {a4, a5} (thin: a2 at ana, a4, a5; fat: a1 at ana,
    # a3, a6; the last one: a5 is the only thin bareheaded card, a4 the only hooded one
    # left), so a3 and a6 share culprit and pile.
    solution = consistent(two(f"hand ana a1 a2\n{count}\n"))
    assert solution.holders["a4"] == solution.holders["a5"] == {"bob": 1}
    assert solution.holders["a3"] == solution.holders["a6"] == spread(F(1, 2), F(1, 2))
    assert solution.culprit == {"a3": F(1, 2), "a6": F(1, 2)}


def test_count_zero_pushes_the_cards_elsewhere():
    # No templar at bob: his pair is one of the 6 pairs of a3..a6, and the other four
    # cards (a1, a2 and two of a3..a6) fill culprit, pile and ana's two seats uniformly.
    # a1: culprit 1/4, pile 1/4, ana 1/2. a3: at bob in 3 of the 6 pairs (1/2), else
    # culprit 1/4, pile 1/4, ana 1/2 of the remaining half.
    solution = consistent(two("count bob templar 0\n"))
    for card in ("a1", "a2"):
        assert solution.holders[card] == spread(F(1, 4), F(1, 4), ana=F(1, 2))
    for card in ("a3", "a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 8), F(1, 8), ana=F(1, 4), bob=F(1, 2))


def test_show_card_to_the_observer():
    solution = consistent(two("hand ana a1 a2\nshow bob to ana a3\n"))
    assert solution.holders["a3"] == {"bob": 1}
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 3), F(1, 3), bob=F(1, 3))


def test_show_traits_between_other_players():
    # ana holds a1, a2; a3..a7 fill culprit 1, bob 2, cai 2: 5!/(2! 2!) = 30 ways.
    # Bob shows a fat card: he holds a3 or a6 (fat cards not ana's). Excluded: bob's pair
    # from {a4, a5, a7} (3 pairs x 3 ways) = 9, leaving 21.
    # a3: at bob 4 x 3 = 12; culprit (bob must hold a6) 3; cai 6.
    # a4: at bob 2 x 3 = 6; culprit 6 - 1 = 5; cai 12 - 2 = 10.
    solution = consistent(three("hand ana a1 a2\nshow bob to cai fat\n"))
    assert (
        solution.holders["a3"]
        == solution.holders["a6"]
        == spread(F(3, 21), bob=F(12, 21), cai=F(6, 21))
    )
    for card in ("a4", "a5", "a7"):
        assert solution.holders[card] == spread(F(5, 21), bob=F(6, 21), cai=F(10, 21))


def test_show_traits_seen_by_a_spectator():
    # Bob holds a1 or a3 (fat+bearded). Of 180 deals, bob's pair avoids both in 2/5:
    # 108 remain. a1 at bob: 60; culprit with a3 at bob: 30 x 2/5 = 12; ana: 60 x 2/5 = 24.
    solution = consistent(two("show bob to ana fat+bearded\n", me=None))
    for card in ("a1", "a3"):
        assert solution.holders[card] == spread(F(1, 9), F(1, 9), ana=F(2, 9), bob=F(5, 9))


def test_show_single_trait_equals_count_at_least_one():
    with_show = consistent(three("hand ana a1 a2\nshow bob to cai fat\n"))
    # The two fat cards bob may hold: "at least one" is "exactly one" or "exactly two".
    one = solve(three("hand ana a1 a2\ncount bob fat 1\n"))
    both = solve(three("hand ana a1 a2\ncount bob fat 2\n"))
    assert one.consistent and both.consistent
    # 21 = 18 (exactly one: 2 x 3 pairs x 3 ways) + 3 (both: 1 pair x 3 ways).
    for card in ("a3", "a4"):
        mixed = {
            h: (18 * one.holders[card].get(h, 0) + 3 * both.holders[card].get(h, 0)) / 21
            for h in ("culprit", "bob", "cai")
        }
        assert with_show.holders[card] == {h: p for h, p in mixed.items() if p}


# --------------------------------------------------------------------------
# Transfers


def test_own_draw_with_card():
    # a3 was the pile card; a4..a6 fill culprit and bob's two seats.
    solution = consistent(two("hand ana a1 a2\ndraw ana a3\n"))
    assert solution.holders["a3"] == {"ana": 1}
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 3), bob=F(2, 3))
    assert all("pile" not in row for row in solution.holders.values())


def test_other_players_draw_without_card():
    # The pile card joins bob's hand: of a3..a6 one is the culprit, three are bob's.
    solution = consistent(two("hand ana a1 a2\ndraw bob\n"))
    for card in ("a3", "a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 4), bob=F(3, 4))


def test_other_players_draw_with_card():
    solution = consistent(two("hand ana a1 a2\ndraw bob a3\n"))
    assert solution.holders["a3"] == {"bob": 1}
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 3), bob=F(2, 3))


def test_draw_then_hand_reads_the_new_hand():
    # After the draw bob holds 3 cards; naming them leaves a1/a2/a6 to culprit, ana x2.
    solution = consistent(two("draw bob\nhand bob a3 a4 a5\n"))
    for card in ("a3", "a4", "a5"):
        assert solution.holders[card] == {"bob": 1}
    for card in ("a1", "a2", "a6"):
        assert solution.holders[card] == spread(F(1, 3), ana=F(2, 3))


def test_own_take_with_card():
    # a3 came from bob; bob keeps one of a4..a6; the other two fill culprit and pile.
    solution = consistent(two("hand ana a1 a2\ntake ana from bob a3\n"))
    assert solution.holders["a3"] == {"ana": 1}
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 3), F(1, 3), bob=F(1, 3))


def test_take_from_the_observer():
    solution = consistent(two("hand ana a1 a2\ntake bob from ana a2\n"))
    assert solution.holders["a1"] == {"ana": 1}
    assert solution.holders["a2"] == {"bob": 1}
    for card in ("a3", "a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 4), F(1, 4), bob=F(1, 2))


def test_take_between_other_players_without_card():
    # 30 deals of a3..a7 (culprit 1, bob 2, cai 2), then 2 choices of the taken card:
    # 60 histories, symmetric; afterwards bob holds 1 card and cai 3.
    solution = consistent(three("hand ana a1 a2\ntake cai from bob\n"))
    for card in ("a3", "a4", "a5", "a6", "a7"):
        assert solution.holders[card] == spread(F(1, 5), bob=F(1, 5), cai=F(3, 5))


def test_unknown_take_pinned_by_a_later_count():
    # Bob starts with both fat cards left (a3, a6); cai takes one of them; afterwards bob
    # holds no bearded card, so he kept a6 and cai took a3. a4, a5, a7: culprit or cai.
    text = three("hand ana a1 a2\ncount bob fat 2\ntake cai from bob\ncount bob bearded 0\n")
    solution = consistent(text)
    assert solution.holders["a3"] == {"cai": 1}
    assert solution.holders["a6"] == {"bob": 1}
    for card in ("a4", "a5", "a7"):
        assert solution.holders[card] == spread(F(1, 3), cai=F(2, 3))


def test_unknown_take_before_the_count_is_weighed_by_the_choice():
    # Without the last count, cai took a3 or a6 with 1/2 each.
    solution = consistent(three("hand ana a1 a2\ncount bob fat 2\ntake cai from bob\n"))
    assert solution.holders["a3"] == solution.holders["a6"] == spread(bob=F(1, 2), cai=F(1, 2))


def test_count_at_the_right_moment():
    # The count describes bob's hand after the draw (3 cards), not the deal.
    # fat: a1 (ana), a3, a6. Bob's 3 cards from a3..a6 avoid both: impossible with only
    # a4, a5 left, so "0" is inconsistent after the draw but fine before it.
    assert solve(two("hand ana a1 a2\ncount bob fat 0\ndraw bob\n")).consistent
    assert not solve(two("hand ana a1 a2\ndraw bob\ncount bob fat 0\n")).consistent


def test_mass_with_gave_and_got():
    # ana gives a1 to bob (her left) and gets a3 from bob (her right in two seats).
    solution = consistent(two("hand ana a1 a2\nmass 1 gave a1 got a3\n"))
    assert solution.holders["a1"] == {"bob": 1}
    assert solution.holders["a2"] == solution.holders["a3"] == {"ana": 1}
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 3), F(1, 3), bob=F(1, 3))


def test_mass_passes_to_the_left_with_three_players():
    # Left of ana is bob, right of ana is cai: a1 goes to bob, a3 comes from cai.
    solution = consistent(three("hand ana a1 a2\nmass 1 gave a1 got a3\n"))
    assert solution.holders["a3"] == {"ana": 1}
    # a1 reached bob and may have moved on only at a later transfer (there is none).
    assert solution.holders["a1"] == {"bob": 1}


def test_mass_larger_than_the_hands_passes_whole_hands():
    # mass 5 with hands of 2: everyone passes min(5, 2) = 2, so hands swap entirely.
    solution = consistent(two("hand ana a1 a2\nmass 5 gave a1 a2 got a3 a4\n"))
    assert solution.holders["a1"] == solution.holders["a2"] == {"bob": 1}
    assert solution.holders["a3"] == solution.holders["a4"] == {"ana": 1}
    assert solution.holders["a5"] == solution.holders["a6"] == spread(F(1, 2), F(1, 2))


def test_mass_seen_by_a_spectator():
    # ana's a1/a2: one goes to bob (1/2 each). a3: at bob with 1/2 before, then passed
    # with 1/2: culprit 1/4, pile 1/4, ana 1/4, bob 1/4.
    solution = consistent(two("hand ana a1 a2\nmass 1\n", me=None))
    assert solution.holders["a1"] == spread(ana=F(1, 2), bob=F(1, 2))
    for card in ("a3", "a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 4), F(1, 4), ana=F(1, 4), bob=F(1, 4))


def test_mass_followed_by_facts():
    # After the mass ana holds a2 and a3: she passed a1, bob passed a3.
    solution = consistent(two("hand ana a1 a2\nmass 1\nhand ana a2 a3\n", me=None))
    assert solution.holders["a1"] == {"bob": 1}
    assert solution.holders["a3"] == {"ana": 1}
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 3), F(1, 3), bob=F(1, 3))


def test_observer_mass_followed_by_a_count():
    # ana got a3 from bob; bob now has a1 plus one card of a4..a6; bob has no thin card
    # now, so that card is not a4 or a5: it is a6.
    solution = consistent(two("hand ana a1 a2\nmass 1 gave a1 got a3\ncount bob thin 0\n"))
    assert solution.holders["a6"] == {"bob": 1}
    assert solution.holders["a4"] == solution.holders["a5"] == spread(F(1, 2), F(1, 2))


# --------------------------------------------------------------------------
# Accusations and the culprit


def test_accuse_right():
    solution = consistent(two("hand ana a1 a2\naccuse bob a3 right\n"))
    assert solution.culprit == {"a3": 1}
    assert solution.candidates == ["a3"]
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(pile=F(1, 3), bob=F(2, 3))


def test_accuse_wrong_without_shown_by():
    # a3 is not the culprit: 9 of the 12 ways remain. a4 culprit: 3; pile: 2; bob: 4.
    solution = consistent(two("hand ana a1 a2\naccuse bob a3 wrong\n"))
    assert solution.holders["a3"] == spread(pile=F(1, 3), bob=F(2, 3))
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 3), F(2, 9), bob=F(4, 9))
    assert solution.culprit == {"a4": F(1, 3), "a5": F(1, 3), "a6": F(1, 3)}


def test_accuse_wrong_shown_by():
    # bob showed a3 to everyone, so bob holds it: as has bob a3.
    solution = consistent(two("hand ana a1 a2\naccuse ana a3 wrong by bob\n"))
    assert solution.holders["a3"] == {"bob": 1}
    for card in ("a4", "a5", "a6"):
        assert solution.holders[card] == spread(F(1, 3), F(1, 3), bob=F(1, 3))


def test_culprit_revealed():
    solution = consistent(two("hand ana a1 a2\nculprit a4\n"))
    assert solution.culprit == {"a4": 1}
    assert solution.holders["a4"] == {"culprit": 1}
    for card in ("a3", "a5", "a6"):
        assert solution.holders[card] == spread(pile=F(1, 3), bob=F(2, 3))


def test_culprit_never_moves():
    # The culprit slot is not touched by transfers: a revealed culprit after a mass
    # is the card that was set aside at the deal.
    solution = consistent(two("mass 1\nculprit a1\n", me=None))
    assert solution.holders["a1"] == {"culprit": 1}


def test_candidates_sorted_by_probability_then_deck_order():
    solution = consistent(two("hand ana a1 a2\nlacks bob a5\n"))
    assert solution.candidates == ["a5", "a3", "a4", "a6"]
    assert solution.to_json()["culprit"]["candidates"] == ["a5", "a3", "a4", "a6"]


def test_to_json_of_a_consistent_log():
    solution = consistent(two("hand ana a1 a2\nlacks bob a3\n"))
    data = solution.to_json()
    assert list(data) == ["game", "consistent", "exact", "culprit", "holders"]
    assert data["game"] == "abbey" and data["consistent"] is True and data["exact"] is True
    assert data["culprit"]["probabilities"] == {"a3": 0.5, "a4": 1 / 6, "a5": 1 / 6, "a6": 1 / 6}
    assert data["holders"]["a1"] == {"ana": 1.0}
    assert data["holders"]["a3"] == {"culprit": 0.5, "pile": 0.5}
    assert list(data["holders"]) == ["a1", "a2", "a3", "a4", "a5", "a6"]


# --------------------------------------------------------------------------
# Size errors of the timeline: one LogError naming the line


SIZE_ERRORS = [
    (two, "draw bob\n# a comment\n\ndraw ana a3\n", "draw ana a3", "draw from an empty pile"),
    (
        two,
        "take ana from bob a3\ntake ana from bob a4\ntake ana from bob a5\n",
        "take ana from bob a5",
        "take from bob, who holds no cards",
    ),
    (two, "hand ana a1\n", "hand ana a1", "hand lists 1 card but ana holds 2 at this point"),
    (
        two,
        "draw ana a3\nhand ana a1 a2\n",
        "hand ana a1 a2",
        "hand lists 2 cards but ana holds 3 at this point",
    ),
    (
        two,
        "count bob fat 3\n",
        "count bob fat 3",
        "count 3 is more than the 2 cards bob holds at this point",
    ),
    (
        two,
        "take ana from bob a3\ncount bob fat 2\n",
        "count bob fat 2",
        "count 2 is more than the 1 card bob holds at this point",
    ),
    (
        two,
        "mass 1 gave a1 a2 got a3\n",
        "mass 1 gave a1 a2 got a3",
        "gave lists 2 cards but ana passes 1 at this mass",
    ),
    (
        two,
        "mass 1 gave a1 got\n",
        "mass 1 gave a1 got",
        "got lists 0 cards but bob passes 1 at this mass",
    ),
    (two, "mass 1 got a3\n", "mass 1 got a3", "ana is the observer: a mass needs 'gave'"),
    (two, "mass 1 gave a1\n", "mass 1 gave a1", "ana is the observer: a mass needs 'got'"),
    (
        three,
        "mass 1 gave a1 got a2 a3\n",
        "mass 1 gave a1 got a2 a3",
        "got lists 2 cards but cai passes 1 at this mass",
    ),
    (two, "draw ana\n", "draw ana", "ana is the observer: their own draw needs its card"),
    (
        two,
        "take ana from bob\n",
        "take ana from bob",
        "ana is the observer: a take by or from them needs its card",
    ),
    (
        two,
        "take bob from ana\n",
        "take bob from ana",
        "ana is the observer: a take by or from them needs its card",
    ),
    (
        two,
        "show bob to ana fat\n",
        "show bob to ana fat",
        "ana is the observer: a card shown to them needs its id",
    ),
]


@pytest.mark.parametrize(("log", "events", "bad", "message"), SIZE_ERRORS)
def test_size_errors_name_the_line(log, events, bad, message):
    text = log(events)
    with pytest.raises(LogError) as info:
        solve(text)
    error = info.value
    line = line_of(text, bad)
    assert (error.path, error.line, error.message) == (PATH, line, message)
    assert str(error) == f"{PATH}:{line}: {message}"


def test_hand_size_check_follows_the_mass():
    # After mass 1 with hands of 2 the hands still hold 2; a pile draw makes it 3.
    ok = two("hand ana a1 a2\nmass 1 gave a1 got a3\nhand ana a2 a3\n")
    assert solve(ok).consistent
    with pytest.raises(LogError) as info:
        solve(two("draw bob\nmass 2 gave a1 a2 got a3\n"))
    # bob holds 3 and passes 2; ana holds 2 and passes 2: got is short by one.
    assert info.value.message == "got lists 1 card but bob passes 2 at this mass"


def test_a_spectator_draw_and_take_need_no_card():
    assert solve(two("draw ana\ntake bob from ana\n", me=None)).consistent


# --------------------------------------------------------------------------
# Inconsistent logs: minimal conflicts, explanation, JSON


def inconsistent(text: str) -> AbbeySolution:
    solution = solve(text)
    assert not solution.consistent
    assert solution.culprit == {} and solution.holders == {}
    assert solution.to_json() == {
        "game": "abbey",
        "consistent": False,
        "exact": True,
        "conflict": list(solution.conflict),
    }
    assert list(solution.conflict) == sorted(solution.conflict)
    head, *sentences = solution.explanation
    assert head == "These events cannot all be true:"
    for line in solution.conflict:
        assert any(s.startswith(f"line {line} says ") for s in sentences), line
    check_minimal(text, solution.conflict)
    return solution


TRANSFER_WORDS = ("draw", "take", "mass")


def check_minimal(text: str, conflict: tuple[int, ...]) -> None:
    """The conflict lines with every transfer still conflict; dropping any observation fixes it.

    A dropped line becomes a comment, so the line numbers stay the same.
    """
    rows = text.split("\n")
    start = rows.index("") + 1
    events = [i for i, row in enumerate(rows, 1) if i > start and row and row[0] != "#"]
    observations = [i for i in events if rows[i - 1].split()[0] not in TRANSFER_WORDS]

    def without(drop) -> str:
        return "\n".join("#" if i in drop else row for i, row in enumerate(rows, 1))

    others = set(observations) - set(conflict)
    assert not solve(without(others)).consistent
    for line in set(conflict) & set(observations):
        assert solve(without(others | {line})).consistent, line


def test_hand_against_has():
    text = two("hand ana a1 a2\nlacks bob a3\nhas bob a1\n")
    solution = inconsistent(text)
    assert solution.conflict == (line_of(text, "hand ana a1 a2"), line_of(text, "has bob a1"))
    assert (
        solution.explanation[1] == f"line {solution.conflict[0]} says ana's hand is exactly a1, a2"
    )
    assert solution.explanation[2] == f"line {solution.conflict[1]} says bob holds a1"


def test_three_has_overfill_a_hand_of_two():
    # Any two of the three fit bob's hand of 2; all three do not. The hand and the
    # lacks are not part of it.
    text = two("hand ana a1 a2\nhas bob a4\nlacks bob a3\nhas bob a5\nhas bob a6\n")
    solution = inconsistent(text)
    assert solution.conflict == tuple(line_of(text, f"has bob {c}") for c in ("a4", "a5", "a6"))


def test_count_against_has():
    text = two("hand ana a1 a2\ncount bob fat 0\nlacks bob a1\nhas bob a3\n")
    solution = inconsistent(text)
    assert solution.conflict == (line_of(text, "count bob fat 0"), line_of(text, "has bob a3"))
    assert f"line {solution.conflict[0]} says bob holds no fat cards" in solution.explanation


def test_the_earliest_conflict_is_reported():
    # Two minimal sets: {count, has a3} and, earlier, {hand, count, lacks a4} (no fat card
    # and not a4 leaves bob only a5 once a1 and a2 are ana's). The shorter prefix wins.
    text = two("hand ana a1 a2\ncount bob fat 0\nlacks bob a4\nhas bob a3\n")
    solution = inconsistent(text)
    assert solution.conflict == tuple(
        line_of(text, x) for x in ("hand ana a1 a2", "count bob fat 0", "lacks bob a4")
    )


def test_pigeonhole_count_against_has():
    # Two thin cards fill bob's hand of two: a6 (fat) has no room.
    text = two("count bob thin 2\nhas bob a6\n")
    solution = inconsistent(text)
    assert solution.conflict == (line_of(text, "count bob thin 2"), line_of(text, "has bob a6"))
    assert (
        f"line {solution.conflict[0]} says bob holds exactly 2 thin cards" in solution.explanation
    )


def test_conflict_across_a_transfer():
    # Bob held a3; ana took a4 from him, so he still holds a3, not only a5.
    text = two("has bob a3\ntake ana from bob a4\nhand bob a5\n")
    solution = inconsistent(text)
    first, last = line_of(text, "has bob a3"), line_of(text, "hand bob a5")
    assert solution.conflict == (first, last)
    assert solution.explanation[-1] == (
        f"lines {first} and {first + 1} put a3 with bob at line "
        f"{last}, but line {last} says bob's hand is exactly a5"
    )


def test_a_draw_cannot_explain_an_arrival():
    # Bob drew the pile card; still, a1 (ana's at the deal) cannot reach him by a draw.
    text = two("hand ana a1 a2\ndraw bob\nhas bob a1\n")
    solution = inconsistent(text)
    first, last = line_of(text, "hand ana a1 a2"), line_of(text, "has bob a1")
    assert solution.conflict == (first, last)
    assert solution.explanation[-1] == (
        f"line {first} leaves a1 only with ana at line {last}, but line {last} says bob holds a1"
    )


def test_transfers_known_cards_conflict():
    # ana drew a3 from the pile, then took a3 from bob: bob cannot hold a card ana holds.
    # Only the two transfers carry the conflict; the observations are all true.
    text = two("hand ana a1 a2\nlacks bob a1\ndraw ana a3\ntake ana from bob a3\n")
    solution = inconsistent(text)
    assert solution.conflict == (
        line_of(text, "draw ana a3"),
        line_of(text, "take ana from bob a3"),
    )
    assert solution.explanation[1].endswith("says ana draws a3 from the pile")
    assert solution.explanation[2].endswith("says ana takes a3 from bob")


def test_mass_cards_conflict_with_the_observers_hand():
    # ana cannot give a3: her hand was a1, a2. The mass stays in place as structure, so
    # the minimal set of observations is the hand alone.
    text = two("hand ana a1 a2\nmass 1 gave a3 got a4\n")
    solution = inconsistent(text)
    assert solution.conflict == (line_of(text, "hand ana a1 a2"),)


def test_one_impossible_count():
    # Only a1 is a templar father: bob cannot hold two.
    text = two("count bob templar+father 2\n")
    solution = inconsistent(text)
    line = line_of(text, "count bob templar+father 2")
    assert solution.conflict == (line,)
    assert solution.explanation[:2] == (
        "These events cannot all be true:",
        f"line {line} says bob holds exactly 2 templar father cards",
    )


def test_explanation_names_the_transfer_that_conflicts():
    # ana's hand is a1, a2, so she cannot draw a1 from the pile. The conflict is the hand
    # (transfers stay as structure), but the words must say what it clashes with.
    text = two("hand ana a1 a2\ndraw ana a1\n")
    solution = inconsistent(text)
    assert solution.conflict == (line_of(text, "hand ana a1 a2"),)
    assert any(str(line_of(text, "draw ana a1")) in s for s in solution.explanation[1:])


def test_culprit_against_a_wrong_accusation():
    text = two("culprit a3\naccuse ana a3 wrong\n")
    solution = inconsistent(text)
    assert solution.conflict == (line_of(text, "culprit a3"), line_of(text, "accuse ana a3 wrong"))
    assert solution.explanation[1].endswith("says the culprit is a3")
    assert solution.explanation[2].endswith("says ana accuses a3, wrongly")


def test_wrong_accusation_shown_by_the_accused_card_holder():
    text = two("hand ana a1 a2\naccuse bob a1 wrong by bob\n")
    solution = inconsistent(text)
    assert solution.conflict == (
        line_of(text, "hand ana a1 a2"),
        line_of(text, "accuse bob a1 wrong by bob"),
    )
    assert solution.explanation[2].endswith("says bob accuses a1, wrongly; bob shows the card")


def test_csp_engine_agrees_on_a_small_game():
    text = three("hand ana a1 a2\ncount bob fat 2\ntake cai from bob\n")
    log = parse_log(text, PATH)
    assert solve_abbey(log, engine="csp") == solve_abbey(log)


def last(text: str) -> str:
    """The sentence that says how the conflict's events clash."""
    return inconsistent(text).explanation[-1]


def test_a_hand_filled_by_other_lines():
    text = two("hand ana a1 a2\nhas bob a4\nlacks bob a3\nhas bob a5\nhas bob a6\n")
    a4, a5, a6 = (line_of(text, f"has bob {c}") for c in ("a4", "a5", "a6"))
    assert last(text) == (
        f"lines {a4} and {a5} fill bob's hand of 2 cards at line {a6} with "
        f"a4, a5, but line {a6} says bob holds a6"
    )


def test_a_count_overfilled_by_a_card_with_its_trait():
    text = two("hand ana a1 a2\ncount bob fat 0\nlacks bob a1\nhas bob a3\n")
    count, has = line_of(text, "count bob fat 0"), line_of(text, "has bob a3")
    assert last(text) == (
        f"line {has} puts 1 fat card in bob's hand at line {count} (a3), "
        f"but line {count} says bob holds no fat cards"
    )


def test_a_count_with_no_room_left():
    text = two("count bob thin 2\nhas bob a6\n")
    count, has = line_of(text, "count bob thin 2"), line_of(text, "has bob a6")
    assert last(text) == (
        f"line {has} puts a6 in bob's hand of 2 cards at line {count}, "
        "leaving room for at most 1 thin card, "
        f"but line {count} says bob holds exactly 2 thin cards"
    )


def test_a_count_the_deck_cannot_meet():
    text = two("count bob templar+father 2\n")
    line = line_of(text, "count bob templar+father 2")
    assert last(text) == (
        "the deck and the hand sizes alone leave bob at most 1 templar father "
        f"card at line {line} (a1), "
        f"but line {line} says bob holds exactly 2 templar father cards"
    )


def test_a_correct_accusation_against_another_culprit():
    text = two("accuse ana a1 right\nculprit a2\n")
    accuse, culprit = line_of(text, "accuse ana a1 right"), line_of(text, "culprit a2")
    assert last(text) == (
        f"line {accuse} makes a1 the culprit, but line {culprit} says the culprit is a2"
    )


def test_a_known_card_of_a_transfer_is_somewhere_else():
    text = two("hand ana a1 a2\nlacks bob a1\ndraw ana a3\ntake ana from bob a3\n")
    draw, take = line_of(text, "draw ana a3"), line_of(text, "take ana from bob a3")
    assert last(text) == (
        f"line {draw} leaves a3 only with ana just before line {take}, "
        f"but line {take} says ana takes a3 from bob"
    )


def test_the_card_of_a_mass_at_issue_is_named():
    text = two("hand ana a1 a2\nmass 1 gave a3 got a4\n")
    hand, mass = line_of(text, "hand ana a1 a2"), line_of(text, "mass 1 gave a3 got a4")
    assert last(text) == (
        f"line {mass} puts a3 with ana at line {hand}, "
        f"but line {hand} says ana's hand is exactly a1, a2"
    )


def test_explanations_count_cards_in_the_singular_and_plural():
    setup = setup_from_header(parse_log(two(""), "g.log").header, "g.log")
    one = Event("count", {"player": "bob", "traits": ["fat"], "n": 1}, 9)
    three = Event("count", {"player": "bob", "traits": ["fat"], "n": 3}, 9)
    mass = Event("mass", {"n": 1}, 9)
    assert describe(setup, one) == "bob holds exactly 1 fat card"
    assert describe(setup, three) == "bob holds exactly 3 fat cards"
    assert describe(setup, mass) == "Mass: every player passes 1 card to the left"
