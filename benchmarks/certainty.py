"""When does each player's own log make the culprit certain: deduce's closure against a paper sheet.

It plays the games of ``winrate.py`` (same players, seed, lineup and seat
rotation, so the same games) and reads every seat's own log, cut before the
game's first correct accusation. For each log it finds:

- the **closure event**: the first event after which deduce's SAT closure
  leaves exactly one culprit candidate;
- the **sheet event**: the first event after which a notepad bot's sheet
  (every card it has seen crossed out, see :mod:`deduce.games.abbey.sim.bots`)
  leaves one suspect.

Events are counted in the log's own lines after the header. Both sets only
shrink as events are added, so each is found by bisection. It prints, per
bot kind: logs, the share of them where each method reached certainty, the
median event of each, and, over the logs where the closure reached
certainty, the median gain (sheet event minus closure event) and the median
share of the sheet's wait saved (the gain over the sheet event); a sheet
that never did counts as the log's end.

A log usually ends soon after the closure's certainty (the bot accuses on
it), or before either is certain (someone else's accusation), so the last
column measures every log alike: the **sheet's last count** is how many
suspects the sheet has left when the log ends, and the column is the median
share of the log by which the closure had come down to that many
candidates already (1 minus its event over the log's length).

    python benchmarks/certainty.py --players 6 --games 1000 \
        --lineup solver,notepad,random,notepad,random,notepad

With ``--logs DIR`` it reads the logs that ``winrate.py --logs DIR`` kept
(the lineup's first bot's seats), every game kept there, instead of
playing the games again; ``--first-only`` measures only those seats of the
games it plays.

A bot that accuses the moment its closure is certain ends its log there,
so the sheet's event on that log is never seen (the game is over), and the
first columns measure the accusation rule more than the closure. The
line-up name ``advised-patient`` (:class:`PatientAdvised`) is the
``advised`` bot accusing only once the paper sheet of its own log is down
to one suspect: up to its closure's certainty it plays as the
``advised`` bot would without its estimated accusations, and its log goes
on until the sheet's certainty, so both events are read on the same log
and neither ends it early. A log is cut short only by another player's
correct accusation, which neither method causes:

    python benchmarks/certainty.py --players 4 --games 300 --first-only \
        --lineup advised-patient,notepad,notepad,random
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tabulate import tabulate
from winrate import game_arguments, parse_games, seating

from deduce.games.abbey.rules.engine import AbbeyGame, Observation
from deduce.games.abbey.sim.advised import AdvisedBot
from deduce.games.abbey.sim.bots import crossed_out
from deduce.games.abbey.sim.simulate import BOTS, record_game
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import Event, GameLog


class PatientAdvised(AdvisedBot):
    """The ``advised`` bot accusing only the last suspect of its paper sheet (module docstring)."""

    def suspect(self, obs: Observation) -> str | None:
        """The sheet's last suspect, once every other card of the log is crossed out."""
        paper = crossed_out(self.game.deck.ids, obs.log)
        return paper[0] if len(paper) == 1 else None


#: The bots a line-up may name here.
LINEUP_BOTS = {**BOTS, "advised-patient": PatientAdvised}


def first_certain(events: int, certain: Callable[[int], bool]) -> int | None:
    """The least ``k`` in 1..events with ``certain(k)`` (a monotone test), or None."""
    if not events or not certain(events):
        return None
    lo, hi = 1, events
    while lo < hi:
        mid = (lo + hi) // 2
        if certain(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def closure_candidates(log: GameLog, events: Sequence[Event]) -> int:
    """How many culprit candidates the SAT closure of ``events`` leaves."""
    setup = setup_from_header(log.header, log.path)
    possible = sat_model(AbbeyPosition.of(setup, events, log.path)).closure()
    assert possible is not None, "a simulated log always has a history"
    return sum(CULPRIT in row for row in possible)


def sheet_candidates(deck: Sequence[str], lines: Sequence[dict[str, Any]]) -> int:
    """How many suspects a notepad sheet of these log lines leaves."""
    return len(crossed_out(deck, lines))


def measure(job: tuple[int, int, int, tuple[str, ...], Path | None, bool]) -> list[dict[str, Any]]:
    """One game: every seat's closure and sheet events (the kept seats', from a log file).

    With the job's last item true, only the seats of the lineup's first bot kind.
    """
    players, index, seed, lineup, kept, first_only = job
    game = AbbeyGame.create(players)
    if kept is None:
        record = record_game(game, index, seed, seating(lineup, index), LINEUP_BOTS)
        bots = record.truth["bots"]
        logs = {
            p: text for p, text in record.logs.items() if not first_only or bots[p] == lineup[0]
        }
    else:
        data = json.loads((kept / f"game-{index:04d}.json").read_text(encoding="utf-8"))
        bots, logs = data["bots"], data["logs"]
    return [
        _events(game, bots[player], parse_jsonl(text, f"{player}.jsonl", game.deck))
        for player, text in logs.items()
    ]


def _events(game: AbbeyGame, bot: str, log: GameLog) -> dict[str, Any]:
    """One seat's log: its length before the first correct accusation, and both events."""
    end = next(
        (i for i, e in enumerate(log.events) if e.type == "accuse" and e.get("correct")),
        len(log.events),
    )
    lines = [{"type": e.type, **e.fields} for e in log.events[:end]]
    final = sheet_candidates(game.deck.ids, lines)
    closed: dict[int, int] = {}  # both bisections probe many of the same cuts

    def closure(k: int) -> int:
        if k not in closed:
            closed[k] = closure_candidates(log, log.events[:k])
        return closed[k]

    return {
        "bot": bot,
        "events": end,
        "closure": first_certain(end, lambda k: closure(k) == 1),
        "sheet": first_certain(end, lambda k: sheet_candidates(game.deck.ids, lines[:k]) == 1),
        "reached": first_certain(end, lambda k: closure(k) <= final),
    }


def main() -> None:
    """Play the games and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    game_arguments(parser)
    parser.add_argument(
        "--logs",
        type=Path,
        help="read the logs that winrate.py --logs kept here instead of "
        "playing (every game kept there; --games is then ignored)",
    )
    parser.add_argument(
        "--first-only", action="store_true", help="measure only the seats of the lineup's first bot"
    )
    args, lineup = parse_games(parser)
    start = time.perf_counter()
    by_bot: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    numbers = (
        range(1, args.games + 1)
        if args.logs is None
        else sorted(int(path.stem.split("-")[1]) for path in args.logs.glob("game-*.json"))
    )
    jobs = [(args.players, i, args.seed, lineup, args.logs, args.first_only) for i in numbers]
    with ProcessPoolExecutor(args.workers) as pool:
        for rows in pool.map(measure, jobs):
            for row in rows:
                by_bot[row["bot"]].append(row)
    every = [row for rows in by_bot.values() for row in rows]
    table = [summary_row(kind, rows) for kind, rows in sorted(by_bot.items())] + [
        summary_row("all", every)
    ]
    print(
        f"{args.players} players, {len(jobs)} games (seed {args.seed}, lineup {args.lineup}, "
        f"seats rotated); {time.perf_counter() - start:.0f} s with {args.workers} workers.\n"
    )
    print(
        tabulate(
            table,
            [
                "logs of",
                "logs",
                "closure certain",
                "sheet certain",
                "median closure event",
                "median sheet event",
                "median gain (events)",
                "median share sooner",
                "sheet's last count reached sooner",
            ],
            tablefmt="github",
        )
    )


def _median(values: Sequence[int]) -> float | str:
    """The median, or "-" for no values."""
    return statistics.median(values) if values else "-"


def summary_row(kind: str, rows: Sequence[dict[str, Any]]) -> list[Any]:
    """One table row: shares, medians and the median gain of the closure over the sheet."""
    closure = [r["closure"] for r in rows if r["closure"] is not None]
    sheet = [r["sheet"] for r in rows if r["sheet"] is not None]
    gains = [(r["sheet"] or r["events"]) - r["closure"] for r in rows if r["closure"] is not None]
    sooner = [
        1 - r["closure"] / (r["sheet"] or r["events"]) for r in rows if r["closure"] is not None
    ]
    reached = [1 - r["reached"] / r["events"] for r in rows if r["events"]]
    return [
        kind,
        len(rows),
        f"{100 * len(closure) / len(rows):.0f}%",
        f"{100 * len(sheet) / len(rows):.0f}%",
        _median(closure),
        _median(sheet),
        _median(gains),
        _share(sooner),
        _share(reached),
    ]


def _share(values: Sequence[float]) -> str:
    """The median of shares, as a percentage, or "-" for none."""
    return f"{100 * statistics.median(values):.0f}%" if values else "-"


if __name__ == "__main__":
    main()
