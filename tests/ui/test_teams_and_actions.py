"""The window's team choice on the New race screen, and the action buttons in the race."""

from __future__ import annotations

from racetrack.geometry import Vec
from racetrack.model import Action, team_standings
from racetrack.settings import PlayerChoice, load_settings
from racetrack.track import find_track
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.results import ResultsScene
from racetrack.ui.scenes.setup import SetupScene
from tests.ui.conftest import button, click, pick, run


def finish(app, scene: RaceScene, limit: int = 2000) -> None:
    """Run frames until the race scene has handed over to what follows it."""
    scene.preparing.result()
    for _ in range(limit):
        if app.scenes[-1] is not scene:
            return
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1, 0.2)
    raise AssertionError("the race did not end")


def test_the_team_chosen_on_setup_races_and_scores(app):
    app.push(MenuScene(app))
    setup = SetupScene(app)
    app.push(setup)
    setup.players = [PlayerChoice("Ann", "red", "expert"), PlayerChoice("Bob", "blue", "easy"),
                     PlayerChoice("Cy", "green", "hard")]
    setup.selected = next(i for i, c in enumerate(setup.tracks) if c.path.stem == "oval")
    run(app, 1)
    assert not setup.teams  # gardner's rules score no teams: no team boxes
    while setup.rules.value != "baker-teams":
        setup.rules.step(1)
    run(app, 2)
    assert setup.teams
    teams = [w for w in setup.form.widgets if getattr(w, "tooltip", "").startswith("team")]
    assert len(teams) == 3
    pick(app, teams[0], "A")
    pick(app, teams[1], "B")
    pick(app, teams[2], "A")
    assert [p.team for p in setup.players] == ["A", "B", "A"]
    click(app, button(setup, "Start race").rect.center)
    scene = app.scenes[-1]
    assert isinstance(scene, RaceScene)
    assert [car.team for car in scene.race.cars] == ["Team A", "Team B", "Team A"]
    assert [p.team for p in load_settings().players] == ["A", "B", "A"]
    scene.animation_seconds = 0.0
    finish(app, scene)
    results = app.scenes[-1]
    assert isinstance(results, ResultsScene)
    points = dict(team_standings(scene.race.cars, results.state.outcome.ranking))
    assert set(points) == {"Team A", "Team B"} and sum(points.values()) == 6
    run(app, 1)  # the results draw the team line


def test_clicking_the_missile_button_arms_the_missile(app):
    app.push(MenuScene(app))
    players = (PlayerChoice("Ann", "red", "human"), PlayerChoice("Bot", "blue", "medium"))
    shop = app.routes.start_race(find_track("hazards"), "baker-bond", players, seed=3,
                            animation_seconds=0.05, replace=False)
    shop.change("missiles", True)
    shop.change("sprayers", True)
    click(app, shop.form.widgets[-1].rect.center)  # Done
    scene = app.scenes[-1]
    scene.preparing.result()
    assert [a for a, _ in scene.action_buttons()] == [Action.OIL]  # at rest: no missile yet
    scene.state.place(0, scene.state.cars[0].position, Vec(2, 0))
    buttons = dict(scene.action_buttons())
    assert set(buttons) == {Action.MISSILE, Action.OIL}
    click(app, buttons[Action.MISSILE].rect.center)
    assert scene.armed is Action.MISSILE
    assert "armed" in dict(scene.action_buttons())[Action.MISSILE].text
    click(app, dict(scene.action_buttons())[Action.OIL].rect.center)
    assert scene.armed is Action.OIL
    click(app, dict(scene.action_buttons())[Action.OIL].rect.center)  # again: disarmed
    assert scene.armed is None
