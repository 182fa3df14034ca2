"""Advice for a Black Rose investigator (where to investigate, whether to accuse) and the Possessed.

Investigating
-------------
An investigation draws the top card of a living suspect's pile or of the
Graveyard. The advice assumes the clue cards the observer has not seen
(``unseen`` of them, supplied by the caller: the engine knows how many) are
exchangeable: the top card of any pile is, as far as the observer knows, a
uniformly random one of them. Given the pair, the unseen Proofs are those of
the innocents not yet proved, so the card drawn is the Proof of a given
such suspect with chance ``1 / unseen`` each, and a non-Proof card with the
rest. The value of a draw is the expected information it brings about the
pair, the mutual information (in bits)

    I(pair; card) = Σ_pair Σ_card P(pair) P(card | pair) log2(P(card | pair) / P(card)),

with ``P(pair)`` the solver's posterior (claims included). Under
exchangeability every pile is worth the same, so the advice ranks them
equal: the options are every living suspect's pile and the Graveyard, less
those the caller knows to be empty (where piles differ: an empty pile is
not an option).

Accusing
--------
A wrong accusation costs nothing in the rules (the game goes on) but rules
that pair out, while a right one wins. So whenever an accusation is allowed
(not in the first round; with the agreement the player count requires),
accusing the most probable pair is never worse than not accusing: the advice
is always that pair, with its probability ``p``. The answer's expected
information about the pair is ``h(p) = p·log2(1/p) + (1-p)·log2(1/(1-p))``;
a wrong answer alone brings ``log2(1/(1-p))`` bits (the divergence of the
posterior without the pair from the one before).

The Possessed
-------------
The Possessed wins when both accomplices are dead, and loses when the
investigators accuse them first. Its advice weighs each thing it may say by
how the investigators would read it (:mod:`deduce.games.blackrose.views`):

- **Claims**: each claim it has not made yet, and saying nothing. For each,
  its *exposure* (the mean over the investigators of the chance that their
  view makes the Possessed their most probable Possessed) and the chance
  that an investigator's most probable pair, the one they vote for, is the
  true one (their mean; ``right``). The advice keeps the exposure low:
  among the claims that leave it at most :data:`EXPOSED` (or at most what
  it is now, saying nothing, when it is already higher), the one that
  misleads most, the lowest ``right``; ties go to the least exposing, then
  to saying nothing, then to the order of the suspects, innocent first. A
  Possessed whom the investigators suspect most reads as a liar, so its
  next lies mislead nobody.
- **Votes**: secret (the log keeps only an accusation), so a vote exposes
  nothing. The advice is to vote for no pair: a pair the Possessed does not
  know to be wrong may be right, and an accusation of one it knows to be
  wrong only tells the investigators what it knows.
- **The Night's kill**: the living suspect most likely an accomplice by its
  own log, without its own claims (what it said itself says nothing of the
  pair to itself).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from deduce.errors import DeduceError
from deduce.games.blackrose.claims import ClaimsModel
from deduce.games.blackrose.csp import Pair
from deduce.games.blackrose.solve import solve_blackrose
from deduce.games.blackrose.views import PossessedSeat, Said
from deduce.logs.formats.blackrose import suspects_of
from deduce.logs.model import GameLog


@dataclass(frozen=True)
class Advice:
    """What to do next.

    ``piles``: where to investigate, all worth ``draw_bits`` (living suspects
    in header order, then None for the Graveyard). ``accuse``: the pair to
    accuse, right with chance ``probability``; ``answer_bits``: the expected
    information of the Rector's answer; ``wrong_bits``: the information of a
    wrong answer (None when the pair is certain).
    """

    piles: tuple[str | None, ...]
    draw_bits: float
    accuse: Pair
    probability: Fraction
    answer_bits: float
    wrong_bits: float | None


def draw_information(
    pairs: Mapping[Pair, Fraction], unproved: Collection[str], unseen: int
) -> float:
    """``I(pair; card)`` in bits for one card drawn among ``unseen`` exchangeable ones.

    ``pairs``: the posterior; ``unproved``: the suspects whose Proof has not
    been seen. A pair leaving more unseen Proofs than ``unseen`` cards is an
    error; with no card left, a draw is worth 0.
    """
    innocents = {pair: [s for s in unproved if s not in pair] for pair in pairs}
    most = max(len(left) for left in innocents.values())
    if most > unseen:
        raise DeduceError(f"{unseen} unseen clue cards cannot hold the {most} Proofs not yet seen")
    if not unseen:
        return 0.0
    # P(card | pair) for each card (a suspect's Proof, None: any other card), pair by pair
    chances: dict[str | None, list[float]] = {
        card: [float(card in innocents[pair]) / unseen for pair in pairs] for card in unproved
    }
    chances[None] = [1 - len(innocents[pair]) / unseen for pair in pairs]
    weights = [float(p) for p in pairs.values()]
    bits = 0.0
    for given in chances.values():
        card = math.fsum(w * c for w, c in zip(weights, given))
        bits += math.fsum(w * c * math.log2(c / card) for w, c in zip(weights, given) if c)
    return bits


def binary_entropy(p: float) -> float:
    """``h(p)`` in bits (0 at 0 and 1)."""
    return math.fsum(-q * math.log2(q) for q in (p, 1 - p) if q)


def advise(
    log: GameLog,
    unseen: int,
    model: ClaimsModel | None = None,
    empty: Collection[str | None] = (),
    hard: bool = False,
) -> Advice:
    """Advice for the observer of ``log``.

    ``unseen``: how many clue cards the observer has not seen; ``empty``: piles
    known to be empty (suspect ids, None for the Graveyard); ``model``: the
    claims model (default: the bundled one); ``hard``: ignore the claims. An
    inconsistent log is an error.
    """
    solution = solve_blackrose(log, hard=hard, model=model, styles=False)
    if not solution.consistent:
        raise DeduceError(
            f"{log.path}: the log is inconsistent (lines "
            f"{', '.join(map(str, solution.conflict))}): no advice"
        )
    suspects = suspects_of(log.header)
    dead = {e.get("suspect") for e in log.events if e.type == "kill"}
    proved = {e.get("suspect") for e in log.events if e.type == "proof"}
    candidates = (*(s for s in suspects if s not in dead), *((None,) if dead else ()))
    piles = tuple(c for c in candidates if c not in empty) if unseen else ()
    bits = draw_information(solution.pairs, [s for s in suspects if s not in proved], unseen)
    accuse, probability = next(iter(solution.pairs.items()))
    wrong = None if probability == 1 else -math.log2(1 - probability)
    return Advice(
        piles,
        bits if piles else 0.0,
        accuse,
        probability,
        binary_entropy(float(probability)),
        wrong,
    )


#: The exposure a claim may reach, unless it is already higher (see the docstring): an
#: investigator in two, on average, suspects the Possessed most.
EXPOSED = Fraction(1, 2)


@dataclass(frozen=True)
class ClaimOption:
    """One thing the Possessed may say next (``said`` None: nothing) and how it reads.

    ``suspected``: per investigator, the chance that their view then makes
    the Possessed their most probable Possessed; ``right``: the mean chance
    that an investigator's most probable pair is then the true one.
    """

    said: Said | None
    suspected: Mapping[str, Fraction]
    right: Fraction

    @property
    def exposure(self) -> Fraction:
        """The mean of ``suspected`` over the investigators."""
        return sum(self.suspected.values(), Fraction(0)) / len(self.suspected)


def rank_claims(options: Sequence[ClaimOption]) -> tuple[ClaimOption, ...]:
    """The options, advised first (see the module docstring).

    First those whose exposure is at most :data:`EXPOSED`, or at most that
    of saying nothing (``said`` None, one of the options) when higher; then
    the others. Each part by ``right``, then exposure.
    """
    now = next(option.exposure for option in options if option.said is None)
    most = max(now, EXPOSED)
    return tuple(sorted(options, key=lambda o: (o.exposure > most, o.right, o.exposure)))


def claim_options(
    log: GameLog, model: ClaimsModel | None = None, hard: bool = False
) -> tuple[ClaimOption, ...]:
    """What the Possessed owning ``log`` may say next, advised first.

    Every claim it has not made yet, and saying nothing (first of equals).
    """
    seat = PossessedSeat.of(log, hard, model)
    me = log.header.me
    made = {
        (e.get("suspect"), e.get("innocent"))
        for e in log.events
        if e.type == "claim" and e.get("player") == me
    }
    fresh = [(s, b) for s in suspects_of(log.header) for b in (True, False) if (s, b) not in made]
    options = []
    for said in (None, *fresh):
        outlooks = seat.outlooks(said)
        right = sum((o.right for o in outlooks.values()), Fraction(0)) / len(outlooks)
        options.append(ClaimOption(said, {j: o.suspected for j, o in outlooks.items()}, right))
    return rank_claims(options)


def possessed_kill(
    log: GameLog, living: Collection[str], model: ClaimsModel | None = None, hard: bool = False
) -> tuple[str, Fraction] | None:
    """The Possessed's kill: the living suspect most likely an accomplice, and that chance.

    By the log of its owner, the Possessed, without its own claims; ties go
    to the first in header order; None when no living suspect can be one.
    """
    mine = PossessedSeat.of(log, hard, model).mine
    chances = {
        s: sum((p for pair, p in mine.items() if s in pair), Fraction(0))
        for s in suspects_of(log.header)
        if s in living
    }
    best = max(chances.items(), key=lambda item: item[1], default=None)
    return best if best is not None and best[1] else None
