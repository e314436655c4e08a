"""Starting races from the window's choices: cars, drivers, the race scene and what follows."""

from __future__ import annotations

import random
from pathlib import Path

from racetrack.ai import make_driver
from racetrack.game import Race
from racetrack.model import CarSetup
from racetrack.rules import load_rules
from racetrack.settings import PlayerChoice
from racetrack.track import load_track


def start_race(app, track_path: Path, rules_name: str, players: tuple[PlayerChoice, ...],
               seed: int | None = None, animation_seconds: float = 0.35, replace: bool = True):
    """Set up a race and put its scene on the app; at the end, the results scene follows."""
    from racetrack.ui.scenes.race import RaceScene
    from racetrack.ui.scenes.results import ResultsScene

    track = load_track(track_path)
    rules = load_rules(rules_name)
    seed = seed if seed is not None else random.randrange(1_000_000)
    cars = [CarSetup(p.name, p.colour, p.driver) for p in players]
    race = Race(track, rules, cars, seed=seed)
    drivers = {i: make_driver(p.driver, seed * 31 + i) for i, p in enumerate(players)
               if p.driver != "human"}

    def rematch() -> None:
        start_race(app, track_path, rules_name, players, None, animation_seconds)

    def over(state) -> None:
        app.replace(ResultsScene(app, state, rematch))

    scene = RaceScene(app, race, drivers, animation_seconds, on_over=over)
    if replace and app.scenes:
        app.replace(scene)
    else:
        app.push(scene)
    return scene
