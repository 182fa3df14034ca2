"""Whole Abbey games played by bots, written as a truth file and one log per player.

``play_game`` drives one seeded game: chance outcomes come from one random
stream, each seat's bot has its own, so a game is a function of its seed.
``simulate`` plays many (in parallel processes when asked) and writes, for
game ``i``, the folder ``game-NNNN/`` with ``truth.json`` and ``PLAYER.jsonl``:
each log is canonical JSON Lines holding exactly what that player observed
(see :mod:`observe`), validated by the log reader before it is written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from deduce.errors import DeduceError
from deduce.games.abbey.bots import BOTS
from deduce.games.abbey.engine import AbbeyGame, AbbeyState
from deduce.logs.io import write_text_atomic


@dataclass(frozen=True)
class GameRecord:
    """One finished game: its truth (culprit, deal, scores...) and each player's log text."""

    index: int
    truth: dict[str, Any]
    logs: dict[str, str]


def bot_lineup(names: Sequence[str], players: int) -> tuple[str, ...]:
    """The bot of each seat: one name for every seat, or exactly one name per seat."""
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        raise DeduceError(f"unknown bot {unknown[0]!r} (bots: {', '.join(BOTS)})")
    if len(names) == 1:
        return tuple(names) * players
    if len(names) != players:
        raise DeduceError(f"give one bot for every seat or {players} bots, not {len(names)}")
    return tuple(names)


def game_seed(seed: int, index: int) -> str:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return f"abbey:{seed}:{index}"


def play_game(game: AbbeyGame, seed: str, lineup: Sequence[str]) -> AbbeyState:
    """Play one game to its end with the bots of ``lineup``, seat by seat."""
    chance = Random(seed)
    bots = [BOTS[name](game, seat) for seat, name in enumerate(lineup)]
    streams = [Random(f"{seed}:{seat}") for seat in range(len(lineup))]
    state = game.new_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chance.randrange(len(outcomes))][0])
        else:
            seat = state.current_player()
            state.apply_action(bots[seat](state.observation(seat), state.legal_actions(),
                                          streams[seat]))
    return state


def record_game(game: AbbeyGame, index: int, seed: int, lineup: Sequence[str]) -> GameRecord:
    """Play game ``index`` of run ``seed`` and return its truth and logs."""
    state = play_game(game, game_seed(seed, index), lineup)
    deal = state.events[0]
    truth = {"game": "abbey", "culprit": state.culprit, "seed": seed, "index": index,
             "players": list(game.players), "bots": dict(zip(game.players, lineup)),
             "deal": {"pile": deal["pile"], "hands": deal["hands"]},
             "holders": {c: state.holder_of(c) for c in game.deck.ids},
             "scores": dict(zip(game.players, state.scores)),
             "winners": [game.players[s] for s in state.winners()],
             "found": state.finder is not None, "turns": state.turns}
    logs = {p: game.log_text(p, state.logs[seat]) for seat, p in enumerate(game.players)}
    return GameRecord(index, truth, logs)


def write_game(record: GameRecord, out: Path) -> Path:
    """Write ``out/game-NNNN/`` (truth and logs), each file replaced atomically."""
    folder = out / f"game-{record.index:04d}"
    folder.mkdir(parents=True, exist_ok=True)
    write_text_atomic(folder / "truth.json", json.dumps(record.truth, indent=2) + "\n")
    for player, text in record.logs.items():
        write_text_atomic(folder / f"{player}.jsonl", text)
    return folder


def simulate(game: AbbeyGame, games: int, seed: int, lineup: Sequence[str],
             workers: int = 1) -> Iterator[GameRecord]:
    """Play ``games`` games, in order, over ``workers`` processes (0: every core)."""
    jobs = [(game, i, seed, tuple(lineup)) for i in range(1, games + 1)]
    workers = workers or os.cpu_count() or 1
    if workers == 1 or games == 1:
        yield from (record_game(*job) for job in jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(_record, jobs, chunksize=max(1, min(16, games // (4 * workers))))


def _record(job: tuple[AbbeyGame, int, int, tuple[str, ...]]) -> GameRecord:
    return record_game(*job)


