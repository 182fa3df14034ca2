"""What the others know, against brute force: each opponent's view and their chance of certainty.

An opponent's view in a history is the public events and what they saw
(their hand at every moment, the cards shown to them). The brute force
lists every history of the public events and keeps those that show the
opponent the same things: their culprits are the opponent's candidates.
The chance of certainty is the share of the observer's histories whose
view leaves one candidate, the shower's choice of a card the log does not
name drawn uniformly among their cards with the traits asked for.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path
from time import perf_counter

import numpy as np
import pytest
from abbey_random import random_game
from oracles.abbey import CULPRIT, consistent_histories

from deduce.analyze import analyze, others_sure, prefix, solve_prefixes
from deduce.errors import LogError
from deduce.games.abbey.advice.race import rival, worth_accusing
from deduce.games.abbey.advice.situation import advise, parse_situation, told_by
from deduce.games.abbey.advice.suggest import accusation_advice
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.opponents import (
    OpponentView,
    Race,
    Views,
    could_be_sure,
    public_events,
    race_of,
    views_after,
)
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.silence import Silence
from deduce.games.abbey.solver.solve import AbbeySolution
from deduce.games.abbey.solver.timeline import TRANSFERS, AbbeyPosition, build_timeline
from deduce.logs.io import parse_log
from deduce.solving import SolveOptions, others_of, solve_log

TINY = {"min_cards": 7, "max_cards": 8, "max_deals": 3_000, "max_events": 8}


def _game(seed):
    """A tiny game seen by a player, as a position; None when its sizes do not add up."""
    rng = random.Random(seed)
    setup, events, _ = random_game(rng, spectator_rate=0.0, **TINY)
    try:
        return AbbeyPosition(setup, tuple(events), build_timeline(setup, events, "game"))
    except LogError:
        return None


def _epochs(events, path):
    """The states of a brute-force history at each epoch: after the deal and each transfer."""
    return [path[0], *(path[i + 1] for i, e in enumerate(events) if e.type in TRANSFERS)]


def _shows(position, opponent):
    """The shows to ``opponent``: (epoch, shower, card or None, traits)."""
    timeline = position.timeline
    return [
        (timeline.epoch_of[e.line], e.get("player"), e.get("card"), tuple(e.get("traits") or ()))
        for e in position.events
        if e.type == "show" and e.get("to") == opponent
    ]


def _choices(position, opponent, states):
    """Every way the shows to ``opponent`` could have gone in a history: (epoch, shower, card)."""
    deck = position.setup.deck
    options = []
    for epoch, shower, card, traits in _shows(position, opponent):
        held = [c for c, h in states[epoch].items() if h == shower]
        options.append(
            [(epoch, shower, card)]
            if card is not None
            else [(epoch, shower, c) for c in held if deck.card(c).has_traits(traits)]
        )
    return list(product(*options))


def _hands(states, opponent):
    """The opponent's hand at each epoch of a history."""
    return tuple(frozenset(c for c, h in s.items() if h == opponent) for s in states)


def _brute_candidates(public, opponent, states, shown):
    """The opponent's candidates: culprits of the public histories that show them the same.

    ``public`` holds the public histories by the opponent's hands (:func:`_by_hands`).
    """
    return {
        next(c for c, h in other[-1].items() if h == CULPRIT)
        for other in public[opponent].get(_hands(states, opponent), ())
        if all(other[e][c] == shower for e, shower, c in shown)
    }


def _by_hands(position):
    """Each opponent's public histories, by their hands at every epoch."""
    found = {}
    for states in _public_histories(position):
        for opponent in position.setup.players:
            found.setdefault(opponent, {}).setdefault(_hands(states, opponent), []).append(states)
    return found


def _public_histories(position):
    """Every history of the public events, as its states at each epoch."""
    setup = replace(position.setup, me=None)
    events = public_events(position.events)
    return [_epochs(events, path) for _, path in consistent_histories(setup, events)]


def _mine(position):
    """Every history of the observer's log, with its weight, as its states at each epoch."""
    return [
        (w, _epochs(position.events, path))
        for w, path in consistent_histories(position.setup, position.events)
    ]


def _array(position, states):
    """A brute-force history as the solver's (card, epoch) array of holder indices."""
    holders = position.timeline.holders
    return np.array(
        [[holders.index(s[c]) for s in states] for c in position.setup.deck.ids], dtype=np.int8
    )


class _Picks:
    """A stand-in for the random choice of shown cards: hands out given cards in turn."""

    def __init__(self, cards):
        self.cards = list(cards)

    def choice(self, options):
        card = self.cards.pop(0)
        assert card in options
        return card


def test_a_view_has_the_candidates_that_brute_force_finds():
    """In every history of tiny logs, each opponent's view has the brute-force candidates."""
    checked = 0
    for seed in range(40):
        position = _game(seed)
        if position is None:
            continue
        views = Views(position)
        public = _by_hands(position)
        index = {c: i for i, c in enumerate(position.setup.deck.ids)}
        for _, states in _mine(position)[:40]:
            history = _array(position, states)
            for opponent in views.opponents:
                for shown in _choices(position, opponent, states):
                    unnamed = [
                        index[c]
                        for (_, _, c), (_, _, named, _) in zip(shown, _shows(position, opponent))
                        if named is None
                    ]
                    sight = views.sight(history, opponent, _Picks(unnamed))
                    found = {position.setup.deck.ids[c] for c in views.candidates(sight)}
                    assert found == _brute_candidates(public, opponent, states, shown)
                    assert views.sure(sight, history) == (len(found) == 1)
                    checked += 1
    assert checked > 500


def test_certainty_asked_card_by_card_when_one_query_runs_out_of_conflicts(monkeypatch):
    """When the single query gives up, card-by-card queries (then the backup) answer the same."""
    answers = set()
    for seed in range(40):
        position = _game(seed)
        if position is None:
            continue
        views = Views(position)
        monkeypatch.setattr(views.sat.solver, "solve_limited", lambda **_: None)
        for _, states in _mine(position)[:10]:
            history = _array(position, states)
            for opponent in views.opponents:
                sight = views.sight(history, opponent, random.Random(seed))
                sure = views.sure(sight, history)
                assert sure == (len(views.candidates(sight)) == 1)
                answers.add(sure)
    assert answers == {True, False}


def _weighed(position, silence):
    """The observer's histories with their weights: by the others' silence too (``silence``)."""
    law = Silence(position)
    for weight, states in _mine(position):
        tilt = math.exp(law.log_likelihood(_array(position, states))) if silence else 1
        yield weight * Fraction(tilt), states


def _brute_certain(position, opponent, silence=True):
    """The exact chance that ``opponent`` is certain: histories weighted, shows averaged."""
    public = _by_hands(position)
    total = Fraction(0)
    certain = Fraction(0)
    for weight, states in _weighed(position, silence):
        choices = _choices(position, opponent, states)
        total += weight
        sure = sum(len(_brute_candidates(public, opponent, states, c)) == 1 for c in choices)
        certain += weight * Fraction(sure, len(choices))
    return certain / total


def _estimated(position, seed, silence=True):
    """The views of a position, and the chance that some opponent is sure with its bound."""
    sat = sat_model(position)
    possible = sat.closure()
    model = build_model(position)
    assert possible is not None and propagate(model)
    raced = race_of(position, sat, possible, model, perf_counter() + 60, seed, silence=silence)
    assert raced is not None and raced.anyone is not None
    return raced.views, raced.anyone


def _within_bound(position, seed, silence=True):
    """Each opponent's estimated certainty and the exact chance: (estimate, bound, exact)."""
    views, _ = _estimated(position, seed, silence)
    return {
        opponent: (view.certain, view.error, _brute_certain(position, opponent, silence))
        for opponent, view in views.items()
    }


def _brute_anyone(position, silence=True):
    """The exact chance that some opponent is certain (each one's shows chosen on their own)."""
    public = _by_hands(position)
    others = [p for p in position.setup.players if p != position.setup.me]
    total = Fraction(0)
    anyone = Fraction(0)
    for weight, states in _weighed(position, silence):
        total += weight
        unsure = Fraction(1)
        for opponent in others:
            choices = _choices(position, opponent, states)
            sure = sum(len(_brute_candidates(public, opponent, states, c)) == 1 for c in choices)
            unsure *= 1 - Fraction(sure, len(choices))
        anyone += weight * (1 - unsure)
    return anyone / total


@pytest.mark.parametrize("silence", [True, False])
def test_the_chance_of_certainty_is_within_its_bound_of_brute_force(silence):
    """The chains' estimates of each opponent's certainty, and of anyone's, cover the exact chance.

    The exact chance weighs each history by the others' silence
    (``silence``), or not. Someone is sure in the histories in which one is: at least as
    often as any one of them.
    """
    compared = 0
    for seed in range(200, 230):
        position = _game(seed)
        if position is None or sat_model(position).closure() is None:
            continue
        views, (anyone, bound) = _estimated(position, seed, silence)
        for opponent, view in views.items():
            exact = float(_brute_certain(position, opponent, silence))
            assert abs(view.certain - exact) <= view.error
            compared += 1
        assert abs(anyone - float(_brute_anyone(position, silence))) <= bound
        assert anyone >= max(view.certain for view in views.values())
    assert compared >= 10


def test_a_chance_between_zero_and_one_is_within_its_bound():
    """Bob knows one of cai's two cards: he is sure when the other franciscan is the culprit.

    Cai holds one benedictine and one franciscan, and showed bob the
    franciscan; bob saw ana's two templars. The two cards bob has not seen
    are cai's benedictine and the culprit: bob can tell them apart when the
    culprit is the other franciscan, a third of the histories (under the
    uniform law: the silence is not weighed).
    """
    log = parse_log(LOG_SHOWN, "race.log")
    position = AbbeyPosition.of_log(log)
    found = {}
    for seed in range(3):
        found = _within_bound(position, seed, silence=False)
        estimate, bound, exact = found["bob"]
        assert exact == Fraction(1, 3)
        assert abs(estimate - 1 / 3) <= bound < 0.2
    assert found["cai"][2] == 0


#: Bob has seen ana's two cards; cai's two are public: bob knows everything but his own.
LOG = (Path(__file__).parent / "data" / "abbey-race.log").read_text()


LOG_SHOWN = (
    LOG.split("show ana to bob c0")[0]
    + """show ana to bob c0
show ana to bob c1
count cai benedictine 1
show cai to bob franciscan
"""
)


def _log():
    """Bob has seen every card but his own and the culprit: ana's (shown) and cai's (public)."""
    return parse_log(LOG, "race.log")


def test_an_opponent_who_has_seen_every_card_but_one_is_certain():
    """Bob saw ana's cards and knows cai's: certain in every history; cai never is."""
    solution = solve_log(_log(), SolveOptions(budget=5, opponents=True))
    views = solution.opponents
    assert views is not None
    assert views["bob"].certain == 1.0
    assert views["cai"].certain == 0.0
    assert views["bob"].candidates == 1.0
    assert views["cai"].candidates == 5.0  # every card but its own two


def test_everybody_is_certain_once_the_culprit_is_public():
    """The public events alone leave one candidate: every opponent is certain, exactly."""
    log = parse_log(LOG + "accuse cai c4 right\n", "race.log")
    solution = solve_log(log, SolveOptions(budget=5, opponents=True))
    assert solution.opponents == {
        "bob": OpponentView(1.0, 0.0, 1.0),
        "cai": OpponentView(1.0, 0.0, 1.0),
    }
    assert solution.to_json()["opponents"]["bob"] == {
        "certain": 1.0,
        "error": 0.0,
        "candidates": 1.0,
    }


def test_the_others_are_left_out_unless_asked_for():
    """Without ``opponents`` the solution says nothing of them, nor does its JSON."""
    solution = solve_log(_log(), SolveOptions(budget=5))
    assert solution.opponents is None
    assert "opponents" not in solution.to_json()


def test_public_events_drop_what_only_some_players_saw():
    """Own hands, transfers' cards, Mass passes and named shows are private; answers public."""
    text = LOG + "take ana from bob\ncount bob father 1\n"
    events = public_events(parse_log(text, "race.log").events)
    assert [e.type for e in events] == ["has", "has", "take", "count"]


def test_the_race_warns_of_those_more_likely_than_not_to_be_sure():
    """``play``'s warnings: only past even odds by the bound, the likeliest first, with it."""
    found = Race(
        {
            "bob": OpponentView(0.62, 0.091, 1.4),
            "cai": OpponentView(0.5, 0.05, 1.9),
            "eve": OpponentView(0.7, 0.25, 1.3),  # likely, but not by its bound
            "dee": OpponentView(1.0, 0.0, 1.0),
        }
    )
    assert found.warnings() == [
        "dee may be able to accuse: 100%",
        "bob may be able to accuse: 62% ± 9.1",
    ]
    assert found.to_json()["exact"] is False and found.to_json()["error"] == 0.25
    assert Race({}).to_json() == {"exact": False, "error": 1.0, "opponents": {}}


def test_the_race_of_a_log_comes_from_the_game():
    """What ``play`` refines in the background: the game's estimate of the others."""
    found = others_of(_log(), SolveOptions(budget=5))
    assert found.views["bob"].certain == 1.0
    assert found.warnings() == [
        f"bob may be able to accuse: 100% ± {100 * found.views['bob'].error:.1f}"
    ]


def _shares(position, shares):
    """A solution whose culprit is each card of ``shares`` with that chance (exactly)."""
    return AbbeySolution(position.setup, True, {c: Fraction(p) for c, p in shares.items()}, {})


def test_a_rival_sure_of_the_culprit_advises_an_accusation_worth_less():
    """At 60% (short of 80%, needed alone), accuse only when someone is likely to accuse first."""
    position = AbbeyPosition.of_log(_log())
    solution = _shares(position, {"c4": Fraction(3, 5), "c5": Fraction(2, 5)})
    alone = accusation_advice(solution, 0, None)
    assert not alone["advised"] and alone["first"] == 0 and alone["needed"] == pytest.approx(0.8)
    sure = Race({"bob": OpponentView(0.9, 0.05, 1.1), "cai": OpponentView(0.2, 0.1, 2.0)})
    raced = accusation_advice(solution, 0, sure)  # needs 80% - 30% x 0.85 = 54.5%
    assert raced["advised"] and raced["first"] == pytest.approx(0.85)
    assert raced["needed"] == pytest.approx(0.545)
    unsure = Race({"bob": OpponentView(0.3, 0.1, 1.8)})
    assert not accusation_advice(solution, 0, unsure)["advised"]
    even = _shares(position, {"c4": Fraction(1, 2), "c5": Fraction(1, 2)})
    assert not accusation_advice(even, 0, sure)["advised"]  # a coin flip: only against a sure rival
    together = replace(unsure, anyone=(0.95, 0.05))  # someone is sure, though no one alone is
    assert (
        rival(together) == pytest.approx(0.9)
        and accusation_advice(solution, 0, together)["advised"]
    )
    assert rival(sure) == pytest.approx(0.85) and rival(None) == 0.0 and rival(Race({})) == 0.0


def test_analyze_says_from_when_each_opponent_could_be_sure():
    """Bob could be sure once cai's second card is public (the last event); cai never."""
    log = _log()
    assert others_sure(log) == {"bob": len(log.events), "cai": None}
    assert could_be_sure(AbbeyPosition.of_log(prefix(log, 4))) == {"bob": False, "cai": False}
    analysis = analyze(log, list(solve_prefixes(log)), others=others_sure(log))
    assert analysis.to_json()["others_sure"] == {
        "bob": {"line": log.events[-1].line, "event": "has cai c3"},
        "cai": None,
    }


def test_the_defence_says_how_sure_each_choice_leaves_the_asker():
    """Bob has seen c0, not c1: showing him c1 leaves him sure, c0 tells him nothing new."""
    text = LOG.replace("show ana to bob c1\n", "")
    position = AbbeyPosition.of_log(parse_log(text, "race.log"))
    situation = parse_situation("show bob", position.setup)
    choices = told_by(situation, position.setup, ["c0", "c1"])
    told = views_after(position, "bob", choices, perf_counter() + 60)
    assert told is not None
    assert told["show c1"].certain == 1.0 and told["show c0"].certain == 0.0
    asked = told_by(parse_situation("asked cai has c0", position.setup), position.setup, ["c0"])
    assert [e.type for e in asked["answer"]] == ["has"] and asked["silence"] == []


def test_the_defence_column_shows_an_estimate_with_its_bound():
    """A choice's chance for the asker is never shown bare when it is estimated."""
    position = AbbeyPosition.of_log(_log())
    situation = parse_situation("show bob", position.setup)
    told = {"show c0": OpponentView(0.5, 0.1, 1.5), "show c1": OpponentView(1.0, 0.0, 1.0)}
    sizes = dict(zip(position.timeline.holders, position.timeline.sizes[-1]))
    data, table = advise(situation, _log(), position.setup, ["c0", "c1"], sizes, None, 5, told)
    cells = {row[1]: row[-1] for row in table.rows}
    assert cells == {"show c0": "50.0% ± 10.0", "show c1": "100%"}
    assert data["choices"][0]["asker_sure"] in (
        {"certain": 0.5, "error": 0.1},
        {"certain": 1.0, "error": 0.0},
    )


def test_the_chance_an_accusation_needs_falls_from_80_to_50_percent_as_the_rival_grows() -> None:
    assert worth_accusing(0.8, 0.0) and not worth_accusing(0.79, 0.0)
    assert worth_accusing(0.65, 0.5) and not worth_accusing(0.64, 0.5)
    assert worth_accusing(0.5, 1.0) and not worth_accusing(0.49, 1.0)
