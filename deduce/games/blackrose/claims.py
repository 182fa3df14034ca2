"""The liar model of Black Rose claims: how each player claims, and how often falsely.

The model
---------
A ``claim`` event (``player``, ``suspect``, ``innocent``) is *true* when
``innocent`` equals "the suspect is not an accomplice"; it is a claim of
innocence or of guilt (its *kind*). Given a hidden state (the pair and the
Possessed, see :mod:`deduce.games.blackrose.csp`) the claimer's role is
known: ``rector`` for the header's Rector, ``possessed`` for the Possessed,
``investigator`` (a real one) otherwise.

People lie in their own ways, so each claimer has a latent *level*
(:class:`Level`), one of a few the model lists: the default has
``truthful`` (the advised bots' ways, fitted: an investigator never lies,
the Possessed often does) and ``random`` (says anything). A level gives,
per role, the chance ``g`` that a claim is one of guilt (``guilty_rate``)
and, per kind, the chance ``f`` that it is false (``false_rate`` for a
claim of innocence, ``guilty_false_rate`` for one of guilt). A claim names
one of the ``m`` suspects (seven); given its kind and truth value, any
suspect that makes it so is alike, and those are ``m - 2`` (the innocents)
or ``2`` (the accomplices). So a claim of a player at level ``l`` and role
``r`` has the chance

    P(claim | hidden, l) = P(kind | l, r) · P(truth | kind, l, r) / n(kind, truth)

(``n``: ``m - 2`` for a true claim of innocence or a false one of guilt,
``2`` otherwise), and claims are independent given the hidden state and
the levels:

    P(claims | hidden) = Σ_levels prior(levels) · Π_claims P(claim | hidden, level)
    P(pair, possessed | log) ∝ [consistent] · role_prior[possessed] · P(claims | hidden)

(the consistency and the role prior come from the csp module). Each level
is then a distribution over everything a player may say, so the levels'
posterior compares like with like: a player who often calls suspects guilty
reads as ``random`` (``g`` = 1/2) rather than ``truthful`` (whose
investigators never do), whatever the pair. The ``random`` level (``g`` =
1/2, ``f`` = 2/7 for a claim of innocence and 5/7 for one of guilt) gives
every claim the chance 1/14 whatever the state: it says nothing. The sum
runs over the level of every player who made a claim (a player without
claims sums out to 1), exactly: :func:`likelihoods`. The levels' prior is
one of two:

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
pair, so it weighs, per level, its author's chance of a false claim of
guilt as the Possessed against that as a real investigator; the ``random``
level explains it as well either way, and so moderates the odds. Every
rate lies strictly between 0 and 1, so no claim rules a state out: soft
events never conflict. The posterior of each claimer's level
(:func:`likelihoods`, ``styles``) says how the log reads them.

Parameters
----------
A claims file (:func:`load_model_file`; the bundled default
``deduce/data/blackrose-claims.json``, read by :func:`default_model`)::

    {"fitted": "how these values were obtained",
     "levels": {
       "truthful": {"words": "tells the truth", "prior": 0.5,
                    "false_rate": {"investigator": 0.0001, "possessed": 0.2, "rector": 0.5},
                    "guilty_rate": {"investigator": 0.0001, "possessed": 0.1, "rector": 0.5},
                    "guilty_false_rate": {"investigator": 0.5, "possessed": 0.99,
                                          "rector": 0.5}},
       "random": {"words": "says anything", "prior": 0.5,
                  "false_rate": {"investigator": 0.2857, ...},
                  "guilty_rate": {"investigator": 0.5, ...},
                  "guilty_false_rate": {"investigator": 0.7143, ...}}},
     "concentration": 0.5}

``levels``: at least one, in column order; ``words`` name the level in
``solve``'s table; the ``prior`` weights are positive and normalised to sum
to 1; every rate strictly between 0 and 1, an object of the three roles;
``false_rate`` is required, ``guilty_rate`` is 1/2 and
``guilty_false_rate`` the ``false_rate`` when left out. ``concentration``
(optional, a positive number): the exchangeable prior above; without it,
independent levels. The older form ``{"fitted": ..., "false_rate": {...}}``
still loads, as exactly the model it always meant: one level (``single``),
each claim weighing only by its truth value, ``rate`` if false and
``1 - rate`` if true (:attr:`ClaimsModel.per_suspect` False: no kind, no
``n``; with one level those are the same for every state but for the
``n``, which the older model leaves out). The rates fitted on the bots
alone, in that form, are the named model ``bots``
(``deduce/data/blackrose-claims-bots.json``), which the bots play with.

Fitting
-------
Given the truth, the claims of role ``r`` have likelihood
``rate_r^false_r · (1 - rate_r)^true_r``, maximised by the share of false
claims, ``false_r / (false_r + true_r)``. :func:`fit` smooths it by adding one
false and one true pseudo-claim per role (add-one smoothing, Laplace's rule
of succession): ``(false_r + 1) / (false_r + true_r + 2)``. That keeps every
rate strictly inside (0, 1) however few claims there are, and gives 1/2 to a
role that made none. :func:`fit_level` does the same for each rate of a
level: the share of claims of guilt, and of false claims among each kind
(``n`` is the same for every game, so it changes nothing to the fit). It
fits one level, ``truthful``, on the advised bots
(``tools/blackrose_fit.py``); the ``random`` level's rates are fixed by
reasoning and the prior is chosen (the file's ``fitted`` note says how).
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
from deduce.logs.formats.blackrose import FORMAT, ROLES
from deduce.logs.model import Event

DEFAULT_MODEL_FILE = "blackrose-claims.json"
#: Bundled models a user may name instead of a file: ``bots``, the rates fitted on the
#: simulator's bots alone (which never slip: one claim of theirs nearly decides).
NAMED = {"bots": "blackrose-claims-bots.json"}
#: The keys of a claims file, and of one of its levels.
FILE_KEYS: tuple[str, ...] = ("fitted", "levels", "concentration")
#: The rates of a level (each an object of the roles): ``false_rate`` is required.
RATE_KEYS: tuple[str, ...] = ("false_rate", "guilty_rate", "guilty_false_rate")
LEVEL_KEYS: tuple[str, ...] = ("words", "prior", *RATE_KEYS)
#: The keys of the older one-level file, and the name of its level.
OLD_KEYS: tuple[str, ...] = ("fitted", "false_rate")
SINGLE = "single"
HALF = Fraction(1, 2)
#: Suspects in a game (the log format's seven), for the chance of a claim's very suspect.
SUSPECTS = 7


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
    return tuple(
        Claim(e.get("player"), e.get("suspect"), e.get("innocent"))
        for e in events
        if e.type in FORMAT.soft_events
    )


def role_of(player: str, possessed: str | None, rector: str) -> str:
    """A player's role in a hidden state where ``possessed`` is the Possessed."""
    if player == rector:
        return "rector"
    return "possessed" if player == possessed else "investigator"


#: The outcomes of one claim, in the order of :attr:`ExactModel.chances`: (innocent, true).
OUTCOMES: tuple[tuple[bool, bool], ...] = (
    (True, True),
    (True, False),
    (False, True),
    (False, False),
)


@dataclass(frozen=True)
class Level:
    """One way of lying: per role, how a claim reads and is false; and its prior weight.

    ``false_rate``: the chance that a claim is false (a claim of guilt too,
    unless ``guilty_false_rate`` gives its own); ``guilty_rate``: the chance
    that a claim calls its suspect guilty rather than innocent (None: 1/2,
    which says nothing).
    """

    name: str
    false_rate: Mapping[str, float]
    prior: float = 1.0
    words: str = ""
    guilty_rate: Mapping[str, float] | None = None
    guilty_false_rate: Mapping[str, float] | None = None

    def truth(self, role: str, innocent: bool, true: bool) -> Fraction:
        """The chance that a claim of this kind (``innocent``) of ``role`` is ``true``."""
        rates = (
            self.false_rate
            if innocent or self.guilty_false_rate is None
            else self.guilty_false_rate
        )
        false = Fraction(rates[role])
        return 1 - false if true else false

    def chance(self, role: str, innocent: bool, true: bool) -> Fraction:
        """The chance that a claim of ``role`` says ``innocent`` and is ``true``."""
        guilty = HALF if self.guilty_rate is None else Fraction(self.guilty_rate[role])
        return (1 - guilty if innocent else guilty) * self.truth(role, innocent, true)

    def to_json(self) -> dict[str, Any]:
        """The level's entry in a claims file."""
        data: dict[str, Any] = {"words": self.words, "prior": self.prior}
        for key in RATE_KEYS:
            rates = getattr(self, key)
            if rates is not None:
                data[key] = {role: float(rates[role]) for role in ROLES}
        return data


@dataclass(frozen=True)
class ClaimsModel:
    """Levels of lying, their prior and how it ties players (see the module docstring)."""

    levels: tuple[Level, ...]
    concentration: float | None = None
    fitted: str = ""
    #: Whether a claim's chance is of its very suspect and kind (a levels file), not
    #: only of its truth value (the older one-level model).
    per_suspect: bool = True

    @classmethod
    def single(cls, false_rate: Mapping[str, float], fitted: str = "") -> ClaimsModel:
        """One level of these rates: every player lies alike (the older model)."""
        return cls((Level(SINGLE, dict(false_rate)),), None, fitted, per_suspect=False)

    @property
    def names(self) -> dict[str, str]:
        """Each level's words (its name when it has none), in order."""
        return {level.name: level.words or level.name for level in self.levels}

    @cached_property
    def exact(self) -> ExactModel:
        """The model in exact integers (see :class:`ExactModel`)."""
        return ExactModel.of(self)

    def to_json(self) -> dict[str, Any]:
        """The file form read back by :func:`model_from_json` (a :meth:`single` one: the older)."""
        if self == ClaimsModel.single(self.levels[0].false_rate, self.fitted):
            return {"fitted": self.fitted, "false_rate": self.levels[0].to_json()["false_rate"]}
        data: dict[str, Any] = {
            "fitted": self.fitted,
            "levels": {level.name: level.to_json() for level in self.levels},
        }
        if self.concentration is not None:
            data["concentration"] = self.concentration
        return data


#: The sum over levels of one hidden state: per claimer, their role and how many of their
#: claims have each outcome (:data:`OUTCOMES`).
Signature = tuple[tuple[str, tuple[int, ...]], ...]


@dataclass(frozen=True)
class ExactModel:
    """A model's chances and prior as integers over common denominators, for exact sums.

    The chance of a claim's outcome (:data:`OUTCOMES`) by a player of a
    level and role is ``chances[level][role][outcome] / unit`` (the exact
    fraction of :meth:`Level.chance`). The chance that the ``n``-th claimer
    (from 0) is at level ``l``, the earlier ones' levels counted in
    ``counts``, is ``step(counts, l) / below(n)``: independent levels,
    ``W_l / T``, the prior weights as integers ``W_l`` of sum ``T``;
    exchangeable ones of concentration ``a / d``,
    ``(a · W_l + counts_l · T · d) / (T · (a + n · d))``, which is
    ``(A · prior_l + counts_l) / (A + n)``. Neither denominator depends on
    the hidden state, so the sums over the levels are integers
    (:meth:`sum_levels`), and :meth:`scale` turns them into chances.
    """

    chances: tuple[Mapping[str, tuple[int, ...]], ...]
    unit: int
    weights: tuple[int, ...]
    concentration: Fraction | None

    @classmethod
    def of(cls, model: ClaimsModel) -> ExactModel:
        """The integers of ``model``'s floats."""
        chance = Level.chance if model.per_suspect else Level.truth
        rows = [
            {role: [chance(level, role, *outcome) for outcome in OUTCOMES] for role in ROLES}
            for level in model.levels
        ]
        unit = math.lcm(*(c.denominator for row in rows for cs in row.values() for c in cs))
        priors = [Fraction(level.prior) for level in model.levels]
        common = math.lcm(*(p.denominator for p in priors))
        concentration = None if model.concentration is None else Fraction(model.concentration)
        return cls(
            tuple(
                {role: tuple(int(c * unit) for c in cs) for role, cs in row.items()} for row in rows
            ),
            unit,
            tuple(int(p * common) for p in priors),
            concentration,
        )

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
        return Fraction(1, self.unit**claims * below)

    def sum_levels(self, signature: Signature, first: int | None = None) -> int:
        """``Σ_levels prior(levels) · P(claims | levels)`` for one state's claimers, scaled.

        ``first`` fixes the first claimer's level (the others summed out): the
        joint of that level and the claims. A dynamic programme over the
        claimers, whose states are the counts of each level so far.
        """
        sums = {(0,) * len(self.weights): 1}
        for index, (role, outcomes) in enumerate(signature):
            levels = range(len(self.weights)) if index or first is None else (first,)
            chances = [
                (level, math.prod(c**n for c, n in zip(self.chances[level][role], outcomes)))
                for level in levels
            ]
            after: dict[tuple[int, ...], int] = {}
            for counts, value in sums.items():
                for level, chance in chances:
                    key = (*counts[:level], counts[level] + 1, *counts[level + 1 :])
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


def signature(
    made: Sequence[Claim], claimers: Sequence[str], hidden: Hidden, rector: str
) -> Signature:
    """Per claimer (in order), their role in ``hidden`` and how many claims of each outcome."""
    seen = Counter((c.player, c.innocent, c.is_true(hidden.pair)) for c in made)
    return tuple(
        (
            role_of(p, hidden.possessed, rector),
            tuple(seen[p, innocent, true] for innocent, true in OUTCOMES),
        )
        for p in claimers
    )


def likelihoods(
    model: ClaimsModel,
    made: Sequence[Claim],
    states: Iterable[Hidden],
    rector: str,
    levels: bool = True,
    suspects: int = SUSPECTS,
) -> Likelihoods:
    """The claims' likelihood in each state, levels summed out; ``levels``: their joint too.

    States whose claimers have the same roles and as many claims of each
    outcome share one sum (it depends on nothing else). The levels are
    exchangeable under either prior, so a player's joint puts them first. A
    :attr:`~ClaimsModel.per_suspect` model divides each claim's chance by
    how many of the ``suspects`` its outcome allows (see the module
    docstring): times ``2 (suspects - 2)`` to stay in integers, so by ``2``
    or by ``suspects - 2``, the same for every level.
    """
    exact = model.exact
    claimers = tuple(dict.fromkeys(c.player for c in made))
    several = levels and len(exact.weights) > 1
    named = (2, suspects - 2, suspects - 2, 2) if model.per_suspect else (1,) * len(OUTCOMES)
    chance: dict[Hidden, int] = {}
    joint: dict[Hidden, dict[str, tuple[int, ...]]] = {}
    seen: dict[Signature, tuple[int, dict[str, tuple[int, ...]]]] = {}
    for hidden in states:
        key = signature(made, claimers, hidden, rector)
        if key not in seen:
            factor = math.prod(w**n for _, outcomes in key for w, n in zip(named, outcomes))
            per = (
                {
                    player: tuple(
                        factor * exact.sum_levels((key[i], *key[:i], *key[i + 1 :]), level)
                        for level in range(len(exact.weights))
                    )
                    for i, player in enumerate(claimers)
                }
                if several
                else {}
            )
            total = sum(per[claimers[0]]) if per else factor * exact.sum_levels(key)
            seen[key] = (total, per)
        chance[hidden], joint[hidden] = seen[key]
    scale = exact.scale(len(made), len(claimers)) / math.prod(named[:2]) ** len(made)
    return Likelihoods(chance, joint if several else {}, scale)


def likelihood(
    model: ClaimsModel, made: Sequence[Claim], hidden: Hidden, rector: str, suspects: int = SUSPECTS
) -> Fraction:
    """``P(claims | hidden)`` with the levels summed out."""
    found = likelihoods(model, made, (hidden,), rector, levels=False, suspects=suspects)
    return found.chance[hidden] * found.scale


def model_from_json(raw: Any, path: str) -> ClaimsModel:
    """A model from its JSON form; any problem is a one-line ``LogError`` naming ``path``."""
    return parse_data(_parse, raw, path)


def _rates(raw: Any, where: tuple[str, ...], key: str = "false_rate") -> dict[str, float]:
    """A rates object (``key``): exactly the roles, each rate strictly between 0 and 1."""
    if not isinstance(raw, dict) or sorted(raw) != sorted(ROLES):
        raise Invalid(where, f"{key!r} must be an object with exactly the keys {', '.join(ROLES)}")
    for role in ROLES:
        value = raw[role]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
            raise Invalid(
                (*where, role),
                f"{key} {role} must be a number strictly between 0 and 1, not {value!r}",
            )
    return {role: float(raw[role]) for role in ROLES}


def _positive(value: Any, what: str, where: tuple[str, ...]) -> float:
    """A positive finite number, else :class:`Invalid` at ``where``."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 < value < float("inf")
    ):
        raise Invalid(where, f"{what} must be a positive number, not {value!r}")
    return float(value)


def _level(name: str, raw: Any) -> Level:
    """One level of a claims file."""
    where = ("levels", name)
    if not isinstance(raw, dict):
        raise Invalid(where, f"level {name!r} must be an object with {', '.join(LEVEL_KEYS)}")
    for key in raw:
        if key not in LEVEL_KEYS:
            raise Invalid(
                where, f"unknown key {key!r} in level {name!r} (expected: {', '.join(LEVEL_KEYS)})"
            )
    words = raw.get("words", "")
    if not isinstance(words, str):
        raise Invalid(where, f"level {name!r}: 'words' must be a string")
    prior = _positive(raw.get("prior", 1), f"level {name!r}: 'prior'", where)
    false_rate = _rates(raw.get("false_rate"), (*where, "false_rate"))
    optional = {key: _rates(raw[key], (*where, key), key) for key in RATE_KEYS[1:] if key in raw}
    return Level(name, false_rate, prior, words, **optional)


def _parse(raw: Any) -> ClaimsModel:
    """A model from its JSON form; a problem is :class:`Invalid`, with where it is."""
    if not isinstance(raw, dict):
        raise Invalid((), "claims file must be an object")
    old = "false_rate" in raw
    keys = OLD_KEYS if old else FILE_KEYS
    for key in raw:
        if key not in keys:
            raise Invalid((), f"unknown key {key!r} in claims file (expected: {', '.join(keys)})")
    fitted = raw.get("fitted", "")
    if not isinstance(fitted, str):
        raise Invalid(("fitted",), "'fitted' must be a string")
    if old:
        return ClaimsModel.single(_rates(raw["false_rate"], ("false_rate",)), fitted)
    levels = raw.get("levels")
    if not isinstance(levels, dict) or not levels:
        raise Invalid(
            ("levels",) if "levels" in raw else (),
            "'levels' must be an object of at least one level",
        )
    concentration = raw.get("concentration")
    if concentration is not None:
        concentration = _positive(concentration, "'concentration'", ("concentration",))
    return ClaimsModel(
        tuple(_level(name, value) for name, value in levels.items()), concentration, fitted
    )


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


def _outcomes(samples: Iterable[Sample]) -> tuple[int, Counter[tuple[str, bool, bool]]]:
    """How many games, and how many claims of each (true role, innocent, true)."""
    seen: Counter[tuple[str, bool, bool]] = Counter()
    games = 0
    for games, sample in enumerate(samples, 1):
        for claim in sample.claims:
            role = sample.roles.get(claim.player)
            if role not in ROLES:
                raise DeduceError(
                    f"sample {games}: the true role of {claim.player} is "
                    f"{role!r}, not one of {', '.join(ROLES)}"
                )
            seen[role, claim.innocent, claim.is_true(sample.pair)] += 1
    return games, seen


def _count(
    seen: Counter[tuple[str, bool, bool]],
    role: str,
    innocent: bool | None = None,
    true: bool | None = None,
) -> int:
    """How many claims of ``role`` (of that kind, of that truth value: None for any)."""
    return sum(
        n
        for (r, i, t), n in seen.items()
        if r == role and innocent in (None, i) and true in (None, t)
    )


def _share(hits: int, total: int) -> float:
    """A share with add-one smoothing (see the module docstring)."""
    return (hits + 1) / (total + 2)


def fit(samples: Iterable[Sample]) -> ClaimsModel:
    """Per role, the smoothed share of false claims (see the module docstring): one level."""
    games, seen = _outcomes(samples)
    rates = {r: _share(_count(seen, r, true=False), _count(seen, r)) for r in ROLES}
    counts = ", ".join(f"{_count(seen, role)} by the {role}" for role in ROLES)
    note = (
        f"fitted on {games} games ({counts}): share of false claims per role with add-one smoothing"
    )
    return ClaimsModel.single(rates, note)


def fit_level(
    samples: Iterable[Sample], name: str, words: str = "", prior: float = 1.0
) -> tuple[Level, str]:
    """One level fitted per role and kind of claim, and a note of what it was fitted on.

    Per role, the smoothed shares (see the module docstring) of claims of
    guilt (``guilty_rate``), of false claims of innocence (``false_rate``)
    and of false claims of guilt (``guilty_false_rate``).
    """
    games, seen = _outcomes(samples)

    def count(role: str, innocent: bool | None = None, true: bool | None = None) -> int:
        return _count(seen, role, innocent, true)

    level = Level(
        name,
        {r: _share(count(r, True, False), count(r, True)) for r in ROLES},
        prior,
        words,
        {r: _share(count(r, False), count(r)) for r in ROLES},
        {r: _share(count(r, False, False), count(r, False)) for r in ROLES},
    )
    counts = ", ".join(f"{count(r)} by the {r} ({count(r, False)} of guilt)" for r in ROLES)
    return level, (
        f"level {name!r} fitted on {games} games ({counts}): per role, shares of "
        "claims of guilt and of false claims of each kind, with add-one smoothing"
    )
