"""The ``advised`` Abbey bot: every decision taken from the advisor.

It keeps the solver bot's exact sheet and accusation rule
(:class:`~deduce.games.abbey.sim.bots.SolverBot`) and takes its other
decisions from :mod:`deduce.games.abbey.advice.decisions`, over the same
drawn histories the accusation uses:

- ``move``: the room worth most (its question, its action, half of next
  turn's best); towards the chapter hall when it has a suspect to accuse or a
  trait to reveal, and the notepad's way when no room teaches anything;
- ``ask``: the question worth most, on an encounter, a question back or a
  card's question;
- ``reply``: answer or the vow of silence, whichever is worth more;
- ``show``: the matching card that gives the asker least;
- ``pass``: the cards at Mass the left neighbour gains least from;
- ``parlor``: the "show me" worth most once the pile is empty;
- ``reveal``: a trait at least ``REVEAL_AT`` likely, at the chapter hall;
- ``target``: the player whose card or answer is worth most.

The ``advised-race`` bot (:class:`RacingBot`) also weighs the race to
accuse: among a few candidates, it estimates what the others know
(:mod:`~deduce.games.abbey.solver.opponents`, on a few histories of its own
log) and the culprit's chances, and accuses by ``suggest``'s rule: the
chance it needs falls from 80% towards 50% as the chance that someone is
sure of the culprit (its lower bound) grows.

``plain`` names decisions taken the solver bot's way instead, to measure
what each one's advice is worth (``benchmarks/winrate.py``). Played so,
the advice on ``ask``, ``reply``, ``show``, ``parlor`` and ``target`` did not
win more than the plain play, alone or all five together
(``benchmarks/README.md``), so the ``advised`` bot keeps the simpler play
for them (:data:`KEPT_PLAIN`); ``advised-all`` takes every decision from the
advisor. Every step is deterministic, so a seed gives the same game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from random import Random
from typing import TypeVar

from deduce.games.abbey.advice.advisor import Ranker
from deduce.games.abbey.advice.decisions import Choice, Position
from deduce.games.abbey.advice.race import rival, worth_accusing
from deduce.games.abbey.rules.engine import (
    AbbeyGame,
    Action,
    AskAction,
    ChapterAction,
    MoveAction,
    Observation,
    ParlorAction,
    Pass,
    PassAction,
    ReplyAction,
    ShowAction,
    TargetAction,
)
from deduce.games.abbey.sim.bots import Bot, Decider, SolverBot
from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.opponents import race_of
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.timeline import CULPRIT

#: One decision's action.
A = TypeVar("A", bound=Action)

#: The decisions the advice takes, each of which ``plain`` may hand back to the solver bot.
DECISIONS = ("move", "ask", "reply", "show", "pass", "parlor", "reveal", "target")
#: The decisions whose advice did not win more than the plain play: the ``advised`` bot's default.
KEPT_PLAIN = ("ask", "reply", "show", "parlor", "target")
#: How a line-up names the bot with every decision advised but those named after it.
PLAIN = "advised-plain-"
#: How a line-up names the bot with every decision advised.
EVERY = "advised-all"
#: Below this many bits a move teaches nothing worth the detour: the notepad's route instead.
MOVE_FLOOR = 0.01


class AdvisedBot(SolverBot):
    """The solver bot's sheet and accusations, the other decisions advised but ``plain``'s."""

    #: Draws, and chain moves between two, while more than ``ACCUSE_AMONG`` candidates are left.
    EARLY_DRAWS, EARLY_THIN = 60, 4

    def __init__(self, game: AbbeyGame, seat: int, plain: Iterable[str] = KEPT_PLAIN) -> None:
        super().__init__(game, seat)
        self.plain = frozenset(plain)
        unknown = self.plain - set(DECISIONS)
        if unknown:
            raise ValueError(f"unknown decisions {sorted(unknown)}")
        self._advice: tuple[int, Position | None] = (-1, None)

    def __call__(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        """Pick an action for the pending decision."""
        decision = "ask" if obs.decision == "ask_back" else obs.decision
        advise = self._advisers().get(obs.decision)
        if advise is None or decision in self.plain:
            return super().__call__(obs, legal, rng)
        return advise(obs, legal, rng)

    def _advisers(self) -> dict[str, Decider]:
        """The advised way with each decision, by name (any other: the solver bot's way)."""
        return {
            "move": self._advised_move,
            "ask": self._advised_ask,
            "ask_back": self._advised_ask_back,
            "parlor": self._advised_parlor,
            "target": self._advised_target,
            "reply": self._advised_reply,
            "show": self._advised_show,
            "pass": self._advised_pass,
            "chapter": self._advised_chapter,
        }

    def sampling(self, candidates: int) -> tuple[int, int]:
        """Fewer, closer draws while too many candidates are left for an accusation."""
        if candidates > self.ACCUSE_AMONG:
            return self.EARLY_DRAWS, self.EARLY_THIN
        return super().sampling(candidates)

    def position(self, obs: Observation) -> Position:
        """The advisor's position for this observation (made once per log line)."""
        sheet = self.sheet(obs)
        if self._advice[0] != len(obs.log):
            assert self._position is not None
            timeline = self._position[1].timeline
            assert self._warm.model is not None
            setup = self._warm.model.setup
            hands = dict(zip(self.game.players, obs.hand_sizes))
            self._advice = (
                len(obs.log),
                Position(
                    setup,
                    lambda: Ranker(setup, self.draws(len(sheet)), timeline.holders, len(obs.log)),
                    obs.log,
                    timeline.holders,
                    hands,
                ),
            )
        position = self._advice[1]
        assert position is not None
        return position

    def _seat(self, name: str) -> int:
        return self.game.players.index(name)

    def _name(self, seat: int) -> str:
        return self.game.players[seat]

    def _best(
        self, choices: Sequence[Choice], legal: Sequence[A], engine: Callable[[Choice], A]
    ) -> A:
        """The first advised choice the engine allows (they come best first)."""
        allowed = set(legal)
        return next((engine(c) for c in choices if engine(c) in allowed), legal[0])

    # ---------------------------------------------------------------- moves

    def _advised_move(
        self, obs: Observation, legal: Sequence[MoveAction], rng: Random
    ) -> MoveAction:
        destinations = [a[1] for a in legal if a[0] == "move"]
        if not destinations or self.suspect(obs) is not None:
            return super()._move(obs, legal, rng)
        board = self.game.board
        chapter = board.of_kind("chapter")[0].id
        if (
            "reveal" not in self.plain
            and ("move", chapter) in legal
            and not obs.pile
            and self.position(obs).reveal([t for _, t in obs.revealed])
        ):
            return ("move", chapter)
        pawns: dict[str, list[str]] = {}
        for seat, room in enumerate(obs.positions):
            if seat != self.seat and seat not in obs.penance:
                pawns.setdefault(room, []).append(self._name(seat))
        die = {room: self._name(seat) for room, seat in obs.dice.items()}
        rooms = self.position(obs).rooms(board, destinations, pawns, die, obs.pile, self.game.steps)
        if not rooms or rooms[0].value < MOVE_FLOOR:
            return super()._move(obs, legal, rng)
        return ("move", rooms[0].action[1])

    # -------------------------------------------------------------- attack

    def _advised_ask(
        self, obs: Observation, legal: Sequence[Pass | AskAction], rng: Random
    ) -> Pass | AskAction:
        targets = sorted({a[1] for a in legal if a[0] == "ask"})
        choices = self.position(obs).ask([self._name(t) for t in targets])
        return self._best(choices, legal, lambda c: ("ask", self._seat(c.action[1]), c.action[2]))

    _advised_ask_back = _advised_ask

    def _advised_parlor(
        self, obs: Observation, legal: Sequence[ParlorAction], rng: Random
    ) -> ParlorAction:
        others = [self._name(s) for s in range(len(obs.hand_sizes)) if s != self.seat]
        choices = self.position(obs).parlor(others)
        return self._best(
            choices,
            legal,
            lambda c: (
                c.action
                if c.action == ("pass",)
                else ("show_me", self._seat(c.action[1]), c.action[2])
            ),
        )

    def _advised_target(
        self, obs: Observation, legal: Sequence[TargetAction], rng: Random
    ) -> TargetAction:
        position = self.position(obs)
        if obs.about in ("take", "show"):
            return max(legal, key=lambda a: (position.take(self._name(a[1])), -a[1]))
        if obs.about == "question":
            return max(legal, key=lambda a: (position.ask([self._name(a[1])])[0].bits, -a[1]))
        return super()._target(obs, legal, rng)

    # ------------------------------------------------------------- defence

    def _advised_reply(
        self, obs: Observation, legal: Sequence[ReplyAction], rng: Random
    ) -> ReplyAction:
        asker, question = obs.context
        return self.position(obs).reply(self._name(asker), question, obs.hand)[0].action

    def _advised_show(
        self, obs: Observation, legal: Sequence[ShowAction], rng: Random
    ) -> ShowAction:
        to = self._name(obs.context[0])
        return self.position(obs).show(to, [a[1] for a in legal])[0].action

    def _advised_pass(
        self, obs: Observation, legal: Sequence[PassAction], rng: Random
    ) -> PassAction:
        n = len(legal[0][1])
        choices = self.position(obs).mass(obs.hand, n)
        return self._best(choices, legal, lambda c: c.action)

    # ------------------------------------------------------------- chapter

    def _advised_chapter(
        self, obs: Observation, legal: Sequence[ChapterAction], rng: Random
    ) -> ChapterAction:
        card = self.suspect(obs)
        if card is not None and ("accuse", card) in legal:
            return ("accuse", card)
        if "reveal" not in self.plain:
            trait = self.position(obs).reveal([t for _, t in obs.revealed])
            if trait is not None:
                return ("reveal", trait)
        return super()._chapter(obs, legal, rng)


class RacingBot(AdvisedBot):
    """The advised bot that accuses sooner when someone else may be sure of the culprit.

    With the pile empty and 2 to ``ACCUSE_AMONG`` candidates, it estimates
    what the others know on ``RACE_SAMPLES`` histories of each of the
    chains of :func:`~deduce.games.abbey.solver.opponents.race_of`
    (no time limit, so that a seed gives the same game): ``r``, the lower
    bound of the chance that some opponent is sure
    (:func:`~deduce.games.abbey.advice.race.rival`), and, from every move
    of the same chains, the culprit's chances with their bound (as a
    solve estimates them, so on the uniform law: ``silence=False``; the
    race then reads its histories without the others' silence, as it was
    measured). It accuses the favourite when ``suggest``
    would (:func:`~deduce.games.abbey.advice.race.worth_accusing`): when
    even the low end of its chance reaches 80% with no rival, down to 50%
    with a sure one. These chances replace the solver bot's draws, whose
    chains late in a six-player game never change their culprit (their
    favourite of two candidates is then a coin flip).
    """

    #: Histories of each chain behind the race, and its chains (under the uniform law, as
    #: its win shares were measured: ``benchmarks/README.md``).
    RACE_SAMPLES, RACE_CHAINS = 4, 8

    def __init__(self, game: AbbeyGame, seat: int) -> None:
        super().__init__(game, seat)
        self._raced: tuple[int, str | None] = (-1, None)

    def suspect(self, obs: Observation) -> str | None:
        """The last candidate, or the favourite the race makes worth accusing now."""
        sheet = self.sheet(obs)
        if obs.pile or not 1 < len(sheet) <= self.ACCUSE_AMONG:
            return super().suspect(obs)
        if self._raced[0] != len(obs.log):
            self._raced = (len(obs.log), self._racing_favourite())
        return self._raced[1]

    def _racing_favourite(self) -> str | None:
        """The favourite, if the race makes it worth accusing now (class docstring)."""
        assert self._position is not None and self._warm.model is not None
        seen, position, possible = self._position
        model = build_model(position)
        propagate(model)
        raced = race_of(
            position,
            self._warm.model,
            possible,
            model,
            math.inf,
            seen,
            self.RACE_SAMPLES,
            silence=False,
            chains=self.RACE_CHAINS,
        )
        if raced is None or raced.chances is None:
            return None
        culprit = [row.get(CULPRIT, 0.0) for row in raced.chances.probabilities]
        card = max(range(len(culprit)), key=culprit.__getitem__)
        low = culprit[card] - raced.chances.culprit_error
        return self.game.deck.ids[card] if worth_accusing(low, rival(raced)) else None


def advised_bot(game: AbbeyGame, seat: int) -> Bot:
    """An :class:`AdvisedBot` advised where the advice wins, plain on :data:`KEPT_PLAIN`."""
    return AdvisedBot(game, seat)


def advised_variants(names: Iterable[str] = ()) -> dict[str, Callable[[AbbeyGame, int], Bot]]:
    """``advised-all`` and ``advised-plain-<decision>``, for measuring each decision's advice.

    ``advised-all`` takes every decision from the advisor;
    ``advised-plain-<decision>`` too, but that one decision the solver bot's
    way. Each ``advised-plain-<d1>+<d2>...`` among ``names`` (a line-up) is
    there too: every decision advised but all those.
    """

    def variant(decisions: tuple[str, ...]) -> Callable[[AbbeyGame, int], Bot]:
        return lambda game, seat: AdvisedBot(game, seat, decisions)

    wanted = {f"{PLAIN}{d}" for d in DECISIONS} | {n for n in names if n.startswith(PLAIN)}
    plain = {name: variant(tuple(name.removeprefix(PLAIN).split("+"))) for name in sorted(wanted)}
    return {EVERY: variant(()), **plain}
