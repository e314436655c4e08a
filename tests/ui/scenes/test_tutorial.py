"""The tutorial race walks a first-time player through the first turns."""

from __future__ import annotations

import pygame

from racetrack.ai import make_driver
from racetrack.settings import load_settings
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.tutorial import STEPS, TutorialScene
from tests.ui.conftest import click, press, run, settle_outlooks


def test_the_tutorial_walks_through_the_first_turns(app):
    app.push(MenuScene(app))
    scene = app.routes.tutorial()
    assert isinstance(scene, TutorialScene)
    scene.preparing.result()
    run(app, 2)
    press(app, pygame.K_RETURN)  # the welcome's Next
    assert scene.step == 1
    coach = make_driver("hard", 1)
    for _ in range(400):
        if scene.step >= len(STEPS) - 1 or scene.state.is_over:
            break
        if scene.coaching.next:  # look round: zoom, then F brings the camera back
            pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1))
            run(app, 1)
            assert scene.coaching.next  # zoomed, not yet followed again
            press(app, pygame.K_f)
            run(app, 20, 0.1)  # the step moves on once no car glides
            assert not scene.coaching.next
        if scene.human_turn:
            outlooks = settle_outlooks(app, scene)
            move = coach.choose(scene.state.clone())
            assert any(o.target == move.target for o in outlooks)
            click(app, tuple(round(v) for v in scene.camera.to_screen(*move.target)))
        elif scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1, 0.2)
    assert scene.step >= len(STEPS) - 1
    app.settings_writer.wait()  # written behind the frame
    assert load_settings().tutorial_done
    assert "Tutorial race" in [w.text for w in MenuScene(app).form.widgets]


def test_the_tutorials_next_button_is_a_themed_button_that_goes_with_its_step(app):
    app.push(MenuScene(app))
    scene = app.routes.tutorial()
    scene.preparing.result()
    run(app, 2)
    next_button = scene.next_button
    assert next_button is not None and next_button.text == "Next"
    box, _, rect = scene.card()
    assert next_button.rect == rect and box.contains(rect)
    click(app, next_button.rect.center)
    assert scene.step == 1
    run(app, 1)
    assert scene.next_button is None and not next_button.element.alive()
