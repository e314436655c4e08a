"""The drivers read a race only through their two protocols, and the race keeps both."""

from __future__ import annotations

import ast
from pathlib import Path

from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup
from racetrack.games.race import Race
from racetrack.rules import load_rules
from racetrack.search import drivers
from racetrack.search.drivers.view import RaceSetupView, RaceView


def members(protocol: type) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")} | \
        set(protocol.__annotations__)


def test_a_race_and_its_state_are_what_the_drivers_read():
    race = Race(load_track(find_track("oval")), load_rules("baker-bond"),
                [CarSetup("A"), CarSetup("B")])
    state = race.start()
    assert isinstance(race, RaceSetupView) and isinstance(state, RaceView)
    for name in members(RaceView):
        getattr(state, name)
    for name in members(RaceSetupView):
        getattr(race, name)


def test_every_name_a_driver_reads_of_a_race_is_in_the_protocols():
    """A driver reading something of the race the protocols do not name would tie the drivers
    to the game again: ``state.X`` must be a ``RaceView`` member and ``state.race.X`` or
    ``race.X`` a ``RaceSetupView`` one."""
    state_names, race_names = members(RaceView), members(RaceSetupView)
    for path in Path(drivers.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id == "state":
                assert node.attr in state_names, f"{path.name}:{node.lineno} state.{node.attr}"
            elif (isinstance(owner, ast.Name) and owner.id == "race") or (
                    isinstance(owner, ast.Attribute) and owner.attr == "race"
                    and isinstance(owner.value, ast.Name) and owner.value.id == "state"):
                assert node.attr in race_names, f"{path.name}:{node.lineno} race.{node.attr}"
