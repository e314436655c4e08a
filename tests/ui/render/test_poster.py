"""The race PNG (``racetrack replay --png``) carries the turns, the drivers' levels, the date
and the seed."""

from __future__ import annotations

from datetime import datetime

from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup
from racetrack.games.race import Race
from racetrack.rules import load_rules
from racetrack.search.drivers import make_driver
from racetrack.ui.render.poster import race_sheet, sheet_words


def finished_race():
    race = Race(load_track(find_track("riddler-opolis")), load_rules("gardner"),
                [CarSetup("Ann", "red", "expert"), CarSetup("Bob", "blue", "easy"),
                 CarSetup("Cy", "green", "human")], seed=417)
    state = race.start()
    drivers = {0: make_driver("expert", 1), 1: make_driver("easy", 2), 2: make_driver("hard", 3)}
    while not state.is_over:
        state.apply(drivers[state.current_car].choose(state))
    return state


def test_the_header_names_turns_levels_date_and_seed(app):
    state = finished_race()
    heading, facts, ranking = sheet_words(state, datetime(2026, 5, 1, 14, 30))
    assert heading == "Riddler-opolis · gardner rules"
    assert facts.startswith(f"{state.outcome.rounds} turns · ")
    assert "2026-05-01 14:30" in facts and facts.endswith("seed 417")
    words = dict(ranking)
    assert words[0].endswith("Ann (expert)") and words[1].endswith("Bob (easy)")
    assert words[2].endswith("Cy")  # a person has no level
    assert [w.split(".")[0] for _, w in ranking] == ["1", "2", "3"]
    picture = race_sheet(state, when=datetime(2026, 5, 1))
    assert picture.get_width() > 400
