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

from collections.abc import Callable, Sequence
from random import Random

from deduce.games.abbey.advisor import Advice, analyse, confirmed_accusation
from deduce.games.abbey.deck import GROUP_OF
from deduce.games.abbey.engine import AbbeyGame, Action, Observation
from deduce.games.abbey.sat import Warm
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import GameLog

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
        self.distance = {room.id: game.board.distances(room.id) for room in game.board.rooms}
        self._sheet: tuple[int, list[str]] = (-1, [])

    def sheet(self, obs: Observation) -> list[str]:
        """Suspects not yet crossed out, in deck order (worked out once per new log line)."""
        if self._sheet[0] != len(obs.log):
            self._sheet = (len(obs.log), self._cross_out(obs))
        return self._sheet[1]

    def _cross_out(self, obs: Observation) -> list[str]:
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
        """Spend a crypt card or kept book on another turn as soon as it can be used."""
        return next((a for a in legal if a != ("end",)), ("end",))

    def _target(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        return max(legal, key=lambda a: (obs.hand_sizes[a[1]], rng.random()))




class SolverBot(Notepad):
    """A player guided by the solver: its own log, the advisor's values, the rulebook's points.

    Its sheet is the solver's candidate set (propagation over every event
    of its log, counts included), not the cards it has seen. It goes where
    the advisor expects to learn most about the culprit: every room's value
    (a draw or "show me" in the parlor, a theft in a confessional or cell,
    an accusation or revelation in the chapter hall) is discounted by the
    turns needed to get there, plus the best question to a pawn met on
    arrival. It asks the most informative question, answers rather than
    keeping silent (to ask one back), and accuses as the advisor
    recommends (see :mod:`advisor`) or when one candidate is left. Its
    SAT model grows with its log, one event at a time. Every step is
    deterministic, so a seed gives the same game on any machine.
    """

    #: Histories drawn for each decision, and chain moves between two draws.
    DRAWS, THIN = 80, 6
    #: How much a room's value shrinks for each turn needed to reach it.
    DISCOUNT = 0.6
    #: Value, in bits, of a recommended accusation or revelation in the chapter hall.
    ACCUSE_VALUE, REVEAL_VALUE = 100.0, 0.5

    def __init__(self, game: AbbeyGame, seat: int) -> None:
        super().__init__(game, seat)
        self._cached: tuple[int, Advice | None, list[str]] | None = None
        self._warm = Warm()
        self._log: GameLog | None = None
        self._accusation: tuple[int, str | None] | None = None

    def _state(self, obs: Observation) -> tuple[Advice | None, list[str]]:
        """Advice and candidates for the log as it stands (computed once per new event)."""
        if self._cached is None or self._cached[0] != len(obs.log):
            log = parse_jsonl(self.game.log_text(obs.player, obs.log), f"{obs.player}.jsonl",
                              self.game.deck)
            found = analyse(log, draws=self.DRAWS, seed=len(obs.log), show_me=not obs.pile,
                            thin=self.THIN, warm=self._warm)
            self._log = log
            self._cached = (len(obs.log), found.advice, found.candidates)
        return self._cached[1], self._cached[2]

    def _accuse(self, obs: Observation) -> str | None:
        """The suspect to accuse now, checked by the exact count (once per new event)."""
        advice, _ = self._state(obs)
        if self._accusation is None or self._accusation[0] != len(obs.log):
            card = None if advice is None or self._log is None else confirmed_accusation(
                self._log, advice, self.game.deck)
            self._accusation = (len(obs.log), card)
        return self._accusation[1]

    def sheet(self, obs: Observation) -> list[str]:
        """The solver's culprit candidates."""
        return self._state(obs)[1]

    def _names(self, seats: Sequence[int]) -> list[str]:
        return [self.game.players[s] for s in seats]

    def _move(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        advice, _ = self._state(obs)
        if advice is None or legal[0][0] == "stay":
            return super()._move(obs, legal, rng)
        values = self._room_values(obs, advice)
        steps = self.game.steps

        def score(action: Action) -> float:
            dest = action[1]
            reach = max((v * self.DISCOUNT ** -(-self.distance[dest][room] // steps)
                         for room, v in values.items()), default=0.0)
            met = [s for s, r in enumerate(obs.positions)
                   if r == dest and s != self.seat and s not in obs.penance]
            asked = max((o.gain for o in advice.options if o.kind in ("count", "has")
                         and o.target in self._names(met)), default=0.0)
            return reach + asked
        return max(legal, key=lambda a: (score(a), rng.random()))

    def _room_values(self, obs: Observation, advice: Advice) -> dict[str, float]:
        """What each room with an action is expected to tell now (bits, or a chapter value)."""
        board, players = self.game.board, self.game.players
        values: dict[str, float] = {}
        for room in board.rooms:
            if room.kind == "parlor":
                best = advice.best("draw") if obs.pile else advice.best("show_me")
                values[room.id] = best.gain if best else 0.0
            elif room.kind == "confessional":
                owner = obs.dice.get(room.id, self.seat)
                if owner != self.seat and obs.hand_sizes[owner]:
                    values[room.id] = advice.gain("take", players[owner])
            elif (room.kind == "cell" and room.seat is not None and room.seat != self.seat
                  and room.seat < len(players) and obs.hand_sizes[room.seat]
                  and room.id not in obs.positions):
                values[room.id] = advice.gain("take", players[room.seat])
            elif room.kind == "chapter":
                if not obs.pile and (self._accuse(obs) or len(self.sheet(obs)) == 1):
                    values[room.id] = self.ACCUSE_VALUE
                elif advice.reveal([t for _, t in obs.revealed]):
                    values[room.id] = self.REVEAL_VALUE
        return values

    def _ask(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        advice, _ = self._state(obs)
        targets = {self.game.players[a[1]]: a[1] for a in legal}
        best = None if advice is None else next(
            (o for o in advice.options if o.kind in ("count", "has") and o.target in targets),
            None)
        if best is None:
            return super()._ask(obs, legal, rng)
        question = ("count", best.detail) if best.kind == "count" else ("has", best.detail[0])
        return ("ask", targets[best.target], question)

    def _parlor(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        advice, _ = self._state(obs)
        best = None if advice is None else advice.best("show_me")
        if best is None or best.gain <= 0:
            return super()._parlor(obs, legal, rng)
        return ("show_me", self.game.players.index(best.target), best.detail)

    def _chapter(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        advice, sheet = self._state(obs)
        if len(sheet) == 1 and ("accuse", sheet[0]) in legal:
            return ("accuse", sheet[0])
        if advice is not None:
            card = self._accuse(obs)
            if card is not None and ("accuse", card) in legal:
                return ("accuse", card)
            trait = advice.reveal([t for _, t in obs.revealed])
            if trait is not None:
                return ("reveal", trait)
        return super()._chapter(obs, legal, rng)

    def _target(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        """The player a card's effect is best aimed at: the most to tell (else as the notepad)."""
        advice, _ = self._state(obs)
        kind = {"take": "take", "show": "take", "question": "count"}.get(obs.about)
        if advice is None or kind is None:
            return super()._target(obs, legal, rng)
        return max(legal, key=lambda a: (advice.gain(kind, self.game.players[a[1]]),
                                         rng.random()))


#: Bot kinds by name, each a factory ``(game, seat) -> bot``.
BOTS: dict[str, Callable[[AbbeyGame, int], Bot]] = {
    "random": random_bot, "notepad": Notepad, "solver": SolverBot}
