"""Whole games played by bots, for any engine: one seeded game, many in parallel, on disk.

An engine's game object has ``new_state()``; its states follow
:class:`deduce.games.machine.StepMachine` and have ``observation(seat)``.
A *bot factory* ``factory(game, seat)`` returns a bot, a callable
``bot(observation, legal_actions, rng) -> action``: bots see their own
observation, never the state.

``play_game`` drives one seeded game: chance outcomes come from one random
stream and each seat's bot has its own, so a game is a function of its seed.
``simulate`` plays many (in parallel processes when asked) through a
game-specific ``record`` function and ``write_game`` writes game ``i`` as
the folder ``game-NNNN/`` with ``truth.json`` and one ``PLAYER.jsonl`` per
player.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from deduce.errors import DeduceError
from deduce.logs.io import write_text_atomic
from deduce.workers import Workers, died

BotFactory = Callable[[Any, int], Callable[..., Any]]


@dataclass(frozen=True)
class GameRecord:
    """One finished game: its truth (hidden facts, scores...) and each player's log text."""

    index: int
    truth: dict[str, Any]
    logs: dict[str, str]


#: ``record(game, index, seed, lineup)``: play game ``index`` of run ``seed``, keep it.
Recorder = Callable[[Any, int, int, tuple[str, ...]], GameRecord]


#: The user's data files: option name (``deck``, ``data``...) -> path, or None for the default.
Files = Mapping[str, str | None]


@dataclass(frozen=True)
class Simulator:
    """One simulated game: its bots and default bot, data file options, how to build it."""

    name: str
    bots: Mapping[str, BotFactory]
    default_bot: str
    files: tuple[str, ...]
    build: Callable[[int, Files], Any]
    record: Recorder

    def create(self, players: int, files: Files) -> Any:
        """The game for ``players`` seats with the user's data files (None: the default)."""
        extra = [k for k, v in files.items() if v is not None and k not in self.files]
        if extra:
            raise DeduceError(
                f"--{extra[0]} does not apply to {self.name} "
                f"({self.name} data options: "
                f"{', '.join('--' + f for f in self.files)})"
            )
        return self.build(players, files)


def bot_lineup(names: Sequence[str], players: int, bots: Mapping[str, Any]) -> tuple[str, ...]:
    """The bot of each seat: one name for every seat, or exactly one name per seat."""
    unknown = [n for n in names if n not in bots]
    if unknown:
        raise DeduceError(f"unknown bot {unknown[0]!r} (bots: {', '.join(bots)})")
    if len(names) == 1:
        return tuple(names) * players
    if len(names) != players:
        raise DeduceError(f"give one bot for every seat or {players} bots, not {len(names)}")
    return tuple(names)


def game_seed(game: str, seed: int, index: int) -> str:
    """The seed of game ``index`` of a run of ``game`` seeded ``seed``."""
    return f"{game}:{seed}:{index}"


def play_game(game: Any, seed: str, lineup: Sequence[str], bots: Mapping[str, BotFactory]) -> Any:
    """Play one game to its end with the bots of ``lineup`` (names in ``bots``), seat by seat."""
    chance = Random(seed)
    players = [bots[name](game, seat) for seat, name in enumerate(lineup)]
    streams = [Random(f"{seed}:{seat}") for seat in range(len(lineup))]
    state = game.new_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chance.randrange(len(outcomes))][0])
        else:
            seat = state.current_player()
            state.apply_action(
                players[seat](state.observation(seat), state.legal_actions(), streams[seat])
            )
    return state


def write_game(record: GameRecord, out: Path) -> Path:
    """Write ``out/game-NNNN/`` (truth and logs), each file replaced atomically."""
    folder = out / f"game-{record.index:04d}"
    folder.mkdir(parents=True, exist_ok=True)
    write_text_atomic(folder / "truth.json", json.dumps(record.truth, indent=2) + "\n")
    for player, text in record.logs.items():
        write_text_atomic(folder / f"{player}.jsonl", text)
    return folder


def run_games(
    task: Callable[..., Any],
    game: Any,
    games: int,
    seed: int,
    lineup: Sequence[str],
    *extra: Any,
    workers: Workers | int = 1,
) -> Iterator[Any]:
    """``task(game, index, seed, lineup, *extra)`` for games 1 to ``games``, results in order.

    Runs where ``workers`` says (a number: that many local processes, 0:
    every core); ``task`` must be a module-level function so that it can be
    sent there. A game whose worker died (after the cluster's retries) stops
    the run with an error naming it; the games before it have been yielded.
    """
    jobs = [(game, i, seed, tuple(lineup), *extra) for i in range(1, games + 1)]
    return Workers.of(workers).map(task, jobs, _lost_game, most=16)


def _lost_game(job: tuple[Any, ...], error: Exception) -> Any:
    """Stop at a game that could not be played: one line naming it if its worker died."""
    if not died(error):
        raise error
    raise DeduceError(
        f"game {job[1]} was lost: its worker process died "
        f"({type(error).__name__}); the run stops there"
    ) from error


def simulate(
    record: Recorder,
    game: Any,
    games: int,
    seed: int,
    lineup: Sequence[str],
    workers: Workers | int = 1,
) -> Iterator[GameRecord]:
    """Play ``games`` games with ``record``, in order (see :func:`run_games`)."""
    return run_games(record, game, games, seed, lineup, workers=workers)
