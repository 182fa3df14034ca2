"""Options shared by commands: output, where work runs, and other games' options.

Output: ``--json``, ``--csv``, ``--fmt``; where work runs: ``--workers``, ``--cluster``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from typing import Any

import click

from deduce import registry
from deduce.processes import cores
from deduce.report import Table, render, to_csv
from deduce.workers import EXTRA, Workers

from .clock import elapsed

#: The Abbey's situations, as ``suggest --situation`` and play's ``suggest`` take them.
SITUATIONS = (
    "`asked PLAYER has CARD` or `asked PLAYER count TRAIT[+TRAIT]` (answer or "
    "the vow of silence), `show PLAYER [TRAIT[+TRAIT]]` (which card to show), "
    "`mass N` (which cards to pass)"
)
#: The Rose's situations (``deduce.games.rose.situation``), in the same places.
ROSE_SITUATIONS = (
    "`reveal`, `move MONK+N [MONK-N ...]`, `william MONK [N]`, `adson MONK [N]`, "
    "`bonus`, `awkward N`, `guess`"
)

#: Every command answers ``-h`` as well as ``--help``, also when run outside the root group
#: (click keeps the first help option a command builds).
COMMAND_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


def _table_format(_ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Check ``--fmt`` against tabulate's formats (imported only when a command runs)."""
    from tabulate import tabulate_formats

    if value not in tabulate_formats:
        raise click.BadParameter(
            f"{value!r} is not one of {', '.join(map(repr, sorted(tabulate_formats)))}.",
            param=param,
        )
    return value


def read_deck(path: str | None) -> object:
    """The ``--deck`` file, read by the game that owns it (None without a file)."""
    return registry.read_log_file("deck", path) if path else None


#: Seconds ``solve`` and ``batch`` give a log's probabilities unless told otherwise.
DEFAULT_BUDGET = 5.0


def budget_options(command: Callable) -> Callable:
    """Add ``--budget`` (``DEFAULT_BUDGET`` by default), ``--exact`` and ``--seed``.

    The command gets ``budget``: the seconds, or None with ``--exact`` (no limit).
    """

    @click.option(
        "--budget",
        type=click.FloatRange(min=0),
        default=DEFAULT_BUDGET,
        show_default=True,
        metavar="SECONDS",
        help="Time for the probabilities: exact when the exact count finishes "
        "within it, else estimated with a bound (candidates stay exact); "
        "0: candidates only.",
    )
    @click.option(
        "--exact",
        is_flag=True,
        help="Wait for the exact probabilities, however long (no --budget).",
    )
    @click.option(
        "--seed",
        type=int,
        default=0,
        show_default=True,
        help="Seed of the estimate's random choices.",
    )
    @functools.wraps(command)
    def wrapper(*args: Any, budget: float, exact: bool, **kwargs: Any) -> Any:
        return command(*args, budget=None if exact else budget, **kwargs)

    return wrapper


def jobs_option(command: Callable) -> Callable:
    """Add ``--jobs`` (0, the default: every core); the command gets ``jobs``, a count."""

    @click.option(
        "--jobs",
        type=click.IntRange(min=0),
        default=0,
        show_default=True,
        metavar="N",
        help="Abbey: processes for the estimated chances' chains (0: every core), "
        "beside the exact and capped counts.",
    )
    @functools.wraps(command)
    def wrapper(*args: Any, jobs: int, **kwargs: Any) -> Any:
        return command(*args, jobs=jobs or cores(), **kwargs)

    return wrapper


#: ``--guesser``: the Rose's exposure; the command gets ``guesser``, or None.
guesser_option = click.option(
    "--guesser",
    type=click.Choice(["markers", "play"]),
    help="Rose: how the others guess your colour: from the revealed markers "
    "(the default) or from your play too (the behaviour model).",
)


#: Seconds of a command's budget kept for what its clock does not see: the
#: interpreter's start and the imports before the command line is read,
#: printing the answer and exiting.
EXIT_RESERVE = 0.18


def left_of(budget: float | None) -> float | None:
    """What is left of ``budget`` seconds counted from the command's start.

    Reading the log and ``EXIT_RESERVE`` come out of it, so that the whole
    command answers within the budget.
    """
    if budget is None:
        return None
    return max(0.0, budget - elapsed() - EXIT_RESERVE)


def output_options(command: Callable) -> Callable:
    """Add ``--json``, ``--csv`` and ``--fmt`` to a command (passed on as ``output``)."""

    @click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
    @click.option("--csv", "as_csv", is_flag=True, help="Print the main table as CSV.")
    @click.option(
        "--fmt",
        default="simple",
        show_default=True,
        metavar="FORMAT",
        callback=_table_format,
        help="Table format: any tabulate format (simple, github, grid, plain, ...).",
    )
    @functools.wraps(command)
    def wrapper(*args: Any, as_json: bool, as_csv: bool, fmt: str, **kwargs: Any) -> Any:
        if as_json and as_csv:
            raise click.UsageError("--json and --csv cannot be used together")
        output = "json" if as_json else "csv" if as_csv else fmt
        return command(*args, output=output, **kwargs)

    return wrapper


def workers_options(default: int, text: str) -> Callable[[Callable], Callable]:
    """Add ``--workers`` (``text``: its help) and ``--cluster``, passed on as one ``workers``.

    The command receives a :class:`~deduce.workers.Workers`: ``--workers``
    local processes (``default`` when not given), or the Dask cluster of
    ``--cluster``, whose own workers then run everything (so ``--workers``
    with it is refused).
    """

    def decorate(command: Callable) -> Callable:
        @click.option(
            "--workers", type=click.IntRange(min=0), default=default, show_default=True, help=text
        )
        @click.option(
            "--cluster",
            metavar="ADDRESS",
            help="Run on the Dask cluster whose scheduler is at ADDRESS "
            f"(tcp://HOST:8786) instead of local processes ({EXTRA}).",
        )
        @functools.wraps(command)
        def wrapper(*args: Any, workers: int, cluster: str | None, **kwargs: Any) -> Any:
            source = click.get_current_context().get_parameter_source("workers")
            if cluster is not None and source == click.core.ParameterSource.COMMANDLINE:
                raise click.UsageError(
                    "--workers does not apply with --cluster (the "
                    "cluster's own workers do the work)"
                )
            return command(*args, workers=Workers(workers, cluster), **kwargs)

        return wrapper

    return decorate


def emit(output: str, data: dict[str, Any], tables: Sequence[Table]) -> None:
    """Print ``data`` as JSON, the last table as CSV, or every table in a tabulate format."""
    if output == "json":
        click.echo(json.dumps(data, ensure_ascii=False))
    elif output == "csv":
        click.echo(to_csv(tables[-1]), nl=False)
    else:
        click.echo(render(tables, output))


def refuse_options(game: str, command: str) -> None:
    """Refuse, as a usage error, an option given on the command line that only other games use.

    Which game uses which of ``command``'s options comes from each game's
    :attr:`~deduce.games.protocol.Game.owned`.
    """
    owners = registry.owners(command)
    context = click.get_current_context()
    for param in context.command.params:
        users = [g for g, names in owners.items() if param.name in names]
        if (
            users
            and game not in users
            and context.get_parameter_source(param.name) == click.core.ParameterSource.COMMANDLINE
        ):
            raise click.UsageError(
                f"{param.opts[0]} does not apply to {game} (only to {' and '.join(users)})"
            )
