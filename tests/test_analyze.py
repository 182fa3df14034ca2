"""``deduce analyze``: hand-checked timelines of the three games, agreement with direct solves,
the answer rules, inconsistent logs, the outputs, the plot and bad input."""

from __future__ import annotations

import json
import re
import sys
from math import log2
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import deduce.cli.main
from deduce.analyze import (
    Answer,
    analyze,
    lead_text,
    load_truth,
    plot_backend,
    plot_timeline,
    revealed_answer,
    solve_prefixes,
    summary_table,
)
from deduce.cli.analyze import analyze as analyze_command
from deduce.errors import DeduceError, LogError
from deduce.games.simulate import simulate, write_game
from deduce.logs.io import parse_log, read_log
from deduce.logs.model import GameLog
from deduce.registry import GAMES
from deduce.solving import SolveOptions, outlook, solve_log

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# Five cards, two hands of two, no pile: the culprit is one of five (lines 1-10).
ABBEY_HEADER = """game abbey
players ana bob
me ana
pile 0
hand 2
card c1 templar father hooded bearded fat
card c2 templar brother hooded bearded fat
card c3 franciscan father hooded bearded fat
card c4 franciscan brother bareheaded shaven thin
card c5 benedictine novice bareheaded shaven thin
"""
# Line 12: the culprit is c3, c4 or c5. Line 13: bob holds one of c3/c4 and c5,
# so the culprit is c3 or c4. Line 14: bob holds c3, so it is c4.
ABBEY = (
    ABBEY_HEADER
    + """
hand ana c1 c2
count bob franciscan 1
show bob to ana c3
accuse ana c4 right
"""
)
# bob is black or orange after line 8, cai grey or black after line 11 (3
# colourings); line 12 leaves bob=orange cai=black. Guesses on 13 and 14.
ROSE = """game rose
players ana bob cai
me ana

identity ana red
reveal bob blue
reveal bob white
reveal bob grey
reveal cai blue
reveal cai white
reveal cai orange
reveal cai grey
guess ana of bob orange
guess ana of cai black
identity bob orange
identity cai black
"""
# Proofs of s1..s5 leave the pair s6+s7 on line 11; the accusation is on line 13.
BLACKROSE = """game blackrose
players ana bob cai dee
rector ana
me bob

role bob investigator
proof s1
proof s2
proof s3
proof s4
proof s5
kill s1
accuse s7 s6 right
"""


def parsed(text: str) -> GameLog:
    """A log from its text."""
    return parse_log(text, "g.log")


def analysis_of(
    text: str, options: SolveOptions | None = None, truth: str | None = None, top: int = 5
):
    """The analysis of a log given as text."""
    log = parsed(text)
    return analyze(log, list(solve_prefixes(log, options)), truth, top)


def invoke(*args: str, code: int = 0):
    """Run ``analyze`` with ``args``; check the exit code."""
    result = CliRunner().invoke(analyze_command, list(args))
    assert result.exit_code == code, (result.output, result.exception)
    return result


def console(monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """Run the console script with ``analyze`` registered: its exit code and standard error."""
    monkeypatch.setattr(deduce.cli.main, "cli", click.Group(commands={"analyze": analyze_command}))
    monkeypatch.setattr(sys, "argv", ["deduce", "analyze", *args])
    with pytest.raises(SystemExit) as exit_:
        deduce.cli.main.main()
    return exit_.value.code, capsys.readouterr().err


# --------------------------------------------------------------------------
# one small log per game, worked out by hand


def test_abbey_timeline_by_hand():
    result = analysis_of(ABBEY)
    assert [r.line for r in result.rows] == [1, 12, 13, 14, 15]
    assert [r.candidates for r in result.rows] == [5, 3, 2, 1, 1]
    assert [r.probability for r in result.rows] == pytest.approx([1 / 5, 1 / 3, 1 / 2, 1, 1])
    assert [r.entropy for r in result.rows] == pytest.approx([log2(5), log2(3), 1, 0, 0])
    assert result.rows[0].bits is None
    assert [r.bits for r in result.rows[1:]] == pytest.approx(
        [log2(5 / 3), log2(3 / 2), 1, 0], abs=1e-12
    )
    assert result.answer == Answer("c4", "log", 15)
    assert (result.certain.line, result.certain.event) == (14, "show bob to ana c3")
    assert result.accusation.line == 15 and result.lead == 1
    assert [r.line for r in result.top] == [14, 12, 13]
    assert all(r.exact for r in result.rows)


def test_rose_timeline_by_hand():
    result = analysis_of(ROSE)
    assert [r.candidates for r in result.rows] == [30, 20, 16, 12, 8, 6, 4, 3, 1, 1, 1, 1, 1]
    assert [r.entropy for r in result.rows[:9]] == pytest.approx(
        [log2(n) for n in (30, 20, 16, 12, 8, 6, 4, 3, 1)], abs=1e-12
    )
    assert result.answer == Answer("bob=orange cai=black", "log", 16)
    assert result.rows[7].probability == pytest.approx(1 / 3)
    assert result.certain.line == 12 and result.accusation.line == 13 and result.lead == 1
    assert result.top[0].line == 12 and result.top[0].bits == pytest.approx(log2(3))


def test_blackrose_timeline_by_hand():
    result = analysis_of(BLACKROSE)
    assert [r.candidates for r in result.rows] == [21, 21, 15, 10, 6, 3, 1, 1, 1]
    assert [r.probability for r in result.rows] == pytest.approx(
        [1 / 21, 1 / 21, 1 / 15, 1 / 10, 1 / 6, 1 / 3, 1, 1, 1]
    )
    assert result.answer == Answer("s6+s7", "log", 13)
    assert result.certain.line == 11 and result.accusation.line == 13 and result.lead == 2
    assert [(r.line, r.event) for r in result.top[:2]] == [(11, "proof s5"), (10, "proof s4")]
    assert "certain 2 events before the first correct accusation" in lead_text(result)


# --------------------------------------------------------------------------
# the timeline against direct solves of each prefix


@pytest.mark.parametrize("name", ["abbey-4p.log", "rose-4p.jsonl", "blackrose-4p.jsonl"])
def test_timeline_equals_direct_solves(name):
    log = read_log(EXAMPLES / name)
    result = analyze(log, list(solve_prefixes(log)))
    assert len(result.rows) == len(log.events) + 1
    for seen, row in enumerate(result.rows):
        cut = GameLog(log.header, log.events[:seen], log.path)
        view = outlook(solve_log(cut, SolveOptions()))
        hard = outlook(solve_log(cut, SolveOptions(hard=True)))
        assert row.line == (log.events[seen - 1].line if seen else log.header.line)
        assert row.candidates == len(hard.answers) == len(view.answers)
        assert row.probability == pytest.approx(view.answers.get(result.answer.value, 0.0))
        entropy = -sum(p * log2(p) for p in view.answers.values() if p > 0)
        assert row.entropy == pytest.approx(entropy, abs=1e-12)
        assert row.exact


def test_soft_evidence_moves_probabilities_never_candidates():
    log = read_log(EXAMPLES / "rose-4p.jsonl")
    soft = analyze(log, list(solve_prefixes(log)))
    hard = analyze(log, list(solve_prefixes(log, SolveOptions(hard=True))), soft.answer.value)
    assert [r.candidates for r in soft.rows] == [r.candidates for r in hard.rows]
    assert [r.entropy for r in soft.rows] != [r.entropy for r in hard.rows]


def test_estimated_positions_stay_out_of_the_ranking():
    result = analysis_of(ABBEY, SolveOptions(budget=0))
    assert [r.candidates for r in result.rows] == [5, 3, 2, 1, 1]
    # a budget of 0 gives the candidates alone: only a certain culprit has exact chances
    assert [r.exact for r in result.rows] == [False, False, False, True, True]
    assert result.top == ()
    assert result.certain.line == 14
    assert result.estimated == 3
    notes = dict(summary_table(result).rows)
    assert notes["estimated"].startswith("probabilities at 3 of 5 positions")


# --------------------------------------------------------------------------
# the answer


def test_the_abbey_budget_is_shared_among_the_positions_left(monkeypatch):
    log = read_log(str(EXAMPLES / "abbey-4p.log"))
    given: list[float] = []

    def solve(part, options, warm):
        given.append(options.budget)
        return solve_log(part, options, warm)

    monkeypatch.setattr("deduce.analyze.solve_log", solve)
    positions = list(solve_prefixes(log, SolveOptions(budget=3.1)))
    assert len(given) == len(positions) == len(log.events) + 1
    assert given[0] == pytest.approx(3.1 / len(positions), rel=0.05)
    # the share is what is left over the positions left: the time an exact
    # position leaves unused goes to the later ones
    assert all(0 <= g <= 3.1 for g in given) and max(given) > given[0]


def test_the_log_reveals_the_abbey_culprit_by_any_correct_accusation_or_the_reveal():
    assert revealed_answer(
        parsed(ABBEY_HEADER + "\nhand ana c1 c2\naccuse bob c5 right\n")
    ) == Answer("c5", "log", 13)
    wrong_then_reveal = ABBEY_HEADER + "\nhand ana c1 c2\naccuse ana c3 wrong by bob\nculprit c4\n"
    assert revealed_answer(parsed(wrong_then_reveal)) == Answer("c4", "log", 14)
    result = analysis_of(wrong_then_reveal)
    assert result.accusation is None and result.certain.line == 14
    assert lead_text(result) == "no correct accusation in the log"


def test_rose_answer_needs_every_other_players_identity():
    assert revealed_answer(parsed(ROSE.replace("identity cai black\n", ""))) is None
    assert revealed_answer(parsed(ROSE)).value == "bob=orange cai=black"


def test_blackrose_answer_is_the_correct_pair_in_alphabetical_order():
    assert revealed_answer(parsed(BLACKROSE)) == Answer("s6+s7", "log", 13)
    assert revealed_answer(parsed(BLACKROSE.replace("right", "wrong"))) is None


def test_without_a_revealed_answer_the_final_position_decides():
    certain = analysis_of(ABBEY.replace("accuse ana c4 right\n", ""))
    assert certain.answer == Answer("c4", "certain") and certain.answer.known
    assert certain.certain.line == 14 and certain.accusation is None
    likely = analysis_of(ABBEY_HEADER + "\nhand ana c1 c2\n")
    # c3, c4 and c5 are tied: the answer says so and is not known
    assert likely.answer == Answer("c3", "tied", tied=3) and not likely.answer.known
    assert likely.answer.describe().endswith("one of 3 answers")
    assert likely.certain is None


def test_certain_only_after_the_guesses_gives_a_negative_lead():
    text = (
        "game rose\nplayers ana bob cai\nme ana\n\nidentity ana red\n"
        "guess ana of bob blue\nguess ana of cai white\n"
        "identity bob orange\nidentity cai black\n"
    )
    result = analysis_of(text)
    assert result.certain.line == 9 and result.accusation.line == 6 and result.lead == -3
    assert lead_text(result) == "certain only 3 events after the first day-7 guess"


def test_truth_files_of_each_game(tmp_path):
    for game in ("blackrose", "rose"):
        simulator = GAMES[game].simulator
        record = next(
            iter(
                simulate(
                    simulator.record, simulator.create(3, {}), 1, 2, (simulator.default_bot,) * 3
                )
            )
        )
        folder = write_game(record, tmp_path / game)
        truth = json.loads((folder / "truth.json").read_text())
        log = read_log(folder / "cai.jsonl")
        expected = (
            "+".join(truth["accomplices"])
            if game == "blackrose"
            else f"ana={truth['identities']['ana']} bob={truth['identities']['bob']}"
        )
        answer = load_truth(str(folder / "truth.json"), log)
        assert answer == expected
        result = analyze(log, list(solve_prefixes(log)), answer)
        assert result.answer == Answer(expected, "truth")
        assert result.rows[-1].probability > 0
    abbey = tmp_path / "abbey.json"
    abbey.write_text(json.dumps({"game": "abbey", "culprit": "c5", "seed": 1}))
    assert analysis_of(ABBEY, truth=load_truth(str(abbey), parsed(ABBEY))).answer.value == "c5"


def test_bad_truth_files(tmp_path):
    wrong_game = tmp_path / "t.json"
    wrong_game.write_text(json.dumps({"game": "rose", "identities": {}}))
    with pytest.raises(LogError, match=r"t\.json:1: \"game\" is not 'abbey', the log's game"):
        load_truth(str(wrong_game), parsed(ABBEY))
    missing = tmp_path / "m.json"
    missing.write_text('{"game": "rose",\n "identities": {"cai": "red"}}')
    with pytest.raises(LogError, match=r"m.json:2: no colour for 'bob'"):
        load_truth(str(missing), parsed(ROSE))
    with pytest.raises(DeduceError, match="'c9' is not a possible answer"):
        analysis_of(ABBEY, truth="c9")


# --------------------------------------------------------------------------
# inconsistent logs


def test_an_inconsistent_prefix_is_reported_and_the_timeline_goes_on(log_file):
    text = ABBEY_HEADER + "\nhand ana c1 c2\nshow bob to ana c1\ncount bob franciscan 1\n"
    result = analysis_of(text)
    assert [r.consistent for r in result.rows] == [True, True, False, False]
    assert [r.entropy for r in result.rows[2:]] == [None, None]
    assert [r.bits for r in result.rows[2:]] == [None, None]
    assert result.inconsistent.line == 13 and result.conflict == (12, 13)
    assert result.answer == Answer("c3", "tied", tied=3)
    table = invoke(log_file(text), "--fmt", "plain").stdout
    conflict = r"inconsistent from +line 13 \(these lines cannot all be true: 12, 13\)"
    assert re.search(conflict, table)
    assert table.rstrip().endswith("inconsistent")


# --------------------------------------------------------------------------
# outputs


def test_json_shape(log_file):
    data = json.loads(invoke(log_file(BLACKROSE), "--json", "--top", "2").stdout)
    assert set(data) == {
        "game",
        "log",
        "question",
        "answer",
        "certain",
        "accusation",
        "lead_events",
        "inconsistent",
        "estimated",
        "top",
        "others_sure",
        "timeline",
    }
    assert (data["game"], data["question"]) == ("blackrose", "accomplices")
    assert data["answer"] == {"value": "s6+s7", "known": True, "source": "log", "line": 13}
    assert data["certain"] == {"line": 11, "event": "proof s5"}
    assert data["accusation"] == {"line": 13, "event": "accuse s7 s6 right"}
    assert data["lead_events"] == 2 and data["inconsistent"] is None
    assert [t["line"] for t in data["top"]] == [11, 10]
    assert data["top"][0]["bits"] == pytest.approx(log2(3))
    assert len(data["timeline"]) == 9
    assert data["timeline"][0] == {
        "line": 1,
        "event": None,
        "consistent": True,
        "candidates": 21,
        "probability": pytest.approx(1 / 21),
        "entropy": pytest.approx(log2(21)),
        "bits": None,
        "exact": True,
    }


def test_csv_is_the_timeline(log_file):
    lines = invoke(log_file(ABBEY), "--csv").stdout.splitlines()
    assert lines[0] == "line,event,candidates,P(answer),entropy,bits,status"
    assert lines[1:] == [
        "1,(header),5,20.0%,2.322,,exact",
        "12,hand ana c1 c2,3,33.3%,1.585,+0.737,exact",
        "13,count bob franciscan 1,2,50.0%,1.000,+0.585,exact",
        "14,show bob to ana c3,1,100%,0.000,+1.000,exact",
        "15,accuse ana c4 right,1,100%,0.000,+0.000,exact",
    ]


def test_table_summary_comes_first(log_file):
    out = invoke(log_file(ABBEY), "--fmt", "plain", "--top", "1").stdout
    assert out.startswith("Analysis of ")
    assert re.search(r"culprit +c4 \(revealed by the log at line 15\)", out)
    assert re.search(r"certain from +line 14: show bob to ana c3", out)
    assert out.index("Most informative") < out.index("Timeline")
    assert "2     13      count bob franciscan 1" not in out  # --top 1


def test_estimated_positions_show_exact_candidates(log_file):
    out = invoke(log_file(ABBEY), "--budget", "0", "--csv").stdout.splitlines()
    assert out[1].startswith("1,(header),5,") and out[1].endswith(",estimated")


def test_options_of_other_games_are_refused(log_file):
    result = invoke(log_file(ROSE), "--budget", "2", code=2)
    assert "--budget does not apply to rose" in result.output


# --------------------------------------------------------------------------
# the plot


def test_plot_is_a_png_written_atomically(tmp_path, log_file):
    target = tmp_path / "out" / "timeline.png"
    target.parent.mkdir()
    invoke(log_file(BLACKROSE), "--plot", str(target))
    data = target.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 1000
    assert [p.name for p in target.parent.iterdir()] == ["timeline.png"]
    plot_timeline(analysis_of(ABBEY, SolveOptions(budget=0)), str(target))
    assert target.read_bytes().startswith(PNG_MAGIC) and target.read_bytes() != data


def _without_matplotlib(monkeypatch) -> None:
    """Make every matplotlib import fail, as when it is not installed."""
    for name in [n for n in sys.modules if n.split(".")[0] == "matplotlib"] + ["matplotlib"]:
        monkeypatch.setitem(sys.modules, name, None)


def test_plot_without_matplotlib_is_one_line(monkeypatch, capsys, log_file, tmp_path):
    _without_matplotlib(monkeypatch)
    with pytest.raises(DeduceError, match=r"pip install 'deduce\[plot\]'"):
        plot_backend()
    target = tmp_path / "t.png"
    code, err = console(monkeypatch, capsys, log_file(ABBEY), "--plot", str(target))
    assert code == 1 and err == ("Error: plotting needs matplotlib: pip install 'deduce[plot]'\n")
    assert not target.exists()


def test_unwritable_plot_is_one_line(monkeypatch, capsys, log_file, tmp_path):
    code, err = console(
        monkeypatch, capsys, log_file(ABBEY), "--plot", str(tmp_path / "no" / "t.png")
    )
    errors = [line for line in err.splitlines() if line.startswith("Error: ")]
    assert code == 1 and len(errors) == 1 and "t.png: cannot write plot" in errors[0]


# --------------------------------------------------------------------------
# bad input


def test_missing_log_is_one_line(monkeypatch, capsys, tmp_path):
    code, err = console(monkeypatch, capsys, str(tmp_path / "none.log"))
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"Error: {tmp_path / 'none.log'}: cannot read log")


def test_invalid_log_names_file_and_line(monkeypatch, capsys, log_file):
    path = log_file(ROSE.replace("reveal cai white", "reveal cia white"))
    code, err = console(monkeypatch, capsys, path)
    assert code == 1 and err.count("\n") == 1 and err.startswith(f"Error: {path}:10: ")


def test_invalid_truth_file_is_one_line(monkeypatch, capsys, log_file, tmp_path):
    truth = tmp_path / "truth.json"
    truth.write_text("{not json")
    code, err = console(monkeypatch, capsys, log_file(ABBEY), "--truth", str(truth))
    assert code == 1 and err.startswith(f"Error: {truth}:1: truth file is not valid JSON")
