"""Tab completion: commands, event types, and the words each position of an event can hold."""

from __future__ import annotations

import pytest

from deduce.assist.complete import (
    EVENT,
    TOPIC,
    WHY,
    answer_candidates,
    candidates,
    completed,
    joined_words,
)
from deduce.assist.vocabulary import vocabulary
from deduce.logs.formats import event_types
from deduce.logs.formats.abbey import TRAITS, default_deck
from deduce.logs.formats.rose import COLOURS
from deduce.logs.io import parse_log

COMMANDS = {"help": TOPIC, "undo": "", "why": WHY, "what-if": EVENT, "show": "", "quit": ""}
HEADERS = {
    "abbey": "game abbey\nplayers ana bob cai dee\nme ana\n",
    "rose": "game rose\nplayers ana bob cai\nme ana\n",
    "blackrose": "game blackrose\nplayers ana bob cai\nme ana\nrector bob\n"
    "suspects ab cd ef gh ij kl mn\n",
}
PLAYERS = {
    "abbey": ["ana", "bob", "cai", "dee"],
    "rose": ["ana", "bob", "cai"],
    "blackrose": ["ana", "bob", "cai"],
}
CARDS = list(default_deck().ids)
SUSPECTS = ["ab", "cd", "ef", "gh", "ij", "kl", "mn"]


def complete(game: str, line: str) -> list[str]:
    header = parse_log(HEADERS[game], "g.log").header
    return candidates(line, game, vocabulary(header, "g.log"), COMMANDS)


@pytest.mark.parametrize("game", list(HEADERS))
def test_the_first_word_is_a_command_or_an_event_type(game):
    assert complete(game, "") == list(dict.fromkeys([*COMMANDS, *event_types(game)]))
    assert complete(game, "wh") == ["why", "what-if"]
    assert complete(game, "help ") == complete(game, "")
    assert complete(game, "what-if ") == list(event_types(game))


@pytest.mark.parametrize(
    ("game", "line", "expected"),
    [
        ("abbey", "has ", PLAYERS["abbey"]),
        ("abbey", "has b", ["bob"]),
        ("abbey", "has bob ", CARDS),
        ("abbey", "has bob ay", ["aymeric"]),
        ("abbey", "has bob aymeric ", []),
        ("abbey", "show bob ", ["to"]),
        ("abbey", "show bob to ", PLAYERS["abbey"]),
        ("abbey", "show bob to ana ", [*CARDS, *TRAITS]),
        ("abbey", "show bob to ana bearded+no", ["bearded+novice"]),
        ("abbey", "count bob ", list(TRAITS)),
        (
            "abbey",
            "count bob fat+b",
            ["fat+benedictine", "fat+brother", "fat+bareheaded", "fat+bearded"],
        ),
        ("abbey", "count bob fat ", []),
        ("abbey", "draw bob ", CARDS),
        ("abbey", "take cai ", ["from"]),
        ("abbey", "take cai from dee ", CARDS),
        ("abbey", "mass 1 ", ["gave", "got"]),
        ("abbey", "mass 1 gave ", [*CARDS, "got"]),
        ("abbey", "mass 1 gave aymeric ", [*CARDS, "got"]),
        ("abbey", "mass 1 gave aymeric g", ["geoffroi", "gregor", "got"]),
        ("abbey", "mass 1 gave aymeric got ", CARDS),
        ("abbey", "accuse bob aymeric ", ["right", "wrong"]),
        ("abbey", "accuse bob aymeric wrong ", ["by"]),
        ("abbey", "accuse bob aymeric wrong by ", PLAYERS["abbey"]),
        ("abbey", "accuse bob aymeric maybe ", []),
        ("abbey", "hand ana ", CARDS),
        ("abbey", "what-if culprit ", CARDS),
        ("abbey", "why ", CARDS),
        ("abbey", "why aymeric ", PLAYERS["abbey"]),
        ("abbey", "why aymeric bob ", []),
        ("rose", "reveal bob ", list(COLOURS)),
        ("rose", "guess bob of ", PLAYERS["rose"]),
        ("rose", "points bob grey ", ["clue", "suspicion"]),
        ("rose", "points bob grey clue -3 ", ["william", "adson", "move", "bonus"]),
        ("rose", "why cai ", list(COLOURS)),
        ("blackrose", "role cai ", ["investigator", "possessed", "rector"]),
        ("blackrose", "proof ", SUSPECTS),
        ("blackrose", "proof ab ", ["by"]),
        ("blackrose", "accuse ab ", SUSPECTS),
        ("blackrose", "accuse ab cd ", ["right", "wrong"]),
        ("blackrose", "claim ana ef ", ["innocent", "guilty"]),
        ("blackrose", "goal mac-snor ", ["innocent_dead_at_least"]),
        ("blackrose", "goal ", ["mac-snor", "glas"]),
        ("blackrose", "why ", [*SUSPECTS, *PLAYERS["blackrose"]]),
        ("blackrose", "undo ", []),
    ],
)
def test_event_words_follow_the_grammar(game, line, expected):
    assert complete(game, line) == expected


def test_a_completed_trait_can_still_take_another():
    joined = joined_words("abbey", vocabulary(parse_log(HEADERS["abbey"], "g.log").header))
    assert joined == TRAITS
    assert completed(["bearded"], joined) == ["bearded"]  # no space: "bearded+fat" stays possible
    assert completed(["bearded+fat"], joined) == ["bearded+fat"]
    assert completed(["aymeric"], joined) == ["aymeric "]
    assert completed(["bearded", "benedictine"], joined) == ["bearded", "benedictine"]
    assert joined_words("rose", {"colour": COLOURS}) == ()


def test_setup_answers_complete_their_last_word_in_any_case_after_commas():
    players = ("ana", "bob", "bea")
    assert answer_candidates("", players) == ["ana", "bob", "bea"]
    assert answer_candidates("B", players) == ["bob", "bea"]
    assert answer_candidates("ana,bo", players) == ["bob"]
    assert answer_candidates("Ana, Be", players) == ["bea"]
    assert answer_candidates("ana ", players) == ["ana", "bob", "bea"]
    assert answer_candidates("zed", players) == []
