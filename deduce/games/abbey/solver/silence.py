"""What the others' silence and questions say about what they have seen.

Under the uniform law on histories (the spec's prior, which the chances
follow) nothing in the log says what another player has seen beyond what
it constrains. At the table their play does: a player whose sheet is down
to one card heads for the chapter and accuses within a few turns, so every
question logged since, with no accusation of theirs, makes that history
less likely; and a player asks about what is still on their sheet, so the
questions whose asker the log tells weigh the histories of that sheet.
The :mod:`opponents` race draws its histories from the uniform law weighed
by this likelihood (:class:`Tilted`); the chances do not.

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
asker
    Who asked a question, when the log tells (:func:`askers`): a question
    met on a move is answered, and the one asked asks back, so two answers
    in a row by two players are a question and its question back.
silence law
    Before each question, an opponent with a sheet of one card accuses
    with chance ``WAIT`` (:data:`WAITS`, by the number of players), on
    their own: a history's likelihood is
    ``(1 - WAIT) ** waiting``, its waiting questions summed over the
    opponents; times, for every question an opponent asked (not a
    question back, which tells nothing of the asker's sheet), the chance
    of that question from their sheet (:meth:`Silence.asking_chances`): as
    a paper player asks, half the time whether someone has a card of
    their sheet, else the count of the trait that best splits it (with one
    card left, only counts), mixed with any question at all one time in
    ``1 / ANY``. The observer's own sheet is known, so it weighs nothing.

The law, :data:`WAITS` and :data:`ANY` are fitted to the engine's notepad
bots (:mod:`deduce.games.abbey.sim.bots`), which accuse as soon as their
sheet is one card and they reach the chapter; ``docs/opponents.md`` says
how far that carries to a real table.
"""

from __future__ import annotations

import math
import random
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from deduce.games.abbey.solver.chains import Walking
from deduce.games.abbey.solver.timeline import AbbeyPosition
from deduce.logs.formats.abbey import GROUP_OF
from deduce.logs.model import Event

_silence: ModuleType | None
try:  # built at install where a compiler is found (pyproject.toml)
    from deduce.games.abbey.solver import _silence
except ImportError:  # pragma: no cover - the numpy sum stands in
    _silence = None

#: The chance that an opponent with one card left on their sheet accuses before the next
#: question, by the number of players (``benchmarks/README.md``: fitted on 400 games of
#: notepad bots at each table size; by likelihood, but at six players, read off the share
#: still waiting after two to four questions, 0.29 by likelihood).
WAITS = {3: 0.38, 4: 0.24, 5: 0.15, 6: 0.27}


def wait_of(players: int) -> float:
    """The :data:`WAITS` chance at a table of ``players`` (the nearest size fitted)."""
    return WAITS[min(max(players, min(WAITS)), max(WAITS))]


#: The kinds of events that answer one question: the log's clock.
QUESTIONS = ("has", "lacks", "count")
#: The traits a paper player asks a count of.
TRAITS = sorted(GROUP_OF)
#: The chance that an opponent's question is any question at all, not a paper player's
#: (``benchmarks/README.md``).
ANY = 0.05
#: Log-likelihoods this close are equal, but for the order of a sum: a move between them is
#: kept without a draw, so the compiled and the numpy sums walk the same histories.
ROUNDING = 1e-9
#: The most cards a deck may have for the law: a sheet is one 64-bit word.
MOST_CARDS = 64
#: The most opponents the compiled sum keeps sheets for (``_silence.c``'s ``MAXO``).
MOST_OPPONENTS = 8


def compiled() -> bool:
    """Whether the compiled sum (``_silence.c``) was built with this installation."""
    return _silence is not None


def weighable(position: AbbeyPosition) -> bool:
    """Whether the law can weigh the histories of ``position``.

    A deck of :data:`MOST_CARDS` cards or fewer; with more, the histories
    keep the uniform law.
    """
    return len(position.setup.deck) <= MOST_CARDS


def askers(events: list[Event]) -> dict[int, str]:
    """Who asked the questions the log can tell, by the index of their answer in ``events``.

    A question met on a move is answered, then the one asked asks the asker
    back, who answers: two answers in a row, by two players. In a run of
    answers with nothing else logged between them, of an even length, in
    which every pair is by two players, the first of each pair was asked by
    the player who answers the second. The second (the question back) and
    every other run tell nothing.
    """
    found: dict[int, str] = {}
    run: list[int] = []
    for i, event in enumerate([*events, None]):
        if event is not None and event.type in QUESTIONS:
            run.append(i)
            continue
        pairs = [(run[k], run[k + 1]) for k in range(0, len(run) - 1, 2)]
        if len(run) % 2 == 0 and all(
            events[a].fields["player"] != events[b].fields["player"] for a, b in pairs
        ):
            found.update((a, events[b].fields["player"]) for a, b in pairs)
        run = []
    return found


class Silence:
    """The silence law of one position (module glossary), history by history."""

    def __init__(self, position: AbbeyPosition, anything: float = ANY) -> None:
        """The law of ``position``.

        ``anything``: the chance that an opponent's question is any question at
        all (:data:`ANY`; 1: the questions weigh nothing).
        """
        setup, timeline = position.setup, position.timeline
        self.anything = anything
        #: The chance that a sure opponent accuses before the next question.
        self.wait = wait_of(len(setup.players))
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
        #: Each trait's cards, as a mask.
        self.traits = np.array(
            [
                sum(int(self.bits[i]) for i, c in enumerate(setup.deck.cards) if t in c.traits)
                for t in TRAITS
            ],
            dtype=np.uint64,
        )
        asked = askers(list(position.events))
        known: list[tuple[int, int, int, int]] = []
        for i, event in enumerate(position.events):
            kind, fields = event.type, event.fields
            if kind in QUESTIONS:
                if asked.get(i) in opponents:
                    known.append((len(rows), opponents.index(asked[i]), *_question(event, index)))
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
        #: The opponents' questions the log tells: the question's index, the asker's (among
        #: the opponents), and the card asked about or the trait counted (the other: -1).
        self.asked_q, self.asked_by, self.asked_card, self.asked_trait = (
            np.ascontiguousarray(a) for a in np.array(known, dtype=np.int64).reshape(-1, 4).T
        )
        self.compiled = compiled() and len(opponents) <= MOST_OPPONENTS
        #: The log of the chance that a sure opponent waits one more question.
        self.log_stay = math.log(1 - self.wait)
        #: The compiled sum's arrays after the history's, the same for every history.
        self._fixed = (
            self.players,
            self.epoch,
            self.crossed,
            self.shown,
            self.silent,
            self.asked_q,
            self.asked_by,
            self.asked_card,
            self.asked_trait,
            self.traits,
        )
        self._sizes = (len(self.players), len(self.epoch), len(self.asked_q), len(self.traits))

    def arrays(self, history: np.ndarray) -> tuple[np.ndarray, ...]:
        """The compiled sum's arrays for ``history`` (``_silence.c`` says their layout)."""
        shape = np.array([*history.shape, *self._sizes], dtype=np.int32)
        return (shape, np.ascontiguousarray(history, dtype=np.int8), *self._fixed)

    def sheets(self, history: np.ndarray) -> np.ndarray:
        """Every opponent's sheet at every question of ``history`` (question, opponent): masks."""
        held = np.where(history[None] == self.players[:, None, None], self.bits[None, :, None], 0)
        seen = np.bitwise_or.accumulate(held.sum(axis=1, dtype=np.uint64), axis=1)
        return self.full & ~(seen[:, self.epoch].T | self.shown | self.crossed[:, None])

    def waiting(self, history: np.ndarray) -> int:
        """The waiting questions of ``history``, summed over the opponents (module glossary)."""
        return self._waiting(self.sheets(history)) if len(self.epoch) else 0

    def _waiting(self, sheets: np.ndarray) -> int:
        return int(((np.bitwise_count(sheets) == 1) & self.silent).sum())

    def log_likelihood(self, history: np.ndarray, compiled: bool = True) -> float:
        """The log of the chance of the others' silence and questions in ``history``.

        Summed by the compiled kernel where it was built (``compiled``: where
        it may be used), else by numpy; both give the same sum.
        """
        if not len(self.epoch):
            return 0.0
        if compiled and self.compiled:
            assert _silence is not None
            return _silence.log_likelihood(self.arrays(history), self.log_stay, self.anything)
        sheets = self.sheets(history)
        value = self._waiting(sheets) * self.log_stay
        if len(self.asked_q):
            value += float(np.log(self.asking_chances(sheets)).sum())
        return value

    def asking_chances(self, sheets: np.ndarray) -> np.ndarray:
        """The chance of each opponent's question whose asker the log tells (module glossary).

        ``sheets``: a history's :meth:`sheets`.
        """
        mask = sheets[self.asked_q, self.asked_by]
        size = np.bitwise_count(mask).astype(np.int64)
        many = size > 1
        card = np.maximum(self.asked_card, 0).astype(np.uint64)
        inside = ((mask >> card) & np.uint64(1)).astype(bool)
        has = np.where(many & inside, 0.5 / np.maximum(size, 1), 0.0)
        with_trait = np.bitwise_count(mask[:, None] & self.traits[None, :]).astype(np.int64)
        off = np.abs(2 * with_trait - size[:, None])
        tied = off == off.min(axis=1, keepdims=True)
        trait = np.maximum(self.asked_trait, 0)
        picked = tied[np.arange(len(trait)), trait] / tied.sum(axis=1)
        count = np.where(many, 0.5, 1.0) * picked
        count = np.where(self.asked_trait >= 0, count, 0.0)
        notepad = np.where(self.asked_card >= 0, has, count)
        anything = np.where(self.asked_card >= 0, 0.5 / len(self.bits), 0.5 / len(TRAITS))
        return (1 - self.anything) * notepad + self.anything * anything


def _question(event: Event, index: dict[str, int]) -> tuple[int, int]:
    """A question's card index and trait index (the other -1; both for a count of two traits)."""
    if event.type != "count":
        return index[event.fields["card"]], -1
    traits = event.fields["traits"]
    return -1, TRAITS.index(traits[0]) if len(traits) == 1 else -1


class Movable(Walking, Protocol):
    """A walk whose moves can be undone (:class:`~deduce.games.abbey.solver.gibbs.Walk`)."""

    def save(self) -> Any:
        """What :meth:`restore` needs to come back to the current history."""

    def restore(self, saved: Any) -> None:
        """Come back to the history of a :meth:`save`."""


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
            if gain >= -ROUNDING or self.rng.random() < math.exp(gain):
                self.current, self.log_likelihood = history, value
            else:
                self.walk.restore(saved)
