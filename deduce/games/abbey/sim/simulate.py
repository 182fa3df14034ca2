"""Whole Abbey games played by bots: the truth of a game and each player's log.

The seeded play, the parallel runs and the folder layout are shared by every
engine (:mod:`deduce.games.simulate`); this module says what an Abbey game
keeps: the culprit, the deal, every card's final holder, scores and winners,
and each player's log, validated by the log reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from deduce.games.abbey.rules.engine import AbbeyGame, AbbeyState
from deduce.games.abbey.sim.advised import RacingBot, advised_bot
from deduce.games.abbey.sim.bots import Bot, Notepad, SolverBot, random_bot
from deduce.games.simulate import GameRecord, game_seed, play_game

BotFactory = Callable[[AbbeyGame, int], Bot]
#: Bot kinds by name, each a factory ``(game, seat) -> bot``.
BOTS: dict[str, BotFactory] = {
    "random": random_bot,
    "notepad": Notepad,
    "solver": SolverBot,
    "advised": advised_bot,
    "advised-race": RacingBot,
}


def play(
    game: AbbeyGame,
    index: int,
    seed: int,
    lineup: Sequence[str],
    bots: Mapping[str, BotFactory] = BOTS,
) -> AbbeyState:
    """Play game ``index`` of run ``seed`` with the Abbey bots of ``lineup`` (names in ``bots``)."""
    return play_game(game, game_seed("abbey", seed, index), lineup, bots)


def record_game(
    game: AbbeyGame,
    index: int,
    seed: int,
    lineup: Sequence[str],
    bots: Mapping[str, BotFactory] = BOTS,
) -> GameRecord:
    """Play game ``index`` of run ``seed`` and return its truth and logs."""
    state = play(game, index, seed, lineup, bots)
    deal = state.events[0]
    truth = {
        "game": "abbey",
        "culprit": state.culprit,
        "seed": seed,
        "index": index,
        "players": list(game.players),
        "bots": dict(zip(game.players, lineup)),
        "deal": {"pile": deal["pile"], "hands": deal["hands"]},
        "holders": {c: state.holder_of(c) for c in game.deck.ids},
        "scores": dict(zip(game.players, state.scores)),
        "winners": [game.players[s] for s in state.winners()],
        "found": state.finder is not None,
        "turns": state.turns,
    }
    logs = {p: game.log_text(p, state.logs[seat]) for seat, p in enumerate(game.players)}
    return GameRecord(index, truth, logs)
