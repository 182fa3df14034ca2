"""The liar model of Black Rose claims: how often each role says something false.

The model
---------
A ``claim`` event (``player``, ``suspect``, ``innocent``) is *true* when
``innocent`` equals "the suspect is not an accomplice". Given a hidden state
(the pair and the Possessed, see :mod:`deduce.games.blackrose.csp`) the
claimer's role is known: ``rector`` for the header's Rector, ``possessed``
for the Possessed, ``investigator`` (a real one) otherwise. A claim is false
with the chance of its author's role, ``ε`` (investigator), ``λ``
(possessed) or ``ρ`` (rector), and claims are independent given the hidden
state, so

    P(claims | pair, possessed) = Π_claims (rate[role] if false else 1 - rate[role])
    P(pair, possessed | log) ∝ [consistent] · role_prior[possessed] · P(claims | pair, possessed)

(the consistency and the role prior come from the csp module). How it reads:
a claim that a proved suspect is guilty is false under every pair, so it
weighs ``λ`` where its author is the Possessed against ``ε`` where they are a
real investigator: their odds of being the Possessed grow ``λ / ε``-fold.
A claim about an unproved suspect by a trusted author tilts the pairs that
agree with it by ``(1 - ε) / ε``. A rate of 1/2 makes a role's claims say
nothing about the pair. Every rate lies strictly between 0 and 1, so no
claim rules a state out: soft events never conflict.

Parameters
----------
:class:`ClaimsModel` holds the three rates. The default
(``deduce/data/blackrose-claims.json``, read by :func:`default_model`) is
meant for people, who misremember and bluff: an investigator's claim is false
1 time in 16, a Possessed's or the Rector's half the time, so that one claim
changes the odds between two hidden states at most 15-fold (from even odds, at
most 93.75%). The rates fitted on bots, which never slip, are the named model
``bots`` (``deduce/data/blackrose-claims-bots.json``). A user's file of the
same shape is read by :func:`load_model_file`::

    {"fitted": "how these values were obtained",
     "false_rate": {"investigator": 0.02, "possessed": 0.5, "rector": 0.5}}

Fitting
-------
Given the truth, the claims of role ``r`` have likelihood
``rate_r^false_r · (1 - rate_r)^true_r``, maximised by the share of false
claims, ``false_r / (false_r + true_r)``. :func:`fit` smooths it by adding one
false and one true pseudo-claim per role (add-one smoothing, Laplace's rule
of succession): ``(false_r + 1) / (false_r + true_r + 2)``. That keeps every
rate strictly inside (0, 1) however few claims there are, and gives 1/2 to a
role that made none.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from deduce.data import bundled_json
from deduce.data.located import Invalid, load_data, parse_data
from deduce.errors import DeduceError
from deduce.games.blackrose.csp import Hidden, Pair
from deduce.logs.model import Event
from deduce.logs.schema import ROLES, SOFT_EVENTS

DEFAULT_MODEL_FILE = "blackrose-claims.json"
#: Bundled models a user may name instead of a file: ``bots``, the rates fitted on the
#: simulator's bots (which never slip: one claim of theirs nearly decides).
NAMED = {"bots": "blackrose-claims-bots.json"}
#: The keys of a claims file.
FILE_KEYS: tuple[str, ...] = ("fitted", "false_rate")


class Claim(NamedTuple):
    """One statement: ``player`` says ``suspect`` is innocent (or guilty)."""

    player: str
    suspect: str
    innocent: bool

    def is_true(self, pair: Pair) -> bool:
        """Whether the statement is true when ``pair`` are the accomplices."""
        return self.innocent == (self.suspect not in pair)


def claims_of(events: Iterable[Event]) -> tuple[Claim, ...]:
    """The claims of a log, in order (other events are skipped)."""
    return tuple(Claim(e.get("player"), e.get("suspect"), e.get("innocent"))
                 for e in events if e.type in SOFT_EVENTS["blackrose"])


def role_of(player: str, possessed: str | None, rector: str) -> str:
    """A player's role in a hidden state where ``possessed`` is the Possessed."""
    if player == rector:
        return "rector"
    return "possessed" if player == possessed else "investigator"


@dataclass(frozen=True)
class ClaimsModel:
    """The chance that a claim is false, per role (see the module docstring)."""

    false_rate: Mapping[str, float]
    fitted: str = ""

    def exact(self) -> dict[str, Fraction]:
        """The rates as exact fractions of their floats."""
        return {role: Fraction(self.false_rate[role]) for role in ROLES}

    def to_json(self) -> dict[str, Any]:
        """The file form read back by :func:`model_from_json`."""
        return {"fitted": self.fitted,
                "false_rate": {role: float(self.false_rate[role]) for role in ROLES}}


def likelihood(rates: Mapping[str, Fraction], made: Iterable[Claim], hidden: Hidden,
               rector: str) -> Fraction:
    """``P(claims | hidden)``: each claim's chance of being as true or false as it is."""
    chance = Fraction(1)
    for claim in made:
        rate = rates[role_of(claim.player, hidden.possessed, rector)]
        chance *= 1 - rate if claim.is_true(hidden.pair) else rate
    return chance


def model_from_json(raw: Any, path: str) -> ClaimsModel:
    """A model from its JSON form; any problem is a one-line ``LogError`` naming ``path``."""
    return parse_data(_parse, raw, path)


def _parse(raw: Any) -> ClaimsModel:
    """A model from its JSON form; a problem is :class:`Invalid`, with where it is."""
    if not isinstance(raw, dict):
        raise Invalid((), "claims file must be an object")
    for key in raw:
        if key not in FILE_KEYS:
            raise Invalid((), f"unknown key {key!r} in claims file "
                              f"(expected: {', '.join(FILE_KEYS)})")
    fitted = raw.get("fitted", "")
    if not isinstance(fitted, str):
        raise Invalid(("fitted",), "'fitted' must be a string")
    rates = raw.get("false_rate")
    if not isinstance(rates, dict) or sorted(rates) != sorted(ROLES):
        raise Invalid(("false_rate",), "'false_rate' must be an object with exactly the keys "
                                       f"{', '.join(ROLES)}")
    for role in ROLES:
        value = rates[role]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
            raise Invalid(("false_rate", role), f"false_rate {role} must be a number strictly "
                                                f"between 0 and 1, not {value!r}")
    return ClaimsModel({role: float(rates[role]) for role in ROLES}, fitted)


@cache
def default_model() -> ClaimsModel:
    """The bundled model (``deduce/data/blackrose-claims.json``)."""
    return model_from_json(bundled_json(DEFAULT_MODEL_FILE), DEFAULT_MODEL_FILE)


@cache
def bots_model() -> ClaimsModel:
    """The rates fitted on the simulator's bots (the named model ``bots``).

    The bots play with it, and ``check`` scores the claims reading with it by
    default: it is the liar model of the games they play.
    """
    return model_from_json(bundled_json(NAMED["bots"]), NAMED["bots"])


def load_model_file(path: str) -> ClaimsModel:
    """A user's claims file, or a bundled model by name (:data:`NAMED`, when no such file).

    Any problem is a one-line ``LogError`` naming the file.
    """
    if path in NAMED and not os.path.exists(path):
        return model_from_json(bundled_json(NAMED[path]), NAMED[path])
    return load_data(_parse, path, "claims file")


@dataclass(frozen=True)
class Sample:
    """Training data: claims of one game with each claimer's true role and the true pair."""

    claims: Sequence[Claim]
    roles: Mapping[str, str]
    pair: Pair


def fit(samples: Iterable[Sample]) -> ClaimsModel:
    """Per role, the smoothed share of false claims (see the module docstring)."""
    false: Counter[str] = Counter()
    total: Counter[str] = Counter()
    games = 0
    for games, sample in enumerate(samples, 1):
        for claim in sample.claims:
            role = sample.roles.get(claim.player)
            if role not in ROLES:
                raise DeduceError(f"sample {games}: the true role of {claim.player} is "
                                  f"{role!r}, not one of {', '.join(ROLES)}")
            total[role] += 1
            false[role] += not claim.is_true(sample.pair)
    rates = {role: (false[role] + 1) / (total[role] + 2) for role in ROLES}
    counts = ", ".join(f"{total[role]} by the {role}" for role in ROLES)
    note = (f"fitted on {games} games ({counts}): share of false claims per role "
            "with add-one smoothing")
    return ClaimsModel(rates, note)
