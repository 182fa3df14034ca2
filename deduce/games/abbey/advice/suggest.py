"""``suggest`` for the Abbey: the moves ranked by what they teach, and the accusation.

Every question and card-moving room is ranked by the information its answer
brings about the culprit: exact values from :mod:`~deduce.games.abbey.advice.exact`
within their share of the time budget, else the estimate of
:mod:`~deduce.games.abbey.advice.advisor`, which has no error bound: its
values are then not shown as numbers, only the ranking, marked as rough.

The accusation comes from the solve of the position, the same one the
tables show (``play`` passes its own): the most probable suspect, its chance,
the expected points (+4 right, -2 wrong: ``6p - 2``) and whether to accuse
now. The advice never trusts more than the solve knows: on exact
probabilities it accuses when the chance reaches the rule of
:func:`~deduce.games.abbey.advice.race.worth_accusing` (or the suspect is
the only candidate); on an estimate, only when the estimate's lower bound
(chance minus the bound) reaches it; with an estimate too wide to show
(:func:`~deduce.report.usable`), never.

The race: once an accusation is allowed, what each other player knows
(:mod:`~deduce.games.abbey.solver.opponents`, in :data:`RACE_SHARE` of the
budget) gives the chance that someone is sure of the culprit now, and so
accuses before the observer's next turn: at least the lower bound (chance
minus bound) of the share of histories in which one is
(:func:`~deduce.games.abbey.advice.race.rival`). Waiting a turn is worth nothing
if someone accuses first, so the chance an accusation needs falls as that
one grows: from 80% with no rival to 50% with a surely sure one.

The revelation (+2 right, -1 wrong: ``3p - 1``) comes from the same solve:
for each trait group, the trait the culprit most probably has, its chance
(the sum over the candidates with it) and the expected points, advised
from the advised bot's chance on (:data:`~deduce.games.abbey.advice.decisions.REVEAL_AT`,
the threshold measured to win most), by the same rule. An estimated chance's bound is
the sum of the per-card bounds over the smaller side (the candidates with
the trait or those without), a safe bound whatever the errors' signs.
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

from deduce.errors import DeduceError, InconsistentLog
from deduce.games.abbey.advice.advisor import Advice, Option, estimated_advice
from deduce.games.abbey.advice.decisions import REVEAL_AT
from deduce.games.abbey.advice.exact import exact_advice
from deduce.games.abbey.advice.race import needed, opponents_table, rival, worth_accusing
from deduce.games.abbey.advice.situation import Situation, advise, parse_situation, told_by
from deduce.games.abbey.solver.opponents import Race, race, views_after
from deduce.games.abbey.solver.sat.cnf import Warm
from deduce.games.abbey.solver.solve import OPPONENTS_SECONDS, AbbeySolution, solve_position
from deduce.games.abbey.solver.timeline import PILE, AbbeyPosition
from deduce.games.protocol import SolveOptions, Suggestion
from deduce.logs.formats.abbey import (
    TRAIT_GROUPS,
    AbbeySetup,
    supplied_deck,
)
from deduce.logs.model import GameLog
from deduce.report import NO_TIME, UNKNOWN, Table, estimated, percent, plural, usable

#: The share of the budget for what the others know, once an accusation is allowed, and
#: for what a question's answer tells the asker; what a shown card tells, alone to do.
RACE_SHARE, SHOW_SHARE = 0.2, 0.8
#: Markov-chain draws behind an Abbey estimate, and the fewest once the budget is spent.
DRAWS, LEAST_DRAWS = 400, 40
#: Shares of the budget: the solve of the position (when the caller has none), and the
#: exact values (not tried when that solve's count failed: each value needs a count per
#: candidate); what is left goes to the estimate.
SOLVE_SHARE, EXACT_SHARE = 0.4, 0.9


def suggest(
    log: GameLog,
    options: SolveOptions,
    top: int,
    solution: AbbeySolution | None = None,
    situation: str | None = None,
) -> Suggestion:
    """Ranked options and the accusation, within ``options.budget`` seconds in all.

    The budget (None: no limit) is shared by the solve, the exact values and
    the estimate (:data:`SOLVE_SHARE`, :data:`EXACT_SHARE`); past it the
    estimate stops drawing once it has :data:`LEAST_DRAWS` histories.
    ``solution``: the solve of this position the caller already shows (else
    the position is solved first, within its share). ``situation``: the
    decision asked of the observer now (:mod:`situation`), advised first.
    Raises :class:`InconsistentLog` when no history fits the log.
    """
    start = perf_counter()
    decision = None
    position = AbbeyPosition.of_log(log, supplied_deck(options.deck))
    setup, timeline = position.setup, position.timeline
    if situation is not None:
        if setup.me is None:
            raise DeduceError(f"{log.path}: --situation needs a player's log, not a spectator's")
        decision = parse_situation(situation, setup)
    budget = options.budget
    solved_here = solution is None
    warm = Warm()  # the solve's SAT model, kept for the estimate's draws
    if solution is None:
        solution = solve_position(
            position,
            seed=options.seed,
            budget=None if budget is None else SOLVE_SHARE * budget,
            warm=warm,
        )
    if not solution.consistent:
        raise InconsistentLog(f"{log.path}: no history fits the log")
    if decision is not None and decision.kind != "asked":  # defence alone: no draws needed
        data, table = _situation(decision, log, position, solution, None, top, budget)
        return Suggestion({"game": "abbey", "situation": data}, [table])
    pile = timeline.sizes[-1][PILE]
    advice = None
    if len(solution.culprit) == 1:  # nothing left to learn: every value is 0, at once
        advice = exact_advice(position, None, warm.model_of(position).witness())
    elif solution.culprit_exact or not solved_here:  # a count that failed here: no use trying
        advice = exact_advice(position, None if budget is None else start + EXACT_SHARE * budget)
    if advice is None or not pile:
        estimate = estimated_advice(
            position,
            warm.model_of(position),
            DRAWS,
            options.seed,
            show_me=not pile,
            deadline=None if budget is None else (start + budget, LEAST_DRAWS),
        )
        if estimate is None:
            raise InconsistentLog(f"{log.path}: no history fits the log")
        if advice is None:
            advice = estimate
        else:  # the exact values, plus the parlor's "show me", estimated
            shown = [o for o in estimate.options if o.kind == "show_me"]
            ranked = sorted((*advice.options, *shown), key=lambda o: -o.gain)
            advice = Advice(advice.culprit, advice.entropy, tuple(ranked), advice.traits)
    views = (
        race(
            position,
            OPPONENTS_SECONDS if budget is None else RACE_SHARE * budget,
            options.seed,
            warm.model_of(position),
        )
        if not pile and len(solution.culprit) > 1
        else None
    )
    accusation = accusation_advice(solution, pile, views)
    revelations = _revelations(solution, setup)
    data = _json(advice, accusation, revelations, top)
    tables = _tables(advice, accusation, revelations, pile, top)
    if views is not None:
        tables.insert(1, opponents_table(views.views))
    if decision is not None:
        data["situation"], table = _situation(
            decision, log, position, solution, advice, top, budget
        )
        tables.insert(0, table)
    return Suggestion(data, tables)


def _situation(
    decision: Situation,
    log: GameLog,
    position: AbbeyPosition,
    solution: AbbeySolution,
    advice: Advice | None,
    top: int,
    budget: float | None,
) -> tuple[dict[str, Any], Table]:
    """The situation's advice, from the observer's hand and every holder's size now.

    A show or a question also says how sure of the culprit each choice
    leaves the asker, estimated in :data:`RACE_SHARE` of the budget (a
    show, which needs no other work: :data:`SHOW_SHARE`); ``?`` for each
    when no estimate came in time.
    """
    setup, timeline = position.setup, position.timeline
    hand = [c for c, row in solution.holders.items() if set(row) == {setup.me}]
    sizes = dict(zip(timeline.holders, timeline.sizes[-1]))
    choices = told_by(decision, setup, hand)
    share = SHOW_SHARE if decision.kind == "show" else RACE_SHARE
    seconds = OPPONENTS_SECONDS if budget is None else share * budget
    told = (
        views_after(position, decision.player, choices, perf_counter() + seconds, 0) or {}
        if choices
        else None
    )
    return advise(decision, log, setup, hand, sizes, advice, top, told)


def accusation_advice(solution: AbbeySolution, pile: int, views: Race | None) -> dict[str, Any]:
    """The best accusation by the solve, and what the advice rests on.

    The suspect, its chance, the expected points, whether to make it now,
    whether the chance is exact or an estimate (with its bound), and the
    race (module docstring): the chance that someone accuses first, at
    least, the chance the accusation needs against it, and each
    opponent's chance of being sure.
    """
    order = solution.candidates
    card = order[0]
    certain = len(order) == 1  # the only candidate: exactly 1, estimate or not
    p = 1.0 if certain else float(solution.culprit[card])
    exact = solution.culprit_exact or certain
    error = 0.0 if exact else solution.culprit_bound
    tied = [c for c in order if solution.culprit[c] == solution.culprit[card]]
    low = max(0.0, p - error)
    first = rival(views)
    supported = certain or (usable(exact, error) and worth_accusing(low, first))
    return {
        "card": card,
        "probability": p,
        "expected_points": 6 * p - 2,
        "allowed": not pile,
        "advised": not pile and supported,
        "exact": exact,
        "error": round(error, 6),
        "tied": tied,
        "first": round(first, 6),
        "needed": round(needed(first), 6),
        "opponents": {} if views is None else {p: v.to_json() for p, v in views.views.items()},
    }


def _revelations(solution: AbbeySolution, setup: AbbeySetup) -> list[dict[str, Any]]:
    """Per trait group, the culprit's most probable trait: chance, points, advice, bound.

    Most probable first (ties in group order).
    """
    rows = []
    for traits in TRAIT_GROUPS.values():
        best: dict[str, Any] | None = None
        for trait in traits:
            having = [c for c in solution.culprit if setup.deck.card(c).has_traits([trait])]
            side = min(len(having), len(solution.culprit) - len(having))
            exact = solution.culprit_exact or side == 0  # every candidate has it, or none
            # a Fraction when exact; all or nothing surely when no candidate is on one side
            p = (
                sum(solution.culprit[c] for c in having)
                if side
                else int(len(having) == len(solution.culprit))
            )
            error = 0.0 if exact else min(1.0, solution.culprit_bound * side)
            if best is None or p > best["probability"]:
                supported = usable(exact, error) and p - error >= REVEAL_AT
                best = {
                    "trait": trait,
                    "probability": float(p),
                    "expected_points": float(3 * p - 1),
                    "advised": supported,
                    "exact": exact,
                    "error": round(error, 6),
                }
        assert best is not None
        rows.append(best)
    return sorted(rows, key=lambda row: -row["probability"])


def _json(
    advice: Advice, accusation: dict[str, Any], revelations: list[dict[str, Any]], top: int
) -> dict[str, Any]:
    """The advice as JSON: the ``top`` options, as the table lists them."""
    options = advice.options[:top]
    return {
        "game": "abbey",
        "entropy": advice.entropy,
        "exact": all(o.exact for o in options),
        "options": [
            {
                "kind": o.kind,
                "target": o.target,
                "detail": list(o.detail),
                "bits": o.gain,
                "exact": o.exact,
                "error": 0.0 if o.exact else None,
            }
            for o in options
        ],
        "accusation": accusation,
        "revelation": revelations,
    }


def describe_option(option: Option) -> tuple[str, str]:
    """Where to go and what to do for an Abbey option, in words."""
    detail = "+".join(option.detail)
    if option.kind == "count":
        return f"a room where {option.target} is", f"ask {option.target}: how many {detail}?"
    if option.kind == "has":
        return f"a room where {option.target} is", f"ask {option.target}: do you have {detail}?"
    if option.kind == "show_me":
        return "parlor (pile empty)", f"ask {option.target} to show you a {detail}"
    if option.kind == "take":
        return (
            f"{option.target}'s cell, or a confessional {option.target} left last",
            f"take a random card from {option.target}",
        )
    return "parlor", "draw the top card of the pile"


def _chance(row: dict[str, Any]) -> str:
    """An accusation's or a revelation's chance as the solve knows it."""
    if row["exact"]:
        return percent(row["probability"])
    shown = estimated(row["probability"], row["error"])
    return shown if shown == UNKNOWN else f"~{shown} ±{100 * row['error']:.1f}"


def _points(row: dict[str, Any]) -> str:
    """Expected points, or ``?`` when the chance is too rough to show."""
    return f"{row['expected_points']:+.2f}" if usable(row["exact"], row["error"]) else UNKNOWN


def _verdict(row: dict[str, Any], act: str) -> str:
    """Whether to ``act`` now (accuse, reveal), and what that rests on."""
    if not usable(row["exact"], row["error"]):
        return f"not yet: {NO_TIME} (give a longer --budget)"
    basis = "exact" if row["exact"] else "on the estimate's lower bound"
    return f"{act + ' now' if row['advised'] else 'not yet'} ({basis})"


def _tables(
    advice: Advice,
    accusation: dict[str, Any],
    revelations: list[dict[str, Any]],
    pile: int,
    top: int,
) -> list[Table]:
    tied = len(accusation["tied"])
    suspect = accusation["card"] + (f" (tied with {plural(tied - 1, 'other')})" if tied > 1 else "")
    verdict = (
        _verdict(accusation, "accuse")
        if accusation["allowed"]
        else f"not allowed yet: {plural(pile, 'card')} left in the pile"
    )
    first = accusation["first"]
    accuse = Table(
        "Accusation" + (f" (someone may accuse first: {percent(first)} at least)" if first else ""),
        ["suspect", "chance", "expected points", "chance needed", "advice"],
        [
            [
                suspect,
                _chance(accusation),
                _points(accusation),
                percent(accusation["needed"]),
                verdict,
            ]
        ],
    )
    reveal = Table(
        "Revelation (the culprit's likeliest trait per group; skip one already revealed)",
        ["the culprit is", "chance", "expected points", "advice"],
        [
            [row["trait"], _chance(row), _points(row), _verdict(row, "reveal")]
            for row in revelations
        ],
    )
    exact = all(o.exact for o in advice.options[:top])
    rows = [
        [
            i,
            *describe_option(o),
            f"{o.gain:.3f}" if o.exact else UNKNOWN,
            "exact" if o.exact else "rough estimate",
        ]
        for i, o in enumerate(advice.options[:top], 1)
    ]
    if exact:
        title = (
            f"Best moves (culprit uncertainty {advice.entropy:.2f} bits; value: expected "
            "bits learnt about the culprit)"
        )
    else:
        title = (
            f"Best moves (value: expected bits learnt about the culprit; {NO_TIME} "
            "some values: ranked by a rough estimate without a bound, give a longer "
            "--budget)"
        )
    return [accuse, reveal, Table(title, ["rank", "where", "what", "bits", "value"], rows)]
