"""The Black Rose's Possessed: its advice against today's bot, and what the investigators see.

``wins`` plays the same seeded games once per bot of ``--bots`` (every seat
that bot): the ``discreet`` bots play exactly like the ``advised`` ones but
as the Possessed, so the same seed deals the same roles and accomplices and
the games part only where the Possessed's choices differ. Each game's
winning side is appended to ``--record`` (one JSON line a game), so a run
may be split into parts (``--first``) on other cores or days; ``--tally``
prints the table of a record instead of playing: per player count and bot,
the games, each side's win share, the Possessed's share among the games
that have one (with 3 players, a third have none), and the paired
difference of the Possessed's wins against the first bot, with its standard
error (from the games won with one bot only):

    python benchmarks/blackrose_views.py wins --players 4 --games 1000 --seed 2 \\
        --bots advised,discreet --record benchmarks/results/blackrose-views.jsonl
    python benchmarks/blackrose_views.py wins --tally \\
        --record benchmarks/results/blackrose-views.jsonl

``seen`` measures the rates of :mod:`deduce.games.blackrose.views`: at each
claim of the Possessed in games of ``advised`` bots, the share of the
innocent suspects whose Proof each real investigator had seen, split by
whether the Possessed had seen it too (``SEEN_MINE``) or not (``SEEN``):

    python benchmarks/blackrose_views.py seen --players 3,4,5 --games 500 --seed 7
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from tabulate import tabulate

from deduce.games.blackrose.check import vote_cuts
from deduce.games.blackrose.claims import bots_model
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.blackrose.simulate import play, record_game
from deduce.games.blackrose.solve import solve_blackrose
from deduce.logs.jsonl import parse_jsonl
from deduce.workers import Workers

SIDES = ("investigators", "possessed", "rector")


def one_game(game: BlackRoseGame, index: int, seed: int, bot: str) -> dict[str, Any]:
    """Game ``index`` of run ``seed``, every seat played by ``bot``: who won, when."""
    state = play(game, index, seed, (bot,) * len(game.players))
    return {
        "players": len(game.players),
        "bot": bot,
        "seed": seed,
        "index": index,
        "possessed": state.possessed is not None,
        "winner": state.winner,
        "rounds": state.round,
    }


def _failed(job: tuple[Any, ...], error: Exception) -> NoReturn:
    """A game that could not be played stops the run."""
    raise error


def wins(args: argparse.Namespace) -> None:
    """Play the games of every bot and player count, appending each to the record."""
    with args.record.open("a", encoding="utf-8") as out:
        for players in (int(n) for n in args.players.split(",")):
            game = BlackRoseGame.create(players)
            for bot in args.bots.split(","):
                jobs = [
                    (game, index, args.seed, bot)
                    for index in range(args.first, args.first + args.games)
                ]
                for result in Workers.of(args.workers).map(one_game, jobs, _failed):
                    out.write(json.dumps(result) + "\n")
                    out.flush()


def tally(records: list[dict[str, Any]]) -> list[list[Any]]:
    """The table's rows: per player count and bot (first seen first), shares and differences."""
    games: dict[tuple[int, int, str], dict[int, dict[str, Any]]] = defaultdict(dict)
    for record in records:
        games[record["players"], record["seed"], record["bot"]][record["index"]] = record
    rows = []
    for players, seed, bot in games:
        mine = games[players, seed, bot]
        first = next(b for p, s, b in games if (p, s) == (players, seed))
        base = games[players, seed, first]
        sides = Counter(r["winner"] for r in mine.values())
        n = len(mine)
        hosts = sum(r["possessed"] for r in mine.values())
        shared = [i for i in mine if i in base]
        gained = sum(mine[i]["winner"] == "possessed" != base[i]["winner"] for i in shared)
        lost = sum(base[i]["winner"] == "possessed" != mine[i]["winner"] for i in shared)
        m = len(shared) or 1
        rows.append(
            [
                players,
                seed,
                bot,
                n,
                *(f"{100 * sides[side] / n:.1f}%" for side in SIDES),
                f"{100 * sides['possessed'] / (hosts or 1):.1f}%",
                f"{sum(r['rounds'] for r in mine.values()) / n:.2f}",
                f"{100 * (gained - lost) / m:+.1f} ± {100 * math.sqrt(gained + lost) / m:.1f}",
            ]
        )
    return rows


def read_at_votes(
    game: BlackRoseGame, index: int, seed: int, bot: str
) -> tuple[int, Fraction, Fraction]:
    """How the real investigators read game ``index`` (every seat ``bot``) at its votes.

    At each vote, each real investigator's own reading (the bots' model):
    the positions, and how many of them lead with the Possessed and with the
    true pair (a tie of ``k`` counts ``1/k``).
    """
    state = play(game, index, seed, (bot,) * len(game.players))
    positions, leads, right = 0, Fraction(0), Fraction(0)
    if state.possessed is None:
        return positions, leads, right
    possessed = game.players[state.possessed]
    for seat, role in state.roles.items():
        if role != "investigator":
            continue
        player = game.players[seat]
        for cut in vote_cuts(state, seat):
            log = parse_jsonl(game.log_text(player, state.logs[seat][:cut]), "p.jsonl")
            found = solve_blackrose(log, model=bots_model(), styles=False)
            positions += 1
            leads += _share_of_top(found.possessed, possessed)
            right += _share_of_top(found.pairs, tuple(state.accomplices))
    return positions, leads, right


def _share_of_top(chances: dict[Any, Fraction], truth: Any) -> Fraction:
    """``1/k`` when ``truth`` is one of the ``k`` keys of the top chance, else 0."""
    top = max(chances.values())
    leaders = [key for key, p in chances.items() if p == top]
    return Fraction(1, len(leaders)) if truth in leaders else Fraction(0)


def exposed(args: argparse.Namespace) -> None:
    """Print how often the investigators' readings at the votes lead with the Possessed."""
    rows = []
    for players in (int(n) for n in args.players.split(",")):
        game = BlackRoseGame.create(players)
        for bot in args.bots.split(","):
            jobs = [(game, index, args.seed, bot) for index in range(1, args.games + 1)]
            positions, leads, right = 0, Fraction(0), Fraction(0)
            for n, lead, hit in Workers.of(args.workers).map(read_at_votes, jobs, _failed):
                positions, leads, right = positions + n, leads + lead, right + hit
            shares = (f"{100 * float(x) / (positions or 1):.1f}%" for x in (leads, right))
            rows.append([players, bot, args.games, positions, *shares])
    headers = ["players", "bot", "games", "positions", "Possessed leads", "top pair right"]
    print(tabulate(rows, headers=headers))


def seen(args: argparse.Namespace) -> None:
    """Print the shares of the innocents' Proofs seen by the investigators at the claims."""
    rows = []
    for players in (int(n) for n in args.players.split(",")):
        counts: Counter[tuple[bool, bool]] = Counter()
        game = BlackRoseGame.create(players)
        for index in range(1, args.games + 1):
            counts += _seen_in(record_game(game, index, args.seed, ("advised",) * players))
        rows.append([players, *(_share(counts, mine) for mine in (False, True))])
    print(tabulate(rows, headers=["players", "SEEN (not seen by the Possessed)", "SEEN_MINE"]))


def _share(counts: Counter[tuple[bool, bool]], mine: bool) -> str:
    """``seen / all (share)`` of the innocents the Possessed had (not) seen."""
    hits, total = counts[mine, True], counts[mine, True] + counts[mine, False]
    return f"{hits} / {total} ({hits / (total or 1):.3f})"


def _seen_in(record: Any) -> Counter[tuple[bool, bool]]:
    """(The Possessed had seen the Proof, the investigator had), counted.

    At each claim of the Possessed, per real investigator and innocent
    suspect whose Proof the Possessed did not see in that investigator's hand.
    """
    roles = record.truth["roles"]
    counts: Counter[tuple[bool, bool]] = Counter()
    possessed = next((p for p, r in roles.items() if r == "possessed"), None)
    if possessed is None:
        return counts
    header, *lines = record.logs[possessed].splitlines()
    innocents = set(json.loads(header)["suspects"]) - set(record.truth["accomplices"])
    mine = _proofs_at_claims(lines, possessed)
    for player, role in roles.items():
        if role == "investigator":
            theirs = _proofs_at_claims(record.logs[player].splitlines()[1:], possessed)
            for had, saw in zip(mine, theirs):
                sure = {s for s, holder in had if holder == player}
                for suspect in innocents - sure:
                    counts[suspect in {s for s, _ in had}, suspect in {s for s, _ in saw}] += 1
    return counts


def _proofs_at_claims(lines: list[str], possessed: str) -> list[set[tuple[str, str | None]]]:
    """At each claim of the Possessed in a log's event lines: the Proofs seen, with holders."""
    found = []
    proofs: set[tuple[str, str | None]] = set()
    for event in map(json.loads, lines):
        if event["type"] == "proof":
            proofs.add((event["suspect"], event.get("player")))
        elif event["type"] == "claim" and event["player"] == possessed:
            found.append(set(proofs))
    return found


def main() -> None:
    """Parse the arguments and run the subcommand."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    played = commands.add_parser("wins", help="win shares of Possessed bots on the same games")
    played.add_argument("--players", default="4,5")
    played.add_argument("--games", type=int, default=1000)
    played.add_argument("--first", type=int, default=1, help="number of the first game")
    played.add_argument("--seed", type=int, default=2)
    played.add_argument("--bots", default="advised,discreet")
    played.add_argument("--workers", type=int, default=1)
    played.add_argument("--record", type=Path, required=True)
    played.add_argument("--tally", action="store_true", help="print the record's table only")
    counted = commands.add_parser("seen", help="the investigators' seen Proofs at claims")
    counted.add_argument("--players", default="3,4,5")
    counted.add_argument("--games", type=int, default=500)
    counted.add_argument("--seed", type=int, default=7)
    read = commands.add_parser("exposed", help="the investigators' readings at the votes")
    read.add_argument("--players", default="4,5")
    read.add_argument("--games", type=int, default=300)
    read.add_argument("--seed", type=int, default=2)
    read.add_argument("--bots", default="advised,discreet")
    read.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.command == "exposed":
        exposed(args)
        return
    if args.command == "seen":
        seen(args)
        return
    if not args.tally:
        wins(args)
    records = [json.loads(line) for line in args.record.read_text(encoding="utf-8").splitlines()]
    headers = ["players", "seed", "bot", "games", *SIDES, "Possessed, when one", "rounds"]
    print(tabulate(tally(records), headers=[*headers, "Possessed wins vs first bot"]))


if __name__ == "__main__":
    main()
