"""The engines' and bots' dispatch tables: every step, effect and decision has its entry."""

from __future__ import annotations

import pytest

from deduce.games.abbey.rules.board import KIND_COUNTS
from deduce.games.abbey.rules.engine import AbbeyGame, AbbeyState
from deduce.games.abbey.sim.advised import AdvisedBot
from deduce.games.abbey.sim.bots import Notepad
from deduce.games.blackrose.bots import Advised
from deduce.games.blackrose.cards import ACTION_EFFECTS, EVENT_EFFECTS, TRAP_EFFECTS, default_cards
from deduce.games.blackrose.engine import BlackRoseGame, BlackRoseState
from deduce.games.machine import StepMachine
from deduce.games.rose.bots import Monk
from deduce.games.rose.data import EVENT_IDS
from deduce.games.rose.engine import RoseGame, RoseState

STATES = [AbbeyState, RoseState, BlackRoseState]


def _methods(cls: type, prefix: str) -> dict[str, object]:
    """The class's functions whose names start with ``prefix``, by the rest of the name."""
    return {
        name[len(prefix) :]: value for name, value in vars(cls).items() if name.startswith(prefix)
    }


@pytest.mark.parametrize("cls", STATES, ids=lambda c: c.__name__)
def test_step_table_lists_every_step_method(cls: type[StepMachine]) -> None:
    steps = cls.STEPS
    assert steps.auto == _methods(cls, "_step_")
    assert steps.chances == _methods(cls, "_chance_")
    assert {n: d.choices for n, d in steps.decisions.items()} == _methods(cls, "_choices_")
    assert {n: d.do for n, d in steps.decisions.items()} == _methods(cls, "_do_")


def test_abbey_rooms_cover_every_room_kind() -> None:
    assert set(AbbeyState.ROOMS.values()) == set(_methods(AbbeyState, "_room_").values())
    assert set(AbbeyState.ROOMS) == set(KIND_COUNTS)


def test_rose_arrivals_are_event_tiles() -> None:
    assert set(RoseState.ARRIVALS) <= set(EVENT_IDS)
    assert set(RoseState.ARRIVALS) == set(_methods(RoseState, "_arrival_"))


def test_blackrose_effect_tables_cover_the_cards_data() -> None:
    assert set(BlackRoseState.ACTIONS) == set(ACTION_EFFECTS)
    assert set(BlackRoseState.TRAPS) == set(TRAP_EFFECTS)
    assert set(BlackRoseState.EVENTS) == set(EVENT_EFFECTS)
    cards = default_cards()
    used = {(c.kind, c.effect) for c in (*cards.clues, *cards.rector) if c.effect}
    tables = {
        "action": BlackRoseState.ACTIONS,
        "trap": BlackRoseState.TRAPS,
        "event": BlackRoseState.EVENTS,
    }
    assert used and all(effect in tables[kind] for kind, effect in used)


def _named_for(cls: type, prefixes: tuple[str, ...], decisions: set[str]) -> set[str]:
    """The attributes of ``cls`` (and its bases) named ``<prefix><decision>``."""
    return {
        name
        for name in dir(cls)
        for p in prefixes
        if name.startswith(p) and name[len(p) :] in decisions
    }


def test_bot_tables_list_every_decision_method() -> None:
    """Each bot's table holds decisions of its engine, and every method named after one."""
    abbey = set(AbbeyState.STEPS.decisions)
    notepad = Notepad(AbbeyGame.create(4), 0)
    assert {f"_{d}" for d in notepad._deciders()} == _named_for(Notepad, ("_",), abbey)
    advised = AdvisedBot(AbbeyGame.create(4), 0)
    assert {f"_advised_{d}" for d in advised._advisers()} == _named_for(
        AdvisedBot, ("_advised_",), abbey
    )
    blackrose = set(BlackRoseState.STEPS.decisions)
    table = Advised(BlackRoseGame.create(4, rector=3), 0)._deciders()
    prefixes = ("_", "_investigator_", "_possessed_", "_rector_")
    assert {r for r, _ in table} <= {"", "investigator", "possessed", "rector"}
    named = {f"_{r}_{d}" if r else f"_{d}" for r, d in table}
    assert named == _named_for(Advised, prefixes, blackrose)
    rose = Monk(RoseGame.create(4), 0)._values()
    decisions = set(RoseState.STEPS.decisions)
    assert {f"_value_{d}" for d in rose} == _named_for(Monk, ("_value_",), decisions)
