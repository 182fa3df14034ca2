"""Why the six-player chances of being sure ran high: checks on the measured positions.

The positions are those of an ``opponents.py`` results file (``--results``,
of ``--players``: six unless said) in its first ``--games`` games, simulated
again (the same seed gives the same games):

- ``views``: the view of the *true* history (each player's hand at every
  epoch, read from their own log) against the opponent's own closure, for
  every opponent: equal, or how many candidates more or fewer;
- ``drift``: at the positions from transfer 60 with a chance of 10% or
  more, each chain's histories (``--samples`` a chain) cut in halves: the
  share of sure views in the first half against the second (a start the
  chains have not left would show as a difference);
- ``asking``: the questions whose asker the log tells (pairs of answers,
  :func:`~deduce.games.abbey.solver.silence.askers`) against the engine's
  own record of who asked, in the first 40 games; and of those asked by an
  opponent, how many a notepad bot would not have asked from its sheet as
  the log tells it, in the true history (the positions' histories);
- ``silence``: at the same positions, the chances of the uniform law, of
  the silence alone (the questions weigh nothing) and of the silence law
  with the questions (:mod:`deduce.games.abbey.solver.silence`; any
  question at all with chance ``--other``) against what came true: the
  sum of squared errors (Brier) of each, and their mean chances;
- ``chains``: at the first ``--positions`` positions with some chance
  between 10% and 90%, the race with 8 chains of 16 histories, 16 of 8,
  32 of 4 and 64 of 2 (the same histories in all) against a reference of
  64 chains of 16: the time, and for the chances of 5% or more the mean
  bound, the root mean square difference from the reference (whose own
  error is in it) and the share the bound covers;
- ``variants``: at the positions of games ``--first`` to ``--games`` from
  transfer ``--late``, the race again with a change to its law or its
  chains (:data:`VARIANTS`: chains three times as long, a weaker question
  law, a slower or a quicker wait), ``--workers`` processes: each one's
  sum of squared errors against the record's own (the same positions, the
  record's race is deterministic), the difference with its standard error
  (games resampled), and the mean chance against the share that came true;
- ``wait``: how long a notepad bot down to one card on its sheet waits
  before it accuses, in questions of the log, over ``--games`` new games
  (``--players``, seed ``--seed``): the share still waiting after each
  question, against ``(1 - WAIT) ** k`` (``WAITS`` at that table size), and the constant chance a
  question that fits best by likelihood.

    python benchmarks/opponents_law.py views --games 200
    python benchmarks/opponents_law.py drift --games 200 --samples 48
    python benchmarks/opponents_law.py asking --games 200
    python benchmarks/opponents_law.py silence --games 200
    python benchmarks/opponents_law.py chains --games 200 \
        --results benchmarks/results/opponents-6p-eight-chains.jsonl
    python benchmarks/opponents_law.py wait --players 6 --games 400 --seed 2
    python benchmarks/opponents_law.py variants --first 301 --games 360 --workers 2 \
        --results benchmarks/results/opponents-6p-every-tenth.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from time import perf_counter
from typing import Any

import numpy as np
from chances import simulated
from opponents import before_transfer

from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.rules.observe import asked_log
from deduce.games.abbey.sim.bots import crossed_out
from deduce.games.abbey.sim.simulate import play
from deduce.games.abbey.solver import opponents, silence
from deduce.games.abbey.solver.silence import ANY, QUESTIONS, Silence, askers, wait_of
from deduce.games.abbey.solver.timeline import TRANSFERS, AbbeyPosition
from deduce.logs.io import read_log
from deduce.logs.model import Event

#: The measured positions, by default: the record of the uniform law (before the silence).
RESULTS = Path("benchmarks/results/opponents-6p-uniform.jsonl")
#: Positions for ``drift`` and ``silence``: from this transfer, with a chance this high.
LATE, LIKELY = 60, 0.1


def positions(
    results: Path, games: int, first: int = 1
) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """The measured rows of games ``first`` to ``games``, by (game, transfer)."""
    found: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for line in results.read_text().splitlines():
        row = json.loads(line)
        if first <= int(row["game"].removeprefix("game-")) <= games:
            found.setdefault((row["game"], row["transfer"]), []).append(row)
    return found


def middling(found: dict[tuple[str, int], list[dict[str, Any]]]) -> list[tuple[str, int]]:
    """The positions where some opponent's chance is between ``LIKELY`` and its complement."""
    return sorted(
        key for key, rows in found.items() if any(LIKELY <= r["certain"] < 1 - LIKELY for r in rows)
    )


def late(found: dict[tuple[str, int], list[dict[str, Any]]]) -> list[tuple[str, int]]:
    """The positions from transfer ``LATE`` where some opponent's chance is ``LIKELY`` or more."""
    return sorted(
        key
        for key, rows in found.items()
        if key[1] >= LATE and max(r["certain"] for r in rows) >= LIKELY
    )


def position_of(folder: Path, n: int) -> tuple[AbbeyPosition, list[str]]:
    """The first player's position before transfer ``n``, and the players."""
    truth = json.loads((folder / "truth.json").read_text())
    log = read_log(folder / f"{truth['players'][0]}.jsonl")
    position = AbbeyPosition.of_log(log).with_events(before_transfer(log.events, n))
    return position, truth["players"]


def true_history(folder: Path, n: int, position: AbbeyPosition) -> np.ndarray:
    """Each card's holder at every epoch before transfer ``n``, from every player's own log."""
    truth = json.loads((folder / "truth.json").read_text())
    holders = position.timeline.holders
    ids = position.setup.deck.ids
    epochs = position.timeline.last_epoch + 1
    history = np.full((len(ids), epochs), holders.index("pile"), dtype=np.int8)
    history[ids.index(truth["culprit"]), :] = holders.index("culprit")
    for player in truth["players"]:
        for epoch, hand in enumerate(hands(read_log(folder / f"{player}.jsonl").events, n, player)):
            for card in hand:
                history[ids.index(card), epoch] = holders.index(player)
    return history


def hands(events: Iterable[Event], n: int, player: str) -> list[set[str]]:
    """``player``'s hand at every epoch before transfer ``n``, from their own log's events."""
    hand: set[str] = set()
    found: list[set[str]] = []
    for event in before_transfer(tuple(events), n):
        if event.type == "hand" and event.get("player") == player:
            hand = set(event.get("cards"))
            found = [set(hand)]
        elif event.type in TRANSFERS:
            card = event.get("card") if "card" in event.fields else None
            if event.type == "mass":
                hand = (hand - set(event.get("gave") or ())) | set(event.get("got") or ())
            elif event.get("player") == player and card:
                hand = hand | {card}
            elif event.type == "take" and event.get("from") == player and card:
                hand = hand - {card}
            found.append(set(hand))
    return found


def check_views(folders: Path, found: dict[tuple[str, int], list[dict[str, Any]]]) -> None:
    """The view of the true history against each opponent's own closure (module docstring)."""
    differences: Counter[int] = Counter()
    for (game, n), rows in sorted(found.items()):
        position, _ = position_of(folders / game, n)
        history = true_history(folders / game, n, position)
        views = opponents.Views(position)
        for row in rows:
            sight = views.sight(history, row["opponent"], random.Random(1))
            differences[len(views.candidates(sight)) - row["true_candidates"]] += 1
    print("view's candidates minus their own closure's:", dict(sorted(differences.items())))


def check_drift(
    folders: Path, found: dict[tuple[str, int], list[dict[str, Any]]], samples: int
) -> None:
    """The share of sure views in each chain's first half of histories against its second."""
    caught: list[list[list[float]]] = []
    estimate = opponents.estimate

    def keep(readings: Sequence[Sequence[float]]) -> tuple[float, float]:
        caught.append([list(r) for r in readings])
        return estimate(readings)

    # the race's readings are not kept in its result: its estimator is wrapped for the run
    opponents.estimate = keep
    halves = []
    try:
        for game, n in late(found):
            position, _ = position_of(folders / game, n)
            sat, possible, model = _models(position)
            caught.clear()
            opponents.race_of(position, sat, possible, model, math.inf, 1, samples)
            for readings in caught:
                first = np.mean([np.mean(r[: len(r) // 2]) for r in readings])
                second = np.mean([np.mean(r[len(r) // 2 :]) for r in readings])
                if (first + second) / 2 >= LIKELY:
                    halves.append((first, second))
    finally:
        opponents.estimate = estimate
    first, second = np.array(halves).T
    gap = second - first
    print(
        f"{len(late(found))} positions, {len(halves)} chances of {100 * LIKELY:.0f}% or more: "
        f"first halves {100 * first.mean():.1f}% sure, second {100 * second.mean():.1f}% "
        f"(difference {100 * gap.mean():+.1f} ± {200 * gap.std(ddof=1) / np.sqrt(len(gap)):.1f})"
    )


def _models(position: AbbeyPosition) -> tuple[Any, list[set[int]], Any]:
    """The position's SAT model, closure and propagated model (it has histories)."""
    models = opponents._models(position)
    assert models is not None
    return models


def check_asking(folders: Path, found: dict[tuple[str, int], list[dict[str, Any]]]) -> None:
    """The askers the log tells against the engine's; the opponents' questions in the truth."""
    told = right = answers = 0
    for folder in sorted(folders.glob("game-*"))[:40]:
        truth = json.loads((folder / "truth.json").read_text())
        game = AbbeyGame.create(len(truth["players"]))
        state = play(game, truth["index"], truth["seed"], list(truth["bots"].values()))
        lines = asked_log(state.events, game.players[0], game.players)
        asked = [a for _, a in lines]
        found_askers = askers([Event(e["type"], e, i) for i, (e, _) in enumerate(lines)])
        told += len(found_askers)
        right += sum(asked[i] == p for i, p in found_askers.items())
        answers += sum(a is not None for a in asked)
    print(f"askers told (first 40 games): {told} of {answers} answers, {right} right")
    unasked = total = 0
    for game_name, n in sorted(found):
        position, _ = position_of(folders / game_name, n)
        law = Silence(position, 0.0)
        chances = law.asking_chances(law.sheets(true_history(folders / game_name, n, position)))
        total += len(chances)
        unasked += int((chances == 0).sum())
    print(f"opponents' questions no notepad would have asked, in the truth: {unasked} of {total}")


def check_silence(
    folders: Path, found: dict[tuple[str, int], list[dict[str, Any]]], other: float
) -> None:
    """The Brier sums of the uniform law's chances, the silence's alone, and with the questions,
    at the late positions."""
    laws = {
        "uniform": (False, 1.0),
        "silence alone": (True, 1.0),
        "silence and questions": (True, other),
    }
    said: dict[str, list[float]] = {name: [] for name in laws}
    truth: list[float] = []
    positions = late(found)
    for game, n in positions:
        position, _ = position_of(folders / game, n)
        models = _models(position)
        for name, (weighed, anything) in laws.items():
            raced = opponents.race_of(
                position, *models, math.inf, 1, silence=weighed, anything=anything
            )
            assert raced is not None
            said[name].extend(raced.views[row["opponent"]].certain for row in found[(game, n)])
        truth.extend(float(row["true_candidates"] == 1) for row in found[(game, n)])
    came = np.array(truth)
    print(f"{len(positions)} positions, {len(came)} predictions, {100 * came.mean():.1f}% sure")
    for name, chances in said.items():
        chance = np.array(chances)
        print(
            f"{name}: Brier sum {((chance - came) ** 2).sum():.2f}, "
            f"mean chance {100 * chance.mean():.1f}%"
        )


def check_wait(players: int, games: int, seed: int) -> None:
    """How many questions a notepad bot with one card left waits before accusing."""
    accused: Counter[int] = Counter()  # after k questions of waiting
    waited: Counter[int] = Counter()  # reached k questions of waiting, still silent
    wait = wait_of(players)
    with tempfile.TemporaryDirectory() as folder:
        simulated(players, games, seed, Path(folder))
        for game in sorted((Path(folder) / f"{players}p").glob("game-*")):
            for player in json.loads((game / "truth.json").read_text())["players"]:
                log = read_log(game / f"{player}.jsonl")
                waiting = _waiting(log.events, player, AbbeyPosition.of_log(log).setup.deck.ids)
                if waiting is None:
                    continue
                k, accuses = waiting
                for step in range(k + 1):
                    waited[step] += 1
                accused[k] += accuses
    left, rows = 1.0, []
    for k in range(max(waited) + 1):
        left *= 1 - accused[k] / waited[k]
        rows.append(f"{k + 1}: {100 * left:.0f}% ({100 * (1 - wait) ** (k + 1):.0f}%)")
    print(f"still waiting after k questions (with WAIT = {wait}): " + ", ".join(rows[:8]))
    fitted = sum(accused.values()) / sum(waited.values())
    print(f"constant chance a question, by likelihood: {fitted:.3f}")


def _waiting(events: Iterable[Event], player: str, ids: Sequence[str]) -> tuple[int, bool] | None:
    """Questions ``player`` waited with one card on the sheet, and whether they then accused.

    None when their sheet never came down to one card.
    """
    seen: list[dict[str, Any]] = []
    waited = None
    for event in events:
        seen.append({"type": event.type, **event.fields})
        if event.type == "accuse" and event.get("player") == player:
            return None if waited is None else (waited, True)
        if waited is not None and event.type in QUESTIONS:
            waited += 1
        if waited is None and len(crossed_out(ids, seen)) == 1:
            waited = 0
    return None if waited is None else (waited, False)


#: The race's shapes ``chains`` compares (chains, histories of each), and its reference.
SHAPES, REFERENCE = ((8, 16), (16, 8), (32, 4), (64, 2)), (64, 16)


def check_chains(
    folders: Path, found: dict[tuple[str, int], list[dict[str, Any]]], count: int
) -> None:
    """Each shape of the race against the reference, at positions with middling chances."""
    keys = middling(found)[:count]
    said: dict[tuple[int, int], list[tuple[float, float]]] = {}
    seconds: dict[tuple[int, int], float] = {}
    for chains, most in (*SHAPES, REFERENCE):
        said[(chains, most)], seconds[(chains, most)] = [], 0.0
        for game, n in keys:
            position, _ = position_of(folders / game, n)
            models = _models(position)
            start = perf_counter()
            seed = 7 if (chains, most) == REFERENCE else 1
            raced = opponents.race_of(position, *models, math.inf, seed, most, chains=chains)
            seconds[(chains, most)] += perf_counter() - start
            assert raced is not None
            said[(chains, most)].extend(
                (v.certain, v.error) for _, v in sorted(raced.views.items())
            )
    reference = np.array([c for c, _ in said[REFERENCE]])
    print(
        f"{len(keys)} positions; reference {REFERENCE[0]} chains of {REFERENCE[1]}: "
        f"{seconds[REFERENCE]:.0f} s"
    )
    for shape in SHAPES:
        chance, bound = np.array(said[shape]).T
        some = (chance >= 0.05) | (reference >= 0.05)
        off = chance[some] - reference[some]
        print(
            f"{shape[0]} chains of {shape[1]}: {seconds[shape]:.0f} s; {some.sum()} chances: "
            f"mean bound {bound[some].mean():.3f}, off the reference by "
            f"{np.sqrt((off**2).mean()):.3f} (root mean square), "
            f"covered {100 * (np.abs(off) <= bound[some]).mean():.0f}%"
        )


#: The changes ``variants`` measures, by name: batches of moves before a chain's first
#: history and between two (``opponents.BURN_BATCHES``, ``SPACING``), the chance that a
#: question is any question at all (``ANY``) and the chance that a sure opponent accuses
#: before the next question (``WAITS`` at the table's size).
VARIANTS: dict[str, dict[str, float]] = {
    "chains three times as long": {"burn": 40, "spacing": 30},
    "any question one time in five": {"anything": 0.2},
    "a slower wait (0.18)": {"wait": 0.18},
    "a quicker wait (0.36)": {"wait": 0.36},
}


@contextmanager
def varied(change: Mapping[str, float], players: int) -> Iterator[float]:
    """The race's settings changed as ``change`` says while inside; yields the ``ANY`` to use."""
    kept = opponents.BURN_BATCHES, opponents.SPACING, dict(silence.WAITS)
    opponents.BURN_BATCHES = int(change.get("burn", opponents.BURN_BATCHES))
    opponents.SPACING = int(change.get("spacing", opponents.SPACING))
    silence.WAITS[players] = change.get("wait", wait_of(players))
    try:
        yield change.get("anything", ANY)
    finally:
        opponents.BURN_BATCHES, opponents.SPACING = kept[:2]
        silence.WAITS.clear()
        silence.WAITS.update(kept[2])


def _varied_race(
    folder: Path, n: int, change: Mapping[str, float], seed: int
) -> tuple[dict[str, float], float]:
    """Each opponent's chance at one position under ``change``, and the race's seconds."""
    position, players = position_of(folder, n)
    with varied(change, len(players)) as anything:
        start = perf_counter()
        raced = opponents.race_of(position, *_models(position), math.inf, seed, anything=anything)
        seconds = perf_counter() - start
    assert raced is not None
    return {p: v.certain for p, v in raced.views.items()}, seconds


def check_variants(
    folders: Path,
    found: dict[tuple[str, int], list[dict[str, Any]]],
    late_from: int,
    seed: int,
    workers: int,
) -> None:
    """Each of :data:`VARIANTS` against the record, at the positions from ``late_from``."""
    keys = sorted(key for key in found if key[1] >= late_from)
    rows = [r for key in keys for r in sorted(found[key], key=lambda r: r["opponent"])]
    came = np.array([r["true_candidates"] == 1 for r in rows], dtype=float)
    recorded = np.array([r["certain"] for r in rows])
    games = np.array([r["game"] for r in rows])
    print(
        f"{len(keys)} positions, {len(rows)} predictions, {100 * came.mean():.1f}% came true; "
        f"the record: mean chance {100 * recorded.mean():.1f}%, "
        f"squared errors {((recorded - came) ** 2).sum():.2f}"
    )
    for name, change in VARIANTS.items():
        jobs = [(folders / game, n, change, seed) for game, n in keys]
        with ProcessPoolExecutor(workers) as pool:
            raced = list(pool.map(_varied_race, *zip(*jobs, strict=True)))
        chances = {
            (*key, opponent): chance
            for key, (views, _) in zip(keys, raced, strict=True)
            for opponent, chance in views.items()
        }
        said = np.array([chances[(r["game"], r["transfer"], r["opponent"])] for r in rows])
        gain = (said - came) ** 2 - (recorded - came) ** 2
        by_game = np.array([gain[games == g].sum() for g in np.unique(games)])
        error = by_game.std(ddof=1) * np.sqrt(len(by_game))
        print(
            f"{name}: squared errors {((said - came) ** 2).sum():.2f} "
            f"({gain.sum():+.2f} ± {error:.2f}), mean chance {100 * said.mean():.1f}%, "
            f"{np.mean([s for _, s in raced]):.1f} s a position"
        )


def main() -> None:
    """Simulate the games again and run one check."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "check", choices=["views", "drift", "asking", "silence", "chains", "wait", "variants"]
    )
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=48)
    parser.add_argument("--other", type=float, default=ANY)
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--first", type=int, default=1, help="the first game measured")
    parser.add_argument("--late", type=int, default=LATE, help="the first transfer measured")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.check == "wait":
        check_wait(args.players, args.games, args.seed)
        return
    found = positions(args.results, args.games, args.first)
    with tempfile.TemporaryDirectory() as folder:
        simulated(args.players, args.games, args.seed, Path(folder))
        games = Path(folder) / f"{args.players}p"
        if args.check == "views":
            check_views(games, found)
        elif args.check == "drift":
            check_drift(games, found, args.samples)
        elif args.check == "silence":
            check_silence(games, found, args.other)
        elif args.check == "chains":
            check_chains(games, found, args.positions)
        elif args.check == "variants":
            check_variants(games, found, args.late, args.seed, args.workers)
        else:
            check_asking(games, found)


if __name__ == "__main__":
    main()
