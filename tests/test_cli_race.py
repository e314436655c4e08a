"""``racetrack race``: headless races of computer drivers, deterministic by seed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from racetrack.cli import main


def run(*args):
    return subprocess.run([sys.executable, "-m", "racetrack", *args], capture_output=True,
                          text=True, timeout=300)


def test_json_result_has_the_documented_shape(capsys):
    assert main(["race", "riddler-opolis", "--rules", "baker", "--driver", "easy",
                 "--driver", "hard", "--seed", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {"winner", "ranking", "turns"} <= set(result)
    assert sorted(result["ranking"]) == ["Blue", "Red"]
    assert isinstance(result["turns"], int) and result["turns"] > 0
    assert result["winner"] in (None, *result["ranking"])


def test_the_same_seed_gives_the_same_race_byte_for_byte():
    args = ["race", "riddler-opolis", "--rules", "gardner", "--driver", "easy",
            "--driver", "medium", "--driver", "hard", "--seed", "11", "--json"]
    first, second = run(*args), run(*args)
    assert first.returncode == 0 and first.stdout == second.stdout


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_every_level_name_is_accepted(level, capsys):
    assert main(["race", "riddler-opolis", "--driver", level, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ranking"] == ["Red"]


def test_save_writes_a_replay_that_verifies(tmp_path, capsys):
    path = tmp_path / "race.yaml"
    assert main(["race", "riddler-opolis", "--rules", "simulation", "--driver", "medium",
                 "--driver", "medium", "--seed", "2", "--save", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path), "--verify"]) == 0
    assert "result matches" in capsys.readouterr().out


def test_bad_arguments_fail_cleanly(tmp_path):
    result = run("race", "no-such-track")
    assert result.returncode == 1 and "no such track" in result.stderr
    assert "Traceback" not in result.stderr
    result = run("race", "riddler-opolis", "--driver", "wizard")
    assert result.returncode == 2 and "invalid choice" in result.stderr
    result = run("race", "riddler-opolis", "--rules", "nonsense")
    assert result.returncode == 1 and "bundled variants" in result.stderr
    too_many = ["--driver", "easy"] * 5
    result = run("race", "riddler-opolis", *too_many)
    assert result.returncode == 1 and "room for 3 cars" in result.stderr


def test_reverse_names_a_car_that_exists(capsys):
    assert main(["race", "oval", "--rules", "levi", "--reverse", "3"]) == 1
    assert "there is no car 3; the cars are numbered 1 to 2" in capsys.readouterr().err


def test_a_replay_whose_car_was_turned_about_is_refused(tmp_path, capsys):
    import yaml

    path = tmp_path / "race.yaml"
    assert main(["race", "oval", "--rules", "levi", "--driver", "expert", "--reverse", "1",
                 "--save", str(path)]) == 0
    data = yaml.safe_load(path.read_text())
    assert data["cars"][0]["reverse"] is True
    data["cars"][0]["reverse"] = False
    path.write_text(yaml.safe_dump(data))
    capsys.readouterr()
    assert main(["replay", str(path), "--verify"]) == 1
    assert "does not match" in capsys.readouterr().err


def test_embedded_rules_may_not_name_a_base(tmp_path, capsys):
    import yaml

    path = tmp_path / "race.yaml"
    assert main(["race", "oval", "--driver", "expert", "--save", str(path)]) == 0
    data = yaml.safe_load(path.read_text())
    data["rules"]["base"] = "/etc/passwd"
    path.write_text(yaml.safe_dump(data))
    capsys.readouterr()
    assert main(["replay", str(path), "--verify"]) == 1
    assert "'base' is not allowed in embedded rules" in capsys.readouterr().err
