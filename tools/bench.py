"""Speed goals, measured side by side in one run (numbers for docs/speed.md).

    python tools/bench.py            # all benchmarks
    python tools/bench.py solver     # just one (see BENCHES)

solver: the exact solver on a 100 x 60 ring under Gardner's rules against a plain breadth-first
search that tests every move with its own shapely call, and against the small compiled
reference in tools/ref_solver.c (built here with gcc; the same answer is required of all).
big: a 400 x 240 ring (time and memory, beside the C reference), an 862 x 792 staircase with
few reachable states, and the refusal of an absurd open square at the default memory budget.
rules: the solver on every bundled track under Gardner's, Baker's, the classroom sheet's,
Nystrom's and Levi's rules, each in a fresh process (CPU time, times Gardner's, peak memory).
checkpoints: the solver under Karopapier's rules on a 54 x 43 map with four checkpoints to
pass in any order (``karo_checkpoints``), in a fresh process (CPU time, peak memory).
tables: the drivers' moves-to-go table for every bundled track (Gardner), the grand prix's
under Levi's rules (the whole sheet, for cars crawling off the track), and a 7,000-point open
sheet (CPU time).
moves: a turn's candidates, and a computer driver's choice, on bundled tracks (CPU time).
help: ``racetrack --help`` and ``racetrack solve`` of a 10 x 10 ring as fresh processes.
frames: the race screen's frame time through whole six-car races.
editor: the editor's live checks and road tool on big drawings, and its frame time, still and
while a corner is dragged.
files: refusing the biggest hostile files, and reading the longest replay the game writes, each
in a fresh process (CPU time and peak memory).
playback: the playback scene's frames, a race and a game of Graph Trees.
imports: importing the bundled maps and the largest map a sheet holds, and refusing a huge grid
and a picture of noise.
online: a game server on loopback: memory per open game with 1,000 open, then bots for 30 s
(paced near 200 moves a second, then unpaced): moves a second, proposal-to-acknowledgement
latency (p50, p99), the server's CPU per move and its peak memory.
idle: the window's CPU use while nothing happens, on the menu and in a race waiting for the
player (``tools/idle.py``, on a virtual X screen).

Memory is a fresh process's peak resident set (``wait4``, or ``VmHWM``), the whole process
measured from outside: it counts what numpy and the compiled kernel allocate in C, which
``tracemalloc`` misses. Times are CPU time unless a line says wall clock.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from racetrack.board.course import Course  # noqa: E402
from racetrack.board.track import (  # noqa: E402  # noqa: E402
    Track,
    bundled_track_paths,
    find_track,
    load_track,
    parse_track,
    save_track,
)
from racetrack.cli.commands import BLAS_THREADS  # noqa: E402
from racetrack.engine.model import CarSetup  # noqa: E402
from racetrack.engine.moves import candidates as generate_candidates  # noqa: E402
from racetrack.games.race import Race  # noqa: E402
from racetrack.rules import load_rules  # noqa: E402
from racetrack.search.drivers import make_driver  # noqa: E402
from racetrack.search.drivers.tables import build_value_table, value_table  # noqa: E402
from racetrack.search.solver import SolverError, solve  # noqa: E402
from tests.reference_bfs import fewest_moves  # noqa: E402


def ring(width: int, height: int, lane: int) -> Track:
    """A rectangular ring ``lane`` squares wide, started half way along its top side."""
    return parse_track(
        f"racetrack-track: 1\nname: Ring {width} x {height}\n"
        f"outer: [[0, 0], [{width}, 0], [{width}, {height}], [0, {height}]]\n"
        f"holes: [[[{lane}, {lane}], [{width - lane}, {lane}], [{width - lane}, "
        f"{height - lane}], [{lane}, {height - lane}]]]\n"
        f"start: {{a: [{width // 2}, 0], b: [{width // 2}, {lane}], forward: [1, 0]}}\n",
        "ring")


def staircase(width: int = 862, height: int = 792, step: int = 24, lane: int = 4) -> Track:
    """A corridor ``lane`` squares wide climbing in steps from one corner of a big sheet to the
    other (a point-to-point map with few reachable states on a large sheet)."""
    import shapely

    half = lane // 2
    x, y = half, half
    middle = [(x, y)]
    while x < width - half or y < height - half:
        x = min(x + step, width - half)
        middle.append((x, y))
        y = min(y + step, height - half)
        middle.append((x, y))
    corridor = shapely.LineString(middle).buffer(half, cap_style="flat", join_style="mitre")
    outline = [[int(round(px)), int(round(py))] for px, py in corridor.exterior.coords[:-1]]
    ex, ey = middle[-1]
    return parse_track(
        "racetrack-track: 1\nname: Staircase\n"
        f"outer: {outline}\n"
        f"start: {{a: [{half + 1}, 0], b: [{half + 1}, {lane}], forward: [1, 0]}}\n"
        f"finish: {{a: [{ex - half}, {ey - 1}], b: [{ex + half}, {ey - 1}], "
        "forward: [0, 1]}\n", "staircase")


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def cpu_timed(function, *args, **kwargs):
    """The result and the CPU seconds the call took (steady on a loaded machine, where the
    wall clock of a call of a millisecond mostly measures waiting for a core)."""
    start = time.thread_time()
    result = function(*args, **kwargs)
    return result, time.thread_time() - start


#: GNU time, which reports its child's peak resident set as the child's own: a process's
#: maximum from ``wait4`` counts the memory of the process that started it, up to its exec
#: (the bench's, with numpy loaded), while GNU time starts the child from its own small one.
GNU_TIME = shutil.which("time") or "/usr/bin/time"


def fresh_process(argv: list[str], stdin: str | None = None,
                  timeout: float = 900) -> tuple[str, float, int]:
    """Run a command as a fresh process: its output, the CPU seconds it took in all (user and
    system, start-up included, from ``wait4``) and its peak resident set in bytes (GNU
    time's ``%M``; it counts memory allocated in C, which ``tracemalloc`` misses).

    The process runs as a player's Python runs it: its modules' bytecode cached once compiled
    (a ``PYTHONDONTWRITEBYTECODE`` set here is not passed on: it had every process compile the
    game's modules again, 0.065 s of a small solve's 0.3), and numpy with the one BLAS thread
    every ``racetrack`` command starts it with (``BLAS_THREADS``): a child that calls the game's
    code directly would otherwise count the spinning of a BLAS thread per core in its CPU time."""
    env = {name: value for name, value in os.environ.items()
           if name != "PYTHONDONTWRITEBYTECODE"}
    for name, value in BLAS_THREADS.items():
        env.setdefault(name, value)
    with tempfile.TemporaryFile("w+") as out, tempfile.NamedTemporaryFile("r") as report:
        child = subprocess.Popen([GNU_TIME, "-f", "%M", "-o", report.name, *argv],
                                 stdin=subprocess.PIPE if stdin is not None else None,
                                 stdout=out, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
                                 env=env)
        if stdin is not None:
            child.stdin.write(stdin)
            child.stdin.close()
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                subprocess.run(["pkill", "-KILL", "-P", str(child.pid)], check=False)
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.01)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        words = report.read().split()
        peak = int(words[-1]) * 1024 if words and words[-1].isdigit() else 0
        return out.read(), usage.ru_utime + usage.ru_stime, peak


#: A fresh process that sets up, times one call on the CPU clock, and prints its answer.
CHILD = """
import json, sys, time
{setup}
start = time.process_time()
answer = {call}
took = time.process_time() - start
print(json.dumps({{"answer": answer, "seconds": took}}))
"""


def in_child(setup: str, call: str, timeout: float = 900) -> tuple[object, float, float, int]:
    """Run ``call`` (an expression, its value JSON) after ``setup`` in a fresh Python process:
    its answer, the CPU seconds of the call, of the whole process, and the process's peak
    resident set in bytes. The answer is ``None`` where the process failed or ran out of
    time."""
    text, cpu, peak = fresh_process([sys.executable, "-c", CHILD.format(setup=setup,
                                                                        call=call)],
                                    timeout=timeout)
    lines = text.strip().splitlines()
    if not lines:
        return None, math.nan, cpu, peak
    found = json.loads(lines[-1])
    return found["answer"], found["seconds"], cpu, peak


SOLVE_SETUP = """
from racetrack.board.course import Course
from racetrack.rules import load_rules
from racetrack.search.solver import SolverError, solve
from racetrack.board.track import find_track, load_track
track = load_track(find_track({track!r}))
rules = load_rules({rules!r})
def answer():
    try:
        found = solve(Course.for_rules(track, rules), rules{start})
    except SolverError as error:
        return str(error)
    return None if found is None else [found.moves, found.states]
"""


def solved_in_child(track: str | Path, rules: str, start=None, timeout: float = 900):
    """``in_child`` of the solver on a track (a name or a file): ([moves, states] or the
    solver's refusal, the call's CPU seconds, the process's, its peak bytes)."""
    where = "" if start is None else f", start=({start[0]}, {start[1]})"
    return in_child(SOLVE_SETUP.format(track=str(track), rules=rules, start=where),
                    "answer()", timeout)


def mb(count: int) -> str:
    return f"{count / 2**20:.0f} MB"


def c_reference_binary() -> Path | None:
    """tools/ref_solver.c compiled with gcc -O2 (once a run); ``None`` without gcc."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    binary = Path(tempfile.mkdtemp(prefix="racetrack-ref-")) / "ref_solver"
    subprocess.run([gcc, "-O2", "-o", str(binary), str(ROOT / "tools" / "ref_solver.c"), "-lm"],
                   check=True)
    return binary


def c_reference(track: Track, start, binary: Path | None) -> dict[str, float] | None:
    """Run the compiled reference on a track with whole-number corners: its own answer (moves,
    states, the search's CPU seconds, the bytes it allocates) and, measured from outside, the
    whole process's CPU seconds (``process``) and peak resident set (``peak``)."""
    if binary is None:
        return None
    course = Course(track)
    rings = [track.outer, *track.holes]
    text = [f"rings {len(rings)}"]
    for r in rings:
        text.append(f"{len(r)} " + " ".join(f"{int(x)} {int(y)}" for x, y in r))
    text.append(f"lines {len(course.lines)}")
    for k, line in enumerate(course.lines):
        text.append(f"{line.a[0]} {line.a[1]} {line.b[0]} {line.b[1]} {line.forward[0]} "
                    f"{line.forward[1]} {int(course.line_ids[k])}")
    text.append(f"start {start[0]} {start[1]}")
    out, cpu, peak = fresh_process([str(binary)], stdin="\n".join(text))
    words = out.split()
    if not words:
        print("  (the C reference declined)")
        return None
    return {**{words[i]: float(words[i + 1]) for i in range(0, len(words), 2)},
            "process": cpu, "peak": peak}


def solve_process(path: Path, start) -> tuple[dict, float, int]:
    """``racetrack solve FILE --from X,Y --json`` as a fresh process: its answer, CPU seconds
    (start-up included) and peak resident set."""
    out, cpu, peak = fresh_process([sys.executable, "-m", "racetrack", "solve", str(path),
                                    f"--from={start[0]},{start[1]}", "--json"])
    return json.loads(out), cpu, peak


def side_by_side(name: str, track: Track, start, runs: int = 5) -> None:
    """The whole ``racetrack solve`` process beside the whole C reference process on one
    track, each the median of ``runs`` fresh processes (CPU time), with their peak resident
    sets and the states the solver expanded."""
    binary = c_reference_binary()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.yaml"
        save_track(track, path)
        ours = [solve_process(path, start) for _ in range(runs)]
    answer, _, peak = ours[0]
    cpu = statistics.median(took for _, took, _ in ours)
    print(f"{name}: racetrack solve, the whole process: {answer['moves']} moves, "
          f"{answer['states']:,} states expanded, {cpu:.3f} s of CPU (median of {runs}), "
          f"peak RSS {mb(peak)}")
    refs = [c_reference(track, start, binary) for _ in range(runs)]
    if refs[0] is None:
        return
    ref = refs[0]
    ref_cpu = statistics.median(r["process"] for r in refs)
    assert int(ref["moves"]) == answer["moves"], (ref, answer)
    print(f"  C reference, the whole process: {ref_cpu:.3f} s of CPU (median of {runs}; its "
          f"search {statistics.median(r['seconds'] for r in refs):.3f} s), peak RSS "
          f"{mb(ref['peak'])}, {int(ref['states']):,} states reached: the solver takes "
          f"{cpu / ref_cpu:.2f} times its time and {peak / ref['peak']:.2f} times its memory, "
          f"and expands {answer['states'] / ref['states']:.3f} of the states it reaches")


def bench_solver() -> None:
    """CPU time on both sides, so a shared machine's load does not count; the plain BFS by
    the wall clock (minutes of it). Memory is a fresh process's peak resident set."""
    track = ring(100, 60, 8)
    rules = load_rules("gardner")
    course = Course(track)
    start = course.start_positions[len(course.start_positions) // 2]
    # The solver's time is the median of five runs, each on a fresh course (nothing cached:
    # its cells, lines and transition are built in the time).
    runs = [cpu_timed(solve, Course(track), rules, start) for _ in range(5)]
    fast = runs[0][0]
    fast_time = statistics.median(took for _, took in runs)
    slow, slow_time = timed(fewest_moves, track, start)
    assert fast is not None and fast.moves == slow, (fast, slow)
    print(f"ring 100 x 60 (Gardner): {fast.moves} moves; solver {fast_time:.3f} s of CPU "
          f"(median of 5), {fast.states:,} states expanded; plain BFS {slow_time:.1f} s: "
          f"{slow_time / fast_time:.0f} times faster")
    side_by_side("ring 100 x 60", track, start)


def bench_big() -> None:
    """Whole processes beside the C reference's (CPU time, peak resident set)."""
    track = ring(400, 240, 8)
    side_by_side("ring 400 x 240", track, Course(track).start_positions[4], runs=3)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "staircase.yaml"
        stairs = staircase()
        save_track(stairs, path)
        found, took, _, peak = solved_in_child(path, "gardner")
    print(f"staircase 862 x 792 ({len(Course(stairs).surface.lattice_points())} points): "
          f"{found[0]} moves, {found[1]:,} states expanded, in {took:.2f} s of CPU, peak RSS "
          f"{mb(peak)}")
    absurd = parse_track("racetrack-track: 1\nname: Absurd\n"
                         "outer: [[0, 0], [990, 0], [990, 990], [0, 990]]\n"
                         "start: {a: [2, 0], b: [2, 990], forward: [1, 0]}\n"
                         "finish: {a: [900, 0], b: [900, 990], forward: [1, 0]}\n")
    start = time.thread_time()
    try:
        solve(Course(absurd), load_rules("gardner"))
        print("absurd square: solved?")
    except SolverError as error:
        print(f"absurd 990 x 990 open square refused in {time.thread_time() - start:.1f} s of "
              f"CPU: {error}")


#: The rule sets the game is named for, beside Gardner's, on every bundled track.
RULE_SETS = ("gardner", "baker", "classroom", "nystrom", "levi")


def bench_rules() -> None:
    """The solver on every bundled track under each of ``RULE_SETS``, each in a fresh process:
    the solve call's CPU time (one way round, as a race's car goes), the times Gardner's on
    the same track, the states expanded and the process's peak resident set. A search the
    default memory budget refuses says so; one past ``RULES_TIMEOUT`` is stopped."""
    for path in bundled_track_paths():
        line, gardner = [], None
        for rules in RULE_SETS:
            found, took, _, peak = solved_in_child(path, rules, timeout=RULES_TIMEOUT)
            if found is None:
                line.append(f"{rules} stopped after {RULES_TIMEOUT} s")
                continue
            if isinstance(found, str):
                line.append(f"{rules} refused ({found[:60]}...) after {took:.1f} s, {mb(peak)}")
                continue
            gardner = took if rules == "gardner" else gardner
            ratio = f" ({took / gardner:.1f}x)" if gardner and rules != "gardner" else ""
            line.append(f"{rules} {found[0]} moves {took:.2f} s{ratio} {found[1]:,} states "
                        f"{mb(peak)}")
        print(f"{path.stem}: " + "; ".join(line), flush=True)


RULES_TIMEOUT = 600


def karo_checkpoints() -> str:
    """A Karopapier map of 54 x 43 cells (the size of the map the checkpoints goal names) with
    four checkpoints to pass in any order: an open field cut by three walls into a serpentine,
    the start on the left, the finish on the right, the checkpoints (3 x 3 cells each) in
    alternate corners of its four stretches, so no order of them is the obvious one."""
    from tournament_maps import blank, fill, text

    grid = blank(54, 43)
    fill(grid, 1, 1, 52, 41)
    for x0, y0, x1, y1 in ((12, 1, 13, 29), (25, 13, 26, 41), (38, 1, 39, 29)):
        fill(grid, x0, y0, x1, y1, "X")
    for digit, (x, y) in zip("1234", ((5, 37), (19, 3), (31, 37), (45, 3)), strict=True):
        fill(grid, x, y, x + 2, y + 2, digit)
    fill(grid, 2, 2, 2, 6, "S")
    fill(grid, 51, 35, 51, 40, "F")
    return text(grid)


def bench_checkpoints() -> None:
    """The solver under Karopapier's rules (checkpoint areas in any order) on the map of
    ``karo_checkpoints``, imported as a track, in a fresh process: the solve call's CPU time,
    the states expanded and the process's peak resident set."""
    from racetrack.board.track.maps import import_map

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "karo-checkpoints.txt"
        source.write_text(karo_checkpoints())
        path = Path(folder) / "karo-checkpoints.yaml"
        save_track(import_map(source).track(), path)
        found, took, _, peak = solved_in_child(path, "karopapier")
    print(f"Karopapier map of 54 x 43 with four checkpoints in any order: {found[0]} moves, "
          f"{found[1]:,} states expanded, in {took:.2f} s of CPU, peak RSS {mb(peak)}")


def bench_tables() -> None:
    """CPU time throughout (the wall clock of a shared machine mostly measures the others)."""
    rules = load_rules("gardner")
    worst = 0.0
    for path in bundled_track_paths():
        track = load_track(path)
        course = Course(track, laps=rules.laps)
        table, took = cpu_timed(build_value_table, course, rules)
        worst = max(worst, took)
        print(f"table {path.stem}: {table.count:,} states, {took:.2f} s of CPU")
    print(f"worst bundled table: {worst:.2f} s of CPU")
    # Off the track a car crawls under Levi's rules: its states cover the whole sheet.
    found, took, _, peak = in_child(TABLE_SETUP.format(track="'grand-prix'", rules="levi"),
                                    "table()")
    print(f"table grand-prix (Levi): {found:,} states, {took:.2f} s of CPU, peak RSS "
          f"{mb(peak)}")
    sheet = ("racetrack-track: 1\nname: Open sheet\n"
             "outer: [[0, 0], [100, 0], [100, 69], [0, 69]]\n"
             "start: {a: [2, 0], b: [2, 69], forward: [1, 0]}\n"
             "finish: {a: [97, 0], b: [97, 69], forward: [1, 0]}\n")
    found, took, _, peak = in_child(TABLE_SETUP.format(track=repr(sheet), rules="gardner"),
                                    "table()")
    print(f"table on an open sheet of 100 x 69: {found:,} states, {took:.2f} s of CPU, "
          f"peak RSS {mb(peak)}")


TABLE_SETUP = """
from racetrack.search.drivers.tables import build_value_table
from racetrack.board.course import Course
from racetrack.rules import load_rules
from racetrack.board.track import find_track, load_track, parse_track
source = {track}
track = parse_track(source) if source.startswith("racetrack-track") \\
    else load_track(find_track(source))
rules = load_rules({rules!r})
def table():
    return build_value_table(Course.for_rules(track, rules), rules).count
"""


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
            _, took = cpu_timed(generate_candidates, race.course, rules, race.cars, state.cars,
                            state.current_car)
            turns.append(took)
            move, took = cpu_timed(drivers[state.current_car].choose, state)
            chooses.append(took)
            state.apply(move)
        print(f"{name}: table {prepare:.2f} s; candidates {statistics.median(turns) * 1e3:.2f} ms"
              f" (median), driver's choice {statistics.median(chooses) * 1e3:.2f} ms (median),"
              f" {max(chooses) * 1e3:.1f} ms (worst) over {len(turns)} turns")


def bench_help() -> None:
    """Start-up, measured from outside (CPU time of fresh processes, start-up and all):
    ``racetrack --help``, and ``racetrack solve`` of a 10 x 10 track."""
    runs = [fresh_process([sys.executable, "-m", "racetrack", "--help"]) for _ in range(7)]
    print(f"racetrack --help: {statistics.median(cpu for _, cpu, _ in runs):.3f} s of CPU "
          f"(median of 7 fresh processes), peak RSS {mb(runs[0][2])}")
    ten = ring(10, 10, 3)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ten.yaml"
        save_track(ten, path)
        runs = [fresh_process([sys.executable, "-m", "racetrack", "solve", str(path)])
                for _ in range(7)]
    print(f"racetrack solve of a 10 x 10 ring: {runs[0][0].splitlines()[0]}; "
          f"{statistics.median(cpu for _, cpu, _ in runs):.3f} s of CPU (median of 7 fresh "
          f"processes), peak RSS {mb(runs[0][2])}")


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
    from racetrack.base.settings import PlayerChoice
    from racetrack.search.drivers import make_driver
    from racetrack.ui.app import App
    from racetrack.ui.scenes.menu import MenuScene

    app = App((1920, 1080))
    app.push(MenuScene(app))
    levels = ("human", "hard", "medium", "easy", "hard", "medium")
    colours = ("red", "blue", "green", "orange", "purple", "black")
    players = tuple(PlayerChoice(f"Car {i + 1}", c, level)
                    for i, (c, level) in enumerate(zip(colours, levels, strict=True)))
    scene = app.routes.start_race(find_track(track), "gardner", players, seed=3,
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
    # The frame the race ends on (the results put up, the replay's save started) and the
    # results' first frames, apart: the end must not pause the window.
    last, last_work = times[-1], work[-1]
    after, after_work = [], []
    for _ in range(30):
        start, own = time.perf_counter(), time.thread_time()
        app.step(1 / 60)
        after.append(time.perf_counter() - start)
        after_work.append(time.thread_time() - own)
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
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; the race's "
          f"last frame {last * 1e3:.1f} ms ({last_work * 1e3:.1f} ms its own work), the "
          f"results' first 30 frames worst {max(after) * 1e3:.1f} ms "
          f"({max(after_work) * 1e3:.1f} ms own work)")


def thread_frames(app, count: int) -> list[float]:
    """``count`` frames of the window, each timed on the window's thread's own clock
    (time.thread_time), so the workers' threads and other programs on a busy machine do not
    count."""
    times = []
    for _ in range(count):
        start = time.thread_time()
        app.step(1 / 60)
        times.append(time.thread_time() - start)
    return times


def bench_editor() -> None:
    """The editor: a road of 40 clicks built, all its live checks, every crossing of a ring of
    5,000 and of 20,000 corners, and the frame time at 1280 x 800 (dummy video driver)."""
    import math
    import os

    from racetrack.board.track.draft import Draft
    from racetrack.editing.checks import problems, self_crossings
    from racetrack.editing.road import build_road

    clicks = [(60 + 50 * math.cos(a / 40 * 2 * math.pi) * (1 + 0.25 * math.sin(a * 0.9)),
               40 + 30 * math.sin(a / 40 * 2 * math.pi)) for a in range(40)]
    road, took = timed(build_road, clicks, 6.0, True)
    print(f"road tool: 40 clicks into a circuit of {len(road.outer)} + "
          f"{sum(map(len, road.holes))} corners in {took * 1e3:.0f} ms")
    draft = Draft(outer=road.outer, holes=road.holes, start=road.start)
    marks, took = timed(problems, draft)
    print(f"live checks of that drawing: {len(marks)} problems in {took * 1e3:.0f} ms")
    for size in (5_000, 20_000):  # the old limit of a polygon's corners, and the new one
        zigzag = tuple((i * 0.1, (i % 2) * 4.0) for i in range(size - 2)) + (
            ((size - 2) * 0.1, -3.0), (0, -3))
        turn = 2 * math.pi * (size // 2 - 1) / size
        star = tuple((40 * math.cos(a * turn), 40 * math.sin(a * turn)) for a in range(size))
        for name, ring in (("a zigzag", zigzag), ("a star", star)):
            found, took = timed(self_crossings, ring)
            print(f"every crossing of {name} of {len(ring)} corners: {len(found):,} in "
                  f"{took * 1e3:.0f} ms")

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("RACETRACK_HOME", "/tmp/racetrack-bench-home")
    from racetrack.editing import EditorState
    from racetrack.ui.app import App
    from racetrack.ui.scenes.editor import EditorScene
    from racetrack.ui.scenes.menu import MenuScene

    app = App((1280, 800))
    app.push(MenuScene(app))
    scene = EditorScene(app)
    scene.state = EditorState(draft)
    app.push(scene)
    scene.fit()
    still = thread_frames(app, 120)
    corner = road.outer[0]
    scene.state.press(corner)
    dragging = []
    for i in range(120):
        start = time.thread_time()
        scene.state.drag((corner[0] + i * 0.05, corner[1]))
        app.step(1 / 60)
        dragging.append(time.thread_time() - start)
    scene.state.release(corner)
    print(f"editor frame, 1280 x 800, {len(road.outer) + sum(map(len, road.holes))} corners "
          f"at {scene.camera.scale:.0f} pixels a square: median "
          f"{statistics.median(still) * 1e3:.1f} ms still, "
          f"{statistics.median(dragging) * 1e3:.1f} ms while dragging a corner (the drawing "
          f"checked and drawn again every frame); thread CPU time")



FILE_CHILD = """
import json, resource, sys
from racetrack.{module} import {function} as read
before = resource.getrusage(resource.RUSAGE_SELF)
try:
    read(sys.argv[1])
    outcome = "read"
except ValueError as exc:
    outcome = "refused"
after = resource.getrusage(resource.RUSAGE_SELF)
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
print(json.dumps([outcome, cpu, peak // 1024]))
"""


def bench_files() -> None:
    """The hostile files that once took minutes and gigabytes, and the longest replay."""
    import json
    import subprocess
    import tempfile

    from racetrack.base.errors import ReplayError
    from racetrack.base.yamlio import load_yaml, write_yaml
    from racetrack.games.replay import MAX_MOVES, REPLAY_LIMITS
    from tests.hostile_corpus import CORPUS, large_files

    folder = Path(tempfile.mkdtemp(prefix="racetrack-bench-"))
    made = large_files(folder)
    data = load_yaml(CORPUS / "reference-to-licence-text.yaml").data
    data["moves"] = (data["moves"] * (MAX_MOVES // len(data["moves"]) + 1))[:MAX_MOVES]
    longest = folder / "longest.yaml"
    _, writing = timed(write_yaml, longest, data, REPLAY_LIMITS, ReplayError)
    cases = [("a 4 MiB track of half a million points", "board.track", "load_track",
              made["tiny points"]),
             ("a 16 MiB replay of moves", "games.replay", "load_replay", made["many moves"]),
             ("a 4 MiB track of one base-60 number", "board.track", "load_track",
              made["base-60 track"]),
             ("a 16 MiB replay of one base-60 seed", "games.replay", "load_replay",
              made["base-60 replay"]),
             (f"10,000 time-trial records as the game writes them "
              f"({made['10,000 records'].stat().st_size / 1e6:.1f} MB)", "games.records",
              "load_records", made["10,000 records"]),
             (f"the longest replay the game writes ({longest.stat().st_size / 1e6:.1f} MB, "
              f"{MAX_MOVES:,} moves; writing it took {writing:.1f} s)", "games.replay",
              "load_replay", longest)]
    for what, module, function, path in cases:
        child = FILE_CHILD.format(module=module, function=function)
        done = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True,
                              text=True, check=True)
        outcome, cpu, peak = json.loads(done.stdout)
        print(f"{what}: {outcome} in {cpu:.1f} s of CPU, peak memory {peak} MB")


def bench_playback() -> None:
    """The one playback scene, at 1920 x 1080 and four times the speed: a six-car race on the
    wide speedway and a game of Graph Trees on Levi's sheet (each move re-simulated first)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("RACETRACK_HOME", "/tmp/racetrack-bench-home")
    from racetrack.games.lineup import computer_line_up
    from racetrack.games.recording import Recording
    from racetrack.games.replay import Replay
    from racetrack.games.trees import TreesGame, load_tree_rules
    from racetrack.games.trees.ai import make_player
    from racetrack.games.trees.record import SavedGame, result_data
    from racetrack.ui.app import App

    def played(setup, players) -> tuple:
        state = setup.start()
        while not state.is_over:
            state.apply(players[state.current_player].choose(state))
        return tuple(state.history), state

    race = Race(load_track(find_track("wide-speedway")), load_rules("gardner"),
                computer_line_up(["hard"] * 6), seed=3)
    moves, _ = played(race, [make_driver("hard", i) for i in range(6)])
    game = TreesGame(load_tree_rules("levi"), TreesGame.default_players(["greedy"] * 2), 3)
    tree_moves, final = played(game, [make_player("greedy", 1), make_player("greedy", 2)])
    recordings: list[Recording] = [Replay(race, moves, {}, "race"),
                                   SavedGame(game, tree_moves, result_data(final), "game")]
    app = App((1920, 1080))
    app.routes.menu()
    for recording in recordings:
        states, took = timed(lambda r=recording: list(r.states()))
        viewer = app.routes.watch(recording, states)
        for _ in range(3):
            app.step(1 / 60)
        viewer.step_speed(2)
        viewer.toggle()
        times = sorted(thread_frames(app, 240))
        print(f"playback of {recording.noun} of {len(recording.moves)} moves at 1920 x 1080, "
              f"4x: re-simulated in {took:.2f} s; frame median "
              f"{statistics.median(times) * 1e3:.1f} ms, 95th percentile "
              f"{times[int(0.95 * len(times))] * 1e3:.1f} ms, worst {times[-1] * 1e3:.1f} ms "
              "(thread CPU time)")
        app.pop()


def bench_hostile() -> None:
    """Every file of the hostile corpus through every loader and every command that takes a
    file (CPU time of the slowest of each, in this process)."""
    import contextlib
    import io
    import logging
    import os
    import tempfile

    from racetrack.cli import main
    from tests.hostile_corpus import COMMANDS, corpus_files, prepare, run_loaders

    logging.disable(logging.WARNING)  # the settings' and rules' warnings, one per file

    folder = Path(tempfile.mkdtemp(prefix="racetrack-bench-"))
    os.environ["RACETRACK_HOME"] = str(folder / "home")
    prepare(folder / "corpus", folder / "home")
    os.chdir(folder / "corpus")
    slowest = []
    for name in corpus_files():
        _, loaders = cpu_timed(run_loaders, folder / "corpus" / name)
        commands = []
        for command in COMMANDS:
            argv = [part.format(file=name, out=str(folder / "out.png")) for part in command]
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                commands.append((cpu_timed(main, argv)[1], " ".join(command[:2])))
        worst = max(commands)
        slowest.append((max(loaders, worst[0]), name))
        print(f"{name}: every loader {loaders * 1e3:.0f} ms, slowest command "
              f"{worst[0] * 1e3:.0f} ms ({worst[1]})")
    print(f"slowest of all: {max(slowest)[1]}, {max(slowest)[0]:.2f} s")


def bench_imports() -> None:
    """Importing maps: the bundled ones, the largest Karopapier map a sheet holds (a serpentine
    of 998 x 998 cells), and refusing a 10,000 x 10,000 grid and a picture of noise, each in a
    fresh process (CPU time and peak memory)."""
    import json
    import subprocess
    import tempfile

    import numpy as np
    from PIL import Image

    from racetrack.board.track.maps import bundled_map_paths, import_map

    for path in bundled_map_paths():
        _, took = timed(import_map, path)
        print(f"import {path.name}: {took * 1e3:.0f} ms")
    folder = Path(tempfile.mkdtemp(prefix="racetrack-bench-"))
    serpentine = np.full((998, 998), "X")
    for lane, row in enumerate(range(1, 994, 4)):  # lanes three cells wide...
        serpentine[row:row + 3, 1:997] = "O"
        if row + 7 <= 997:  # ...joined at alternate ends
            ends = slice(994, 997) if lane % 2 == 0 else slice(1, 4)
            serpentine[row + 3, ends] = "O"
    serpentine[1:4, 1] = "S"
    serpentine[row:row + 3, 996] = "F"
    big = folder / "serpentine.txt"
    big.write_text("\n".join("".join(row) for row in serpentine))
    huge = folder / "huge.txt"
    row = "S" + "O" * 9_998 + "F\n"
    with open(huge, "w") as handle:
        handle.write(row)
        handle.truncate(len(row) * 10_000)
    noise = folder / "noise.png"
    rng = np.random.default_rng(0)
    Image.fromarray(rng.integers(0, 256, (2800, 2800, 3), dtype=np.uint8)).save(noise)
    cases = [("the largest Karopapier map, a serpentine of 998 x 998 cells", big),
             ("a 10,000 x 10,000 grid", huge),
             (f"a picture of noise, 2800 x 2800 ({noise.stat().st_size / 1e6:.0f} MB)", noise)]
    for what, path in cases:
        child = FILE_CHILD.format(module="board.track.maps", function="import_map")
        done = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True,
                              text=True, check=True)
        outcome, cpu, peak = json.loads(done.stdout)
        print(f"{what}: {outcome} in {cpu:.1f} s of CPU, peak memory {peak} MB")


LIMIT_CHILD = """
import json, resource, sys
from racetrack.board.track.maps import import_map
from racetrack.board.track import load_track, save_track
before = resource.getrusage(resource.RUSAGE_SELF)
track = import_map(sys.argv[1]).track()
save_track(track, sys.argv[2])
imported = resource.getrusage(resource.RUSAGE_SELF)
track = load_track(sys.argv[2])
loaded = resource.getrusage(resource.RUSAGE_SELF)
from racetrack.games.race import Race
from racetrack.engine.model import CarSetup
from racetrack.rules import load_rules
state = Race(track, load_rules("karopapier"), [CarSetup("A"), CarSetup("B")]).start()
started = resource.getrusage(resource.RUSAGE_SELF)
for _ in range(20):  # each car's candidates checked, the middle one taken
    if state.is_over:
        break
    moves = state.legal_moves()
    state.apply(moves[len(moves) // 2])
raced = resource.getrusage(resource.RUSAGE_SELF)
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
cpu = lambda a, b: b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime
print(json.dumps([len(track.holes), len(track.outer) + sum(map(len, track.holes)),
                  cpu(before, imported), cpu(imported, loaded), cpu(loaded, started),
                  cpu(started, raced), peak // 1024]))
"""


def bench_limits() -> None:
    """Tracks near the limits of holes and corners, made from Karopapier maps: importing one,
    loading it (every check), starting a race of two cars on it and its first 20 moves, in a
    fresh process (CPU time and peak memory)."""
    import json
    import subprocess
    import tempfile

    import numpy as np

    folder = Path(tempfile.mkdtemp(prefix="racetrack-bench-"))
    maps = {}
    for holes_every, size in ((6, (112, 172)), (5, (130, 190))):
        grid = np.full(size, "O")
        grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = "X"
        grid[4:-4:holes_every, 12:-4:holes_every] = "X"
        grid[50:53, 1:9], grid[60, 1:9], grid[55, -9:-1] = "S", "F", "1"
        maps[f"islands every {holes_every} cells, {size[1]} x {size[0]}"] = grid
    for width in (1502, 5002):
        grid = np.full((62, width), "O")
        grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = "X"
        grid[1, 2:-2:2] = grid[-2, 2:-2:2] = "X"
        grid[20:23, 1:9], grid[30, 1:9], grid[25, -9:-1] = "S", "F", "1"
        maps[f"a wall toothed every other cell, {width} x 62"] = grid
    for what, grid in maps.items():
        path = folder / "map.txt"
        path.write_text("\n".join("".join(row) for row in grid))
        done = subprocess.run([sys.executable, "-c", LIMIT_CHILD, str(path),
                               str(folder / "track.yaml")], capture_output=True, text=True)
        if done.returncode:
            print(f"{what}: {done.stderr.strip().splitlines()[-1]}")
            continue
        holes, corners, imported, loaded, started, raced, peak = json.loads(done.stdout)
        print(f"{what}: {holes:,} holes, {corners:,} corners; import {imported:.2f} s, load "
              f"{loaded:.2f} s, a race's start {started:.2f} s, its first 20 moves "
              f"{raced:.2f} s of CPU; peak memory {peak} MB")


def _process_figures(pid: int) -> tuple[float, int, int]:
    """A process's CPU seconds so far, its memory now and at its peak (bytes), from /proc."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return cpu, int(status["VmRSS"].split()[0]) * 1024, int(status["VmHWM"].split()[0]) * 1024


class _OnlineBots:
    """Bots written from the protocol alone (no engine on this side, so the bench measures
    the server): each plays both seats of one game through one connection, moving to a
    legal point the server lists, and starts a new game when its game ends."""

    def __init__(self, url: str, create: dict, pace: float, seed: int):
        import random

        self.url, self.create, self.pace = url, create, pace
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.moves = 0

    async def run(self, until: float) -> None:
        import asyncio
        import json

        from websockets.asyncio.client import connect

        async with connect(self.url, max_size=None) as ws:
            await ws.recv()
            while time.monotonic() < until:
                await ws.send(json.dumps({"v": 1, "type": "create", **self.create}))
                created = await self._reply(ws, "created")
                tokens = {s["seat"]: s["token"] for s in created["seats"]}
                game = created["game"]
                state = None
                for token in tokens.values():
                    await ws.send(json.dumps({"v": 1, "type": "join", "game": game,
                                              "token": token}))
                    state = await self._reply(ws, "game")
                while state["turn"] and time.monotonic() < until:
                    turn = state["turn"]
                    proposal = {"v": 1, "type": "move", "game": game,
                                "token": tokens[turn["seat"]], "number": turn["number"],
                                "move": self.rng.choice(turn["legal"])}
                    sent = time.perf_counter()
                    await ws.send(json.dumps(proposal))
                    await self._reply(ws, "ack")
                    self.latencies.append(time.perf_counter() - sent)
                    self.moves += 1
                    state = await self._reply(ws, "move")
                    if self.pace:
                        await asyncio.sleep(self.pace * self.rng.uniform(0.5, 1.5))
                await ws.send(json.dumps({"v": 1, "type": "leave", "game": game}))

    async def _reply(self, ws, kind: str) -> dict:
        import asyncio
        import json

        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message["type"] == kind:
                return message
            if message["type"] in ("error", "refused"):
                raise RuntimeError(message)


def bench_online() -> None:
    """A server process on loopback (SQLite in a temporary folder): memory per open game with
    1,000 games open; then bots in many games for 30 s, paced at about 200 moves a second and
    then as fast as they go: moves a second, the time from a move's proposal to its
    acknowledgement (its commit included), and the server's CPU per move."""
    import asyncio
    import json
    import os
    import statistics as stats

    folder = Path(tempfile.mkdtemp(prefix="racetrack-bench-online-"))
    env = {**os.environ, "RACETRACK_HOME": str(folder)}
    # ``BENCH_SERVER_NICE=-10`` raises the server's priority over a shared machine's load.
    nice = ["nice", "-n", os.environ["BENCH_SERVER_NICE"]] \
        if os.environ.get("BENCH_SERVER_NICE") else []
    server = subprocess.Popen([*nice, sys.executable, "-m", "racetrack", "serve", "--port", "0",
                               "--db", str(folder / "games.sqlite3")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env=env, cwd=ROOT)
    url = server.stdout.readline().split()[2]
    track = load_track(find_track("oval"))
    from racetrack.cli.online import new_game_message

    create = new_game_message(track, load_rules("gardner"), 2, [])
    try:
        async def open_games(count: int, connections: int = 20) -> None:
            """``count`` games made through ``connections`` connections (a connection's
            message budget allows a burst of 200)."""
            from websockets.asyncio.client import connect

            async def make(share: int) -> None:
                bots = _OnlineBots(url, create, 0, 0)
                async with connect(url, max_size=None) as ws:
                    await ws.recv()
                    for _ in range(share):
                        await ws.send(json.dumps({"v": 1, "type": "create", **create}))
                    for _ in range(share):
                        await bots._reply(ws, "created")

            await asyncio.gather(*(make(count // connections) for _ in range(connections)))

        _, before, _ = _process_figures(server.pid)
        started = time.perf_counter()
        asyncio.run(open_games(1000))
        took = time.perf_counter() - started
        _, after, peak = _process_figures(server.pid)
        print(f"online: 1,000 open games (oval, Gardner, 2 seats) made in {took:.1f} s; server "
              f"memory {before / 2**20:.0f} MB before, {after / 2**20:.0f} MB after "
              f"({(after - before) / 1000 / 1024:.0f} KB a game), peak "
              f"{peak / 2**20:.0f} MB")

        def run_bots(count: int, pace: float, seconds: float = 30.0) -> None:
            bots = [_OnlineBots(url, create, pace, seed) for seed in range(count)]
            cpu_before, _, _ = _process_figures(server.pid)
            until = time.monotonic() + seconds

            async def all_bots() -> None:
                await asyncio.gather(*(bot.run(until) for bot in bots))

            started = time.perf_counter()
            asyncio.run(all_bots())
            elapsed = time.perf_counter() - started
            cpu_after, rss, peak = _process_figures(server.pid)
            moves = sum(bot.moves for bot in bots)
            latencies = sorted(x for bot in bots for x in bot.latencies)
            p50 = stats.median(latencies) * 1e3
            p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1e3
            per_move = 1e3 * (cpu_after - cpu_before) / max(moves, 1)
            print(f"online: {count} bots, {'paced' if pace else 'unpaced'}: {moves} moves in "
                  f"{elapsed:.0f} s = {moves / elapsed:.0f} moves/s; proposal to ack p50 "
                  f"{p50:.1f} ms, p99 {p99:.1f} ms; server CPU {per_move:.2f} ms a move; "
                  f"server memory {rss / 2**20:.0f} MB (peak {peak / 2**20:.0f} MB)")

        run_bots(100, 0.5)  # about 200 moves a second
        run_bots(50, 0.0)
    finally:
        server.terminate()
        server.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


def bench_idle() -> None:
    """The window left alone: its CPU use on the menu and in a race (tools/idle.py)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import idle

    idle.main()


BENCHES = {"solver": bench_solver, "big": bench_big, "rules": bench_rules,
           "checkpoints": bench_checkpoints, "tables": bench_tables,
           "moves": bench_moves, "help": bench_help, "frames": bench_frames,
           "editor": bench_editor, "files": bench_files, "playback": bench_playback,
           "imports": bench_imports, "hostile": bench_hostile, "limits": bench_limits,
           "online": bench_online, "idle": bench_idle}


def bench_name(text: str) -> str:
    """A benchmark named on the command line (argparse says so when there is none)."""
    if text not in BENCHES:
        raise argparse.ArgumentTypeError(f"no benchmark {text!r}; the benchmarks: "
                                         f"{', '.join(BENCHES)}")
    return text


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("benches", nargs="*", type=bench_name, metavar="BENCH",
                        help=f"benchmarks to run (default: all): {', '.join(BENCHES)}")
    for name in parser.parse_args().benches or BENCHES:
        BENCHES[name]()
