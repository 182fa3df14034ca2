"""Advice for a Black Rose investigator: where to investigate, and whether to accuse.

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
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction

from deduce.errors import DeduceError
from deduce.games.blackrose.claims import ClaimsModel
from deduce.games.blackrose.csp import Pair
from deduce.games.blackrose.solve import solve_blackrose
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
