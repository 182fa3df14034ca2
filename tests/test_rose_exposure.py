"""How exposed your colour is: hand examples, the brute force, the tables, JSON and ``play``."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import permutations

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.rose import weighted_deals
from rose_random import NAMES, rose

from deduce.cli.main import cli
from deduce.errors import DeduceError
from deduce.games.protocol import SolveOptions
from deduce.games.rose.exposure import GUESSERS, exposure_of
from deduce.games.rose.game import GAME
from deduce.games.rose.report import tables
from deduce.games.rose.solve import solve_rose
from deduce.logs.formats.rose import COLOURS
from deduce.logs.io import read_log
from deduce.logs.model import GameLog

fast = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def chances(log: GameLog, guesser: str = "markers", hard: bool = True) -> dict[str, Fraction]:
    found = exposure_of(log, solve_rose(log, hard=hard), guesser)
    assert found is not None
    return dict(found.chances)


# --------------------------------------------------------------------------
# the brute force: every deal, every opponent's view of every deal


def brute_exposure(log: GameLog) -> dict[str, Fraction] | None:
    """Opponent -> chance their best joint guess (hard events, ties shared) names my colour."""
    players, me = log.header.players, log.header.me
    mine_deals = list(weighted_deals(log))
    if not mine_deals:
        return None
    (mine,) = {deal[players.index(me)] for deal, _ in mine_deals}
    public = GameLog(log.header, tuple(e for e in log.events if e.type != "identity"), log.path)
    public_deals = list(weighted_deals(public))
    seat = {p: i for i, p in enumerate(players)}

    @cache
    def share(guesser: str, colour: str) -> Fraction:
        """The share of ``guesser``'s best guesses naming my colour, when they are ``colour``."""
        theirs = [(d, w) for d, w in public_deals if d[seat[guesser]] == colour]
        total = sum(w for _, w in theirs)
        others = [p for p in players if p != guesser]
        chance = dict.fromkeys(((p, c) for p in others for c in COLOURS), Fraction(0))
        for deal, weight in theirs:
            for p in others:
                chance[p, deal[seat[p]]] += weight / total
        values = {
            pick: sum(chance[p, c] for p, c in zip(others, pick))
            for pick in permutations(COLOURS, len(others))
        }
        top = max(values.values())
        best = [pick for pick, v in values.items() if v == top]
        return Fraction(sum(pick[others.index(me)] == mine for pick in best), len(best))

    total = sum(w for _, w in mine_deals)
    return {
        q: sum(w / total * share(q, d[seat[q]]) for d, w in mine_deals) for q in players if q != me
    }


@st.composite
def observed_logs(draw: st.DrawFn) -> GameLog:
    """A log of 2 to 5 players whose observer knows their colour, with up to 8 more events."""
    players = NAMES[: draw(st.integers(2, 5))]
    me = draw(st.sampled_from(players))
    player, colour = st.sampled_from(players), st.sampled_from(COLOURS)
    reveal = st.builds("reveal {} {}".format, player, colour)
    event = st.one_of(
        reveal,
        reveal,
        reveal,
        st.builds("identity {} {}".format, player, colour),
        st.builds("points {} {} clue -3 william".format, player, colour),
        st.builds(
            "guess {0[0]} of {0[1]} {1}".format,
            st.permutations(players).map(lambda p: p[:2]),
            colour,
        ),
    )
    events = draw(st.lists(event, max_size=8))
    return rose(" ".join(players), me, f"identity {me} {draw(colour)}", *events)


@settings(fast, max_examples=150)
@given(observed_logs())
def test_hard_exposure_is_the_brute_force_exactly(log):
    expected = brute_exposure(log)
    found = exposure_of(log, solve_rose(log, hard=True), "markers")
    assert (found is None) == (expected is None)
    if found is not None:
        assert found.chances == expected
        assert list(found.chances) == [p for p in log.header.players if p != log.header.me]


@settings(fast, max_examples=60)
@given(observed_logs())
def test_without_behaviour_events_both_guessers_agree(log):
    log = replace(log, events=tuple(e for e in log.events if e.type != "points"))
    solution = solve_rose(log)
    found = {g: exposure_of(log, solution, g) for g in GUESSERS}
    if solution.consistent:
        assert found["markers"].chances == found["play"].chances
    else:
        assert found == dict.fromkeys(GUESSERS)


# --------------------------------------------------------------------------
# hand examples


def test_every_marker_but_mine_revealed_gives_me_away_to_everyone():
    log = rose(
        "ana bob cai",
        "ana",
        "identity ana red",
        *(f"reveal ana {c}" for c in COLOURS if c != "red"),
    )
    for guesser in GUESSERS:
        found = exposure_of(log, solve_rose(log), guesser)
        assert found is not None
        assert found.chances == {"bob": 1, "cai": 1}
        assert (found.points, found.expected) == (6, 12)


def test_the_opponent_s_own_colour_and_shared_ties_by_hand():
    # bob is one of blue, white, grey, black (revealed by me) or orange, each 1/5. As orange
    # he knows I am red; as any other he has red and orange left for me: two tied guesses.
    log = rose(
        "ana bob",
        "ana",
        "identity ana red",
        *(f"reveal ana {c}" for c in ("blue", "white", "grey", "black")),
    )
    assert chances(log) == {"bob": Fraction(1, 5) * 1 + Fraction(4, 5) * Fraction(1, 2)}
    found = exposure_of(log, solve_rose(log, hard=True))
    assert found is not None and found.expected == Fraction(3, 5) * 12


def test_the_play_guesser_reads_how_i_play():
    helping = ["points ana red clue -3 william"] * 3
    log = rose("ana bob", "ana", "identity ana red", *helping, "points ana blue clue 3 william")
    assert chances(log, "markers", hard=False) == {"bob": Fraction(1, 5)}
    assert chances(log, "play", hard=False) == {"bob": 1}


def test_what_only_i_know_stays_mine():
    # I am red or orange to everyone, and cai is orange: cai knows it, bob does not (that
    # line is mine alone), so bob has six tied guesses, three of which say red
    log = rose(
        "ana bob cai",
        "ana",
        "identity ana red",
        *(f"reveal ana {c}" for c in ("blue", "white", "grey", "black")),
        "identity cai orange",
    )
    assert chances(log) == {"bob": Fraction(1, 2), "cai": 1}


@pytest.mark.parametrize(
    "log",
    [
        rose("ana bob", "ana", "reveal ana red"),
        rose("ana bob", None, "identity ana red"),
        rose("ana bob", "ana", "identity ana red", "reveal bob blue", "identity bob blue"),
    ],
    ids=["no identity of mine", "spectator", "inconsistent"],
)
def test_no_exposure_without_my_colour_or_a_history(log):
    solution = GAME.solve(log, SolveOptions())
    assert solution.exposure is None
    assert "exposure" not in solution.to_json()


def test_an_unknown_guesser_is_one_line():
    log = rose("ana bob", "ana", "identity ana red")
    with pytest.raises(DeduceError, match="unknown guesser 'bots' \\(expected: markers, play\\)"):
        exposure_of(log, solve_rose(log), "bots")


# --------------------------------------------------------------------------
# solve: the table and the JSON


def test_the_table_and_the_json(log_file):
    text = "game rose\nplayers ana bob\nme ana\nidentity ana red\n" + "".join(
        f"reveal ana {c}\n" for c in ("blue", "white", "grey", "black")
    )
    path = log_file(text)
    solution = GAME.solve(read_log(path), SolveOptions())
    exposure = next(t for t in tables(solution) if t.title.startswith("How exposed you are"))
    assert exposure.title == (
        "How exposed you are (you are red: the day-7 guesses cost you 7.20 clue points "
        "expected, 12 per right guess)"
    )
    assert exposure.rows == [["bob", "60.0%", "7.20"]]
    assert tables(solution)[-1].title.startswith("Who is which monk")  # the matrix stays last
    data = json.loads(CliRunner().invoke(cli, ["solve", path, "--json"]).stdout)
    assert data["exposure"] == {"bob": 0.6}
    assert data["exposure_points"] == pytest.approx(7.2)


# --------------------------------------------------------------------------
# play: your colour first


def test_play_asks_my_colour_first(tmp_path):
    log = tmp_path / "g.log"
    answers = ["rose", "ana bob cai", "ana", "pink", "Red", "quit"]
    result = CliRunner().invoke(cli, ["play", str(log)], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "Your colour: red, blue, white, grey, black or orange (Enter to skip)" in result.output
    assert "Error:" in result.output  # pink is asked again
    (event,) = read_log(str(log)).events
    assert (event.type, event.get("player"), event.get("colour")) == ("identity", "ana", "red")


def test_play_may_skip_my_colour_and_spectators_are_not_asked(tmp_path):
    (question,) = GAME.openings("ana")
    assert (question.key, question.kind, question.required) == ("identity ana", "ids", False)
    for me, answers in (("ana", ["", "quit"]), ("spectator", ["quit"])):
        log = tmp_path / f"{me}.log"
        lines = ["rose", "ana bob", me, *answers]
        result = CliRunner().invoke(cli, ["play", str(log)], input="\n".join(lines) + "\n")
        assert result.exit_code == 0, result.output
        assert read_log(str(log)).events == ()
        assert ("Your colour" in result.output) == (me == "ana")


def test_the_guesser_is_chosen_on_the_command_line():
    """``--guesser play``: the others read the example's play, and see through it."""
    example = "examples/rose-4p.jsonl"
    runner = CliRunner()
    by_markers = json.loads(runner.invoke(cli, ["solve", example, "--json"]).stdout)
    by_play = json.loads(
        runner.invoke(cli, ["solve", example, "--json", "--guesser", "play"]).stdout
    )
    solution = solve_rose(read_log(example))
    assert by_markers["exposure"] == {
        p: float(c) for p, c in exposure_of(read_log(example), solution).chances.items()
    }
    assert by_play["exposure"] == {
        p: float(c) for p, c in exposure_of(read_log(example), solution, "play").chances.items()
    }
    assert by_play["exposure"] != by_markers["exposure"]
    table = runner.invoke(cli, ["solve", example, "--guesser", "play"]).stdout
    assert "the others reading your play" in table
    advice = runner.invoke(
        cli, ["suggest", example, "--situation", "william black", "--guesser", "play", "--json"]
    )
    assert json.loads(advice.stdout)["situation"]["guesser"] == "play"
    refused = runner.invoke(cli, ["solve", "examples/abbey-4p.log", "--guesser", "play"])
    assert refused.exit_code == 2
    assert "--guesser does not apply to abbey" in refused.output
