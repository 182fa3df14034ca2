"""Solve a Black Rose log: the accomplice pair, each suspect's chance, the Possessed, conflicts.

The consistent hidden states (pair and Possessed) come from
:mod:`deduce.games.blackrose.csp`; each weighs its role prior times the
chance of the log's claims under the liar model of
:mod:`deduce.games.blackrose.claims`, or its role prior alone with ``hard``
or without claims (see the csp module for why that is the exact posterior).
The arithmetic is exact (:class:`~fractions.Fraction`; the model's rates are
the exact fractions of their floats). The reported marginals are the pair's,
each suspect's chance of being an accomplice, and the Possessed's.

When no state fits the hard events, the solution carries a minimal set of
them that cannot all hold (claims never conflict; ``kill`` events stay in
place as the game's structure, as they say nothing by themselves), found by
deletion from the last line back. The pair and the Possessed are separate
variables that no hard event links, so a minimal set is about one of them
only, or is one ``role`` event contradicting the header's Rector: that
gives the reason sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from deduce.games.blackrose.claims import ClaimsModel, claims_of, default_model, likelihoods
from deduce.games.blackrose.csp import (
    Fact,
    Hidden,
    Pair,
    Setting,
    against_header,
    facts,
    is_consistent,
    role_prior,
    solutions,
)
from deduce.logs.model import GameLog
from deduce.report import plural
from deduce.subsets import shrink

#: How "nobody is the Possessed" is written in the JSON output.
NOBODY = "none"


@dataclass(frozen=True)
class BlackRoseSolution:
    """Who the accomplices and the Possessed can be, as seen by the log's observer.

    ``joint``: each consistent hidden state's probability. ``pairs``: the
    candidate pairs, most probable first (ties in alphabetical order).
    ``suspects``: every suspect's chance of being an accomplice, in header
    order. ``possessed``: the possible Possessed (None: nobody), seat order
    then nobody. ``weighed``: how many claims the weights used. ``styles``:
    with claims and a model of several levels, each claimer's posterior over
    the levels (``styles[player][level]``), and ``names``: each level's words.
    What the others think of the Possessed (:mod:`deduce.games.blackrose.views`,
    empty unless asked): ``suspected``, when the observer is the Possessed,
    per investigator, the chance that their view makes the observer the most
    probable Possessed; ``table``, otherwise, each possible Possessed's chance
    from the public events alone.
    """

    game: ClassVar[str] = "blackrose"
    consistent: bool
    joint: dict[Hidden, Fraction] = field(default_factory=dict)
    pairs: dict[Pair, Fraction] = field(default_factory=dict)
    suspects: dict[str, Fraction] = field(default_factory=dict)
    possessed: dict[str | None, Fraction] = field(default_factory=dict)
    weighed: int = 0
    styles: dict[str, dict[str, Fraction]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    suspected: dict[str, Fraction] = field(default_factory=dict)
    table: dict[str | None, Fraction] = field(default_factory=dict)
    conflict: tuple[int, ...] = ()
    explanation: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The spec's ``solve --json`` object."""
        if not self.consistent:
            return {
                "game": "blackrose",
                "consistent": False,
                "exact": True,
                "conflict": list(self.conflict),
            }
        accomplices = {
            "candidates": [list(pair) for pair in self.pairs],
            "probabilities": {"+".join(pair): float(p) for pair, p in self.pairs.items()},
        }
        data = {
            "game": "blackrose",
            "consistent": True,
            "exact": True,
            "accomplices": accomplices,
            "suspects": {s: float(p) for s, p in self.suspects.items()},
            "possessed": {
                NOBODY if who is None else who: float(p) for who, p in self.possessed.items()
            },
        }
        if self.styles:
            data["styles"] = {
                player: {level: float(p) for level, p in row.items()}
                for player, row in self.styles.items()
            }
        if self.suspected:
            data["suspected"] = {player: float(p) for player, p in self.suspected.items()}
        if self.table:
            data["table_suspects"] = {
                NOBODY if who is None else who: float(p) for who, p in self.table.items()
            }
        return data


def solve_blackrose(
    log: GameLog, hard: bool = False, model: ClaimsModel | None = None, styles: bool = True
) -> BlackRoseSolution:
    """Solve a validated blackrose log; ``hard`` ignores claims, ``model`` replaces the default.

    ``styles`` False skips the claimers' level posterior (the check and the
    bots need only the marginals).
    """
    setting = Setting.of(log.header)
    known = facts(log.events)
    possible = solutions(setting, known)
    if not possible:
        chosen = minimal_conflict(setting, known)
        return BlackRoseSolution(
            False,
            conflict=tuple(f.line for f in chosen),
            explanation=explain_conflict(setting, chosen),
        )
    made = () if hard else claims_of(log.events)
    prior = role_prior(setting)
    if not made:
        weights = {h: prior[h.possessed] for h in possible}
        return _solution(setting, weights, {}, {}, 0)
    model = model or default_model()
    found = likelihoods(model, made, possible, setting.rector, styles, len(setting.suspects))
    weights = {h: prior[h.possessed] * found.chance[h] for h in possible}  # times a constant
    total = sum(weights.values(), Fraction(0))
    levels = list(model.names)
    rows: dict[str, dict[str, Fraction]] = {}
    for hidden, per in found.levels.items():
        for player, joint in per.items():
            row = rows.setdefault(player, dict.fromkeys(levels, Fraction(0)))
            for level, p in zip(levels, joint):
                row[level] += prior[hidden.possessed] * p / total
    ordered = {player: rows[player] for player in setting.players if player in rows}
    return _solution(setting, weights, ordered, model.names if rows else {}, len(made))


def _solution(
    setting: Setting,
    weights: dict[Hidden, Fraction],
    styles: dict[str, dict[str, Fraction]],
    names: dict[str, str],
    weighed: int,
) -> BlackRoseSolution:
    """The solution of consistent states of these weights (prior times likelihood)."""
    total = sum(weights.values(), Fraction(0))
    joint = {h: w / total for h, w in weights.items()}
    return BlackRoseSolution(
        True,
        joint,
        pair_marginals(joint),
        suspect_marginals(joint, setting.suspects),
        possessed_marginals(joint, setting.possessed_values),
        weighed,
        styles,
        names,
    )


def pair_marginals(joint: dict[Hidden, Fraction]) -> dict[Pair, Fraction]:
    """Each candidate pair's probability, most probable first (ties alphabetical)."""
    totals: dict[Pair, Fraction] = {}
    for hidden, p in joint.items():
        totals[hidden.pair] = totals.get(hidden.pair, Fraction(0)) + p
    return dict(sorted(totals.items(), key=lambda item: (-item[1], item[0])))


def suspect_marginals(
    joint: dict[Hidden, Fraction], suspects: Sequence[str]
) -> dict[str, Fraction]:
    """Each suspect's chance of being one of the accomplices, in the given order."""
    return {s: sum((p for h, p in joint.items() if s in h.pair), Fraction(0)) for s in suspects}


def possessed_marginals(
    joint: dict[Hidden, Fraction], order: Sequence[str | None]
) -> dict[str | None, Fraction]:
    """Each possible Possessed's probability (positive only), in the given order."""
    totals = {
        who: sum((p for h, p in joint.items() if h.possessed == who), Fraction(0)) for who in order
    }
    return {who: p for who, p in totals.items() if p}


def minimal_conflict(setting: Setting, known: Sequence[Fact]) -> tuple[Fact, ...]:
    """A minimal subset of inconsistent facts that cannot all hold.

    See :func:`deduce.subsets.shrink`.
    """
    return tuple(shrink(known, lambda trial: not is_consistent(setting, trial)))


def listing(words: Sequence[str]) -> str:
    """Words joined for a sentence: ``a``, ``a and b``, ``a, b and c``."""
    *rest, last = words
    return f"{', '.join(rest)} and {last}" if rest else last


def describe(fact: Fact) -> str:
    """A hard event in words, e.g. ``s3 is innocent (a Proof of s3 was seen)``."""
    event = fact.event
    if event.type == "role":
        role = event.get("role")
        what = {
            "rector": "the Rector",
            "possessed": "the Possessed",
            "investigator": "a real investigator",
        }[role]
        return f"{event.get('player')} is {what}"
    if event.type == "proof":
        return f"{event.get('suspect')} is innocent (a Proof of {event.get('suspect')} was seen)"
    if event.type == "accuse":
        named = listing(sorted(event.get("suspects")))
        if event.get("correct"):
            return f"{named} are the accomplices (a correct accusation)"
        return f"{named} are not both accomplices (a wrong accusation)"
    dead = f"the dead ({listing(fact.dead)})" if fact.dead else "the dead (nobody yet)"
    return f"the Rector played {event.get('card')}: at least {fact.at_least} of {dead} are innocent"


def _reason(setting: Setting, chosen: Sequence[Fact]) -> str:
    """Why the minimal set ``chosen`` cannot hold, in one sentence."""
    if any(against_header(setting, f.event) for f in chosen):
        return (
            f"but the header names {setting.rector} as the Rector, "
            "who holds no role card and is nobody else's"
        )
    roles = [f.event for f in chosen if f.event.type == "role"]
    if roles:
        possessed = sorted({e.get("player") for e in roles if e.get("role") == "possessed"})
        if len(possessed) > 1:
            return "but there is only one Possessed card"
        if possessed:
            return f"so {possessed[0]} would be the Possessed and a real investigator at once"
        return (
            f"so nobody is left to be the Possessed, and a {len(setting.players)}-player "
            "game always has one"
        )
    if len(chosen) == 1 and chosen[0].event.type == "goal":
        fact = chosen[0]
        return (
            f"but only {plural(len(fact.dead), 'suspect')} "
            f"had died by then, fewer than {fact.at_least}"
        )
    return "so no pair of suspects can be the two accomplices"


def explain_conflict(setting: Setting, chosen: Sequence[Fact]) -> tuple[str, ...]:
    """A heading, one sentence per conflicting event, and the reason they conflict."""
    sentences = [f"line {f.line} says {describe(f)}" for f in chosen]
    return ("These events cannot all be true:", *sentences, _reason(setting, chosen))
