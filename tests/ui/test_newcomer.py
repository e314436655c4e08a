"""What a newcomer meets: marks and words for every candidate, the start's announcement, the
zoom kept, How to play for every variant, the tutorial, interrupted races kept side by side,
settings applied at once, names that follow the kind of player, sounds."""

from __future__ import annotations

import pygame
import pytest

from racetrack import archive
from racetrack.ai import make_driver
from racetrack.geometry import Vec
from racetrack.outlook import Look
from racetrack.rules import bundled_variant_names
from racetrack.settings import PlayerChoice, load_settings
from racetrack.track import find_track
from racetrack.ui.scenes.help import HelpScene
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.options import OptionsScene
from racetrack.ui.scenes.pause import PauseScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.setup import SetupScene
from racetrack.ui.scenes.tutorial import STEPS, TutorialScene
from racetrack.ui.scenes.unfinished import UnfinishedScene
from tests.ui.conftest import button, click, pick, press, run


def baker_race(app, seed=5, intro=False):
    app.push(MenuScene(app))
    players = (PlayerChoice("Ann", "red", "human"), PlayerChoice("Bob", "blue", "easy"))
    scene = app.routes.start_race(find_track("oval"), "baker", players, seed=seed,
                             animation_seconds=0.0, replace=False)
    if not intro:
        scene._start_following()
    scene.preparing.result()
    return scene


def settle_outlooks(app, scene):
    run(app, 1)
    scene.finish_outlooks()
    run(app, 1)
    return scene.current_outlooks()


def test_a_point_into_the_wall_is_marked_and_says_so_before_the_click(app):
    scene = baker_race(app)
    scene.state.place(0, Vec(30, 22), Vec(6, 0), damage=1)
    found = {tuple(o.target): o for o in settle_outlooks(app, scene)}
    assert found[(36, 22)].look is Look.WALL and found[(35, 22)].warning
    point = tuple(round(v) for v in scene.camera.to_screen(36, 22))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=point, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    run(app, 1)
    assert scene.hover == Vec(36, 22)
    assert scene.outlook_at(scene.hover).words() == "hits the wall: +6 damage, 7/5: out"


def test_the_race_opens_on_the_whole_track_with_the_draw_then_follows(app):
    app.push(MenuScene(app))
    players = (PlayerChoice("Ann", "red", "human"), PlayerChoice("Bot", "blue", "easy"),
               PlayerChoice("Cy", "green", "easy"))
    scene = app.routes.start_race(find_track("hairpins"), "gardner", players, seed=3,
                             animation_seconds=0.0, replace=False)
    whole = scene.camera.scale
    assert scene.intro and not scene.camera.followed
    first = scene.race.cars[scene.race.order[0]].name
    assert f"{first} drew first move" in scene.intro_lines()[1]
    run(app, 120, 1 / 30)  # the announcement ends by itself
    assert not scene.intro and scene.camera.followed and scene.camera.scale > whole


def test_the_zoom_chosen_is_kept_for_the_next_race(app):
    scene = baker_race(app)
    for _ in range(3):
        press(app, pygame.K_PLUS)
    chosen = scene.camera.scale
    scene.close()
    again = baker_race(app, seed=6)  # at once: the file may still be being written
    app.settings_writer.wait()
    assert load_settings().zoom == pytest.approx(chosen, abs=0.01)
    assert again.camera.scale == pytest.approx(chosen, abs=0.01)


def test_a_move_makes_a_pencil_sound_and_the_list_shows_every_car(app):
    scene = baker_race(app)
    outlooks = settle_outlooks(app, scene)
    safe = next(o for o in outlooks if o.look is Look.SAFE and not o.candidate.unchanged)
    click(app, tuple(round(v) for v in scene.camera.to_screen(*safe.target)), frames=2)
    assert "move" in app.sound.played
    assert app.screen.get_at((app.size[0] - 20, 80)) != app.screen.get_at((app.size[0] // 2,
                                                                           app.size[1] - 30))


@pytest.mark.parametrize("rules", bundled_variant_names())
def test_how_to_play_draws_every_variant(app, rules):
    app.push(MenuScene(app))
    app.push(HelpScene(app, rules, "Oval"))
    run(app, 2)
    assert "rules" in app.scenes[-1].text()


def test_how_to_play_is_reached_from_setup_and_pause(app):
    app.push(MenuScene(app))
    setup = SetupScene(app)
    app.push(setup)
    run(app, 1)
    click(app, button(setup, "?").rect.center)
    assert isinstance(app.scenes[-1], HelpScene)
    press(app, pygame.K_ESCAPE)
    scene = baker_race(app)
    press(app, pygame.K_ESCAPE)
    pause = app.scenes[-1]
    assert isinstance(pause, PauseScene)
    click(app, button(pause, "How to play").rect.center)
    assert isinstance(app.scenes[-1], HelpScene) and app.scenes[-1].rules == scene.race.rules


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


def test_interrupted_races_are_listed_resumed_and_discarded_after_a_question(app):
    for seed in (1, 2):
        scene = baker_race(app, seed=seed)
        settle_outlooks(app, scene)
        scene.play(scene.state.legal_moves()[0])
        scene.flush()
        app.scenes.clear()
    assert len(archive.unfinished_races()) == 2
    menu = MenuScene(app)
    app.push(menu)
    run(app, 1)
    click(app, button(menu, "Resume a race (2)").rect.center)
    listing = app.scenes[-1]
    assert isinstance(listing, UnfinishedScene)
    run(app, 1)
    click(app, button(listing, "Discard").rect.center)
    click(app, listing.form.dialogs[0].confirm_button.rect.center)
    assert len(archive.unfinished_races()) == 1
    run(app, 1)
    click(app, button(listing, "Resume").rect.center)
    assert isinstance(app.scenes[-1], RaceScene)


def test_settings_apply_at_once_and_are_kept(app):
    app.push(MenuScene(app))
    options = OptionsScene(app)
    app.push(options)
    run(app, 1)
    choices = [w for w in options.form.widgets if hasattr(w, "choices")]
    speed = next(c for c in choices if "normal" in c.choices)
    pick(app, speed, "fast")
    toggles = [w for w in options.form.widgets if type(w).__name__ == "Toggle"]
    click(app, toggles[2].rect.center)  # mute
    saved = load_settings()
    assert saved.animation_seconds == 0.15 and saved.muted and app.sound.muted
    slider = next(w for w in options.form.widgets if type(w).__name__ == "Slider")
    slider.set(30)
    assert load_settings().volume == 30


def test_a_players_name_follows_its_kind_and_is_all_selected_on_focus(app):
    app.push(MenuScene(app))
    setup = SetupScene(app)
    app.push(setup)
    run(app, 1)
    setup.add()
    run(app, 1)
    assert setup.players[-1].name == "Computer 2" and setup.players[-1].driver == "medium"
    drivers = [w for w in setup.form.widgets if getattr(w, "choices", None) == list(
        ("human", "easy", "medium", "hard", "expert"))]
    pick(app, drivers[-1], "human")
    assert setup.players[-1].name == "Player 2"
    names = [w for w in setup.form.widgets if type(w).__name__ == "Entry"]
    click(app, names[-1].rect.center)
    element = names[-1].element
    assert element.select_range == [0, len("Player 2")]
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Zoe"))
    run(app, 1)
    assert setup.players[-1].name == "Zoe"


def test_two_tracks_of_the_same_name_are_told_apart_in_the_track_list(app):
    import shutil

    from racetrack.settings import tracks_dir

    tracks_dir().mkdir(parents=True, exist_ok=True)
    shutil.copy(find_track("oval"), tracks_dir() / "my oval.yaml")  # also called "Oval"
    setup = SetupScene(app)
    app.push(setup)
    run(app, 2)
    ovals = [i for i, c in enumerate(setup.tracks) if c.track.name == "Oval"]
    assert len(ovals) == 2 and all(setup.named_alike(i) for i in ovals)
    labels = [setup.labels[i] for i in ovals]
    assert [entry.name for entry in labels] == ["Oval (1)", "Oval (2)"]
    assert labels[0].detail == "oval.yaml, bundled" and labels[1].detail == "my oval.yaml"
    others = [i for i in range(len(setup.tracks)) if i not in ovals]
    assert not any(setup.named_alike(i) for i in others)
    assert setup.labels[others[0]].name == setup.tracks[others[0]].track.name
    # The two cells differ (the number and the file are drawn on them; neither is chosen).
    setup.selected = others[0]
    size = (200, 150)
    first, second = (setup.cell_picture(i, size) for i in ovals)
    assert pygame.image.tobytes(first, "RGB") != pygame.image.tobytes(second, "RGB")
