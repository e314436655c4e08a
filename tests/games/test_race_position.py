"""A race's position string: every car's and whose turn it is, written down and read back."""

from __future__ import annotations

import pytest

from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup, Move
from racetrack.engine.position import PositionError
from racetrack.games.race import Race
from racetrack.games.race_position import parse_race_position, race_position
from racetrack.rules import load_rules


def test_a_race_position_round_trips_and_plays_on():
    race = Race(load_track(find_track("oval")), load_rules("gardner"),
                [CarSetup("A"), CarSetup("B")])
    state = race.start()
    while state.placing:
        state.apply(Move(next(c.target for c in state.candidates() if c.legal)))
    for _ in range(3):
        state.apply(Move(state.legal_moves()[0].target))
    text = race_position(state)
    again = parse_race_position(race, text)
    assert race_position(again) == text
    assert [c.target for c in again.legal_moves()] == [c.target for c in state.legal_moves()]


def test_a_race_position_must_match_the_race():
    race = Race(load_track(find_track("oval")), load_rules("gardner"), [CarSetup("A")])
    with pytest.raises(PositionError, match="1 cars, the position 2"):
        parse_race_position(race, "20,22 0,0 1 / 21,22 0,0 1")
    with pytest.raises(PositionError, match="not one of the race's 1 turns"):
        parse_race_position(race, "20,22 0,0 1 | 3 1")
