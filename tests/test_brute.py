"""Tests of the brute-force Abbey enumerator and of the random game generator."""

from __future__ import annotations

import random
from fractions import Fraction as F
from typing import Any

import pytest
from abbey_random import (
    Truth,
    corrupt,
    corrupted_games,
    deal_count,
    games,
    random_deck,
    random_game,
    seeds,
    size_options,
)
from hypothesis import HealthCheck, assume, given, settings
from oracles.abbey import (
    BruteResult,
    consistent_histories,
    enumerate_posterior,
    number_of_deals,
)

from deduce.logs.formats.abbey import TRAIT_GROUPS, AbbeySetup, deck_from_json
from deduce.logs.model import Event

PLAIN = ["benedictine", "father", "hooded", "bearded", "fat"]
TEMPLAR = ["templar", "father", "hooded", "bearded", "fat"]

fast = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def make_setup(
    ids: str, players: str, me: str | None, pile: int, hand: int, templars: str = ""
) -> AbbeySetup:
    deck = deck_from_json(
        [{"id": c, "traits": TEMPLAR if c in templars else PLAIN} for c in ids], "<test>"
    )
    return AbbeySetup(tuple(players.split()), me, deck, pile, hand)


def log(*events: tuple[str, dict[str, Any]]) -> list[Event]:
    out = []
    for line, (kind, fields) in enumerate(events, 2):
        out.append(
            Event(
                kind, {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}, line
            )
        )
    return out


def check_sums(result: BruteResult) -> None:
    if result.weight == 0:
        assert result.histories == 0 and not result.culprit and not result.holders
        return
    assert result.histories > 0
    assert sum(result.culprit.values()) == 1
    for by_holder in result.holders.values():
        assert sum(by_holder.values()) == 1
        assert all(p > 0 for p in by_holder.values())


# Hand-checked cases ---------------------------------------------------------------------


def test_empty_log_four_cards() -> None:
    setup = make_setup("abcd", "ana bob", "ana", pile=1, hand=1)
    r = enumerate_posterior(setup, [])
    assert r.weight == 1 and r.histories == 24 == number_of_deals(setup)
    assert r.culprit == {c: F(1, 4) for c in "abcd"}
    assert r.holders == {c: {h: F(1, 4) for h in ("culprit", "pile", "ana", "bob")} for c in "abcd"}


def test_own_hand() -> None:
    setup = make_setup("abcd", "ana bob", "ana", pile=1, hand=1)
    r = enumerate_posterior(setup, log(("hand", {"player": "ana", "cards": ["a"]})))
    assert r.weight == F(1, 4) and r.histories == 6
    assert r.culprit == {"b": F(1, 3), "c": F(1, 3), "d": F(1, 3)}
    assert r.holders["a"] == {"ana": 1}
    assert r.holders["b"] == {"culprit": F(1, 3), "pile": F(1, 3), "bob": F(1, 3)}


def test_draw_unknown_and_known() -> None:
    setup = make_setup("abcd", "ana bob", "ana", pile=1, hand=1)
    hand = ("hand", {"player": "ana", "cards": ["a"]})
    r = enumerate_posterior(setup, log(hand, ("draw", {"player": "bob"})))
    assert r.weight == F(1, 4) and r.histories == 6
    assert r.holders["b"] == {"culprit": F(1, 3), "bob": F(2, 3)}
    r = enumerate_posterior(setup, log(hand, ("draw", {"player": "ana", "card": "b"})))
    assert r.weight == F(1, 12) and r.histories == 2
    assert r.culprit == {"c": F(1, 2), "d": F(1, 2)}
    assert r.holders["b"] == {"ana": 1}
    assert r.holders["c"] == {"culprit": F(1, 2), "bob": F(1, 2)}


def test_take_unknown_card() -> None:
    # 5 cards, spectator; bob takes a random card of ana's two, then bob is seen holding a.
    setup = make_setup("abcde", "ana bob", None, pile=0, hand=2)
    r = enumerate_posterior(
        setup,
        log(("take", {"player": "bob", "from": "ana"}), ("has", {"player": "bob", "card": "a"})),
    )
    # a dealt to bob: 12 deals x 2 choices; a dealt to ana: 12 deals x the one right choice.
    assert r.histories == 36 and r.weight == F(3, 5)
    assert r.culprit == {c: F(1, 4) for c in "bcde"}
    assert r.holders["a"] == {"bob": 1}
    assert r.holders["b"] == {"culprit": F(1, 4), "ana": F(1, 4), "bob": F(1, 2)}


def test_mass_gave_got() -> None:
    setup = make_setup("abcde", "ana bob", "ana", pile=0, hand=2)
    events = log(
        ("hand", {"player": "ana", "cards": ["a", "b"]}),
        ("mass", {"n": 1, "gave": ["a"], "got": ["c"]}),
    )
    r = enumerate_posterior(setup, events)
    # P(ana dealt ab) 1/10 x P(ana passes a) 1/2 x P(bob has c) 2/3 x P(bob passes c) 1/2.
    assert r.weight == F(1, 60) and r.histories == 2
    assert r.culprit == {"d": F(1, 2), "e": F(1, 2)}
    assert r.holders["a"] == {"bob": 1}
    assert r.holders["c"] == {"ana": 1}
    assert r.holders["d"] == {"culprit": F(1, 2), "bob": F(1, 2)}


def test_mass_passes_to_the_left() -> None:
    # ana -> bob -> cai -> ana: ana receives from cai, her right-hand neighbour.
    setup = make_setup("abcd", "ana bob cai", "ana", pile=0, hand=1)
    events = log(
        ("hand", {"player": "ana", "cards": ["a"]}), ("mass", {"n": 1, "gave": ["a"], "got": ["b"]})
    )
    r = enumerate_posterior(setup, events)
    assert r.weight == F(1, 12) and r.histories == 2
    assert r.holders["a"] == {"bob": 1}
    assert r.holders["b"] == {"ana": 1}
    assert r.holders["c"] == {"culprit": F(1, 2), "cai": F(1, 2)}
    before = enumerate_posterior(setup, events[:1] + log(("has", {"player": "cai", "card": "b"})))
    assert before.weight == r.weight


def test_mass_with_short_hand() -> None:
    # ana has 1 card, bob 2 after his draw: at a mass of 2 each passes min(2, hand).
    setup = make_setup("abcde", "ana bob", "ana", pile=2, hand=1)
    r = enumerate_posterior(
        setup,
        log(
            ("hand", {"player": "ana", "cards": ["a"]}),
            ("draw", {"player": "bob"}),
            ("mass", {"n": 2, "gave": ["a"], "got": ["b", "c"]}),
        ),
    )
    # 4 histories of chance 1/60 x 1/2 x 1 x 1.
    assert r.weight == F(1, 30) and r.histories == 4
    assert r.culprit == {"d": F(1, 2), "e": F(1, 2)}
    assert r.holders["a"] == {"bob": 1}
    assert r.holders["b"] == {"ana": 1}
    assert r.holders["d"] == {"culprit": F(1, 2), "pile": F(1, 2)}
    r = enumerate_posterior(
        setup,
        log(
            ("hand", {"player": "ana", "cards": ["a"]}),
            ("draw", {"player": "bob"}),
            ("mass", {"n": 2, "gave": ["a"], "got": ["b"]}),
        ),
    )
    assert r.weight == 0


def test_count_and_show() -> None:
    setup = make_setup("abcd", "ana bob", "ana", pile=1, hand=1, templars="a")
    r = enumerate_posterior(setup, log(("count", {"player": "bob", "traits": ["templar"], "n": 0})))
    assert r.weight == F(3, 4)
    assert r.holders["a"] == {"culprit": F(1, 3), "pile": F(1, 3), "ana": F(1, 3)}
    r = enumerate_posterior(
        setup, log(("show", {"player": "bob", "to": "ana", "traits": ["templar", "fat"]}))
    )
    assert r.weight == F(1, 4) and r.holders["a"] == {"bob": 1}
    r = enumerate_posterior(setup, log(("show", {"player": "bob", "to": "ana", "card": "c"})))
    assert r.holders["c"] == {"bob": 1}
    assert r.culprit == {"a": F(1, 3), "b": F(1, 3), "d": F(1, 3)}


def test_accusations_and_culprit() -> None:
    setup = make_setup("abcd", "ana bob", "ana", pile=1, hand=1)
    r = enumerate_posterior(
        setup, log(("accuse", {"player": "ana", "card": "b", "correct": False, "shown_by": "bob"}))
    )
    assert r.weight == F(1, 4) and r.holders["b"] == {"bob": 1}
    r = enumerate_posterior(
        setup, log(("accuse", {"player": "ana", "card": "b", "correct": False}))
    )
    assert r.weight == F(3, 4) and "b" not in r.culprit
    for event in (
        ("accuse", {"player": "ana", "card": "b", "correct": True}),
        ("culprit", {"card": "b"}),
    ):
        r = enumerate_posterior(setup, log(event))
        assert r.weight == F(1, 4) and r.culprit == {"b": 1}


@pytest.mark.parametrize(
    "events",
    [
        [("has", {"player": "ana", "card": "a"}), ("lacks", {"player": "ana", "card": "a"})],
        [("draw", {"player": "ana"}), ("draw", {"player": "bob"})],  # the pile had one card
        [("take", {"player": "ana", "from": "bob"}), ("take", {"player": "ana", "from": "bob"})],
        [("hand", {"player": "ana", "cards": ["a", "b"]})],
        [("culprit", {"card": "a"}), ("has", {"player": "bob", "card": "a"})],
    ],
)
def test_inconsistent_logs_have_weight_zero(events: list[tuple[str, dict[str, Any]]]) -> None:
    setup = make_setup("abcd", "ana bob", "ana", pile=1, hand=1)
    r = enumerate_posterior(setup, log(*events))
    assert r == BruteResult(F(0), 0) and not r.consistent
    assert list(consistent_histories(setup, log(*events))) == []


def test_bad_input_is_an_error() -> None:
    setup = make_setup("abcd", "ana bob", "ana", pile=1, hand=1)
    for events in (
        log(("has", {"player": "ana", "card": "z"})),
        log(("draw", {"player": "zed"})),
        log(("shuffle", {})),
    ):
        with pytest.raises(ValueError):
            enumerate_posterior(setup, events)


def test_histories_list_each_state() -> None:
    setup = make_setup("abcd", "ana bob", "ana", pile=1, hand=1)
    events = log(("hand", {"player": "ana", "cards": ["a"]}), ("draw", {"player": "bob"}))
    found = list(consistent_histories(setup, events))
    assert len(found) == 6 and sum(w for w, _ in found) == F(1, 4)
    for _, history in found:
        assert len(history) == 3
        assert history[0]["a"] == "ana"
        pile_card = next(c for c, h in history[1].items() if h == "pile")
        assert history[2][pile_card] == "bob"


@pytest.mark.parametrize("seed", range(4))
def test_empty_log_is_the_prior(seed: int) -> None:
    rng = random.Random(seed)
    n_players = 2 + seed % 2
    n = rng.randint(6, 8)
    pile, hand = rng.choice(size_options(n, n_players, 20_000))
    setup = AbbeySetup(("ana", "bob", "cai")[:n_players], None, random_deck(rng, n), pile, hand)
    r = enumerate_posterior(setup, [])
    assert r.weight == 1 and r.histories == number_of_deals(setup)
    assert r.histories == deal_count(n, n_players, pile, hand)
    assert r.culprit == {c: F(1, n) for c in setup.deck.ids}
    assert r.holders[setup.deck.ids[0]].get("pile", 0) == F(pile, n)
    assert r.holders[setup.deck.ids[0]]["bob"] == F(hand, n)


# The random generator --------------------------------------------------------------------


def test_random_deck() -> None:
    deck = random_deck(random.Random(1), 9)
    assert deck.ids == tuple(f"c{i}" for i in range(9))
    assert all(len(c.traits) == len(TRAIT_GROUPS) for c in deck.cards)
    with pytest.raises(ValueError):
        random_deck(random.Random(1), 24)


@pytest.mark.parametrize("seed", range(30))
def test_random_game_shape(seed: int) -> None:
    setup, events, truth = random_game(random.Random(seed))
    n = len(setup.deck)
    assert 6 <= n <= 9 and len(setup.players) in (2, 3)
    assert n == 1 + setup.pile + len(setup.players) * setup.hand
    assert number_of_deals(setup) <= 20_000
    assert [e.line for e in events] == list(range(2, len(events) + 2))
    if setup.me is not None:
        assert events[0].type == "hand" and events[0].get("player") == setup.me
    assert isinstance(truth, Truth) and truth.holders[truth.culprit] == "culprit"
    assert set(truth.holders) == set(setup.deck.ids)
    for event in events:
        assert all(not isinstance(v, list) for v in event.fields.values())
        if event.type == "mass":
            assert ("gave" in event.fields) == (setup.me is not None)
        if event.type in ("draw", "take"):
            party = setup.me is not None and setup.me in (event.get("player"), event.get("from"))
            assert ("card" in event.fields) == party
    broken = corrupt(random.Random(seed), events, setup)
    assert [e.line for e in broken] == [e.line for e in events]
    assert sum(a != b for a, b in zip(broken, events, strict=True)) <= 1
    assert len(corrupt(random.Random(seed), events)) == len(events)


# Properties ------------------------------------------------------------------------------


@settings(fast, max_examples=200)
@given(games())
def test_truth_is_always_possible(game: tuple[AbbeySetup, list[Event], Truth]) -> None:
    setup, events, truth = game
    r = enumerate_posterior(setup, events)
    assert r.weight > 0
    check_sums(r)
    assert r.culprit[truth.culprit] > 0
    for card, holder in truth.holders.items():
        assert r.holders[card][holder] > 0


@settings(fast, max_examples=150)
@given(corrupted_games())
def test_corrupted_logs_are_handled(game: tuple[AbbeySetup, list[Event], Truth]) -> None:
    setup, events, _ = game
    check_sums(enumerate_posterior(setup, events))


@settings(fast, max_examples=60)
@given(games(max_cards=8, max_events=6), seeds)
def test_splitting_on_an_observation_adds_up(
    game: tuple[AbbeySetup, list[Event], Truth], seed: int
) -> None:
    # P(log) = P(log, has) + P(log, lacks) = sum over n of P(log, count = n).
    setup, events, _ = game
    rng = random.Random(seed)
    card = rng.choice(setup.deck.ids)
    player = rng.choice(setup.players)
    line = len(events) + 2
    base = enumerate_posterior(setup, events)
    has = enumerate_posterior(
        setup, [*events, Event("has", {"player": player, "card": card}, line)]
    )
    lacks = enumerate_posterior(
        setup, [*events, Event("lacks", {"player": player, "card": card}, line)]
    )
    assert has.weight + lacks.weight == base.weight
    assert has.histories + lacks.histories == base.histories
    assert base.holders[card].get(player, 0) == has.weight / base.weight
    traits = tuple(rng.sample(sorted(setup.deck.card(card).traits), rng.choice((1, 2))))
    counts = [
        enumerate_posterior(
            setup, [*events, Event("count", {"player": player, "traits": traits, "n": n}, line)]
        )
        for n in range(len(setup.deck))
    ]
    assert sum(c.weight for c in counts) == base.weight


@settings(fast, max_examples=60)
@given(games(max_cards=7, max_events=5, spectator_rate=0.0))
def test_history_listing_matches_forward_pass(game: tuple[AbbeySetup, list[Event], Truth]) -> None:
    setup, events, _ = game
    r = enumerate_posterior(setup, events)
    assume(r.histories <= 3000)
    listed = list(consistent_histories(setup, events))
    assert len(listed) == r.histories
    assert sum(w for w, _ in listed) == r.weight
    culprit: dict[str, F] = {}
    for weight, history in listed:
        (card,) = [c for c, h in history[-1].items() if h == "culprit"]
        culprit[card] = culprit.get(card, F(0)) + weight / r.weight
        assert all(len(step) == len(setup.deck) for step in history)
    assert culprit == r.culprit
