"""``why``: the answer is ruled out by a minimal set, and by a smallest one, checked by brute force.

Every game's answer is checked against its brute-force reference, which
shares no code with the solvers: the set rules the answer out, removing any
one of its events makes the answer possible again, and no smaller set of
the log's events rules it out (all subsets are enumerated).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from itertools import combinations

import pytest
from abbey_random import random_game
from oracles.abbey import TRANSFERS, enumerate_posterior
from oracles.blackrose import brute_joint
from oracles.rose import weighted_deals

from deduce.assist.why import why
from deduce.errors import DeduceError
from deduce.logs.formats.abbey import AbbeySetup
from deduce.logs.formats.rose import COLOURS
from deduce.logs.io import parse_log, read_log
from deduce.logs.model import Event, GameLog, Header
from deduce.subsets import smallest

Possible = Callable[[Collection[int]], bool]


def _check(
    pool: Sequence[int], possible_with: Possible, answer_lines: Sequence[int], proved: bool
) -> None:
    """The answer rules the target out, minimally, and no smaller subset of ``pool`` does."""
    assert not possible_with(answer_lines)
    for line in answer_lines:
        assert possible_with([k for k in answer_lines if k != line])
    for size in range(len(answer_lines)):
        assert all(possible_with(subset) for subset in combinations(pool, size))
    assert proved


# ---------------------------------------------------------------------- the search itself


def test_smallest_finds_a_smaller_set_than_a_minimal_one():
    def conflicts(kept: Sequence[int]) -> bool:
        return {1, 2} <= set(kept) or 3 in kept

    assert smallest([1, 2, 3], conflicts, [1, 2]) == ((3,), True)
    assert smallest([1, 2, 3], conflicts, [3]) == ((3,), True)
    assert smallest([1, 2, 3], conflicts, [1, 2], deadline=0.0) == ((1, 2), False)


# ---------------------------------------------------------------------- abbey


def _abbey_log(setup: AbbeySetup, events: Sequence[Event]) -> GameLog:
    header = Header(
        "abbey",
        setup.players,
        setup.me,
        extra={"deck": setup.deck.to_json(), "pile": setup.pile, "hand": setup.hand},
    )
    return GameLog(header, tuple(events), "<random>")


def _abbey_possible(
    setup: AbbeySetup, events: Sequence[Event], pool: Collection[int], hypothesis: Event
) -> Possible:
    """Brute force: is the hypothesis possible when only the ``kept`` lines of the pool count?"""

    def possible(kept: Collection[int]) -> bool:
        chosen = []
        for event in events:
            if event.line in pool and event.line not in kept:
                if event.type not in TRANSFERS:
                    continue
                event = Event(
                    event.type,
                    {k: v for k, v in event.fields.items() if k not in ("card", "gave", "got")},
                    event.line,
                )
            chosen.append(event)
        return enumerate_posterior(setup, [*chosen, hypothesis]).consistent

    return possible


def test_abbey_why_on_the_bundled_example():
    log = read_log("examples/abbey-4p.log")
    answer = why(log, ["matteo"])
    assert answer.statement == "matteo is the culprit"
    assert not answer.possible and answer.smallest
    assert [(e.line, e.type, e.get("got")) for e in answer.events] == [(25, "mass", ("matteo",))]
    assert why(log, ["aymeric"]).possible
    with pytest.raises(DeduceError, match="unknown card 'aymerik' \\(did you mean 'aymeric'\\?\\)"):
        why(log, ["aymerik"])
    with pytest.raises(DeduceError, match="unknown player 'bobb'"):
        why(log, ["aymeric", "bobb"])
    with pytest.raises(DeduceError, match=r"usage: why CARD \[PLAYER\]"):
        why(log, [])


@pytest.mark.parametrize("seed", range(12))
def test_abbey_why_is_minimal_and_smallest_by_brute_force(seed):
    rng = random.Random(seed)
    setup, events, _ = random_game(rng, min_cards=6, max_cards=8, max_deals=3000, max_events=7)
    log = _abbey_log(setup, events)
    truth = enumerate_posterior(setup, events)
    pool = [
        e.line for e in events if e.type not in TRANSFERS or {"card", "gave", "got"} & set(e.fields)
    ]
    line = max(e.line for e in events) + 1
    queries = [
        ([card], Event("culprit", {"card": card}, line))
        for card in setup.deck.ids
        if card not in truth.culprit
    ]
    queries += [
        ([card, player], Event("has", {"player": player, "card": card}, line))
        for card in setup.deck.ids
        for player in setup.players
        if player not in truth.holders[card]
    ][:4]
    for words, hypothesis in queries:
        answer = why(log, words, deadline=None)
        assert not answer.possible
        possible = _abbey_possible(setup, events, pool, hypothesis)
        _check(pool, possible, [e.line for e in answer.events], answer.smallest)
    for card in truth.culprit:
        assert why(log, [card]).possible


# ---------------------------------------------------------------------- rose


def _random_rose(rng: random.Random) -> GameLog:
    players = ("ana", "bob", "cai")
    deal = dict(zip(players, rng.sample(COLOURS, 3)))
    hidden = {p: [c for c in COLOURS if c != deal[p]] for p in players}
    lines = [f"identity ana {deal['ana']}"]
    for _ in range(rng.randint(6, 14)):
        player = rng.choice(players)
        if rng.random() < 0.1:
            lines.append(f"identity {player} {deal[player]}")
        elif hidden[player]:
            colour = hidden[player].pop(rng.randrange(len(hidden[player])))
            lines.append(f"reveal {player} {colour}")
    return parse_log(
        "game rose\nplayers ana bob cai\nme ana\n" + "\n".join(lines) + "\n", "<random>"
    )


@pytest.mark.parametrize("seed", range(40))
def test_rose_why_is_minimal_and_smallest_by_brute_force(seed):
    log = _random_rose(random.Random(seed))
    pool = [e.line for e in log.events]
    for player in log.header.players:
        for colour in COLOURS:

            def possible(kept: Collection[int], player: str = player, colour: str = colour) -> bool:
                sub = GameLog(log.header, tuple(e for e in log.events if e.line in kept))
                index = log.header.players.index(player)
                return any(deal[index] == colour for deal, _ in weighted_deals(sub))

            answer = why(log, [player, colour], deadline=None)
            assert answer.possible == possible(pool)
            if not answer.possible:
                _check(pool, possible, [e.line for e in answer.events], answer.smallest)


def test_rose_why_errors_and_an_inconsistent_log():
    log = parse_log("game rose\nplayers ana bob\nme ana\nreveal bob red\nreveal bob red\n", "g")
    with pytest.raises(DeduceError, match="the log itself is inconsistent"):
        why(log, ["bob", "blue"])
    log = parse_log("game rose\nplayers ana bob\nme ana\n", "g")
    with pytest.raises(DeduceError, match="unknown colour 'pink'"):
        why(log, ["bob", "pink"])
    with pytest.raises(DeduceError, match="usage: why PLAYER COLOUR"):
        why(log, ["bob"])


# ---------------------------------------------------------------------- blackrose


def _random_blackrose(rng: random.Random) -> GameLog:
    """Proofs of a few innocents, wrong accusations among the rest, roles, kills and Goals."""
    suspects = [f"s{i}" for i in range(1, 8)]
    pair = sorted(rng.sample(suspects, 2))
    possessed = rng.choice(["bob", "cai", "dee"])
    proved = rng.sample([s for s in suspects if s not in pair], rng.randint(1, 5))
    open_pairs = [
        p for p in combinations(sorted(set(suspects) - set(proved)), 2) if list(p) != pair
    ]
    lines = [f"proof {s}" for s in proved]
    lines += [
        f"accuse {a} {b} wrong"
        for a, b in rng.sample(open_pairs, min(len(open_pairs), rng.randint(0, 4)))
    ]
    lines += [
        f"role {p} {'possessed' if p == possessed else 'investigator'}"
        for p in rng.sample(["bob", "cai", "dee"], rng.randint(0, 2))
    ]
    rng.shuffle(lines)
    dead = rng.sample(suspects, rng.randint(0, 3))
    lines += [f"kill {s}" for s in dead]
    innocent = len(set(dead) - set(pair))
    if innocent and rng.random() < 0.7:
        lines.append(f"goal mac-snor innocent_dead_at_least {rng.randint(1, innocent)}")
    return parse_log(
        "game blackrose\nplayers ana bob cai dee\nme ana\nrector ana\n" + "\n".join(lines) + "\n",
        "<random>",
    )


@pytest.mark.parametrize("seed", range(30))
def test_blackrose_why_is_minimal_and_smallest_by_brute_force(seed):
    log = _random_blackrose(random.Random(seed))
    pool = [e.line for e in log.events if e.type != "kill"]

    def states(kept: Collection[int]) -> dict:
        sub = GameLog(
            log.header, tuple(e for e in log.events if e.type == "kill" or e.line in kept)
        )
        return brute_joint(sub) or {}

    targets = [(s, lambda h, s=s: s in h.pair) for s in (f"s{i}" for i in range(1, 8))]
    targets += [(p, lambda h, p=p: h.possessed == p) for p in ("bob", "cai", "dee")]
    for word, holds in targets:

        def possible(kept: Collection[int], holds: Callable = holds) -> bool:
            return any(holds(h) for h in states(kept))

        answer = why(log, [word], deadline=None)
        assert answer.possible == possible(pool)
        if not answer.possible:
            _check(pool, possible, [e.line for e in answer.events], answer.smallest)


def test_blackrose_why_the_rector_needs_no_event():
    log = parse_log("game blackrose\nplayers ana bob cai\nme bob\nrector ana\nproof s1\n", "g")
    answer = why(log, ["ana"])
    assert (answer.statement, answer.possible, answer.events) == ("ana is the Possessed", False, ())
    assert why(log, ["s2"]).possible
    answer = why(log, ["s1"])
    assert (answer.statement, [e.line for e in answer.events]) == ("s1 is an accomplice", [5])
    with pytest.raises(DeduceError, match="unknown suspect 's9'"):
        why(log, ["s9"])
