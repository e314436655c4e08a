"""Speed goals, measured side by side in one run.

    python tools/bench.py            # all benchmarks
    python tools/bench.py solver     # just one

solver: the exact solver against a plain breadth-first search that tests every move with its
own shapely call, on a 100 x 60 ring track (the same answer is required of both).
moves: a turn's candidate generation, and a computer driver's choice, on bundled tracks.
tables: building the drivers' moves-to-go table for every bundled track and three variants.
frames: the race screen's frame time through a whole six-car race.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from racetrack.ai import make_driver  # noqa: E402
from racetrack.ai.tables import build_value_table, value_table  # noqa: E402
from racetrack.course import Course  # noqa: E402
from racetrack.game import Race  # noqa: E402
from racetrack.model import CarSetup  # noqa: E402
from racetrack.rules import load_rules  # noqa: E402
from racetrack.rules.moves import candidates as generate_candidates  # noqa: E402
from racetrack.solver import MoveTable, StateGraph, solve, standing_starts  # noqa: E402
from racetrack.track import bundled_track_paths, find_track, load_track, parse_track  # noqa: E402
from tests.reference_bfs import fewest_moves  # noqa: E402

RING = """\
racetrack-track: 1
name: Ring 100 x 60
outer: [[0, 0], [100, 0], [100, 60], [0, 60]]
holes: [[[8, 8], [92, 8], [92, 52], [8, 52]]]
start: {a: [50, 0], b: [50, 8], forward: [1, 0]}
"""


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def bench_solver() -> None:
    track = parse_track(RING, "ring")
    rules = load_rules("gardner")
    course = Course(track)
    start = course.start_positions[len(course.start_positions) // 2]
    table = MoveTable(course, rules)
    graph, explore = timed(StateGraph, table, standing_starts(table, [start]), False)
    print(f"ring 100 x 60: {graph.count:,} reachable states from {tuple(start)}; "
          f"exploring all of them took {explore:.2f} s")
    del graph, table
    # The solver's time is the median of five runs, each on a fresh course (nothing cached).
    runs = [timed(solve, Course(track), rules, start) for _ in range(5)]
    fast = runs[0][0]
    fast_time = statistics.median(took for _, took in runs)
    slow, slow_time = timed(fewest_moves, track, start)
    assert fast is not None and fast.moves == slow, (fast, slow)
    print(f"solve: {fast.moves} moves; solver {fast_time:.2f} s (median of 5), plain BFS "
          f"{slow_time:.1f} s: {slow_time / fast_time:.0f} times faster")


def bench_moves() -> None:
    rules = load_rules("gardner")
    for name in ("oval", "wide-speedway", "grand-prix"):
        track = load_track(find_track(name))
        race = Race(track, rules, [CarSetup(f"Car {i}") for i in range(4)], seed=1)
        _, prepare = timed(value_table, race.course, rules)
        drivers = [make_driver("expert", i) for i in range(4)]
        state = race.start()
        turns, chooses = [], []
        while not state.is_over:
            _, took = timed(generate_candidates, race.course, rules, race.cars, state.cars,
                            state.current_car)
            turns.append(took)
            move, took = timed(drivers[state.current_car].choose, state)
            chooses.append(took)
            state.apply(move)
        print(f"{name}: table {prepare:.2f} s; candidates {statistics.median(turns) * 1e3:.2f} ms"
              f" (median), driver's choice {statistics.median(chooses) * 1e3:.2f} ms (median),"
              f" {max(chooses) * 1e3:.1f} ms (worst) over {len(turns)} turns")


def bench_tables() -> None:
    for path in bundled_track_paths():
        track = load_track(path)
        for variant in ("gardner", "baker", "classroom-24"):
            rules = load_rules(variant)
            course = Course(track, laps=rules.laps)
            _, took = timed(build_value_table, course, rules)
            print(f"table {path.stem} / {variant}: {took:.2f} s")


def bench_frames() -> None:
    """Frame times of the race screen through whole six-car races (dummy video driver, a
    1920 x 1080 window): one car driven through the screen as a person would (its candidates'
    outlooks worked out, a point hovered, then clicked), five computer cars; on the wide
    speedway, and on the largest bundled sheet (the rally, its start shared by six cars)."""
    for track, overrides in (("wide-speedway", {}), ("rally", {"cars": "shared"})):
        frame_times(track, overrides)


def frame_times(track: str, overrides: dict) -> None:
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("RACETRACK_HOME", "/tmp/racetrack-bench-home")
    from racetrack.ai import make_driver
    from racetrack.settings import PlayerChoice
    from racetrack.ui.app import App
    from racetrack.ui.launch import start_race
    from racetrack.ui.scenes.menu import MenuScene

    app = App((1920, 1080))
    app.push(MenuScene(app))
    levels = ("human", "hard", "medium", "easy", "hard", "medium")
    colours = ("red", "blue", "green", "orange", "purple", "black")
    players = tuple(PlayerChoice(f"Car {i + 1}", c, level)
                    for i, (c, level) in enumerate(zip(colours, levels, strict=True)))
    scene = start_race(app, find_track(track), "gardner", players, seed=3,
                       animation_seconds=0.1, replace=False, overrides=overrides)
    scene.preparing.result()
    scene._start_following()
    coach = make_driver("expert", 5)
    times, work = [], []
    human_frames = 0
    while app.scenes and app.scenes[-1] is scene and len(times) < 8000:
        if scene.human_turn and scene.lookout.complete:
            human_frames += 1
            move = coach.choose(scene.state.clone())
            scene.hover = move.target  # pointed at for a few frames, then clicked
            scene.mouse = tuple(round(v) for v in scene.camera.to_screen(*move.target))
            if human_frames % 6 == 0:
                scene.play(move)
        start, own = time.perf_counter(), time.thread_time()
        app.step(1 / 60)
        times.append(time.perf_counter() - start)
        work.append(time.thread_time() - own)
        # The game waits for the next frame here (60 a second); a short wait gives the
        # other threads their turn, as the real frame clock does.
        time.sleep(0.002)
    app.gui.kill_all()
    times.sort()
    work.sort()
    over = sum(1 for t in times if t > 1 / 60) / len(times)
    print(f"race screen, {track}{' (start shared)' if overrides else ''}, 6 cars, "
          f"{len(scene.state.history)} moves, 1920 x 1080, {len(times)} frames: frame time "
          f"median {statistics.median(times) * 1e3:.1f} ms, 95th percentile "
          f"{times[int(len(times) * 0.95)] * 1e3:.1f} ms, worst {times[-1] * 1e3:.1f} ms, "
          f"{over:.1%} over 16.7 ms; the frame's own work (its thread's CPU time) median "
          f"{statistics.median(work) * 1e3:.1f} ms, 95th percentile "
          f"{work[int(len(work) * 0.95)] * 1e3:.1f} ms, worst {work[-1] * 1e3:.1f} ms; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


BENCHES = {"solver": bench_solver, "moves": bench_moves, "tables": bench_tables,
           "frames": bench_frames}

if __name__ == "__main__":
    for name in sys.argv[1:] or BENCHES:
        BENCHES[name]()
