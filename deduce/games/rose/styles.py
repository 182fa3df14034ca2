"""How each Rose player plays, as a latent style summed out of the posterior.

People play the Name of the Rose in their own ways: one helps their own monk
whenever they can, another moves pawns with no regard for colours, a third
promotes another monk to hide their own. A single behaviour model fitted to
one way of playing misleads about the others, so each player other than the
observer gets a *style*, a hidden variable beside their colour.

The styles
----------
Every ``points`` event is a choice of a *kind* ``k`` (its cause and sign:
see :mod:`deduce.games.rose.behaviour`) and of a *monk* ``m``. A player who
plays *for* a colour ``x`` makes it with chance

    P_x(k, m) = share[k] · e^(θ_k · [m == x]) / (e^θ_k + 5):

``share[k]`` is how often the player's choices are of kind ``k``, and the
monk is picked with weight ``e^θ_k`` for ``x`` against 1 for each other
colour. Players who hide their colour play for a *decoy* ``d`` now and
then: a colour they are not, chosen uniformly among the other five at the
start and kept for the game. A player of colour ``c`` who plays for the
decoy with chance ``b`` at each choice makes their choices with chance

    P_b(events | c) = 1/5 · Σ_{d ≠ c} Π_events ((1 - b) · P_c(k, m) + b · P_d(k, m)).

The styles are four ways of playing:

- ``own`` (plays for its own colour): ``P_b`` with the fitted bluff rate
  ``b`` (the way the fitted players play: mostly for their colour);
- ``indifferent`` (no sign of its colour): ``P(k, m | c) = share[k] · 1/6``,
  the same whatever the colour, so its choices say nothing about who it is
  (how often it makes each kind of choice, its own ``share``, still says
  how it plays);
- ``bluffs`` (bluffs half the time): ``P_b`` with ``b = 1/2``, promoting the
  decoy as often as its own colour; its colour and its decoy read alike;
- ``contrarian`` (plays for another colour): ``P_b`` with ``b = 1``, always
  for the decoy. Nothing in one player's choices tells it from an ``own``
  player of the decoy's colour; only the hard events (a revealed decoy) and
  the table's other players do, so its share stays near the prior's unless
  they speak.

``own``, ``bluffs`` and ``contrarian`` share ``θ`` and the shares; only the
bluff rate differs. A player's events are independent given their colour,
style, decoy and, per choice, whether it was made for the decoy.

The prior over styles
---------------------
Players at one table tend to play alike (a table of beginners, of bluffers),
but not always. The styles of the ``n`` players other than the observer get
an exchangeable prior, the Dirichlet-multinomial with weights ``α``: a style
vector ``σ`` with ``n_s`` players of style ``s`` has prior

    P(σ) = Γ(A) / Γ(A + n) · Π_s Γ(α_s + n_s) / Γ(α_s),     A = Σ_s α_s,

the chance of ``σ`` when a table's shares of styles are drawn from a
Dirichlet(α) and then each player's style from those shares. With a small
``A`` the players' styles are strongly tied: a table's first random player
makes the others more likely random too. The observer's own choices are
left out: their colour is known, and how they play says nothing about the
others.

The posterior
-------------
Over colourings ``a`` (the consistent assignments of :mod:`deduce.games.rose.csp`,
uniform a priori) and style vectors ``σ``,

    P(a, σ | events) ∝ P(σ) · Π_players P(events of the player | a(player), σ(player)),

summed out exactly: :func:`weigh` enumerates the style vectors (4 ** 4 = 256 at
five players) against every colouring, as arrays. A colouring's weight is its
sum over ``σ``; a player's style posterior is the sum over ``a`` and over the
other players' styles. Every rate lies strictly between 0 and 1, so no
event rules a colouring out: soft events never change candidates.

Parameters
----------
:class:`StyleModel` holds the shares, ``θ`` and bluff rate of the ``own``
style, the ``indifferent`` shares and the prior weights. The bundled default
is ``deduce/data/rose-styles.json``, fitted by ``tools/rose_fit.py`` on
simulated games with the truth: ``θ`` and the bluff rate on ``monk`` bots
by expectation-maximisation over the decoys (:func:`fit_own`), the shares
counted (add-one smoothed) on ``monk`` bots for ``own`` and on ``random``
bots for ``indifferent``; the prior's weights are chosen, not fitted (see
that file's ``fitted``). No parameter is fitted to the ``bluffer`` bots.
A user's file of the same shape::

    {"fitted": "how these values were obtained",
     "prior": {"own": 0.6, "indifferent": 0.15, "bluffs": 0.2, "contrarian": 0.05},
     "own": {"share": {"william": {"help": 0.1, "harm": 0.2}, ...},
             "theta": {"william": {"help": 8.6, "harm": -0.2}, ...},
             "bluff": 0.38},
     "indifferent": {"share": {"william": {"help": 0.03, "harm": 0.03}, ...}}}

with every cause and sign given, every share strictly between 0 and 1 and
each style's shares summing to 1, every ``θ`` finite, the bluff rate in
[0, 1), and every prior weight positive.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from deduce.data import bundled_json, read_json_file
from deduce.data.located import Invalid, Where, finite_number, parse_data, parse_file
from deduce.games.rose import behaviour
from deduce.games.rose.behaviour import KINDS, SIGNS, BehaviourModel, Choice, Sample, choices
from deduce.games.rose.csp import Assignment
from deduce.logs.formats.rose import CAUSES, COLOURS

#: The styles, in the order of the solver's arrays and of the tables' columns.
STYLES: tuple[str, ...] = ("own", "honest", "bluffs", "contrarian", "indifferent")
#: Each style in words, for tables.
STYLE_WORDS: dict[str, str] = {
    "own": "plays for its colour",
    "honest": "never bluffs",
    "bluffs": "bluffs half the time",
    "contrarian": "plays for another",
    "indifferent": "no sign of colour",
}
DEFAULT_MODEL_FILE = "rose-styles.json"
#: How often each style but ``indifferent`` plays for its decoy (``own``: the fitted rate).
BLUFF_RATES: dict[str, float | None] = {
    "own": None,
    "honest": 0.0,
    "bluffs": 0.5,
    "contrarian": 1.0,
}
#: The fitted bluff rate is kept this far inside (0, 1).
BLUFF_FLOOR = 1e-6
#: The bundled prior weights α (see the module docstring): mostly own, strongly tied.
PRIOR: dict[str, float] = {
    "own": 0.25,
    "honest": 0.05,
    "bluffs": 0.1,
    "contrarian": 0.025,
    "indifferent": 0.075,
}
#: Bundled models a user may name instead of a file: ``monk``, the single-style model
#: fitted on the ``monk`` bots (the reading before styles: right for tables who play so).
NAMED: dict[str, Callable[[], StyleModel | BehaviourModel]] = {"monk": behaviour.default_model}
#: How far the shares of a style may sum away from 1.
SHARE_SLACK = 1e-6


@dataclass(frozen=True)
class StyleModel:
    """The styles' parameters and their prior weights (see the module docstring).

    ``own_share`` and ``indifferent_share``: each kind's share, in ``KINDS``
    order; ``theta``: the own style's θ, in ``KINDS`` order.
    """

    own_share: tuple[float, ...]
    theta: tuple[float, ...]
    bluff: float
    indifferent_share: tuple[float, ...]
    prior: Mapping[str, float]
    fitted: str = ""

    def to_json(self) -> dict[str, Any]:
        """The file form read back by :func:`model_from_json`."""
        return {
            "fitted": self.fitted,
            "prior": {s: float(self.prior[s]) for s in STYLES},
            "own": {
                "share": _by_kind(self.own_share),
                "theta": _by_kind(self.theta),
                "bluff": self.bluff,
            },
            "indifferent": {"share": _by_kind(self.indifferent_share)},
        }

    def log_prior(self, counts: Sequence[int]) -> float:
        """The Dirichlet-multinomial log-prior of one style vector with these counts per style."""
        alpha = [float(self.prior[s]) for s in STYLES]
        total = math.fsum(alpha)
        return (
            math.lgamma(total)
            - math.lgamma(total + sum(counts))
            + math.fsum(math.lgamma(a + n) - math.lgamma(a) for a, n in zip(alpha, counts))
        )

    def player_logs(self, made: Iterable[Choice]) -> np.ndarray:
        """Log-likelihood of one player's choices: an array [style, colour] (``COLOURS`` order)."""
        events = [(choice.kind, np.array([choice.monk == c for c in COLOURS])) for choice in made]
        others = len(COLOURS) - 1
        # chosen[e, x]: log P(choice e | the player plays for colour x)
        base = [
            math.log(self.own_share[k]) - math.log(math.exp(self.theta[k]) + others)
            for k, _ in events
        ]
        chosen = np.array([b + self.theta[k] * mine for b, (k, mine) in zip(base, events)]).reshape(
            len(events), len(COLOURS)
        )
        indifferent = math.fsum(
            math.log(self.indifferent_share[k] / len(COLOURS)) for k, _ in events
        )
        rates = {s: self.bluff if r is None else r for s, r in BLUFF_RATES.items()}
        return np.stack(
            [
                np.full(len(COLOURS), indifferent)
                if style == "indifferent"
                else _with_decoy(chosen, rates[style])
                for style in STYLES
            ]
        )


def _with_decoy(chosen: np.ndarray, bluff: float) -> np.ndarray:
    """Per colour ``c``, ``log P_bluff(choices | c)`` (see the module docstring).

    ``chosen[e, x]``: the log-chance of choice ``e`` for a player playing for ``x``.
    """
    if bluff == 0:
        return chosen.sum(axis=0)
    if bluff == 1:  # pairs[c, d]: log P(choices | colour c, decoy d)
        pairs = np.broadcast_to(chosen.sum(axis=0)[None, :], (len(COLOURS),) * 2)
    else:
        pairs = np.logaddexp(
            math.log1p(-bluff) + chosen[:, :, None], math.log(bluff) + chosen[:, None, :]
        ).sum(axis=0)
    off = ~np.eye(len(COLOURS), dtype=bool)
    return np.array([_log_mean(pairs[c][off[c]]) for c in range(len(COLOURS))])


def _by_kind(values: Sequence[float]) -> dict[str, dict[str, float]]:
    """Values in ``KINDS`` order as the file's ``{cause: {sign: value}}``."""
    return {
        cause: {sign: float(values[KINDS.index((cause, sign))]) for sign in SIGNS}
        for cause in CAUSES
    }


def _log_mean(values: np.ndarray) -> float:
    """``log(mean(exp(values)))``, without overflow."""
    top = float(values.max())
    return top + math.log(float(np.exp(values - top).mean()))


def _log_sum(values: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """``log(sum(exp(values)))`` over ``axes``, without overflow."""
    top = values.max(axis=axes, keepdims=True)
    return np.log(np.exp(values - top).sum(axis=axes)) + top.squeeze(axis=axes)


@dataclass(frozen=True)
class Weighing:
    """What the styles make of a log: each colouring's log-weight, each player's styles."""

    scores: tuple[float, ...]
    styles: dict[int, dict[str, float]]


def weigh(
    model: StyleModel,
    seats: Sequence[str],
    me: str | None,
    possible: Sequence[Assignment],
    made: Sequence[Choice],
) -> Weighing:
    """Each consistent colouring's log-weight, styles summed out, and each player's styles.

    ``seats``: the log's players; the observer ``me`` has no style (see the
    module docstring). ``styles[seat][style]`` is the posterior probability.
    """
    others = [i for i, p in enumerate(seats) if p != me]
    colour = {c: i for i, c in enumerate(COLOURS)}
    index = np.array([[colour[c] for c in a] for a in possible], dtype=np.intp)
    by_seat: dict[int, list[Choice]] = {i: [] for i in others}
    for choice in made:
        if choice.seat in by_seat:
            by_seat[choice.seat].append(choice)
    n, width = len(others), len(STYLES)
    total = np.zeros((width,) * n + (len(possible),))
    for axis, seat in enumerate(others):
        logs = model.player_logs(by_seat[seat])[:, index[:, seat]]  # [style, colouring]
        shape = [1] * n + [len(possible)]
        shape[axis] = width
        total = total + logs.reshape(shape)
    prior = np.zeros((width,) * n)
    by_counts: dict[tuple[int, ...], float] = {}  # the prior depends on the counts only
    for vector in np.ndindex(*prior.shape):
        counts = tuple(np.bincount(vector, minlength=width).tolist())
        if counts not in by_counts:
            by_counts[counts] = model.log_prior(counts)
        prior[vector] = by_counts[counts]
    total = total + prior[..., None]
    scores = _log_sum(total, tuple(range(n))) if n else total
    joint = total - float(_log_sum(scores, (0,)))
    styles = {}
    for axis, seat in enumerate(others):
        rest = tuple(i for i in range(n + 1) if i != axis)
        marginal = np.exp(_log_sum(joint, rest))
        styles[seat] = {s: float(p) for s, p in zip(STYLES, marginal / marginal.sum())}
    return Weighing(tuple(float(s) for s in scores), styles)


def _object(raw: Any, keys: Sequence[str], what: str, where: Where) -> Mapping[str, Any]:
    """An object with exactly ``keys``; anything else is :class:`Invalid`."""
    if not isinstance(raw, dict):
        raise Invalid(where, f"{what} must be an object")
    unknown = sorted(set(raw) - set(keys))
    if unknown:
        raise Invalid(where, f"unknown key {unknown[0]!r} in {what} (expected: {', '.join(keys)})")
    missing = [k for k in keys if k not in raw]
    if missing:
        raise Invalid(where, f"{what} has no {missing[0]!r}")
    return raw


def _per_kind(raw: Any, where: Where, share: bool) -> tuple[float, ...]:
    """``{cause: {sign: value}}`` in ``KINDS`` order: shares in (0, 1) summing to 1, or θ."""
    what = " ".join(map(str, where))
    table = _object(raw, CAUSES, f"{what!r}", where)
    values = []
    for cause, sign in KINDS:
        value = _object(table[cause], SIGNS, f"{what!r} {cause!r}", (*where, cause))[sign]
        ok = finite_number(value) and (0 < value < 1 if share else True)
        if not ok:
            bound = "strictly between 0 and 1" if share else "a finite number"
            raise Invalid((*where, cause), f"{what} {cause} {sign} must be {bound}, not {value!r}")
        values.append(float(value))
    if share and abs(math.fsum(values) - 1) > SHARE_SLACK:
        raise Invalid(where, f"the shares of {what!r} sum to {math.fsum(values):g}, not 1")
    return tuple(values)


def _parse(raw: Any) -> StyleModel:
    """A model from its JSON form; a problem is :class:`Invalid`, with where it is."""
    if isinstance(raw, dict) and "fitted" not in raw:
        raw = {**raw, "fitted": ""}
    top = _object(raw, ("fitted", "prior", "own", "indifferent"), "styles file", ())
    if not isinstance(top["fitted"], str):
        raise Invalid(("fitted",), "'fitted' must be a string")
    prior = _object(top["prior"], STYLES, "'prior'", ("prior",))
    for style in STYLES:
        if not finite_number(prior[style]) or prior[style] <= 0:
            raise Invalid(
                ("prior",), f"prior {style} must be a positive number, not {prior[style]!r}"
            )
    own = _object(top["own"], ("share", "theta", "bluff"), "'own'", ("own",))
    if not finite_number(own["bluff"]) or not 0 <= own["bluff"] < 1:
        raise Invalid(
            ("own", "bluff"), f"own bluff must be a number in [0, 1), not {own['bluff']!r}"
        )
    indifferent = _object(top["indifferent"], ("share",), "'indifferent'", ("indifferent",))
    return StyleModel(
        _per_kind(own["share"], ("own", "share"), True),
        _per_kind(own["theta"], ("own", "theta"), False),
        float(own["bluff"]),
        _per_kind(indifferent["share"], ("indifferent", "share"), True),
        {s: float(prior[s]) for s in STYLES},
        top["fitted"],
    )


def model_from_json(raw: Any, path: str) -> StyleModel:
    """A model from its JSON form; problems raise a one-line ``LogError`` naming ``path``."""
    return parse_data(_parse, raw, path)


def load_model_file(path: str) -> StyleModel | BehaviourModel:
    """A user's model file, or a bundled model by name (:data:`NAMED`, when no such file).

    A file with ``theta`` is a single-style file
    (:func:`deduce.games.rose.behaviour.load_model_file`), any other a
    styles file. Any problem is a one-line ``LogError`` naming the file and line.
    """
    if path in NAMED and not os.path.exists(path):
        return NAMED[path]()
    raw = read_json_file(path, "behaviour file")
    single = isinstance(raw, dict) and "theta" in raw
    parse: Callable[[Any], StyleModel | BehaviourModel] = (
        behaviour.parse_model if single else _parse
    )
    return parse_file(parse, raw, path)


@cache
def default_model() -> StyleModel:
    """The bundled model (``deduce/data/rose-styles.json``)."""
    return model_from_json(bundled_json(DEFAULT_MODEL_FILE), DEFAULT_MODEL_FILE)


def kind_shares(samples: Iterable[Sample]) -> tuple[float, ...]:
    """How often each kind of choice was made in the samples, add-one smoothed (``KINDS`` order).

    Every player's choices count; pass one log per game (the choices are
    public, so every player's log of a game holds the same ones).
    """
    counts = Counter(
        choice.kind
        for sample in samples
        for choice in choices(sample.log.header.players, sample.log.events)
    )
    total = sum(counts.values()) + len(KINDS)
    return tuple((counts[k] + 1) / total for k in range(len(KINDS)))


@dataclass(frozen=True)
class OwnFit:
    """The ``own`` style's choice parameters fitted on players of known colour."""

    theta: tuple[float, ...]
    bluff: float
    players: int
    rounds: int


def choice_counts(samples: Iterable[Sample]) -> tuple[np.ndarray, np.ndarray]:
    """Every player's choices as counts [player, colour, kind], and their true colours.

    One sample per game: every player's choices are public, so one log holds them all.
    """
    counts, truths = [], []
    for sample in samples:
        players = sample.log.header.players
        table = np.zeros((len(players), len(COLOURS), len(KINDS)))
        for choice in choices(players, sample.log.events):
            table[choice.seat, COLOURS.index(choice.monk), choice.kind] += 1
        counts.append(table)
        truths += [COLOURS.index(sample.truth[p]) for p in players]
    return np.concatenate(counts), np.array(truths, dtype=np.intp)


def fit_own(samples: Iterable[Sample], tolerance: float = 1e-9, rounds: int = 10_000) -> OwnFit:
    """The ``own`` style's θ and bluff rate, by expectation-maximisation over the decoys.

    The likelihood of the module docstring, with each player's decoy and
    each choice's target (their colour or their decoy) as the hidden
    variables: the E-step weighs them given the parameters, the M-step
    sets the bluff rate to the expected share of choices made for the decoy
    and, per kind, ``e^θ = 5 · (hits + 1) / (misses + 5)``, where *hits*
    is the expected number of choices of the target and *misses* the rest
    (one pseudo-choice per colour: a kind never seen gets ``θ = 0``). It
    stops when no parameter moves more than ``tolerance``.
    """
    return fit_counts(*choice_counts(samples), tolerance, rounds)


def fit_counts(
    counts: np.ndarray, truths: np.ndarray, tolerance: float = 1e-9, rounds: int = 10_000
) -> OwnFit:
    """:func:`fit_own` on the choices as counts [player, colour, kind] and true colours."""
    people, colours, kinds = counts.shape
    others = colours - 1
    mine = counts[np.arange(people), truths]  # [player, kind]: choices of one's colour
    off = np.ones((people, colours), dtype=bool)
    off[np.arange(people), truths] = False
    decoy = counts[off].reshape(people, others, kinds)  # [player, decoy, kind]
    total = counts.sum(axis=1)  # [player, kind]
    theta, bluff, done = np.zeros(kinds), 0.25, 0
    while done < rounds:
        done += 1
        odds = np.exp(theta)
        hit, miss = theta - np.log(odds + others), -np.log(odds + others)
        # a choice of one's colour, made for it or for the decoy; a choice of the decoy, same
        mine_for_me, mine_for_decoy = math.log1p(-bluff) + hit, math.log(bluff) + miss
        decoy_for_me, decoy_for_decoy = math.log1p(-bluff) + miss, math.log(bluff) + hit
        log_mine = np.logaddexp(mine_for_me, mine_for_decoy)
        log_decoy = np.logaddexp(decoy_for_me, decoy_for_decoy)
        neither = (total - mine)[:, None, :] - decoy  # a choice of neither: a miss either way
        per_decoy = (mine @ log_mine)[:, None] + decoy @ log_decoy + neither @ miss
        weight = np.exp(per_decoy - per_decoy.max(axis=1, keepdims=True))
        weight /= weight.sum(axis=1, keepdims=True)  # [player, decoy]: the decoy's posterior
        for_me = np.exp(mine_for_me - log_mine)
        for_decoy = np.exp(decoy_for_decoy - log_decoy)
        decoys = np.einsum("pd,pdk->pk", weight, decoy)
        hits = (mine * for_me + decoys * for_decoy).sum(axis=0)
        bluffed = (
            (mine * (1 - for_me)).sum()
            + (decoys * for_decoy).sum()
            + (total - mine - decoys).sum() * bluff
        )
        new_theta = np.log(others * (hits + 1) / (total.sum(axis=0) - hits + others))
        new_bluff = min(max(float(bluffed / max(total.sum(), 1)), BLUFF_FLOOR), 1 - BLUFF_FLOOR)
        moved = max(float(np.abs(new_theta - theta).max()), abs(new_bluff - bluff))
        theta, bluff = new_theta, new_bluff
        if moved < tolerance:
            break
    return OwnFit(tuple(float(t) for t in theta), bluff, people, done)
