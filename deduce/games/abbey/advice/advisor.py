"""What to ask and where to go: expected information about the culprit, and when to accuse.

Every way of learning something in the Abbey is an *option* with a random
answer: a count question (how many cards with a trait a player holds), a
"do you have" question, the parlor's "show me" (one random matching card,
or none), a theft in a confessional or cell (one random card of the victim)
and a parlor draw (the top card of the pile). The value of an option is the
mutual information between its answer and the culprit, in bits: how much,
on average, the answer shrinks the uncertainty about the culprit.

Both are computed over draws of the current holders of every card, taken
uniformly from the histories that agree with the log (the Markov chains of
:mod:`sample`, started from witnesses of the SAT model :mod:`sat`). With a few
hundred draws the values rank options reliably; they are estimates (with
the Miller-Madow correction for the bias of entropies of a finite sample).

The accusation is not the advisor's: it comes from the solve and the race
(:func:`~deduce.games.abbey.advice.race.worth_accusing`). The draws come
from short chains, which late in a game with many players may not have
mixed and then overstate their favourite.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

import numpy as np

from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sample import sample_histories
from deduce.games.abbey.solver.sat.cnf import SatModel
from deduce.games.abbey.solver.timeline import CULPRIT, PILE, AbbeyPosition
from deduce.logs.formats.abbey import TRAITS, AbbeySetup, show_requests

#: Markov chains behind the draws.
CHAINS = 2

Draw = tuple[int, ...]  # every card's current holder index


@dataclass(frozen=True)
class Option:
    """One way to learn something, and how much it tells about the culprit (bits)."""

    kind: str  # count | has | show_me | take | draw
    target: str  # a player, or "pile" for a draw
    detail: tuple[str, ...]  # the traits asked for, or the card asked about
    gain: float
    exact: bool = False  # from exact counts (advice/exact.py), not estimated


@dataclass(frozen=True)
class Advice:
    """Culprit probabilities from the draws and every option, most informative first."""

    culprit: dict[str, float]
    entropy: float
    options: tuple[Option, ...]
    traits: dict[str, float]

    def best(self, kind: str, targets: Sequence[str] | None = None) -> Option | None:
        """The most informative option of ``kind`` (towards one of ``targets``), if any."""
        return next(
            (
                o
                for o in self.options
                if o.kind == kind and (targets is None or o.target in targets)
            ),
            None,
        )

    def gain(self, kind: str, target: str) -> float:
        """The best gain of ``kind`` towards ``target`` (0 when there is no such option)."""
        found = self.best(kind, [target])
        return found.gain if found else 0.0


def estimated_advice(
    position: AbbeyPosition,
    sat: SatModel,
    draws: int,
    seed: int,
    show_me: bool,
    thin: int = 20,
    deadline: tuple[float, int] | None = None,
) -> Advice | None:
    """The options ranked by their estimated values over drawn histories (None: no history).

    The draws come from chains started at witnesses of ``sat`` (the
    position's SAT model). ``deadline``: a time past which the draws stop once there
    are at least so many
    (:func:`~deduce.games.abbey.solver.sample.sample_histories`).
    """
    rng = Random(seed)
    starts = [s for s in (sat.witness(rng=rng) for _ in range(CHAINS)) if s is not None]
    if not starts:
        return None
    model = build_model(position)
    propagate(model)
    sample = sample_histories(
        model, starts, draws, seed=seed, thin=thin, burn=4 * thin, deadline=deadline
    )
    timeline = position.timeline
    ranker = Ranker(position.setup, sample, timeline.holders, seed)
    return ranker.advice(show_me, timeline.sizes[-1][PILE])


class Ranker:
    """Mutual information between the culprit and each option's answer, over the draws.

    ``holders`` names the holder indices of the draws (:attr:`Timeline.holders`).
    The draws are held as one array (a row per draw, a column per card), so
    that each value is a few vectorised operations.

    With ``weights``, the draws are every possible current state, each with
    its probability (or any weights proportional to it): the values are then
    exact (:attr:`exact`), the plain mutual information of the joint laws,
    and a random card spreads over every matching card. Without, the draws
    are a sample of equally likely states, and each value an estimate.
    """

    def __init__(
        self,
        setup: AbbeySetup,
        draws: Sequence[Draw],
        holders: Sequence[str],
        seed: int,
        weights: Sequence[float] | None = None,
    ) -> None:
        self.setup = setup
        self.rng = np.random.default_rng(seed)
        self.holders = holders
        self.draws = draws
        self.exact = weights is not None
        self.weights = np.ones(len(draws)) if weights is None else np.array(weights, float)
        self.cards = len(setup.deck.ids)
        self.table = np.array(draws, dtype=np.int16).reshape(len(draws), self.cards)
        self.culprits = [d.index(CULPRIT) for d in draws]
        self._culprits = np.array(self.culprits, dtype=np.int64)
        self._held: dict[int, np.ndarray] = {}
        self.with_traits: dict[tuple[str, ...], np.ndarray] = {}

    def advice(self, show_me: bool, pile: int) -> Advice:
        """Every option ranked, with the culprit and trait probabilities."""
        ids = self.setup.deck.ids
        culprit = self.culprit()
        traits = self.traits()
        me = self.setup.me
        others = [h for h, name in enumerate(self.holders) if h > PILE and name != me]
        options = []
        for h in others:
            name = self.holders[h]
            for t in TRAITS:
                options.append(Option("count", name, (t,), self.question(h, ("count", (t,)))))
            for card in ids:
                options.append(Option("has", name, (card,), self.question(h, ("has", card))))
            options.append(Option("take", name, (), self.random_card(h)))
            if show_me:
                for traits_asked in show_requests():
                    options.append(
                        Option("show_me", name, traits_asked, self.random_card(h, traits_asked))
                    )
        if pile:
            options.append(Option("draw", "pile", (), self.random_card(PILE)))
        options.sort(key=lambda o: -o.gain)
        entropy = -sum(p * math.log2(p) for p in culprit.values())
        return Advice(culprit, entropy, tuple(options), traits)

    def culprit(self) -> dict[str, float]:
        """Each drawn culprit's share of the draws (of the weights), most likely first."""
        shares = np.bincount(self._culprits, weights=self.weights, minlength=self.cards)
        shares = shares / shares.sum()
        ids = self.setup.deck.ids
        return {
            ids[c]: float(shares[c])
            for c in sorted(np.nonzero(shares)[0], key=lambda c: (-shares[c], c))
        }

    def traits(self) -> dict[str, float]:
        """Each trait's chance of being the culprit's, by the draws."""
        culprit = self.culprit()
        deck = self.setup.deck
        return {
            t: math.fsum(p for c, p in culprit.items() if deck.card(c).has_traits((t,)))
            for t in TRAITS
        }

    def question(self, holder: int, question: tuple[str, object]) -> float:
        """Bits about the culprit in ``holder``'s answer to a question.

        ``question`` is ``("count", traits)`` or ``("has", card)``.
        """
        held = self._held_by(holder)
        if question[0] == "count":
            traits = question[1]
            assert isinstance(traits, tuple)
            return self._fixed((held & self._trait_mask(traits)).sum(axis=1))
        return self._fixed(held[:, self.setup.deck.ids.index(str(question[1]))])

    def random_card(self, holder: int, traits: tuple[str, ...] | None = None) -> float:
        """Bits about the culprit in one uniformly random card of ``holder`` having ``traits``.

        Each draw shows one card at random, so that every cell of the joint
        table holds whole draws, as the entropy correction assumes; a draw
        with no such card shows none.
        """
        matching = self._held_by(holder)
        if traits is not None:
            matching = matching & self._trait_mask(traits)
        k = matching.sum(axis=1)
        if self.exact:
            grid = np.zeros((self.cards, self.cards + 1))
            share = self.weights / np.maximum(k, 1)
            rows, cards = np.nonzero(matching)
            np.add.at(grid, (self._culprits[rows], cards + 1), share[rows])
            none = k == 0
            np.add.at(grid, (self._culprits[none], 0), self.weights[none])
            return self._information(grid)
        pick = np.floor(self.rng.random(len(k)) * k)
        shown = np.argmax(np.cumsum(matching, axis=1) > pick[:, None], axis=1)
        return self._fixed(np.where(k > 0, shown, -1))

    def _held_by(self, holder: int) -> np.ndarray:
        """Whether each card is with ``holder``, draw by draw (kept once made)."""
        held = self._held.get(holder)
        if held is None:
            held = self._held[holder] = self.table == holder
        return held

    def _trait_mask(self, traits: tuple[str, ...]) -> np.ndarray:
        """Whether each card of the deck has every one of ``traits`` (kept once made)."""
        mask = self.with_traits.get(traits)
        if mask is None:
            deck = self.setup.deck
            mask = self.with_traits[traits] = np.array(
                [deck.card(c).has_traits(traits) for c in deck.ids]
            )
        return mask

    def _fixed(self, answers: np.ndarray) -> float:
        """Mutual information with an answer that each draw determines (one per draw, >= -1)."""
        grid = np.zeros((self.cards, int(answers.max()) + 2))
        np.add.at(grid, (self._culprits, answers.astype(np.int64) + 1), self.weights)
        return self._information(grid)

    def _information(self, grid: np.ndarray) -> float:
        """Mutual information of a joint table of weights (culprit by answer)."""
        culprits, answers = np.nonzero(grid)
        joint: dict[tuple[int, object], float] = {
            (int(c), int(a)): float(grid[c, a]) for c, a in zip(culprits, answers)
        }
        total = float(grid.sum()) if self.exact else len(self.draws)
        return _information(joint, total, corrected=not self.exact)


def _information(joint: dict[tuple[int, object], float], n: float, corrected: bool = True) -> float:
    """Mutual information (bits) of a joint table of weights summing to ``n``.

    The plug-in value overstates the information of answers with many
    values on few draws; the Miller-Madow correction of each entropy takes
    most of that bias away (``corrected``, for ``n`` draws; not for exact laws).
    """
    left: dict[int, float] = defaultdict(float)
    right: dict[object, float] = defaultdict(float)
    for (c, a), w in joint.items():
        left[c] += w
        right[a] += w
    plugin = sum(w / n * math.log2(w * n / (left[c] * right[a])) for (c, a), w in joint.items())
    bias = (len(left) + len(right) - len(joint) - 1) / (2 * n * math.log(2)) if corrected else 0
    return max(0.0, plugin + bias)
