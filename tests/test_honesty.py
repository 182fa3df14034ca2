"""Never more certainty than the solver has: estimates with their bound, or no number at all."""

import json
import re
from dataclasses import replace
from fractions import Fraction

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.games.abbey.advice import suggest as abbey_suggest
from deduce.games.abbey.advice.decisions import REVEAL_AT
from deduce.games.abbey.report import compact_table, tables
from deduce.games.rose.solve import RoseSolution
from deduce.logs.io import read_log
from deduce.report import USEFUL_BOUND
from deduce.solving import outlook, solve_log

ABBEY4 = "examples/abbey-4p.log"  # the pile is empty: accusing is allowed


@pytest.fixture(scope="module")
def exact():
    return solve_log(read_log(ABBEY4))


def _estimate(solution, error, culprit=None):
    return replace(solution, exact=False, error=error, culprit=culprit or solution.culprit)


def test_a_wide_estimate_shows_no_number(exact):
    wide = _estimate(exact, USEFUL_BOUND + 0.2)
    candidates, holders = tables(wide)
    assert "not enough time to estimate the chances" in candidates.title
    assert {row[3] for row in candidates.rows} == {"?"}
    assert [row[0] for row in candidates.rows] == [
        c for c in exact.setup.deck.ids if c in exact.culprit
    ]  # no ranking implied
    for row in holders.rows:  # a card's only possible holder is certain; no other number
        known = len(exact.holders[row[0]]) == 1
        assert all(cell in ("", "100%") if known else "%" not in cell for cell in row[1:])
    assert "not enough time" in compact_table(wide).title
    view = outlook(wide)
    assert not view.usable and view.best_cells() == ("?", "not enough time to estimate")


def test_an_estimate_is_never_shown_as_certain(exact):
    sure = {card: Fraction(0) for card in exact.culprit}
    sure[exact.candidates[0]] = Fraction(1)  # estimated 1, others estimated 0: still possible
    close = _estimate(exact, 0.01, sure)
    cells = [row[3] for row in tables(close)[0].rows]
    assert "100%" not in cells and ">99.9%" in cells and "~0%" in cells
    assert outlook(close).best_cells()[1] == "~>99.9%"


def _suggest(monkeypatch, solution, part="accusation"):
    monkeypatch.setattr(abbey_suggest, "solve_position", lambda *args, **kwargs: solution)
    result = CliRunner().invoke(cli, ["suggest", ABBEY4, "--json"])
    assert result.exit_code == 0, result.output
    table = CliRunner().invoke(cli, ["suggest", ABBEY4]).output
    return json.loads(result.output)[part], table


def test_advice_to_accuse_rests_on_the_estimate_s_lower_bound(exact, monkeypatch):
    favourite = exact.candidates[0]
    culprit = {card: Fraction(3, 20 * (len(exact.culprit) - 1)) for card in exact.culprit}
    culprit[favourite] = Fraction(17, 20)  # 85%: enough (80%) if it were exact
    accusation, table = _suggest(monkeypatch, replace(exact, culprit=culprit))
    assert accusation["advised"] and accusation["exact"] and "accuse now (exact)" in table
    accusation, table = _suggest(monkeypatch, _estimate(exact, 0.1, culprit))
    assert not accusation["advised"] and not accusation["exact"] and accusation["first"] == 0
    assert accusation["error"] == pytest.approx(0.1)
    assert "not yet (on the estimate's lower bound)" in table and "~85.0% ±10.0" in table
    assert accusation["needed"] == pytest.approx(0.8) and "chance needed" in table


def test_no_advice_to_accuse_on_a_wide_estimate(exact, monkeypatch):
    culprit = dict.fromkeys(exact.culprit, Fraction(0))
    culprit[exact.candidates[0]] = Fraction(1)
    accusation, table = _suggest(monkeypatch, _estimate(exact, 0.4, culprit))
    assert not accusation["advised"]
    assert "not enough time to estimate" in table and "100%" not in table
    assert "accuse now" not in table


def test_ties_are_shown_as_ties():
    solution = solve_log(read_log("examples/abbey-6p.jsonl"))
    view = outlook(solution)
    assert len(view.leaders) == 2 and view.best_cells() == ("2 tied", "17.9% each")
    result = CliRunner().invoke(cli, ["batch", "examples/abbey-6p.jsonl", "--workers", "1"])
    assert "2 tied" in result.output and "17.9% each" in result.output


def _with_trait(solution, trait):
    return [c for c in solution.culprit if solution.setup.deck.card(c).has_traits([trait])]


def test_revelation_chances_sum_the_suspects_with_the_trait(exact, monkeypatch):
    rows, table = _suggest(monkeypatch, exact, "revelation")
    assert len(rows) == 5  # one per trait group, likeliest first
    assert [r["probability"] for r in rows] == sorted(
        (r["probability"] for r in rows), reverse=True
    )
    for row in rows:
        p = sum(exact.culprit[c] for c in _with_trait(exact, row["trait"]))
        assert row["probability"] == pytest.approx(float(p))
        assert row["expected_points"] == pytest.approx(3 * float(p) - 1)  # +2 right, -1 wrong
        assert row["advised"] == (p >= REVEAL_AT) and row["exact"]
    assert "Revelation" in table and rows[0]["trait"] in table


def test_revelation_advice_rests_on_the_estimate_s_bound(exact, monkeypatch):
    fat = _with_trait(exact, "fat")
    thin = [c for c in exact.culprit if c not in fat]
    assert fat and thin
    culprit = {c: Fraction(4, 5 * len(fat)) for c in fat} | {
        c: Fraction(1, 5 * len(thin)) for c in thin
    }
    rows, table = _suggest(monkeypatch, replace(exact, culprit=culprit), "revelation")
    girth = next(r for r in rows if r["trait"] in ("fat", "thin"))
    assert girth["trait"] == "fat" and girth["advised"] and "reveal now (exact)" in table
    error = 0.05 / min(len(fat), len(thin))  # the bound adds up over the smaller side: 5 points
    rows, table = _suggest(monkeypatch, _estimate(exact, error, culprit), "revelation")
    girth = next(r for r in rows if r["trait"] == "fat")
    assert girth["error"] == pytest.approx(0.05) and not girth["exact"]
    assert girth["advised"]  # 3 * (0.80 - 0.05) - 1 = 1.25
    assert "~80.0% ±5.0" in table and "reveal now (on the estimate's lower bound)" in table
    rows, table = _suggest(monkeypatch, _estimate(exact, 0.4, culprit), "revelation")
    assert not any(r["advised"] for r in rows) and "reveal now" not in table
    assert "80.0%" not in table.split("Revelation")[1]  # (the accusation needs 80.0%)


def test_the_rose_main_answer_is_the_day_7_guess_even_when_impossible():
    # The most probable colouring is red/blue; the guess maximising the expected number
    # right is red/white (0.4 + 0.6), which no history allows.
    half = Fraction(3, 10)
    joint = {("red", "blue"): Fraction(2, 5), ("blue", "white"): half, ("grey", "white"): half}
    probabilities = {
        "bob": {"red": Fraction(2, 5), "blue": half, "grey": half},
        "cai": {"blue": Fraction(2, 5), "white": Fraction(3, 5)},
    }
    solution = RoseSolution(("bob", "cai"), True, probabilities, joint)
    view = outlook(solution)
    assert next(iter(view.answers)) == "bob=red cai=blue"  # the most probable colouring
    assert view.leaders == ("bob=red cai=white",) and view.pick == "the day-7 guess"
    assert view.best_cells() == ("bob=red cai=white", "0%")


def test_every_command_gives_the_same_rose_answer(tmp_path):
    log = tmp_path / "soft.log"
    log.write_text(
        "game rose\nplayers ana bob cai\nme ana\nidentity ana red\n"
        "points bob blue clue -3 william\n"
    )
    runner = CliRunner()
    guesses = json.loads(runner.invoke(cli, ["suggest", str(log), "--json"]).output)["guesses"]
    label = " ".join(f"{p}={c}" for p, c in guesses.items())
    solved = runner.invoke(cli, ["solve", str(log)]).output
    assert "tied with 3 other guesses" in solved
    assert all(f"{p:<10}" in solved and c in solved for p, c in guesses.items())
    batch = runner.invoke(cli, ["batch", str(log), "--workers", "1"]).output
    whole = re.search(r"all right (\S+%); tied", solved).group(1)
    assert "4 tied" in batch and f"{whole} each" in batch
    data = json.loads(runner.invoke(cli, ["solve", str(log), "--json"]).output)
    assert data["day7_guess"] == guesses and data["day7_tied"] == 4
    analysis = runner.invoke(cli, ["analyze", str(log)]).output
    assert f"{label} (tied for the day-7 guess at the end: not known, one of 4 answers)" in analysis


def test_solve_names_a_tie_for_the_most_probable(tmp_path):
    runner = CliRunner()
    abbey = runner.invoke(cli, ["solve", "examples/abbey-6p.jsonl"]).output
    assert abbey.startswith("Culprit: 11 candidates (2 suspects tied at 17.9%)\n")
    blackrose = tmp_path / "br.log"
    blackrose.write_text("game blackrose\nplayers ana bob cai\nrector ana\nme bob\n")
    out = runner.invoke(cli, ["solve", str(blackrose)]).output
    assert out.startswith("Accomplice pairs (21 pairs tied at 4.8%)\n")
    untied = runner.invoke(cli, ["solve", "examples/abbey-4p.log"]).output
    assert "tied" not in untied.splitlines()[0]


def test_the_only_candidate_is_certain_however_wide_the_estimate(exact, monkeypatch):
    only = exact.candidates[0]
    alone = _estimate(exact, 0.4, {only: 0.97})  # the closure leaves one suspect: exactly 1
    candidates, _ = tables(alone)
    assert candidates.rows == [[only, *candidates.rows[0][1:3], "100%"]]
    assert compact_table(alone).rows[0][2] == "100%"
    assert outlook(alone).best_cells() == (only, "100%")
    accusation, table = _suggest(monkeypatch, alone)
    assert accusation["probability"] == 1 and accusation["exact"] and accusation["advised"]
    assert "accuse now (exact)" in table
