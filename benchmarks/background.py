"""What `play`'s background refinement shows, and when, after an event of a whole game.

For each position (``PLAYERS:GAME:EVENTS`` of the engine's notepad games,
seed ``--seed``, seen by their first player), it starts the refinement
`play` starts after an event (:class:`~deduce.assist.background.Refiner`,
its default ladder) and records every result delivered: seconds since
the event, the culprit's bound ("exact" when there is none), and whether
the table would show the chances (a bound of at most 0.10). It stops at
the job's last result or after ``--seconds``:

    python benchmarks/background.py --positions 5:1:80 5:0:80 6:0:160 --seconds 45
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

from chances import at_positions, position_arguments

from deduce.assist.background import LADDER, Refined, Refiner
from deduce.solving import SolveOptions, solve_log

#: The widest bound a table shows the chances with (wider: "?").
SHOWN = 0.10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    position_arguments(parser)
    parser.add_argument("--seconds", type=float, default=45.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for spec, log, k in at_positions(args.positions, args.games, args.seed, Path(tmp)):
            position = replace(log, events=log.events[:k])
            shown = solve_log(position, SolveOptions(budget=0.0))
            start, seen, ended = time.monotonic(), [], threading.Event()

            def deliver(
                result: Refined,
                start: float = start,
                seen: list[str] = seen,
                ended: threading.Event = ended,
            ) -> None:
                data = result.solution.to_json() if result.solution else {}
                bound = 0.0 if data.get("exact") else data.get("culprit", {}).get("error", 0.0)
                seen.append(
                    f"{time.monotonic() - start:.1f} s: "
                    + ("exact" if not bound else f"±{bound:.3f}")
                    + ("" if bound <= SHOWN else " (not shown)")
                )
                if result.last:
                    ended.set()

            with Refiner(deliver, LADDER) as refiner:
                refiner.start(position, SolveOptions(), shown)
                ended.wait(args.seconds)
            print(spec, "; ".join(seen) or "nothing", flush=True)


if __name__ == "__main__":
    main()
