"""Abbey bots: players that decide from their own observation, never from the state.

- ``random``: any legal action, uniformly.
- ``notepad``: what a careful player does on paper. The sheet crosses out
  every card the bot has seen (its hands, cards drawn, taken, received,
  shown, and cards proved innocent); it heads for the parlor while the pile
  lasts, then for rooms that move cards to it, asks about candidates, and
  accuses when a single suspect is left on its sheet.
- ``solver``: the notepad's play, with the SAT closure's exact culprit
  candidates for a sheet, and an accusation on drawn histories once few
  candidates are left (:class:`SolverBot`).

Every bot passes a uniformly random set of cards at Mass and shows a
uniformly random matching card: the prior the solver assumes (see the log
format), so solver probabilities are calibrated against these players.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from random import Random
from typing import Any

from deduce.games.abbey.rules.engine import (
    AbbeyGame,
    Action,
    AskAction,
    ChapterAction,
    ExtraAction,
    MoveAction,
    Observation,
    ParlorAction,
    ReplyAction,
    TargetAction,
)
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sample import sample_histories
from deduce.games.abbey.solver.sat.cnf import Warm
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition
from deduce.logs.formats.abbey import GROUP_OF, Deck
from deduce.logs.jsonl import parse_jsonl

Bot = Callable[[Observation, Sequence[Action], Random], Action]
#: A bot's way with one decision: like a :data:`Bot`, but given and giving
#: only that decision's actions (``MoveAction`` for "move", ...).
Decider = Callable[..., Action]


def random_bot(game: AbbeyGame, seat: int) -> Bot:
    """A bot choosing uniformly among the legal actions."""
    del game, seat

    def act(obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        return rng.choice(list(legal))

    return act


def crossed_out(deck: Sequence[str], log: Iterable[Mapping[str, Any]]) -> list[str]:
    """The suspects of ``deck`` left on a paper sheet after the log's events (as dicts).

    Every card seen is crossed out: the hand, cards drawn, taken, received,
    passed or shown, a "yes" to "do you have", and a wrong accusation.
    """
    seen: set[str] = set()
    for event in log:
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
    return [c for c in deck if c not in seen]


#: The traits a bot may ask a count of, in the order it weighs them.
ASKED_TRAITS = sorted(GROUP_OF)


def imbalance(deck: Deck, sheet: Sequence[str], trait: str) -> int:
    """How far ``trait`` is from splitting ``sheet`` in half: |with - without|."""
    return abs(2 * sum(deck.card(c).has_traits((trait,)) for c in sheet) - len(sheet))


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
        return crossed_out(self.game.deck.ids, obs.log)

    def __call__(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        """Pick an action for the pending decision."""
        decide = self._deciders().get(obs.decision)
        return decide(obs, legal, rng) if decide else rng.choice(list(legal))

    def _deciders(self) -> dict[str, Decider]:
        """The bot's way with each decision, by name (any other: a random legal action)."""
        return {
            "move": self._move,
            "ask": self._ask,
            "reply": self._reply,
            "parlor": self._parlor,
            "chapter": self._chapter,
            "extra": self._extra,
            "target": self._target,
        }

    def _move(self, obs: Observation, legal: Sequence[MoveAction], rng: Random) -> MoveAction:
        goals = self._goals(obs)
        rooms = [a[1] for a in legal if a[0] == "move"]
        if not rooms:  # staying put, the only action
            return legal[0]
        room = min(rooms, key=lambda r: (min(self.distance[r][g] for g in goals), rng.random()))
        return ("move", room)

    def _goals(self, obs: Observation) -> list[str]:
        """Rooms worth reaching now."""
        board = self.game.board
        kinds = board.room
        rooms = [r.id for r in board.rooms]
        if obs.pile:
            return [r.id for r in board.of_kind("parlor")]
        if self.suspect(obs) is not None:
            return [r.id for r in board.of_kind("chapter")]
        goals = [
            room for room, seat in obs.dice.items() if seat != self.seat and obs.hand_sizes[seat]
        ]
        goals += [
            r
            for r in rooms
            if (room := kinds(r)).kind == "cell"
            and room.seat is not None
            and room.seat != self.seat
            and room.seat < len(obs.hand_sizes)
            and obs.hand_sizes[room.seat]
            and r not in obs.positions
        ]
        return goals or [r.id for r in board.of_kind("parlor")]

    def _ask(self, obs: Observation, legal: Sequence[AskAction], rng: Random) -> AskAction:
        sheet = self.sheet(obs)
        target = rng.choice(sorted({a[1] for a in legal}))
        if len(sheet) > 1 and rng.random() < 0.5:
            return ("ask", target, ("has", rng.choice(sheet)))
        return ("ask", target, ("count", (self._splitting_trait(sheet, rng),)))

    def _splitting_trait(self, sheet: Sequence[str], rng: Random) -> str:
        """The trait closest to splitting the remaining suspects in half (ties at random)."""
        deck = self.game.deck
        return min(ASKED_TRAITS, key=lambda t: (imbalance(deck, sheet, t), rng.random()))

    def _reply(self, obs: Observation, legal: Sequence[ReplyAction], rng: Random) -> ReplyAction:
        return ("answer",)

    def _parlor(self, obs: Observation, legal: Sequence[ParlorAction], rng: Random) -> ParlorAction:
        sheet = self.sheet(obs)
        others = [s for s in range(len(obs.hand_sizes)) if s != self.seat and obs.hand_sizes[s]]
        if not others or len(sheet) <= 1:
            return ("pass",)
        return ("show_me", rng.choice(others), (self._splitting_trait(sheet, rng),))

    def suspect(self, obs: Observation) -> str | None:
        """The suspect to accuse once in the chapter hall: the last one on the sheet."""
        sheet = self.sheet(obs)
        return sheet[0] if len(sheet) == 1 else None

    def _chapter(
        self, obs: Observation, legal: Sequence[ChapterAction], rng: Random
    ) -> ChapterAction:
        card = self.suspect(obs)
        if card is not None and ("accuse", card) in legal:
            return ("accuse", card)
        sheet = self.sheet(obs)
        made = {t for _, t in obs.revealed}
        deck = self.game.deck
        shared = [
            t
            for t in sorted(GROUP_OF)
            if t not in made and all(deck.card(c).has_traits((t,)) for c in sheet)
        ]
        return ("reveal", shared[0]) if shared else ("pass",)

    def _extra(self, obs: Observation, legal: Sequence[ExtraAction], rng: Random) -> ExtraAction:
        """Spend a crypt card or kept book on another turn as soon as it can be used."""
        return next((a for a in legal if a != ("end",)), ("end",))

    def _target(self, obs: Observation, legal: Sequence[TargetAction], rng: Random) -> TargetAction:
        return max(legal, key=lambda a: (obs.hand_sizes[a[1]], rng.random()))


class SolverBot(Notepad):
    """The notepad's play with deduce's exact candidates for a sheet, and a bolder accusation.

    Its sheet is the culprit candidates of the SAT closure of its own log
    (every event, counts and unseen transfers included), not just the cards
    it has seen: it moves, asks and reveals as the notepad bot does. Its SAT
    model grows with its log, one event at a time.

    It accuses the last candidate, or, once at most ``ACCUSE_AMONG`` are
    left (and the pile is empty), the favourite of ``DRAWS`` histories drawn
    from chains started at two SAT witnesses per candidate, when its share
    of the draws reaches ``ACCUSE_AT``. Chains that start with every
    candidate as the culprit and still agree are a fair sign; chains from
    random witnesses are not, late in a game with many players (see
    :mod:`sample`). The two settings were tuned on simulated six-player
    games, as was the choice not to follow the advisor's estimated values
    in moving and asking (``benchmarks/README.md`` has the figures). Every
    step is deterministic, so a seed gives the same game on any machine.
    """

    #: At most this many candidates left before an estimated accusation is considered.
    ACCUSE_AMONG = 4
    #: Share of the draws the favourite needs for an estimated accusation.
    ACCUSE_AT = 0.55
    #: Histories drawn for it, and chain moves between two draws (and per start, four times).
    DRAWS, THIN = 120, 6

    def __init__(self, game: AbbeyGame, seat: int) -> None:
        super().__init__(game, seat)
        self._warm = Warm()
        self._position: tuple[int, AbbeyPosition, list[set[int]]] | None = None
        self._suspect: tuple[int, str | None] = (-1, None)
        self._draws: tuple[int, list[tuple[int, ...]]] = (-1, [])

    def _cross_out(self, obs: Observation) -> list[str]:
        log = parse_jsonl(
            self.game.log_text(obs.player, obs.log), f"{obs.player}.jsonl", self.game.deck
        )
        position = AbbeyPosition.of_log(log, self.game.deck)
        possible = self._warm.model_of(position).closure()
        if possible is None:  # the engine's own log always has a history
            raise AssertionError(f"{obs.player}'s log has no history")
        self._position = (len(obs.log), position, possible)
        return [card for card, row in zip(self.game.deck.ids, possible) if CULPRIT in row]

    def suspect(self, obs: Observation) -> str | None:
        """The last candidate, or the drawn favourite among a few (see the class docstring)."""
        sheet = self.sheet(obs)
        if len(sheet) == 1 or obs.pile or len(sheet) > self.ACCUSE_AMONG:
            return super().suspect(obs)
        if self._suspect[0] != len(obs.log):
            self._suspect = (len(obs.log), self._drawn_favourite(len(sheet)))
        return self._suspect[1]

    def _drawn_favourite(self, candidates: int) -> str | None:
        """The culprit most often drawn, if its share reaches ``ACCUSE_AT``."""
        draws = self.draws(candidates)
        drawn = Counter(draw.index(CULPRIT) for draw in draws)
        card, times = drawn.most_common(1)[0]
        return self.game.deck.ids[card] if times >= self.ACCUSE_AT * len(draws) else None

    def sampling(self, candidates: int) -> tuple[int, int]:
        """Histories to draw with this many candidates, and chain moves between two."""
        del candidates
        return self.DRAWS, self.THIN

    def draws(self, candidates: int) -> list[tuple[int, ...]]:
        """``DRAWS`` histories' current holders, drawn once per log line (:meth:`sheet` first).

        The chains start at two witnesses per candidate, for at most
        ``ACCUSE_AMONG`` candidates.
        """
        assert self._position is not None and self._warm.model is not None
        seen, position, possible = self._position
        if self._draws[0] != seen:
            sat = self._warm.model
            model = build_model(position)
            propagate(model)
            starts = sat.witnesses(possible, 2 * min(candidates, self.ACCUSE_AMONG), Random(seen))
            count, thin = self.sampling(candidates)
            self._draws = (
                seen,
                sample_histories(model, starts, count, seed=seen, thin=thin, burn=4 * thin),
            )
        return self._draws[1]
