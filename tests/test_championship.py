"""A saved championship names its tracks: only bundled ones and the player's own are raced,
each loaded and checked when the series is loaded and again before its race."""

from __future__ import annotations

import shutil

import pytest

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
