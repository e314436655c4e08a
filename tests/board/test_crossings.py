"""A lap must be driven: Levi's rule-6 checkpoints, and going round the end of a line.

The property test draws random circuits (a ring between two star-shaped walls, the start line
across it) and random routes over the whole sheet, on and off the track, and checks that the
course never counts a lap the route did not wind round the course for.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from racetrack.board.course import Course
from racetrack.board.crossings import SHORT_OF_TRACK, continuations, overlap_gates
from racetrack.board.distance import distance_field
from racetrack.board.geometry import Line, Vec
from racetrack.board.track import Track, find_track, load_track
from racetrack.engine.model import CarSetup, Move
from racetrack.games.race import Race
from racetrack.rules import load_rules


@pytest.fixture(scope="module")
def oval() -> Track:
    return load_track(find_track("oval"))


# -- Levi's rule 6 on the bundled oval -----------------------------------------------------------

def test_rule_6_draws_a_checkpoint_where_the_start_lines_line_overlaps_the_track(oval):
    """"Checkpoints should be drawn across the track on the same line as the start/finish
    line where the track overlaps the line": on the oval, across the far straight, crossed
    the way a lap goes there (leftwards, the start line's arrow pointing right)."""
    course = Course.for_rules(oval, load_rules("levi"))
    start, gate, finish = course.lines
    assert start == finish == oval.start
    assert gate.a == (20, 0.5) and gate.b == (20, 5.5) and gate.forward == (-1, 0)
    assert course.for_rules(oval, load_rules("baker")).lines == (oval.start, oval.start)


def test_raced_the_other_way_round_the_checkpoint_points_the_other_way(oval):
    course = Course.for_rules(oval.reversed(), load_rules("levi"))
    assert course.lines[1].forward == (1, 0)


def test_the_munchkin_route_round_the_end_of_the_start_line_does_not_win(oval):
    """Up off the track behind the line, round its end in the infield and back over it: the
    start line was never crossed, and the car has not been "all the way around the course"."""
    state = Race(oval, load_rules("levi"), [CarSetup("Ann")]).start()
    assert state.car(0).position == (20, 20)
    for target in ((20, 19), (19, 19), (20, 20)):
        state.apply(Move(Vec(*target)))
    assert not state.is_over
    assert state.car(0).progress == 1  # back where it started: the start line passed, no more



# The routes that "finished" in three moves under levi before lines reached round their ends:
# off the track behind the line, one square round its end in the infield, back over it.
CHEATS = [("oval", False, (20, 20), ((20, 19), (19, 19), (20, 20))),
          ("oval", True, (20, 20), ((20, 19), (21, 19), (20, 20))),
          ("hairpins", False, (19, 27), ((19, 26), (18, 26), (19, 27))),
          ("hairpins", True, (19, 27), ((19, 26), (20, 26), (19, 27)))]


@pytest.mark.parametrize("name, reverse, start, route", CHEATS)
def test_the_munchkin_route_played_through_the_game_finishes_nothing(name, reverse, start, route,
                                                                     tmp_path):
    """Either way round (Levi: "players can go either way around the course"), the route
    round the end of the start line is legal, passes nothing, and its replay agrees."""
    from racetrack.games.replay import load_replay, save_replay

    race = Race(load_track(find_track(name)), load_rules("levi"),
                [CarSetup("Ann", reverse=reverse)])
    state = race.start()
    assert state.car(0).position == start
    for target in route:
        state.apply(Move(Vec(*target)))
    assert not state.is_over and state.car(0).finish is None
    assert state.car(0).progress == race.course_of(0).start_progress
    save_replay(state, tmp_path / "munchkin.yaml")
    replayed = load_replay(tmp_path / "munchkin.yaml").verify()
    assert replayed.cars == state.cars and not replayed.is_over


# Hairpins under levi as written (crawl-return: anywhere), 18 moves where a lap takes 45: down
# the infield along the start line's straight line, over rule 6's checkpoint at its infield end,
# and back up to step over the finish line, riding the straight line itself, or crossing it in
# the half of the infield that was the start line's when the two lines shared the ground
# between them at its middle.
BACK_FROM_THE_CHECKPOINT = [
    ((19, 19), (19, 20), (19, 21), (19, 22), (19, 23), (19, 24), (19, 25), (18, 26), (19, 27)),
    ((19, 19), (19, 20), (19, 21), (19, 22), (19, 23), (20, 24), (19, 25), (18, 26), (19, 27)),
]
TO_THE_CHECKPOINT = ((19, 29), (19, 27), (19, 24), (20, 23), (21, 22), (22, 21), (21, 20),
                     (20, 19), (18, 18))


@pytest.mark.parametrize("back", BACK_FROM_THE_CHECKPOINT)
def test_coming_back_from_the_checkpoint_along_the_start_lines_line_finishes_nothing(back):
    """A point on the start line's straight line counts as the start line's forward side for
    every line on it (the checkpoint's arrow points the other way), and each line reaches over
    the whole infield between them: stepping back onto the line, or over it anywhere in the
    infield, un-passes the checkpoint. The lines alone must hold, so the car may come back
    onto the track anywhere (levi itself refuses the route sooner: see below)."""
    race = Race(load_track(find_track("hairpins")), load_rules("levi").replace(
        start_grid="spread", crawl_return="anywhere"), [CarSetup("Ann")])
    state = race.start()
    state.place(0, Vec(19, 30))
    for target in TO_THE_CHECKPOINT:
        state.apply(Move(Vec(*target)))
    assert state.car(0).progress == 2  # over the checkpoint, on the track
    for target in back:
        state.apply(Move(Vec(*target)))
    assert not state.is_over and state.car(0).finish is None
    assert state.car(0).progress == 1


# -- Levi: a crawling car comes back no farther on than where it left -----------------------------

def test_a_car_that_overshoots_a_bend_crawls_back_on_behind_where_it_left(oval):
    """Too fast for the oval's right-hand bend, the car runs off the track (rule 5: "reduced to
    a single move in any direction until it re-enters the track"). Rule 3 ("all the way around
    the course") and rule 6's purpose ("to keep munchkinism from happening"), as levi reads
    them: it may not step back on farther round the bend than the point where it left, only
    level with it or behind. Levi's rules as written let it step straight back on."""
    from racetrack.engine.model import MoveKind, Refusal
    from racetrack.engine.position import parse_car_position

    rules = load_rules("levi").replace(start_grid="spread")
    state = Race(oval, rules, [CarSetup("Ann")]).start()
    state.set_car(0, parse_car_position("37,13 3,-4 1", state.cars[0]))
    field = distance_field(state.race.course, rules.boundary_counts)
    left = field((37, 13), 1)
    state.apply(Move(Vec(40, 8)))  # off the track round the outside of the bend
    assert state.car(0).off_track and state.car(0).exit_distance == pytest.approx(left)
    for target in ((40, 9), (40, 10)):
        returns = [c for c in state.candidates() if c.kind is MoveKind.RETURN]
        for candidate in returns:
            farther_on = field(candidate.target, 1) < left
            assert candidate.legal is not farther_on, candidate
            if farther_on:
                assert candidate.refusal is Refusal.AHEAD_OF_EXIT
        assert any(not c.legal for c in returns)
        state.apply(Move(Vec(*target)))
    assert not state.car(0).off_track and state.car(0).progress == 1
    assert field((40, 10), 1) >= left
    # Rule 5 as written lets the car step straight back on, farther round.
    written = Race(oval, rules.replace(crawl_return="anywhere"), [CarSetup("Ann")]).start()
    written.set_car(0, parse_car_position("37,13 3,-4 1", written.cars[0]))
    written.apply(Move(Vec(40, 8)))
    assert Vec(39, 7) in [m.target for m in written.legal_moves()]


def test_a_replay_that_steps_back_on_ahead_of_where_it_left_does_not_verify(oval, tmp_path):
    """Off the track behind the start, a car may come back on behind the line or where it
    left, not past it: the replay of the one verifies, the other names the bad move."""
    from racetrack.games.replay import ReplayError, load_replay, save_replay

    state = Race(oval, load_rules("levi"), [CarSetup("Ann")]).start()
    assert state.car(0).position == (20, 20)
    for target in ((20, 19), (19, 20)):
        state.apply(Move(Vec(*target)))
    path = tmp_path / "back.yaml"
    save_replay(state, path)
    assert load_replay(path).verify().cars == state.cars
    text = path.read_text()
    assert text.count("- [0, 19, 20]") == 1
    path.write_text(text.replace("- [0, 19, 20]", "- [0, 21, 20]"))
    with pytest.raises(ReplayError, match=r"move 2 .*farther on than the point where it left"):
        load_replay(path).verify()


# Nystrom on the oval: a car past the start line by its outer end drives off the track, goes
# back round the line's end (losing the line), comes round it forwards again, then tries the
# track ahead of where it left.
ROUND_THE_END_AND_BACK = [(21, 25), (20, 26), (18, 26), (17, 26), (17, 26), (18, 26), (20, 26),
                          (21, 25)]


def test_a_detour_round_the_start_lines_end_comes_back_on_behind_where_it_left(oval):
    """Nystrom: "enter the race track at a point before the point you left it". Going back
    round the end of the start line un-passes it (the position says ``lost=1``); coming back
    round it forwards passes it again; so the track ahead of where the car left is refused,
    as it would be had it never gone round, and the track behind is open."""
    from racetrack.engine.model import MoveKind, Refusal
    from racetrack.engine.position import car_position

    rules = load_rules("nystrom").replace(start_grid="spread")
    state = Race(oval, rules, [CarSetup("Ann")]).start()
    state.place(0, Vec(21, 23), Vec(0, 1), progress=1)
    seen = []
    for target in ROUND_THE_END_AND_BACK:
        state.apply(Move(Vec(*target)))
        seen.append((state.car(0).progress, state.car(0).lines_lost))
    assert seen == [(1, 0), (1, 0), (0, 1), (0, 1), (0, 1), (0, 1), (1, 0), (1, 0)]
    assert car_position(state.car(0)).startswith("21,25 1,-1 1 off@")
    moves = {c.target: c for c in state.candidates()}
    ahead = moves[Vec(22, 24)]
    assert ahead.kind is MoveKind.RETURN and ahead.refusal is Refusal.BEHIND_EXIT
    behind = Race(oval, rules, [CarSetup("Ann")]).start()
    behind.place(0, Vec(21, 23), Vec(0, 1), progress=1)
    for target in (*ROUND_THE_END_AND_BACK[:3], (17, 25)):
        behind.apply(Move(Vec(*target)))
    assert "lost=1" in car_position(behind.car(0))
    moves = {c.target: c for c in behind.candidates()}
    assert moves[Vec(17, 24)].kind is MoveKind.RETURN
    assert moves[Vec(17, 24)].refusal is Refusal.NONE


def test_going_round_a_lines_end_off_the_track_is_undone_by_coming_back_round_it(oval):
    """Off the track on a detour, progress is the same both ways round a line's end: back
    round it un-passes the line, forwards round it passes it again, but never a line the car
    had not passed when it left (the cap)."""
    course = Course.for_rules(oval, load_rules("nystrom"))
    back = course.advance_one(1, Vec(21, 26), Vec(19, 26), round_ends=True)
    again = course.advance_one(0, Vec(19, 26), Vec(21, 26), round_ends=True, cap=1)
    never = course.advance_one(0, Vec(19, 26), Vec(21, 26), round_ends=True, cap=0)
    assert (back, again, never) == (0, 1, 0)
    # On the track and off it alike, without round_ends, forwards round the end is nothing.
    assert course.advance_one(0, Vec(19, 26), Vec(21, 26)) == 0


def test_the_infield_crawl_to_rule_6s_checkpoint_is_refused():
    """The crawl that made hairpins 18 moves under Levi's rules as written: off the track by
    the start line's infield end, through the infield and back onto the track by rule 6's
    checkpoint, about half a lap farther on than where the car left it."""
    from racetrack.engine.model import MoveKind, Refusal

    rules = load_rules("levi").replace(start_grid="spread")
    state = Race(load_track(find_track("hairpins")), rules, [CarSetup("Ann")]).start()
    state.place(0, Vec(19, 30))
    back_on = TO_THE_CHECKPOINT.index((21, 20))
    for target in TO_THE_CHECKPOINT[:back_on]:
        state.apply(Move(Vec(*target)))
    assert state.car(0).off_track and state.car(0).progress == 1
    field = distance_field(state.race.course, rules.boundary_counts)
    assert field((21, 20), 1) < state.car(0).exit_distance / 2 + 1
    back = next(c for c in state.candidates() if c.target == (21, 20))
    assert back.kind is MoveKind.RETURN and back.refusal is Refusal.AHEAD_OF_EXIT


def test_a_crawling_car_with_no_way_back_is_out_where_it_stands():
    """As a detour's: every move of a crawling car off the paper or onto the track farther on
    than where it left, it is out (``Out.STRANDED``), never put back on the track."""
    from racetrack.engine.transition import Cars, Out, transition_for

    rules = load_rules("levi")
    course = Course.for_rules(SQUARE, rules)
    transition = transition_for(course, rules)
    assert "exit" in transition.columns()
    exit_ = transition.exit_units(np.array([8]), np.array([4]), np.array([1]))
    car = Cars(x=[8], y=[7], vx=[0], vy=[1], progress=[1], off=[1], exit=exit_)
    crashed = transition.crash(car, car.x, car.y + 1)
    assert crashed.out[0] == Out.STRANDED
    assert (int(crashed.cars.x[0]), int(crashed.cars.y[0])) == (8, 7)


@pytest.mark.parametrize("reverse", [False, True])
def test_no_four_moves_finish_the_oval_under_levi(reverse):
    """Every legal route of up to four moves from the start, applied through the game: none
    finishes (the whole lap takes 26)."""
    from racetrack.engine.position import car_position

    race = Race(load_track(find_track("oval")), load_rules("levi"),
                [CarSetup("Ann", reverse=reverse)])
    frontier = [race.start()]
    seen = {car_position(frontier[0].cars[0])}
    for _ in range(4):
        following = []
        for state in frontier:
            for move in state.legal_moves():
                after = state.clone()
                after.apply(Move(move.target))
                assert not after.is_over and after.cars[0].finish is None, after.history
                key = car_position(after.cars[0])
                if key not in seen:
                    seen.add(key)
                    following.append(after)
        frontier = following
    assert len(seen) > 300  # off the track and round the line's ends too


@pytest.mark.parametrize("reverse", [False, True])
def test_the_levi_optimum_round_the_oval_equals_a_plain_search(reverse, capsys):
    """Levi's rules as written (a crawling car comes back anywhere) against
    ``tests/levi_search.py``, which reads rule 6 by hand: a checkpoint across the far straight
    (x = 20, y from 0.5 to 5.5), the line x = 20 crossed backwards anywhere but over the other
    line's track un-passing each. The 26 moves overshoot both bends off the track and crawl back on
    farther round; `racetrack solve oval --rules levi` forbids that."""
    from racetrack.cli import main
    from racetrack.search.solver import solve
    from tests.levi_search import fewest_moves_levi

    track = load_track(find_track("oval"))
    if reverse:
        track = track.reversed()
    rules = load_rules("levi")
    as_written = rules.replace(crawl_return="anywhere")
    course = Course.for_rules(track, rules)
    plain = fewest_moves_levi(track, (0.5, 5.5))
    assert plain == 26
    assert solve(course, as_written).moves == plain
    # Coming back no farther on than where it left, a car gains nothing off the track here:
    # the lap takes as long as one that may not leave it.
    assert solve(course, rules).moves == solve(course, rules.replace(
        leaving_track="illegal")).moves == 28
    if not reverse:
        assert main(["solve", "oval", "--rules", "levi", "--json"]) == 0
        assert '"moves": 28' in capsys.readouterr().out

def test_crossing_every_checkpoint_in_order_wins(oval):
    course = Course.for_rules(oval, load_rules("levi"))
    assert course.advance_one(1, Vec(21, 3), Vec(19, 3)) == 2    # the far straight, leftwards
    assert course.advance_one(1, Vec(19, 22), Vec(21, 22)) == 1  # the finish before it: no
    assert course.advance_one(2, Vec(19, 22), Vec(21, 22)) == 3  # after it: finished


def test_going_round_the_end_of_a_checkpoint_is_not_crossing_it(oval):
    """A checkpoint "must be crossed": crawling round its end passes nothing, and going back
    round it un-passes it. Round its infield end the car also goes back over the start line's
    straight line, which reaches over the whole infield up to the checkpoint: that un-passes
    the start (shared at the middle, a car that had passed the checkpoint could get behind it
    again through the start line's half, and finish a lap it did not drive)."""
    course = Course.for_rules(oval, load_rules("levi"))
    assert course.advance_one(1, Vec(21, 0), Vec(19, 0)) == 1  # round its outer end
    assert course.advance_one(1, Vec(21, 6), Vec(19, 6)) == 0  # round its infield end
    assert course.advance_one(2, Vec(19, 6), Vec(21, 6)) == 1
    assert course.advance_one(2, Vec(19, 18), Vec(21, 18)) == 1  # near the start line too


def test_a_line_stopping_at_the_wall_reaches_on_to_the_track_beyond(oval):
    """Without rule 6 the start line's continuation crosses the whole infield: backing round
    either end of it, inside or outside, un-passes it."""
    course = Course.for_rules(oval, load_rules("nystrom"))
    for p, q in (((20, 19), (19, 19)), ((21, 12), (19, 12)), ((20, 27), (19, 27))):
        assert course.advance_one(1, Vec(*p), Vec(*q)) == 0, (p, q)
    # Round the far straight on the track: nothing to cross there.
    assert course.advance_one(1, Vec(21, 3), Vec(19, 3)) == 1


def test_a_line_short_of_the_wall_reaches_over_the_gap():
    surface = Track("Ring", ((0, 0), (12, 0), (12, 12), (0, 12)), None,
                    holes=(((4, 4), (8, 4), (8, 8), (4, 8)),)).polygon()
    short = Line((6, 1), (6, 3), (1, 0))
    (outward, inward), = continuations([short], surface, (-4, -4, 16, 16))
    # Up to the infield's far wall, stopping just short of the track there.
    assert outward[0] == (6, 3) and outward[1] == pytest.approx((6, 8 - SHORT_OF_TRACK))
    assert outward[1][1] < 8
    assert inward == ((6, 1), (6, -4))


def test_driving_along_the_far_wall_of_the_infield_is_driving_round():
    """A move along the infield's far wall touches the start line's continued line where it
    meets the track again: that is the lap, not a way round the line's end."""
    track = Track("Ring", ((0, 0), (12, 0), (12, 12), (0, 12)), Line((6, 0), (6, 4), (1, 0)),
                  holes=(((4, 4), (8, 4), (8, 8), (4, 8)),))
    course = Course(track)
    assert course.advance_one(1, Vec(7, 8), Vec(5, 8)) == 1
    assert course.advance_one(1, Vec(7, 7), Vec(5, 7)) == 0  # through the infield: round the end


def test_a_gate_course_may_double_back_over_a_gates_straight_line():
    """Singleton's gates: "Instead of a track, numbered gates are marked on the graph. Cars
    must pass through the gates in numerical order." On an open sheet a gate stops short of
    the walls, and a course may come back past it: through gate 1 going right, then up and
    back left over gate 1's straight line (above the gate) to gate 2, and on to the finish.
    Going round a gate's end is driving past it, not going back behind it; a start line,
    passed without being crossed, and the lines of a circuit still reach on round their
    ends."""
    from racetrack.search.solver import solve

    track = Track("Out and back", ((0.5, 0.5), (30.5, 0.5), (30.5, 20.5), (0.5, 20.5)),
                  Line((3, 14), (3, 18), (1, 0)), finish=Line((20, 3), (20, 8), (1, 0)),
                  checkpoints=(Line((15, 14), (15, 18), (1, 0)), Line((5, 5), (10, 5), (0, -1))))
    course = Course(track)
    assert course.advance_one(1, Vec(14, 16), Vec(16, 16)) == 2  # through gate 1
    assert course.advance_one(2, Vec(16, 10), Vec(14, 10)) == 2  # back past its end
    assert course.advance_one(2, Vec(16, 16), Vec(14, 16)) == 1  # back through it
    assert course.advance_one(1, Vec(4, 12), Vec(2, 12)) == 0    # round the start's end
    rules = load_rules("gardner")
    found = solve(Course.for_rules(track, rules), rules)
    assert found is not None and found.moves == 16
    points = np.array(found.path)
    assert ((points[:-1, 0] >= 15) & (points[1:, 0] < 15) & (points[1:, 1] < 14)).any()
    # The same lines on a circuit reach on over the track: a circuit's checkpoint that
    # stops short cannot be gone round behind.
    ring = Track("Ring", ((0.5, 0.5), (30.5, 0.5), (30.5, 20.5), (0.5, 20.5)),
                 Line((3, 14), (3, 18), (1, 0)), holes=(((6.5, 6.5), (24.5, 6.5), (24.5, 12.5),
                                                          (6.5, 12.5)),),
                 checkpoints=(Line((15, 14), (15, 18), (1, 0)),))
    assert Course(ring).advance_one(2, Vec(16, 19), Vec(14, 19)) == 1


# -- the property: no lap without going round ------------------------------------------------------

def ring(rng: np.random.Generator, n: int = 48) -> tuple[Track, tuple[float, float]]:
    """A random circuit round (20, 20): star-shaped walls, a start line across the ring along
    an axis from the infield wall to the outer wall (ending on them or a little beyond), and
    the point where its straight line meets the track again across the infield."""
    angles = 2 * np.pi * np.arange(n) / n
    k, phase = rng.integers(2, 4), rng.uniform(0, 2 * np.pi)
    inner = rng.uniform(4, 7) * (1 + rng.uniform(0, 0.3) * np.cos(k * angles + phase))
    outer = inner + rng.uniform(3, 5) * (1 + rng.uniform(0, 0.3) * np.sin(angles + phase))

    def points(radius: np.ndarray) -> tuple[tuple[float, float], ...]:
        return tuple((20 + r * math.cos(t), 20 + r * math.sin(t))
                     for r, t in zip(radius, angles, strict=True))

    at = int(rng.integers(4)) * n // 4
    direction = np.array([round(math.cos(angles[at])), round(math.sin(angles[at]))])
    overhang = rng.choice([0.0, 0.3])
    a = 20 + (inner[at] - overhang) * direction
    b = 20 + (outer[at] + overhang) * direction
    turn = rng.choice([-1, 1])
    forward = (float(-direction[1] * turn), float(direction[0] * turn))
    start = Line((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), forward)
    far = points(inner)[(at + n // 2) % n]
    track = Track("Random ring", points(outer), start, holes=(points(inner)[::-1],),
                  laps=int(rng.integers(1, 3)))
    return track, far


def route(rng: np.random.Generator, track: Track, start: Vec) -> np.ndarray:
    """Lattice points from ``start``: towards waypoints all over the sheet, clustered at the
    ends of the start line and round the ring, in moves of up to two squares each way."""
    line = track.start
    ends = [np.array(line.a), np.array(line.b)]
    here = np.array(start)
    found = [here]
    sweep = rng.choice([-1, 1])
    angle = math.atan2(start[1] - 20, start[0] - 20)
    for _ in range(int(rng.integers(8, 30))):
        pick = rng.random()
        if pick < 0.35:
            goal = ends[int(rng.integers(2))] + rng.normal(0, 1.5, 2)
        elif pick < 0.75:
            angle += sweep * rng.uniform(0.3, 1.2)
            radius = rng.uniform(3, 14)
            goal = np.array([20 + radius * math.cos(angle), 20 + radius * math.sin(angle)])
        else:
            goal = rng.uniform(10, 30, 2)
        goal = np.rint(goal).astype(int)
        while (here != goal).any():
            step = np.clip(goal - here, -2, 2)
            step = np.where(rng.random(2) < 0.2, np.sign(step), step)
            here = here + step
            found.append(here)
    return np.array(found)


def windings(points: np.ndarray, centre: tuple[float, float], upto: int) -> np.ndarray:
    """For each s <= upto: how many times the route from point s to point ``upto``, closed by
    a straight line back, winds round ``centre`` (anticlockwise on paper with y down counts
    as negative)."""
    rel = points[: upto + 1] - np.array(centre)
    theta = np.arctan2(rel[:, 1], rel[:, 0])
    steps = np.angle(np.exp(1j * np.diff(theta)))
    total = np.concatenate([[0.0], np.cumsum(steps)])
    closing = np.angle(np.exp(1j * (theta - theta[upto])))
    return np.rint((total[upto] - total + closing) / (2 * np.pi)).astype(int)


def passes_through(points: np.ndarray, centre: tuple[float, float]) -> bool:
    p, q, c = points[:-1].astype(float), points[1:].astype(float), np.array(centre)
    d = q - p
    t = np.clip(((c - p) * d).sum(axis=1) / np.maximum((d * d).sum(axis=1), 1e-12), 0, 1)
    return bool((np.hypot(*(p + t[:, None] * d - c).T) < 1e-9).any())


@pytest.mark.parametrize("rule_6", [False, True])
def test_no_route_gains_a_lap_without_winding_round_the_course(rule_6):
    rng = np.random.default_rng(6 if rule_6 else 5)
    finished = cheats = 0
    for _ in range(60):
        track, far = ring(rng)
        course = Course(track, start_line_checkpoints=rule_6)
        if not course.start_positions:
            continue
        line = track.start
        mid = np.array(line.a) + np.array(line.b)
        (mx, my), (fx, fy) = mid / 2 - np.array(far), line.forward
        way = np.sign(mx * fy - my * fx)
        for _ in range(12):
            start = course.start_positions[int(rng.integers(len(course.start_positions)))]
            points = route(rng, track, start)
            if passes_through(points, far):
                continue  # winding round a point the route runs over is not defined
            progress = course.start_progress
            for t in range(1, len(points)):
                progress = course.advance_one(progress, Vec(*points[t - 1]), Vec(*points[t]))
                if progress == course.goal:
                    finished += 1
                    best = int((way * windings(points, far, t)).max())
                    cheats += best < course.laps
                    break
    assert cheats == 0
    assert finished >= 5  # the routes do go round, so the property was put to the test


def test_rule_6_gates_are_ordered_round_a_u_shaped_course():
    """A ring round a U-shaped infield: the start line's straight line runs over the track
    three more times, and a lap meets those stretches in an order that is not their order
    along the line, crossing them alternately down and up."""
    outer = ((0, 0), (30, 0), (30, 20), (20, 20), (20, 8), (10, 8), (10, 20), (0, 20))
    inner = ((3, 3), (27, 3), (27, 17), (23, 17), (23, 5), (7, 5), (7, 17), (3, 17))
    track = Track("U", outer, Line((0, 10), (3, 10), (0, -1)), holes=(inner,))
    gates = overlap_gates(track.start, track.polygon(), (-4, -4, 34, 24))
    assert [(g.a, g.b, g.forward) for g in gates] == [
        ((27, 10), (30, 10), (0, 1)), ((20, 10), (23, 10), (0, -1)),
        ((7, 10), (10, 10), (0, 1))]


# -- every rule set that lets a car off the track --------------------------------------------------

OFF_TRACK = ["levi", "nystrom", "baker", "classroom", "simulation"]
SQUARE = Track("Square", ((0, 0), (14, 0), (14, 12), (0, 12)), Line((7, 0), (7, 4), (1, 0)),
               holes=(((4, 4), (10, 4), (10, 8), (4, 8)),))


FASTEST = [(name, v) for name in ("oval", "square") for v in OFF_TRACK]


@pytest.mark.parametrize("name, variant", FASTEST)
def test_the_fastest_finish_of_every_off_track_rule_set_goes_round(name, variant):
    """Crawling (levi), detours (nystrom), restarts after a crash (baker, classroom,
    simulation): the solver's fastest finish, on circuits whose start line stops at the walls,
    winds once round every part of the infield (points a third of the way in from each of
    its corners), not round some point of a short cut across it."""
    from racetrack.search.solver import solve

    track = SQUARE if name == "square" else load_track(find_track(name))
    rules = load_rules(variant)
    course = Course.for_rules(track, rules)
    found = solve(course, rules)
    assert found is not None
    points = np.array(found.path)
    closed = np.vstack([points, points[:1]])
    infield = Track("Infield", track.holes[0], None).polygon()
    middle = np.array(infield.representative_point().coords[0])
    mid = (np.array(track.start.a) + np.array(track.start.b)) / 2 - middle
    way = np.sign(mid[0] * track.start.forward[1] - mid[1] * track.start.forward[0])
    for corner in np.array(track.holes[0]):
        mark = corner + (middle - corner) / 3
        assert int(way * windings(closed, tuple(mark), len(closed) - 1)[0]) == course.laps, \
            (mark, found.path)


def test_a_car_stuck_on_a_detour_is_out_where_it_stands():
    """Nystrom: "enter the race track at a point before the point you left it". A car on a
    detour with no legal move left (here in the infield, every move onto the track ahead of
    where it left) cannot do that: it is out where it stands, never put on the track across
    the infield farther round."""
    from racetrack.engine.transition import Cars, Out, transition_for

    rules = load_rules("nystrom")
    course = Course.for_rules(SQUARE, rules)
    transition = transition_for(course, rules)
    exit_ = transition.exit_units(np.array([8]), np.array([4]), np.array([1]))
    car = Cars(x=[8], y=[7], vx=[0], vy=[1], progress=[1], off=[1], exit=exit_)
    crashed = transition.crash(car, car.x, car.y + 1)
    assert crashed.out[0] == Out.STRANDED
    assert (int(crashed.cars.x[0]), int(crashed.cars.y[0])) == (8, 7)
    assert crashed.cars.progress[0] == 1
