"""The default Mass, event, scriptorium, library and crypt cards; every validation error."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from deduce.data import bundled_json
from deduce.errors import LogError
from deduce.games.abbey.rules.board import default_board
from deduce.games.abbey.rules.cards import (
    EFFECT_WHO,
    MASS_IDS,
    MOVE_KINDS,
    BookCard,
    CardSet,
    Effect,
    MassCard,
    cards_from_json,
    default_cards,
)


def default_raw() -> dict[str, Any]:
    return bundled_json("abbey-cards.json")


def all_books(cards: CardSet) -> list[BookCard]:
    return [*cards.events, *cards.scriptorium, *cards.library]


# --------------------------------------------------------------------------
# The default cards


def test_default_cards_have_the_rulebook_counts() -> None:
    cards = default_cards()
    assert len(cards.masses) == 8
    assert len(cards.events) == 20
    assert len(cards.scriptorium) == 24
    assert len(cards.library) == 8
    assert cards.crypt == 6


def test_masses_are_in_chronological_order() -> None:
    masses = default_cards().masses
    assert [m.name for m in masses] == [
        "Matins",
        "Lauds",
        "Prime",
        "Terce",
        "Sexte",
        "None",
        "Vespers",
        "Compline",
    ]
    assert tuple(m.id for m in masses) == MASS_IDS
    assert [m.passes for m in masses] == [1, 1, 2, 1, 2, 1, 2, 3]
    assert masses[0] == MassCard("matins", "Matins", 1)


def test_every_effect_is_in_the_vocabulary() -> None:
    cards = default_cards()
    for card in all_books(cards):
        effect = card.effect
        assert effect.kind in EFFECT_WHO, card.id
        allowed = EFFECT_WHO[effect.kind]
        if allowed is None:
            assert effect.who is None, card.id
        else:
            assert effect.who in allowed, card.id
        if effect.kind == "pass":
            assert effect.n in (1, 2), card.id
        else:
            assert effect.n == 0, card.id
        if effect.kind == "move":
            assert effect.to in MOVE_KINDS, card.id
            assert len(default_board().of_kind(effect.to)) == 1
        else:
            assert effect.to is None, card.id
        assert card.text.strip() and card.name.strip()
        assert effect.kind != "protect" or card.keep, card.id


def test_ids_are_unique_per_pile() -> None:
    cards = default_cards()
    for pile in (cards.masses, cards.events, cards.scriptorium, cards.library):
        assert len({c.id for c in pile}) == len(pile)


def test_events_favour_the_rulebook_mechanisms() -> None:
    events = default_cards().events
    assert not any(c.keep for c in events)
    kinds = Counter(c.effect.kind for c in events)
    assert kinds["pass"] and kinds["penance"] and kinds["question"]
    by_die = [c for c in events if c.effect.who == "die"]
    assert len(by_die) >= 5
    core = sum(kinds[k] for k in ("pass", "penance", "question")) + len(by_die)
    assert core >= len(events) / 2
    assert all(c.effect.kind not in ("extra_turn", "protect") for c in events)


def test_scriptorium_has_kept_and_immediate_books() -> None:
    books = default_cards().scriptorium
    kept = [c for c in books if c.keep]
    assert 6 <= len(kept) <= 10
    assert {c.effect.kind for c in kept} == {"extra_turn", "protect", "question"}
    assert all("keep" in c.text.lower() for c in kept)
    assert all(c.effect.kind != "protect" for c in books if not c.keep)


def test_library_books_are_strong() -> None:
    library = default_cards().library
    assert not any(c.keep for c in library)
    for card in library:
        assert card.effect.who == "choice" or card.effect.kind == "extra_turn", card.id
    assert {c.effect.kind for c in library} == {"take", "show", "question", "extra_turn"}


def test_effect_json_round_trip() -> None:
    for card in all_books(default_cards()):
        raw = {
            "id": card.id,
            "name": card.name,
            "text": card.text,
            "effect": card.effect.to_json(),
            "keep": card.keep,
        }
        rebuilt = cards_from_json({**default_raw(), "scriptorium": [raw]}, "c.json")
        assert rebuilt.scriptorium == (card,)


def test_notes_say_the_cards_are_defaults() -> None:
    note = default_raw()["note"]
    assert "default" in note.lower()
    assert "not the printed cards" in note


# --------------------------------------------------------------------------
# Validation: one case per message


def set_effect(pile: str, index: int, effect: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(raw: dict[str, Any]) -> None:
        raw[pile][index]["effect"] = effect

    return mutate


def drop(raw: dict[str, Any], key: str) -> None:
    del raw[key]


def kept_index(raw: dict[str, Any]) -> int:
    return next(i for i, c in enumerate(raw["scriptorium"]) if c["keep"])


def immediate_index(raw: dict[str, Any]) -> int:
    return next(i for i, c in enumerate(raw["scriptorium"]) if not c["keep"])


Mutation = Callable[[dict[str, Any]], Any]

CASES: list[tuple[str, Mutation, str]] = [
    ("top-key", lambda raw: raw.update(deck=[]), "unknown key 'deck' in cards file"),
    ("missing-pile", lambda raw: drop(raw, "library"), "cards file has no 'library'"),
    ("note", lambda raw: raw.update(note=None), "cards 'note' must be a string"),
    (
        "crypt-zero",
        lambda raw: raw.update(crypt=0),
        "'crypt' must be a positive number of crypt cards, not 0",
    ),
    (
        "crypt-bool",
        lambda raw: raw.update(crypt=True),
        "'crypt' must be a positive number of crypt cards, not True",
    ),
    (
        "masses-count",
        lambda raw: raw["masses"].pop(),
        "'masses' must be a list of the 8 Mass cards (matins, lauds, prime, terce, sexte, none, "
        "vespers, compline)",
    ),
    (
        "mass-not-object",
        lambda raw: raw["masses"].__setitem__(2, "prime"),
        "mass card 3 must be an object with id, name, pass",
    ),
    ("mass-key", lambda raw: raw["masses"][0].update(text="x"), "mass card 1: unknown key 'text'"),
    (
        "mass-missing-key",
        lambda raw: raw["masses"][0].pop("pass"),
        "mass card 1: missing key 'pass'",
    ),
    (
        "mass-order",
        lambda raw: raw["masses"].reverse(),
        "mass card 1 must be 'matins', not 'compline' (chronological order: matins, lauds,",
    ),
    (
        "mass-duplicate",
        lambda raw: raw["masses"][1].update(id="matins"),
        "mass card 2: duplicate id 'matins'",
    ),
    (
        "mass-pass",
        lambda raw: raw["masses"][3].update(**{"pass": 4}),
        "mass card 'terce': pass must be 1, 2 or 3, not 4",
    ),
    (
        "mass-name",
        lambda raw: raw["masses"][3].update(name=" "),
        "mass card 4 'terce': name must be a non-empty string",
    ),
    ("pile-empty", lambda raw: raw.update(events=[]), "'events' must be a non-empty list of cards"),
    (
        "card-not-object",
        lambda raw: raw["library"].append(3),
        "library card 9 must be an object with effect, id, name, text",
    ),
    (
        "card-key",
        lambda raw: raw["events"][0].update(keep=False),
        "event card 1: unknown key 'keep'",
    ),
    (
        "card-missing-keep",
        lambda raw: raw["scriptorium"][0].pop("keep"),
        "scriptorium card 1: missing key 'keep'",
    ),
    (
        "card-missing-text",
        lambda raw: raw["library"][1].pop("text"),
        "library card 2: missing key 'text'",
    ),
    (
        "card-id",
        lambda raw: raw["events"][0].update(id="Feast Day"),
        "event card 1: id must match [a-z0-9][a-z0-9_-]*",
    ),
    (
        "card-duplicate",
        lambda raw: raw["library"][1].update(id=raw["library"][0]["id"]),
        "library card 2: duplicate id 'forbidden-register'",
    ),
    (
        "card-text",
        lambda raw: raw["events"][0].update(text=""),
        "event card 'whispers-in-choir': text must be a non-empty string",
    ),
    (
        "card-keep",
        lambda raw: raw["scriptorium"][0].update(keep="yes"),
        "scriptorium card 'book-of-hours': keep must be true or false, not 'yes'",
    ),
    (
        "effect-not-object",
        set_effect("events", 0, "pass"),
        "event card 'whispers-in-choir': effect must be an object with a 'kind'",
    ),
    (
        "effect-kind",
        set_effect("events", 0, {"kind": "steal", "who": "die"}),
        "event card 'whispers-in-choir': unknown effect kind 'steal' (kinds: pass, take, show,",
    ),
    (
        "effect-no-kind",
        set_effect("events", 0, {"n": 1}),
        "event card 'whispers-in-choir': unknown effect kind None",
    ),
    (
        "effect-key",
        set_effect("events", 0, {"kind": "pass", "n": 1, "who": "left"}),
        "event card 'whispers-in-choir' pass effect: unknown key 'who'",
    ),
    (
        "effect-missing-who",
        set_effect("library", 0, {"kind": "take"}),
        "library card 'forbidden-register' take effect: missing key 'who'",
    ),
    (
        "effect-extra-who",
        set_effect("library", 0, {"kind": "extra_turn", "who": "self"}),
        "library card 'forbidden-register' extra_turn effect: unknown key 'who'",
    ),
    (
        "pass-n",
        set_effect("events", 0, {"kind": "pass", "n": 3}),
        "event card 'whispers-in-choir': a pass effect passes 1 or 2 cards, not 3",
    ),
    (
        "pass-n-float",
        set_effect("events", 0, {"kind": "pass", "n": 1.0}),
        "a pass effect passes 1 or 2 cards, not 1.0",
    ),
    (
        "take-who",
        set_effect("events", 0, {"kind": "take", "who": "self"}),
        "a take effect cannot have who 'self' (allowed: die, choice, left, right)",
    ),
    (
        "show-who",
        set_effect("events", 0, {"kind": "show", "who": "left"}),
        "a show effect cannot have who 'left' (allowed: die, choice)",
    ),
    (
        "question-who",
        set_effect("events", 0, {"kind": "question", "who": "right"}),
        "a question effect cannot have who 'right' (allowed: die, choice)",
    ),
    (
        "penance-who",
        set_effect("events", 0, {"kind": "penance", "who": "left"}),
        "a penance effect cannot have who 'left' (allowed: die, self, choice)",
    ),
    (
        "move-cell",
        set_effect("events", 0, {"kind": "move", "to": "cell"}),
        "a move effect cannot go to 'cell' (room kinds: chapel, scriptorium, library, parlor, "
        "crypt, chapter, courtyard)",
    ),
    (
        "move-confessional",
        set_effect("events", 0, {"kind": "move", "to": "confessional"}),
        "a move effect cannot go to 'confessional'",
    ),
    (
        "move-cloister",
        set_effect("events", 0, {"kind": "move", "to": "cloister"}),
        "a move effect cannot go to 'cloister'",
    ),
    (
        "protect-event",
        set_effect("events", 0, {"kind": "protect"}),
        "event card 'whispers-in-choir': a protect effect needs a kept book (\"keep\": true)",
    ),
    (
        "protect-library",
        set_effect("library", 0, {"kind": "protect"}),
        "library card 'forbidden-register': a protect effect needs a kept book",
    ),
    (
        "protect-immediate",
        lambda raw: set_effect("scriptorium", immediate_index(raw), {"kind": "protect"})(raw),
        "a protect effect needs a kept book",
    ),
]


@pytest.mark.parametrize(("mutate", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_cards_validation_errors(mutate: Mutation, message: str) -> None:
    raw = copy.deepcopy(default_raw())
    mutate(raw)
    with pytest.raises(LogError) as info:
        cards_from_json(raw, "my-cards.json")
    assert message in info.value.message
    assert info.value.path == "my-cards.json"
    assert info.value.line is None
    assert str(info.value).startswith("my-cards.json: ")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("raw", [[], "cards", None])
def test_a_cards_file_must_be_an_object(raw: Any) -> None:
    with pytest.raises(LogError, match="a cards file must be an object with masses"):
        cards_from_json(raw, "my-cards.json")


def test_valid_variations_are_accepted() -> None:
    raw = default_raw()
    raw.pop("note")
    raw["crypt"] = 1
    raw["events"] = raw["events"][:1]
    raw["library"] = [
        {
            "id": "x",
            "name": "X",
            "text": "Go to the crypt.",
            "effect": {"kind": "move", "to": "crypt"},
        }
    ]
    raw["scriptorium"][kept_index(raw)]["effect"] = {"kind": "take", "who": "right"}
    cards = cards_from_json(raw, "c.json")
    assert cards.crypt == 1
    assert cards.library == (BookCard("x", "X", "Go to the crypt.", Effect("move", to="crypt")),)
