"""What the others know: each opponent's chance of being certain of the culprit now.

An opponent's *view* is what they could have written in their own log: the
public events, and what they saw themselves. The log says what every
player could see, so each history of the log fixes each opponent's view;
their chance of being certain is the share of the log's histories (under
the uniform law on consistent histories, as for the chances) in which
their view leaves one culprit candidate.

Glossary
--------
public events
    What every player logs (:func:`public_events`): answers to questions
    (``count``, ``has``, ``lacks``), accusations, the culprit's reveal,
    every transfer without its card, and a card shown when the traits
    asked for were said aloud (as those traits). The observer's own hand,
    cards and Mass passes are theirs alone; so is the card of a show they
    gave or received, of which only its traits, when some were asked for,
    are public (the log keeps the card, so such a show is left out).
sight
    What one opponent saw in one history: their own hand at every epoch
    (their deal, draws, thefts and Mass passes, and the cards taken from
    them) and every card shown to them. A show to them whose card the log
    does not name (the observer saw only the traits asked for) is one more
    hidden choice: the shower picks uniformly among their cards with those
    traits, as the engine's bots do. A show that the observer could not
    log at all (a card of the shower's choice, no traits asked) is not in
    the log, so no view holds it: the views know at most what the log says.
certain
    A view whose closure on the culprit (the SAT model of the public
    events, with the sight's holder literals assumed) has one candidate.
    The history's own culprit is one, so a single query usually settles
    it: is there a history of the view with another culprit?
silence
    The histories' law: the uniform law on the log's histories (as for
    the chances), weighed by the chance that the others have not accused
    yet (:mod:`silence`: a player whose paper sheet is down to one card
    accuses within a few questions), and by the chance of the questions
    whose asker the log tells (a paper player asks about their sheet).
    Under the uniform law alone, late six-player chances of certainty ran
    high: it keeps histories in which a player sure on paper has waited
    for many questions (``docs/opponents.md``). ``silence=False`` keeps
    the uniform law (and the chances on the way).

The histories come from the block Gibbs chains of :mod:`chains` (weighed
by Metropolis steps, :class:`~silence.Tilted`); each
chain's share of certain views is one reading, and the estimate is the
mean of the chains' readings, with Student's bound from their spread
(:func:`estimate`). When the public events alone leave one candidate,
everybody is certain, exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from time import perf_counter
from typing import Any

import numpy as np

from deduce.games.abbey.solver.chains import (
    BATCH,
    Batches,
    Chain,
    plan_chains,
    pooled,
    student,
)
from deduce.games.abbey.solver.count.estimate import Estimate
from deduce.games.abbey.solver.gibbs import Layout
from deduce.games.abbey.solver.model import Model, build_model
from deduce.games.abbey.solver.propagate import propagate
from deduce.games.abbey.solver.sat.cnf import SatModel, sat_model
from deduce.games.abbey.solver.silence import ANY, Silence, Tilted, weighable
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition
from deduce.logs.model import Event

#: Batches of moves a chain makes before its first history, and between two.
BURN_BATCHES, SPACING = 10, 10
#: The race's chains. Weighed by the silence and questions, a chain leaves its start
#: slowly, and the chains' spread is most of the error: 16 chains of 8 histories err a
#: fifth less than 8 of 16, for the same histories (``benchmarks/README.md``).
CHAINS = 16
#: Histories a chain gives, at most: the estimate stops there (or at its deadline).
MOST_SAMPLES = 8
#: The fewest histories of every chain before any estimate.
LEAST_SAMPLES = 2
#: Added to every bound (as the chances' ``chains.SLACK``).
SLACK = 0.01
#: A bound is at least the share this many histories of all would move the mean.
FLOOR_HISTORIES = 3.0
#: Varied histories tried at a position for whether an opponent could be sure there.
TRIES = 8
#: A view's candidates are counted (one query per public candidate) on every
#: this-many-th history of a chain, from its first; the others are only
#: tested for certainty (one query).
COUNT_EVERY = 4

#: Transfers and the keys of theirs that only some players see.
SEEN_KEYS = {"draw": ("card",), "take": ("card",), "mass": ("gave", "got")}


@dataclass(frozen=True)
class OpponentView:
    """One opponent's outlook, from the observer's log.

    ``certain``: the chance that their view leaves one culprit candidate
    now; ``error``: its bound (0 when exact); ``candidates``: the number of
    candidates their view leaves, on average over the histories (every
    :data:`COUNT_EVERY`-th of a chain).
    """

    certain: float
    error: float
    candidates: float

    def to_json(self) -> dict[str, float]:
        """The ``opponents`` entry of ``solve --json``."""
        return {
            "certain": round(self.certain, 6),
            "error": round(self.error, 6),
            "candidates": round(self.candidates, 6),
        }


@dataclass(frozen=True)
class Race:
    """Every opponent's view of one log (``views``: empty when no estimate came in time).

    What ``play`` computes in the background after each event, beside the
    chances: ``exact`` and ``error`` read as a solution's do, so that a
    refinement keeps the narrower estimate.
    """

    views: dict[str, OpponentView]
    consistent: bool = True
    #: The chance that at least one of them is sure, and its bound, from the same
    #: histories (None: not estimated).
    anyone: tuple[float, float] | None = None
    #: The culprit's chances the chains made on the way, under the uniform law only
    #: (every move pooled, as :func:`~chains.pooled` estimates a solve's; None: not made).
    chances: Estimate | None = None

    def to_json(self) -> dict[str, Any]:
        """``exact``, ``error`` (the widest bound; 1 without an estimate) and ``opponents``."""
        error = max((v.error for v in self.views.values()), default=1.0)
        return {
            "exact": error == 0,
            "error": error,
            "opponents": {p: v.to_json() for p, v in self.views.items()},
        }

    def warnings(self) -> list[str]:
        """One line per opponent more likely than not to be sure of the culprit.

        More likely than not even at the low end of the bound: an estimate
        of 54% within 30 points says nothing either way.
        """
        return [
            f"{player} may be able to accuse: {_chance(view)}"
            for player, view in sorted(self.views.items(), key=lambda pv: -pv[1].certain)
            if view.certain - view.error > 0.5
        ]


def _chance(view: OpponentView) -> str:
    """An opponent's chance of certainty in words: ``62%`` or ``62% ± 9.1``."""
    share = f"{100 * view.certain:.0f}%"
    return share if view.error == 0 else f"{share} ± {100 * view.error:.1f}"


def race(
    position: AbbeyPosition, seconds: float, seed: int = 0, sat: SatModel | None = None
) -> Race:
    """Every opponent's view of ``position``, estimated for at most ``seconds``.

    ``sat``: the position's SAT model, when the caller has it (else it is built).
    """
    start = perf_counter()
    models = _models(position, sat)
    if models is None:
        return Race({}, consistent=False)
    return race_of(position, *models, start + seconds, seed) or Race({})


def race_of(
    position: AbbeyPosition,
    sat: SatModel,
    possible: Sequence[set[int]],
    model: Model,
    deadline: float,
    seed: int = 0,
    most: int = MOST_SAMPLES,
    silence: bool = True,
    anything: float = ANY,
    chains: int = CHAINS,
) -> Race | None:
    """Every opponent's view (module docstring), estimated until ``deadline``, as a :class:`Race`.

    ``sat``, ``possible`` and ``model`` are the position's SAT model, its
    closure and its propagated model (as :func:`~solve.solve_position`
    has them); ``most``: the histories of a chain, at most, of ``chains``. None when the
    chains gave too few histories in time. The race also has the chance
    that at least one opponent is sure, with its bound (the share of
    histories in which one is, estimated as each opponent's is), and,
    without the silence (``silence=False``: the uniform law), the chances
    those chains made on the way, when they made enough moves for them.
    ``silence``: the histories weighed by the others' silence and
    questions (module glossary); ``anything``: the law's chance that an
    opponent's question is any question at all (:data:`~silence.ANY`; 1:
    their questions weigh nothing).
    """
    views = Views(position)
    if not views.opponents:
        return Race({})
    if views.everybody_certain():
        return Race({p: OpponentView(1.0, 0.0, 1.0) for p in views.opponents}, anyone=(1.0, 0.0))
    readers = [(views, p) for p in views.opponents]
    found = _estimates(
        sat, possible, model, readers, deadline, seed, most, silence, anything, chains
    )
    if found is None:
        return None
    estimates, anyone, chances = found
    return Race(dict(zip(views.opponents, estimates, strict=True)), anyone=anyone, chances=chances)


def _models(
    position: AbbeyPosition, sat: SatModel | None = None
) -> tuple[SatModel, list[set[int]], Model] | None:
    """The position's SAT model (``sat``, or built), its closure and its propagated model.

    None: no history.
    """
    sat = sat or sat_model(position)
    possible = sat.closure()
    model = build_model(position)
    if possible is None or not propagate(model):
        return None
    return sat, possible, model


def could_be_sure(position: AbbeyPosition, tries: int = TRIES, seed: int = 0) -> dict[str, bool]:
    """Which opponents are sure of the culprit in some history of ``position``, by trial.

    ``tries`` varied SAT witnesses, their culprits spread over the
    candidates: True is certain (that history shows it); False means that
    none of them did. Empty when the position has no history.
    """
    sat = sat_model(position)
    possible = sat.closure()
    if possible is None:
        return {}
    views = Views(position)
    if views.everybody_certain():
        return dict.fromkeys(views.opponents, True)
    rng = random.Random(seed)
    found = dict.fromkeys(views.opponents, False)
    for history in sat.witnesses(possible, tries, rng):
        paths = np.array(history, dtype=np.int8)
        for opponent, sure in found.items():
            if not sure:
                found[opponent] = views.sure(views.sight(paths, opponent, rng), paths)
    return found


def public_events(events: Iterable[Event]) -> list[Event]:
    """The events as every player logs them (module glossary: public events)."""
    found = []
    for event in events:
        if event.type == "hand":
            continue
        if event.type == "show":
            if "traits" not in event.fields:
                continue
            event = replace(event, fields={k: v for k, v in event.fields.items() if k != "card"})
        hidden = SEEN_KEYS.get(event.type, ())
        if any(k in event.fields for k in hidden):
            event = replace(
                event, fields={k: v for k, v in event.fields.items() if k not in hidden}
            )
        found.append(event)
    return found


#: A card's holder at one epoch: (card, epoch, holder).
Place = tuple[int, int, int]


@dataclass(frozen=True)
class Sight:
    """What one opponent saw in one history: where cards were.

    Where they were not follows: the SAT model tallies every holder's hand
    at every epoch, so their own cards at an epoch rule every other card
    out of their hand there (by unit propagation, more cheaply than as
    assumptions of their own).
    """

    seen: list[Place]


@dataclass(frozen=True)
class Show:
    """A card shown to an opponent: to whom, by whom, at which epoch, and what is known of it.

    ``card``: the card, when the log names it; else ``traits``, those asked for.
    """

    to: int
    by: int
    epoch: int
    card: int | None
    traits: tuple[str, ...]


class Views:
    """The opponents' views of one position, history by history.

    One SAT model of the public events serves every opponent and every
    history: a view is that model with the sight's holder literals assumed.
    """

    def __init__(self, position: AbbeyPosition) -> None:
        setup = position.setup
        self.position = position
        self.public = AbbeyPosition.of(
            replace(setup, me=None), public_events(position.events), position.path
        )
        self.sat: SatModel = sat_model(self.public)
        timeline = position.timeline
        self.holders = timeline.holders
        ids = setup.deck.ids
        index = {card: i for i, card in enumerate(ids)}
        self.opponents = tuple(p for p in setup.players if p != setup.me)
        self.traits = [setup.deck.card(card) for card in ids]
        self.shows = tuple(
            Show(
                timeline.holder(event.get("to")),
                timeline.holder(event.get("player")),
                timeline.epoch_of[event.line],
                index[event.get("card")] if "card" in event.fields else None,
                tuple(event.get("traits") or ()),
            )
            for event in position.events
            if event.type == "show" and event.get("to") in self.opponents
        )
        #: The candidates of the public events alone: every view's are among them.
        self.suspects = self.sat.culprits()

    def everybody_certain(self) -> bool:
        """Whether the public events alone leave one culprit candidate."""
        return len(self.suspects) == 1

    def sight(self, history: np.ndarray, opponent: str, rng: random.Random) -> Sight:
        """What ``opponent`` saw in ``history`` (module glossary).

        ``history`` holds each card's holder at every epoch (card, epoch).
        The opponent knows their hand at every epoch: which cards it held
        (and so, its size being public, which it did not).
        """
        me = self.holders.index(opponent)
        seen = [(int(c), int(e), me) for c, e in zip(*np.nonzero(history == me), strict=True)]
        for show in self.shows:
            if show.to != me:
                continue
            card = show.card
            if card is None:
                held = np.nonzero(history[:, show.epoch] == show.by)[0]
                card = rng.choice([int(c) for c in held if self.traits[c].has_traits(show.traits)])
            seen.append((card, show.epoch, show.by))
        return Sight(seen)

    def candidates(self, sight: Sight) -> list[int]:
        """The culprit candidates of the view with ``sight``."""
        return self.sat.culprits(sight.seen, among=self.suspects)

    def sure(self, sight: Sight, history: np.ndarray) -> bool:
        """Whether the view with ``sight``, seen in ``history``, leaves one candidate."""
        return self.sat.alone(culprit_of(history), sight.seen, among=self.suspects)


def culprit_of(history: np.ndarray) -> int:
    """The culprit of a history (each card's holder at every epoch), as a card index."""
    return int(np.nonzero(history[:, -1] == CULPRIT)[0][0])


def estimate(readings: Sequence[Sequence[float]]) -> tuple[float, float]:
    """The mean of the chains' mean readings, and its bound.

    The bound is Student's 95% half-width of the chains' spread (one degree
    of freedom less than chains), at least the share that one history of
    all would move the mean (:data:`FLOOR_HISTORIES` histories: so that
    chains that all agree still leave room), plus :data:`SLACK`, and at most 1.
    """
    means = np.array([np.mean(r) for r in readings])
    total = sum(len(r) for r in readings)
    spread = student(len(means) - 1) * np.std(means, ddof=1) / np.sqrt(len(means))
    return float(means.mean()), float(min(1.0, max(spread, FLOOR_HISTORIES / total) + SLACK))


def views_after(
    position: AbbeyPosition,
    opponent: str,
    choices: Mapping[str, Sequence[Event]],
    deadline: float,
    seed: int = 0,
) -> dict[str, OpponentView] | None:
    """``opponent``'s view after each choice's events, added to the log now.

    Each choice is what the observer would say or show (a ``show`` to the
    opponent, an answer): events true in every history of the log, so the
    same histories serve every choice. None when too few came in time.
    """
    models = _models(position)
    if models is None:
        return None
    line = max((e.line for e in position.events), default=0) + 1
    views = {
        name: Views(
            position.with_events(
                [*position.events, *(replace(e, line=line + i) for i, e in enumerate(events))]
            )
        )
        for name, events in choices.items()
    }
    readers = [(v, opponent) for v in views.values()]
    found = _estimates(*models, readers, deadline, seed)
    return None if found is None else dict(zip(views, found[0], strict=True))


#: What the chains of :func:`_estimates` give: one view per reader, the chance that some
#: reader is sure (None: too few histories read by all), and the chances on the way.
Readings = tuple[list[OpponentView], tuple[float, float] | None, Estimate | None]


def _estimates(
    sat: SatModel,
    possible: Sequence[set[int]],
    model: Model,
    readers: Sequence[tuple[Views, str]],
    deadline: float,
    seed: int,
    most: int = MOST_SAMPLES,
    silence: bool = True,
    anything: float = ANY,
    chains: int = CHAINS,
) -> Readings | None:
    """One estimate per reader (the views of a log, and the opponent whose they read), and more.

    The histories come from the chains of the position (its SAT model,
    closure and propagated model), each read by every reader in turn
    (module docstring); None when a chain gave fewer than
    :data:`LEAST_SAMPLES` in time. Besides the views, as :func:`race_of`
    says: the chance that some reader is sure (of the histories every
    reader read), and the chances on the way (None with the ``silence``,
    read from the first reader's log: the chains' law is not the solve's).
    ``silence``, ``anything`` and ``chains``: as :func:`race_of`'s.
    """
    rng = random.Random(seed)
    plan = plan_chains(Layout(model), sat, possible, seed, chains, deadline=deadline)
    position = readers[0][0].position
    law = Silence(position, anything) if silence and weighable(position) else None
    walking = [
        Chain(
            plan.start_walk(r)
            if law is None
            else Tilted(plan.start_walk(r), law, random.Random(rng.random())),
            Batches(),
        )
        for r in range(len(plan.starts))
    ]
    certain: list[list[list[float]]] = [[[] for _ in walking] for _ in readers]
    left: list[list[int]] = [[] for _ in readers]
    some: list[list[float]] = [[] for _ in walking]
    for r, history in _histories(walking, deadline, most):
        counted = len(certain[0][r]) % COUNT_EVERY == 0
        read = []
        for i, (views, opponent) in enumerate(readers):
            if perf_counter() >= deadline:
                break
            sight = views.sight(history, opponent, rng)
            sure = views.sure(sight, history)
            certain[i][r].append(float(sure))
            read.append(sure)
            if counted:
                left[i].append(1 if sure else len(views.candidates(sight)))
        if len(read) == len(readers):
            some[r].append(float(any(read)))
    if any(len(r) < LEAST_SAMPLES for readings in certain for r in readings):
        return None
    anyone = estimate(some) if all(len(r) >= LEAST_SAMPLES for r in some) else None
    chances = None if law is not None else pooled([chain.batches for chain in walking])
    found = []
    for readings, counts in zip(certain, left, strict=True):
        share, bound = estimate(readings)
        found.append(OpponentView(share, bound, float(np.mean(counts))))
    return found, anyone, chances


def _histories(
    chains: Sequence[Chain], deadline: float, most: int
) -> Iterable[tuple[int, np.ndarray]]:
    """Histories of the chains in turn, :data:`SPACING` batches apart, after their burn-in.

    ``most`` of each chain at most.
    """
    for _ in range(BURN_BATCHES):
        for chain in chains:
            if perf_counter() >= deadline:
                return
            chain.run(BATCH)
    for _ in range(most):
        for r, chain in enumerate(chains):
            for _ in range(SPACING):
                chain.run(BATCH)
            if perf_counter() >= deadline:
                return
            yield r, chain.walk.history()
