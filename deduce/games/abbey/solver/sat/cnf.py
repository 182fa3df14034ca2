"""The Abbey model in CNF, on one incremental CDCL solver (python-sat).

The same facts as :mod:`model`, read from the same per-event constraints
(:func:`~deduce.games.abbey.solver.model.event_constraints`), become clauses:

Glossary
--------
holder literal
    ``x(c, e, h)``: card ``c`` is with holder ``h`` at epoch ``e``. Exactly
    one holder literal of each card is true at each epoch.
step literal
    ``m(c, t, a, b)``: card ``c`` moves ``a -> b`` at transfer ``t``, that is
    ``x(c, t - 1, a) and x(c, t, b)``. A card either stays or moves along
    one of the transfer's edges; how many cards take each edge is public.
size
    Every holder's card count at every epoch, a cardinality constraint over
    the holder literals; with the moves it fixes the public structure.
selector
    One literal per event that states anything (observations, and the known
    cards of transfers). Its constraints hold only when it is assumed, so
    one solver answers for any subset of the log: consistency, a witness,
    the closure, and minimal conflicts by deletion.

A :class:`SatModel` grows with the log: :meth:`SatModel.extend` adds the new
epochs and the new events' clauses to the warm solver, keeping every
clause it learnt. Cardinality constraints are minicard's own (``native``)
or encoded by sequential counters (:mod:`pysat.card`); ``benchmarks/sat.py``
compares the solvers and encodings that python-sat offers.

backup
    Minicard is the fastest solver on nearly every closure query, but a few
    queries of long six-player logs take it a hundred thousand conflicts
    and many seconds, where glucose4 settles them at once. So each query of
    the closure and of the supports gets :data:`BUDGET` conflicts on the
    main solver; one it cannot settle in them goes to a second model of the
    same events on :data:`BACKUP`, built when first needed and grown with
    the log. The answers are the same either way (a holder is possible
    when some history has it); a query settled within the budget runs
    exactly as without one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from time import perf_counter

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from deduce.games.abbey.solver.model import Fact, History, Tally, event_constraints, numbered
from deduce.games.abbey.solver.timeline import CULPRIT, AbbeyPosition, Timeline
from deduce.logs.formats.abbey import AbbeySetup
from deduce.logs.model import Event

#: The CDCL solver behind every query (a python-sat solver name).
SOLVER = "minicard"
#: How cardinality constraints become clauses (a :class:`pysat.card.EncType` name).
ENCODING = "native"
#: Conflicts a query may take on the main solver before the backup settles it.
BUDGET = 500
#: Conflicts a query for another culprit than one may take before it is asked card by card.
ALONE_BUDGET = 100
#: The backup's solver and encoding (``benchmarks/sat.py``, "The backup solver").
BACKUP = ("glucose4", "seqcounter")


class SatModel:
    """A log's constraints on one incremental solver (see the module docstring)."""

    def __init__(
        self,
        setup: AbbeySetup,
        solver: str = SOLVER,
        encoding: str = ENCODING,
        budget: int | None = BUDGET,
    ) -> None:
        self.setup = setup
        self.cards = len(setup.deck)
        self.holders = 2 + len(setup.players)
        self.top = 0
        self.lits: list[list[list[int]]] = []  # lits[epoch][card][holder]
        self.steps: dict[tuple[int, int, int, int], int] = {}
        self.solver = Solver(name=solver)
        self.native = encoding == "native"
        self.encoding = EncType.seqcounter if self.native else getattr(EncType, encoding)
        self.epochs = 0
        self.events: list[Event] = []
        self.selectors: dict[int, int] = {}
        self.timeline: Timeline | None = None
        self.budget = budget
        #: The backup (see the module docstring), once a query has needed it.
        self.backup_model: SatModel | None = None

    # -- literals ---------------------------------------------------------

    def x(self, card: int, epoch: int, holder: int) -> int:
        """The holder literal ``x(card, epoch, holder)``."""
        return self.lits[epoch][card][holder]

    def fresh(self, n: int = 1) -> int:
        """The first of ``n`` new variables."""
        self.top += n
        return self.top - n + 1

    def step_literal(self, card: int, transfer: int, src: int, dst: int) -> int:
        """The step literal ``m(card, transfer, src, dst)``, defined on first use."""
        key = (card, transfer, src, dst)
        lit = self.steps.get(key)
        if lit is None:
            lit = self.steps[key] = self.fresh()
            before, after = self.x(card, transfer - 1, src), self.x(card, transfer, dst)
            self.solver.append_formula([[-lit, before], [-lit, after], [lit, -before, -after]])
        return lit

    def _test(self, card: int, test: Tally) -> int:
        """The literal of a card passing a location test."""
        if test.kind == "at":
            return self.x(card, test.time, test.holder)
        return self.step_literal(card, test.time, test.holder, test.dest)

    # -- building ---------------------------------------------------------

    def extend(self, timeline: Timeline, events: Sequence[Event]) -> None:
        """Add the epochs and events past those already encoded.

        ``events`` must start with the events already encoded (a log only
        grows); ``timeline`` is the timeline of all of them.
        """
        if not self.continued_by(self.setup, events):
            raise ValueError("a SatModel only grows: the encoded events must come first")
        self.timeline = timeline
        while self.epochs <= timeline.last_epoch:
            self._add_epoch(timeline, self.epochs)
            self.epochs += 1
        done = len(self.events)
        for event, transfer_no in list(numbered(events))[done:]:
            facts, tallies = event_constraints(self.setup, timeline, event, transfer_no)
            stated = [t for t in tallies if not t.redundant]
            if facts or stated:
                guard = self.fresh()
                self.selectors[event.line] = guard
                self._add_facts(facts, guard)
                for tally in stated:
                    self._add_tally(tally, guard)
            self.events.append(event)

    def continued_by(self, setup: AbbeySetup, events: Sequence[Event]) -> bool:
        """Whether ``events`` of a game with ``setup`` start with the events encoded."""
        done = len(self.events)
        return setup == self.setup and len(events) >= done and list(events[:done]) == self.events

    def _add_epoch(self, timeline: Timeline, epoch: int) -> None:
        """The deal, or one transfer: new holder literals only where cards may move.

        A holder that no edge of the transfer touches keeps its literals:
        a card is with it after the transfer exactly when it was before.
        Each card with a touched holder after the transfer was with that
        holder or with an edge's source before, and each card with a
        touched holder before is with it or with an edge's destination
        after; how many cards take each edge is public.
        """
        every = frozenset(range(self.cards))
        if epoch == 0:
            first = self.fresh(self.cards * self.holders)
            table = [
                [first + c * self.holders + h for h in range(self.holders)]
                for c in range(self.cards)
            ]
            self.lits.append(table)
            for row in table:
                self._exactly_one(row)
            for h, size in enumerate(timeline.sizes[0]):
                self._add_tally(Tally("at", 0, h, h, every, size, size), None)
            return
        moves = timeline.transfers[epoch - 1].moves
        touched = sorted({h for src, dst, _ in moves for h in (src, dst)})
        before = self.lits[epoch - 1]
        table = [list(row) for row in before]
        self.lits.append(table)
        for card, row in enumerate(table):
            for h in touched:
                row[h] = self.fresh()
            clauses = [[-row[a], -row[b]] for i, a in enumerate(touched) for b in touched[i + 1 :]]
            for h in touched:
                sources = [before[card][a] for a, b, _ in moves if b == h]
                targets = [row[b] for a, b, _ in moves if a == h]
                clauses.append([-row[h], before[card][h], *sources])
                clauses.append([-before[card][h], row[h], *targets])
            self.solver.append_formula(clauses)
        for src, dst, k in moves:
            self._add_tally(Tally("move", epoch, src, dst, every, k, k), None)
        for h in touched:
            size = timeline.sizes[epoch][h]
            self._add_tally(Tally("at", epoch, h, h, every, size, size), None)

    def _exactly_one(self, lits: Sequence[int]) -> None:
        """One of ``lits`` is true."""
        self.solver.add_clause(list(lits))
        self.solver.append_formula([[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]])

    def _add_facts(self, facts: Iterable[Fact], guard: int) -> None:
        """Each unary fact as a clause, under the event's selector."""
        for fact in facts:
            lit = self._test(fact.card, fact.test)
            self.solver.add_clause([-guard, lit if fact.value else -lit])

    def _add_tally(self, tally: Tally, guard: int | None) -> None:
        """``lo <= (cards passing the test) <= hi``, under ``guard`` when given.

        A lower bound is an upper bound on the failing cards: at least
        ``lo`` of ``n`` pass when at most ``n - lo`` fail.
        """
        lits = [self._test(c, tally) for c in sorted(tally.cards)]
        if tally.lo > len(lits):
            self.solver.add_clause([] if guard is None else [-guard])
            return
        if tally.lo == 1:
            self.solver.add_clause(lits if guard is None else [-guard, *lits])
        elif tally.lo > 0:
            self._at_most([-lit for lit in lits], len(lits) - tally.lo, guard)
        if tally.hi < len(lits):
            self._at_most(lits, tally.hi, guard)

    def _at_most(self, lits: list[int], k: int, guard: int | None) -> None:
        """At most ``k`` of ``lits`` are true (when ``guard`` is).

        Natively, a guarded bound counts ``len(lits) - k`` extra literals
        that the guard makes true: with the guard, at most ``k`` of ``lits``
        are left; without it, the extra literals may all be false.
        """
        if k == 0:
            self.solver.append_formula(
                [[-lit] if guard is None else [-guard, -lit] for lit in lits]
            )
        elif self.native:
            extra: list[int] = []
            if guard is not None:
                first = self.fresh(len(lits) - k)
                extra = list(range(first, first + len(lits) - k))
                self.solver.append_formula([[-guard, y] for y in extra])
            self.solver.add_atmost(lits + extra, k + len(extra))
        else:
            cnf = CardEnc.atmost(lits, k, top_id=self.top, encoding=self.encoding)
            self.top = max(self.top, cnf.nv)
            self.solver.append_formula(
                cnf.clauses if guard is None else [[-guard, *clause] for clause in cnf.clauses]
            )

    # -- queries ----------------------------------------------------------

    def assumptions(self, skip: Iterable[int] = ()) -> list[int]:
        """The selectors of every encoded event not on a ``skip`` line."""
        skipped = set(skip)
        return [s for line, s in self.selectors.items() if line not in skipped]

    def satisfiable(self, skip: Iterable[int] = (), extra: Sequence[int] = ()) -> bool:
        """Whether some history agrees with every event not on a ``skip`` line (and ``extra``)."""
        return bool(self.solver.solve(assumptions=[*self.assumptions(skip), *extra]))

    def _holders_at(self, model: list[int], epoch: int) -> list[int]:
        """Each card's holder at ``epoch`` in a solver's model."""
        return [
            next(h for h, lit in enumerate(row) if model[lit - 1] > 0) for row in self.lits[epoch]
        ]

    def witness(
        self, rng: random.Random | None = None, extra: Sequence[int] = ()
    ) -> History | None:
        """One complete history (with ``extra`` literals true), or None when there is none.

        With ``rng``, the solver's preferred polarities are drawn at random,
        for varied witnesses.
        """
        if rng is not None:
            self.solver.set_phases(
                [lit if rng.random() < 0.5 else -lit for lit in self._holder_literals()]
            )
        if not self.satisfiable(extra=extra):
            return None
        return self.history(self.solver.get_model())

    def history(self, model: list[int]) -> History:
        """The complete history a solver's model shows: each card's holder at every epoch."""
        return [
            tuple(path) for path in zip(*(self._holders_at(model, e) for e in range(self.epochs)))
        ]

    def witnesses(
        self, possible: Sequence[set[int]], count: int, rng: random.Random
    ) -> list[History]:
        """``count`` varied histories, spread over the culprit candidates of ``possible``.

        Each has random polarities and a culprit drawn in turn from the
        candidates (shuffled), so that chains started from them begin in
        different parts of the space and their spread shows slow mixing.
        """
        last = self.epochs - 1
        candidates = [c for c, row in enumerate(possible) if CULPRIT in row]
        rng.shuffle(candidates)
        found = []
        for i in range(count):
            card = candidates[i % len(candidates)]
            history = self.witness(rng=rng, extra=[self.x(card, last, CULPRIT)])
            assert history is not None, "the closure's candidates all have a history"
            found.append(history)
        return found

    def _holder_literals(self) -> list[int]:
        """Every holder literal once (epochs share the literals of untouched holders)."""
        return sorted({lit for table in self.lits for row in table for lit in row})

    def closure(self, skip: Iterable[int] = (), epoch: int | None = None) -> list[set[int]] | None:
        """Each card's possible holders at ``epoch`` (the current one by default).

        None when no history exists. Every model found marks all the (card,
        holder) pairs it shows as possible; each pair left is one solve under
        the assumption that the card is there, unless unit propagation
        already rules it out.
        """
        skipped = frozenset(skip)
        answered = self._decide(skipped)
        if answered is None:
            return None
        last = self.epochs - 1 if epoch is None else epoch
        possible: list[set[int]] = [set() for _ in range(self.cards)]
        answered._cover(possible, last)
        _, implied = self.solver.propagate(assumptions=self.assumptions(skipped))
        ruled_out = {-lit for lit in implied or () if lit < 0}
        self._prefer_unseen(possible, last)
        for card, row in enumerate(self.lits[last]):
            for holder, lit in enumerate(row):
                if holder in possible[card] or lit in ruled_out:
                    continue
                answered = self._decide(skipped, [(card, last, holder)])
                if answered is not None:
                    answered._cover(possible, last)
                    self._prefer_unseen(possible, last)
        return possible

    def _decide(
        self,
        skip: frozenset[int],
        places: Sequence[tuple[int, int, int]] = (),
        absent: Sequence[tuple[int, int, int]] = (),
        assumed: Sequence[int] | None = None,
    ) -> SatModel | None:
        """The model whose solver found a history for the events not on a ``skip`` line.

        The history has each card ``c`` with holder ``h`` at epoch ``e`` for
        every ``(c, e, h)`` of ``places``, and not for those of ``absent``.
        ``assumed``: those as this model's assumptions, when the caller has
        them already (:meth:`_assumed`). None when there is none. The main
        solver has :attr:`budget` conflicts (no limit when it is None); past
        them, the backup settles the query (the module docstring).
        """
        if assumed is None:
            assumed = self._assumed(skip, places, absent)
        if self.budget is None:
            return self if self.solver.solve(assumptions=assumed) else None
        found = self._limited(assumed, self.budget)
        if found is not None:
            return self if found else None
        backup = self.backup()
        found = backup.solver.solve(assumptions=backup._assumed(skip, places, absent))
        return backup if found else None

    def _limited(self, assumed: Sequence[int], budget: int) -> bool | None:
        """Whether the solver finds a history under ``assumed``; None past ``budget`` conflicts."""
        self.solver.conf_budget(budget)
        found: bool | None = self.solver.solve_limited(assumptions=assumed)
        return found

    def _assumed(
        self,
        skip: frozenset[int],
        places: Sequence[tuple[int, int, int]],
        absent: Sequence[tuple[int, int, int]],
    ) -> list[int]:
        """The selectors of the events not skipped; the literals of ``places``, ``absent``."""
        # epochs share the literals of untouched holders: each literal once
        literals = [*(self.x(*place) for place in places), *(-self.x(*place) for place in absent)]
        return [*self.assumptions(skip), *dict.fromkeys(literals)]

    def culprits(
        self,
        places: Sequence[tuple[int, int, int]] = (),
        absent: Sequence[tuple[int, int, int]] = (),
        among: Iterable[int] | None = None,
    ) -> list[int]:
        """The culprit candidates of the histories with ``places`` and without ``absent``.

        ``places`` and ``absent`` are (card, epoch, holder) triples; only the
        cards ``among`` (default: all) are tried, one query each. One query
        that excludes every candidate found at once can take the solver
        seconds where each card's own takes milliseconds.
        """
        last, none = self.epochs - 1, frozenset[int]()
        assumed = self._assumed(none, places, absent)  # once: a view has thousands of literals
        return [
            card
            for card in (range(self.cards) if among is None else among)
            if self._decide(
                none,
                [*places, (card, last, CULPRIT)],
                absent,
                [*assumed, self.x(card, last, CULPRIT)],
            )
            is not None
        ]

    def alone(
        self,
        culprit: int,
        places: Sequence[tuple[int, int, int]] = (),
        absent: Sequence[tuple[int, int, int]] = (),
        among: Iterable[int] | None = None,
    ) -> bool:
        """Whether ``culprit`` is the one candidate of histories with ``places``, not ``absent``.

        For a ``culprit`` that some such history has: first one query, is
        there a history with another culprit, within :data:`ALONE_BUDGET`
        conflicts (a history is usually found at once, while a proof that
        there is none can take seconds); past them, :meth:`culprits` asks
        card by card, among the cards ``among``.
        """
        last = self.epochs - 1
        assumed = self._assumed(frozenset(), places, absent)
        found = self._limited([*assumed, -self.x(culprit, last, CULPRIT)], ALONE_BUDGET)
        if found is not None:
            return not found
        return self.culprits(places, absent, among) == [culprit]

    def backup(self) -> SatModel:
        """The backup model of the same events (see the module docstring)."""
        assert self.timeline is not None
        if self.backup_model is None:
            self.backup_model = SatModel(self.setup, *BACKUP, budget=None)
        if len(self.backup_model.events) < len(self.events):
            self.backup_model.extend(self.timeline, self.events)
        return self.backup_model

    def supports(self, deadline: float | None = None) -> list[list[set[int]]] | None:
        """Each card's possible holders at every epoch, in a history of the whole log.

        ``supports[e][card]`` are the holders the card has at epoch ``e`` in
        some history that agrees with every encoded event; None when there
        is none, or when ``deadline`` (a :func:`time.perf_counter` reading)
        passes first (the counts then prune by the domains). Epochs share
        the literals of untouched holders, so each literal is decided once:
        every model found marks all the literals it makes true, at every
        epoch at once; unit propagation rules some out; each literal left
        costs one solve under the assumption that it is true, the solver
        preferring the literals no model has shown yet.
        """
        answered = self._decide(frozenset())
        if answered is None:
            return None
        places = self._places()
        pending, possible = set(places), set[int]()
        self._cover_literals(pending, possible, answered, places)
        _, implied = self.solver.propagate(assumptions=self.assumptions())
        pending.difference_update(-lit for lit in implied or () if lit < 0)
        self.solver.set_phases(sorted(pending))
        while pending:
            if deadline is not None and perf_counter() >= deadline:
                return None
            lit = min(pending)
            pending.discard(lit)
            epoch, card, holder = places[lit][0]
            answered = self._decide(frozenset(), [(card, epoch, holder)])
            if answered is not None:
                possible.add(lit)
                self._cover_literals(pending, possible, answered, places)
                self.solver.set_phases(sorted(pending))
        supports: list[list[set[int]]] = [
            [set() for _ in range(self.cards)] for _ in range(self.epochs)
        ]
        for lit in possible:
            for epoch, card, holder in places[lit]:
                supports[epoch][card].add(holder)
        return supports

    def _places(self) -> dict[int, list[tuple[int, int, int]]]:
        """Every holder literal with the (epoch, card, holder) triples it stands for."""
        places: dict[int, list[tuple[int, int, int]]] = {}
        for epoch, table in enumerate(self.lits):
            for card, row in enumerate(table):
                for holder, lit in enumerate(row):
                    places.setdefault(lit, []).append((epoch, card, holder))
        return places

    def _cover_literals(
        self,
        pending: set[int],
        possible: set[int],
        answered: SatModel,
        places: dict[int, list[tuple[int, int, int]]],
    ) -> None:
        """Move the pending literals the last model of ``answered`` makes true to ``possible``.

        ``answered`` is this model or its backup, whose literals ``places`` finds.
        """
        model = answered.solver.get_model()
        assert model is not None
        shown = set()
        for lit in pending:
            epoch, card, holder = places[lit][0]
            if model[answered.x(card, epoch, holder) - 1] > 0:
                shown.add(lit)
        pending -= shown
        possible |= shown

    def _prefer_unseen(self, possible: Sequence[set[int]], epoch: int) -> None:
        """Have the solver try first the pairs that no model has shown yet."""
        self.solver.set_phases(
            [
                lit
                for card, row in enumerate(self.lits[epoch])
                for holder, lit in enumerate(row)
                if holder not in possible[card]
            ]
        )

    def _cover(self, possible: list[set[int]], epoch: int) -> None:
        """Mark each card's holder at ``epoch`` in the last model as possible."""
        model = self.solver.get_model()
        assert model is not None
        for card, holder in enumerate(self._holders_at(model, epoch)):
            possible[card].add(holder)


def sat_model(
    position: AbbeyPosition,
    solver: str = SOLVER,
    encoding: str = ENCODING,
    budget: int | None = BUDGET,
) -> SatModel:
    """A :class:`SatModel` of a whole position."""
    sat = SatModel(position.setup, solver, encoding, budget)
    sat.extend(position.timeline, position.events)
    return sat


class Warm:
    """The SAT model of the last position solved of one log, kept for the next position.

    A log only grows during play or a replay, so the model of the position
    before is extended: its solver keeps its clauses and what it learnt.
    After an undo, or for another log, the model is built afresh.
    """

    def __init__(self) -> None:
        self.model: SatModel | None = None

    def model_of(self, position: AbbeyPosition) -> SatModel:
        """The SAT model of ``position``, grown from the last one when it encodes a prefix."""
        if self.model is not None and self.model.continued_by(position.setup, position.events):
            self.model.extend(position.timeline, position.events)
        else:
            self.model = sat_model(position)
        return self.model
