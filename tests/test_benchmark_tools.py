"""Pure helpers of the benchmark scripts, against brute force.

The scripts import each other by name, as they do when run from ``benchmarks/``;
the suite finds them there through pytest's ``pythonpath`` (``pyproject.toml``).
"""

from __future__ import annotations

from certainty import first_certain
from hypothesis import given
from hypothesis import strategies as st
from winrate import seating


@given(st.integers(0, 40), st.integers(0, 45))
def test_bisection_finds_the_first_position_of_a_monotone_test(events, threshold):
    def certain(k):
        return k >= threshold

    linear = next((k for k in range(1, events + 1) if certain(k)), None)
    assert first_certain(events, certain) == linear


def test_seats_rotate_by_one_a_game():
    lineup = ("solver", "notepad", "random")
    assert seating(lineup, 0) == lineup
    assert seating(lineup, 1) == ("notepad", "random", "solver")
    assert seating(lineup, 3) == lineup


def test_usable_chances_are_exact_or_within_a_narrow_bound_that_covers_the_truth():
    from chances import usable

    def culprit(exact, error, miss=None):
        part = {"culprit_exact": exact, "culprit_error": error}
        return part if miss is None else {**part, "culprit_miss": miss}

    assert usable(culprit(True, 0.0), "culprit")
    assert usable(culprit(False, 0.04, 0.03), "culprit")
    assert usable(culprit(False, 0.04), "culprit")  # no truth known: the bound alone
    assert not usable(culprit(False, 0.04, 0.05), "culprit")  # the bound missed the truth
    assert not usable(culprit(False, 0.06, 0.01), "culprit")  # too wide
    assert usable({"exact": False, "error": 0.02, "holder_miss": 0.01}, "holders")


def test_a_run_split_into_parts_tallies_as_one():
    from winrate import tallied

    def game(n, winners, scores):
        bots = {"ana": "solver", "bob": "notepad"}
        return {
            "game": n,
            "accusations": [("solver", True, 1)],
            "truth": {"bots": bots, "winners": winners, "scores": scores, "found": True},
        }

    games = [
        game(1, ["ana"], {"ana": 3, "bob": 0}),
        game(2, ["ana", "bob"], {"ana": 1, "bob": 1}),
        game(3, ["bob"], {"ana": -1, "bob": 4}),
    ]
    whole, first, second = tallied(games), tallied(games[:1]), tallied(games[1:])
    assert whole.wins == {"solver": 1.5, "notepad": 1.5}
    assert whole.points == {"solver": 3, "notepad": 5}
    assert whole.games == first.games + second.games == 3
    assert whole.seats == first.seats + second.seats
    assert whole.accused == first.accused + second.accused


def test_the_certainty_row_counts_a_sheet_that_never_got_there_as_the_log_end():
    from certainty import summary_row

    rows = [
        {"closure": 30, "sheet": 60, "events": 90, "reached": 30},
        {"closure": 45, "sheet": None, "events": 90, "reached": 18},
        {"closure": None, "sheet": 70, "events": 80, "reached": 60},
    ]
    row = summary_row("advised", rows)
    assert row[:4] == ["advised", 3, "67%", "67%"]
    assert row[4:8] == [37.5, 65, 37.5, "50%"]  # gains 30 and 45; shares 1/2 and 1/2
    assert row[8] == "67%"  # the sheet's last count reached 2/3, 4/5 and 1/4 of a log early


@given(st.integers(3, 6), st.integers(1, 50))
def test_the_paired_runs_follow_the_first_bot_round_the_table(players, index):
    from paired import first_seat_scores, first_seat_wins

    names = [f"p{i}" for i in range(players)]
    lineup = ("tested",) + ("other",) * (players - 1)
    bots = dict(zip(names, seating(lineup, index)))
    tested = next(p for p, kind in bots.items() if kind == "tested")
    scores = {p: 10 * (p == tested) - 1 for p in names}
    result = {
        "game": index,
        "truth": {"players": names, "winners": sorted({tested, names[0]}), "scores": scores},
    }
    share = 1.0 if tested == names[0] else 0.5
    assert first_seat_wins([result]) == {index: share}
    assert first_seat_scores([result]) == {index: 9.0}


def test_a_paired_difference_without_noise_has_no_width():
    from paired import compare

    a = {g: float(g % 2) for g in range(1, 41)}
    same = compare(a, a)
    assert same["difference"] == 0 and same["half_width"] == 0 and same["ratio"] == 1
    better = compare(a, {g: 0.0 if g % 4 == 1 else w for g, w in a.items()})
    assert better["difference"] == 0.25 and better["ratio"] == 2.0
    assert better["ratio_low"] <= 2.0 <= better["ratio_high"]


def test_the_patient_bot_accuses_only_the_last_suspect_of_its_paper_sheet():
    from types import SimpleNamespace

    from certainty import PatientAdvised

    from deduce.games.abbey.rules.engine import AbbeyGame

    game = AbbeyGame.create(4)
    bot = PatientAdvised(game, 0)
    *seen, last, other = game.deck.ids
    assert bot.suspect(SimpleNamespace(log=[{"type": "hand", "cards": seen}])) is None
    assert (
        bot.suspect(
            SimpleNamespace(log=[{"type": "hand", "cards": seen}, {"type": "show", "card": other}])
        )
        == last
    )


def test_the_kept_logs_of_a_run_are_read_back_one_per_player(tmp_path):
    from sat import cuts
    from suggest_time import kept_lines
    from winrate import play

    play((4, 1, 1, ("solver", "notepad", "notepad", "random"), tmp_path))
    ((name, lines),) = kept_lines(tmp_path)
    player = name.split(":")[1]
    assert name.startswith("game-0001:") and len(lines) > 10
    half, three_quarters, whole = cuts(tmp_path)
    assert whole[0] == f"game-0001.json:{player}:{len(lines) - 1}"
    assert len(half[2]) < len(three_quarters[2]) < len(whole[2]) == len(lines) - 1
    assert whole[1].me == player


def test_a_resumed_measurement_measures_the_last_game_and_a_cut_line_again(tmp_path):
    import json

    from opponents import resumed

    out = tmp_path / "run.jsonl"
    assert resumed(str(out)) == set()
    rows = [
        {"players": 6, "game": game, "transfer": t}
        for game, t in (("game-0001", 10), ("game-0001", 20), ("game-0002", 10), ("game-0003", 10))
    ]
    text = "".join(json.dumps(r) + "\n" for r in rows)
    out.write_text(text + text.splitlines()[0][:15])  # a line cut in the middle
    assert resumed(str(out)) == {(6, "game-0001"), (6, "game-0002")}
    assert out.read_text() == "".join(json.dumps(r) + "\n" for r in rows[:3])
    assert resumed(str(out)) == {(6, "game-0001")}  # game-0002 is now the last


def test_resampling_games_moves_a_games_opponents_together_where_drawing_each_does_not():
    import numpy as np
    from opponents import calibrated_bands, resampled_bands

    # two games of 40 predictions at 25% each: every opponent of one sure, none of the other
    chances = np.full(80, 0.25)
    truth = np.repeat([1.0, 0.0], 40)
    games = np.repeat(["game-0001", "game-0002"], 40)
    tenths = np.full(80, 2)
    rng = np.random.default_rng(0)
    low, high = resampled_bands(chances, truth, tenths, games, rng)[0][2]
    assert (low, high) == (0.0, 1.0)  # a resample holds game 1 twice, or game 2 twice
    drawn = calibrated_bands(chances, tenths, rng)[0][2]
    assert 0.1 < drawn[0] < 0.25 < drawn[1] < 0.4  # each outcome on its own: a narrow band


def test_chances_that_say_what_came_true_pass_the_ten_point_test_in_every_draw():
    import numpy as np
    from opponents import calibrated_bands, resampled_bands

    truth = np.array([1.0, 0.0] * 30)
    tenths = np.minimum((truth * 10).astype(int), 9)
    games = np.array([f"game-{i // 6}" for i in range(60)])
    rng = np.random.default_rng(0)
    for bands, passing in (
        calibrated_bands(truth, tenths, rng),
        resampled_bands(truth, truth, tenths, games, rng),
    ):
        assert passing == 1.0
        assert bands == {0: (0.0, 0.0), 9: (1.0, 1.0)}


def test_a_variant_of_the_race_holds_only_while_it_runs_even_when_it_fails():
    import pytest
    from opponents_law import varied

    from deduce.games.abbey.solver import opponents, silence

    settings = (opponents.BURN_BATCHES, opponents.SPACING, dict(silence.WAITS))
    with varied({"burn": 40, "spacing": 30, "wait": 0.5, "anything": 0.2}, 6) as anything:
        assert anything == 0.2
        assert (opponents.BURN_BATCHES, opponents.SPACING) == (40, 30)
        assert silence.wait_of(6) == 0.5 and silence.wait_of(4) == settings[2][4]
    with pytest.raises(RuntimeError), varied({"wait": 0.1}, 4) as anything:
        assert anything == silence.ANY and silence.wait_of(4) == 0.1
        raise RuntimeError("a position failed")
    assert (opponents.BURN_BATCHES, opponents.SPACING, silence.WAITS) == settings


def test_the_report_puts_the_squared_errors_by_stage_and_takes_the_chains_noise_off(capsys):
    import numpy as np
    from opponents import stages

    from deduce.games.abbey.solver.chains import student
    from deduce.games.abbey.solver.opponents import CHAINS, SLACK

    # the chances of two stages: 10-19 right and sure of it, 60-79 half right with a noisy bound
    rows = [
        {"transfer": t, "error": e} for t, e in ((10, SLACK), (10, SLACK), (60, 0.5), (70, 0.5))
    ]
    chances = np.array([0.0, 1.0, 0.5, 0.5])
    truth = np.array([0.0, 1.0, 1.0, 0.0])
    stages(rows, chances, truth)  # the base rate's squared errors: 1.0
    out = capsys.readouterr().out
    assert "0-19" in out and "60-79" in out and "20-39" not in out
    noise = 2 * ((0.5 - SLACK) / student(CHAINS - 1)) ** 2
    assert f"Squared errors 0.5, of which the chains' own noise about {noise:.1f}" in out
    assert f"a ratio of {0.5 - noise:.3f}" in out
