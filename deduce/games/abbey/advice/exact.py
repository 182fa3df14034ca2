"""The exact value of each question and room: mutual information from conditioned counts.

The value of an option is the mutual information between its answer and the
culprit (see :mod:`advisor`). Here the joint law of (culprit, answer) is
computed exactly, from counts of complete histories (:mod:`count`), every
history being equally likely:

- one count per culprit candidate ``c``, with the hypothetical fact "the
  culprit is ``c``", gives how many histories put every card with every
  holder *and* ``c`` in the culprit slot. That joint table answers at once
  every "do you have X" (X with the player or not), every theft in a
  confessional or cell (one uniformly random card of the victim: each card
  it holds with chance 1 / hand size) and the parlor's draw (the top card
  of the pile: each of its cards with chance 1 / pile size);
- a count question ("how many cards with trait T do you hold") is a
  function of the whole hand, so each possible answer ``k`` is counted
  with the hypothetical fact ``count P T k``; the answers' counts must add
  up to the total, which is checked.

The parlor's "show me" (one random card among those matching, once the
pile is empty) needs the joint law of the matching cards' number and each
card together with the culprit: too many counts, so it is left to the
estimate of :mod:`advisor`. A count that cannot finish by the deadline
makes the whole computation give up (None), so callers can fall back to
that estimate.

Once the culprit is certain, no answer can tell anything about it: every
value is exactly 0 bits, whatever the law of the other cards. One history
of the log then stands in for the counts (``witness``), so that the
options come at once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from deduce.errors import DeduceError, InconsistentLog
from deduce.games.abbey.advice.advisor import Advice, Option
from deduce.games.abbey.solver.count.histories import Counts, count_histories
from deduce.games.abbey.solver.model import History, build_model
from deduce.games.abbey.solver.timeline import CULPRIT, PILE, AbbeyPosition
from deduce.logs.formats.abbey import TRAITS
from deduce.logs.model import Event

Joint = Mapping[tuple[int, object], float]  # (culprit index, answer) -> probability


@dataclass(frozen=True)
class _Counter:
    """A position, ready for counting with extra facts until a deadline."""

    position: AbbeyPosition
    deadline: float | None

    def count(self, *facts: tuple[str, dict[str, object]]) -> Counts:
        """Histories of the position plus ``facts`` (type, fields); ``_OutOfTime`` when late.

        The facts get lines of their own after the log's, so they need a
        timeline of their own.
        """
        events = self.position.events
        line = (events[-1].line if events else 1) + 1
        extra = tuple(Event(kind, fields, line + i) for i, (kind, fields) in enumerate(facts))
        position = self.position.with_events(events + extra) if facts else self.position
        counts = count_histories(build_model(position), deadline=self.deadline)
        if counts is None:
            raise _OutOfTime
        return counts


class _OutOfTime(Exception):
    """A count did not finish by the deadline."""


def exact_advice(
    position: AbbeyPosition,
    deadline: float | None = None,
    witness: History | None = None,
) -> Advice | None:
    """Every count, "do you have", theft and draw option of a position, exactly valued, best first.

    None when a count does not finish by ``deadline`` (a
    :func:`time.perf_counter` reading). The position must be consistent.
    ``witness``: one history of a position whose culprit is certain (the
    module docstring).
    """
    counter = _Counter(position, deadline)
    try:
        base = (
            counter.count()
            if witness is None
            else Counts(1, tuple({route[-1]: 1} for route in witness))
        )
        if not base.total:
            raise InconsistentLog(f"{position.path}: the log is inconsistent: no advice")
        ids = position.setup.deck.ids
        culprits = {c: n for c, row in enumerate(base.holders) if (n := row.get(CULPRIT, 0))}
        by_culprit = {
            c: counter.count(("culprit", {"card": ids[c]})).holders
            if len(culprits) > 1
            else base.holders
            for c in culprits
        }
        return _Options(counter, base, culprits, by_culprit).advice()
    except _OutOfTime:
        return None


class _Options:
    """The options of one position, valued from its exact counts."""

    def __init__(
        self,
        counter: _Counter,
        base: Counts,
        culprits: dict[int, int],
        by_culprit: dict[int, tuple[dict[int, int], ...]],
    ) -> None:
        position = counter.position
        self.counter = counter
        self.setup = position.setup
        self.total = base.total
        self.base = base
        self.culprits = culprits
        self.by_culprit = by_culprit
        self.holders = position.timeline.holders
        self.sizes = position.timeline.sizes[-1]

    def advice(self) -> Advice:
        """Culprit and trait probabilities and every option, most informative first."""
        ids = self.setup.deck.ids
        culprit = {
            ids[c]: n / self.total
            for c, n in sorted(self.culprits.items(), key=lambda item: (-item[1], item[0]))
        }
        traits = {
            t: math.fsum(p for c, p in culprit.items() if self.setup.deck.card(c).has_traits((t,)))
            for t in TRAITS
        }
        options: list[Option] = []
        others = [h for h, name in enumerate(self.holders) if h > PILE and name != self.setup.me]
        for h in others:
            options += self._questions(h)
            if self.sizes[h]:
                options.append(self._option("take", h, (), self._random_card(h)))
        if self.sizes[PILE]:
            options.append(self._option("draw", PILE, (), self._random_card(PILE)))
        options.sort(key=lambda o: -o.gain)
        entropy = math.fsum(-p * math.log2(p) for p in culprit.values())
        return Advice(culprit, entropy, tuple(options), traits)

    def _option(self, kind: str, holder: int, detail: tuple[str, ...], joint: Joint) -> Option:
        return Option(kind, self.holders[holder], detail, information(joint), exact=True)

    def _questions(self, h: int) -> list[Option]:
        """The count questions (one trait) and "do you have" questions to the player at ``h``."""
        ids = self.setup.deck.ids
        found = [self._option("count", h, (t,), self._count_answer(h, t)) for t in TRAITS]
        for x, card in enumerate(ids):
            yes: Joint = {
                (c, True): row[x].get(h, 0) / self.total for c, row in self.by_culprit.items()
            }
            no: Joint = {
                (c, False): n / self.total - yes[c, True] for c, n in self.culprits.items()
            }
            found.append(self._option("has", h, (card,), {**yes, **no}))
        return found

    def _random_card(self, h: int) -> dict[tuple[int, object], float]:
        """The joint law of the culprit and one uniformly random card of holder ``h``."""
        share = self.total * self.sizes[h]
        return {
            (c, x): row[x].get(h, 0) / share
            for c, row in self.by_culprit.items()
            for x in range(len(row))
        }

    def _count_answer(self, h: int, trait: str) -> dict[tuple[int, object], float]:
        """The joint law of the culprit and the number of ``trait`` cards at ``h``.

        Answers that only one value can take need no count: the cards the
        player surely holds and those they may hold bound the answer.
        """
        deck = self.setup.deck
        cards = [x for x, cid in enumerate(deck.ids) if deck.card(cid).has_traits((trait,))]
        sure = sum(self.base.holders[x].get(h, 0) == self.total for x in cards)
        maybe = sum(self.base.holders[x].get(h, 0) > 0 for x in cards)
        answers = range(sure, min(maybe, self.sizes[h]) + 1)
        if len(answers) == 1:
            return {(c, sure): n / self.total for c, n in self.culprits.items()}
        joint: dict[tuple[int, object], float] = {}
        seen = 0
        for k in answers:
            counts = self.counter.count(
                ("count", {"player": self.holders[h], "traits": (trait,), "n": k})
            )
            seen += counts.total
            for c in self.culprits:
                joint[c, k] = counts.holders[c].get(CULPRIT, 0) / self.total
        if seen != self.total:
            raise DeduceError(
                f"internal error: count answers cover {seen} histories of {self.total}"
            )
        return joint


def information(joint: Joint) -> float:
    """Mutual information (bits) of a joint probability table over (culprit, answer)."""
    left: dict[int, float] = {}
    right: dict[object, float] = {}
    for (c, a), p in joint.items():
        left[c] = left.get(c, 0.0) + p
        right[a] = right.get(a, 0.0) + p
    return max(
        0.0,
        math.fsum(p * math.log2(p / (left[c] * right[a])) for (c, a), p in joint.items() if p > 0),
    )
