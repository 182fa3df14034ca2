"""Whole Black Rose games played by bots: the truth of a game and each player's log.

The seeded play, the parallel runs and the folder layout are shared by every
engine (:mod:`deduce.games.simulate`); this module says what a Black Rose
game keeps: the accomplices, every player's role, the dead, the winning
side and the round it ended in, and each player's log, validated by the
log reader.
"""

from __future__ import annotations

from collections.abc import Sequence

from deduce.games.blackrose.bots import BOTS
from deduce.games.blackrose.engine import BlackRoseGame, BlackRoseState
from deduce.games.simulate import GameRecord, game_seed, play_game


def play(game: BlackRoseGame, index: int, seed: int, lineup: Sequence[str]) -> BlackRoseState:
    """Play game ``index`` of run ``seed`` with the Black Rose bots of ``lineup``."""
    return play_game(game, game_seed("blackrose", seed, index), lineup, BOTS)


def record_game(game: BlackRoseGame, index: int, seed: int, lineup: Sequence[str]) -> GameRecord:
    """Play game ``index`` of run ``seed`` and return its truth and logs."""
    state = play(game, index, seed, lineup)
    players = game.players
    truth = {
        "game": "blackrose",
        "accomplices": sorted(state.accomplices),
        "roles": {p: state.roles[s] for s, p in enumerate(players)},
        "seed": seed,
        "index": index,
        "players": list(players),
        "bots": dict(zip(players, lineup)),
        "dead": list(state.dead),
        "winner": state.winner,
        "rounds": state.round,
    }
    logs = {p: game.log_text(p, state.logs[seat]) for seat, p in enumerate(players)}
    return GameRecord(index, truth, logs)
