"""Whole Name of the Rose games played by bots: the truth of a game and each player's log.

The seeded play, the parallel runs and the folder layout are shared by every
engine (:mod:`deduce.games.simulate`); this module names the bots a
line-up may seat (:data:`BOTS`) and says what a Rose game keeps: every
player's identity, the scores, event tiles and winners, the guesses, and
each player's log, validated by the log reader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from deduce.games.rose.advised import Advised, AdvisedPlay
from deduce.games.rose.bots import Bluffer, Bot, Monk, SolverBot, random_bot
from deduce.games.rose.engine import RoseGame, RoseState
from deduce.games.simulate import GameRecord, game_seed, play_game

#: The bots by name (see :mod:`deduce.games.rose.bots` and :mod:`deduce.games.rose.advised`).
BOTS: dict[str, Callable[[RoseGame, int], Bot]] = {
    "monk": Monk,
    "solver": SolverBot,
    "random": random_bot,
    "bluffer": Bluffer,
    "advised": Advised,
    "advised-play": AdvisedPlay,
}


def play(game: RoseGame, index: int, seed: int, lineup: Sequence[str]) -> RoseState:
    """Play game ``index`` of run ``seed`` with the Rose bots of ``lineup``."""
    return play_game(game, game_seed("rose", seed, index), lineup, BOTS)


def record_game(game: RoseGame, index: int, seed: int, lineup: Sequence[str]) -> GameRecord:
    """Play game ``index`` of run ``seed`` and return its truth and logs."""
    state = play(game, index, seed, lineup)
    players = game.players
    others = {p: [q for q in players if q != p] for p in players}
    truth = {
        "game": "rose",
        "identities": dict(zip(players, state.identities)),
        "seed": seed,
        "index": index,
        "players": list(players),
        "bots": dict(zip(players, lineup)),
        "guesses": {
            players[s]: dict(zip(others[players[s]], g)) for s, g in sorted(state.guesses.items())
        },
        "scores": dict(zip(players, state.scores)),
        "event_tiles": {p: len(t) for p, t in zip(players, state.events_held)},
        "winners": [players[s] for s in state.winners()],
    }
    logs = {p: game.log_text(p, state.logs[seat]) for seat, p in enumerate(players)}
    return GameRecord(index, truth, logs)
