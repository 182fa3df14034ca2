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

The accusation rule follows the rulebook's points: a right accusation is
worth +4, a wrong one -2, so accusing a suspect of probability p is worth
6p - 2 on average. The advisor recommends it when that is at least
``ACCUSE_POINTS`` (two points, so p >= 2/3: a wrong accusation also costs a
turn in penance, and the estimate is a sample) or when the culprit is
certain, and a revelation (+2 / -1) when a trait is at least ``REVEAL_AT``
likely. The draws come from short chains, which late in a game with many
players may not have mixed and then overstate their favourite.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from deduce.games.abbey.solver.model import build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sample import sample_histories
from deduce.games.abbey.solver.sat.cnf import sat_model
from deduce.games.abbey.solver.timeline import CULPRIT, PILE, build_timeline
from deduce.logs.model import GameLog
from deduce.logs.vocabulary.abbey import TRAITS, AbbeySetup, Deck, setup_from_header, show_requests

#: Expected points at which an accusation is recommended (6p - 2 >= 2 means p >= 2/3).
ACCUSE_POINTS = 2.0
#: Probability at which revealing a trait of the culprit is recommended.
REVEAL_AT = 0.9
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
        return next((o for o in self.options if o.kind == kind
                     and (targets is None or o.target in targets)), None)

    def gain(self, kind: str, target: str) -> float:
        """The best gain of ``kind`` towards ``target`` (0 when there is no such option)."""
        found = self.best(kind, [target])
        return found.gain if found else 0.0

    @property
    def suspect(self) -> tuple[str, float]:
        """The most likely culprit and its probability."""
        card = max(self.culprit, key=lambda c: self.culprit[c])
        return card, self.culprit[card]

    def accuse(self) -> str | None:
        """The suspect to accuse now, if the expected points favour it (module docstring)."""
        card, p = self.suspect
        return card if 6 * p - 2 >= ACCUSE_POINTS else None

    def reveal(self, made: Sequence[str]) -> str | None:
        """A trait worth revealing now (likely enough, not revealed before), if any."""
        likely = [t for t, p in self.traits.items() if p >= REVEAL_AT and t not in made]
        return max(likely, key=lambda t: self.traits[t]) if likely else None


@dataclass(frozen=True)
class Analysis:
    """The exact culprit candidates and the advice (None when no history fits)."""

    candidates: list[str]
    advice: Advice | None


def analyse(log: GameLog, draws: int = 200, seed: int = 0, show_me: bool = True,
            thin: int = 20, deck: Deck | None = None) -> Analysis:
    """Candidates and ranked options for the log's observer.

    The candidates come from the SAT closure; the draws from chains started
    at SAT witnesses, ``thin`` chain moves apart. ``show_me`` adds the
    parlor's requests (one or two traits), only useful once the pile is
    empty. ``deck`` replaces the header's deck.
    """
    setup = setup_from_header(log.header, log.path, deck)
    timeline = build_timeline(setup, log.events, log.path)
    sat = sat_model(setup, timeline, log.events)
    possible = sat.closure()
    if possible is None:
        return Analysis([], None)
    found = [c for c, row in zip(setup.deck.ids, possible) if CULPRIT in row]
    model = build_model(setup, timeline, log.events)
    propagate(model)
    rng = Random(seed)
    starts = [sat.witness(rng=rng) for _ in range(CHAINS)]
    sample = sample_histories(model, [s for s in starts if s is not None], draws, seed=seed,
                              thin=thin, burn=4 * thin)
    ranker = _Ranker(setup, sample, timeline.holders, seed)
    return Analysis(found, ranker.advice(show_me, timeline.sizes[-1][PILE]))


class _Ranker:
    """Mutual information between the culprit and each option's answer, over the draws."""

    def __init__(self, setup: AbbeySetup, draws: Sequence[Draw], holders: Sequence[str],
                 seed: int) -> None:
        self.setup = setup
        self.rng = Random(seed)
        self.holders = holders
        self.draws = draws
        ids = setup.deck.ids
        self.cards = len(ids)
        self.culprits = [d.index(CULPRIT) for d in draws]
        self.hands = [self._masks(d) for d in draws]
        self.with_traits: dict[tuple[str, ...], int] = {}
        for traits in show_requests():
            self.with_traits[traits] = sum(1 << i for i, c in enumerate(ids)
                                           if setup.deck.card(c).has_traits(traits))

    def _masks(self, draw: Draw) -> list[int]:
        masks = [0] * len(self.holders)
        for card, holder in enumerate(draw):
            masks[holder] |= 1 << card
        return masks

    def advice(self, show_me: bool, pile: int) -> Advice:
        """Every option ranked, with the culprit and trait probabilities."""
        ids = self.setup.deck.ids
        n = len(self.draws)
        counts = Counter(self.culprits)
        culprit = {ids[c]: k / n for c, k in counts.most_common()}
        traits = {t: sum(p for c, p in culprit.items() if self.setup.deck.card(c).has_traits((t,)))
                  for t in TRAITS}
        me = self.setup.me
        others = [h for h, name in enumerate(self.holders) if h > PILE and name != me]
        options = []
        for h in others:
            name = self.holders[h]
            for t in TRAITS:
                options.append(Option("count", name, (t,), self._fixed(
                    _count_answer(h, self.with_traits[(t,)]))))
            for i, card in enumerate(ids):
                options.append(Option("has", name, (card,), self._fixed(_has_answer(h, 1 << i))))
            options.append(Option("take", name, (), self._random_card(h, -1)))
            if show_me:
                for traits_asked, mask in self.with_traits.items():
                    options.append(Option("show_me", name, traits_asked,
                                          self._random_card(h, mask)))
        if pile:
            options.append(Option("draw", "pile", (), self._random_card(PILE, -1)))
        options.sort(key=lambda o: -o.gain)
        entropy = -sum(p * math.log2(p) for p in culprit.values())
        return Advice(culprit, entropy, tuple(options), traits)

    def _fixed(self, answer: Callable[[list[int]], object]) -> float:
        """Mutual information with an answer that each draw determines."""
        joint: dict[tuple[int, object], float] = defaultdict(float)
        for c, masks in zip(self.culprits, self.hands):
            joint[c, answer(masks)] += 1
        return _information(joint, len(self.draws))

    def _random_card(self, holder: int, mask: int) -> float:
        """Mutual information with one uniformly random card of ``holder`` among ``mask``.

        Each draw shows one card at random, so that every cell of the joint
        table holds whole draws, as the entropy correction assumes.
        """
        joint: dict[tuple[int, object], float] = defaultdict(float)
        for c, masks in zip(self.culprits, self.hands):
            matching = masks[holder] & mask
            k = matching.bit_count()
            for _ in range(self.rng.randrange(k) if k else 0):
                matching &= matching - 1
            joint[c, matching & -matching if k else None] += 1
        return _information(joint, len(self.draws))


def _count_answer(holder: int, mask: int) -> Callable[[list[int]], int]:
    """The answer to a count question: how many cards of ``mask`` ``holder`` holds."""
    return lambda masks: (masks[holder] & mask).bit_count()


def _has_answer(holder: int, bit: int) -> Callable[[list[int]], bool]:
    """The answer to a "do you have" question: whether ``holder`` holds the card ``bit``."""
    return lambda masks: bool(masks[holder] & bit)


def _information(joint: dict[tuple[int, object], float], n: int) -> float:
    """Mutual information (bits) of a joint table of weights summing to ``n``.

    The plug-in value overstates the information of answers with many
    values on few draws; the Miller-Madow correction of each entropy takes
    most of that bias away.
    """
    left: dict[int, float] = defaultdict(float)
    right: dict[object, float] = defaultdict(float)
    for (c, a), w in joint.items():
        left[c] += w
        right[a] += w
    plugin = sum(w / n * math.log2(w * n / (left[c] * right[a])) for (c, a), w in joint.items())
    bias = (len(left) + len(right) - len(joint) - 1) / (2 * n * math.log(2))
    return max(0.0, plugin + bias)
