"""Lines the rules forbid but the log can still record: a warning, never a refusal."""

from click.testing import CliRunner

from deduce.cli.main import cli

ABBEY = "game abbey\nplayers ana bob cai dee\nme ana\n"
ROSE = "game rose\nplayers ana bob cai\nme ana\n"


def run(tmp_path, text, *args):
    path = tmp_path / "g.log"
    path.write_text(text)
    return path, CliRunner().invoke(cli, [*args, str(path)])


def test_an_accusation_before_the_pile_is_empty_is_solved_with_a_warning(tmp_path):
    path, result = run(tmp_path, ABBEY + "accuse bob aymeric wrong by cai\n", "solve")
    assert result.exit_code == 0
    assert result.stderr == (
        f"Warning: {path}:4: an accusation while 3 cards are left in the "
        "pile: the rulebook allows accusing only once the pile is empty\n"
    )
    assert "Culprit: 23 candidates" in result.stdout  # aymeric was shown: not the culprit


def test_a_fourth_reveal_is_solved_with_a_warning(tmp_path):
    reveals = "".join(f"reveal bob {c}\n" for c in ("red", "blue", "white", "grey"))
    path, result = run(tmp_path, ROSE + reveals, "solve")
    assert result.exit_code == 0
    assert result.stderr.startswith(f"Warning: {path}:7: bob's fourth reveal")


def test_a_lawful_log_has_no_warning(tmp_path):
    _, result = run(tmp_path, ROSE + "reveal bob red\n", "solve")
    assert result.exit_code == 0 and result.stderr == ""


def test_play_warns_when_the_line_is_recorded(tmp_path):
    path = tmp_path / "g.log"
    path.write_text(ABBEY)
    result = CliRunner().invoke(
        cli, ["play", str(path)], input="accuse bob aymeric wrong by cai\nquit\n"
    )
    assert "Recorded line 4" in result.output
    assert "Warning: " in result.stderr and "only once the pile is empty" in result.stderr
    assert path.read_text().endswith("accuse bob aymeric wrong by cai\n")


def test_warnings_read_the_deck_of_the_command_line(tmp_path):
    deck = tmp_path / "deck.json"
    deck.write_text(CliRunner().invoke(cli, ["deck", "template"]).output)
    _, result = run(
        tmp_path, ABBEY + "accuse bob aymeric wrong by cai\n", "solve", "--deck", str(deck)
    )
    assert result.exit_code == 0 and "only once the pile is empty" in result.stderr
