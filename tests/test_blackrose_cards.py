"""The Black Rose's default cards and the user cards file loader's errors."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from data_edits import assert_refused, item_edit, set_key

from deduce.data import bundled_json
from deduce.errors import LogError
from deduce.games.blackrose.bots import BOTS
from deduce.games.blackrose.cards import (
    ClueCard,
    RectorCard,
    cards_from_json,
    default_cards,
    load_cards_file,
)
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.simulate import play_game
from deduce.logs.formats.blackrose import default_suspect_ids
from deduce.logs.jsonl import parse_jsonl

BUNDLED = Path(__file__).resolve().parent.parent / "deduce" / "data" / "blackrose-cards.json"


def default_raw() -> dict[str, Any]:
    return bundled_json("blackrose-cards.json")


# --------------------------------------------------------------------------
# The default cards


def test_the_bundled_file_says_it_is_not_the_printed_cards() -> None:
    assert "not the printed cards" in default_raw()["note"]


def test_default_proofs_are_one_per_default_suspect() -> None:
    cards = default_cards()
    assert cards.suspects == default_suspect_ids()
    assert cards.clue("proof-s3") == ClueCard("proof-s3", "proof", suspect="s3")


def test_default_clue_cards_by_mark_and_effect() -> None:
    """16 cards marked 3, 7 marked 4, 7 marked 5: piles of 3, 4 and 5 cards."""
    others = [c for c in default_cards().clues if c.kind != "proof"]
    assert Counter(c.players for c in others) == {3: 16, 4: 7, 5: 7}
    assert Counter(c.effect for c in others if c.players == 3) == {
        "conflit": 4,
        "parler-a": 3,
        "deduction": 3,
        "reseau": 2,
        "serment": 2,
        "embuscade": 2,
    }
    for mark in (4, 5):
        assert Counter(c.effect for c in others if c.players == mark) == {
            "conflit": 2,
            "parler-a": 1,
            "deduction": 1,
            "reseau": 1,
            "serment": 1,
            "embuscade": 1,
        }
    assert {c.kind for c in others if c.effect in ("serment", "embuscade")} == {"trap"}
    for n in (3, 4, 5):
        assert len(default_cards().used_clues(n)) - 2 == 7 * n


def test_default_rector_cards() -> None:
    rector = default_cards().rector
    assert Counter(c.effect or c.id for c in rector) == {
        "sermon": 3,
        "profanation": 3,
        "veillee": 2,
        "mac-snor": 1,
        "glas": 1,
    }
    assert default_cards().rector_card("mac-snor") == RectorCard(
        "mac-snor", "goal", innocent_dead_at_least=3
    )
    glas = default_cards().rector_card("glas")
    assert (glas.innocent_dead_at_least, glas.from_round) == (2, 4)
    assert glas.condition() == {"innocent_dead_at_least": 2}


# --------------------------------------------------------------------------
# User files


def test_a_copy_of_the_default_loads_as_the_default(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(default_raw()), encoding="utf-8")
    assert load_cards_file(str(path)) == default_cards()


def test_a_game_with_other_suspects_writes_them_in_the_header() -> None:
    raw = default_raw()
    for card in raw["clues"]:
        if card["kind"] == "proof":
            card["suspect"] = card["suspect"].replace("s", "monk-")
    game = BlackRoseGame.create(4, cards_from_json(raw, "c.json"))
    assert game.suspects == tuple(f"monk-{i}" for i in range(1, 8))
    state = play_game(game, "monks", ["random"] * 4, BOTS)
    for seat, player in enumerate(game.players):
        log = parse_jsonl(game.log_text(player, state.logs[seat]), f"{player}.jsonl")
        assert log.header.extra["suspects"] == game.suspects


def test_bad_json_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text('{\n "clues": [\n  {"id": "x",, "kind": "proof"}\n ]\n}\n', encoding="utf-8")
    with pytest.raises(LogError) as info:
        load_cards_file(str(path))
    assert info.value.line == 3
    assert str(info.value).startswith(f"{path}:3: blackrose cards file is not valid JSON: ")


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(LogError, match=r"none\.json: cannot read blackrose cards file"):
        load_cards_file(str(tmp_path / "none.json"))


_clue = item_edit("clues")
_rector = item_edit("rector")
_set = set_key


BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("unknown key", _set("x", 1), "unknown key 'x' in blackrose cards file"),
    ("missing", lambda raw: raw.pop("rector"), "blackrose cards file has no 'rector'"),
    ("note", _set("note", 3), "'note' must be a string"),
    ("clues shape", _set("clues", {}), "'clues' must be a list of clue cards"),
    (
        "card not object",
        lambda raw: raw["clues"].__setitem__(3, "proof-s4"),
        "clues card 4 must be an object with id and kind",
    ),
    (
        "clue kind",
        _clue(0, kind="event"),
        "clues card 1: kind must be one of proof, action, trap, not 'event'",
    ),
    ("clue unknown key", _clue(0, players=3), "clues card 1: unknown key 'players'"),
    (
        "clue missing key",
        lambda raw: raw["clues"][7].pop("players"),
        "clues card 8: missing key 'players'",
    ),
    ("clue id", _clue(1, id="Proof 2"), "clues card 2: id must match [a-z0-9][a-z0-9_-]*"),
    ("duplicate id", _clue(1, id="proof-s1"), "clues card 2: duplicate id 'proof-s1'"),
    ("suspect id", _clue(0, suspect="S 1"), "card 'proof-s1': suspect must be an id"),
    (
        "action effect",
        _clue(7, effect="serment"),
        "card 'conflit-1': unknown action effect 'serment' (effects: conflit, parler-a,",
    ),
    ("trap effect", _clue(19, effect="conflit"), "card 'serment-1': unknown trap effect"),
    (
        "players",
        _clue(7, players=6),
        "card 'conflit-1': players must be an integer from 3 to 5, not 6",
    ),
    ("players bool", _clue(7, players=True), "card 'conflit-1': players must be an integer"),
    (
        "six proofs",
        lambda raw: raw["clues"].pop(0),
        "'clues' must hold exactly 7 Proof cards, one for each suspect (found 6 Proofs",
    ),
    (
        "same suspect",
        _clue(1, suspect="s1"),
        "'clues' must hold exactly 7 Proof cards, one for each suspect (found 7 Proofs for 6",
    ),
    (
        "few rector cards",
        lambda raw: raw.__setitem__("rector", raw["rector"][:2]),
        "'rector' must be a list of at least 3 Rector cards",
    ),
    ("event effect", _rector(0, effect="conflit"), "card 'sermon-1': unknown event effect"),
    ("goal key", _rector(8, effect="sermon"), "rector card 9: unknown key 'effect'"),
    (
        "goal condition",
        _rector(8, innocent_dead_at_least=6),
        "card 'mac-snor': innocent_dead_at_least must be an integer from 1 to 5, not 6",
    ),
    (
        "goal round",
        _rector(9, from_round=0),
        "card 'glas': from_round must be an integer from 1 to 5, not 0",
    ),
    ("id shared", _rector(0, id="proof-s1"), "rector card 1: duplicate id 'proof-s1'"),
]


@pytest.mark.parametrize(("name", "change", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_every_problem_is_one_line(
    name: str, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    assert_refused(cards_from_json, default_raw(), change, message)


def test_a_cards_file_that_is_not_an_object() -> None:
    with pytest.raises(LogError, match=r"c\.json: a blackrose cards file must be an object"):
        cards_from_json([], "c.json")


@pytest.mark.parametrize(
    ("old", "new", "needle", "message"),
    [
        (
            '{"id": "reseau-2", "kind": "action", "effect": "reseau", "players": 3}',
            '{"id": "reseau-2", "kind": "action", "effect": "reseau", "players": 7}',
            '"reseau-2"',
            "card 'reseau-2': players must be an integer from 3 to 5, not 7",
        ),
        (
            '{"id": "glas", "kind": "goal", "innocent_dead_at_least": 2, "from_round": 4}',
            '{"id": "glas", "kind": "goal", "innocent_dead_at_least": 2, "from_round": 9}',
            '"glas"',
            "card 'glas': from_round must be an integer from 1 to 5, not 9",
        ),
    ],
)
def test_file_errors_name_the_line(
    tmp_path: Path, old: str, new: str, needle: str, message: str
) -> None:
    """The line of the card at fault."""
    text = BUNDLED.read_text(encoding="utf-8")
    assert old in text
    broken = text.replace(old, new)
    path = tmp_path / "cards.json"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(LogError) as info:
        load_cards_file(str(path))
    line = next(i for i, row in enumerate(broken.splitlines(), 1) if needle in row)
    assert (info.value.line, info.value.message) == (line, message)
