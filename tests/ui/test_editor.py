"""The editor driven by posted mouse and key events: draw, save, reload, undo, validate."""

from __future__ import annotations

import pygame
import pytest

from racetrack.settings import tracks_dir
from racetrack.track import load_track
from racetrack.ui.scenes.editor import EditorScene, autosave_path
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.setup import available_tracks
from tests.ui.conftest import press, run


@pytest.fixture
def editor(app):
    app.push(MenuScene(app))
    scene = EditorScene(app)
    app.push(scene)
    run(app, 1)
    return scene


def click_at(app, scene, point, button=1):
    pos = tuple(round(v) for v in scene.camera.to_screen(*point))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    run(app, 1)


def draw_box_track(app, scene):
    for point in [(0, 0), (30, 0), (30, 20), (0, 20), (0, 0)]:  # the outline, closed
        click_at(app, scene, point)
    for point in [(8, 8), (22, 8), (22, 12), (8, 12)]:  # a hole, closed with Enter
        click_at(app, scene, point)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_s)  # start line
    click_at(app, scene, (15, 0))
    click_at(app, scene, (15, 8))
    press(app, pygame.K_c)  # a checkpoint on the far side
    click_at(app, scene, (15, 12))
    click_at(app, scene, (15, 20))


def type_text(app, text):
    for char in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    run(app, 1)


def test_draw_a_track_save_it_and_reload_it_equal(app, editor):
    draw_box_track(app, editor)
    draft = editor.draft
    assert len(draft.outer) == 4 and len(draft.holes) == 1
    assert draft.start is not None and len(draft.checkpoints) == 1
    assert editor._marks == []
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)  # not saved yet: asks for a name
    assert editor.prompt is not None
    editor.prompt[1].text = ""
    type_text(app, "Square Ring")
    press(app, pygame.K_RETURN)
    path = tracks_dir() / "Square Ring.yaml"
    assert path.exists()
    track = load_track(path)
    assert track == editor.draft.to_track() and track.name == "Square Ring"
    # It is offered in the track picker beside the bundled tracks.
    assert path in [p for p, _ in available_tracks()]


def test_every_edit_undoes_and_redoes(app, editor):
    draw_box_track(app, editor)
    final = editor.draft
    steps = editor.history.position
    for _ in range(steps):
        press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert editor.draft.outer == ()
    for _ in range(steps):
        press(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert editor.draft == final


def test_drag_insert_and_delete_vertices(app, editor):
    draw_box_track(app, editor)
    press(app, pygame.K_v)
    corner = tuple(round(v) for v in editor.camera.to_screen(30, 20))
    target = tuple(round(v) for v in editor.camera.to_screen(32, 22))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=corner, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=target, rel=(10, 10),
                                         buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=target, button=1))
    run(app, 1)
    assert (32.0, 22.0) in editor.draft.outer
    click_at(app, editor, (0, 10))  # on the left edge: a new vertex
    assert (0.0, 10.0) in editor.draft.outer and len(editor.draft.outer) == 5
    click_at(app, editor, (0, 10), button=3)  # right-click removes it
    assert len(editor.draft.outer) == 4


def test_problems_are_marked_and_flipping_the_start_fixes_direction(app, editor):
    for point in [(0, 0), (10, 10), (10, 0), (0, 10), (0, 0)]:  # a bow-tie
        click_at(app, editor, point)
    press(app, pygame.K_s)
    click_at(app, editor, (5, 0))
    click_at(app, editor, (5, 3))
    assert any("crosses itself" in mark.message for mark in editor._marks)
    press(app, pygame.K_r)  # refuses to race an invalid track
    assert not isinstance(app.scenes[-1], RaceScene)
    forward = editor.draft.start.forward
    press(app, pygame.K_v)
    from racetrack.ui.scenes.editor import _arrow_tip

    click_at(app, editor, _arrow_tip(editor.draft.start))
    assert editor.draft.start.forward == (-forward[0], -forward[1])


def test_work_in_progress_is_autosaved_and_restored(app, editor):
    draw_box_track(app, editor)
    assert autosave_path().exists()
    again = EditorScene(app)
    assert again.draft == editor.draft


def test_test_drive_shows_the_par_and_race_starts_a_race(app, editor):
    draw_box_track(app, editor)
    press(app, pygame.K_t)
    solution = editor.par.result(timeout=60)
    assert solution is not None and solution.moves > 0
    press(app, pygame.K_r)
    assert isinstance(app.scenes[-1], RaceScene)


def test_waypoints_are_placed_and_removed_by_clicking_and_saved(app, editor):
    draw_box_track(app, editor)
    press(app, pygame.K_w)
    for point in [(25, 4), (25, 16), (5, 16), (5, 4)]:
        click_at(app, editor, point)
    click_at(app, editor, (5, 16))  # again: removed
    assert editor.draft.waypoints == ((25, 4), (25, 16), (5, 4))
    track = editor.draft.to_track()
    assert track.waypoints == ((25, 4), (25, 16), (5, 4)) and not track.is_circuit
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)  # undo brings the removed one back
    assert len(editor.draft.waypoints) == 4
