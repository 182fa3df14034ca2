"""Abbey bots: players that decide from their own observation, never from the state.

- ``random``: any legal action, uniformly.
- ``notepad``: what a careful player does on paper. The sheet crosses out
  every card the bot has seen (its hands, cards drawn, taken, received,
  shown, and cards proved innocent); it heads for the parlor while the pile
  lasts, then for rooms that move cards to it, asks about candidates, and
  accuses when a single suspect is left on its sheet.

Every bot passes a uniformly random set of cards at Mass and shows a
uniformly random matching card: the prior the solver assumes (see the log
format), so solver probabilities are calibrated against these players.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from deduce.games.abbey.deck import GROUP_OF
from deduce.games.abbey.engine import AbbeyGame, Action, Observation

Bot = Callable[[Observation, Sequence[Action], Random], Action]


def random_bot(game: AbbeyGame, seat: int) -> Bot:
    """A bot choosing uniformly among the legal actions."""
    del game, seat

    def act(obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        return rng.choice(list(legal))
    return act


class Notepad:
    """The careful paper player (see the module docstring)."""

    def __init__(self, game: AbbeyGame, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.distance = _distances(game)

    def sheet(self, obs: Observation) -> list[str]:
        """Suspects not yet crossed out, in deck order."""
        seen: set[str] = set()
        for event in obs.log:
            kind = event["type"]
            if kind == "hand":
                seen.update(event["cards"])
            elif kind in ("draw", "take", "show") and "card" in event:
                seen.add(event["card"])
            elif kind == "mass":
                seen.update(event.get("gave", ()))
                seen.update(event.get("got", ()))
            elif kind == "has" or (kind == "accuse" and not event["correct"]):
                seen.add(event["card"])
        return [c for c in self.game.deck.ids if c not in seen]

    def __call__(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        """Pick an action for the pending decision."""
        decide = getattr(self, f"_{obs.decision}", None)
        return decide(obs, legal, rng) if decide else rng.choice(list(legal))

    def _move(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        goals = self._goals(obs)
        if legal[0][0] == "stay":
            return legal[0]
        return min(legal, key=lambda a: (min(self.distance[a[1]][g] for g in goals),
                                         rng.random()))

    def _goals(self, obs: Observation) -> list[str]:
        """Rooms worth reaching now."""
        board = self.game.board
        kinds = board.room
        rooms = [r.id for r in board.rooms]
        if obs.pile:
            return [r.id for r in board.of_kind("parlor")]
        if len(self.sheet(obs)) == 1:
            return [r.id for r in board.of_kind("chapter")]
        goals = [room for room, seat in obs.dice.items()
                 if seat != self.seat and obs.hand_sizes[seat]]
        goals += [r for r in rooms if kinds(r).kind == "cell" and kinds(r).seat is not None
                  and kinds(r).seat != self.seat and kinds(r).seat < len(obs.hand_sizes)
                  and obs.hand_sizes[kinds(r).seat] and r not in obs.positions]
        return goals or [r.id for r in board.of_kind("parlor")]

    def _ask(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        sheet = self.sheet(obs)
        target = rng.choice(sorted({a[1] for a in legal}))
        if len(sheet) > 1 and rng.random() < 0.5:
            return ("ask", target, ("has", rng.choice(sheet)))
        return ("ask", target, ("count", (self._splitting_trait(sheet, rng),)))

    def _splitting_trait(self, sheet: Sequence[str], rng: Random) -> str:
        """The trait closest to splitting the remaining suspects in half."""
        deck = self.game.deck
        traits = sorted(GROUP_OF)
        return min(traits, key=lambda t: (abs(2 * sum(deck.card(c).has_traits((t,))
                                                      for c in sheet) - len(sheet)),
                                          rng.random()))

    def _reply(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        return ("answer",)

    def _parlor(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        sheet = self.sheet(obs)
        others = [s for s in range(len(obs.hand_sizes)) if s != self.seat and obs.hand_sizes[s]]
        if not others or len(sheet) <= 1:
            return ("pass",)
        return ("show_me", rng.choice(others), (self._splitting_trait(sheet, rng),))

    def _chapter(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        sheet = self.sheet(obs)
        if len(sheet) == 1 and ("accuse", sheet[0]) in legal:
            return ("accuse", sheet[0])
        made = {t for _, t in obs.revealed}
        deck = self.game.deck
        shared = [t for t in sorted(GROUP_OF) if t not in made
                  and all(deck.card(c).has_traits((t,)) for c in sheet)]
        return ("reveal", shared[0]) if shared else ("pass",)

    def _extra(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        return max(legal)

    def _target(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        return max(legal, key=lambda a: (obs.hand_sizes[a[1]], rng.random()))


def _distances(game: AbbeyGame) -> dict[str, dict[str, int]]:
    """Steps between every two rooms (breadth-first over the doors)."""
    board = game.board
    out: dict[str, dict[str, int]] = {}
    for room in board.rooms:
        dist = {room.id: 0}
        queue = deque([room.id])
        while queue:
            here = queue.popleft()
            for there in board.neighbours(here):
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        out[room.id] = dist
    return out


#: Bot kinds by name, each a factory ``(game, seat) -> bot``.
BOTS: dict[str, Callable[[AbbeyGame, int], Any]] = {"random": random_bot, "notepad": Notepad}
