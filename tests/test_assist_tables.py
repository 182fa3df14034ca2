"""The short tables after each event, and solving without waiting for a conflict's lines."""

from __future__ import annotations

from dataclasses import replace

from deduce.assist import live
from deduce.assist.compact import compact_tables, contradiction, shows_chances
from deduce.assist.live import Inconsistent, solve_live
from deduce.games.abbey.report import TOP_CANDIDATES
from deduce.games.blackrose.report import TOP_PAIRS
from deduce.logs.io import parse_log, read_log, read_log_text
from deduce.report import percent
from deduce.solving import SolveOptions, outlook, solve_log

BLACKROSE = "game blackrose\nplayers ana bob cai dee\nme ana\nrector bob\nproof s1\n"


def test_abbey_table_lists_the_top_candidates_from_the_solution():
    solution = solve_log(read_log("examples/abbey-6p.jsonl"))
    (table,) = compact_tables(solution)
    candidates = solution.candidates
    assert len(candidates) > TOP_CANDIDATES
    assert table.title == f"Culprit: {len(candidates)} candidates (2 suspects tied at 17.9%)"
    assert [row[0] for row in table.rows[:-1]] == candidates[:TOP_CANDIDATES]
    assert [row[2] for row in table.rows[:-1]] == [
        percent(solution.culprit[c]) for c in candidates[:TOP_CANDIDATES]
    ]
    assert table.rows[1][1] == solution.setup.deck.card(candidates[1]).name
    assert table.rows[-1] == [f"... {len(candidates) - TOP_CANDIDATES} more", "", ""]


def test_abbey_table_says_when_chances_are_estimated():
    solution = solve_log(read_log("examples/abbey-4p.log"))
    estimated = replace(solution, exact=False, error=0.0123)
    (table,) = compact_tables(estimated)
    assert table.title == "Culprit: 5 candidates (chances estimated, within 1.2 points)"
    assert len(table.rows) == 5


def test_rose_table_has_one_row_per_other_player_most_probable_first():
    solution = solve_log(read_log("examples/rose-4p.jsonl"))
    (table,) = compact_tables(solution)
    assert table.title == (
        f"Colours: {outlook(solution).candidates} possible colourings "
        f"(weighing {solution.weighed} behaviour events)"
    )
    assert [row[0] for row in table.rows] == ["bob", "cai", "dee"]
    for player, cell in table.rows:
        row = solution.probabilities[player]
        ranked = sorted(row, key=lambda c: -row[c])
        assert cell == "  ".join(f"{c} {percent(row[c])}" for c in ranked)


def test_blackrose_tables_list_top_pairs_and_the_possessed():
    solution = solve_log(parse_log(BLACKROSE, "g.log"))
    pairs, possessed = compact_tables(solution)
    assert pairs.title == "Accomplices: 15 possible pairs (15 pairs tied at 6.7%)"
    assert len(pairs.rows) == TOP_PAIRS + 1 and pairs.rows[-1] == ["... 10 more", ""]
    assert all("s1" not in row[0] for row in pairs.rows)
    assert possessed.rows == [["ana", "33.3%"], ["cai", "33.3%"], ["dee", "33.3%"]]


def test_contradictions_name_their_lines_when_known():
    rose = solve_log(
        parse_log(
            "game rose\nplayers ana bob\nme ana\nidentity ana red\nidentity bob red\n", "g.log"
        )
    )
    assert compact_tables(rose) == []
    assert contradiction(rose) == "Contradiction: lines 4, 5 cannot all be true."
    assert contradiction(Inconsistent()) == (
        "Contradiction: no history of the game fits every event."
    )


def test_solve_live_reports_an_inconsistent_abbey_log_without_its_lines(log_file, monkeypatch):
    path = log_file(read_log_text("examples/abbey-4p.log") + "count bob fat 1\n")

    def no_full_solve(*args):
        raise AssertionError("the minimal conflict is left to explain")

    monkeypatch.setattr(live, "solve_log", no_full_solve)
    assert solve_live(read_log(path), SolveOptions(budget=2)) == Inconsistent()


def test_solve_live_solves_consistent_logs_and_other_games_as_solve_log():
    for path in ("examples/abbey-4p.log", "examples/rose-4p.jsonl"):
        log = read_log(path)
        assert solve_live(log, SolveOptions(budget=2)) == solve_log(log, SolveOptions(budget=2))
    rose = parse_log("game rose\nplayers ana bob\nme ana\nreveal bob red\nreveal bob red\n", "g")
    assert solve_live(rose, SolveOptions()).conflict == (4, 5)


def test_a_single_line_conflict_reads_in_the_singular():
    rose = solve_log(
        parse_log(
            "game rose\nplayers ana bob\nme ana\nidentity ana red\nidentity ana blue\n", "g.log"
        )
    )
    assert contradiction(rose) in ("Contradiction: lines 4, 5 cannot all be true.",)
    assert contradiction(replace(rose, conflict=(5,))) == "Contradiction: line 5 cannot be true."


def test_a_pending_table_says_for_how_long_its_chances_have_been_computed():
    solution = solve_log(read_log("examples/abbey-4p.log"))
    unknown = replace(solution, exact=False, error=1.0)
    assert compact_tables(unknown, pending=True)[0].title.endswith("(chances: computing…)")
    assert compact_tables(unknown, True, 0.4)[0].title.endswith("(chances: computing…)")
    assert compact_tables(unknown, True, 14.2)[0].title.endswith("(chances: computing for 14 s…)")
    assert compact_tables(unknown, True, 600)[0].title.endswith("(chances: computing for 10 min…)")
    # chances that are known say nothing of it
    assert "computing" not in compact_tables(solution, True, 14.2)[0].title


def test_chances_show_when_exact_or_estimated_closely_enough():
    """What ``play`` waits for before it estimates what the others know."""
    solution = solve_log(read_log("examples/abbey-4p.log"))
    assert shows_chances(compact_tables(solution))
    assert shows_chances(compact_tables(replace(solution, exact=False, error=0.0123)))
    assert not shows_chances(compact_tables(replace(solution, exact=False, error=1.0)))
    assert shows_chances(compact_tables(Inconsistent()))  # nothing to wait for
