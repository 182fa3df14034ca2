"""The ``deduce`` command line: output formats, exit statuses, conversion and bad input.

Most tests call the click group in-process; the bad-input tests run the real
console script, because only it turns errors into one line on stderr.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from deduce import __version__
from deduce.cli.main import cli
from deduce.errors import LogError
from deduce.logs.formats.abbey import default_deck
from deduce.logs.io import parse_log
from deduce.logs.model import GameLog
from deduce.report import percent

DEFAULT_IDS = list(default_deck().ids)

# A four-player game on the bundled deck (pile 3, hand 5) with every kind of event
# that keeps the count fast; probabilities come out uneven.
GAME4 = """\
game abbey
players ana bob cai dee
me ana

hand ana aymeric baldwin conrad dagobert eustache
show bob to ana foulques
count cai templar 0
lacks dee geoffroi
show cai to dee novice+fat
draw bob
mass 1 gave aymeric got ignatius
count bob benedictine 1
"""

CARDS6 = [
    {"id": "a1", "name": "Father A1", "traits": ["templar", "father", "hooded", "bearded", "fat"]},
    {"id": "a2", "traits": ["templar", "brother", "hooded", "shaven", "thin"]},
    {"id": "a3", "traits": ["franciscan", "novice", "bareheaded", "bearded", "fat"]},
    {"id": "a4", "traits": ["franciscan", "father", "hooded", "shaven", "thin"]},
    {"id": "a5", "traits": ["benedictine", "brother", "bareheaded", "bearded", "thin"]},
    {"id": "a6", "traits": ["benedictine", "novice", "bareheaded", "shaven", "fat"]},
]
INLINE6 = "".join(
    f"card {c['id']} {' '.join(c['traits'])} {c.get('name', c['id'])}\n" for c in CARDS6
)


def small(events: str, inline: bool = True) -> str:
    """A two-player log on a six-card deck (pile 1, hand 2): inline, or for --deck."""
    deck = INLINE6 if inline else ""
    return f"game abbey # a small game\nplayers ana bob\nme ana\n{deck}pile 1\nhand 2\n\n{events}"


# ana holds a1, a2; bob lacks a5, so a5 is the culprit or the pile card (1/2 each)
# and a3, a4, a6 are the culprit with 1/6 each.
SMALL = small("hand ana a1 a2 # dealt\nlacks bob a5\n")
# ana's hand of two cannot be joined by a third card of hers at bob's.
CONFLICT = small("hand ana a1 a2\nlacks bob a5\nhas bob a1\n")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def put(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(runner: CliRunner, *args: str, code: int = 0):
    result = runner.invoke(cli, list(args))
    assert result.exit_code == code, (result.output, result.exception)
    return result


def value(cell: str) -> float:
    """A percent cell as a number (``<0.1%`` and ``>99.9%`` as their bounds)."""
    return float(cell.strip("<>%"))


def section(text: str, title_start: str) -> list[str]:
    """The lines of the table whose title starts with ``title_start``, up to a blank line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title_start))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


# --------------------------------------------------------------------------
# solve: tables


def test_solve_prints_both_tables(tmp_path, runner):
    out = run(runner, "solve", put(tmp_path, "g.log", GAME4)).stdout
    candidates = section(out, "Culprit: ")
    holders = section(out, "Who holds each card now")
    assert candidates[0] == "Culprit: 16 candidates"
    assert candidates[1].split() == ["card", "name", "traits", "probability"]
    rows = candidates[3:]
    assert len(rows) == 16
    probabilities = [value(row.split()[-1]) for row in rows]
    assert probabilities == sorted(probabilities, reverse=True)
    assert rows[0].split()[:3] == ["geoffroi", "Novice", "Geoffroi"]
    assert holders[1].split() == ["card", "culprit", "pile", "ana", "bob", "cai", "dee"]
    assert [row.split()[0] for row in holders[3:]] == DEFAULT_IDS


def test_table_cells_are_readable_percentages(tmp_path, runner):
    out = run(runner, "solve", put(tmp_path, "g.log", SMALL)).stdout
    assert section(out, "Culprit: ")[3:] == [
        "a5      a5      benedictine brother bareheaded bearded thin  50.0%",
        "a3      a3      franciscan novice bareheaded bearded fat     16.7%",
        "a4      a4      franciscan father hooded shaven thin         16.7%",
        "a6      a6      benedictine novice bareheaded shaven fat     16.7%",
    ]
    grid = {row.split()[0]: row for row in section(out, "Who holds")[3:]}
    assert grid["a1"].split() == ["a1", "100%"]
    assert grid["a5"].split() == ["a5", "50.0%", "50.0%"]


def test_single_candidate_title(tmp_path, runner):
    out = run(runner, "solve", put(tmp_path, "g.log", small("culprit a4\n"))).stdout
    assert out.startswith("Culprit: 1 candidate\n")


def test_fmt_github(tmp_path, runner):
    out = run(runner, "solve", put(tmp_path, "g.log", SMALL), "--fmt", "github").stdout
    lines = [line for line in out.splitlines() if line.strip()]
    titles = [line for line in lines if not line.startswith("|")]
    assert titles[0] == "Culprit: 4 candidates" and titles[-1] == "Who holds each card now"
    assert titles[1].startswith("What the others know")
    assert sum(bool(re.fullmatch(r"\|[-|:]+\|", line)) for line in lines) == 3
    assert "| a5 " in out


# --------------------------------------------------------------------------
# solve: JSON and CSV


def solve_json(runner: CliRunner, path: str, *extra: str, code: int = 0) -> dict:
    return json.loads(run(runner, "solve", path, "--json", *extra, code=code).stdout)


def test_json_keys_and_types(tmp_path, runner):
    data = solve_json(runner, put(tmp_path, "g.jsonl", GAME4))
    assert list(data) == ["game", "consistent", "exact", "culprit", "holders", "opponents"]
    assert set(data["opponents"]) == {"bob", "cai", "dee"}
    for view in data["opponents"].values():
        assert list(view) == ["certain", "error", "candidates"]
        assert 0 <= view["certain"] <= 1 and 0 <= view["error"] <= 1 and view["candidates"] >= 1
    assert data["game"] == "abbey"
    assert data["consistent"] is True and data["exact"] is True
    culprit = data["culprit"]
    assert list(culprit) == ["candidates", "probabilities"]
    candidates, probabilities = culprit["candidates"], culprit["probabilities"]
    assert isinstance(candidates, list) and all(isinstance(c, str) for c in candidates)
    assert list(probabilities) == candidates
    assert all(isinstance(p, float) and 0 < p <= 1 for p in probabilities.values())
    assert abs(sum(probabilities.values()) - 1) < 1e-9
    ordered = [probabilities[c] for c in candidates]
    assert ordered == sorted(ordered, reverse=True)
    holders = data["holders"]
    assert list(holders) == DEFAULT_IDS
    names = {"culprit", "pile", "ana", "bob", "cai", "dee"}
    for card, row in holders.items():
        assert set(row) <= names, card
        assert all(isinstance(p, float) and 0 < p <= 1 for p in row.values()), card
        assert abs(sum(row.values()) - 1) < 1e-9, card
    assert {c for c, row in holders.items() if "culprit" in row} == set(candidates)
    assert all(holders[c]["culprit"] == probabilities[c] for c in candidates)
    assert holders["ignatius"] == {"ana": 1.0}
    assert holders["aymeric"] == {"bob": 1.0}


def test_json_exact_values(tmp_path, runner):
    data = solve_json(runner, put(tmp_path, "g.log", SMALL))
    assert data["culprit"] == {
        "candidates": ["a5", "a3", "a4", "a6"],
        "probabilities": {"a5": 0.5, "a3": 1 / 6, "a4": 1 / 6, "a6": 1 / 6},
    }
    assert data["holders"]["a5"] == {"culprit": 0.5, "pile": 0.5}
    assert data["holders"]["a3"] == {"culprit": 1 / 6, "pile": 1 / 6, "bob": 2 / 3}


def test_csv(tmp_path, runner):
    path = put(tmp_path, "g.log", GAME4)
    rows = list(csv.reader(io.StringIO(run(runner, "solve", path, "--csv").stdout)))
    assert rows[0] == ["card", "culprit", "pile", "ana", "bob", "cai", "dee"]
    assert [row[0] for row in rows[1:]] == DEFAULT_IDS
    holders = solve_json(runner, path)["holders"]
    for row in rows[1:]:
        card = row[0]
        assert row[1:] == [percent(holders[card].get(h, 0)) for h in rows[0][1:]], card
        assert any(row[1:]), card


def test_json_and_csv_together_is_a_usage_error(tmp_path, runner):
    result = run(runner, "solve", put(tmp_path, "g.log", SMALL), "--json", "--csv", code=2)
    assert "--json and --csv cannot be used together" in result.stderr
    assert result.stdout == ""


def test_engine_csp_gives_the_same_json(tmp_path, runner):
    busy = small("hand ana a1 a2\ndraw bob\ncount bob fat 1\nmass 1 gave a1 got a3\n")
    for text in (SMALL, busy):
        path = put(tmp_path, "g.log", text)
        assert solve_json(runner, path, "--engine", "csp") == solve_json(runner, path)


def test_unknown_engine_is_a_usage_error(tmp_path, runner):
    result = run(runner, "solve", put(tmp_path, "g.log", SMALL), "--engine", "magic", code=2)
    assert "'magic' is not one of 'sat', 'count', 'csp'" in result.stderr


# --------------------------------------------------------------------------
# solve: --deck


@pytest.mark.parametrize("form", ["list", "object"])
def test_deck_file_replaces_the_default_deck(tmp_path, runner, form):
    raw = CARDS6 if form == "list" else {"note": "my copy of the cards", "cards": CARDS6}
    deck = put(tmp_path, "deck.json", json.dumps(raw))
    log = put(tmp_path, "g.log", small("hand ana a1 a2 # dealt\nlacks bob a5\n", inline=False))
    assert solve_json(runner, log, "--deck", deck) == solve_json(
        runner, put(tmp_path, "inline.log", SMALL)
    )
    # The table shows the deck file's names (a card without a name is called by its id).
    other = put(tmp_path, "other.log", small("hand ana a2 a3\n", inline=False))
    rows = section(run(runner, "solve", other, "--deck", deck).stdout, "Culprit: ")[3:]
    assert [row.split()[:3] for row in rows] == [
        ["a1", "Father", "A1"],
        ["a4", "a4", "franciscan"],
        ["a5", "a5", "benedictine"],
        ["a6", "a6", "benedictine"],
    ]


def test_sizes_for_a_custom_deck_without_deck_file_fail(tmp_path, runner):
    result = run(runner, "solve", put(tmp_path, "g.log", small("", inline=False)), code=1)
    assert isinstance(result.exception, LogError)
    assert "the deck has 24 cards but 1 culprit + pile 1 + 2 players x hand 2 = 6" in str(
        result.exception
    )


# --------------------------------------------------------------------------
# solve: inconsistent logs


def test_inconsistent_log_exits_3_with_the_explanation(tmp_path, runner):
    out = run(runner, "solve", put(tmp_path, "bad.log", CONFLICT), code=3).stdout
    # Line 13 is ana's hand, line 15 bob's a1 (the header takes 11 lines, then a blank).
    assert out.startswith("Inconsistent log. These events cannot all be true:\n")
    assert "line 13 says ana's hand is exactly Father A1, a2" in out
    assert "line 15 says bob holds Father A1" in out
    assert (
        "line 13 leaves Father A1 only with ana at line 15, but line 15 says bob holds "
        "Father A1" in out
    )
    assert "line 14" not in out
    assert "Culprit" not in out


def test_inconsistent_log_json(tmp_path, runner):
    data = solve_json(runner, put(tmp_path, "bad.log", CONFLICT), code=3)
    assert data == {"game": "abbey", "consistent": False, "exact": True, "conflict": [13, 15]}


def test_inconsistent_log_csv(tmp_path, runner):
    out = run(runner, "solve", put(tmp_path, "bad.log", CONFLICT), "--csv", code=3).stdout
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["why"]
    assert rows[1] == ["line 13 says ana's hand is exactly Father A1, a2"]


# --------------------------------------------------------------------------
# convert


def content(log: GameLog):
    """A log without its line numbers (they differ between the two syntaxes)."""
    return (replace(log.header, line=0), [(e.type, e.fields, e.note) for e in log.events])


def test_convert_round_trip(tmp_path, runner):
    text_path = put(tmp_path, "g.log", GAME4.replace("benedictine 1", "benedictine 1 # last"))
    jsonl = run(runner, "convert", text_path).stdout
    assert jsonl.splitlines()[0].startswith('{"game": "abbey"')
    assert all(json.loads(line) for line in jsonl.splitlines() if line)
    jsonl_path = put(tmp_path, "g.jsonl", jsonl)
    text = run(runner, "convert", jsonl_path).stdout
    assert not text.startswith("{")
    assert run(runner, "convert", put(tmp_path, "again.log", text)).stdout == jsonl
    original = content(parse_log(Path(text_path).read_text(), "x"))
    assert content(parse_log(jsonl, "x")) == content(parse_log(text, "x")) == original
    assert '"note": "last"' in jsonl
    assert "# last" in text


def test_convert_inline_deck_round_trip(tmp_path, runner):
    jsonl = run(runner, "convert", put(tmp_path, "s.log", SMALL)).stdout
    header = json.loads(jsonl.splitlines()[0])
    assert header["note"] == "a small game"
    assert [c["id"] for c in header["deck"]] == [c["id"] for c in CARDS6]
    assert header["deck"][0]["name"] == "Father A1"
    text = run(runner, "convert", put(tmp_path, "s.jsonl", jsonl)).stdout
    assert "card a1 templar father hooded bearded fat Father A1" in text
    assert solve_json(runner, put(tmp_path, "t.log", text)) == solve_json(
        runner, put(tmp_path, "u.jsonl", jsonl)
    )


def test_convert_to_a_file(tmp_path, runner):
    source = put(tmp_path, "g.log", GAME4)
    expected = run(runner, "convert", source).stdout
    out = tmp_path / "out.jsonl"
    result = run(runner, "convert", source, "-o", str(out))
    assert result.stdout == ""
    assert out.read_text(encoding="utf-8") == expected
    out.write_text("old content\n")
    run(runner, "convert", source, "--output", str(out))
    assert out.read_text(encoding="utf-8") == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.log", "out.jsonl"]


def test_convert_to(tmp_path, runner):
    source = put(tmp_path, "g.log", GAME4)
    jsonl = run(runner, "convert", source).stdout
    jsonl_path = put(tmp_path, "g.jsonl", jsonl)
    assert run(runner, "convert", jsonl_path, "--to", "jsonl").stdout == jsonl
    assert run(runner, "convert", source, "--to", "jsonl").stdout == jsonl
    text = run(runner, "convert", source, "--to", "text").stdout
    assert text == run(runner, "convert", jsonl_path, "--to", "text").stdout
    assert text.startswith("game abbey\nversion 1\nplayers ana bob cai dee\nme ana\n\n")
    result = run(runner, "convert", source, "--to", "yaml", code=2)
    assert "'yaml' is not one of 'jsonl', 'text'" in result.stderr


def test_convert_with_deck_file_checks_card_names(tmp_path, runner):
    deck = put(tmp_path, "deck.json", json.dumps(CARDS6))
    log = put(tmp_path, "g.log", small("hand ana a1 a2\n", inline=False))
    assert '"cards": ["a1", "a2"]' in run(runner, "convert", log, "--deck", deck).stdout
    result = run(runner, "convert", log, code=1)
    assert isinstance(result.exception, LogError)


# --------------------------------------------------------------------------
# The real console script


DEDUCE = shutil.which("deduce")
needs_script = pytest.mark.skipif(DEDUCE is None, reason="the deduce console script is not on PATH")


def console(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([DEDUCE, *args], cwd=cwd, capture_output=True, text=True, timeout=60)


@needs_script
def test_version():
    done = console("--version", cwd=Path.cwd())
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"deduce, version {__version__}\n",
        "",
    )


@needs_script
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help(flag):
    done = console(flag, cwd=Path.cwd())
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Usage: deduce [OPTIONS] COMMAND [ARGS]...")
    commands = done.stdout.split("Commands:")[1].split()
    assert "solve" in commands and "convert" in commands


@needs_script
def test_console_solve_ok_and_inconsistent(tmp_path):
    put(tmp_path, "ok.log", SMALL)
    put(tmp_path, "bad.log", CONFLICT)
    done = console("solve", "ok.log", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert "Culprit: 4 candidates" in done.stdout
    done = console("solve", "bad.log", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (3, "")
    assert "line 15 says bob holds Father A1" in done.stdout
    done = console("solve", "bad.log", "--json", cwd=tmp_path)
    assert done.returncode == 3
    assert json.loads(done.stdout)["conflict"] == [13, 15]


ABBEY_JSON = '{"game": "abbey", "players": ["ana", "bob", "cai"], "me": "ana"}\n'
ABBEY_TEXT = "game abbey\nplayers ana bob cai\nme ana\n\n"


def deck24_breaking_totals() -> str:
    cards = [c.to_json() for c in default_deck().cards]
    cards[0]["traits"][0] = "franciscan"  # aymeric: templar -> franciscan
    return json.dumps(cards)


def junk() -> bytes:
    data = bytearray(random.Random(7).randbytes(4096))
    data[100] = 0
    return bytes(data)


# (case id, files to write, command arguments, expected stderr line)
BAD_INPUT = [
    (
        "malformed-json",
        {"g.jsonl": ABBEY_JSON + '{"type": "has", "player": "bob"\n'},
        ["solve", "g.jsonl"],
        "Error: g.jsonl:2: malformed JSON: Expecting ',' delimiter",
    ),
    (
        "unknown-event-type",
        {"g.jsonl": ABBEY_JSON + '\n{"type": "steal", "player": "bob"}\n'},
        ["solve", "g.jsonl"],
        "Error: g.jsonl:3: unknown event type 'steal' for abbey",
    ),
    (
        "unknown-event-word",
        {"g.log": ABBEY_TEXT + "has bob aymeric\nsteal bob\n"},
        ["solve", "g.log"],
        "Error: g.log:6: unknown event type 'steal' for abbey",
    ),
    (
        "unknown-first-event-word",
        {"g.log": ABBEY_TEXT + "steal bob\n"},
        ["solve", "g.log"],
        "Error: g.log:5: unknown line 'steal' (header lines: ",
    ),
    (
        "unknown-key",
        {
            "g.jsonl": ABBEY_JSON
            + '{"type": "has", "player": "bob", "card": "conrad", "colour": "red"}\n'
        },
        ["solve", "g.jsonl"],
        "Error: g.jsonl:2: unknown key 'colour' in a has event",
    ),
    (
        "unknown-header-key",
        {"g.jsonl": ABBEY_JSON.replace('"me"', '"mee"')},
        ["solve", "g.jsonl"],
        "Error: g.jsonl:1: unknown key 'mee' in the abbey header",
    ),
    (
        "unknown-player",
        {"g.log": ABBEY_TEXT + "has zed aymeric\n"},
        ["solve", "g.log"],
        "Error: g.log:5: unknown player 'zed' (players: ana, bob, cai)",
    ),
    (
        "unknown-card",
        {"g.log": ABBEY_TEXT + "has bob aymerik\n"},
        ["solve", "g.log"],
        "Error: g.log:5: unknown card 'aymerik' (did you mean 'aymeric'?)",
    ),
    (
        "unknown-trait",
        {"g.log": ABBEY_TEXT + "count bob hoody 1\n"},
        ["solve", "g.log"],
        "Error: g.log:5: unknown trait 'hoody'",
    ),
    (
        "hand-size",
        {"g.log": ABBEY_TEXT + "lacks bob conrad\nhand ana aymeric baldwin\n"},
        ["solve", "g.log"],
        "Error: g.log:6: hand lists 2 cards but ana holds 6 at this point",
    ),
    (
        "count-size",
        {"g.log": ABBEY_TEXT + "count bob fat 7\n"},
        ["solve", "g.log"],
        "Error: g.log:5: count 7 is more than the 6 cards bob holds",
    ),
    (
        "deck-24-totals",
        {"g.log": ABBEY_TEXT, "deck.json": deck24_breaking_totals()},
        ["solve", "g.log", "--deck", "deck.json"],
        "Error: deck.json:1: a 24-card deck needs 8 templar cards (rulebook totals), "
        "this one has 7",
    ),
    (
        "inline-deck-24-totals",
        {"g.jsonl": ABBEY_JSON.replace("}", ', "deck": ' + deck24_breaking_totals() + "}")},
        ["solve", "g.jsonl"],
        "Error: g.jsonl:1: a 24-card deck needs 8 templar cards",
    ),
    (
        "deck-not-json",
        {"g.log": ABBEY_TEXT, "deck.json": "[{\n"},
        ["solve", "g.log", "--deck", "deck.json"],
        "Error: deck.json:2: deck file is not valid JSON",
    ),
    (
        "missing-deck",
        {"g.log": ABBEY_TEXT},
        ["solve", "g.log", "--deck", "nope.json"],
        "Error: nope.json: cannot read deck file",
    ),
    ("empty", {"g.log": ""}, ["solve", "g.log"], "Error: g.log:1: empty log: no header"),
    ("binary", {"g.bin": junk()}, ["solve", "g.bin"], "Error: g.bin:"),
    (
        "not-utf8",
        {"g.log": ABBEY_TEXT.encode() + b"has bob caf\xe9\n"},
        ["solve", "g.log"],
        "Error: g.log:5: not UTF-8 text (byte 0xe9)",
    ),
    (
        "5mb-line",
        {"g.log": ABBEY_TEXT + "# " + "x" * 5_000_000 + "\n"},
        ["solve", "g.log"],
        "Error: g.log:5: line is longer than 1 MiB: not a log line",
    ),
    (
        "5mb-json-line",
        {"g.jsonl": "[" * 5_000_000},
        ["solve", "g.jsonl"],
        "Error: g.jsonl:1: line is longer than 1 MiB: not a log line",
    ),
    ("missing-file", {}, ["solve", "nope.log"], "Error: nope.log: cannot read log: "),
    (
        "missing-claims-model",
        {"g.log": "game blackrose\nplayers ana bob cai\nrector cai\nme ana\n"},
        ["solve", "g.log", "--model", "nope.json"],
        "Error: nope.json: cannot read claims file",
    ),
    (
        "rose-styles-model",
        {
            "g.log": "game rose\nplayers ana bob\nme ana\n",
            "m.json": '{"prior": {"own": 1, "indifferent": 1,\n"contrarian": -1}}',
        },
        ["solve", "g.log", "--model", "m.json"],
        "Error: m.json:1: styles file has no 'own'",
    ),
    (
        "convert-malformed",
        {"g.jsonl": ABBEY_JSON + "{\n"},
        ["convert", "g.jsonl"],
        "Error: g.jsonl:2: malformed JSON",
    ),
    ("convert-missing", {}, ["convert", "nope.log"], "Error: nope.log: cannot read log: "),
]


def write_files(tmp_path: Path, files: dict[str, str | bytes]) -> None:
    for name, data in files.items():
        if isinstance(data, bytes):
            (tmp_path / name).write_bytes(data)
        else:
            (tmp_path / name).write_text(data, encoding="utf-8")


@needs_script
@pytest.mark.parametrize(
    ("files", "args", "expected"),
    [case[1:] for case in BAD_INPUT],
    ids=[case[0] for case in BAD_INPUT],
)
def test_bad_input_gives_one_line(tmp_path, files, args, expected):
    write_files(tmp_path, files)
    done = console(*args, cwd=tmp_path)
    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stdout == ""
    assert done.stderr.endswith("\n")
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(expected), done.stderr


@needs_script
def test_binary_junk_names_the_line_of_the_nul_byte(tmp_path):
    data = junk()
    write_files(tmp_path, {"g.bin": data})
    done = console("solve", "g.bin", cwd=tmp_path)
    line = data.count(b"\n", 0, data.index(b"\x00")) + 1
    assert done.stderr == (
        f"Error: g.bin:{line}: binary data (a NUL byte): this is not a text log\n"
    )


@needs_script
def test_directory_exits_non_zero_without_traceback(tmp_path):
    (tmp_path / "logs").mkdir()
    done = console("solve", "logs", cwd=tmp_path)
    assert done.returncode != 0
    assert "Traceback" not in done.stdout + done.stderr
    assert "logs" in done.stderr


@needs_script
def test_directory_gives_one_line(tmp_path):
    (tmp_path / "logs").mkdir()
    done = console("solve", "logs", cwd=tmp_path)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1, done.stderr


def test_budget_past_which_probabilities_are_estimated(tmp_path, runner):
    log = put(tmp_path, "g.log", GAME4)
    exact = json.loads(run(runner, "solve", log, "--json").stdout)
    quick = json.loads(run(runner, "solve", log, "--json", "--budget", "0").stdout)
    assert exact["exact"] is True and "error" not in exact
    assert quick["exact"] is False and 0 < quick["error"] <= 1
    assert set(quick["culprit"]["candidates"]) == set(exact["culprit"]["candidates"])
    assert {c: set(row) for c, row in quick["holders"].items()} == {
        c: set(row) for c, row in exact["holders"].items()
    }
    table = run(runner, "solve", log, "--budget", "0", "--seed", "3").stdout
    assert (
        "probabilities estimated, within" in table
        or "not enough time to estimate the chances" in table
    )
    assert json.loads(run(runner, "solve", log, "--json", "--budget", "60").stdout) == exact
    run(runner, "solve", log, "--budget", "-1", code=2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "examples/rose-4p.jsonl", "--budget", "1"], "--budget does not apply to rose"),
        (["solve", "examples/rose-4p.jsonl", "--engine", "csp"], "--engine does not apply to rose"),
        (
            ["solve", "examples/abbey-4p.log", "--model", "m.json"],
            "--model does not apply to abbey (only to rose and blackrose)",
        ),
        (["check", "blackrose", "--fast", "--games", "1"], "--fast does not apply to blackrose"),
        (
            ["check", "abbey", "--model", "m.json", "--games", "1"],
            "--model does not apply to abbey",
        ),
    ],
)
def test_options_of_other_games_are_refused(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and message in result.output
