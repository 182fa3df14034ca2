"""Post-game analysis of one player's log: the game's main question, event by event.

``deduce analyze`` solves every prefix of a log (the header alone, then the
log after each event) with :func:`~deduce.solving.solve_log` and reads the
game's main question off :func:`~deduce.solving.outlook`: the Abbey's
culprit, the Rose's joint colouring of the other players, the Black Rose's
accomplice pair. From that timeline it reports:

- **the answer**, in this order of preference: the simulator's truth file;
  what the log itself reveals (Abbey: a ``culprit`` event or a correct
  accusation; Rose: an ``identity`` of every other player; Black Rose: a
  correct accusation); the only answer the last consistent position leaves;
  else that position's main answer (the most probable; the Rose's day-7 guess),
  which is then not known for sure;
- **the certainty line**: the first position after which the hard facts
  leave that answer alone;
- **the lead**: how many events after that position the accusation came
  (Abbey and Black Rose: the first correct accusation; Rose: the first
  day-7 ``guess``). Logs have no turn markers, so it is counted in events;
- **the most informative events**: the largest drops of the entropy;
- **what the others could know** (the Abbey): for each other player, the
  first position at which some history of the log has them sure of the
  answer (:func:`others_sure`), beside the observer's own certainty line.

Candidates and certainty come from the hard facts alone. The Abbey has no
soft evidence; a Rose or Black Rose position whose solve weighed soft events
is solved a second time with ``hard``, so that a soft model can never make
an answer look certain. The candidate sets are always exact (the Abbey's
come from its SAT closure); only probabilities may be estimated, under a
time budget.

Once a prefix is inconsistent every longer one is too (no history agrees
with a subset of the events, so none agrees with all of them): later
prefixes are marked inconsistent without being solved again.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import pairwise
from time import perf_counter
from typing import Any

from deduce.data.located import Invalid, load_data
from deduce.errors import DeduceError
from deduce.logs.io import write_bytes_atomic
from deduce.logs.model import GameLog
from deduce.logs.text import show_event
from deduce.registry import game
from deduce.report import Table, estimated, percent, plural
from deduce.solving import Outlook, Solution, SolveOptions, outlook, solve_log

#: Entropy drops smaller than this are rounding, not information.
NOISE = 1e-9
#: How each source of the answer reads in reports.
#: ``{pick}`` is the game's main answer in words (:attr:`deduce.games.protocol.Game.pick`).
SOURCES = {
    "truth": "from the truth file",
    "log": "revealed by the log",
    "certain": "the only answer the log leaves",
    "likely": "{pick} at the end: not known for sure",
    "tied": "tied for {pick} at the end: not known",
    "rough": "{pick} by an estimate too wide to trust: not known",
}


@dataclass(frozen=True)
class Position:
    """The main question after the first ``seen`` events of a log.

    ``outlook``: the probabilities (with the soft evidence unless ``hard``).
    ``possible``: the answers the hard facts allow (empty: inconsistent).
    ``conflict``: lines that cannot all hold, for a prefix that was solved
    and found inconsistent.
    """

    seen: int
    outlook: Outlook
    possible: frozenset[str]
    conflict: tuple[int, ...] = ()


@dataclass(frozen=True)
class Answer:
    """The answer the timeline is measured against and where it comes from.

    ``source``: one of :data:`SOURCES`; ``line``: the line that reveals it
    (source ``log``).
    """

    value: str
    source: str
    line: int | None = None
    tied: int = 1
    pick: str = "the most probable"

    @property
    def known(self) -> bool:
        """Whether the answer is known for sure (not just the most probable one)."""
        return self.source not in ("likely", "tied", "rough")

    def describe(self) -> str:
        """Where the answer comes from, in words."""
        where = f" at line {self.line}" if self.line is not None else ""
        tie = f", one of {self.tied} answers" if self.source == "tied" else ""
        return f"{SOURCES[self.source].format(pick=self.pick)}{where}{tie}"


@dataclass(frozen=True)
class Row:
    """One line of the timeline: the position after the first ``seen`` events.

    ``event`` is the event as written in the line syntax (None for the
    header alone); ``bits``: the entropy before the event minus after it
    (None when either position is inconsistent, or for the header).
    """

    seen: int
    line: int
    event: str | None
    consistent: bool
    candidates: int
    probability: float | None
    entropy: float | None
    exact: bool
    bits: float | None
    error: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object (``error``: an estimate's bound, only when estimated)."""
        out = {
            "line": self.line,
            "event": self.event,
            "consistent": self.consistent,
            "candidates": self.candidates,
            "probability": self.probability,
            "entropy": self.entropy,
            "bits": self.bits,
            "exact": self.exact,
        }
        if not self.exact:
            out["error"] = round(self.error, 6)
        return out


@dataclass(frozen=True)
class Analysis:
    """The timeline of a log and what it says about the game."""

    game: str
    question: str
    path: str
    answer: Answer
    rows: tuple[Row, ...]
    certain: Row | None
    accusation: Row | None
    inconsistent: Row | None
    conflict: tuple[int, ...]
    top: tuple[Row, ...]
    #: Each other player's first position at which they could be sure (None: none found);
    #: empty when the game does not say.
    others: dict[str, Row | None] = field(default_factory=dict)

    @property
    def estimated(self) -> int:
        """How many consistent positions have estimated probabilities."""
        return sum(r.consistent and not r.exact for r in self.rows)

    @property
    def lead(self) -> int | None:
        """Events from the certainty line to the accusation (negative: it came first)."""
        if self.certain is None or self.accusation is None:
            return None
        return self.accusation.seen - self.certain.seen

    def to_json(self) -> dict[str, Any]:
        """The summary and the timeline as one JSON object."""
        return {
            "game": self.game,
            "log": self.path,
            "question": self.question,
            "answer": {
                "value": self.answer.value,
                "known": self.answer.known,
                "source": self.answer.source,
                "line": self.answer.line,
            },
            "certain": _mark(self.certain),
            "accusation": _mark(self.accusation),
            "lead_events": self.lead,
            "inconsistent": None
            if self.inconsistent is None
            else {"line": self.inconsistent.line, "conflict": list(self.conflict)},
            "estimated": self.estimated,
            "top": [{"line": r.line, "event": r.event, "bits": r.bits} for r in self.top],
            "others_sure": {p: _mark(r) for p, r in self.others.items()},
            "timeline": [r.to_json() for r in self.rows],
        }


def _mark(row: Row | None) -> dict[str, Any] | None:
    """A timeline position named in the summary: its line and event."""
    return None if row is None else {"line": row.line, "event": row.event}


def prefix(log: GameLog, seen: int) -> GameLog:
    """``log`` cut after its first ``seen`` events (same header and path)."""
    return replace(log, events=log.events[:seen])


def solve_prefixes(log: GameLog, options: SolveOptions | None = None) -> Iterator[Position]:
    """Each position of ``log``, from the header alone to the whole log, solved with ``options``.

    ``options.budget`` (Abbey) is the time for the whole replay: each
    position gets an equal share of what is left, so the time a position
    does not need goes to the later, harder ones.
    """
    options = options or SolveOptions()
    before: Position | None = None
    warm = game(log.header.game).warm()
    positions = len(log.events) + 1
    deadline = None if options.budget is None else perf_counter() + options.budget
    for seen in range(positions):
        if before is not None and not before.outlook.consistent:
            yield Position(seen, before.outlook, frozenset())
            continue
        part = prefix(log, seen)
        share = (
            options
            if deadline is None
            else replace(options, budget=max(0.0, deadline - perf_counter()) / (positions - seen))
        )
        solution = solve_log(part, share, warm)
        view = outlook(solution)
        before = Position(
            seen,
            view,
            _hard_answers(solution, view, part, options),
            () if view.consistent else tuple(solution.conflict),
        )
        yield before


def _hard_answers(
    solution: Solution, view: Outlook, log: GameLog, options: SolveOptions
) -> frozenset[str]:
    """The answers the hard facts allow: ``view``'s own unless the solve weighed soft events."""
    if not game(log.header.game).weighed(solution):
        return frozenset(view.answers)
    return frozenset(outlook(solve_log(log, replace(options, hard=True))).answers)


def revealed_answer(log: GameLog) -> Answer | None:
    """The answer the log itself reveals, with the line that reveals it, if any."""
    found = game(log.header.game).revealed(log)
    return None if found is None else Answer(found.value, "log", found.line)


def choose_answer(log: GameLog, positions: Sequence[Position], truth: str | None) -> Answer:
    """The answer to measure against: the truth, the log's, or the last consistent position's."""
    if truth is not None:
        if truth not in positions[0].possible:
            raise DeduceError(
                f"{log.path}: the truth file's answer {truth!r} is not a possible "
                f"answer of this game"
            )
        return Answer(truth, "truth")
    revealed = revealed_answer(log)
    if revealed is not None:
        return revealed
    last = next(p for p in reversed(positions) if p.outlook.consistent)
    if len(last.possible) == 1:
        return Answer(next(iter(last.possible)), "certain")
    view = last.outlook
    if not view.usable:
        return Answer(str(view.best), "rough", pick=view.pick)
    if len(view.leaders) > 1:
        return Answer(view.leaders[0], "tied", tied=len(view.leaders), pick=view.pick)
    return Answer(str(view.best), "likely", pick=view.pick)


def timeline_rows(log: GameLog, positions: Sequence[Position], answer: str) -> tuple[Row, ...]:
    """One row per position: candidates, the answer's probability, entropy, bits gained."""
    rows: list[Row] = []
    before: float | None = None
    for position in positions:
        view = position.outlook
        entropy = view.entropy if view.consistent else None
        bits = None if entropy is None or before is None else before - entropy
        event = log.events[position.seen - 1] if position.seen else None
        rows.append(
            Row(
                position.seen,
                log.header.line if event is None else event.line,
                None if event is None else show_event(event, log.header.game),
                view.consistent,
                len(position.possible),
                view.probability(answer) if view.consistent else None,
                entropy,
                view.exact,
                bits,
                view.error,
            )
        )
        before = entropy
    return tuple(rows)


def most_informative(rows: Sequence[Row], top: int) -> tuple[Row, ...]:
    """The ``top`` events with the largest entropy drops (ties: earliest).

    Only positive drops between two exact positions count: an estimate's
    entropy moves with the sampling noise.
    """
    gains = [
        r
        for before, r in pairwise(rows)
        if before.exact and r.exact and r.bits is not None and r.bits > NOISE
    ]
    return tuple(sorted(gains, key=lambda r: -(r.bits or 0.0))[:top])


def others_sure(log: GameLog, options: SolveOptions | None = None) -> dict[str, int | None]:
    """For each other player, the first prefix (events seen) whose histories may have them sure.

    Prefix by prefix, the game's :meth:`~deduce.games.protocol.Game.could_be_sure`
    until every other player is found, or a prefix without a history; None
    for a player never found. Empty when the game does not say.
    """
    owner, options = game(log.header.game), options or SolveOptions()
    if not owner.knows_others:
        return {}
    first: dict[str, int | None] = {p: None for p in log.header.players if p != log.header.me}
    for seen in range(len(log.events) + 1):
        found = owner.could_be_sure(prefix(log, seen), options)
        if not found:
            break
        for player, sure in found.items():
            if sure and first[player] is None:
                first[player] = seen
        if all(at is not None for at in first.values()):
            break
    return first


def analyze(
    log: GameLog,
    positions: Sequence[Position],
    truth: str | None = None,
    top: int = 5,
    others: Mapping[str, int | None] | None = None,
) -> Analysis:
    """The analysis of ``log`` from its solved ``positions`` (see :func:`solve_prefixes`).

    ``truth``: the answer from a truth file (see :func:`load_truth`);
    ``others``: :func:`others_sure` of the log.
    """
    if len(positions) != len(log.events) + 1:
        raise ValueError("one position per prefix of the log is needed")
    owner = game(log.header.game)
    answer = choose_answer(log, positions, truth)
    rows = timeline_rows(log, positions, answer.value)
    certain = next((r for r, p in zip(rows, positions) if p.possible == {answer.value}), None)
    accused = next((i for i, e in enumerate(log.events, 1) if owner.is_accusation(e)), None)
    broken = next((p for p in positions if not p.outlook.consistent), None)
    return Analysis(
        owner.name,
        positions[0].outlook.question,
        log.path,
        answer,
        rows,
        certain,
        None if accused is None else rows[accused],
        None if broken is None else rows[broken.seen],
        () if broken is None else broken.conflict,
        most_informative(rows, top),
        {p: None if seen is None else rows[seen] for p, seen in (others or {}).items()},
    )


def load_truth(path: str, log: GameLog) -> str:
    """The answer in a simulator's ``truth.json`` for ``log``'s game, as an outlook answer."""
    return load_data(partial(_truth_answer, log), path, "truth file")


def _truth_answer(log: GameLog, raw: Any) -> str:
    """The answer in parsed truth data (see :func:`load_truth`); problems raise ``Invalid``."""
    name = log.header.game
    if not isinstance(raw, dict) or raw.get("game") != name:
        raise Invalid((), f'"game" is not {name!r}, the log\'s game')
    return game(name).truth_answer(log, raw)


def lead_text(analysis: Analysis) -> str:
    """How long before the accusation the answer was certain, in words."""
    target = game(analysis.game).accusation
    if analysis.accusation is None:
        return f"no {target.removeprefix('the first ')} in the log"
    if analysis.certain is None:
        return "the answer was never certain"
    lead = analysis.lead or 0
    if lead > 0:
        return (
            f"certain {plural(lead, 'event')} before {target} (counted in events: "
            "logs have no turns)"
        )
    if lead == 0:
        return f"certain only at {target} itself"
    return f"certain only {plural(-lead, 'event')} after {target}"


def _where(row: Row | None, never: str) -> str:
    """A timeline position for people: ``line 12: show bob to ana aymeric``."""
    if row is None:
        return never
    return f"line {row.line}: {row.event or '(header: no event yet)'}"


def summary_table(analysis: Analysis) -> Table:
    """The answer, the certainty line, the accusation, the lead and any inconsistency."""
    rows = [
        [analysis.question, f"{analysis.answer.value} ({analysis.answer.describe()})"],
        ["certain from", _where(analysis.certain, "never")],
        [
            "accusation",
            _where(analysis.accusation, "none in the log")
            + (f" ({game(analysis.game).accusation})" if analysis.accusation else ""),
        ],
        ["lead", lead_text(analysis)],
    ]
    rows += [
        [f"{player} could be sure from", _where(row, "never, in the histories tried")]
        for player, row in analysis.others.items()
    ]
    if analysis.inconsistent is not None:
        lines = ", ".join(map(str, analysis.conflict))
        rows.append(
            [
                "inconsistent from",
                f"line {analysis.inconsistent.line} (these lines cannot all be true: {lines})",
            ]
        )
    if analysis.estimated:
        rows.append(
            [
                "estimated",
                f"probabilities at {analysis.estimated} of "
                f"{len(analysis.rows)} positions (past the time budget); their entropy "
                "drops are sampling noise, left out of the ranking",
            ]
        )
    return Table(f"Analysis of {analysis.path} ({analysis.game})", ["", ""], rows)


def _number(value: float | None, signed: bool = False) -> str:
    """A bits value for people (blank when undefined)."""
    if value is None:
        return ""
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def top_table(analysis: Analysis) -> Table:
    """The most informative events, largest entropy drop first."""
    rows = [[i, r.line, r.event, _number(r.bits)] for i, r in enumerate(analysis.top, 1)]
    return Table(
        f"Most informative events (entropy drop about the {analysis.question}, in bits)",
        ["rank", "line", "event", "bits"],
        rows,
    )


def _status(row: Row) -> str:
    """A timeline row's status: exact, estimated or inconsistent."""
    if not row.consistent:
        return "inconsistent"
    return "exact" if row.exact else "estimated"


def _candidates(row: Row) -> str:
    """A row's candidate count; blank when inconsistent."""
    return str(row.candidates) if row.consistent else ""


def _chance(row: Row) -> str:
    """A row's P(answer), blank when inconsistent.

    Exact as it is; an estimate never 0% or 100%, and ``?`` when too wide.
    """
    if row.probability is None:
        return ""
    if row.exact:
        return percent(row.probability) or "0%"
    return estimated(row.probability, row.error)


def timeline_table(analysis: Analysis) -> Table:
    """The timeline: each position's candidates, P(answer), entropy and bits gained."""
    rows = [
        [
            r.line,
            r.event or "(header)",
            _candidates(r),
            _chance(r),
            _number(r.entropy),
            _number(r.bits, signed=True),
            _status(r),
        ]
        for r in analysis.rows
    ]
    return Table(
        f"Timeline (after each event; P(answer): chance of {analysis.answer.value}; "
        "bits: entropy before minus after)",
        ["line", "event", "candidates", "P(answer)", "entropy", "bits", "status"],
        rows,
    )


def analysis_tables(analysis: Analysis) -> list[Table]:
    """The tables ``deduce analyze`` prints: summary, most informative events, timeline (last)."""
    return [summary_table(analysis), top_table(analysis), timeline_table(analysis)]


def plot_backend() -> tuple[Any, Any]:
    """The ``Figure`` class and Agg canvas of matplotlib; a one-line error when it is missing."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise DeduceError("plotting needs matplotlib: pip install 'deduce[plot]'") from None
    return Figure, FigureCanvasAgg


def plot_timeline(analysis: Analysis, path: str) -> None:
    """Draw candidates, P(answer) and entropy against the line number to a PNG, atomically.

    Estimated probabilities and entropies are crossed; vertical lines mark
    the certainty line, the accusation and the first inconsistent line.
    """
    figure_class, canvas_class = plot_backend()
    figure = figure_class(figsize=(9, 7), layout="constrained")
    canvas_class(figure)
    rows = analysis.rows
    lines = [r.line for r in rows]
    series: tuple[tuple[str, list[float | None], bool], ...] = (
        ("candidates", [r.candidates if r.consistent else None for r in rows], False),
        ("P(answer)", [r.probability for r in rows], True),
        ("entropy (bits)", [r.entropy for r in rows], True),
    )
    axes: Sequence[Any] = figure.subplots(len(series), 1, sharex=True)
    for i, (axis, (label, values, estimable)) in enumerate(zip(axes, series)):
        points = [math.nan if v is None else v for v in values]
        axis.step(lines, points, where="post", marker=".")
        crosses = [(x, y) for x, y, r in zip(lines, points, rows) if estimable and not r.exact]
        if crosses:
            axis.plot(*zip(*crosses), "x", color="tab:orange", label="estimated")
        _mark_lines(axis, analysis, labelled=i == 0)
        axis.set_ylabel(label)
        if axis.get_legend_handles_labels()[0]:
            axis.legend(loc="upper right", fontsize="small")
    axes[0].set_yscale("log")
    axes[0].yaxis.set_major_formatter(_plain_ticks())
    axes[0].yaxis.set_minor_formatter(_plain_ticks())
    axes[-1].set_xlabel("log line")
    answer = analysis.answer
    figure.suptitle(
        f"{analysis.path}: the {analysis.question} "
        f"({answer.value}{'' if answer.known else f', {answer.pick}: not known'})"
    )
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    write_bytes_atomic(path, buffer.getvalue(), "plot")


def _plain_ticks() -> Any:
    """Candidate counts as plain numbers (``20``, ``6``), not ``2×10¹``."""
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda value, _: f"{value:g}")


def _mark_lines(axis: Any, analysis: Analysis, labelled: bool) -> None:
    """Vertical lines at the certainty line, the accusation and the first inconsistent line."""
    marks = (
        (analysis.certain, "certain", "tab:green", "--"),
        (analysis.accusation, game(analysis.game).accusation, "tab:red", ":"),
        (analysis.inconsistent, "inconsistent", "tab:grey", "-."),
    )
    for row, name, colour, style in marks:
        if row is not None:
            axis.axvline(row.line, color=colour, linestyle=style, label=name if labelled else None)
