"""Time the Abbey solver after every event of the benchmark games.

The games are the checked-in cases of ``tests/data/cases`` plus, with
``--simulated N``, N whole games per player count played by the engine's
notepad bots (seed ``--seed``), seen by their first player. For each
position (every prefix, or every ``--every``-th) it times, each under
``--timeout`` seconds:

- ``closure``: the exact candidates and possible holders, by the SAT model
  of :mod:`deduce.games.abbey.solver.sat.cnf` built from scratch;
- ``closure, warm``: the same, extending the previous position's model
  (as ``play``, ``analyze``, ``check`` and the bots do);
- ``full``: the whole ``deduce solve --budget B`` work: closure plus
  probabilities, exact when the exact count finishes within its share of
  the budget, otherwise estimated (a miss);
- ``reference``: the python-constraint closure (``--engine csp``), timed in
  the same run so that the ratios hold on a noisy machine (only every
  ``--reference-every``-th position: it is slow).

Per game, ``conflict`` times the minimal conflict of the whole log with a
false ``culprit`` event added at its end. It prints, per player count, the
median, 90th percentile and slowest time ("inf": past the timeout), the
share of positions done within the timeout and, for ``full``, the share
whose probabilities came out exact; then the peak resident memory.

    python benchmarks/run.py --simulated 20 --timeout 10 --budget 1
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from tabulate import tabulate

from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.sat.cnf import Warm, sat_model
from deduce.games.abbey.solver.sat.conflict import minimal_conflict
from deduce.games.abbey.solver.search.csp import CspEngine
from deduce.games.abbey.solver.solve import solve_abbey
from deduce.games.abbey.solver.timeline import AbbeyPosition, build_timeline
from deduce.logs.formats.abbey import setup_from_header
from deduce.logs.io import read_log
from deduce.logs.model import Event, GameLog

CASES = Path(__file__).resolve().parent.parent / "tests" / "data" / "cases"


class _TimeUp(Exception):
    pass


def _alarm(_signum, _frame):
    raise _TimeUp


def timed(run, timeout: float) -> float:
    """Seconds ``run()`` took, or infinity past ``timeout``."""
    signal.setitimer(signal.ITIMER_REAL, timeout)
    start = time.perf_counter()
    try:
        run()
        return time.perf_counter() - start
    except _TimeUp:
        return float("inf")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of the values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def games(
    players: int, limit: int | None, simulated: int, seed: int, folder: Path
) -> Iterator[tuple[GameLog, str]]:
    """(log, true culprit) of the checked-in cases and of ``simulated`` engine games."""
    for case in sorted(CASES.glob(f"abbey-{players}p-*.jsonl"))[:limit]:
        yield read_log(case), case.with_suffix(".culprit").read_text().strip()
    if not simulated:
        return
    out = folder / f"{players}p"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "deduce.cli.main",
            "simulate",
            "abbey",
            "--players",
            str(players),
            "--games",
            str(simulated),
            "--seed",
            str(seed),
            "--out",
            str(out),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    for game in sorted(out.glob("game-*")):
        truth = json.loads((game / "truth.json").read_text())
        yield read_log(game / f"{truth['players'][0]}.jsonl"), truth["culprit"]


def false_culprit(log: GameLog, culprit: str) -> GameLog:
    """The log with a wrong ``culprit`` event added at its end."""
    setup = setup_from_header(log.header, log.path)
    wrong = next(c for c in setup.deck.ids if c != culprit)
    line = max(e.line for e in log.events) + 1
    return replace(log, events=[*log.events, Event("culprit", {"card": wrong}, line)])


def time_game(
    log: GameLog,
    culprit: str,
    args: argparse.Namespace,
    times: dict[str, list[float]],
    exact: list[bool],
) -> None:
    """Every measurement of one game's positions, appended to ``times`` and ``exact``."""
    setup = setup_from_header(log.header, log.path)
    warm = Warm()
    for k in range(1, len(log.events) + 1):
        if k % args.every and k != len(log.events):
            continue
        events = log.events[:k]
        timeline = build_timeline(setup, events, log.path)
        times["closure"].append(
            timed(
                lambda t=timeline, e=events: sat_model(AbbeyPosition(setup, tuple(e), t)).closure(),
                args.timeout,
            )
        )

        times["closure, warm"].append(
            timed(
                lambda t=timeline, e=events: warm.model_of(
                    AbbeyPosition(setup, tuple(e), t)
                ).closure(),
                args.timeout,
            )
        )
        solved: list = []
        prefix = replace(log, events=events)
        times["full"].append(
            timed(
                lambda g=prefix, out=solved: out.append(solve_abbey(g, budget=args.budget)),
                args.timeout,
            )
        )
        exact.append(bool(solved) and solved[0].exact)
        if k % args.reference_every == 0 or k == len(log.events):
            model = build_model(AbbeyPosition(setup, tuple(events), timeline))
            times["reference"].append(timed(lambda m=model: CspEngine(m).closure(), args.timeout))
    wrong = false_culprit(log, culprit)
    timeline = build_timeline(setup, wrong.events, log.path)
    times["conflict"].append(
        timed(
            lambda: minimal_conflict(AbbeyPosition(setup, tuple(wrong.events), timeline)),
            args.timeout,
        )
    )


def main() -> None:
    """Run every game and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--budget", type=float, default=1.0, help="solve --budget, seconds")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    parser.add_argument(
        "--games", type=int, default=None, help="at most this many checked-in cases per count"
    )
    parser.add_argument(
        "--simulated",
        type=int,
        default=0,
        help="whole simulated games per count, besides the cases",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated games")
    parser.add_argument("--every", type=int, default=1, help="time every k-th position")
    parser.add_argument(
        "--reference-every",
        type=int,
        default=5,
        help="time the python-constraint closure every k-th position",
    )
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    times: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    exact: dict[int, list[bool]] = defaultdict(list)
    counted: dict[int, int] = defaultdict(int)
    with tempfile.TemporaryDirectory() as folder:
        for n in args.players:
            for log, culprit in games(n, args.games, args.simulated, args.seed, Path(folder)):
                time_game(log, culprit, args, times[n], exact[n])
                counted[n] += 1
    rows = []
    for n, by_kind in sorted(times.items()):
        for kind, values in by_kind.items():
            done = [v for v in values if v != float("inf")]
            share = f"{100 * sum(exact[n]) / len(exact[n]):.1f}%" if kind == "full" else ""
            rows.append(
                [
                    n,
                    counted[n],
                    kind,
                    len(values),
                    *(
                        f"{1000 * v:.1f}"
                        for v in (statistics.median(values), percentile(values, 0.9), max(values))
                    ),
                    f"{100 * len(done) / len(values):.1f}%",
                    share,
                ]
            )
    print(
        tabulate(
            rows,
            headers=[
                "players",
                "games",
                "what",
                "measured",
                "median ms",
                "p90 ms",
                "slowest ms",
                f"done in {args.timeout:g} s",
                "probabilities exact",
            ],
            tablefmt="github",
        )
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak resident memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
