"""Championships: points and prize money by the rules, kits the series gives, and the saved
file: it names its tracks (only bundled ones and the player's own are raced, each loaded and
checked when the series is loaded and again before its race), keeps its whole rules, and a
hostile one is one damaged-file error."""

from __future__ import annotations

import shutil

import pytest
import yaml

from racetrack.ai import make_driver
from racetrack.championship import (
    Championship,
    ChampionshipError,
    Entrant,
    load_championship,
)
from racetrack.settings import tracks_dir
from racetrack.track import find_track

DRAFT = "racetrack-track: 1\nname: Half drawn\nouter: [[0, 0], [12, 0], [12, 12]]\n"


@pytest.fixture
def series(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    tracks_dir().mkdir(parents=True)
    mine = tracks_dir() / "mine.yaml"
    shutil.copy(find_track("oval"), mine)
    made = Championship("gardner", ["riddler-opolis", str(mine)],
                        [Entrant("Ann", "red", "easy"), Entrant("Bob", "blue", "easy")])
    made.save()
    return made


def race(series: Championship, drivers: tuple[str, str] = ("easy", "easy")) -> None:
    state = series.next_race().start()
    drivers = [make_driver(level, i) for i, level in enumerate(drivers)]
    while not state.is_over:
        state.apply(drivers[state.current_car].choose(state))
    series.record(state)


def test_a_track_edited_into_a_draft_between_races_stops_the_series_cleanly(series):
    assert load_championship().tracks == series.tracks
    race(series)
    (tracks_dir() / "mine.yaml").write_text(DRAFT)
    with pytest.raises(ChampionshipError, match="'mine' cannot be raced: .*missing 'start'"):
        series.next_race()
    series.save()
    with pytest.raises(ChampionshipError, match="damaged championship file: .*cannot be "
                                                "raced"):
        load_championship()


@pytest.mark.parametrize("track", ["/etc/passwd", "../../etc/hosts.yaml", "nosuch"])
def test_a_saved_championship_races_only_bundled_tracks_and_the_players_own(series, track):
    path = series.save()
    path.write_text(path.read_text().replace("riddler-opolis", track))
    with pytest.raises(ChampionshipError, match="neither a bundled track nor one of your "
                                                "tracks"):
        load_championship()


def test_a_saved_championship_names_bundled_rules_or_a_rules_file(series):
    path = series.save()
    path.write_text(path.read_text().replace("rules: gardner", "rules: /etc/shadow"))
    with pytest.raises(ChampionshipError, match="bundled rule variant's name or a rules file"):
        load_championship()


def test_a_series_keeps_every_option_it_began_with(tmp_path, monkeypatch):
    """A championship's file holds every resolved option, as a replay does: a rules file
    changed between races does not change the series."""
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    house = tmp_path / "house.yaml"
    house.write_text("base: baker\nname: house\nmovement: {choices: square}\n")
    made = Championship(str(house), ["oval"], [Entrant("Ann", "red", "easy"),
                                                Entrant("Bob", "blue", "easy")],
                        overrides={"walls": "off-track"})
    path = made.save()
    data = yaml.safe_load(path.read_text())
    assert data["racetrack-championship"] == 2
    assert data["rule-set"]["movement"]["choices"] == "square"
    assert data["rule-set"]["walls"] == "off-track" and "gadgets" in data["rule-set"]
    house.write_text("base: baker\nname: house\nmovement: {choices: plus}\n")
    again = load_championship(path)
    assert again.ruleset() == made.ruleset()
    assert again.next_race().rules.movement_choices == "square"


def test_saved_rules_lacking_an_option_are_refused_and_a_version_1_file_says_so(series, caplog):
    path = series.save()
    data = yaml.safe_load(path.read_text())
    del data["rule-set"]["walls"]
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ChampionshipError, match="lack the option 'walls'"):
        load_championship()
    del data["rule-set"]
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ChampionshipError, match="missing 'rule-set'|'rule-set'"):
        load_championship()
    data["racetrack-championship"] = 1  # written before the rules were kept whole
    path.write_text(yaml.safe_dump(data))
    with caplog.at_level("WARNING"):
        old = load_championship()
    assert old.ruleset() == series.ruleset()
    assert "names its rules ('gardner') without their options" in caplog.text


BASE = """racetrack-championship: 1
rules: baker-bond
tracks: [oval, oval]
seed: 1
entrants:
- {name: Red, colour: red, driver: medium}
- {name: Blue, colour: blue, driver: easy}
"""


MANY = "".join(f"- {{name: X{i}, colour: red, driver: easy}}\n" for i in range(20))


@pytest.mark.parametrize("text", [
    BASE.replace("seed: 1", "seed: .inf"),
    BASE + "points: {Red: .inf}\n",
    BASE + "money: {Red: .inf}\n",
    BASE + "money: {Red: -500}\n",
    BASE + "money: {Red: 100000000}\n",
    BASE + "money: {Red: 1.9}\n",
    BASE + "money: {Ghost: 5}\n",
    BASE + "money: 100000000\n",
    BASE + "points: true\n",
    BASE + "points: {Red: true}\n",
    BASE.replace("driver: easy", "driver: wizard"),
    BASE + MANY,
    BASE + "results: [hello]\n",
    BASE + "results: [{}]\n",
    BASE + "results: [{track: oval, ranking: [Ghost], prizes: {}, kept: {}}]\n",
    BASE + "results: [{track: oval, ranking: [Red], prizes: {Red: -1}, kept: {}}]\n",
    BASE.replace("[oval, oval]", "[nosuch]"),
    BASE.replace("[oval, oval]", "oval"),
    BASE.replace("name: Blue", "name: 5"),
    BASE + "overrides: [1, 2]\n",
    BASE.replace("racetrack-championship: 1", "racetrack-championship: true"),
])
def test_a_hostile_championship_file_is_one_damaged_file_error(tmp_path, text):
    path = tmp_path / "championship.yaml"
    path.write_text(text)
    with pytest.raises(ChampionshipError, match="championship file"):
        load_championship(path)


def test_a_sound_championship_file_still_loads(tmp_path):
    path = tmp_path / "championship.yaml"
    path.write_text(BASE + "money: {Red: 40}\npoints: {Red: 3, Blue: 2}\nresults:\n"
                    "- {track: oval, ranking: [Red, Blue], prizes: {Red: 30, Blue: 20},\n"
                    "   kept: {Red: 10, Blue: 0}}\n")
    series = load_championship(path)
    assert series.money == {"Red": 40, "Blue": 0} and series.race_number == 2


def test_without_a_shop_championship_money_accumulates():
    from racetrack.championship import Championship, Entrant, run_headless

    series = Championship("baker-teams", ["oval", "oval"],
                          [Entrant("Red", "red", "expert"), Entrant("Blue", "blue", "easy")],
                          seed=3)
    run_headless(series)
    prizes = {name: sum(r["prizes"][name] + r["kept"][name] for r in series.results)
              for name in ("Red", "Blue")}
    assert series.money == prizes and sum(prizes.values()) == 2 * (30 + 20)


def test_a_car_that_is_out_scores_no_points_and_no_prize():
    from dataclasses import replace

    from racetrack.championship import Championship, Entrant
    from racetrack.model import CarStatus

    series = Championship("baker-teams", ["oval"],
                          [Entrant("Red", "red", "easy"), Entrant("Blue", "blue", "easy")])
    state = series.next_race().start()
    state.set_car(1, replace(state.cars[1], status=CarStatus.OUT, out_round=1))
    state.over = True
    result = series.record(state)
    assert result["ranking"] == ["Red", "Blue"]
    assert series.points == {"Red": 3, "Blue": 0} and series.money == {"Red": 30, "Blue": 0}


def test_a_resumed_championship_race_must_have_the_kits_the_series_gives():
    from dataclasses import replace

    from racetrack.championship import Championship, Entrant
    from racetrack.model import Kit
    series = Championship("baker-bond", ["oval"],
                          [Entrant("Ann", "red", "easy"), Entrant("Bob", "blue", "easy")])
    assert series.is_next_race(series.next_race())
    cars = series.next_cars()
    richer = [replace(cars[0], budget=5000, kit=Kit(damage=99, money=4505)), cars[1]]
    assert not series.is_next_race(series.next_race(richer))
    armed = [cars[0], replace(cars[1], kit=Kit(missiles=3, money=10))]
    assert not series.is_next_race(series.next_race(armed))


def test_championship_save_does_not_create_missing_folders(tmp_path, capsys):
    from racetrack.cli import main

    target = tmp_path / "no" / "such" / "series.yaml"
    assert main(["championship", "--tracks", "oval", "--rules", "baker-teams", "--driver",
                 "easy", "--save", str(target)]) != 0
    assert not (tmp_path / "no").exists()
    assert "cannot save" in capsys.readouterr().err


def test_standings_replace_only_an_earlier_stage_of_the_same_series(series):
    import copy

    from racetrack.championship import default_path

    behind = copy.deepcopy(series)
    race(series, ("easy", "expert"))  # Bob wins
    assert series.save() == default_path()  # a later stage of the series on file
    assert load_championship().results == series.results
    race(behind, ("expert", "easy"))  # the same series, raced on by another copy: Ann wins
    assert behind.results != series.results
    beside = behind.save()
    assert beside == default_path().with_name("championship-2.yaml")
    assert load_championship().results == series.results  # the other copy's, kept
    assert load_championship(beside).results == behind.results
    other = Championship("gardner", ["oval"], [Entrant("Cy", "green", "easy")])
    assert other.save() == default_path().with_name("championship-3.yaml")
    assert other.save(replace=True) == default_path()  # a new series, chosen: replaces it
    assert load_championship().tracks == ["oval"]
