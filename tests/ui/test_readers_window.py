"""The readers' variants in the window: choosing a start point, a special move's note, and
the setup screen's way round a circuit."""

from __future__ import annotations

from racetrack.geometry import Vec
from racetrack.model import Move
from racetrack.settings import PlayerChoice
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.setup import SetupScene
from tests.ui.conftest import click, pick, run
from tests.ui.scenes.test_race import race_scene


def screen(scene, point):
    return tuple(round(v) for v in scene.camera.to_screen(*point))


def test_the_second_player_clicks_a_start_point_and_the_first_gets_the_other(app):
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),
                             PlayerChoice("Bob", "blue", "human")),
                       track="slanted-oval", rules="westinghouse")
    assert scene.state.placing and scene.state.current_car == 1
    click(app, screen(scene, Vec(20, 20)), frames=3)
    state = scene.state
    assert not state.placing and state.current_car == 0
    assert state.car(1).position == Vec(20, 20) and state.car(0).position == Vec(22, 23)


def test_a_launch_is_clicked_like_any_move(app):
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),), track="oval", rules="pope")
    state = scene.state
    state.place(0, Vec(20, 22), velocity=Vec(1, 0))
    state.apply(Move(Vec(20, 22)))  # a full stop
    scene.camera.followed = False
    scene.camera.fit(scene.race.track.bounds)
    run(app, 2)
    click(app, screen(scene, Vec(26, 22)), frames=3)
    assert state.car(0).position == Vec(26, 22) and state.car(0).velocity == Vec(6, 0)


def test_the_setup_screen_offers_the_way_round_where_the_rules_allow(app):
    setup = SetupScene(app)
    app.push(setup)
    setup.rules.set("levi")
    setup.selected = next(i for i, c in enumerate(setup.tracks) if c.path.stem == "oval")
    run(app, 2)
    ways = [w for w in setup.form.widgets if getattr(w, "choices", None) == ["fwd", "rev"]]
    assert len(ways) == len(setup.players)
    pick(app, ways[0], "rev")
    assert setup.players[0].reverse
    setup.rules.set("gardner")
    run(app, 2)
    assert not [w for w in setup.form.widgets if getattr(w, "choices", None) == ["fwd", "rev"]]
    setup.rules.set("levi")
    run(app, 2)
    setup.start()
    run(app, 2)
    race = next(s for s in app.scenes if isinstance(s, RaceScene)).race
    assert race.cars[0].reverse and not race.cars[1].reverse
