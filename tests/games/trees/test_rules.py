"""Graph Trees rule sets: the bundled ones load; bad files say where and what is allowed."""

from __future__ import annotations

import pytest

from racetrack.base.errors import RulesError
from racetrack.cli import main
from racetrack.games.trees import bundled_names, load_tree_rules


@pytest.mark.parametrize("name", bundled_names())
def test_bundled_rule_sets_load(name):
    rules = load_tree_rules(name)
    assert rules.players in (2, 4) and len(rules.starts) == rules.players
    assert all(0 <= s.x <= rules.width and 0 <= s.y <= rules.height for s in rules.starts)


def test_a_file_changes_only_what_differs_from_its_base(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("base: levi-4\nmovement: {choices: square-24}\n")
    rules = load_tree_rules(path)
    assert (rules.players, rules.width, rules.movement, rules.name) == (4, 24, "square-24",
                                                                       "mine")


@pytest.mark.parametrize("text, line, words", [
    ("players: 2\ncolours: 3\n", 2, ["unknown option 'colours'", "valid keys:", "board"]),
    ("movement:\n  choices: hex\n", 2, ["plus, square, square-24", "'hex'"]),
    ("movement:\n  speed: 2\n", 2, ["unknown option 'movement.speed'", "movement.choices"]),
    ("players: 3\n", 1, ["'players' must be one of: 2, 4"]),
    ("board: {width: 21}\n", 1, ["even number"]),
    ("board: {height: 400}\n", 1, ["from 6 to 60"]),
    ("base: nowhere\n", 1, ["no such Graph Trees rule set", "levi"]),
])
def test_bad_files_name_the_file_the_line_and_the_valid_choices(tmp_path, text, line, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(RulesError) as caught:
        load_tree_rules(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: ")
    for word in words:
        assert word in message


def test_the_command_line_reports_a_bad_file_in_one_line(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text("players: 3\n")
    assert main(["trees-play", "--rules", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {path}:1:")
    assert main(["trees-play", "--rules", "nope"]) == 1
    assert "bundled: levi, levi-4, levi-9, quick" in capsys.readouterr().err
