"""The games deduce can simulate, each with its bots, its data files and its recorder.

The command line asks this table, never the engines directly: adding a game
to ``simulate`` and ``check`` is one more :class:`Simulator` here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from deduce.errors import DeduceError
from deduce.games.abbey.rules.board import load_board_file
from deduce.games.abbey.rules.cards import load_cards_file
from deduce.games.abbey.rules.engine import AbbeyGame
from deduce.games.abbey.sim import bots as abbey_bots
from deduce.games.abbey.sim import simulate as abbey_simulate
from deduce.games.blackrose import bots as blackrose_bots
from deduce.games.blackrose import simulate as blackrose_simulate
from deduce.games.blackrose.cards import load_cards_file as load_blackrose_cards
from deduce.games.blackrose.engine import BlackRoseGame
from deduce.games.rose import bots as rose_bots
from deduce.games.rose import simulate as rose_simulate
from deduce.games.rose.data import load_data_file
from deduce.games.rose.engine import RoseGame
from deduce.games.simulate import BotFactory, Recorder
from deduce.logs.vocabulary.abbey import load_deck_file

#: The user's data files: option name (``deck``, ``data``...) -> path, or None for the default.
Files = Mapping[str, str | None]


def _abbey(players: int, files: Files) -> AbbeyGame:
    deck, board, cards = (files.get(k) for k in ("deck", "board", "cards"))
    return AbbeyGame.create(players, load_deck_file(deck) if deck else None,
                            load_board_file(board) if board else None,
                            load_cards_file(cards) if cards else None)


def _rose(players: int, files: Files) -> RoseGame:
    data = files.get("data")
    return RoseGame.create(players, load_data_file(data) if data else None)


def _blackrose(players: int, files: Files) -> BlackRoseGame:
    cards = files.get("cards")
    return BlackRoseGame.create(players, load_blackrose_cards(cards) if cards else None)


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
            raise DeduceError(f"--{extra[0]} does not apply to {self.name} "
                              f"({self.name} data options: "
                              f"{', '.join('--' + f for f in self.files)})")
        return self.build(players, files)


SIMULATORS: dict[str, Simulator] = {
    "abbey": Simulator("abbey", abbey_bots.BOTS, "notepad", ("deck", "board", "cards"), _abbey,
                       abbey_simulate.record_game),
    "rose": Simulator("rose", rose_bots.BOTS, "monk", ("data",), _rose, rose_simulate.record_game),
    "blackrose": Simulator("blackrose", blackrose_bots.BOTS, "advised", ("cards",), _blackrose,
                           blackrose_simulate.record_game),
}
