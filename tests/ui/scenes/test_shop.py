"""Baker's advanced rules in the window: the shop, the kit panel and the action keys."""

from __future__ import annotations

import pygame

from racetrack.base.settings import PlayerChoice
from racetrack.board.geometry import Vec
from racetrack.board.track import find_track
from racetrack.engine.model import Action, Kit, Move
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.shop import ShopScene
from tests.ui.conftest import click, press, run

PLAYERS = (PlayerChoice("Ann", "red", "human"), PlayerChoice("Bot", "blue", "medium"))


def centre(widget):
    return widget.rect.center


def test_the_shop_buys_with_plus_and_minus_then_starts_the_race(app):
    app.push(MenuScene(app))
    shop = app.routes.start_race(find_track("hazards"), "baker-bond", PLAYERS, seed=3,
                            animation_seconds=0.05, replace=False)
    assert isinstance(shop, ShopScene) and app.scenes[-1] is shop
    assert shop.cars[1].kit is not None  # the computer car has bought already
    items = [item for item, _ in shop.items]
    plus = {item: shop.form.widgets[2 * i + 1] for i, item in enumerate(items)}
    for _ in range(4):
        click(app, centre(plus["damage"]))
    click(app, centre(shop.form.widgets[2 * items.index("missiles") + 1]))
    click(app, centre(shop.form.widgets[2 * items.index("damage")]))  # one back: $5 refunded
    assert shop.kit == Kit(damage=3, missiles=1, money=55)
    run(app, 1)
    click(app, centre(shop.form.widgets[-1]))  # Done
    scene = app.scenes[-1]
    assert isinstance(scene, RaceScene)
    assert scene.race.cars[0].kit == Kit(damage=3, missiles=1, money=55)
    assert scene.state.cars[0].kit.missiles == 1


def racing_with_a_missile(app):
    """Ann bought a missile in the shop and races on, two squares east a turn, against a
    second player at the table (a computer car would only add its tables to the test)."""
    app.push(MenuScene(app))
    players = (PLAYERS[0], PlayerChoice("Bea", "blue", "human"))
    shop = app.routes.start_race(find_track("hazards"), "baker-bond", players, seed=3,
                                 animation_seconds=0.05, replace=False)
    items = [item for item, _ in shop.items]
    click(app, centre(shop.form.widgets[2 * items.index("missiles") + 1]))
    click(app, centre(shop.form.widgets[-1]))
    click(app, centre(app.scenes[-1].form.widgets[-1]))  # Bea buys nothing
    scene = app.scenes[-1]
    scene.preparing.result()
    ann = scene.state.cars[0]
    scene.state.place(0, ann.position, Vec(2, 0))
    return scene, scene.state.cars[0]


def test_m_arms_a_missile_for_the_next_click(app):
    scene, ann = racing_with_a_missile(app)
    press(app, pygame.K_m)
    assert scene.armed is Action.MISSILE
    target = ann.position + Vec(2, 0)
    click(app, tuple(round(v) for v in scene.camera.to_screen(*target)), frames=2)
    anns = [move for car, move in scene.state.history if car == 0]
    assert anns[-1].action is Action.MISSILE
    assert scene.armed is None and scene.state.cars[0].kit.missiles == 0
    run(app, 2)  # the paper draws the missile and the panel without trouble


def test_after_the_car_the_player_moves_its_missile_by_clicking_its_points(app):
    scene, ann = racing_with_a_missile(app)
    press(app, pygame.K_m)
    click(app, tuple(round(v) for v in scene.camera.to_screen(*(ann.position + Vec(2, 0)))),
          frames=2)
    missile = scene.state.steering
    assert missile is not None and missile.owner == 0 and scene.human_turn
    assert not scene.action_buttons()  # nothing to fire while the missile moves
    run(app, 10)
    found = scene.finish_outlooks()
    assert found and all(o.missile for o in found)
    # The hover line says what the missile's point does: its unchanged move ends where Ann's
    # car now is ("including your own!").
    ahead = missile.position + missile.velocity
    assert next(o for o in found if o.target == ahead).words() == \
        "missile explodes on Ann: +3 damage"
    boosted = ahead + Vec(2, 0)
    assert next(o for o in found if o.target == boosted).words() == "missile, speed 4 (turbo)"
    click(app, tuple(round(v) for v in scene.camera.to_screen(*boosted)), frames=2)
    assert scene.state.history[-1] == (0, Move(boosted, missile=True))
    assert scene.state.steering is None
    run(app, 2)
