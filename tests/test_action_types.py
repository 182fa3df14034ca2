"""The engines' named action types hold at run time: every legal action has its decision's type.

mypy checks each decision against its annotated action type; these games
check the values themselves, so that an action built from an untyped
context (a dict of ``Any``) cannot drift from its declared shape.
"""

from __future__ import annotations

import types
from random import Random
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest

from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.rules.engine import Action as AbbeyAction
from deduce.games.blackrose.engine import Action as BlackRoseAction
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.machine import StepMachine
from deduce.games.rose.engine import Action as RoseAction
from deduce.games.rose.engine import RoseGame


def conforms(value: object, kind: Any) -> bool:
    """Whether ``value`` has the type ``kind`` (tuples, unions, literals, None and scalars)."""
    origin, args = get_origin(kind), get_args(kind)
    if kind is None or kind is type(None):
        return value is None
    if origin in (Union, types.UnionType):
        return any(conforms(value, a) for a in args)
    if origin is Literal:
        return any(type(value) is type(a) and value == a for a in args)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(conforms(v, args[0]) for v in value)
        return len(value) == len(args) and all(map(conforms, value, args))
    if kind in (bool, str):
        return isinstance(value, kind)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    raise ValueError(f"no check for {kind!r}")


def test_conforms_tells_shapes_apart() -> None:
    move = tuple[Literal["move"], str] | tuple[Literal["stay"]]
    assert conforms(("move", "cell"), move) and conforms(("stay",), move)
    assert not conforms(("move",), move) and not conforms(("move", 3), move)
    assert conforms((), tuple[str, ...]) and not conforms(("a", 1), tuple[str, ...])
    assert conforms(None, tuple[str, int] | None) and not conforms(True, int)
    assert not conforms(1, Literal[True]) and conforms(-1, Literal[1, -1])


def declared(state: StepMachine) -> dict[str, Any]:
    """Each decision's action type: what its ``choices`` function is annotated to return."""
    types_ = {}
    for name, decision in state.STEPS.decisions.items():
        returned = get_type_hints(decision.choices)["return"]
        assert get_origin(returned) is list, name
        types_[name] = get_args(returned)[0]
    return types_


def played(state: StepMachine, union: Any, seed: int, limit: int) -> set[str]:
    """Play uniformly random actions, checking every legal action; the decisions met."""
    rng, kinds, met = Random(seed), declared(state), set[str]()
    for _ in range(limit):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        step = state.pending()
        assert step is not None
        if not state.is_chance_node():
            met.add(step[0])
            for action in legal:
                assert conforms(action, kinds[step[0]]), (step[0], action)
                assert conforms(action, union), (step[0], action)
        state.apply_action(rng.choice(legal))
    return met


#: Each engine: a new game for a seat count, its seat counts, its action union.
ENGINES = {
    "abbey": (lambda n: AbbeyGame.create(n, max_turns=120).new_state(), (3, 5), AbbeyAction),
    "rose": (lambda n: RoseGame.create(n).new_state(), (2, 4), RoseAction),
    "blackrose": (lambda n: BlackRoseGame.create(n).new_state(), (3, 5), BlackRoseAction),
}


@pytest.mark.parametrize("engine", ENGINES)
def test_every_decision_gives_actions_of_its_type(engine: str) -> None:
    new, seats, union = ENGINES[engine]
    met: set[str] = set()
    for players in seats:
        for seed in range(3):
            state = new(players)
            met |= played(state, union, seed, 4000)
            assert state.is_terminal()
    assert met == set(state.STEPS.decisions)
