"""What the others' silence says: a player down to one suspect on paper soon accuses.

Under the uniform law on histories (the spec's prior, which the chances
follow) nothing in the log says whether another player could have
accused. At the table it does: a player whose sheet is down to one card
heads for the chapter and accuses within a few turns, and every question
logged since, with no accusation of theirs, makes that history less
likely. The :mod:`opponents` race draws its histories from the uniform law
weighed by this likelihood (:class:`Tilted`); the chances do not.

Glossary
--------
sheet
    The suspects a paper player has not crossed out: every card but those
    that were in their hand at some epoch up to then, those shown to them
    by name, and those everybody crossed out (a "has" answer, a wrong
    accusation). Cards shown to an opponent of which the log keeps only
    the traits are left out: the sheet may be a little wider than theirs.
    A sheet of one card holds the culprit.
waiting
    A question of the log (``has``, ``lacks``, ``count``) asked while an
    opponent who has not accused has a sheet of one card.
silence law
    Before each question, an opponent with a sheet of one card accuses
    with chance :data:`WAIT`, on their own: a history's likelihood is
    ``(1 - WAIT) ** waiting``, its waiting questions summed over the
    opponents. The observer's own sheet is known, so it weighs nothing.

The law, and :data:`WAIT`, are fitted to the engine's notepad bots
(:mod:`deduce.games.abbey.sim.bots`), which accuse as soon as their sheet
is one card and they reach the chapter; ``docs/opponents.md`` says how far
that carries to a real table.
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol

import numpy as np

from deduce.games.abbey.solver.timeline import AbbeyPosition

#: The chance that an opponent with one card left on their sheet accuses before the next
#: question (``benchmarks/README.md``: fitted on 400 six-player games of notepad bots).
WAIT = 0.27
#: The kinds of events that answer one question: the log's clock.
QUESTIONS = ("has", "lacks", "count")


class Silence:
    """The silence law of one position (module glossary), history by history."""

    def __init__(self, position: AbbeyPosition) -> None:
        setup, timeline = position.setup, position.timeline
        ids = setup.deck.ids
        index = {card: i for i, card in enumerate(ids)}
        self.bits = np.left_shift(np.uint64(1), np.arange(len(ids), dtype=np.uint64))
        self.full = np.bitwise_or.reduce(self.bits)
        opponents = [p for p in setup.players if p != setup.me]
        self.players = np.array([timeline.holder(p) for p in opponents], dtype=np.int8)
        crossed = np.uint64(0)
        shown = np.zeros(len(opponents), dtype=np.uint64)
        silent = np.ones(len(opponents), dtype=bool)
        rows: list[tuple[int, np.uint64, np.ndarray, np.ndarray]] = []
        for event in position.events:
            kind, fields = event.type, event.fields
            if kind in QUESTIONS:
                rows.append((timeline.epoch_of[event.line], crossed, shown.copy(), silent.copy()))
            if kind == "has" or (kind == "accuse" and not fields["correct"]):
                crossed |= self.bits[index[fields["card"]]]
            if kind == "show" and fields["to"] in opponents and "card" in fields:
                shown[opponents.index(fields["to"])] |= self.bits[index[fields["card"]]]
            if kind == "accuse" and fields["player"] in opponents:
                silent[opponents.index(fields["player"])] = False
        self.epoch = np.array([r[0] for r in rows], dtype=np.int64)
        #: Before each question: the cards everybody crossed out, those shown to each opponent
        #: by name (question, opponent), and the opponents who have not accused.
        self.crossed = np.array([r[1] for r in rows], dtype=np.uint64)
        self.shown = np.array([r[2] for r in rows], dtype=np.uint64).reshape(-1, len(opponents))
        self.silent = np.array([r[3] for r in rows], dtype=bool).reshape(-1, len(opponents))

    def sheets(self, history: np.ndarray) -> np.ndarray:
        """Every opponent's sheet at every question of ``history`` (question, opponent): masks."""
        held = np.where(history[None] == self.players[:, None, None], self.bits[None, :, None], 0)
        seen = np.bitwise_or.accumulate(held.sum(axis=1, dtype=np.uint64), axis=1)
        return self.full & ~(seen[:, self.epoch].T | self.shown | self.crossed[:, None])

    def waiting(self, history: np.ndarray) -> int:
        """The waiting questions of ``history``, summed over the opponents (module glossary)."""
        if not len(self.epoch):
            return 0
        return int(((np.bitwise_count(self.sheets(history)) == 1) & self.silent).sum())

    def log_likelihood(self, history: np.ndarray) -> float:
        """The log of the chance of the others' silence in ``history`` (module glossary)."""
        return self.waiting(history) * math.log(1 - WAIT)


class Movable(Protocol):
    """A walk whose moves can be undone (:class:`~deduce.games.abbey.solver.gibbs.Walk`)."""

    @property
    def made(self) -> int:
        """Moves since the last :meth:`take`."""

    def advance(self, moves: int) -> None:
        """Make ``moves`` moves."""

    def history(self) -> np.ndarray:
        """The current history (card, epoch)."""

    def save(self) -> Any:
        """What :meth:`restore` needs to come back to the current history."""

    def restore(self, saved: Any) -> None:
        """Come back to the history of a :meth:`save`."""

    def take(self) -> list[list[float]]:
        """The sums of holder laws since the last take."""


class Tilted:
    """A walk over the histories weighed by the silence law (Metropolis).

    Every move of the inner walk keeps the uniform law and is reversible
    (a block redrawn from its conditional law, the block chosen alike from
    every history the move can reach), so keeping a move with chance
    ``min(1, L(new) / L(old))`` and undoing it otherwise keeps the law
    proportional to ``L``. The inner walk's sums of holder laws no longer
    follow that law: only :meth:`history` is to be read.
    """

    def __init__(self, walk: Movable, law: Silence, rng: random.Random) -> None:
        self.walk, self.law, self.rng = walk, law, rng
        self.current = walk.history()
        self.log_likelihood = law.log_likelihood(self.current)

    @property
    def made(self) -> int:
        """As the inner walk's."""
        return self.walk.made

    def take(self) -> list[list[float]]:
        """As the inner walk's (not a law of this walk: class docstring)."""
        return self.walk.take()

    def history(self) -> np.ndarray:
        """The current history."""
        return self.current.copy()

    def advance(self, moves: int) -> None:
        """``moves`` moves of the inner walk, each kept or undone."""
        for _ in range(moves):
            saved = self.walk.save()
            self.walk.advance(1)
            history = self.walk.history()
            if np.array_equal(history, self.current):
                continue
            value = self.law.log_likelihood(history)
            gain = value - self.log_likelihood
            if gain >= 0 or self.rng.random() < math.exp(gain):
                self.current, self.log_likelihood = history, value
            else:
                self.walk.restore(saved)
