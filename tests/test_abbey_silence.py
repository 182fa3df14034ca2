"""The others' silence and questions: the likelihood of histories, against a paper-sheet reference.

The reference reads each opponent's sheet card by card from a brute-force
history, as the notepad bot crosses cards out (its hands, the cards shown
to it by name, "has" answers and wrong accusations), counts the questions
asked while a sheet that has not accused holds one card, and gives the
chance of each question whose asker the log tells, as the notepad bot
asks, from that sheet.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from test_abbey_opponents import _array, _game, _mine, _within_bound

from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.rules.observe import asked_log
from deduce.games.abbey.sim.bots import ASKED_TRAITS, imbalance
from deduce.games.abbey.sim.simulate import play, record_game
from deduce.games.abbey.solver.chains import plan_chains
from deduce.games.abbey.solver.gibbs import Blocks, Compiled, Layout, Walk, compiled
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.opponents import culprit_of
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.silence import (
    ANY,
    Silence,
    Tilted,
    askers,
    wait_of,
    weighable,
)
from deduce.games.abbey.solver.silence import compiled as silence_compiled
from deduce.games.abbey.solver.timeline import AbbeyPosition
from deduce.logs.io import parse_log
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import Event


def _reference(position, history):
    """The waiting questions of a history (each card's holder index at every epoch), and the
    log of the chance of the questions whose askers the log tells."""
    setup, timeline = position.setup, position.timeline
    ids = setup.deck.ids
    opponents = [p for p in setup.players if p != setup.me]
    asked = askers(list(position.events))
    public: set[str] = set()
    shown: set[tuple[str, str]] = set()  # (to, card)
    accused: set[str] = set()
    waiting, chances = 0, 0.0
    for i, event in enumerate(position.events):
        epoch = timeline.epoch_of[event.line]
        if event.type in ("has", "lacks", "count"):
            for player in opponents:
                mine = timeline.holder(player)
                sheet = [
                    c
                    for k, c in enumerate(ids)
                    if c not in public
                    and (player, c) not in shown
                    and all(history[k, e] != mine for e in range(epoch + 1))
                ]
                waiting += len(sheet) == 1 and player not in accused
                if asked.get(i) == player:
                    chances += math.log(_asking(event, sheet, setup.deck))
        if event.type == "has" or (event.type == "accuse" and not event.get("correct")):
            public.add(event.get("card"))
        if event.type == "show" and "card" in event.fields:
            shown.add((event.get("to"), event.get("card")))
        if event.type == "accuse":
            accused.add(event.get("player"))
    return waiting, chances


def _asking(event, sheet, deck):
    """The chance of a question from a sheet: the notepad bot's, one time in ``1 / ANY`` any."""
    if event.type == "count":
        traits = event.get("traits")
        offs = {t: imbalance(deck, sheet, t) for t in ASKED_TRAITS}
        tied = [t for t in ASKED_TRAITS if offs[t] == min(offs.values())]
        share = 0.5 if len(sheet) > 1 else 1.0
        notepad = share * (len(traits) == 1 and traits[0] in tied) / len(tied)
        anything = 0.5 / len(ASKED_TRAITS)
    else:
        notepad = 0.5 / len(sheet) if len(sheet) > 1 and event.get("card") in sheet else 0.0
        anything = 0.5 / len(deck.ids)
    return (1 - ANY) * notepad + ANY * anything


def _histories():
    """Positions with histories: every history of tiny logs, and SAT witnesses late in
    simulated four-player games (where sheets come down to one card)."""
    for seed in range(80):
        position = _game(seed)
        if position is not None:
            yield position, [_array(position, states) for _, states in _mine(position)[:30]]
    game = AbbeyGame.create(4)
    for index in range(1, 4):
        record = record_game(game, index, 5, ("notepad",) * 4)
        me = record.truth["players"][0]
        log = parse_jsonl(record.logs[me], f"{me}.jsonl", game.deck)
        events = [e for e in log.events if e.type != "accuse" or not e.get("correct")]
        for end in (len(events) * 2 // 3, len(events)):
            position = AbbeyPosition.of_log(log, game.deck).with_events(events[:end])
            sat = sat_model(position)
            found = sat.witnesses(sat.closure(), 10, random.Random(index))
            yield position, [np.array(h, dtype=np.int8) for h in found]


@pytest.mark.parametrize("kernel", ["numpy", "compiled"])
def test_the_waiting_questions_and_the_asking_match_a_paper_sheet_reference(kernel):
    """In every history checked, the numpy and the compiled sums are the reference's."""
    if kernel == "compiled" and not silence_compiled():
        pytest.skip("the compiled kernel was not built here")
    counts, asking = [], []
    for position, histories in _histories():
        law = Silence(position)
        for history in histories:
            waiting, chances = _reference(position, history)
            assert law.waiting(history) == waiting
            expected = waiting * math.log(1 - law.wait) + chances
            found = law.log_likelihood(history, compiled=kernel == "compiled")
            assert found == pytest.approx(expected)
            counts.append(waiting)
            asking.append(chances)
    assert len(counts) > 300 and sum(c > 0 for c in counts) > 10
    assert sum(c < 0 for c in asking) > 50


def test_the_askers_the_log_tells_are_the_engines():
    """Pairs of answers name the askers of the questions met on a move, as the engine played."""
    told = answers = 0
    game = AbbeyGame.create(6)
    for index in range(1, 4):
        state = play(game, index, 3, ("notepad",) * 6)
        lines = asked_log(state.events, game.players[0], game.players)
        found = askers([Event(e["type"], e, i) for i, (e, _) in enumerate(lines)])
        assert all(lines[i][1] == player for i, player in found.items())
        told += len(found)
        answers += sum(a is not None for _, a in lines)
    assert told > 0.4 * answers


def test_only_runs_of_pairs_by_two_players_tell_askers():
    """The first answer of each pair was asked by the second's player; other runs tell nothing."""
    text = LOG.replace(
        "count ana templar 0\ncount ana franciscan 0\ncount ana thin 1\n",
        "lacks cai c3\ncount bob templar 0\ncount ana templar 0\ncount cai thin 1\n"
        "take cai from bob\ncount ana franciscan 0\n"
        "take bob from cai\ncount ana thin 1\ncount ana fat 1\n",
    )
    events = list(AbbeyPosition.of_log(parse_log(text, "pairs.log")).events)
    told = {(events[i].line, p) for i, p in askers(events).items()}
    line = text.splitlines().index("lacks cai c3") + 1
    # cai was asked by bob, ana by cai; a lone answer and two by one player tell nothing
    assert told == {(line, "bob"), (line + 2, "cai")}


#: Ana watches. Bob saw her two cards and cai's c2, then took one of cai's two cards.
LOG = """game abbey
players ana bob cai
me ana
card c0 benedictine father hooded bearded thin
card c1 benedictine novice bareheaded shaven fat
card c2 franciscan brother hooded bearded fat
card c3 franciscan father bareheaded shaven thin
card c4 templar novice hooded bearded thin
card c5 templar brother bareheaded shaven fat
card c6 templar father bareheaded bearded fat
pile 0
hand 2
hand ana c0 c1
show ana to bob c0
show ana to bob c1
has cai c2
take bob from cai
count ana templar 0
count ana franciscan 0
count ana thin 1
"""


def _weights(position):
    """Where c2 is at the end, weighed by the prior alone and by the prior and the silence."""
    law = Silence(position)
    plain: dict[str, float] = {}
    silent: dict[str, float] = {}
    for weight, states in _mine(position):
        holder = states[-1]["c2"]
        plain[holder] = plain.get(holder, 0.0) + float(weight)
        tilt = math.exp(law.log_likelihood(_array(position, states)))
        silent[holder] = silent.get(holder, 0.0) + float(weight) * tilt
    return plain, silent


def test_a_player_sure_on_paper_who_waits_makes_that_history_less_likely():
    """Bob is sure on paper if he took cai's other card; he has not accused for three questions.

    Bob has seen ana's c0 and c1, his own two cards and c2 (cai has it,
    publicly). If he took cai's other card, one card is left on his sheet
    (the culprit) at the three questions since; if he took c2, two are.
    Each is half the prior; the silence makes c2 the likelier theft, by
    one to ``(1 - WAIT) ** 3``.
    """
    position = AbbeyPosition.of_log(parse_log(LOG, "silence.log"))
    law = Silence(position)
    assert {law.waiting(_array(position, s)) for _, s in _mine(position)} == {0, 3}
    plain, silent = _weights(position)
    assert plain["bob"] == pytest.approx(plain["cai"])
    assert silent["cai"] / silent["bob"] == pytest.approx((1 - wait_of(3)) ** 3)


def _walks(position):
    """A compiled walk (where built) and a plain one, from the same start."""
    sat = sat_model(position)
    possible = sat.closure()
    model = build_model(position)
    assert possible is not None and propagate(model)
    plan = plan_chains(Layout(model), sat, possible, 1, 1)
    blocks = Blocks(plan.layout.free, plan.pool)
    walks = [Walk(plan.layout, plan.starts[0], random.Random(1), blocks)]
    if compiled():
        walks.append(plan.start_walk(0))
        assert isinstance(walks[-1], Compiled)
    return walks


@pytest.mark.parametrize("seed", range(3, 9))
def test_a_restored_walk_is_back_at_its_saved_history(seed):
    """After :meth:`restore`, a walk's history and tallies are the saved ones; it walks on."""
    position = _game(seed)
    if position is None or sat_model(position).closure() is None:
        pytest.skip("no history")
    for walk in _walks(position):
        walk.advance(5)
        saved, before = walk.save(), walk.history()
        for _ in range(10):
            walk.advance(3)
        walk.restore(saved)
        assert np.array_equal(walk.history(), before)
        assert _kept(walk)
        walk.advance(20)
        assert _kept(walk)


def _kept(walk):
    """Whether a walk's tallies (its observations' counts, its culprit) are its history's."""
    history = walk.history()
    counts = [
        sum(int(history[c, seen.time] == seen.holder) for c in seen.cards)
        for seen in walk.layout.observations
    ]
    return [int(v) for v in walk.value] == counts and walk.culprit == culprit_of(history)


def test_the_tilted_walk_draws_histories_in_proportion_to_prior_times_silence():
    """Over the hand-made log's histories, the tilted walk's thefts follow the weighed law."""
    position = AbbeyPosition.of_log(parse_log(LOG, "silence.log"))
    _, silent = _weights(position)
    total = sum(silent.values())
    holders = position.timeline.holders
    card = position.setup.deck.ids.index("c2")
    for walk in _walks(position):
        tilted = Tilted(walk, Silence(position), random.Random(2))
        seen: dict[str, int] = {}
        for _ in range(10_000):
            tilted.advance(4)
            holder = holders[tilted.history()[card, -1]]
            seen[holder] = seen.get(holder, 0) + 1
        for holder, mass in silent.items():
            assert seen.get(holder, 0) / 10_000 == pytest.approx(mass / total, abs=0.03)


def test_bob_is_less_likely_sure_for_having_waited():
    """Bob is sure when he took cai's other card: half the prior, less for his silence.

    The race's estimate is within its bound of the exact chance under the
    silence law, ``w / (1 + w)`` with ``w = (1 - WAIT) ** 3``, and of one
    half without it.
    """
    position = AbbeyPosition.of_log(parse_log(LOG, "silence.log"))
    weight = (1 - wait_of(3)) ** 3
    for silence, exact in ((True, weight / (1 + weight)), (False, 0.5)):
        estimate, bound, brute = _within_bound(position, 1, silence)["bob"]
        assert float(brute) == pytest.approx(exact)
        assert abs(estimate - exact) <= bound < 0.2


def test_a_deck_of_more_than_64_cards_is_not_weighable():
    """A sheet is one 64-bit word: a bigger deck is not weighable (its race is not weighed)."""
    traits = LOG.splitlines()[4].split()[2:]

    def position(cards):
        lines = ["game abbey", "players ana bob cai", "me ana"]
        lines += [f"card c{i} {' '.join(traits)}" for i in range(cards)]
        size = (cards - 1) // 3
        lines += [f"pile {cards - 1 - 3 * size}", f"hand {size}"]
        lines.append("hand ana " + " ".join(f"c{i}" for i in range(size)))
        return AbbeyPosition.of_log(parse_log("\n".join(lines) + "\n", "big.log"))

    assert weighable(position(64))
    assert not weighable(position(65))
