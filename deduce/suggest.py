"""What to do next, for a log of any game: ``deduce suggest`` and ``suggest`` in ``play``.

- **abbey**: every question and card-moving room ranked by the information
  its answer brings about the culprit (exact values from
  :mod:`deduce.games.abbey.advice.exact` within the time budget, else the
  estimate of :mod:`deduce.games.abbey.advice.advisor`), and the accusation:
  the most probable suspect, its chance, the expected points
  (+4 right, -2 wrong: ``6p - 2``) and whether to accuse now.
- **blackrose**: which suspect (or the Graveyard) to investigate and the
  pair to accuse (:mod:`deduce.games.blackrose.advisor`).
- **rose**: the day-7 guesses, all of different colours, maximising the
  expected number of right guesses (:meth:`RoseSolution.best_guesses`).
"""

from __future__ import annotations

from dataclasses import dataclass
from time import perf_counter
from typing import Any

from deduce.errors import InconsistentLog
from deduce.games.abbey.advice.advisor import ACCUSE_POINTS, Advice, Option, analyse
from deduce.games.abbey.advice.exact import exact_advice
from deduce.games.abbey.solver.timeline import PILE, build_timeline
from deduce.games.blackrose.advisor import advise
from deduce.games.blackrose.cards import CardData, default_cards
from deduce.games.rose.solve import RoseSolution
from deduce.logs.model import GameLog
from deduce.logs.vocabulary.abbey import setup_from_header
from deduce.report import Table, percent, plural
from deduce.solving import SolveOptions, solve_log

#: Markov-chain draws behind an Abbey estimate.
DRAWS = 400


@dataclass(frozen=True)
class Suggestion:
    """Advice as JSON-ready data and as tables for people."""

    data: dict[str, Any]
    tables: list[Table]


def suggest(log: GameLog, options: SolveOptions | None = None, top: int = 10,
            unseen: int | None = None, cards: CardData | None = None) -> Suggestion:
    """Advice for the observer of ``log``; an inconsistent log is an error.

    ``options``: the solving options (Abbey: ``budget`` is the time for exact
    values before estimating them, ``deck``, ``seed``; Rose and Black Rose:
    ``hard`` and the models). ``top``: how many Abbey options to list.
    ``unseen``/``cards``: Black Rose clue cards not yet seen by the observer
    (default: an upper bound from ``cards``, see :func:`unseen_bound`).
    """
    options = options or SolveOptions()
    if log.header.game == "abbey":
        try:
            return _abbey(log, options, top)
        except InconsistentLog:
            solution = solve_log(log, options)  # for the conflicting lines
    else:
        solution = solve_log(log, options)
    if not solution.consistent:
        raise InconsistentLog(f"{log.path}: the log is inconsistent (lines "
                              f"{', '.join(map(str, solution.conflict))}): no advice; "
                              "see deduce solve")
    if isinstance(solution, RoseSolution):
        return _rose(solution)
    count = unseen_bound(log, cards or default_cards()) if unseen is None else unseen
    return _blackrose(log, options, count)


def _abbey(log: GameLog, options: SolveOptions, top: int) -> Suggestion:
    """Ranked options (exact within the budget) and the accusation."""
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
    return Suggestion(_abbey_json(advice, pile), _abbey_tables(advice, pile, top))


def _accusation(advice: Advice, pile: int) -> dict[str, Any]:
    """The best accusation: suspect, chance, expected points, and whether to make it now."""
    card, p = advice.suspect
    points = 6 * p - 2
    return {"card": card, "probability": p, "expected_points": points,
            "allowed": not pile, "advised": not pile and (p == 1 or points >= ACCUSE_POINTS)}


def _abbey_json(advice: Advice, pile: int) -> dict[str, Any]:
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


def _abbey_tables(advice: Advice, pile: int, top: int) -> list[Table]:
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


def _rose(solution: RoseSolution) -> Suggestion:
    """The day-7 guesses and each one's chance."""
    guesses = solution.best_guesses()
    chances = {p: solution.probabilities[p].get(c, 0) for p, c in guesses.items()}
    expected = sum(chances.values())
    data = {"game": "rose", "guesses": guesses,
            "probabilities": {p: float(q) for p, q in chances.items()},
            "expected_right": float(expected)}
    rows = [[p, c, percent(chances[p]) or "0%"] for p, c in guesses.items()]
    title = f"Day-7 guesses (all different; expected right: {float(expected):.2f})"
    return Suggestion(data, [Table(title, ["player", "guess", "chance"], rows)])


def unseen_bound(log: GameLog, cards: CardData) -> int:
    """At most how many clue cards the observer has not seen.

    That is the clue cards of the game, less the two accomplices' Proofs
    (out of the deck) and the Proofs seen in the log.
    """
    proofs = {e.get("suspect") for e in log.events if e.type == "proof"}
    return max(0, len(cards.used_clues(len(log.header.players))) - 2 - len(proofs))


def _blackrose(log: GameLog, options: SolveOptions, unseen: int) -> Suggestion:
    """Where to investigate and which pair to accuse."""
    advice = advise(log, unseen, options.claims, hard=options.hard)
    piles = ["the Graveyard" if p is None else p for p in advice.piles]
    data = {"game": "blackrose", "investigate": piles, "bits": advice.draw_bits,
            "unseen": unseen, "accuse": list(advice.accuse),
            "probability": float(advice.probability), "answer_bits": advice.answer_bits}
    rows = [[p, f"{advice.draw_bits:.3f}"] for p in piles]
    title = (f"Investigate (any of these: every pile is worth the same, {unseen} clue cards "
             "unseen)")
    first, second = advice.accuse
    accuse = Table("Accusation (a wrong one costs nothing: accuse when allowed)",
                   ["pair", "chance", "answer bits"],
                   [[f"{first} + {second}", percent(advice.probability),
                     f"{advice.answer_bits:.3f}"]])
    return Suggestion(data, [Table(title, ["pile", "bits"], rows), accuse])

