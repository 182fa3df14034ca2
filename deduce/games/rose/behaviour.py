"""Soft evidence in Rose logs: what a player's point choices say about their own monk.

The model
---------
Each ``points`` event is a choice by ``player`` about ``monk``. Its *kind* is
the pair (cause, sign): the cause is ``william``, ``adson``, ``move`` or
``bonus`` (see :mod:`deduce.logs.formats.rose`), and the sign is ``help`` when
``n < 0`` (the choice lowers the monk's marker on its track: fewer clue or
suspicion points are good for that monk) or ``harm`` when ``n > 0``. The track
itself does not matter. There are at most 8 kinds (4 causes x 2 signs); bonus
points are always positive, so ``bonus``/``help`` never occurs in real games.

Write ``a`` for a complete assignment (player -> colour) and
``f_k(a)`` for the number of events of kind ``k`` whose player's colour in
``a`` is the event's monk (the player chose about their own monk). The
posterior over assignments given all events is

    P(a | events) ∝ prior(a) · Π_events exp(θ[kind] · [a(player) == monk])
                  = prior(a) · exp(Σ_k θ_k · f_k(a)),

where ``prior(a)`` is the log format's prior restricted to the hard events
(uniform over the consistent assignments: see :mod:`deduce.games.rose.csp`).
So each kind of choice has one parameter ``θ_k``, the log-likelihood ratio
of that choice between "the monk is the player's own" and "it is someone
else's": ``θ > 0`` makes a player who helps (or harms) a monk more likely to
be that monk, ``θ < 0`` less likely, ``θ = 0`` ignores the kind. One way to
read it as a generative story: whatever the kind, a player picks the monk
with chance proportional to ``e^θ`` for their own colour and ``1`` for each
other colour; the normaliser ``e^θ + 5`` is the same for every assignment,
so it cancels and leaves exactly the formula above. With every ``θ = 0`` the
posterior is the hard-only one (``solve --hard``).

Parameters
----------
:class:`BehaviourModel` holds ``θ`` per kind. The bundled one
(``deduce/data/rose-behaviour.json``, the named model ``monk``: the solver's
default is the styles model of :mod:`deduce.games.rose.styles`) is read by
:func:`default_model`; a user's file of the same shape by :func:`load_model_file`::

    {"fitted": "how these values were obtained",
     "theta": {"william": {"help": 1.5, "harm": -1.0}, "adson": {...},
               "move": {...}, "bonus": {...}}}

A missing cause or sign is ``θ = 0``.

Fitting
-------
:func:`fit` maximises the conditional log-likelihood of the true identities,
``Σ_samples log P(truth | events)``, minus an L2 penalty ``(λ/2)·Σ_k θ_k²``
(default ``λ = 0.1``, i.e. a Gaussian prior of standard deviation about 3 on
each ``θ_k``; it keeps every ``θ`` finite when a kind always or never points
at the player's own monk, and a kind never seen stays at exactly 0). The
model is log-linear, so the objective is concave, with gradient
``Σ_samples (f(truth) - E_posterior[f]) - λθ`` and Hessian
``-Σ_samples Cov_posterior[f] - λI``; :func:`fit` takes Newton steps with a
backtracking line search until the largest gradient component is tiny.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from deduce.data import bundled_json
from deduce.data.located import Invalid, Where, finite_number, load_data, parse_data
from deduce.errors import DeduceError
from deduce.games.rose.csp import Assignment, assignments
from deduce.logs.formats.rose import CAUSES, COLOURS, FORMAT
from deduce.logs.model import Event, GameLog

#: The sign of a choice: ``help`` lowers the monk's track (n < 0), ``harm`` raises it.
SIGNS: tuple[str, ...] = ("help", "harm")
#: A kind of choice: (cause, sign).
Kind = tuple[str, str]
#: Every kind, in the order of feature vectors.
KINDS: tuple[Kind, ...] = tuple((cause, sign) for cause in CAUSES for sign in SIGNS)
DEFAULT_MODEL_FILE = "rose-behaviour.json"
#: Default L2 penalty λ of :func:`fit`.
L2 = 0.1
#: Largest gradient component at which :func:`fit` stops.
TOLERANCE = 1e-8
#: Newton steps before :func:`fit` gives up.
MAX_STEPS = 100
#: Armijo constant of the line search: the least share of the predicted gain to accept.
ARMIJO = 1e-4
#: Halvings of a step before the line search gives up (the optimum is then within rounding).
HALVINGS = 60


def kind_of(event: Event) -> Kind:
    """The kind of a ``points`` event: its cause and whether it helps or harms the monk."""
    return event.get("cause"), "help" if event.get("n") < 0 else "harm"


@dataclass(frozen=True)
class BehaviourModel:
    """One parameter θ per kind of choice (see the module docstring); ``fitted`` says whence."""

    theta: Mapping[Kind, float]
    fitted: str = ""

    def vector(self) -> tuple[float, ...]:
        """θ in ``KINDS`` order (a kind the mapping lacks is 0)."""
        return tuple(float(self.theta.get(kind, 0.0)) for kind in KINDS)

    def to_json(self) -> dict[str, Any]:
        """The file form read back by :func:`model_from_json`."""
        theta = {
            cause: {sign: float(self.theta.get((cause, sign), 0.0)) for sign in SIGNS}
            for cause in CAUSES
        }
        return {"fitted": self.fitted, "theta": theta}


def _entries(raw: Any, allowed: Sequence[str], what: str, where: Where) -> dict[str, Any]:
    """An object whose keys are all among ``allowed``; anything else is :class:`Invalid`."""
    if not isinstance(raw, dict):
        raise Invalid(where, f"{what} must be an object")
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        raise Invalid(
            where, f"unknown key {unknown[0]!r} in {what} (expected: {', '.join(allowed)})"
        )
    return raw


def model_from_json(raw: Any, path: str) -> BehaviourModel:
    """A model from its JSON form (see the module docstring); problems raise ``LogError``."""
    return parse_data(parse_model, raw, path)


def parse_model(raw: Any) -> BehaviourModel:
    """A model from its JSON form; a problem is :class:`Invalid`, with where it is."""
    top = _entries(raw, ("fitted", "theta"), "behaviour file", ())
    fitted = top.get("fitted", "")
    if not isinstance(fitted, str):
        raise Invalid(("fitted",), "'fitted' must be a string")
    theta: dict[Kind, float] = {}
    for cause, signs in _entries(top.get("theta", {}), CAUSES, "'theta'", ("theta",)).items():
        where: Where = ("theta", cause)
        for sign, value in _entries(signs, SIGNS, f"'theta' {cause!r}", where).items():
            if not finite_number(value):
                raise Invalid(
                    (*where, sign), f"theta {cause} {sign} must be a finite number, not {value!r}"
                )
            theta[cause, sign] = float(value)
    return BehaviourModel(theta, fitted)


@cache
def default_model() -> BehaviourModel:
    """The bundled model (``deduce/data/rose-behaviour.json``)."""
    return model_from_json(bundled_json(DEFAULT_MODEL_FILE), DEFAULT_MODEL_FILE)


def load_model_file(path: str) -> BehaviourModel:
    """A user's behaviour file; any problem is a one-line ``LogError`` naming the file."""
    return load_data(parse_model, path, "behaviour file")


class Choice(NamedTuple):
    """One soft event, ready to score: the chooser's seat, the monk, the kind's index."""

    seat: int
    monk: str
    kind: int


def choices(players: Sequence[str], events: Iterable[Event]) -> tuple[Choice, ...]:
    """The soft events of a log as choices (other events are skipped)."""
    return tuple(
        Choice(players.index(e.get("player")), e.get("monk"), KINDS.index(kind_of(e)))
        for e in events
        if e.type in FORMAT.soft_events
    )


def features(made: Iterable[Choice], assignment: Assignment) -> tuple[int, ...]:
    """``f_k(a)``: per kind, how many choices were about the chooser's own monk in ``a``."""
    counts = [0] * len(KINDS)
    for choice in made:
        if assignment[choice.seat] == choice.monk:
            counts[choice.kind] += 1
    return tuple(counts)


def score(theta: Sequence[float], feature: Sequence[int]) -> float:
    """``θ · f(a)``: the log of an assignment's soft weight."""
    return math.fsum(t * f for t, f in zip(theta, feature))


@dataclass(frozen=True)
class Sample:
    """One training log and the true colour of each of its players."""

    log: GameLog
    truth: Mapping[str, str]


@dataclass(frozen=True)
class _Statistics:
    """What fitting needs of one sample.

    ``truth``: the true assignment's features; ``support``: each distinct
    feature vector of the consistent assignments, with how many share it.
    """

    truth: tuple[int, ...]
    support: tuple[tuple[tuple[int, ...], int], ...]


def _statistics(sample: Sample) -> _Statistics:
    """Features of the truth and of the consistent assignments; a truth the log rules out fails."""
    players = sample.log.header.players
    truth = tuple(sample.truth.get(p, "") for p in players)
    possible = assignments(players, sample.log.events)
    if set(sample.truth) != set(players) or truth not in possible:
        raise DeduceError(
            f"{sample.log.path}: the true identities {dict(sample.truth)} are not "
            f"one colour of {', '.join(COLOURS)} per player that the log allows"
        )
    made = choices(players, sample.log.events)
    support = Counter(features(made, a) for a in possible)
    return _Statistics(features(made, truth), tuple(support.items()))


def _posterior(stats: _Statistics, theta: Sequence[float]) -> tuple[float, list[float]]:
    """Log-normaliser and weights of the distinct feature vectors of one sample."""
    logs = [score(theta, vector) + math.log(count) for vector, count in stats.support]
    top = max(logs)
    raw = [math.exp(v - top) for v in logs]
    total = math.fsum(raw)
    return top + math.log(total), [w / total for w in raw]


def _objective(table: Sequence[_Statistics], theta: Sequence[float], l2: float) -> float:
    """Penalised conditional log-likelihood of the truths."""
    fit = math.fsum(score(theta, s.truth) - _posterior(s, theta)[0] for s in table)
    return fit - l2 / 2 * math.fsum(t * t for t in theta)


def _derivatives(
    table: Sequence[_Statistics], theta: Sequence[float], l2: float
) -> tuple[list[float], list[list[float]]]:
    """Gradient and Hessian of :func:`_objective` at ``theta``."""
    n = len(theta)
    gradient = [-l2 * t for t in theta]
    hessian = [[-l2 * (i == j) for j in range(n)] for i in range(n)]
    for stats in table:
        _, weights = _posterior(stats, theta)
        mean = [math.fsum(w * v[k] for (v, _), w in zip(stats.support, weights)) for k in range(n)]
        for k in range(n):
            gradient[k] += stats.truth[k] - mean[k]
        for (vector, _), w in zip(stats.support, weights):
            centred = [vector[k] - mean[k] for k in range(n)]
            for i in range(n):
                for j in range(n):
                    hessian[i][j] -= w * centred[i] * centred[j]
    return gradient, hessian


def _solve_linear(matrix: Sequence[Sequence[float]], rhs: Sequence[float]) -> list[float]:
    """``x`` with ``matrix · x = rhs`` (Gaussian elimination with partial pivoting)."""
    n = len(rhs)
    rows = [[*row, b] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, n + 1):
                rows[r][c] -= factor * rows[col][c]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (rows[r][n] - math.fsum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x


def _newton_step(
    table: Sequence[_Statistics],
    theta: list[float],
    gradient: Sequence[float],
    hessian: Sequence[Sequence[float]],
    l2: float,
) -> list[float] | None:
    """θ after one Newton step with backtracking (Armijo) line search; None if none improves."""
    direction = _solve_linear([[-h for h in row] for row in hessian], gradient)
    slope = math.fsum(g * d for g, d in zip(gradient, direction))
    here = _objective(table, theta, l2)
    step = 1.0
    for _ in range(HALVINGS):
        trial = [t + step * d for t, d in zip(theta, direction)]
        if _objective(table, trial, l2) >= here + ARMIJO * step * slope:
            return trial
        step /= 2
    return None


def fit(samples: Iterable[Sample], l2: float = L2, tolerance: float = TOLERANCE) -> BehaviourModel:
    """The model maximising the penalised conditional likelihood of the samples' truths.

    ``l2`` (> 0) is the penalty λ of the module docstring; the search stops
    when every gradient component is below ``tolerance`` (or when no step
    improves the objective any more: the optimum is then within rounding).
    """
    if l2 <= 0:
        raise DeduceError(f"the L2 penalty must be positive, not {l2}")
    table = [_statistics(s) for s in samples]
    theta = [0.0] * len(KINDS)
    for _ in range(MAX_STEPS):
        gradient, hessian = _derivatives(table, theta, l2)
        if max(abs(g) for g in gradient) < tolerance:
            break
        improved = _newton_step(table, theta, gradient, hessian, l2)
        if improved is None:
            break
        theta = improved
    else:
        raise DeduceError(f"fitting did not converge in {MAX_STEPS} Newton steps")
    note = f"fitted on {len(table)} logs by maximum conditional likelihood (L2 penalty {l2:g})"
    return BehaviourModel(dict(zip(KINDS, theta)), note)
