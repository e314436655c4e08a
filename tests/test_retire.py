"""A car may retire where it stands: out of the race, the turn passed on, and the retirement
recorded as a move, so a replay re-simulates it."""

from __future__ import annotations

from racetrack.game import Race
from racetrack.lineup import computer_line_up
from racetrack.model import Action, CarStatus, EventKind, Move
from racetrack.playout import play_out, race_drivers
from racetrack.replay import load_replay, save_replay
from racetrack.rules import load_rules


def test_a_retired_car_is_out_and_the_replay_says_so(square_ring, tmp_path):
    race = Race(square_ring, load_rules("baker"), computer_line_up(["easy", "easy"]), seed=2)
    state = race.start()
    car = state.current_car
    here = state.cars[car].position
    assert "retires where it stands" in state.check(Move(here + (1, 0), Action.RETIRE))
    assert Action.RETIRE not in state.actions()  # not a button: a player's last word
    events = state.apply(Move(here, Action.RETIRE))
    assert state.cars[car].status is CarStatus.OUT
    assert any(e.kind is EventKind.OUT and "retired" in e.message for e in events)
    assert state.current_car != car
    play_out(state, race_drivers(race))
    assert state.outcome.ranking[-1] == car
    save_replay(state, tmp_path / "r.yaml")
    assert load_replay(tmp_path / "r.yaml").verify().cars[car].status is CarStatus.OUT
    unchecked = race.start()
    unchecked.apply_unchecked(Move(here, Action.RETIRE))
    assert unchecked.cars[car].status is CarStatus.OUT
