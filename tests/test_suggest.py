"""``deduce suggest``: the advice of each game, computed from the solver, through the CLI."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from itertools import permutations
from pathlib import Path

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.games.abbey.advice.exact import exact_advice
from deduce.games.abbey.advice.suggest import describe_option
from deduce.games.abbey.solver.timeline import AbbeyPosition
from deduce.games.blackrose.advisor import advise
from deduce.games.blackrose.cards import default_cards
from deduce.games.blackrose.game import unseen_bound
from deduce.games.simulate import simulate, write_game
from deduce.logs.formats.abbey import default_deck
from deduce.logs.formats.rose import COLOURS
from deduce.logs.io import format_log, read_log
from deduce.registry import GAMES
from deduce.solving import SolveOptions, solve_log

ROOT = Path(__file__).resolve().parent.parent
ABBEY4 = str(ROOT / "examples" / "abbey-4p.log")
ABBEY6 = str(ROOT / "examples" / "abbey-6p.jsonl")
ROSE4 = str(ROOT / "examples" / "rose-4p.jsonl")
BLACKROSE4 = str(ROOT / "examples" / "blackrose-4p.jsonl")


def _json(*args: str) -> dict:
    result = CliRunner().invoke(cli, ["suggest", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_abbey_options_are_the_exact_values_best_first():
    data = _json("--budget", "1000", "--top", "1000", ABBEY6)
    advice = exact_advice(AbbeyPosition.of_log(read_log(ABBEY6)))
    assert data["exact"] and data["entropy"] == pytest.approx(advice.entropy)
    assert [(o["kind"], o["target"], tuple(o["detail"]), o["bits"]) for o in data["options"]] == [
        (o.kind, o.target, o.detail, pytest.approx(o.gain)) for o in advice.options
    ]
    kinds = {o["kind"] for o in data["options"]}
    assert kinds == {"count", "has", "take", "draw"}  # cards in the pile: no "show me" yet


def test_abbey_accusation_follows_the_points():
    data = _json("--budget", "1000", ABBEY6)
    culprit = solve_log(read_log(ABBEY6)).culprit
    best = max(culprit, key=culprit.get)
    accusation = data["accusation"]
    assert accusation["card"] == best
    assert accusation["probability"] == pytest.approx(float(culprit[best]))
    assert accusation["expected_points"] == pytest.approx(6 * float(culprit[best]) - 2)
    assert not accusation["allowed"] and not accusation["advised"]  # the pile is not empty


def test_abbey_empty_pile_adds_estimated_show_me_requests():
    data = _json("--budget", "1000", "--top", "1000", ABBEY4)
    shown = [o for o in data["options"] if o["kind"] == "show_me"]
    assert shown and not any(o["exact"] for o in shown)
    assert all(o["exact"] for o in data["options"] if o["kind"] != "show_me")
    assert not any(o["kind"] == "draw" for o in data["options"])
    assert data["accusation"]["allowed"]
    p = data["accusation"]["probability"]
    assert data["accusation"]["advised"] == (6 * p - 2 >= 2)


def test_abbey_without_time_the_values_are_estimated():
    data = _json("--budget", "0", "--seed", "3", ABBEY6)
    assert not data["exact"] and data["options"]
    bits = [o["bits"] for o in data["options"]]
    assert bits == sorted(bits, reverse=True)


def test_abbey_exact_values_are_not_tried_after_the_solve_could_not_count(monkeypatch):
    from deduce.games.abbey.advice import suggest as abbey_suggest

    log = read_log(ABBEY6)
    exact = solve_log(log)
    late = replace(exact, exact=False, error=1.0)  # no count finished: no chances at all
    tried = []
    monkeypatch.setattr(abbey_suggest, "solve_position", lambda *args, **kwargs: late)
    monkeypatch.setattr(abbey_suggest, "exact_advice", lambda *args: tried.append(args))
    options = SolveOptions(budget=1.0)
    data = abbey_suggest.suggest(log, options, 5).data
    assert not tried and not any(o["exact"] for o in data["options"])
    abbey_suggest.suggest(log, options, 5, solution=late)  # play's own solve: worth a try
    assert len(tried) == 1


def test_abbey_table_names_rooms_and_questions():
    result = CliRunner().invoke(cli, ["suggest", "--top", "3", "--budget", "1000", ABBEY6])
    assert result.exit_code == 0
    assert "Accusation" in result.output and "not allowed yet: 2 cards left" in result.output
    moves = result.output[result.output.index("Best moves") :]
    assert moves.count("exact") == 3
    option = exact_advice(AbbeyPosition.of_log(read_log(ABBEY6))).options[0]
    assert describe_option(option)[1] in result.output


def test_rose_guesses_are_the_best_distinct_colours():
    data = _json(ROSE4)
    solution = solve_log(read_log(ROSE4))
    rows = [solution.probabilities[p] for p in solution.players]
    best = max(
        sum(float(r.get(c, 0)) for r, c in zip(rows, pick))
        for pick in permutations(COLOURS, len(rows))
    )
    guesses = data["guesses"]
    assert len(set(guesses.values())) == len(guesses)
    assert data["expected_right"] == pytest.approx(best)
    assert data["expected_right"] == pytest.approx(sum(data["probabilities"].values()))


@pytest.fixture(scope="module")
def blackrose_log(tmp_path_factory) -> str:
    """A player's log of a simulated Black Rose game, cut before the first accusation."""
    simulator = GAMES["blackrose"].simulator
    table = simulator.create(4, {})
    folder = tmp_path_factory.mktemp("br")
    for game in simulate(simulator.record, table, 1, 7, (simulator.default_bot,) * 4):
        write_game(game, folder)
    log = read_log(next(folder.glob("*/*.jsonl")))
    first = next(i for i, e in enumerate(log.events) if e.type == "accuse")
    cut = folder / "cut.jsonl"
    cut.write_text(format_log(replace(log, events=log.events[:first])), encoding="utf-8")
    return str(cut)


def test_blackrose_investigation_and_accusation(blackrose_log):
    data = _json(blackrose_log)
    log = read_log(blackrose_log)
    unseen = unseen_bound(log, default_cards())
    advice = advise(log, unseen)
    assert data["unseen"] == unseen
    assert data["investigate"] == ["the Graveyard" if p is None else p for p in advice.piles]
    assert data["accuse"] == list(advice.accuse)
    assert data["bits"] == pytest.approx(advice.draw_bits)
    pairs = solve_log(log).pairs
    assert data["probability"] == pytest.approx(float(max(pairs.values())))


def test_blackrose_unseen_option(blackrose_log):
    few = _json("--unseen", "30", blackrose_log)
    many = _json("--unseen", "60", blackrose_log)
    assert few["unseen"] == 30 and many["unseen"] == 60
    assert few["bits"] >= many["bits"]


def test_other_games_options_are_refused():
    result = CliRunner().invoke(cli, ["suggest", "--unseen", "3", ABBEY4])
    assert result.exit_code == 2 and "--unseen does not apply to abbey" in result.output


def test_inconsistent_log_is_an_error(log_file):
    path = log_file("game rose\nplayers ana bob\nme ana\n\nidentity bob red\nreveal bob red\n")
    result = CliRunner().invoke(cli, ["suggest", path])
    assert result.exit_code != 0
    assert "inconsistent (lines 5, 6)" in str(result.exception)


def test_inconsistent_abbey_log_names_the_conflicting_lines(log_file):
    path = log_file("game abbey\nplayers ana bob cai\nme ana\n\nhas bob hugues\nlacks bob hugues\n")
    result = CliRunner().invoke(cli, ["suggest", path])
    assert result.exit_code != 0
    assert "inconsistent (lines 5, 6)" in str(result.exception)


def test_blackrose_hard_ignores_the_claims(tmp_path):
    log = read_log(BLACKROSE4)
    cut = max(i for i, e in enumerate(log.events) if e.type == "claim")
    path = tmp_path / "claims.jsonl"
    path.write_text(format_log(replace(log, events=log.events[: cut + 1])), encoding="utf-8")
    soft, hard = _json(str(path)), _json("--hard", str(path))
    hard_pairs = solve_log(read_log(path), SolveOptions(hard=True)).pairs
    assert hard["probability"] == pytest.approx(float(max(hard_pairs.values())))
    assert soft["probability"] != pytest.approx(hard["probability"])


def test_abbey_custom_deck_reaches_the_estimate(tmp_path):
    deck = [{**card.to_json(), "id": "x" + card.id} for card in default_deck().cards]
    (tmp_path / "deck.json").write_text(json.dumps(deck), encoding="utf-8")
    text = Path(ABBEY4).read_text(encoding="utf-8")
    for card in default_deck().ids:
        text = re.sub(rf"\b{card}\b", "x" + card, text)
    (tmp_path / "g.log").write_text(text, encoding="utf-8")
    data = _json("--deck", str(tmp_path / "deck.json"), "--budget", "0", str(tmp_path / "g.log"))
    assert not data["exact"] and data["accusation"]["card"].startswith("x")


@pytest.mark.parametrize(
    "args",
    [
        ["--hard", ABBEY4],
        ["--unseen", "3", "--cards", "c.json", str(ROOT / "examples" / "blackrose-4p.jsonl")],
    ],
)
def test_options_that_cannot_apply_are_refused(args):
    result = CliRunner().invoke(cli, ["suggest", *args])
    assert result.exit_code == 2


def test_json_lists_the_top_options_as_the_table_does():
    assert len(_json("--top", "3", ABBEY6)["options"]) == 3
    assert len(_json(ABBEY6)["options"]) == 10
