"""``--set KEY=VALUE`` on ``play``, ``race`` and ``solve``: any option on top of any variant."""

from __future__ import annotations

import json

import pytest

from racetrack.cli import build_parser, main


def test_solve_with_the_24_neighbour_choice_is_faster(capsys):
    assert main(["solve", "oval", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)["moves"]
    assert main(["solve", "oval", "--set", "movement.choices=square-24", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] < plain


def test_race_names_the_overridden_rules(capsys):
    assert main(["race", "oval", "--rules", "baker", "--driver", "expert",
                 "--set", "movement.choices=square", "--set", "laps=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "baker + square + laps=1"


@pytest.mark.parametrize("command", ["play", "race", "solve"])
def test_every_racing_command_takes_set(command):
    args = build_parser().parse_args([command, "oval", "--set", "movement.choices=plus",
                                      "--set", "movement.must-change=true"])
    assert args.overrides == [("movement.choices", "plus"), ("movement.must-change", True)]


@pytest.mark.parametrize("command", ["play", "race", "solve"])
@pytest.mark.parametrize("setting, message", [
    ("movement.choices=hex", "must be one of: plus, square, square-24; not 'hex'"),
    ("movement.choice=plus", "unknown option 'movement.choice'; valid options: movement.choices"),
])
def test_a_bad_key_or_value_is_one_line_and_exit_1(command, setting, message, capsys):
    assert main([command, "oval", "--set", setting]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: --set: ") and message in err


def test_a_setting_without_equals_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["solve", "oval", "--set", "movement.choices"])
    assert exit_.value.code == 2
    assert "expected KEY=VALUE" in capsys.readouterr().err
