"""The liar model of Black Rose claims: how often each player says something false.

The model
---------
A ``claim`` event (``player``, ``suspect``, ``innocent``) is *true* when
``innocent`` equals "the suspect is not an accomplice". Given a hidden state
(the pair and the Possessed, see :mod:`deduce.games.blackrose.csp`) the
claimer's role is known: ``rector`` for the header's Rector, ``possessed``
for the Possessed, ``investigator`` (a real one) otherwise.

People lie in their own ways, so each claimer has a latent *level* of lying
(:class:`Level`), one of a few the model lists, e.g. ``truthful`` (the rates
of the simulator's advised bots: an investigator never lies, the Possessed
often does), ``slips`` (an investigator is wrong now and then) and
``random`` (every claim false half the time whatever the role: says
nothing). A level gives a false rate per role; a claim of a player at level
``l`` is false with the chance ``rate_l[role]`` of its author's role, and
claims are independent given the hidden state and the levels:

    P(claims | hidden, levels) = Π_claims (rate[level, role] if false else 1 - rate[level, role])
    P(claims | hidden) = Σ_levels prior(levels) · P(claims | hidden, levels)
    P(pair, possessed | log) ∝ [consistent] · role_prior[possessed] · P(claims | hidden)

(the consistency and the role prior come from the csp module). The sum runs
over the level of every player who made a claim (a player without claims
sums out to 1), exactly: :func:`likelihoods`. The levels' prior is one of two:

- *independent* (no ``concentration``): each player's level is drawn from
  the levels' ``prior`` on its own, so the sum factorizes per player;
- *exchangeable* (``concentration`` ``A``): the table's mix of levels is
  unknown, drawn from a Dirichlet of parameters ``A · prior``, and each
  player's level from that mix (a Dirichlet-multinomial: the ``k``-th player
  is at level ``l`` with chance ``(A · prior_l + n_l) / (A + k - 1)``, where
  ``n_l`` counts the earlier players at level ``l``). Players then share
  strength: once two players plainly claim at random, a third is more likely
  to as well. The sum runs over the count vectors of the levels (a
  dynamic programme over the claimers, never the ``levels^players`` vectors).

How it reads: a claim that a proved suspect is guilty is false under every
pair, so it weighs, per level, ``λ`` where its author is the Possessed
against ``ε`` where they are a real investigator; a ``random`` level
explains it as well either way, and so moderates the odds. Every rate lies
strictly between 0 and 1, so no claim rules a state out: soft events never
conflict. The posterior of each claimer's level (:func:`likelihoods`,
``styles``) says how the log reads them.

Parameters
----------
A claims file (:func:`load_model_file`; the bundled default
``deduce/data/blackrose-claims.json``, read by :func:`default_model`)::

    {"fitted": "how these values were obtained",
     "levels": {
       "truthful": {"words": "tells the truth", "prior": 0.6,
                    "false_rate": {"investigator": 0.0001, "possessed": 0.3, "rector": 0.5}},
       "slips": {"words": "slips now and then", "prior": 0.2,
                 "false_rate": {"investigator": 0.0625, "possessed": 0.5, "rector": 0.5}},
       "random": {"words": "says anything", "prior": 0.2,
                  "false_rate": {"investigator": 0.5, "possessed": 0.5, "rector": 0.5}}},
     "concentration": 1}

``levels``: at least one, in column order; ``words`` name the level in
``solve``'s table; the ``prior`` weights are positive and normalised to sum
to 1; every rate strictly between 0 and 1. ``concentration`` (optional, a
positive number): the exchangeable prior above; without it, independent
levels. The older form ``{"fitted": ..., "false_rate": {...}}`` still loads:
one level (``single``) of those rates, exactly the model it always meant.
The rates fitted on the bots, which never slip, alone are the named model
``bots`` (``deduce/data/blackrose-claims-bots.json``), which the bots play
with.

Fitting
-------
Given the truth, the claims of role ``r`` have likelihood
``rate_r^false_r · (1 - rate_r)^true_r``, maximised by the share of false
claims, ``false_r / (false_r + true_r)``. :func:`fit` smooths it by adding one
false and one true pseudo-claim per role (add-one smoothing, Laplace's rule
of succession): ``(false_r + 1) / (false_r + true_r + 2)``. That keeps every
rate strictly inside (0, 1) however few claims there are, and gives 1/2 to a
role that made none. It fits one level: ``truthful``, on the advised bots
(``tools/blackrose_fit.py``); the other levels' rates are set by hand.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from typing import Any, NamedTuple

from deduce.data import bundled_json
from deduce.data.located import Invalid, load_data, parse_data
from deduce.errors import DeduceError
from deduce.games.blackrose.csp import Hidden, Pair
from deduce.logs.model import Event
from deduce.logs.schema import ROLES, SOFT_EVENTS

DEFAULT_MODEL_FILE = "blackrose-claims.json"
#: Bundled models a user may name instead of a file: ``bots``, the rates fitted on the
#: simulator's bots alone (which never slip: one claim of theirs nearly decides).
NAMED = {"bots": "blackrose-claims-bots.json"}
#: The keys of a claims file, and of one of its levels.
FILE_KEYS: tuple[str, ...] = ("fitted", "levels", "concentration")
LEVEL_KEYS: tuple[str, ...] = ("words", "prior", "false_rate")
#: The keys of the older one-level file, and the name of its level.
OLD_KEYS: tuple[str, ...] = ("fitted", "false_rate")
SINGLE = "single"


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
class Level:
    """One way of lying: the chance that a claim is false, per role, and its prior weight."""

    name: str
    false_rate: Mapping[str, float]
    prior: float = 1.0
    words: str = ""

    def to_json(self) -> dict[str, Any]:
        """The level's entry in a claims file."""
        return {"words": self.words, "prior": self.prior,
                "false_rate": {role: float(self.false_rate[role]) for role in ROLES}}


@dataclass(frozen=True)
class ClaimsModel:
    """Levels of lying, their prior and how it ties players (see the module docstring)."""

    levels: tuple[Level, ...]
    concentration: float | None = None
    fitted: str = ""

    @classmethod
    def single(cls, false_rate: Mapping[str, float], fitted: str = "") -> ClaimsModel:
        """One level of these rates: every player lies alike (the older model)."""
        return cls((Level(SINGLE, dict(false_rate)),), None, fitted)

    @property
    def names(self) -> dict[str, str]:
        """Each level's words (its name when it has none), in order."""
        return {level.name: level.words or level.name for level in self.levels}

    @cached_property
    def exact(self) -> ExactModel:
        """The model in exact integers (see :class:`ExactModel`)."""
        return ExactModel.of(self)

    def to_json(self) -> dict[str, Any]:
        """The file form read back by :func:`model_from_json`."""
        data: dict[str, Any] = {"fitted": self.fitted,
                                "levels": {level.name: level.to_json() for level in self.levels}}
        if self.concentration is not None:
            data["concentration"] = self.concentration
        return data


#: The sum over levels of one hidden state: per claimer, (role, true claims, false claims).
Signature = tuple[tuple[str, int, int], ...]


@dataclass(frozen=True)
class ExactModel:
    """A model's rates and prior as integers over common denominators, for exact sums.

    A rate is ``false[level][role] / unit`` (its float's exact fraction), the
    chance of a true claim ``(unit - false) / unit``. The chance that the
    ``n``-th claimer (from 0) is at level ``l``, the earlier ones' levels
    counted in ``counts``, is ``step(counts, l) / below(n)``: independent
    levels, ``W_l / T``, the prior weights as integers ``W_l`` of sum ``T``;
    exchangeable ones of concentration ``a / d``,
    ``(a · W_l + counts_l · T · d) / (T · (a + n · d))``, which is
    ``(A · prior_l + counts_l) / (A + n)``. Neither denominator depends on
    the hidden state, so the sums over the levels are integers
    (:meth:`sum_levels`), and :meth:`scale` turns them into chances.
    """

    false: tuple[Mapping[str, int], ...]
    unit: int
    weights: tuple[int, ...]
    concentration: Fraction | None

    @classmethod
    def of(cls, model: ClaimsModel) -> ExactModel:
        """The integers of ``model``'s floats."""
        rates = [{role: Fraction(level.false_rate[role]) for role in ROLES}
                 for level in model.levels]
        unit = math.lcm(*(r.denominator for row in rates for r in row.values()))
        priors = [Fraction(level.prior) for level in model.levels]
        common = math.lcm(*(p.denominator for p in priors))
        concentration = None if model.concentration is None else Fraction(model.concentration)
        return cls(tuple({role: int(r * unit) for role, r in row.items()} for row in rates),
                   unit, tuple(int(p * common) for p in priors), concentration)

    def step(self, counts: tuple[int, ...], level: int) -> int:
        """The next claimer's chance of ``level`` times :meth:`below` (see the class)."""
        if self.concentration is None:
            return self.weights[level]
        a, d = self.concentration.numerator, self.concentration.denominator
        return a * self.weights[level] + counts[level] * sum(self.weights) * d

    def below(self, n: int) -> int:
        """The denominator of the ``n``-th claimer's level chances (see the class)."""
        if self.concentration is None:
            return sum(self.weights)
        a, d = self.concentration.numerator, self.concentration.denominator
        return sum(self.weights) * (a + n * d)

    def scale(self, claims: int, claimers: int) -> Fraction:
        """What turns :meth:`sum_levels` of so many claims and claimers into a chance."""
        below = math.prod(self.below(n) for n in range(claimers))
        return Fraction(1, self.unit ** claims * below)

    def sum_levels(self, signature: Signature, first: int | None = None) -> int:
        """``Σ_levels prior(levels) · P(claims | levels)`` for one state's claimers, scaled.

        ``first`` fixes the first claimer's level (the others summed out): the
        joint of that level and the claims. A dynamic programme over the
        claimers, whose states are the counts of each level so far.
        """
        sums = {(0,) * len(self.weights): 1}
        for index, (role, true, false) in enumerate(signature):
            levels = range(len(self.weights)) if index or first is None else (first,)
            chances = [(level, (self.unit - self.false[level][role]) ** true
                        * self.false[level][role] ** false) for level in levels]
            after: dict[tuple[int, ...], int] = {}
            for counts, value in sums.items():
                for level, chance in chances:
                    key = (*counts[:level], counts[level] + 1, *counts[level + 1:])
                    after[key] = after.get(key, 0) + value * self.step(counts, level) * chance
            sums = after
        return sum(sums.values())


@dataclass(frozen=True)
class Likelihoods:
    """The claims' likelihood in some hidden states, and the levels' joint with them.

    ``chance[h]``: the claims' likelihood in state ``h``, times a constant
    (the same for every state: ``scale`` makes it the chance).
    ``levels[h][player]``: per level, the joint of the claims and that
    player's level, times the same constant (their sum over the levels is
    ``chance[h]``); only for models of several levels.
    """

    chance: dict[Hidden, int]
    levels: dict[Hidden, dict[str, tuple[int, ...]]]
    scale: Fraction


def signature(made: Sequence[Claim], claimers: Sequence[str], hidden: Hidden,
              rector: str) -> Signature:
    """Per claimer (in order), their role in ``hidden`` and how many of their claims are true."""
    true = Counter(c.player for c in made if c.is_true(hidden.pair))
    total = Counter(c.player for c in made)
    return tuple((role_of(p, hidden.possessed, rector), true[p], total[p] - true[p])
                 for p in claimers)


def likelihoods(model: ClaimsModel, made: Sequence[Claim], states: Iterable[Hidden],
                rector: str, levels: bool = True) -> Likelihoods:
    """The claims' likelihood in each state, levels summed out; ``levels``: their joint too.

    States whose claimers have the same roles and as many true claims share
    one sum (it depends on nothing else). The levels are exchangeable under
    either prior, so a player's joint puts them first.
    """
    exact = model.exact
    claimers = tuple(dict.fromkeys(c.player for c in made))
    several = levels and len(exact.weights) > 1
    chance: dict[Hidden, int] = {}
    joint: dict[Hidden, dict[str, tuple[int, ...]]] = {}
    seen: dict[Signature, tuple[int, dict[str, tuple[int, ...]]]] = {}
    for hidden in states:
        key = signature(made, claimers, hidden, rector)
        if key not in seen:
            per = {player: tuple(exact.sum_levels((key[i], *key[:i], *key[i + 1:]), level)
                                 for level in range(len(exact.weights)))
                   for i, player in enumerate(claimers)} if several else {}
            total = sum(per[claimers[0]]) if per else exact.sum_levels(key)
            seen[key] = (total, per)
        chance[hidden], joint[hidden] = seen[key]
    return Likelihoods(chance, joint if several else {}, exact.scale(len(made), len(claimers)))


def likelihood(model: ClaimsModel, made: Sequence[Claim], hidden: Hidden,
               rector: str) -> Fraction:
    """``P(claims | hidden)`` with the levels summed out."""
    found = likelihoods(model, made, (hidden,), rector, levels=False)
    return found.chance[hidden] * found.scale


def model_from_json(raw: Any, path: str) -> ClaimsModel:
    """A model from its JSON form; any problem is a one-line ``LogError`` naming ``path``."""
    return parse_data(_parse, raw, path)


def _rates(raw: Any, where: tuple[str, ...]) -> dict[str, float]:
    """A ``false_rate`` object: exactly the roles, each rate strictly between 0 and 1."""
    if not isinstance(raw, dict) or sorted(raw) != sorted(ROLES):
        raise Invalid(where, "'false_rate' must be an object with exactly the keys "
                             f"{', '.join(ROLES)}")
    for role in ROLES:
        value = raw[role]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
            raise Invalid((*where, role), f"false_rate {role} must be a number strictly "
                                          f"between 0 and 1, not {value!r}")
    return {role: float(raw[role]) for role in ROLES}


def _positive(value: Any, what: str, where: tuple[str, ...]) -> float:
    """A positive finite number, else :class:`Invalid` at ``where``."""
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not 0 < value < float("inf")):
        raise Invalid(where, f"{what} must be a positive number, not {value!r}")
    return float(value)


def _level(name: str, raw: Any) -> Level:
    """One level of a claims file."""
    where = ("levels", name)
    if not isinstance(raw, dict):
        raise Invalid(where, f"level {name!r} must be an object with {', '.join(LEVEL_KEYS)}")
    for key in raw:
        if key not in LEVEL_KEYS:
            raise Invalid(where, f"unknown key {key!r} in level {name!r} "
                                 f"(expected: {', '.join(LEVEL_KEYS)})")
    words = raw.get("words", "")
    if not isinstance(words, str):
        raise Invalid(where, f"level {name!r}: 'words' must be a string")
    prior = _positive(raw.get("prior", 1), f"level {name!r}: 'prior'", where)
    return Level(name, _rates(raw.get("false_rate"), (*where, "false_rate")), prior, words)


def _parse(raw: Any) -> ClaimsModel:
    """A model from its JSON form; a problem is :class:`Invalid`, with where it is."""
    if not isinstance(raw, dict):
        raise Invalid((), "claims file must be an object")
    old = "false_rate" in raw
    keys = OLD_KEYS if old else FILE_KEYS
    for key in raw:
        if key not in keys:
            raise Invalid((), f"unknown key {key!r} in claims file "
                              f"(expected: {', '.join(keys)})")
    fitted = raw.get("fitted", "")
    if not isinstance(fitted, str):
        raise Invalid(("fitted",), "'fitted' must be a string")
    if old:
        return ClaimsModel.single(_rates(raw["false_rate"], ("false_rate",)), fitted)
    levels = raw.get("levels")
    if not isinstance(levels, dict) or not levels:
        raise Invalid(("levels",) if "levels" in raw else (),
                      "'levels' must be an object of at least one level")
    concentration = raw.get("concentration")
    if concentration is not None:
        concentration = _positive(concentration, "'concentration'", ("concentration",))
    return ClaimsModel(tuple(_level(name, value) for name, value in levels.items()),
                       concentration, fitted)


@cache
def default_model() -> ClaimsModel:
    """The bundled model (``deduce/data/blackrose-claims.json``)."""
    return model_from_json(bundled_json(DEFAULT_MODEL_FILE), DEFAULT_MODEL_FILE)


@cache
def bots_model() -> ClaimsModel:
    """The rates fitted on the simulator's bots alone (the named model ``bots``).

    The bots play with it: it is the liar model of the games they play.
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
    """Per role, the smoothed share of false claims (see the module docstring): one level."""
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
    return ClaimsModel.single(rates, note)
