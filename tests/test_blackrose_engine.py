"""The Black Rose rules, checked on the engine through its public interface.

One test (or one parametrized test) per rule, phase, card effect and victory
condition of the rulebook (/work/shared/rules/black-rose.txt) and the
engine's documented readings. ``start`` resolves every chance node with its
first outcome, except the role deal (the Possessed's seat is chosen), lets the
Rector (seat 0 unless told) choose the accomplices s1 and s2, and stops at
the First Player's first decision of round 1; as test shortcuts, tests then
put cards where they want them (``put``) and set fields directly. ``play_to``
goes on with the do-nothing choice (None, False, else the first legal
action) until a given decision. Cards are those of the bundled defaults.
"""

from __future__ import annotations

from typing import Any

import pytest

from deduce.errors import DeduceError
from deduce.games.blackrose.bots import BOTS
from deduce.games.blackrose.engine import BlackRoseGame, BlackRoseState
from deduce.games.simulate import play_game
from deduce.logs.formats.blackrose import default_suspect_ids
from deduce.logs.jsonl import parse_jsonl

ACCOMPLICES = ("s1", "s2")
LOGGED = {"role", "proof", "claim", "accuse", "kill", "goal"}
PUBLIC = ("claim", "accuse", "kill", "goal")


# ------------------------------------------------------------------ helpers


def settle(state: BlackRoseState, possessed: int | None = None) -> None:
    """Resolve chance nodes with their first outcome (the role deal: ``possessed``)."""
    while state.is_chance_node():
        step = state.pending()
        assert step is not None
        state.apply_action(possessed if step[1] == "roles" else step[2][0])


def start(
    n: int = 4,
    possessed: int | None = 1,
    rector: int = 0,
    piles: dict[str, list[str]] | None = None,
) -> BlackRoseState:
    """A state at the First Player's first decision; ``piles`` replaces every pile."""
    state = BlackRoseGame.create(n, rector=rector).new_state()
    settle(state, possessed)
    decide(state, rector, "accomplices", ACCOMPLICES)
    if piles is not None:
        for suspect in state.piles:
            put(state, state.piles[suspect], *piles.get(suspect, []))
    return state


def put(state: BlackRoseState, place: list[str], *cards: str) -> None:
    """``place`` holds exactly ``cards``, each taken from wherever it was."""
    for card in cards:
        for other in (
            *state.piles.values(),
            state.graveyard,
            state.discards,
            *state.hands,
            state.rector_pile,
            state.rector_discards,
        ):
            while card in other:
                other.remove(card)
    place[:] = cards


def pending(state: BlackRoseState) -> tuple[int, str]:
    """(seat, decision) of the pending decision."""
    seat = state.current_player()
    assert seat >= 0, "no decision pending"
    return seat, state.observation(seat).decision


def decide(state: BlackRoseState, seat: int, decision: str, action: Any) -> None:
    """``seat`` takes ``action`` at its pending ``decision``; then chance nodes resolve."""
    assert pending(state) == (seat, decision)
    state.apply_action(action)
    settle(state)


def idle(legal: list[Any]) -> Any:
    """The do-nothing choice: None, else False, else the first legal action."""
    return None if None in legal else False if False in legal else legal[0]


def play_to(
    state: BlackRoseState, decision: str | None, seat: int | None = None, rnd: int = 1
) -> list[tuple[int, str]]:
    """Idle choices until ``decision`` (of ``seat``, if given; in round ``rnd`` or later)
    is pending, or the game ends; return the decisions idled through."""
    settle(state)
    idled = []
    while not state.is_terminal():
        at, name = pending(state)
        if name == decision and seat in (None, at) and state.round >= rnd:
            return idled
        idled.append((at, name))
        state.apply_action(idle(state.legal_actions()))
        settle(state)
    assert decision is None, f"the game ended before {decision}"
    return idled


def since(state: BlackRoseState, mark: int, kind: str) -> list[dict[str, Any]]:
    """Truth events of type ``kind`` after the first ``mark`` ones."""
    return [e for e in state.events[mark:] if e["type"] == kind]


def log_of(state: BlackRoseState, seat: int, *kinds: str) -> list[dict[str, Any]]:
    """``seat``'s log events of these types."""
    return [e for e in state.logs[seat] if e["type"] in kinds]


def proof(suspect: str, player: str | None = None) -> dict[str, Any]:
    return {"type": "proof", "suspect": suspect, **({"player": player} if player else {})}


def role(player: str, name: str) -> dict[str, Any]:
    return {"type": "role", "player": player, "role": name}


# -------------------------------------------------------------------- setup


def test_game_sizes_names_and_rector() -> None:
    game = BlackRoseGame.create(5, rector=2)
    assert game.players == ("ana", "bob", "cai", "dee", "eve") and game.rector == 2
    assert game.suspects == default_suspect_ids()
    assert BlackRoseGame.create(["x", "y", "z"]).players == ("x", "y", "z")
    for bad in (2, 6, ["x", "x", "y"]):
        with pytest.raises(DeduceError, match="3 to 5 players"):
            BlackRoseGame.create(bad)
    with pytest.raises(DeduceError, match="rector"):
        BlackRoseGame.create(3, rector=3)


@pytest.mark.parametrize(
    ("n", "rector", "outcomes"), [(5, 0, [1, 2, 3, 4]), (4, 2, [0, 1, 3]), (3, 0, [1, 2, None])]
)
def test_role_deal(n: int, rector: int, outcomes: list[int | None]) -> None:
    """5p: 1 Possessed + 3 Investigators; 4p: 1 + 2; 3p: two of {P, I, I} dealt, one hidden
    (0 or 1 Possessed). Every outcome is equally likely."""
    state = BlackRoseGame.create(n, rector=rector).new_state()
    assert state.chance_outcomes() == [(o, 1 / len(outcomes)) for o in outcomes]
    state.apply_action(outcomes[0])
    expected = {
        s: "possessed" if s == outcomes[0] else "investigator" for s in range(n) if s != rector
    }
    assert state.roles == {rector: "rector", **expected}


def test_setup_rector_hand_then_accomplices() -> None:
    """The Rector draws 3 Rector cards, then chooses the accomplices (any pair, sorted)."""
    state = BlackRoseGame.create(4).new_state()
    settle(state, 2)
    assert pending(state) == (0, "accomplices")
    assert len(state.hands[0]) == 3 and len(state.rector_pile) == 7
    legal = state.legal_actions()
    assert len(legal) == 21 and ("s1", "s2") in legal and all(tuple(sorted(p)) == p for p in legal)
    assert state.logs[0] == [] and state.logs[2] == [role("cai", "possessed")]
    assert state.logs[1] == [role("bob", "investigator")]


def test_accomplices_proofs_removed_and_known_to_the_rector() -> None:
    state = start()
    assert state.accomplices == ACCOMPLICES
    assert state.logs[0] == [proof(s) for s in ("s3", "s4", "s5", "s6", "s7")]
    cards = [c for pile in state.piles.values() for c in pile]
    assert "proof-s1" not in cards and "proof-s2" not in cards
    assert {f"proof-s{i}" for i in range(3, 8)} <= set(cards)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_numbered_cards_removed_by_player_count(n: int) -> None:
    """4 players: the cards numbered 5 are removed; 3 players: 4 and 5. Dealt round-robin
    into 7 piles: n cards each with the default cards."""
    state = start(n, possessed=1)
    cards = state.game.cards
    dealt = [c for pile in state.piles.values() for c in pile]
    assert all(cards.clue(c).players <= n for c in dealt)
    assert sorted(dealt) == sorted(
        c.id for c in cards.clues if c.players <= n and c.suspect not in ACCOMPLICES
    )
    assert [len(p) for p in state.piles.values()] == [n] * 7


def test_first_player_is_left_of_the_rector_and_passes_clockwise() -> None:
    """The investigator on the Rector's left starts; the token passes clockwise at Rising,
    skipping the Rector."""
    state = start(5, rector=2, possessed=3)
    assert pending(state) == (3, "investigate") and state.first == 3
    play_to(state, None)
    firsts = [e["first"] for e in state.events if e["type"] == "round"]
    assert firsts == ["dee", "eve", "ana", "bob", "dee"]


def test_observation() -> None:
    state = start(4, possessed=2)
    obs = state.observation(1)
    assert (obs.seat, obs.player, obs.role, obs.decision, obs.context) == (
        1,
        "bob",
        "investigator",
        "investigate",
        {},
    )
    assert (obs.round, obs.phase, obs.first, obs.dead, obs.graveyard) == (1, "day", 1, (), 0)
    assert obs.piles == dict.fromkeys(default_suspect_ids(), 4)
    assert obs.hands == (3, 0, 0, 0) and obs.hand == ()
    assert (obs.accomplices, obs.possessed, obs.blocked, obs.revealed) == (None, None, (), {})
    assert obs.log == (role("bob", "investigator"),) and obs.glanced == {}
    rector = state.observation(0)
    assert rector.role == "rector" and rector.accomplices == ACCOMPLICES
    assert rector.hand == tuple(state.hands[0]) and rector.decision == ""
    assert state.observation(2).role == "possessed"


def test_an_illegal_action_is_refused() -> None:
    state = start()
    with pytest.raises(DeduceError, match="illegal action"):
        state.apply_action("s9")


# ------------------------------------------------------------------ the Day


def test_investigate_draws_the_top_card() -> None:
    """The top card of the pile goes to the hand; a Proof is logged by its new holder only."""
    state = start(piles={"s3": ["proof-s4", "conflit-1"], "s5": ["conflit-2"]})
    decide(state, 1, "investigate", "s3")
    assert state.hands[1] == ["proof-s4"] and state.piles["s3"] == ["conflit-1"]
    assert log_of(state, 1, "proof") == [proof("s4", "bob")]
    assert log_of(state, 2, "proof") == [] and log_of(state, 3, "proof") == []
    assert state.investigated == {"s3": 1}


def test_a_suspect_investigated_this_round_or_with_no_cards_cannot_be_chosen() -> None:
    state = start(piles={"s3": ["conflit-1", "conflit-2"], "s5": ["conflit-3"]})
    assert state.legal_actions() == ["s3", "s5"]
    decide(state, 1, "investigate", "s3")
    play_to(state, "investigate")
    assert pending(state)[0] == 2 and state.legal_actions() == ["s5"]


def test_investigation_skipped_when_no_suspect_can_be_chosen() -> None:
    state = start(piles={"s3": ["conflit-1"]})
    decide(state, 1, "investigate", "s3")
    play_to(state, "twilight")
    assert [e["player"] for e in state.events if e["type"] == "investigate"] == ["bob"]


def test_a_dead_suspect_gives_the_graveyard_top_card() -> None:
    """Living or dead; two investigators may each draw there through two dead suspects."""
    state = start(piles={"s5": ["conflit-3"]})
    state.dead += ["s3", "s4"]
    put(state, state.graveyard, "proof-s6", "conflit-1", "conflit-2")
    assert state.legal_actions() == ["s3", "s4", "s5"]
    decide(state, 1, "investigate", "s3")
    assert state.hands[1] == ["proof-s6"] and state.graveyard == ["conflit-1", "conflit-2"]
    assert log_of(state, 1, "proof") == [proof("s6", "bob")]
    play_to(state, "investigate", 2)
    assert state.legal_actions() == ["s4", "s5"]
    decide(state, 2, "investigate", "s4")
    assert state.hands[2] == ["conflit-1"]


def test_cards_before_and_after_investigating() -> None:
    """Any number of Action cards, before and after; None goes on."""
    state = start(piles={"s3": ["conflit-1", "reseau-1"], "s4": ["conflit-2"]})
    put(state, state.hands[2], "deduction-1", "deduction-2")
    decide(state, 1, "investigate", "s4")
    assert pending(state) == (1, "after")
    assert state.legal_actions() == [None, ("conflit-2", 2), ("conflit-2", "s3")]
    decide(state, 1, "after", None)
    assert pending(state) == (2, "before")
    decide(state, 2, "before", ("deduction-1", "s3"))
    decide(state, 2, "before", ("deduction-2", "s3"))
    assert pending(state) == (2, "investigate")
    assert state.discards == ["deduction-1", "deduction-2"]


def test_targets() -> None:
    """conflit: another investigator holding a card or a living suspect with cards;
    parler-a: another investigator holding a card; never the Rector nor oneself."""
    state = start(piles={"s3": ["conflit-1"], "s4": ["parler-a-1"], "s5": ["conflit-3"]})
    state.dead.append("s5")
    put(state, state.hands[2], "conflit-2", "parler-a-2")
    put(state, state.hands[3], "proof-s5")
    decide(state, 1, "investigate", "s3")
    decide(state, 1, "after", None)
    assert sorted(state.legal_actions(), key=str) == sorted(
        [
            None,
            ("conflit-2", 1),
            ("conflit-2", 3),
            ("conflit-2", "s4"),
            ("parler-a-2", 1),
            ("parler-a-2", 3),
        ],
        key=str,
    )


def test_conflit_on_an_investigator_takes_a_random_card() -> None:
    state = start(piles={"s3": ["conflit-1"], "s4": ["conflit-2"]})
    put(state, state.hands[2], "proof-s5", "proof-s6")
    decide(state, 1, "investigate", "s3")
    state.apply_action(("conflit-1", 2))
    assert state.chance_outcomes() == [("proof-s5", 0.5), ("proof-s6", 0.5)]
    state.apply_action("proof-s6")
    assert state.hands[1] == ["proof-s6"] and state.hands[2] == ["proof-s5"]
    assert log_of(state, 1, "proof") == [proof("s6", "bob")]
    assert log_of(state, 2, "proof") == []


def test_conflit_on_a_suspect_takes_a_random_card_and_a_trap_resolves() -> None:
    """The pile is shuffled and one card taken at random; a Trap taken resolves at once."""
    state = start(piles={"s3": ["conflit-1"], "s4": ["embuscade-1", "proof-s5", "conflit-2"]})
    put(state, state.hands[1], "proof-s6")
    decide(state, 1, "investigate", "s3")
    mark = len(state.events)
    state.apply_action(("conflit-1", "s4"))
    assert [o for o, _ in state.chance_outcomes()] == ["embuscade-1", "proof-s5", "conflit-2"]
    state.apply_action("embuscade-1")
    assert state.chance_outcomes() == [("proof-s5", 0.5), ("conflit-2", 0.5)]  # the shuffle
    state.apply_action("conflit-2")
    assert state.piles["s4"] == ["conflit-2", "proof-s5"]
    assert [o for o, _ in state.chance_outcomes()] == ["proof-s6"]  # embuscade's random card
    settle(state)
    assert [e["card"] for e in since(state, mark, "trap")] == ["embuscade-1"]
    assert state.hands[1] == [] and state.discards[-2:] == ["embuscade-1", "proof-s6"]


def test_a_trap_resolves_when_drawn() -> None:
    """Embuscade: the drawer discards a random card of their hand, face down."""
    state = start(piles={"s3": ["embuscade-1", "conflit-2"]})
    put(state, state.hands[1], "proof-s5", "conflit-1")
    mark = len(state.events)
    state.apply_action("s3")
    assert state.chance_outcomes() == [("proof-s5", 0.5), ("conflit-1", 0.5)]
    settle(state)
    assert since(state, mark, "trap") == [{"type": "trap", "player": "bob", "card": "embuscade-1"}]
    assert state.hands[1] == ["conflit-1"] and state.discards == ["embuscade-1", "proof-s5"]
    assert pending(state) == (1, "after")


def test_embuscade_with_an_empty_hand_does_nothing() -> None:
    state = start(piles={"s3": ["embuscade-1"], "s4": ["conflit-1"]})
    decide(state, 1, "investigate", "s3")
    assert state.hands[1] == [] and state.discards == ["embuscade-1"]
    assert pending(state) == (2, "investigate")


def test_glancing_does_not_trigger_a_trap() -> None:
    """Deduction: the top two cards of a living suspect's pile; a Proof seen is logged
    without holder, a Trap seen does nothing."""
    state = start(piles={"s3": ["conflit-1"], "s4": ["serment-1", "proof-s5", "proof-s6"]})
    put(state, state.hands[1], "deduction-1")
    decide(state, 1, "investigate", "s3")
    mark = len(state.events)
    decide(state, 1, "after", ("deduction-1", "s4"))
    assert since(state, mark, "trap") == [] and pending(state) == (1, "after")
    assert log_of(state, 1, "proof") == [proof("s5")]
    assert state.observation(1).glanced == {"pile:s4": ("serment-1", "proof-s5")}
    assert state.piles["s4"] == ["serment-1", "proof-s5", "proof-s6"]


def test_reseau_glances_at_the_top_of_every_living_pile() -> None:
    state = start(
        piles={
            "s3": ["conflit-1"],
            "s4": ["proof-s5", "proof-s6"],
            "s6": ["embuscade-1"],
            "s7": ["proof-s7"],
        }
    )
    state.dead.append("s7")
    put(state, state.hands[1], "reseau-1")
    decide(state, 1, "investigate", "s3")
    decide(state, 1, "after", ("reseau-1", None))
    assert log_of(state, 1, "proof") == [proof("s5")]
    assert state.observation(1).glanced == {"pile:s4": ("proof-s5",), "pile:s6": ("embuscade-1",)}


def test_parler_a_glances_at_another_investigators_hand() -> None:
    state = start(piles={"s3": ["conflit-1"]})
    put(state, state.hands[1], "parler-a-1")
    put(state, state.hands[3], "proof-s5", "conflit-2", "proof-s6")
    decide(state, 1, "investigate", "s3")
    decide(state, 1, "after", ("parler-a-1", 3))
    assert log_of(state, 1, "proof") == [proof("s5", "dee"), proof("s6", "dee")]
    assert state.observation(1).glanced == {"hand:dee": ("proof-s5", "conflit-2", "proof-s6")}
    assert log_of(state, 3, "proof") == []


def test_serment_the_rector_glances_at_a_pile_and_reorders_it() -> None:
    state = start(
        piles={"s3": ["serment-1", "conflit-1"], "s5": ["conflit-2", "proof-s6", "proof-s7"]}
    )
    decide(state, 1, "investigate", "s3")
    assert pending(state) == (0, "serment")
    assert state.observation(0).context == {"player": "bob"}
    assert state.legal_actions() == [None, "s3", "s5"]
    mark = len(state.logs[0])
    decide(state, 0, "serment", "s5")
    assert state.logs[0][mark:] == [proof("s6"), proof("s7")]
    assert state.legal_actions() == ["conflit-2", "proof-s6", "proof-s7"]
    decide(state, 0, "reorder", "proof-s7")
    assert state.observation(0).context == {"suspect": "s5", "order": ("proof-s7",)}
    decide(state, 0, "reorder", "conflit-2")
    assert state.piles["s5"] == ["proof-s7", "conflit-2", "proof-s6"]
    assert state.discards == ["serment-1"] and pending(state) == (2, "investigate")


def test_serment_may_be_declined() -> None:
    state = start(piles={"s3": ["serment-1"], "s5": ["conflit-2", "proof-s6"]})
    decide(state, 1, "investigate", "s3")
    mark = len(state.events)
    decide(state, 0, "serment", None)
    assert since(state, mark, "glance") == [] and state.piles["s5"] == ["conflit-2", "proof-s6"]
    assert pending(state) == (2, "investigate")


# --------------------------------------------------------- the Lying Down


def test_round_one_has_no_lying_down_and_no_night() -> None:
    """No discussion, no accusation, no kill in round 1: Day, Twilight, Rising."""
    state = start()
    play_to(state, "twilight")
    assert state.round == 1 and state.phase == "twilight"
    decide(state, 0, "twilight", None)
    decide(state, 0, "discard", None)
    assert state.round == 2 and state.phase == "day"
    kinds = {e["type"] for e in state.events}
    assert not kinds & {"claim", "votes", "accuse", "night_kill", "kill"}


def test_claims_are_public_and_at_most_two() -> None:
    state = start()
    play_to(state, "claim")
    assert state.round == 2 and pending(state) == (2, "claim")  # the token passed to cai
    assert state.observation(2).context == {"made": 0}
    assert len(state.legal_actions()) == 15
    decide(state, 2, "claim", ("s3", True))
    decide(state, 2, "claim", ("s1", False))
    assert pending(state) == (3, "claim")
    decide(state, 3, "claim", None)
    assert pending(state) == (1, "claim")
    claims = [
        {"type": "claim", "player": "cai", "suspect": "s3", "innocent": True},
        {"type": "claim", "player": "cai", "suspect": "s1", "innocent": False},
    ]
    for seat in range(4):
        assert log_of(state, seat, "claim") == claims


@pytest.mark.parametrize(("n", "quorum"), [(5, 3), (4, 2), (3, 2)])
def test_accusation_quorum(n: int, quorum: int) -> None:
    """5p: at least 3 investigators agree; 4p: 2; 3p: both. Votes are secret; an
    incorrect accusation lets the game go on."""
    for agree in (quorum - 1, quorum):
        state = start(n)
        play_to(state, "vote")
        for i in range(n - 1):
            decide(state, pending(state)[0], "vote", ("s3", "s4") if i < agree else None)
        accused = [e for e in state.logs[0] if e["type"] == "accuse"]
        if agree < quorum:
            assert accused == [] and state.phase == "twilight"
        else:
            assert accused == [{"type": "accuse", "suspects": ["s3", "s4"], "correct": False}]
            assert not state.is_terminal() and state.phase == "twilight"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_correct_accusation_wins_for_the_investigators(n: int) -> None:
    state = start(n, possessed=1)
    play_to(state, "vote")
    while not state.is_terminal():
        decide(state, pending(state)[0], "vote", ACCOMPLICES)
    assert state.winner == "investigators" and state.round == 2
    assert state.winners() == [s for s in range(2, n)]
    assert state.returns() == [0.0, 0.0] + [1.0] * (n - 2)
    accuse = {"type": "accuse", "suspects": list(ACCOMPLICES), "correct": True}
    assert all(accuse in log for log in state.logs)


def test_three_players_a_reveal_of_two_real_investigators_loses() -> None:
    """A reveal forces the other's; both real investigators: the Rector wins at once."""
    state = start(3, possessed=None)
    play_to(state, "reveal_role")
    assert pending(state) == (2, "reveal_role") and state.legal_actions() == [False, True]
    decide(state, 2, "reveal_role", True)
    assert state.is_terminal() and state.winner == "rector" and state.winners() == [0]
    roles = [role("bob", "investigator"), role("cai", "investigator")]
    for log in state.logs:
        assert log[-4:] == roles + roles  # the reveal, then the end


def test_three_players_a_revealed_possessed_cannot_accuse() -> None:
    """The real investigator accuses alone; the Possessed no longer votes."""
    state = start(3, possessed=1)
    play_to(state, "reveal_role")
    decide(state, 2, "reveal_role", False)
    decide(state, 1, "reveal_role", True)
    assert state.revealed == {1: "possessed", 2: "investigator"}
    assert state.observation(0).revealed == {1: "possessed", 2: "investigator"}
    play_to(state, "vote")
    assert pending(state) == (2, "vote")
    decide(state, 2, "vote", ACCOMPLICES)
    assert state.winner == "investigators" and state.winners() == [2]


def test_three_players_no_reveal_question_after_a_reveal() -> None:
    """A reveal shows both roles at once: the other is not asked, nor anyone later."""
    state = start(3, possessed=2)
    play_to(state, "reveal_role")
    decide(state, 2, "reveal_role", True)
    assert pending(state) == (2, "claim")
    idled = play_to(state, "claim", rnd=3)
    assert "reveal_role" not in {name for _, name in idled}


# ------------------------------------------------------------ the Twilight


def test_twilight_play_one_discard_one_then_draw_back() -> None:
    state = start()
    play_to(state, "twilight")
    put(state, state.hands[0], "sermon-1", "veillee-1", "mac-snor")
    assert state.legal_actions() == [None, "sermon-1", "veillee-1"]  # the goal cannot be
    decide(state, 0, "twilight", "veillee-1")
    assert state.observation(0).context == {"left": 1}
    decide(state, 0, "discard", "sermon-1")
    assert len(state.hands[0]) == 3 and state.rector_discards == ["veillee-1", "sermon-1"]


def test_twilight_no_play_two_discards_and_the_pile_reshuffled() -> None:
    state = start()
    play_to(state, "twilight")
    put(state, state.hands[0], "sermon-1", "sermon-2", "mac-snor")
    put(state, state.rector_discards, "profanation-1")
    state.rector_pile.clear()
    decide(state, 0, "twilight", None)
    assert state.observation(0).context == {"left": 2}
    state.apply_action("sermon-1")
    assert state.observation(0).context == {"left": 1}
    mark = len(state.events)
    state.apply_action("sermon-2")
    assert since(state, mark, "rector_reshuffle") == [{"type": "rector_reshuffle", "cards": 3}]
    settle(state)
    assert len(state.hands[0]) == 3 and "mac-snor" in state.hands[0]
    assert len(state.rector_pile) == 1 and state.rector_discards == []


def test_mac_snor_only_with_three_innocents_dead_and_the_rector_wins_at_rising() -> None:
    state = start()
    play_to(state, "twilight", rnd=2)
    put(state, state.hands[0], "mac-snor", "glas", "sermon-1")
    state.dead += ["s3", "s4", "s1"]
    assert state.legal_actions() == [None, "sermon-1"]
    state.dead.append("s5")
    assert state.legal_actions() == [None, "mac-snor", "sermon-1"]
    decide(state, 0, "twilight", "mac-snor")
    goal = {"type": "goal", "card": "mac-snor", "condition": {"innocent_dead_at_least": 3}}
    assert all(log_of(state, s, "goal") == [goal] for s in range(4))
    play_to(state, None)
    assert state.winner == "rector" and state.round == 2 and state.winners() == [0]


def test_glas_from_round_four() -> None:
    state = start()
    play_to(state, "twilight", rnd=2)
    put(state, state.hands[0], "glas", "sermon-1", "sermon-2")
    state.dead += ["s3", "s4"]
    assert "glas" not in state.legal_actions()
    state.round = 4
    assert "glas" in state.legal_actions()


def test_sermon_blocks_the_glance_cards_until_the_next_lying_down() -> None:
    state = start(
        piles={"s3": ["conflit-1"], "s4": ["conflit-2"], "s5": ["conflit-3"], "s6": ["conflit-4"]}
    )
    play_to(state, "twilight")
    put(state, state.hands[0], "sermon-1", "sermon-2", "sermon-3")
    decide(state, 0, "twilight", "sermon-1")
    put(state, state.hands[2], "deduction-1", "reseau-1", "parler-a-1", "conflit-5")
    assert state.observation(2).blocked == ("parler-a", "deduction", "reseau")
    decide(state, 0, "discard", None)
    play_to(state, "before", 2)
    assert {a[0] for a in state.legal_actions() if a} == {"conflit-5"}
    play_to(state, "claim")
    assert state.observation(2).blocked == ()


def test_profanation_at_rising_glance_and_shuffle_the_graveyard() -> None:
    state = start(
        piles={
            "s3": ["conflit-1"],
            "s4": ["conflit-2"],
            "s5": ["conflit-3"],
            "s6": ["conflit-4", "conflit-5", "proof-s6"],
        }
    )
    play_to(state, "twilight", rnd=2)
    put(state, state.hands[0], "profanation-1", "sermon-1", "sermon-2")
    decide(state, 0, "twilight", "profanation-1")
    play_to(state, "rector_kill")
    decide(state, 0, "rector_kill", "s6")
    assert pending(state) == (0, "profanation")
    assert state.observation(0).glanced["graveyard"] == tuple(state.graveyard)
    assert state.logs[0][-1] == proof("s6")
    state.apply_action(True)
    assert state.is_chance_node() and state.pending()[1] == "dealt"
    settle(state)
    assert state.round == 3


def test_veillee_the_rector_kills_one_more() -> None:
    state = start(possessed=3)
    play_to(state, "twilight", rnd=2)
    put(state, state.hands[0], "veillee-1", "sermon-1", "sermon-2")
    decide(state, 0, "twilight", "veillee-1")
    play_to(state, "rector_kill")
    assert state.observation(0).context == {"extra": False}
    decide(state, 0, "rector_kill", "s7")
    assert state.observation(0).context == {"extra": True}
    assert "s7" not in state.legal_actions()
    decide(state, 0, "rector_kill", "s3")
    assert state.dead == ["s3", "s7"]


# --------------------------------------------------------------- the Night


def test_night_kills_are_announced_together_and_piles_go_to_the_graveyard() -> None:
    """The Possessed reveals themselves to the Rector by killing; then the Rector kills;
    the kills come out together in board order; the Graveyard is shuffled."""
    state = start(possessed=2)
    play_to(state, "possessed_kill", rnd=2)
    put(state, state.piles["s6"], "proof-s6", "conflit-3")
    put(state, state.piles["s7"], "proof-s7")
    assert pending(state) == (2, "possessed_kill")
    assert state.legal_actions() == [None, *default_suspect_ids()]
    state.apply_action("s7")
    assert state.logs[0][-1] == role("cai", "possessed")
    assert state.observation(0).possessed == 2 and state.observation(1).possessed is None
    assert log_of(state, 1, "role") == [role("bob", "investigator")]
    state.apply_action("s6")
    assert state.is_chance_node()
    assert state.pending()[2] == ("proof-s6", "conflit-3", "proof-s7")
    settle(state)
    kills = [{"type": "kill", "suspect": "s6"}, {"type": "kill", "suspect": "s7"}]
    assert all(log_of(state, s, "kill") == kills for s in range(4))
    assert state.dead == ["s6", "s7"] and state.piles["s6"] == state.piles["s7"] == []
    assert sorted(state.graveyard) == ["conflit-3", "proof-s6", "proof-s7"]


def test_without_a_possessed_only_the_rector_kills() -> None:
    state = start(3, possessed=None)
    idled = play_to(state, "rector_kill", rnd=2)
    assert "possessed_kill" not in {name for _, name in idled}


# --------------------------------------------------------------- the Rising


def test_the_possessed_wins_when_both_accomplices_are_dead_before_a_goal() -> None:
    state = start(possessed=3)
    play_to(state, "twilight", rnd=2)
    state.dead += ["s3", "s4", "s5"]
    put(state, state.hands[0], "mac-snor", "sermon-1", "sermon-2")
    decide(state, 0, "twilight", "mac-snor")
    play_to(state, "possessed_kill")
    decide(state, 3, "possessed_kill", "s1")
    decide(state, 0, "rector_kill", "s2")
    assert state.winner == "possessed" and state.winners() == [3]
    assert state.logs[1][-3:] == [
        role("bob", "investigator"),
        role("cai", "investigator"),
        role("dee", "possessed"),
    ]


def test_without_a_possessed_dead_accomplices_win_nothing() -> None:
    state = start(3, possessed=None)
    play_to(state, "rector_kill", rnd=2)
    state.dead.append("s1")
    decide(state, 0, "rector_kill", "s2")
    assert not state.is_terminal() and state.round == 3


def test_after_round_five_the_rector_wins() -> None:
    """Reading: nobody else won after round 5, so the Rector wins; 2 to 5 rounds."""
    state = start(5, possessed=4)
    play_to(state, None)
    assert state.winner == "rector" and state.round == 5 and state.winners() == [0]
    assert state.events[-1]["type"] == "end"


# -------------------------------------------------------------- whole games


def check_log(state: BlackRoseState, seat: int) -> None:
    """The log passes the reader and holds what the player saw, and it is true."""
    game = state.game
    player, log = game.players[seat], state.logs[seat]
    parse_jsonl(game.log_text(player, log), f"{player}.jsonl")
    assert {e["type"] for e in log} <= LOGGED
    others = [role(game.players[s], r) for s, r in sorted(state.roles.items()) if r != "rector"]
    assert log[-len(others) :] == others
    if seat == game.rector:
        innocent = [s for s in game.suspects if s not in state.accomplices]
        assert log[:5] == [proof(s) for s in innocent]
        if state.unmasked:
            assert role(game.players[state.possessed or 0], "possessed") in log[5 : -len(others)]
    else:
        assert log[0] == role(player, state.roles[seat])
    for event in log:
        if event["type"] == "proof":
            assert event["suspect"] not in state.accomplices
        if event["type"] == "accuse":
            assert event["correct"] == (tuple(event["suspects"]) == state.accomplices)
    assert [e["suspect"] for e in log if e["type"] == "kill"] == state.dead
    assert [e for e in log if e["type"] in PUBLIC] == [
        e for e in state.logs[0] if e["type"] in PUBLIC
    ]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_finish_with_valid_logs(n: int) -> None:
    game = BlackRoseGame.create(n, rector=n - 1)
    for i in range(200):
        state = play_game(game, f"blackrose-test:{n}:{i}", ["random"] * n, BOTS)
        assert state.is_terminal() and state.winner is not None
        assert 1 <= state.round <= 5 and state.winners()
        for seat in range(n):
            check_log(state, seat)


def test_the_same_seed_gives_the_same_game() -> None:
    game = BlackRoseGame.create(4)
    first = play_game(game, "same", ["random"] * 4, BOTS).events
    assert play_game(game, "same", ["random"] * 4, BOTS).events == first
    assert play_game(game, "other", ["random"] * 4, BOTS).events != first


def test_log_text_is_canonical() -> None:
    game = BlackRoseGame.create(3, rector=1)
    state = play_game(game, "text", ["random"] * 3, BOTS)
    text = game.log_text("cai", state.logs[2])
    assert text.splitlines()[0] == (
        '{"game": "blackrose", "version": 1, "players": ["ana", "bob", "cai"], "me": "cai", '
        '"rector": "bob", "suspects": ["s1", "s2", "s3", "s4", "s5", "s6", "s7"]}'
    )
    assert text.endswith("\n") and len(text.splitlines()) == len(state.logs[2]) + 1
