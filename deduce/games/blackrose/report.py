"""Black Rose results as tables: accomplice pairs, the Possessed, suspects, or a conflict.

Also the short tables ``play`` shows after every event, and a check run's summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from deduce.games.blackrose.advisor import EXPOSED, ClaimOption
from deduce.games.blackrose.solve import BlackRoseSolution, listing
from deduce.games.reliability import RELIABILITY_HEADINGS, reliability_rows
from deduce.report import Table, more_rows, percent, plural, style_table, tie

if TYPE_CHECKING:  # the check pulls in the engine and bots, which solving does not need
    from deduce.games.blackrose.check import CheckSummary


def _notes(solution: BlackRoseSolution) -> str:
    """The pair table's title notes: the claims weighed, and a tie for the most probable."""
    notes = [f"weighing {plural(solution.weighed, 'claim')}"] if solution.weighed else []
    notes += [tied] if (tied := tie(solution.pairs.values(), "pair")) else []
    return f" ({'; '.join(notes)})" if notes else ""


def pair_table(solution: BlackRoseSolution) -> Table:
    """The candidate pairs, most probable first."""
    title = "Accomplice pairs" + _notes(solution)
    rows = [[f"{first} + {second}", percent(p)] for (first, second), p in solution.pairs.items()]
    return Table(title, ["pair", "chance"], rows)


def suspect_table(solution: BlackRoseSolution) -> Table:
    """Every suspect's chance of being an accomplice (``0%``: proved innocent or ruled out)."""
    rows = [[s, percent(p) or "0%"] for s, p in solution.suspects.items()]
    return Table("Suspects", ["suspect", "accomplice"], rows)


def possessed_table(solution: BlackRoseSolution) -> Table:
    """Who can be the Possessed (``nobody``: the card is the hidden one)."""
    rows = [["nobody" if who is None else who, percent(p)] for who, p in solution.possessed.items()]
    return Table("The Possessed", ["player", "chance"], rows)


def suspected_table(solution: BlackRoseSolution) -> Table:
    """The Possessed's exposure: per investigator, the chance they suspect the observer most."""
    rows = [[player, percent(p) or "0%"] for player, p in solution.suspected.items()]
    return Table(
        "Who suspects you most (you are the Possessed; their Proofs averaged)",
        ["investigator", "you are their most probable Possessed"],
        rows,
    )


def table_table(solution: BlackRoseSolution) -> Table:
    """The Possessed as the table sees it: the public events alone, and who leads."""
    names = {who: "nobody" if who is None else who for who in solution.table}
    best = max(solution.table.values())
    leaders = [names[who] for who, p in solution.table.items() if p == best]
    lead = f"{leaders[0]} leads" if len(leaders) == 1 else f"{listing(leaders)} tie"
    rows = [[names[who], percent(p)] for who, p in solution.table.items()]
    return Table(
        f"What the table thinks (public events only): {lead}", ["player", "Possessed"], rows
    )


def _said(said: tuple[str, bool] | None) -> str:
    """A claim in words: ``s3 innocent``, ``s3 guilty``, or ``nothing``."""
    if said is None:
        return "nothing"
    suspect, innocent = said
    return f"{suspect} {'innocent' if innocent else 'guilty'}"


def claims_table(options: Sequence[ClaimOption]) -> Table:
    """What the Possessed may say, advised first: who would suspect them most, the vote right."""
    players = list(options[0].suspected)
    rows = [
        [
            _said(o.said),
            *(percent(o.suspected[p]) or "0%" for p in players),
            percent(o.exposure) or "0%",
            percent(o.right) or "0%",
        ]
        for o in options
    ]
    return Table(
        f"What to say (advised first: of the claims that expose you at most "
        f"{percent(EXPOSED)}, or no more than now, the most misleading)",
        ["say", *(f"{p} suspects you most" for p in players), "mean", "their vote right"],
        rows,
    )


def vote_table() -> Table:
    """The Possessed's vote: no pair (votes are secret, a vote exposes nothing)."""
    return Table(
        "Vote (secret: a vote exposes nothing)",
        ["vote", "why"],
        [["no pair", "one you cannot rule out may be right; one you can would tell them"]],
    )


def kill_table(kill: tuple[str, Fraction] | None) -> Table:
    """The Possessed's Night: the living suspect most likely an accomplice, or nobody."""
    rows = (
        [["nobody", "no living suspect can be one"]]
        if kill is None
        else [[kill[0], percent(kill[1])]]
    )
    return Table("Night: kill (your own claims left out)", ["suspect", "accomplice"], rows)


def conflict_table(solution: BlackRoseSolution) -> Table:
    """The explanation of a contradiction, one sentence per row."""
    heading, *why = solution.explanation
    return Table("Inconsistent log. " + heading, ["why"], [[sentence] for sentence in why])


def tables(solution: BlackRoseSolution) -> list[Table]:
    """The tables printed by ``deduce solve`` (the suspects last, for ``--csv``).

    After the Possessed: what the others think of the Possessed (when
    computed), then, with claims weighed by a model of several levels, how
    each claimer lies (their level posterior).
    """
    if not solution.consistent:
        return [conflict_table(solution)]
    styles = [style_table(solution.styles, solution.names)] if solution.styles else []
    views = [suspected_table(solution)] if solution.suspected else []
    views += [table_table(solution)] if solution.table else []
    return [
        pair_table(solution),
        possessed_table(solution),
        *views,
        *styles,
        suspect_table(solution),
    ]


#: Accomplice pairs shown after each event in ``play``.
TOP_PAIRS = 5


def compact_tables(solution: BlackRoseSolution) -> list[Table]:
    """The top accomplice pairs, then who can be the Possessed: the tables ``play`` shows."""
    pairs = list(solution.pairs.items())
    rows = [[f"{a} + {b}", percent(p)] for (a, b), p in pairs[:TOP_PAIRS]]
    title = f"Accomplices: {plural(len(pairs), 'possible pair')}" + _notes(solution)
    possessed = [
        ["nobody" if who is None else who, percent(p)] for who, p in solution.possessed.items()
    ]
    return [
        Table(title, ["pair", "chance"], rows + more_rows(len(rows), len(pairs), 2)),
        Table("The Possessed", ["player", "chance"], possessed),
    ]


def check_tables(summary: CheckSummary) -> list[Table]:
    """A check run: Brier scores per reading, the winning sides, then any soundness failure."""
    data = summary.to_json()
    rows = [
        [
            reading,
            data[reading]["positions"],
            f"{data[reading]['accomplices_brier']:.4f}",
            f"{data[reading]['possessed_brier']:.4f}",
            f"{100 * data[reading]['pair_accuracy']:.1f}%",
        ]
        for reading in ("claims", "hard")
    ]
    title = (
        f"{summary.games} games of {summary.players} players ({summary.seconds:.1f} s), "
        f"at every vote: {data['soundness_failures']} soundness failures"
    )
    scores = Table(
        title,
        [
            "reading",
            "positions",
            "Brier, accomplices",
            "Brier, Possessed",
            "most probable pair right",
        ],
        rows,
    )
    wins = Table(
        f"Wins (mean rounds {summary.rounds:.2f})",
        ["side", "games won"],
        [[side, f"{100 * share:.1f}%"] for side, share in data["wins"].items()],
    )
    found = [wins, scores, *reliability_tables(data["claims"]["reliability"])]
    if not summary.failures:
        return found
    return [
        *found,
        Table(
            "Soundness failures (the truth eliminated)",
            ["failure"],
            [[f] for f in summary.failures[:20]],
        ),
    ]


def reliability_tables(reliability: dict[str, Any]) -> list[Table]:
    """The claims reading's reliability tables: accomplices, the Possessed, then per bot.

    The Possessed table per bot is shown when more than one bot was guessed about.
    """
    found = [
        Table(
            "Reliability of the accomplice chances (claims; each uncertain suspect)",
            list(RELIABILITY_HEADINGS),
            reliability_rows(reliability["accomplices"], "accomplice_share"),
        ),
        Table(
            "Reliability of the Possessed chances (claims; each uncertain answer)",
            list(RELIABILITY_HEADINGS),
            reliability_rows(reliability["possessed"], "possessed_share"),
        ),
    ]
    by_bot = {bot: rows for bot, rows in reliability["possessed_by_bot"].items() if bot != "nobody"}
    if len(by_bot) > 1:
        found += [
            Table(
                f"Reliability of the Possessed chances about {bot} players (claims)",
                list(RELIABILITY_HEADINGS),
                reliability_rows(rows, "possessed_share"),
            )
            for bot, rows in by_bot.items()
        ]
    return found
