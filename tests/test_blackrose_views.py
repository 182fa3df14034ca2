"""What the others think of the Possessed: the views against a brute force, by hand, CLI."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from itertools import combinations

from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracles.blackrose import brute_joint

from deduce.cli.main import cli
from deduce.games.blackrose.advisor import (
    EXPOSED,
    ClaimOption,
    claim_options,
    possessed_kill,
    rank_claims,
)
from deduce.games.blackrose.claims import ClaimsModel, bots_model
from deduce.games.blackrose.csp import Setting
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.blackrose.observe import observe
from deduce.games.blackrose.simulate import play, record_game
from deduce.games.blackrose.solve import solve_blackrose
from deduce.games.blackrose.views import (
    SEEN,
    SEEN_MINE,
    PossessedSeat,
    public_events,
    table_suspects,
)
from deduce.logs.io import parse_log
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import Event, GameLog

SUSPECTS = ("s1", "s2", "s3", "s4", "s5", "s6", "s7")
fast = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def blackrose(players: str, rector: str, me: str, *events: str) -> GameLog:
    """A log in the line syntax, header on lines 1-4."""
    text = "\n".join([f"game blackrose\nplayers {players}\nrector {rector}\nme {me}", *events])
    return parse_log(text + "\n", "t.log")


# --------------------------------------------------------------------------
# the brute force: every set of Proofs an investigator may have seen, one view each


def _marginal(joint, key):
    totals: dict = {}
    for hidden, p in joint.items():
        totals[key(hidden)] = totals.get(key(hidden), 0) + p
    return totals


def _top(totals):
    best = max(totals.values())
    return [k for k, p in totals.items() if p == best]


def brute_outlooks(log: GameLog, model: ClaimsModel | None) -> dict[str, tuple[Fraction, Fraction]]:
    """Per investigator, (suspected, right), by writing out every view they may hold.

    The owner's pairs come from the brute force of its log without its own claims; each
    investigator's view is the log of the public events, their role and the Proofs of a
    set of suspects, solved by the brute force; the sets are every subset of the seven
    suspects, weighted by the chance of seeing each innocent's Proof.
    """
    me = log.header.me
    setting = Setting.of(log.header)
    mine_log = replace(
        log,
        events=tuple(e for e in log.events if not (e.type == "claim" and e.get("player") == me)),
    )
    mine = _marginal(brute_joint(mine_log, model), lambda h: h.pair)
    proofs = [e for e in log.events if e.type == "proof"]
    seen = {e.get("suspect") for e in proofs}
    public = [e for e in log.events if e.type in ("claim", "accuse", "kill", "goal")]
    line = 100
    found = {}
    for other in (p for p in setting.investigators if p != me):
        sure = {e.get("suspect") for e in proofs if e.get("player") == other}
        suspected = right = Fraction(0)
        for size in range(len(SUSPECTS) + 1):
            for subset in combinations(SUSPECTS, size):
                if not sure <= set(subset):
                    continue
                view = brute_view(log, public, other, subset, model, line)
                pairs = _top(_marginal(view, lambda h: h.pair)) if view else []
                answers = _top(_marginal(view, lambda h: h.possessed)) if view else []
                for pair, p in mine.items():
                    if set(pair) & set(subset):
                        continue
                    weight = p
                    for s in SUSPECTS:
                        if s not in pair and s not in sure:
                            rate = SEEN_MINE if s in seen else SEEN
                            weight *= rate if s in subset else 1 - rate
                    if pair in pairs:
                        right += weight / len(pairs)
                    if me in answers:
                        suspected += weight / len(answers)
        found[other] = (suspected, right)
    return found


def brute_view(log, public, other, subset, model, line):
    """The brute force of investigator ``other``'s log: public events, role, Proofs seen."""
    own = [Event("role", {"player": other, "role": "investigator"}, line)]
    own += [Event("proof", {"suspect": s}, line + 1 + i) for i, s in enumerate(subset)]
    view = replace(log, events=(*public, *own))
    return brute_joint(view, model)


@st.composite
def possessed_logs(draw: st.DrawFn) -> GameLog:
    """Small true logs of a Possessed ``ana``: its Proofs, anyone's claims, a wrong accusation."""
    players = ("ana", "bob", "cai", "dee")[: draw(st.sampled_from((3, 4)))]
    pair = set(draw(st.permutations(SUSPECTS))[:2])
    innocents = [s for s in SUSPECTS if s not in pair]
    lines = ["role ana possessed"]
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(("proof", "claim", "claim", "accuse")))
        if kind == "proof":
            holder = draw(st.sampled_from(["ana", "bob"]))
            lines.append(f"proof {draw(st.sampled_from(innocents))} by {holder}")
        elif kind == "claim":
            who = draw(st.sampled_from(players[:-1]))
            verdict = draw(st.sampled_from(["innocent", "guilty"]))
            lines.append(f"claim {who} {draw(st.sampled_from(SUSPECTS))} {verdict}")
        else:
            accused = draw(st.permutations(SUSPECTS))[:2]
            assume(set(accused) != pair)
            lines.append(f"accuse {accused[0]} {accused[1]} wrong")
    return blackrose(" ".join(players), players[-1], "ana", *lines)


rates = st.floats(0.01, 0.99)
models = st.one_of(
    st.none(),
    st.builds(
        lambda e, lam: ClaimsModel.single({"investigator": e, "possessed": lam, "rector": 0.5}),
        rates,
        rates,
    ),
)


@settings(fast, max_examples=25)
@given(possessed_logs(), models)
def test_each_investigator_s_outlook_is_the_brute_force_exactly(log, model):
    seat = PossessedSeat.of(log, hard=model is None, model=model)
    found = {j: (o.suspected, o.right) for j, o in seat.outlooks().items()}
    assert found == brute_outlooks(log, model)


# --------------------------------------------------------------------------
# by hand

#: bob, the Possessed, says s1 is innocent and guilty: one of the two is a lie.
CAUGHT = (
    "role bob possessed",
    "proof s4 by bob",
    "claim bob s1 innocent",
    "claim bob s1 guilty",
)


def test_public_claims_that_catch_the_possessed_make_every_view_suspect_them():
    log = blackrose("ana bob cai dee", "ana", "bob", *CAUGHT)
    for model in (None, bots_model()):
        outlooks = PossessedSeat.of(log, model=model).outlooks()
        assert {j: o.suspected for j, o in outlooks.items()} == {"cai": 1, "dee": 1}
        table = table_suspects(log, model=model)
        assert max(table, key=lambda who: table[who]) == "bob"


def test_with_no_claims_every_view_ties_the_possessed_with_the_others():
    # cai's view: bob or dee, 1/2 each whatever cai saw; with 3 players: bob or nobody
    log = blackrose("ana bob cai dee", "ana", "bob", "role bob possessed", "proof s4 by bob")
    outlooks = PossessedSeat.of(log).outlooks()
    assert {j: o.suspected for j, o in outlooks.items()} == {
        "cai": Fraction(1, 2),
        "dee": Fraction(1, 2),
    }
    three = blackrose("ana bob cai", "ana", "bob", "role bob possessed")
    assert PossessedSeat.of(three).outlooks()["cai"].suspected == Fraction(1, 2)


def test_a_proof_seen_in_an_investigator_s_hand_is_theirs_for_sure():
    # bob calls s5 guilty; bob saw s5's Proof in cai's hand: cai knows it is a lie
    log = blackrose(
        "ana bob cai dee",
        "ana",
        "bob",
        "role bob possessed",
        "proof s5 by cai",
        "claim bob s5 guilty",
    )
    seat = PossessedSeat.of(log, model=bots_model())
    assert seat.sure == {"cai": frozenset({"s5"}), "dee": frozenset()}
    assert seat.rates["s5"] == SEEN_MINE and seat.rates["s1"] == SEEN
    outlooks = seat.outlooks()
    assert outlooks["cai"].suspected == 1
    assert 0 < outlooks["dee"].suspected < 1


def test_public_events_keep_roles_private_until_every_investigator_is_named():
    mid = blackrose("ana bob cai dee", "ana", "ana", "role dee possessed", "proof s1", "kill s2")
    assert [e.type for e in public_events(mid)] == ["kill"]
    end = blackrose(
        "ana bob cai dee",
        "ana",
        "bob",
        "role bob investigator",
        "claim cai s3 innocent",
        "accuse s1 s2 right",
        "role bob investigator",
        "role cai possessed",
        "role dee investigator",
    )
    assert [e.type for e in public_events(end)] == ["role", "claim", "accuse", *["role"] * 3]
    assert table_suspects(end) == {"cai": 1}


def test_the_table_reads_only_the_public_events():
    log = blackrose(
        "ana bob cai dee",
        "ana",
        "bob",
        "role bob investigator",
        "proof s2 by bob",
        "claim cai s2 guilty",
        "claim dee s3 innocent",
    )
    onlooker = blackrose(
        "ana bob cai dee", "ana", "bob", "claim cai s2 guilty", "claim dee s3 innocent"
    )
    assert table_suspects(log) == solve_blackrose(onlooker).possessed
    assert table_suspects(log) != solve_blackrose(log).possessed  # bob knows cai lied


# --------------------------------------------------------------------------
# the advice


def option(said, exposure, right):
    return ClaimOption(said, {"cai": Fraction(exposure)}, Fraction(right))


def test_the_advice_misleads_most_without_exposing_past_a_half_or_now():
    quiet = option(None, "0.3", "0.30")
    sharp = option(("s1", True), "0.9", "0.10")
    close = option(("s2", True), "0.5", "0.105")
    hidden = option(("s3", False), "0.1", "0.2")
    assert EXPOSED == Fraction(1, 2)
    assert rank_claims([quiet, sharp, close, hidden]) == (close, hidden, quiet, sharp)
    # already suspected past a half: no claim may expose more than saying nothing
    caught = option(None, "0.7", "0.30")
    assert rank_claims([caught, sharp, close, hidden]) == (close, hidden, caught, sharp)
    worse = option(("s4", True), "0.8", "0.01")
    assert rank_claims([caught, worse])[0] == caught
    assert rank_claims([quiet, option(("s4", True), "0.3", "0.30")])[0] == quiet  # a tie: quiet


def test_the_options_are_the_claims_not_made_yet_and_saying_nothing():
    log = blackrose("ana bob cai dee", "ana", "bob", *CAUGHT)
    options = claim_options(log, bots_model())
    said = [o.said for o in options]
    assert None in said and ("s1", True) not in said and ("s1", False) not in said
    assert len(said) == 1 + 14 - 2
    assert options == rank_claims(options)
    for o in options:
        assert set(o.suspected) == {"cai", "dee"} and 0 <= o.right <= 1


def test_the_kill_leaves_out_the_possessed_s_own_claims():
    # bob's own lie "s2 innocent" says nothing to bob: s1, s2, s3 stay alike
    log = blackrose(
        "ana bob cai dee",
        "ana",
        "bob",
        "role bob possessed",
        *(f"proof s{i} by bob" for i in (4, 5, 6, 7)),
        "claim bob s1 innocent",
    )
    assert possessed_kill(log, ["s1", "s2", "s3"], bots_model()) == ("s1", Fraction(2, 3))
    assert possessed_kill(log, ["s4", "s5"], bots_model()) is None


# --------------------------------------------------------------------------
# the command line


POSSESSED_LOG = "game blackrose\nplayers ana bob cai dee\nrector ana\nme bob\n" + "\n".join(CAUGHT)
EXISTING = ["game", "consistent", "exact", "accomplices", "suspects", "possessed", "styles"]


def test_solve_tells_the_possessed_who_suspects_them(log_file):
    path = log_file(POSSESSED_LOG + "\n")
    data = json.loads(CliRunner().invoke(cli, ["solve", path, "--json"]).output)
    assert list(data) == [*EXISTING, "suspected"]
    assert data["suspected"] == {"cai": 1.0, "dee": 1.0}
    text = CliRunner().invoke(cli, ["solve", path]).output
    assert "Who suspects you most (you are the Possessed" in text
    assert "What the table thinks" not in text


def test_solve_tells_the_others_whom_the_table_suspects(log_file):
    path = log_file(
        POSSESSED_LOG.replace("me bob", "me cai").replace("bob possessed", "cai investigator")
    )
    data = json.loads(CliRunner().invoke(cli, ["solve", path, "--json"]).output)
    assert list(data) == [*EXISTING, "table_suspects"]
    assert set(data["table_suspects"]) == {"bob", "cai", "dee"}
    assert max(data["table_suspects"], key=data["table_suspects"].get) == "bob"
    text = CliRunner().invoke(cli, ["solve", path]).output
    assert "What the table thinks (public events only): bob leads" in text
    assert "Who suspects you most" not in text


def test_suggest_advises_the_possessed_what_to_say_vote_and_kill(log_file):
    path = log_file(POSSESSED_LOG + "\n")
    data = json.loads(CliRunner().invoke(cli, ["suggest", path, "--json"]).output)
    log = parse_log(POSSESSED_LOG + "\n", path)
    options = claim_options(log)
    first = options[0].said
    assert data["claims"][0]["claim"] == (
        None if first is None else {"suspect": first[0], "innocent": first[1]}
    )
    assert len(data["claims"]) == len(options)
    assert data["claims"][0]["exposure"] == float(options[0].exposure)
    assert data["vote"] is None
    assert (data["kill"], data["kill_chance"]) == ("s1", 1 / 3)
    assert {"investigate", "accuse", "probability"} <= set(data)
    text = CliRunner().invoke(cli, ["suggest", path]).output
    assert "What to say (advised first" in text and "Vote (secret" in text
    assert "Accusation (a wrong one" not in text


# --------------------------------------------------------------------------
# the bot that follows the advice


def test_the_discreet_possessed_plays_legal_moves_deterministically():
    """apply_action raises on an illegal action, so finishing every game is the test."""
    for players in (3, 4, 5):
        game = BlackRoseGame.create(players)
        for index in range(1, 4):
            first = record_game(game, index, 11, ("discreet",) * players)
            again = record_game(game, index, 11, ("discreet",) * players)
            assert first.truth["winner"] is not None
            assert (first.truth, first.logs) == (again.truth, again.logs)


def test_the_discreet_possessed_says_what_the_advice_says_first():
    game = BlackRoseGame.create(4)
    state = play(game, 2, 5, ("discreet",) * 4)
    possessed = game.players[state.possessed]
    log = []
    checked = 0
    for event in state.events:
        if event["type"] == "claim" and event["player"] == possessed:
            seen = parse_jsonl(game.log_text(possessed, log), "p.jsonl")
            assert claim_options(seen, bots_model())[0].said == (
                event["suspect"],
                event["innocent"],
            )
            checked += 1
        log += observe(event, possessed, game.players)
    assert checked


def test_the_simulator_knows_the_discreet_bot(tmp_path):
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            "blackrose",
            "--players",
            "4",
            "--games",
            "1",
            "--bots",
            "discreet",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
