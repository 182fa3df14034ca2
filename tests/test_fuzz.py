"""Bad input, fuzzed: every file deduce reads ends in a valid result or a one-line error.

A bounded run in the suite (Hypothesis chooses the seeds of the mutations);
``python -m tools.fuzz`` runs a million inputs. Also the documented upper bounds
on what is read.
"""

from __future__ import annotations

import json
import random

import pytest
from fuzz_inputs import READERS, mutate, outcome, seeds
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.batch import find_logs, solve_files
from deduce.data import read_json_file
from deduce.errors import LogError
from deduce.logs import io, validate
from deduce.logs.formats.abbey import MAX_DECK, deck_from_json
from deduce.logs.io import parse_log, read_log
from deduce.logs.schema import MAX_PLAYERS
from deduce.solving import SolveOptions

SEEDS = seeds()
OTHERS = list(SEEDS.values())


@pytest.mark.parametrize("kind", sorted(READERS))
def test_every_seed_is_valid(kind, tmp_path):
    assert outcome(kind, SEEDS[kind], tmp_path) == ("ok", "")


@settings(deadline=None, max_examples=300, derandomize=True)
@given(kind=st.sampled_from(sorted(READERS)), seed=st.integers(0, 2**32))
def test_a_mutated_file_is_read_or_refused_in_one_line(kind, seed, tmp_path_factory):
    data = mutate(SEEDS[kind], random.Random(seed), OTHERS)
    result, reason = outcome(kind, data, tmp_path_factory.mktemp("fuzz"))
    assert result != "crash", f"{kind}, mutation seed {seed}: {reason}"


def test_a_log_has_at_most_max_events(monkeypatch):
    monkeypatch.setattr(validate, "MAX_EVENTS", 3)
    head = "game rose\nplayers ana bob\nme ana\n"
    parse_log(head + "reveal bob red\n" * 3, "g.log")
    with pytest.raises(LogError, match=r"g.log:7: more than 3 events: not a game log"):
        parse_log(head + "reveal bob red\n" * 4, "g.log")


def test_a_header_names_at_most_max_players():
    players = " ".join(f"p{i}" for i in range(MAX_PLAYERS + 1))
    with pytest.raises(LogError, match="needs 1 to 12 players, got 13"):
        parse_log(f"game abbey\nplayers {players}\nme p0\npile 0\nhand 1\n", "g.log")


def test_a_deck_has_at_most_max_deck_cards():
    card = {"id": "c", "name": "C", "traits": ["templar", "father", "hooded", "bearded", "fat"]}
    raw = [dict(card, id=f"c{i}") for i in range(MAX_DECK + 1)]
    with pytest.raises(LogError, match=f"a deck has at most {MAX_DECK} cards, got 101"):
        deck_from_json(raw, "d.json")


def test_files_past_the_size_limits_are_refused_unread(monkeypatch, tmp_path):
    monkeypatch.setattr(io, "MAX_LOG_BYTES", 1 << 20)
    big = tmp_path / "big.log"
    big.write_bytes(b"# " + b"x" * (1 << 20) + b"\n")
    with pytest.raises(LogError, match=r"big\.log: larger than 1 MiB: not a game log"):
        read_log(big)
    import deduce.data

    monkeypatch.setattr(deduce.data, "MAX_DATA_BYTES", 1 << 20)
    data = tmp_path / "deck.json"
    data.write_text(json.dumps(["x" * (1 << 20)]))
    with pytest.raises(LogError, match=r"deck\.json: deck file is larger than 1 MiB"):
        read_json_file(str(data), "deck file")


LOGS = sorted(k for k in READERS if "log" in k)


@settings(deadline=None, max_examples=12, derandomize=True)
@given(seed=st.integers(0, 2**32))
def test_a_batch_folder_of_mutated_logs_reports_every_file_in_one_line(seed, tmp_path_factory):
    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("batch")
    for i, kind in enumerate(rng.sample(LOGS, 3)):
        suffix = READERS[kind][0]
        (folder / f"log{i}{suffix}").write_bytes(mutate(SEEDS[kind], rng, OTHERS))
    paths = find_logs([str(folder)])
    results = list(solve_files(paths, SolveOptions(budget=0.1), workers=1))
    assert [r.path for r in results] == paths and len(paths) == 3
    for result in results:
        assert result.status in ("ok", "inconsistent", "invalid"), result.error
        if result.status == "invalid":
            assert "\n" not in result.error and result.error.startswith(result.path)
