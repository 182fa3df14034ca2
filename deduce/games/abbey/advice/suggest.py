"""``suggest`` for the Abbey: the moves ranked by what they teach, and the accusation.

Every question and card-moving room is ranked by the information its answer
brings about the culprit: exact values from :mod:`~deduce.games.abbey.advice.exact`
within the time budget, else the estimate of
:mod:`~deduce.games.abbey.advice.advisor`. The accusation is the most
probable suspect, its chance, the expected points (+4 right, -2 wrong:
``6p - 2``) and whether to accuse now.
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

from deduce.errors import InconsistentLog
from deduce.games.abbey.advice.advisor import ACCUSE_POINTS, Advice, Option, analyse
from deduce.games.abbey.advice.exact import exact_advice
from deduce.games.abbey.solver.timeline import PILE, build_timeline
from deduce.games.protocol import SolveOptions, Suggestion
from deduce.logs.model import GameLog
from deduce.logs.vocabulary.abbey import setup_from_header
from deduce.report import Table, percent, plural

#: Markov-chain draws behind an Abbey estimate.
DRAWS = 400


def suggest(log: GameLog, options: SolveOptions, top: int) -> Suggestion:
    """Ranked options (exact within ``options.budget``) and the accusation.

    Raises :class:`InconsistentLog` when no history fits the log.
    """
    setup = setup_from_header(log.header, log.path, options.deck)
    pile = build_timeline(setup, log.events, log.path).sizes[-1][PILE]
    deadline = None if options.budget is None else perf_counter() + options.budget
    advice = exact_advice(log, options.deck, deadline)
    if advice is None or not pile:
        found = analyse(log, DRAWS, options.seed, show_me=not pile, deck=options.deck)
        if found.advice is None:
            raise InconsistentLog(f"{log.path}: no history fits the log")
        estimate = found.advice
        if advice is None:
            advice = estimate
        else:  # the exact values, plus the parlor's "show me", estimated
            shown = [o for o in estimate.options if o.kind == "show_me"]
            ranked = sorted((*advice.options, *shown), key=lambda o: -o.gain)
            advice = Advice(advice.culprit, advice.entropy, tuple(ranked), advice.traits)
    return Suggestion(_json(advice, pile), _tables(advice, pile, top))


def _accusation(advice: Advice, pile: int) -> dict[str, Any]:
    """The best accusation: suspect, chance, expected points, and whether to make it now."""
    card, p = advice.suspect
    points = 6 * p - 2
    return {"card": card, "probability": p, "expected_points": points,
            "allowed": not pile, "advised": not pile and (p == 1 or points >= ACCUSE_POINTS)}


def _json(advice: Advice, pile: int) -> dict[str, Any]:
    return {"game": "abbey", "entropy": advice.entropy,
            "exact": all(o.exact for o in advice.options),
            "options": [{"kind": o.kind, "target": o.target, "detail": list(o.detail),
                         "bits": o.gain, "exact": o.exact} for o in advice.options],
            "accusation": _accusation(advice, pile)}


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
        return (f"{option.target}'s cell, or a confessional {option.target} left last",
                f"take a random card from {option.target}")
    return "parlor", "draw the top card of the pile"


def _tables(advice: Advice, pile: int, top: int) -> list[Table]:
    accusation = _accusation(advice, pile)
    if not accusation["allowed"]:
        verdict = f"not allowed yet: {plural(pile, 'card')} left in the pile"
    else:
        verdict = "accuse now" if accusation["advised"] else "not yet"
    accuse = Table("Accusation", ["suspect", "chance", "expected points", "advice"],
                   [[accusation["card"], percent(accusation["probability"]),
                     f"{accusation['expected_points']:+.2f}", verdict]])
    rows = [[i, *describe_option(o), f"{o.gain:.3f}", "exact" if o.exact else "estimated"]
            for i, o in enumerate(advice.options[:top], 1)]
    title = (f"Best moves (culprit uncertainty {advice.entropy:.2f} bits; value: expected "
             "bits learnt about the culprit)")
    return [accuse, Table(title, ["rank", "where", "what", "bits", "value"], rows)]
