"""A saved championship names its tracks: only bundled ones and the player's own are raced,
each loaded and checked when the series is loaded and again before its race."""

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


def race(series: Championship) -> None:
    state = series.next_race().start()
    drivers = [make_driver("easy", i) for i in range(2)]
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
