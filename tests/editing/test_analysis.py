"""The solver's findings in the editor: par under the chosen rules, the fairness line, and
lines that face the wrong way or cannot be reached."""

from __future__ import annotations

from racetrack.board.geometry import Line
from racetrack.board.track import Track
from racetrack.board.track.draft import flipped
from racetrack.editing.analysis import Analyst, analyse
from racetrack.rules import load_rules
from tests.conftest import make_track

RING = """
    outer: [[0, 0], [30, 0], [30, 20], [0, 20]]
    holes: [[[8, 8], [22, 8], [22, 12], [8, 12]]]
    start: {a: [15, 0], b: [15, 8], forward: [1, 0]}
"""


def ring(**changes) -> Track:
    from dataclasses import replace

    return replace(make_track(RING), **changes)


def test_par_depends_on_the_rules_chosen():
    track = ring()
    gardner, baker = analyse(track, load_rules("gardner")), analyse(track, load_rules("baker"))
    assert gardner.par is not None and baker.par is not None and gardner.par != baker.par
    assert baker.par_text() == f"par {baker.par} moves (baker rules)"


def test_the_fairness_line_gives_the_optimum_from_each_start_point():
    found = analyse(ring(), load_rules("gardner"))
    assert [tuple(p) for p, _ in found.each_start] == [(15, 1), (15, 2), (15, 3), (15, 4),
                                                        (15, 5), (15, 6), (15, 7)]
    values = [moves for _, moves in found.each_start]
    assert min(values) == found.par
    text = found.fairness_text()
    assert text.startswith("from each start: " + ", ".join(map(str, values)))
    spread = max(values) - min(values)
    assert text.endswith("(fair)" if spread == 0 else
                         f"({spread} move{'s' if spread != 1 else ''} apart)")


def test_a_checkpoint_facing_backwards_is_warned_about():
    good = Line((15, 12), (15, 20), (-1, 0))  # the far side: leftwards on a clockwise race
    fine = analyse(ring(checkpoints=(good,)), load_rules("gardner"))
    assert fine.warnings == ()
    backwards = analyse(ring(checkpoints=(flipped(good),)), load_rules("gardner"))
    assert [m.message for m in backwards.warnings] == [
        "Checkpoint 1 faces backwards: the best route crosses it the other way (click its "
        "arrow to flip it)"]
    assert backwards.warnings[0].at == (15, 16)


def test_a_finish_facing_backwards_is_warned_about():
    finish = Line((0, 10), (8, 10), (0, -1))  # the left side: upwards at the end of a lap
    track = ring(finish=finish)
    messages = [m.message for m in analyse(track, load_rules("gardner")).warnings]
    wrong = ring(finish=flipped(finish))
    wrong_messages = [m.message for m in analyse(wrong, load_rules("gardner")).warnings]
    assert len(wrong_messages) == len(messages) + 1
    assert any(m.startswith("The finish line faces backwards") for m in wrong_messages)


def test_an_unreachable_checkpoint_is_named():
    # A pocket at the end of a long neck too thin for any lattice point or any move.
    track = make_track("""
        outer: [[0, 0], [30, 0], [30, 20], [10.7, 20], [10.7, 40], [16, 40], [16, 48],
                [6, 48], [6, 40], [10.3, 40], [10.3, 20], [0, 20]]
        holes: [[[8, 8], [22, 8], [22, 12], [8, 12]]]
        start: {a: [15, 0], b: [15, 8], forward: [1, 0]}
        checkpoints:
          - {a: [22, 10], b: [30, 10], forward: [0, 1]}
          - {a: [11, 42], b: [11, 47], forward: [1, 0]}
    """)
    found = analyse(track, load_rules("gardner"))
    assert found.par is None
    assert [m.message for m in found.warnings] == [
        "Checkpoint 2 cannot be reached from the start"]


def test_the_analyst_answers_off_the_thread_and_keeps_only_the_latest():
    analyst = Analyst()
    try:
        first = analyst.ask(ring(), load_rules("gardner"))
        again = analyst.ask(ring(), load_rules("gardner"))
        assert first is again  # the same question is not asked twice
        latest = analyst.ask(ring(laps=2), load_rules("gardner"))
        latest.result(timeout=60)
        assert analyst.latest().track.laps == 2
    finally:
        analyst.close()


def cornered_ring() -> Track:
    """A narrow circuit with its start line on a square corner, as the road tool once built
    it: the place in the infield's corner cannot finish (``solve --starts`` says so)."""
    from racetrack.board.track.draft import Draft
    from racetrack.editing.road import road_surface

    outer, holes, _ = road_surface([(0, 0), (30, 0), (30, 20), (0, 20), (0, 0)], 3.0, True)
    return Draft(outer=outer, holes=holes, start=Line((0, -2), (0, 3), (1, 0))).to_track()


def test_a_start_place_no_car_can_finish_from_is_a_problem_marked_where_it_is():
    from racetrack.board.course import Course
    from racetrack.board.track.draft import Severity
    from racetrack.search.solver import solve_each_start

    track, rules = cornered_ring(), load_rules("gardner")
    stranded = [p for p, v in solve_each_start(Course(track), rules).items() if v is None]
    assert stranded  # the solver's own word, as `racetrack solve --starts` prints it
    found = analyse(track, rules)
    assert list(found.stranded) == stranded
    assert [m.at for m in found.problems] == [(float(p.x), float(p.y)) for p in stranded]
    assert all(m.severity is Severity.PROBLEM for m in found.problems)
    assert "(0, 2)" in found.problems[0].message and "gardner rules" in found.problems[0].message
    assert found.problems[0] in found.marks
    assert found.fairness_text().endswith(f"({len(stranded)} cannot finish)")
    assert analyse(ring(), rules).problems == ()  # every place of the plain ring finishes


def test_the_editor_is_not_ready_to_race_while_a_start_place_cannot_finish():
    from racetrack.board.track.draft import Draft
    from racetrack.editing import EditorState

    state = EditorState(Draft.from_track(cornered_ring()), rules=load_rules("gardner"))
    assert state.raceable()  # nothing known against it until the solver has answered
    state.update(1.0)
    state.checks.analyst.job.result(timeout=60)
    assert not state.raceable()
    assert any("No car can finish from the start place at (0, 2)" in m.message
               for m in state.marks())
