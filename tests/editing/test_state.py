"""The editor's state machine without a window: every way a designer could lose work or be
surprised, driven by presses, drags and keys in lattice coordinates."""

from __future__ import annotations

from pathlib import Path

import pytest

from racetrack.base.settings import tracks_dir
from racetrack.board.course import Course
from racetrack.board.track import Zone, bundled_track_paths, load_track
from racetrack.board.track.draft import Draft, Sketch, across, load_draft
from racetrack.editing import Choice, EditorState, Leave, Tool
from racetrack.editing.checks import problems
from racetrack.editing.parts import FINISH, OUTER, START, Part, PartKind
from racetrack.editing.state import Asking, autosave_path
from racetrack.rules import load_rules
from racetrack.search.solver import solve_each_start
from tests.board.track.maps.test_textmap import KARO


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def state() -> EditorState:
    return EditorState(autosave=autosave_path())


def click(state: EditorState, *points, button: int = 1) -> None:
    for point in points:
        state.press(point, button)
        state.release(point)


def drag(state: EditorState, start, end, steps: int = 5) -> None:
    state.press(start)
    for i in range(1, steps + 1):
        t = i / steps
        state.drag((start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t))
    state.release(end)


def draw_box(state: EditorState) -> None:
    """The outline, the infield and the start line of a 30 x 20 ring, by clicks."""
    state.set_tool(Tool.OUTLINE)
    click(state, (0, 0), (30, 0), (30, 20), (0, 20), (0, 0))
    click(state, (8, 8), (22, 8), (22, 12), (8, 12))  # the tool is now the hole
    state.key("enter")
    state.key("s")
    click(state, (15, 0), (15, 8))


def test_drawing_a_box_ring_makes_a_track():
    state = EditorState()
    draw_box(state)
    assert state.draft.outer == ((0, 0), (30, 0), (30, 20), (0, 20))
    assert len(state.draft.holes) == 1 and state.draft.start is not None
    assert state.problems() == [] and state.track() is not None


# -- never lose work -------------------------------------------------------------------------


def test_new_asks_before_discarding_and_cancel_keeps_everything(state):
    draw_box(state)
    drawn, steps = state.draft, state.history.position
    state.key("n", ctrl=True)
    assert state.question is not None and state.question.choices == (
        Choice.SAVE, Choice.DISCARD, Choice.CANCEL)
    assert state.choosing is None  # no template list until the question is answered
    state.answer(Choice.CANCEL)
    assert state.draft == drawn and state.history.position == steps
    assert load_draft(autosave_path()) == drawn


def test_discard_then_a_template_replaces_the_drawing(state):
    draw_box(state)
    state.key("n", ctrl=True)
    state.answer(Choice.DISCARD)
    assert state.choosing is Leave.NEW
    oval = next(p for p in bundled_track_paths() if p.stem == "oval")
    assert state.new_from(oval)
    assert state.draft.name == f"My {load_track(oval).name}" and state.path is None
    assert not state.dirty  # an untouched template loses nothing
    assert load_draft(autosave_path()) == state.draft


def test_save_from_the_question_asks_a_name_then_carries_on(state):
    draw_box(state)
    state.request(Leave.MENU)
    state.answer(Choice.SAVE)
    assert state.prompt is not None and state.prompt.asking is Asking.SAVE_AS
    assert state.leaving is None
    state.answer_prompt("Box Ring")
    assert (tracks_dir() / "Box Ring.yaml").exists()
    assert state.leaving is Leave.MENU and not state.dirty


def test_closing_the_window_asks_only_with_unsaved_changes(state):
    state.request(Leave.QUIT)
    assert state.question is None and state.leaving is Leave.QUIT
    state.leaving = None
    click(state, (3, 3))  # a first road point is work too
    state.request(Leave.QUIT)
    assert state.question is not None and state.leaving is None
    state.answer(Choice.DISCARD)
    assert state.leaving is Leave.QUIT
    assert not autosave_path().exists()  # discarded: not brought back next time


def test_the_autosave_keeps_the_pending_polygon_and_the_file(state):
    draw_box(state)
    state.files.save_as("Kept")
    path = tracks_dir() / "Kept.yaml"
    state.set_tool(Tool.ZONE)
    click(state, (2, 2), (5, 2), (5, 5))  # a zone half drawn
    again = EditorState.restore(autosave=autosave_path())
    assert again.draft == state.draft
    assert again.draft.sketch == Sketch("zone", ((2, 2), (5, 2), (5, 5)), "oil")
    assert again.path == path and again.tool is Tool.ZONE and again.dirty
    click(again, (2, 5), (2, 2))  # finish the zone after the restart
    assert len(again.draft.zones) == 1
    assert again.files.save()  # Ctrl+S writes to the file it belongs to, without asking
    assert again.prompt is None and load_track(path).zones == again.draft.zones


def test_saving_over_another_track_asks(state):
    draw_box(state)
    state.files.save_as("Twin")
    first = (tracks_dir() / "Twin.yaml").read_text()
    other = EditorState()
    other.set_tool(Tool.ROAD)
    click(other, (0, 0), (20, 0), (20, 14), (0, 14), (0, 0))
    other.files.save_as("Twin")
    assert other.question is not None and Choice.REPLACE in other.question.choices
    assert (tracks_dir() / "Twin.yaml").read_text() == first
    other.answer(Choice.REPLACE)
    assert (tracks_dir() / "Twin.yaml").read_text() != first and other.path.name == "Twin.yaml"


def test_undo_removes_the_last_clicked_point_one_at_a_time(state):
    state.set_tool(Tool.OUTLINE)
    click(state, (0, 0), (10, 0), (10, 10))
    state.key("z", ctrl=True)
    assert state.draft.sketch.points == ((0, 0), (10, 0))
    state.key("z", ctrl=True)
    assert state.draft.sketch.points == ((0, 0),)
    state.key("y", ctrl=True)
    assert state.draft.sketch.points == ((0, 0), (10, 0))
    state.key("backspace")
    assert state.draft.sketch.points == ((0, 0),)
    state.key("z", ctrl=True)  # backspace is a step of its own too
    assert state.draft.sketch.points == ((0, 0), (10, 0))


def test_every_step_undoes_in_order_back_to_the_empty_sheet(state):
    draw_box(state)
    seen = [state.draft]
    while state.history.undo():
        seen.append(state.draft)
    assert state.draft == Draft()
    assert len(seen) == len(set(map(repr, seen)))  # each step a different drawing
    # 5 outline points, 4 hole points, the hole closed, and the start line (its first end
    # and the line one step: a finished line never comes back half drawn).
    assert len(seen) - 1 == 4 + 1 + 4 + 1 + 1


def test_undoing_a_line_drawn_by_two_clicks_takes_it_away_whole(state):
    draw_box(state)
    before = state.draft.with_changes(start=None)
    state.commit(before)
    state.key("f")
    click(state, (5, 0), (5, 8))
    assert state.draft.finish is not None and state.draft.sketch is None
    state.key("z", ctrl=True)
    assert state.draft == before  # no finish line, and no first end left waiting
    state.key("y", ctrl=True)
    assert state.draft.finish is not None and state.draft.sketch is None


# -- live checks ------------------------------------------------------------------------------


def test_a_self_crossing_outline_is_marked_at_every_crossing_before_a_start_line(state):
    state.set_tool(Tool.OUTLINE)
    # A zigzag whose top edge is crossed twice by the dip.
    click(state, (0, 0), (40, 0), (40, 20), (20, -5), (10, 20), (0, 20), (0, 0))
    messages = [m.message for m in state.marks()]
    assert "The outline crosses itself at (18, 0)" in messages
    assert "The outline crosses itself at (24, 0)" in messages
    assert any("start line" in m for m in messages)


def test_rounded_numbers_in_plain_words():
    draft = Draft(outer=((0, 0), (13, 0), (7, 9.3), (3, -7.1)))
    [mark] = [m for m in problems(draft) if "crosses" in m.message]
    assert mark.message == "The outline crosses itself at (4.7, 0)"  # 4.7317..., rounded


def test_warnings_for_a_zone_over_the_start_and_a_short_start_line():
    draft = Draft(outer=((0, 0), (30, 0), (30, 20), (0, 20)),
                  holes=(((8, 8), (22, 8), (22, 12), (8, 12)),),
                  start=across((15, 0), (15, 2)))
    state = EditorState(draft, rules=load_rules("gardner"), cars=3)
    assert any("room for 2 cars; the race has 3" in m.message for m in state.marks())
    state.commit(draft.with_changes(start=across((15, 0), (15, 8)),
                                    zones=(Zone("oil", ((14, 2), (17, 2), (17, 5))),)))
    assert [m.message for m in state.marks()] == ["The oil zone covers the start line"]
    state.set_rules(load_rules("westinghouse"), cars=20)  # cars may share points
    assert not any("room" in m.message for m in state.marks())


# -- drawing ---------------------------------------------------------------------------------


def test_the_road_tool_builds_a_valid_circuit_with_its_start_at_the_first_point(state):
    state.set_tool(Tool.ROAD)
    click(state, (15, 0), (30, 0), (36, 15), (20, 24), (0, 18), (0, 0))
    click(state, (15, 0))  # the first point again: a circuit
    draft = state.draft
    assert draft.sketch is None and len(draft.holes) == 1
    track = draft.to_track()
    assert track.is_circuit and len(track.start_positions()) >= 4
    start = track.start
    assert abs((start.a[0] + start.b[0]) / 2 - 15) <= 1
    assert abs((start.a[1] + start.b[1]) / 2) <= 1
    assert start.forward[0] > 0  # crossed the way the road was drawn
    assert state.problems() == [] and state.tool is Tool.SELECT
    assert "the start is at the first point" in state.notes[-1]


def test_a_circuit_begun_on_a_corner_starts_on_the_nearest_straight(state):
    """A road closed on a square corner put its start line into the infield's corner, where
    a car could not finish: the start goes to the straight beside it instead."""
    state.set_tool(Tool.ROAD)
    state.key("[")
    state.key("[")  # a narrow road, 3 squares
    click(state, (0, 0), (30, 0), (30, 20), (0, 20), (0, 0))
    start = state.draft.start
    middle = ((start.a[0] + start.b[0]) / 2, (start.a[1] + start.b[1]) / 2)
    assert 1 <= abs(middle[0]) + abs(middle[1]) <= 12  # beside the corner, not on it
    assert start.forward in ((1.0, 0.0), (0.0, -1.0))  # still the way the road was drawn
    assert "on the straight nearest the first point" in state.notes[-1]
    course = Course(state.draft.to_track())
    assert None not in solve_each_start(course, load_rules("gardner")).values()


def test_a_freehand_road_is_smoothed_and_built_in_one_step(state):
    import math

    state.set_tool(Tool.ROAD)
    centre, radius = (20, 20), 14
    points = [(centre[0] + radius * math.cos(a / 40 * 2 * math.pi) + (0.3 if a % 2 else -0.3),
               centre[1] + radius * math.sin(a / 40 * 2 * math.pi)) for a in range(41)]
    state.press(points[0])
    for point in points[1:]:
        state.drag(point)
    state.release(points[-1])
    assert state.history.position == 1  # one stroke, one step
    track = state.draft.to_track()
    assert track.is_circuit and len(track.holes) == 1
    assert 40 < len(track.outer) < 400  # smooth, but not a vertex per pixel


def test_an_open_road_gets_a_finish_at_its_end(state):
    state.set_tool(Tool.ROAD)
    click(state, (0, 0), (20, 0), (30, 10))
    state.key("enter")
    track = state.draft.to_track()
    assert not track.is_circuit and track.finish is not None
    assert track.finish.forward[1] > 0  # down the page, the way the road runs at its end


def test_a_second_road_joins_the_first(state):
    state.set_tool(Tool.ROAD)
    click(state, (0, 0), (30, 0), (30, 20), (0, 20), (0, 0))
    state.set_tool(Tool.ROAD)
    click(state, (15, -2), (15, 22))  # a short cut across the middle
    state.key("enter")
    assert len(state.draft.holes) == 2 and state.problems() == []


def test_arrows_flip_with_a_click_in_any_tool(state):
    draw_box(state)
    forward = state.draft.start.forward
    from racetrack.editing.parts import arrow_tip

    for tool in (Tool.OUTLINE, Tool.WAYPOINT, Tool.SELECT):
        state.set_tool(tool)
        click(state, arrow_tip(state.draft.start, state.hand.arrow * 0.7))
        assert state.draft.start.forward == (-forward[0], -forward[1])
        forward = state.draft.start.forward
    assert state.draft.sketch is None and not state.draft.waypoints


def test_a_new_checkpoint_points_along_the_route(state):
    draw_box(state)
    start = state.draft.start.forward  # the start's arrow says which way round
    state.key("c")
    click(state, (15, 20), (15, 12))  # on the far side, drawn either way
    checkpoint = state.draft.checkpoints[0].forward
    assert checkpoint[0] * start[0] < 0  # the far side is driven the other way across


def test_lines_are_drawn_by_dragging_too(state):
    draw_box(state)
    state.key("f")
    drag(state, (5, 0), (5, 8))
    assert state.draft.finish is not None and state.draft.finish.a == (5, 0)


def test_move_copy_mirror_and_rotate_whole_shapes(state):
    draw_box(state)
    hole = Part(PartKind.HOLE, 0)
    state.set_tool(Tool.SELECT)
    click(state, (15, 10))  # inside the infield: selects it
    assert state.selection == {hole}
    drag(state, (15, 10), (16, 11))
    assert state.draft.holes[0][0] == (9, 9)
    state.key("d", ctrl=True)  # a copy beside it, selected
    assert len(state.draft.holes) == 2 and state.selection == {Part(PartKind.HOLE, 1)}
    state.key("delete")
    state.selection = frozenset({hole})
    state.key("e")  # a quarter turn about its middle
    xs = [p[0] for p in state.draft.holes[0]]
    assert max(xs) - min(xs) == 4
    state.key("e", shift=True)
    state.key("m")
    assert sorted(state.draft.holes[0]) == sorted(((9, 9), (23, 9), (23, 13), (9, 13)))


def test_box_select_and_delete(state):
    draw_box(state)
    state.key("c")
    click(state, (25, 0), (25, 8))
    state.set_tool(Tool.SELECT)
    drag(state, (-1, -1), (31, 21))
    assert OUTER in state.selection and START in state.selection
    drag(state, (14, -1), (26, 9))  # a box round the start and the checkpoint only
    assert state.selection == {START, Part(PartKind.CHECKPOINT, 0)}
    state.key("delete")
    assert state.draft.start is None and not state.draft.checkpoints


def test_a_line_is_deleted_by_right_clicking_its_middle(state):
    draw_box(state)
    state.key("f")
    click(state, (5, 0), (5, 8))
    click(state, (5, 3), button=3)
    assert state.draft.finish is None and FINISH not in state.selection


def test_zones_change_kind_and_collectables_are_placed(state):
    draw_box(state)
    state.key("z")
    click(state, (2, 2), (6, 2), (6, 6), (2, 6), (2, 2))
    assert state.draft.zones[0].kind == "oil"
    state.set_tool(Tool.SELECT)
    click(state, (4, 4))
    state.key("k")
    assert state.draft.zones[0].kind == "jump"
    state.key("i")
    state.key("k")
    click(state, (26, 16))
    assert [(c.kind, tuple(c.at)) for c in state.draft.collectables] == [("nickel", (26, 16))]
    click(state, (26, 16))
    assert state.draft.collectables == ()


def test_an_unfinished_shape_put_away_by_another_tool_comes_back_with_undo(state):
    state.set_tool(Tool.OUTLINE)
    click(state, (0, 0), (10, 0), (10, 10))
    state.key("h")
    assert state.draft.sketch is None
    state.key("z", ctrl=True)
    assert state.draft.sketch.points == ((0, 0), (10, 0), (10, 10))
    assert state.tool is Tool.OUTLINE





def test_copied_shapes_paste_into_another_track(state):
    draw_box(state)
    state.set_tool(Tool.SELECT)
    click(state, (15, 10))  # the infield
    state.key("c", ctrl=True)
    state.files.save_as("First")
    state.request(Leave.NEW)
    assert state.new_from(None) and state.draft.holes == ()
    state.key("v", ctrl=True)
    assert state.draft.holes == (tuple((x + 2, y + 2) for x, y in
                                       ((8, 8), (22, 8), (22, 12), (8, 12))),)
    assert state.selection == {Part(PartKind.HOLE, 0)}


def test_a_new_file_named_on_the_command_line_is_where_ctrl_s_saves(tmp_path):
    path = tmp_path / "mine.yaml"
    state = EditorState.of_file(path, autosave=autosave_path())
    draw_box(state)
    assert state.files.save() and state.prompt is None
    assert load_track(path).outer == state.draft.outer


def test_a_damaged_autosave_is_reported_and_kept_aside(state):
    autosave_path().parent.mkdir(parents=True, exist_ok=True)
    autosave_path().write_text("outer: [[0, 0], [1")
    again = EditorState.restore(autosave=autosave_path())
    assert again.draft == Draft() and again.notes[0].startswith(
        "The damaged autosave is kept as editor-autosave.yaml.bad")
    kept = autosave_path().with_name("editor-autosave.yaml.bad")
    assert kept.read_text() == "outer: [[0, 0], [1"


def test_a_map_opens_as_an_unsaved_drawing_that_ctrl_s_names(tmp_path, state):
    source = tmp_path / "ring.txt"
    source.write_text(KARO)
    opened = EditorState.of_file(source, autosave=autosave_path())
    assert opened.draft.finish_area is not None and opened.document.path is None
    assert opened.document.dirty and opened.notes[-1].startswith("Imported ring.txt")
    assert not opened.files.save() and opened.prompt is not None  # asks for a file name
    state.request(Leave.OPEN)
    assert state.open(source) and state.document.dirty and state.draft.start_points
    state.files.save_as("Ring")
    assert load_track(tracks_dir() / "Ring.yaml").start_points == ((1, 3), (2, 3))


def test_areas_and_start_places_are_drawn_chosen_moved_and_removed(state):
    state.set_tool(Tool.OUTLINE)
    click(state, (0, 0), (20, 0), (20, 6), (0, 6), (0, 0))
    state.key("g")  # start places instead of a start line
    click(state, (1, 2), (1, 4), (1, 3))
    click(state, (1, 3))  # again: taken away
    assert state.draft.start_points == ((1, 2), (1, 4))
    state.key("a")  # an area: the finish first
    click(state, (17, 0), (19, 0), (19, 6), (17, 6), (17, 0))
    state.key("k")  # then a checkpoint
    click(state, (9, 0), (11, 0), (11, 6), (9, 6))
    state.key("enter")
    draft = state.draft
    assert draft.finish_area.polygons == (((17, 0), (19, 0), (19, 6), (17, 6)),)
    assert [a.polygons for a in draft.checkpoint_areas] == [(((9, 0), (11, 0), (11, 6),
                                                              (9, 6)),)]
    track = draft.to_track()
    assert track.start is None and track.start_positions() == [(1, 2), (1, 4)]
    state.set_tool(Tool.SELECT)
    click(state, (10, 3))  # inside the checkpoint area
    assert state.selection == {Part(PartKind.CHECKPOINT_AREA, 0)}
    state.key("right", shift=True)
    assert state.draft.checkpoint_areas[0].polygons[0][0] == (10, 0)
    state.key("delete")
    assert state.draft.checkpoint_areas == ()
    state.undo()
    assert len(state.draft.checkpoint_areas) == 1
    state.press((1, 2), button=3)  # right-click a start place: gone
    assert state.draft.start_points == ((1, 4),)
    state.files.save_as("Cells")
    assert load_track(tracks_dir() / "Cells.yaml").finish_area is not None


def test_copied_areas_keep_their_kind(state):
    state.set_tool(Tool.OUTLINE)
    click(state, (0, 0), (20, 0), (20, 6), (0, 6), (0, 0))
    state.key("a")
    state.key("k")
    click(state, (9, 0), (11, 0), (11, 6), (9, 6), (9, 0))
    state.set_tool(Tool.SELECT)
    click(state, (10, 3))
    state.key("d", ctrl=True)
    assert len(state.draft.checkpoint_areas) == 2 and state.draft.finish_area is None
    assert state.selection == {Part(PartKind.CHECKPOINT_AREA, 1)}


# -- the drawing left unsaved last time --------------------------------------------------------


def left_unsaved(name: str = "Lost") -> Draft:
    """A drawing made and never saved, the game then killed: only the autosave holds it."""
    state = EditorState(autosave=autosave_path())
    draw_box(state)
    state.commit(state.draft.with_changes(name=name))
    state.set_tool(Tool.ZONE)
    click(state, (2, 2), (5, 2))  # and a zone half drawn
    return state.draft


def a_track_file(tmp_path) -> Path:
    path = tmp_path / "other.yaml"
    other = EditorState.of_file(path, autosave=tmp_path / "elsewhere.yaml")
    other.set_tool(Tool.ROAD)
    click(other, (0, 0), (20, 0), (20, 14), (0, 14), (0, 0))
    assert other.files.save()
    return path


@pytest.mark.parametrize("opening", ["nothing", "a track", "a map"])
def test_opening_the_editor_offers_last_times_drawing_before_writing_over_it(tmp_path, opening):
    lost = left_unsaved()
    written = autosave_path().read_bytes()
    path = {"nothing": None, "a track": a_track_file(tmp_path),
            "a map": tmp_path / "ring.txt"}[opening]
    if opening == "a map":
        path.write_text(KARO)
    state = EditorState.starting(path, autosave=autosave_path())
    assert state.question is not None and state.question.choices == (
        Choice.RESTORE, Choice.KEEP_ASIDE, Choice.DISCARD)
    assert "'Lost'" in state.question.text and "never saved" in state.question.text
    assert state.draft == lost  # shown behind the question, as it was
    state.press((10, 10))
    state.key("delete")  # the drawing waits for the answer
    assert state.draft == lost
    assert autosave_path().read_bytes() == written  # the autosave is untouched until then
    again = EditorState.starting(path, autosave=autosave_path())  # killed again: offered again
    assert again.question is not None and again.draft == lost


def test_restore_carries_on_with_last_times_drawing(tmp_path):
    lost = left_unsaved()
    path = a_track_file(tmp_path)
    state = EditorState.starting(path, autosave=autosave_path())
    state.answer(Choice.RESTORE)
    assert state.question is None and state.draft == lost and state.dirty
    assert state.tool is Tool.ZONE and f"{path.name} was not opened" in state.notes[-1]
    click(state, (5, 5), (2, 5), (2, 2))  # the zone finished after the restart
    assert len(state.draft.zones) == 1 and load_draft(autosave_path()) == state.draft


def test_escape_restores_too_and_plain_edit_offers_rather_than_restores():
    lost = left_unsaved()
    state = EditorState.starting(autosave=autosave_path())
    assert state.question is not None  # asked, not restored silently
    state.answer(Choice.CANCEL)
    assert state.draft == lost and state.question is None


def test_keep_aside_writes_last_times_drawing_to_its_own_file_then_opens(tmp_path):
    lost = left_unsaved()
    path = a_track_file(tmp_path)
    state = EditorState.starting(path, autosave=autosave_path())
    state.answer(Choice.KEEP_ASIDE)
    assert state.path == path and state.draft == load_draft(path) and not state.dirty
    kept = tracks_dir() / "Lost unsaved.yaml"
    assert any(kept.name in note for note in state.notes) and load_draft(kept).without_sketch() == \
        lost.without_sketch()
    assert load_draft(kept).sketch == lost.sketch  # the half-drawn zone is kept too
    assert load_draft(autosave_path()) == state.draft  # the autosave follows the file now
    left_unsaved()  # a second time: another file, never over the first
    EditorState.starting(path, autosave=autosave_path()).answer(Choice.KEEP_ASIDE)
    assert (tracks_dir() / "Lost unsaved 2.yaml").exists() and kept.exists()


def test_discard_drops_last_times_drawing_and_opens_the_file(tmp_path):
    left_unsaved()
    path = a_track_file(tmp_path)
    state = EditorState.starting(path, autosave=autosave_path())
    state.answer(Choice.DISCARD)
    assert state.path == path and not state.dirty and state.tool is Tool.SELECT
    assert EditorState.starting(autosave=autosave_path()).question is None


def test_no_question_when_nothing_was_left_unsaved(tmp_path):
    path = a_track_file(tmp_path)
    state = EditorState.starting(path, autosave=autosave_path())
    assert state.question is None and state.path == path
    state.commit(state.draft.with_changes(laps=3))
    state.files.save()  # changed, then saved: the autosave holds nothing unsaved
    state = EditorState.starting(autosave=autosave_path())
    assert state.question is None and state.path == path and state.draft.laps == 3


def test_after_new_then_discard_cancelling_the_templates_keeps_the_drawing(state):
    draw_box(state)
    drawn = state.draft
    state.key("n", ctrl=True)
    state.answer(Choice.DISCARD)
    assert state.choosing is Leave.NEW
    state.files.cancel_choosing()
    assert state.draft == drawn and state.dirty and load_draft(autosave_path()) == drawn
