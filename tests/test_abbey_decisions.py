"""The advisor of every Abbey decision: values against brute force, defence by hand, the bot.

- Attack: over every possible final state of a tiny game, each with its
  brute-force posterior, the ranker's bits for each question and random card
  equal the expected fall of the culprit's entropy, worked out directly.
- Defence: on a hand-worked position, the card the asker has already seen is
  advised, for a "show", a "yes" and a Mass pass.
- The ``advised`` bot plays whole games (the engine refuses any illegal
  action), the same game for the same seed.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from fractions import Fraction

import pytest
from abbey_random import games
from click.testing import CliRunner
from hypothesis import given, settings
from oracles.abbey import consistent_histories

from deduce.cli.main import cli
from deduce.games.abbey.advice.advisor import Ranker
from deduce.games.abbey.advice.decisions import Choice, Position, ranked
from deduce.games.abbey.advice.defence import leak, sheets, suspects
from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.sim.advised import DECISIONS, KEPT_PLAIN, AdvisedBot, advised_variants
from deduce.games.abbey.sim.simulate import BOTS
from deduce.games.abbey.solver.timeline import build_timeline
from deduce.games.simulate import play_game
from deduce.logs.formats.abbey import TRAITS, AbbeySetup, setup_from_header
from deduce.logs.jsonl import parse_jsonl

checks = settings(deadline=None, max_examples=30, derandomize=True)
LISTABLE = {"min_cards": 6, "max_cards": 8, "max_deals": 3_000, "max_events": 8}


def _states(setup: AbbeySetup, events) -> dict[tuple[str, ...], Fraction]:
    weights: dict[tuple[str, ...], Fraction] = defaultdict(Fraction)
    for weight, path in consistent_histories(setup, events):
        weights[tuple(path[-1][c] for c in setup.deck.ids)] += weight
    return weights


def _entropy(weights: dict[object, float]) -> float:
    total = sum(weights.values())
    return -sum(w / total * math.log2(w / total) for w in weights.values() if w > 0)


def _expected_fall(states, answer) -> float:
    """H(culprit) less the expected H(culprit | answer), ``answer(state)`` -> {answer: share}."""
    culprit: dict[object, float] = defaultdict(float)
    given_answer: dict[object, dict[object, float]] = defaultdict(lambda: defaultdict(float))
    for state, w in states.items():
        c = state.index("culprit")
        culprit[c] += float(w)
        for a, share in answer(state).items():
            given_answer[a][c] += float(w) * share
    total = sum(culprit.values())
    after = sum(sum(row.values()) / total * _entropy(row) for row in given_answer.values())
    return _entropy(culprit) - after


@checks
@given(games(**LISTABLE))
def test_bits_are_brute_force_expected_entropy_falls(game):
    setup, events, _ = game
    states = _states(setup, events)
    holders = build_timeline(setup, events, "<game>").holders
    index = {name: h for h, name in enumerate(holders)}
    ranker = Ranker(
        setup,
        [tuple(index[h] for h in s) for s in states],
        holders,
        0,
        weights=[float(w) for w in states.values()],
    )
    deck = setup.deck
    for h, name in enumerate(holders):
        if name in ("culprit", setup.me):
            continue
        for trait in TRAITS:

            def count(state, trait=trait, name=name):
                return {
                    sum(
                        deck.card(c).has_traits((trait,))
                        for c, held in zip(deck.ids, state)
                        if held == name
                    ): 1.0
                }

            assert ranker.question(h, ("count", (trait,))) == pytest.approx(
                _expected_fall(states, count), abs=1e-9
            )
        for card in deck.ids:
            x = deck.ids.index(card)
            assert ranker.question(h, ("has", card)) == pytest.approx(
                _expected_fall(states, lambda s, x=x, name=name: {s[x] == name: 1.0}), abs=1e-9
            )

        def one_card(state, name=name):
            held = [c for c, holder in zip(deck.ids, state) if holder == name]
            return {c: 1 / len(held) for c in held} or {None: 1.0}

        assert ranker.random_card(h) == pytest.approx(_expected_fall(states, one_card), abs=1e-9)


# ------------------------------------------------------------------ defence

#: ana showed aymeric to bob; she also holds baldwin, a templar bob has never seen.
SHOWN_LOG = [
    {"game": "abbey", "version": 1, "players": ["ana", "bob", "cai", "dee"], "me": "ana"},
    {
        "type": "hand",
        "player": "ana",
        "cards": ["aymeric", "baldwin", "ignatius", "jacopo", "leonardo"],
    },
    {"type": "show", "player": "ana", "to": "bob", "card": "aymeric"},
]


def _write(tmp_path, lines) -> str:
    path = tmp_path / "ana.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return str(path)


def _situation(tmp_path, situation: str) -> dict:
    result = CliRunner().invoke(
        cli,
        [
            "suggest",
            _write(tmp_path, SHOWN_LOG),
            "--situation",
            situation,
            "--json",
            "--budget",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["situation"]


def test_the_card_already_seen_is_shown(tmp_path):
    lines = [
        {"type": e["type"], **{k: v for k, v in e.items() if k != "type"}} for e in SHOWN_LOG[1:]
    ]
    known = sheets(lines, "ana", ["ana", "bob", "cai", "dee"])
    assert known == {"bob": {"aymeric"}, "cai": set(), "dee": set()}
    # bob's paper sheet: 24 cards less the one he saw and his 5 cards
    assert suspects(known["bob"], 24, 5) == 18
    assert leak(known["bob"], "aymeric", 24, 5) == 0
    assert leak(known["bob"], "baldwin", 24, 5) == pytest.approx(math.log2(18 / 17))
    situation = _situation(tmp_path, "show bob templar")
    assert [c["action"] for c in situation["choices"]] == ["show aymeric", "show baldwin"]
    assert all(c["exact"] and c["error"] == 0 for c in situation["choices"])


def test_a_yes_gives_away_a_card_and_a_no_nothing(tmp_path):
    yes = _situation(tmp_path, "asked bob has baldwin")["choices"]
    answer = next(c for c in yes if c["action"].startswith("answer"))
    # the table sees baldwin: bob (18 suspects), cai and dee (19 each) each lose one
    assert answer["given_away"] == pytest.approx(math.log2(18 / 17) + 2 * math.log2(19 / 18))
    no = _situation(tmp_path, "asked bob has matteo")["choices"]
    assert no[0]["action"].startswith("answer") and no[0]["given_away"] == 0
    count = _situation(tmp_path, "asked bob count templar")["choices"]
    assert count[0]["action"].startswith("answer") and count[0]["given_away"] == 0


def test_mass_passes_what_the_left_neighbour_knows(tmp_path):
    situation = _situation(tmp_path, "mass 1")
    assert situation["choices"][0]["action"] == "pass aymeric"
    assert situation["choices"][0]["given_away"] == 0
    assert [c["given_away"] for c in situation["choices"][1:]] == pytest.approx(
        [math.log2(18 / 17)] * 4
    )


@pytest.mark.parametrize(
    "situation, message",
    [
        ("asked zed has baldwin", "'zed' is not another player"),
        ("asked ana has baldwin", "'ana' is not another player"),
        ("asked bob has nobody", "unknown card 'nobody'"),
        ("show bob purple", "unknown trait 'purple'"),
        ("show bob benedictine", "you hold no card with benedictine"),
        ("mass zero", "expected mass N"),
        ("dance", "expected asked PLAYER"),
    ],
)
def test_bad_situations_are_one_line_errors(tmp_path, situation, message):
    result = CliRunner().invoke(
        cli, ["suggest", _write(tmp_path, SHOWN_LOG), "--situation", situation]
    )
    assert result.exit_code != 0
    assert message in str(result.exception)
    assert len(str(result.exception).splitlines()) == 1


def test_choices_rank_by_value():
    best = ranked([Choice(("a",), 1.0, 0.9), Choice(("b",), 0.5, 0.0), Choice(("c",), 0.5)])
    assert [c.action for c in best] == [("b",), ("c",), ("a",)]


def test_reply_weighs_the_question_back_against_the_yes():
    log = parse_jsonl(json.dumps(SHOWN_LOG[0]) + "\n", "ana.jsonl")
    setup = setup_from_header(log.header, log.path)
    holders = ("culprit", "pile", "ana", "bob", "cai", "dee")
    # two equally likely worlds: the culprit is matteo or nicola, and bob holds the other
    ids = setup.deck.ids
    world = [2] * len(ids)
    a, b = ids.index("matteo"), ids.index("nicola")
    first, second = list(world), list(world)
    first[a], first[b] = 0, 3
    second[a], second[b] = 3, 0
    ranker = Ranker(setup, [tuple(first), tuple(second)], holders, 0, weights=[1, 1])
    lines = [{"type": "hand", "player": "ana", "cards": ["baldwin"]}]
    position = Position(
        setup, lambda: ranker, lines, holders, {p: 5 for p in holders[2:]}, exact=True
    )
    # a "yes" to baldwin costs about a quarter bit; the question back settles the culprit
    reply = position.reply("bob", ("has", "baldwin"), ["baldwin"])
    assert reply[0].action == ("answer",) and reply[0].bits == pytest.approx(1.0)
    assert reply[0].leak == pytest.approx(3 * math.log2(19 / 18))
    assert position.reply("bob", ("has", "matteo"), ["baldwin"])[0].action == ("answer",)


# ------------------------------------------------------------------ the bot


def test_the_advised_bot_plays_legal_deterministic_games():
    game = AbbeyGame.create(4, max_turns=60)
    lineup = ["advised", "notepad", "random", "advised"]
    first = play_game(game, "advised-test", lineup, BOTS)
    again = play_game(game, "advised-test", lineup, BOTS)
    assert first.events == again.events
    assert first.turns <= 60 and first.is_terminal()


def test_every_advised_variant_plays():
    game = AbbeyGame.create(3, max_turns=30)
    bots = {**BOTS, **advised_variants()}
    assert set(advised_variants()) == {f"advised-plain-{d}" for d in DECISIONS} | {"advised-all"}
    for name in advised_variants():
        assert play_game(game, name, [name, "notepad", "random"], bots).is_terminal()
    with pytest.raises(ValueError, match="unknown decisions"):
        AdvisedBot(game, 0, ("dance",))


def test_a_lineup_may_hand_several_decisions_back_at_once():
    game = AbbeyGame.create(3, max_turns=30)
    variants = advised_variants(["advised-plain-ask+pass", "notepad"])
    assert set(variants) == (
        {f"advised-plain-{d}" for d in DECISIONS} | {"advised-plain-ask+pass", "advised-all"}
    )
    bot = variants["advised-plain-ask+pass"](game, 0)
    assert isinstance(bot, AdvisedBot) and bot.plain == {"ask", "pass"}
    every = variants["advised-all"](game, 0)
    assert isinstance(every, AdvisedBot) and every.plain == set()


def test_the_advised_bot_keeps_the_plain_play_where_the_advice_did_not_win():
    game = AbbeyGame.create(3, max_turns=30)
    bot = BOTS["advised"](game, 0)
    assert isinstance(bot, AdvisedBot) and bot.plain == set(KEPT_PLAIN)
    assert {"move", "pass", "reveal"}.isdisjoint(bot.plain)
