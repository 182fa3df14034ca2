"""Rose results as tables: guesses, your exposure, each player's colours, or the conflict.

Also the short table ``play`` shows after every event, and a check run's summary.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from deduce.games.reliability import RELIABILITY_HEADINGS, reliability_rows
from deduce.games.rose.solve import RoseSolution
from deduce.games.rose.styles import STYLE_WORDS, STYLES
from deduce.logs.formats.rose import COLOURS
from deduce.report import Table, percent, plural, style_table

if TYPE_CHECKING:  # the check pulls in the engine and bots, which solving does not need
    from deduce.games.rose.check import CheckSummary
    from deduce.games.rose.exposure import Exposure


def _chance(solution: RoseSolution, player: str, colour: str) -> str:
    """A cell: the probability that ``player`` is ``colour`` (``0%`` when impossible)."""
    return percent(solution.probabilities[player].get(colour, Fraction(0))) or "0%"


def guess_table(solution: RoseSolution) -> Table:
    """Per player: the most probable colour, and the day-7 joint guess (all colours different).

    The title gives the day-7 guess as the main answer, as ``batch``,
    ``analyze`` and ``suggest`` show it: the expected number right, the
    chance that all are right, and how many guesses tie.
    """
    best, tied = solution.guess, solution.tied_guesses()
    joint = tied[0]
    rows = [
        [p, best[p], _chance(solution, p, best[p]), joint[p], _chance(solution, p, joint[p])]
        for p in solution.players
    ]
    expected = sum(solution.probabilities[p].get(joint[p], Fraction(0)) for p in solution.players)
    whole = solution.joint.get(tuple(joint[p] for p in solution.players), Fraction(0))
    title = (
        f"Guesses (the day-7 guess: expected right {float(expected):.2f} of "
        f"{len(solution.players)}, all right {percent(whole) or '0%'}"
    )
    if len(tied) > 1:
        title += f"; tied with {plural(len(tied) - 1, 'other guess', 'other guesses')}"
    return Table(title + ")", ["player", "most probable", "chance", "day-7 guess", "chance"], rows)


def exposure_table(exposure: Exposure) -> Table:
    """Per opponent: the chance that their day-7 guess names your colour, and what it costs you."""
    rows = [
        [p, percent(chance) or "0%", f"{float(exposure.cost(p)):.2f}"]
        for p, chance in exposure.chances.items()
    ]
    read = "" if exposure.guesser == "markers" else ", the others reading your play"
    title = (
        f"How exposed you are (you are {exposure.colour}{read}: the day-7 guesses cost you "
        f"{float(exposure.expected):.2f} clue points expected, {exposure.points} per right guess)"
    )
    return Table(title, ["opponent", f"guesses {exposure.colour}", "clue points"], rows)


def identity_table(solution: RoseSolution) -> Table:
    """Every reported player against every colour (blank: impossible)."""
    rows = [
        [p, *(percent(solution.probabilities[p].get(c, 0)) for c in COLOURS)]
        for p in solution.players
    ]
    events = solution.weighed
    title = "Who is which monk"
    if events:
        title += f" (weighing {plural(events, 'behaviour event')})"
    return Table(title, ["player", *COLOURS], rows)


def conflict_table(solution: RoseSolution) -> Table:
    """The explanation of a contradiction, one sentence per row."""
    head, *sentences = solution.explanation
    return Table(f"Inconsistent log. {head}", ["why"], [[s] for s in sentences])


def tables(solution: RoseSolution) -> list[Table]:
    """The tables printed by ``deduce solve`` for this solution (the matrix last, for ``--csv``).

    With a styles model, what the log says about how each player plays comes
    between the guesses and the matrix, and then, when the observer's colour
    is known, their exposure.
    """
    if not solution.consistent:
        return [conflict_table(solution)]
    found = [guess_table(solution)]
    if solution.styles:
        found.append(style_table(solution.styles, STYLE_WORDS))
    if solution.exposure:
        found.append(exposure_table(solution.exposure))
    return [*found, identity_table(solution)]


def compact_table(solution: RoseSolution) -> Table:
    """Each other player's possible colours, most probable first: the table ``play`` shows."""
    rows = []
    for player in solution.players:
        row = solution.probabilities[player]
        ranked = sorted(row, key=lambda c: -row[c])
        rows.append([player, "  ".join(f"{c} {percent(row[c])}" for c in ranked)])
    title = f"Colours: {plural(len(solution.joint), 'possible colouring')}"
    if solution.weighed:
        title += f" (weighing {plural(solution.weighed, 'behaviour event')})"
    return Table(title, ["player", "colours"], rows)


def check_tables(summary: CheckSummary) -> list[Table]:
    """A check run: scores per reading, then per bot, the reliability tables and any failure."""
    data = summary.to_json()

    def cells(scores: dict[str, Any]) -> list[Any]:
        return [
            scores["guesses"],
            f"{scores['brier']:.4f}",
            f"{100 * scores['accuracy']:.1f}%",
            f"{100 * scores['day7_accuracy']:.1f}%",
        ]

    headings = ["guesses", "Brier score", "most probable right", "day-7 guess right"]
    title = (
        f"{summary.games} games of {summary.players} players ({summary.seconds:.1f} s), "
        f"at the seventh day's guesses: {data['soundness_failures']} soundness failures"
    )
    found = [
        Table(
            title,
            ["reading", *headings],
            [[reading, *cells(data[reading])] for reading in ("behaviour", "hard")],
        )
    ]
    by_bot = data["behaviour"].get("by_bot", {})
    if len(by_bot) > 1:
        rows = [
            [bot, reading, *cells(data[reading]["by_bot"][bot])]
            for bot in by_bot
            for reading in ("behaviour", "hard")
        ]
        found.append(Table("Per bot of the guessed player", ["bot", "reading", *headings], rows))
    styled = {bot: t["styles"] for bot, t in by_bot.items() if "styles" in t}
    if styled:
        found.append(
            Table(
                "How the behaviour reading read each bot's players (mean style chance)",
                ["bot", *(STYLE_WORDS[s] for s in STYLES)],
                # a style's chance is never 0: a mean rounded to 0 is below 0.1%
                [
                    [bot, *(percent(row[s]) or "<0.1%" for s in STYLES)]
                    for bot, row in styled.items()
                ],
            )
        )
    found.append(
        Table(
            "Reliability of the colour chances (behaviour; each uncertain colour)",
            list(RELIABILITY_HEADINGS),
            reliability_rows(data["behaviour"]["reliability"], "colour_share"),
        )
    )
    if len(by_bot) > 1:
        found += [
            Table(
                f"Reliability of the colour chances about {bot} players (behaviour)",
                list(RELIABILITY_HEADINGS),
                reliability_rows(t["reliability"], "colour_share"),
            )
            for bot, t in by_bot.items()
        ]
    if summary.failures:
        found.append(
            Table(
                "Soundness failures (the truth eliminated)",
                ["failure"],
                [[f] for f in summary.failures[:20]],
            )
        )
    return found
