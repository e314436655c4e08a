"""The editor driven by posted mouse and key events: draw, save, reload, undo, validate, and
the window's part of never losing work (the questions, the lists, the text fields)."""

from __future__ import annotations

import pygame
import pytest

from racetrack.base.settings import load_settings, save_settings, tracks_dir
from racetrack.board.track import load_track
from racetrack.board.track.draft import load_draft
from racetrack.editing import Leave, Tool
from racetrack.editing.parts import arrow_tip
from racetrack.games import archive
from racetrack.ui.scenes.editor import EditorScene, autosave_path
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.results import ResultsScene
from racetrack.ui.scenes.setup import available_tracks
from tests.ui.conftest import click, pick, press, run


@pytest.fixture
def editor(app):
    app.push(MenuScene(app))
    scene = EditorScene(app)
    app.push(scene)
    run(app, 1)
    return scene


def screen(scene, point):
    return tuple(round(v) for v in scene.camera.to_screen(*point))


def click_at(app, scene, point, button=1):
    pos = screen(scene, point)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    run(app, 1)


def key(app, name, mod=0, text=""):
    """A key press as SDL sends it: the key, then the character it types."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=name, mod=mod, unicode=text))
    if text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=name, mod=mod))
    run(app, 1)


def draw_box_track(app, scene):
    key(app, pygame.K_o, text="o")
    for point in [(0, 0), (30, 0), (30, 20), (0, 20), (0, 0)]:  # the outline, closed
        click_at(app, scene, point)
    for point in [(8, 8), (22, 8), (22, 12), (8, 12)]:  # a hole, closed with Enter
        click_at(app, scene, point)
    press(app, pygame.K_RETURN)
    key(app, pygame.K_s, text="s")  # start line
    click_at(app, scene, (15, 0))
    click_at(app, scene, (15, 8))
    key(app, pygame.K_c, text="c")  # a checkpoint on the far side
    click_at(app, scene, (15, 12))
    click_at(app, scene, (15, 20))


def type_text(app, text):
    """Typing as SDL reports it: each key down (Shift first for a capital), the character,
    and the keys up again."""
    for char in text:
        if char.isupper():
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LSHIFT,
                                                 mod=pygame.KMOD_SHIFT, unicode=""))
        code = pygame.key.key_code(char.lower()) if char != " " else pygame.K_SPACE
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=char))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code, mod=0))
    run(app, 1)


def test_draw_a_track_save_it_and_reload_it_equal(app, editor):
    draw_box_track(app, editor)
    draft = editor.draft
    assert len(draft.outer) == 4 and len(draft.holes) == 1
    assert draft.start is not None and len(draft.checkpoints) == 1
    assert editor.state.problems() == []
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)  # not saved yet: asks for a name
    assert editor.field is not None and editor.field.selected
    type_text(app, "Square Ring")  # replaces the name offered
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
    steps = editor.state.history.position
    for _ in range(steps):
        press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert editor.draft.outer == () and editor.draft.sketch is None
    for _ in range(steps):
        press(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert editor.draft == final


def test_drag_insert_and_delete_vertices(app, editor):
    draw_box_track(app, editor)
    key(app, pygame.K_v, text="v")
    corner, target = screen(editor, (30, 20)), screen(editor, (32, 22))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=corner, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=target, rel=(10, 10),
                                         buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=target, button=1))
    run(app, 1)
    assert (32.0, 22.0) in editor.draft.outer
    click_at(app, editor, (0, 10))  # the middle of the left edge: a new corner
    assert (0.0, 10.0) in editor.draft.outer and len(editor.draft.outer) == 5
    click_at(app, editor, (0, 10), button=3)  # right-click removes it
    assert len(editor.draft.outer) == 4


def test_problems_are_marked_and_flipping_the_start_fixes_direction(app, editor):
    key(app, pygame.K_o, text="o")
    for point in [(0, 0), (10, 10), (10, 0), (0, 10), (0, 0)]:  # a bow-tie
        click_at(app, editor, point)
    # Marked as soon as it closes, before there is a start line.
    assert any(m.message == "The outline crosses itself at (5, 5)"
               for m in editor.state.marks())
    key(app, pygame.K_s, text="s")
    click_at(app, editor, (5, 0))
    click_at(app, editor, (5, 3))
    key(app, pygame.K_r, text="r")  # refuses to race an invalid track
    assert not isinstance(app.scenes[-1], RaceScene)
    forward = editor.draft.start.forward
    click_at(app, editor, arrow_tip(editor.draft.start, editor.state.hand.arrow * 0.7))
    assert editor.draft.start.forward == (-forward[0], -forward[1])


def test_work_in_progress_is_autosaved_and_restored(app, editor):
    draw_box_track(app, editor)
    key(app, pygame.K_z, text="z")
    click_at(app, editor, (2, 2))
    click_at(app, editor, (5, 2))  # a zone half drawn
    assert autosave_path().exists()
    again = EditorScene(app)
    assert again.draft == editor.draft and again.draft.sketch.points == ((2, 2), (5, 2))


def test_test_drive_uses_the_chosen_rules_and_the_race_comes_back_to_the_drawing(app, editor):
    draw_box_track(app, editor)
    editor.panel.rules.set("baker")
    editor.choose_rules("baker")
    key(app, pygame.K_t, text="t")
    found = editor.state.checks.analyst.job.result(timeout=60)
    run(app, 1)
    assert editor.state.analysis() is found and found.rules.name == "baker"
    assert found.par is not None and editor.state.show_route
    assert load_settings().rules == "baker"  # the New race screen offers the same
    drawn = editor.draft
    key(app, pygame.K_r, text="r")
    race = app.scenes[-1]
    assert isinstance(race, RaceScene) and race.race.rules.name == "baker"
    race.on_over(race.state)  # the race ends: its results offer the way back
    results = app.scenes[-1]
    assert isinstance(results, ResultsScene) and results.proceed[0] == "Back to editor"
    results.proceed[1]()
    assert app.scenes[-1] is editor and editor.draft == drawn


def test_quitting_a_test_race_from_its_pause_menu_goes_back_to_the_drawing(app, editor):
    draw_box_track(app, editor)
    drawn = editor.draft
    key(app, pygame.K_r, text="r")
    race = app.scenes[-1]
    assert isinstance(race, RaceScene)
    run(app, 1)
    press(app, pygame.K_ESCAPE)
    pause = app.scenes[-1]
    texts = [w.text for w in pause.form.widgets]
    assert "Back to editor" in texts and "Quit to menu" not in texts
    click(app, next(w for w in pause.form.widgets if w.text == "Back to editor").rect.center)
    assert app.scenes[-1] is editor and editor.draft == drawn
    assert archive.unfinished_races() == []  # a test race is not kept to resume


def test_waypoints_are_placed_and_removed_by_clicking_and_saved(app, editor):
    draw_box_track(app, editor)
    key(app, pygame.K_w, text="w")
    for point in [(25, 4), (25, 16), (5, 16), (5, 4)]:
        click_at(app, editor, point)
    click_at(app, editor, (5, 16))  # again: removed
    assert editor.draft.waypoints == ((25, 4), (25, 16), (5, 4))
    track = editor.draft.to_track()
    assert track.waypoints == ((25, 4), (25, 16), (5, 4)) and not track.is_circuit
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)  # undo brings the removed one back
    assert len(editor.draft.waypoints) == 4


def test_the_key_that_opens_a_text_field_is_not_typed_into_it(app, editor):
    key(app, pygame.K_n, text="n")
    assert editor.field is not None and editor.field.text == "New track"
    key(app, pygame.K_BACKSPACE)  # the offered name is selected: Backspace clears it
    type_text(app, "Hairpin Alley")
    press(app, pygame.K_RETURN)
    assert editor.draft.name == "Hairpin Alley"


def test_new_asks_before_discarding_and_the_template_list_takes_clicks(app, editor):
    draw_box_track(app, editor)
    drawn = editor.draft
    press(app, pygame.K_n, mod=pygame.KMOD_CTRL)
    assert editor.dialog is not None and editor.state.question is not None
    cancel = editor.dialog.widgets[-1]
    click_at_pixel(app, cancel.rect.center)
    assert editor.state.question is None and editor.draft == drawn
    press(app, pygame.K_n, mod=pygame.KMOD_CTRL)
    assert [w.text for w in editor.dialog.widgets] == ["Save", "Discard", "Cancel"]
    click_at_pixel(app, editor.dialog.widgets[1].rect.center)  # Discard
    assert editor.dialog is None and editor.chooser is not None
    row = next(i for i, e in enumerate(editor.entries)
               if e.path is not None and e.path.stem == "oval")
    for _ in range(row):  # down the list with the keys: it scrolls to keep the row in sight
        press(app, pygame.K_DOWN)
    assert editor.chooser.index == row and editor.chooser.row_button(row) is not None
    click_at_pixel(app, editor.chooser.row_button(row).rect.center)
    assert editor.chooser is None and editor.draft.name == "My Oval"
    assert editor.state.tool is Tool.SELECT and not editor.state.dirty


def test_the_template_list_picks_with_enter_or_a_click_on_any_row(app, editor):
    press(app, pygame.K_n, mod=pygame.KMOD_CTRL)  # nothing unsaved: the list at once
    assert editor.dialog is None and editor.chooser is not None
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert editor.chooser is None and editor.draft.name == f"My {editor.entries[1].name}"
    press(app, pygame.K_n, mod=pygame.KMOD_CTRL)
    click_at_pixel(app, editor.chooser.row_button(0).rect.center)  # the empty sheet
    assert editor.chooser is None and editor.draft.outer == ()


def test_the_dialogs_close_button_cancels_and_clicks_behind_a_dialog_draw_nothing(app, editor):
    draw_box_track(app, editor)
    drawn = editor.draft
    press(app, pygame.K_o, mod=pygame.KMOD_CTRL)
    window = editor.dialog.window
    click_at_pixel(app, (10, app.size[1] - 10))  # on the paper, behind the question
    assert editor.draft == drawn and editor.state.question is not None
    click_at_pixel(app, window.close_window_button.rect.center)
    assert editor.state.question is None and editor.dialog is None and not window.alive()


def test_saving_over_another_track_asks_to_replace_it(app, editor):
    draw_box_track(app, editor)
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    type_text(app, "Ring")
    press(app, pygame.K_RETURN)
    assert (tracks_dir() / "Ring.yaml").exists()
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL | pygame.KMOD_SHIFT)  # save as
    assert editor.field is not None and editor.field.selected
    press(app, pygame.K_RETURN)  # the same name: the file it came from, no question
    assert editor.state.question is None
    editor.state.path = None  # a drawing of its own, saved under a name taken already
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    press(app, pygame.K_RETURN)
    assert [w.text for w in editor.dialog.widgets] == ["Replace", "Cancel"]
    click_at_pixel(app, editor.dialog.widgets[0].rect.center)
    assert editor.state.path == tracks_dir() / "Ring.yaml" and editor.dialog is None


def test_closing_the_window_asks_first_and_cancel_keeps_the_editor_open(app, editor):
    draw_box_track(app, editor)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    run(app, 1)
    assert app.running and editor.state.question is not None
    assert editor.state.question.then is Leave.QUIT
    press(app, pygame.K_ESCAPE)
    assert app.running and editor.state.question is None
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    run(app, 1)
    press(app, pygame.K_d)  # Discard
    assert not app.running


def test_the_menu_button_leaves_at_once_when_nothing_is_unsaved(app, editor):
    click_at_pixel(app, editor.panel.buttons["Menu"].rect.center)
    assert isinstance(app.scenes[-1], MenuScene)


def test_the_panels_tool_buttons_rules_list_and_laps_list(app, editor):
    panel = editor.panel
    click_at_pixel(app, panel.tool_buttons[Tool.ZONE].rect.center)
    assert editor.state.tool is Tool.ZONE and panel.tool_buttons[Tool.ZONE].element.is_selected
    assert not panel.tool_buttons[Tool.SELECT].element.is_selected
    assert panel.option is not None and panel.option.value == editor.state.palette.zone_kind
    other = next(kind for kind in panel.option.choices if kind != editor.state.palette.zone_kind)
    pick(app, panel.option, other)
    assert editor.state.palette.zone_kind == other
    pick(app, panel.rules, "baker")
    assert editor.state.rules.name == "baker" and load_settings().rules == "baker"
    pick(app, panel.laps, "3 laps")
    assert editor.draft.laps == 3
    press(app, pygame.K_MINUS)  # a key changes the laps: the list shows it
    run(app, 1)
    assert editor.draft.laps == 2 and panel.laps.value == "2 laps"


def test_the_road_tool_in_the_window(app, editor):
    key(app, pygame.K_p, text="p")
    for point in [(0, 0), (24, 0), (30, 12), (12, 20), (0, 14), (0, 0)]:
        click_at(app, editor, point)
    track = editor.draft.to_track()
    assert track.is_circuit and track.holes and editor.state.tool is Tool.SELECT
    assert load_draft(autosave_path()) == editor.draft


def test_a_freehand_road_by_dragging(app, editor):
    import math

    key(app, pygame.K_p, text="p")
    points = [screen(editor, (15 + 12 * math.cos(a / 24 * 2 * math.pi),
                              12 + 9 * math.sin(a / 24 * 2 * math.pi))) for a in range(25)]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=points[0], button=1))
    for point in points[1:]:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=point, rel=(1, 1),
                                             buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=points[-1], button=1))
    run(app, 1)
    assert editor.draft.to_track().is_circuit


def test_pan_with_the_middle_button_and_the_arrow_keys(app, editor):
    before = (editor.camera.centre_x, editor.camera.centre_y)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(200, 200), button=2))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(260, 200), rel=(60, 0),
                                         buttons=(0, 1, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(260, 200), button=2))
    run(app, 1)
    assert editor.camera.centre_x < before[0] and editor.camera.centre_y == before[1]
    press(app, pygame.K_DOWN)
    assert editor.camera.centre_y > before[1]
    assert editor.draft.outer == ()  # panning draws nothing


def test_the_frame_does_not_draw_the_whole_drawing_again(app, editor):
    draw_box_track(app, editor)
    run(app, 2)
    cached = editor.canvas._surface
    run(app, 5)
    assert editor.canvas._surface is cached and editor.canvas._key[0] is editor.draft


def click_at_pixel(app, pos, button=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    run(app, 1)


@pytest.fixture(autouse=True)
def two_players(app):
    """A human and a computer, the default players, remembered as the player left them."""
    save_settings(load_settings())


def test_f1_lists_every_key_over_the_whole_window_and_any_key_closes_it(app, editor):
    press(app, pygame.K_F1)
    assert editor.help and not editor.panel.page.root.visible  # the panel's buttons hidden
    surface = pygame.Surface(app.screen.get_size())
    editor.draw(surface)
    room, layout = editor._key_layout
    assert room.w > editor.camera.width  # the whole window, not only the paper
    assert any(row.keys == "Ctrl+O / Ctrl+N" for row in layout.rows)
    click_at_pixel(app, editor.panel.buttons["Race"].rect.center)  # a click only closes it
    assert not editor.help and editor.panel.page.root.visible
    assert app.scenes[-1] is editor


def test_an_open_rules_list_takes_the_arrow_keys_and_esc_closes_only_it(app, editor):
    rules = editor.panel.rules
    first = rules.value
    click_at_pixel(app, rules.rect.center)
    run(app, 2)
    assert rules.expanded
    press(app, pygame.K_DOWN)
    run(app, 2)
    rules = editor.panel.rules
    chosen = rules.choices[rules.choices.index(first) + 1]
    assert rules.value == chosen and editor.state.rules.name == chosen
    assert rules.expanded  # still open, on the entry chosen
    press(app, pygame.K_PAGEUP)
    run(app, 2)
    assert editor.panel.rules.value == editor.panel.rules.choices[
        max(0, rules.choices.index(chosen) - 5)]
    press(app, pygame.K_ESCAPE)
    run(app, 2)
    assert not editor.panel.rules.expanded and app.scenes[-1] is editor  # only the list closed
