"""The ``racetrack`` command: the only place that prints for the user and picks exit codes.

Every sub-command turns the game's own errors (``ValueError`` subclasses whose message names the
file and line) into one line per problem on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from racetrack.base.errors import FileProblemError, RacetrackError
from racetrack.cli.common import (
    RULES_HELP,
    chosen_rules,
    find_track,
    load_track,
    parse_override,
    say,
)
from racetrack.cli.online import add_online_commands
from racetrack.search.drivers import LEVELS

if TYPE_CHECKING:

    pass


EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


#: numpy's BLAS starts a thread for every core when numpy loads, which took half of numpy's
#: loading time (0.06 of 0.12 s of CPU on two cores): the game only multiplies small arrays,
#: so one thread serves, unless the player's environment says otherwise.
BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1"}


def main(argv: Sequence[str] | None = None) -> int:
    for name, value in BLAS_THREADS.items():  # before any command loads numpy
        os.environ.setdefault(name, value)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        return run_window(None)
    try:
        return args.run(args)
    except FileProblemError as exc:
        for problem in exc.problems:
            say(f"error: {problem}", err=True)
        return EXIT_FAILED
    except RacetrackError as exc:
        say(f"error: {exc}", err=True)
        return EXIT_FAILED
    except OSError as exc:  # a file the player named cannot be written (or read)
        where = f"{exc.filename}: " if exc.filename else ""
        say(f"error: {where}{exc.strerror or exc}", err=True)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``racetrack rules baker | head``): stop quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="racetrack",
        description="The graph-paper car race: each turn a car repeats its last move and may "
                    "change it by one square.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser("play", help="open the window straight into a race")
    play.add_argument("track", nargs="?", default="oval", metavar="TRACK",
                      help="a track file or a bundled track's name (default: oval)")
    play.add_argument("--rules", default=None, metavar="R",
                      help=RULES_HELP)
    play.add_argument("--players", default="human,ai", metavar="SPEC",
                      help='who races, e.g. "human,ai" or "Ann,Bob,ai:expert": "human" or a '
                           'name is a human player, "ai" or "ai:LEVEL" a computer driver '
                           "(easy, medium, hard, expert)")
    play.add_argument("--seed", type=seed_number, default=None, metavar="N",
                      help="seed for the turn order by lot and the computer drivers")
    add_overrides(play)
    play.set_defaults(run=run_window)

    edit = commands.add_parser("edit", help="open the track editor")
    edit.add_argument("file", nargs="?", metavar="FILE",
                      help="a track file to edit, or a map to import as a new drawing "
                           "(default: carry on with the last drawing)")
    edit.set_defaults(run=run_editor)

    validate = commands.add_parser("validate", help="check track files and summarise them")
    validate.add_argument("files", nargs="+", metavar="FILE",
                          help="track files (or names of bundled tracks)")
    validate.set_defaults(run=run_validate)

    imports = commands.add_parser("import", help="turn a map (Karopapier map code, a "
                                  "character grid, a picture) into a track")
    imports.add_argument("file", metavar="FILE", help="the map to import")
    imports.add_argument("--format", choices=("karo", "grid", "image"),
                         help="the kind of map (default: told from the file)")
    imports.add_argument("--scale", type=positive_number, metavar="N",
                         help="for a picture: squares of graph paper per pixel (default: 60 "
                              "squares along the longer side)")
    imports.add_argument("-o", "--output", metavar="OUT.yaml",
                         help="where to write the track (default: your tracks folder, named "
                              "after the map)")
    imports.add_argument("--name", metavar="NAME",
                         help="the track's name (default: from the file's name)")
    imports.set_defaults(run=run_import)

    rules = commands.add_parser("rules", help="list the rule variants, or show one's options")
    rules.add_argument("name", nargs="?", metavar="NAME",
                       help="a bundled variant's name or a rules file")
    rules.set_defaults(run=run_rules)

    race = commands.add_parser("race", help="run a race of computer drivers without a window")
    add_track_and_rules(race)
    race.add_argument("--driver", action="append", metavar="D", choices=LEVELS,
                      help=f"add a computer car of this level ({', '.join(LEVELS)}); "
                           "repeat for more cars (default: two medium cars)")
    race.add_argument("--reverse", action="append", type=int, default=[], metavar="K",
                      help="car number K (from 1) races the circuit the other way round "
                           "(rules with start.direction: either); repeatable")
    race.add_argument("--seed", type=seed_number, default=0, metavar="N",
                      help="seed for the turn order by lot and the drivers (default: 0)")
    race.add_argument("--save", metavar="FILE", help="save the race as a replay file")
    race.add_argument("--json", action="store_true", help="print the result as JSON")
    race.set_defaults(run=run_race)

    series = commands.add_parser("championship", help="race a championship of computer "
                                 "drivers without a window: points and prize money carried on")
    series.add_argument("--tracks", required=True, metavar="T1,T2,...",
                        help="the tracks raced, in order (names or files)")
    series.add_argument("--rules", default="baker-bond", metavar="R",
                        help="rule variant name or rules file (default: baker-bond)")
    series.add_argument("--driver", action="append", metavar="D", choices=LEVELS,
                        help=f"add a computer driver: {', '.join(LEVELS)} (default: two medium)")
    series.add_argument("--seed", type=seed_number, default=0, metavar="N",
                        help="seed for the races and drivers (default 0)")
    series.add_argument("--save", metavar="FILE", help="save the standings to a file")
    series.add_argument("--json", action="store_true", help="print the standings as JSON")
    series.set_defaults(run=run_championship)

    solve = commands.add_parser("solve", help="the fewest moves to the finish, and the route")
    add_track_and_rules(solve)
    solve.add_argument("--from", dest="start", type=parse_point, metavar="X,Y",
                       help="solve from this point at rest (default: the best start point); "
                            "write --from=-3,5 for a negative x")
    solve.add_argument("--starts", action="store_true",
                       help="fairness report: the optimum from each start point")
    solve.add_argument("--position", metavar="TEXT",
                       help="solve from a car's position string, e.g. \"31,5 4,-2 1 dmg=2\" "
                            "(point, velocity, progress, then any of pit, launch, off, off@D, "
                            "dmg=N, miss=N, kit=B/T/R)")
    solve.add_argument("--json", action="store_true", help="print the result as JSON")
    solve.set_defaults(run=run_solve)

    records = commands.add_parser("records", help="the time-trial records: your fewest turns "
                                                  "per track and rule set")
    records.add_argument("--par", action="store_true",
                         help="work out the solver's par where it is not known yet (and "
                              "remember it)")
    records.add_argument("--json", action="store_true", help="print the table as JSON")
    records.set_defaults(run=run_records)

    replay = commands.add_parser("replay", help="watch a saved race, check it, or draw it")
    replay.add_argument("file", metavar="FILE", help="a replay file")
    replay.add_argument("--verify", action="store_true",
                        help="re-simulate every move and compare the recorded result, "
                             "without a window")
    replay.add_argument("--png", metavar="OUT",
                        help="draw the final race sheet, every trail on the paper, to a PNG")
    replay.set_defaults(run=run_replay)

    add_trees_commands(commands)
    add_online_commands(commands)
    return parser


def add_trees_commands(commands) -> None:
    """The Graph Trees commands: a window straight into a game, a headless game, a check."""
    trees = commands.add_parser("trees", help="open the window straight into a game of Graph "
                                              "Trees")
    add_trees_setup(trees, "human,greedy")
    trees.set_defaults(run=run_trees_window)

    play = commands.add_parser("trees-play", help="play Graph Trees between computer players "
                                                  "without a window")
    add_trees_setup(play, "greedy,greedy")
    play.add_argument("--save", metavar="FILE", help="save the game to a file")
    play.add_argument("--json", action="store_true", help="print the result as JSON")
    play.set_defaults(run=run_trees_play)

    replay = commands.add_parser("trees-replay", help="watch a saved Graph Trees game, or "
                                                      "check it")
    replay.add_argument("file", metavar="FILE", help="a saved Graph Trees game")
    replay.add_argument("--verify", action="store_true",
                        help="re-simulate every move and compare the recorded result, "
                             "without a window")
    replay.set_defaults(run=run_trees_replay)


def add_trees_setup(command: argparse.ArgumentParser, players: str) -> None:
    command.add_argument("--rules", default="levi", metavar="R",
                         help="a bundled Graph Trees rule set (levi, levi-4, quick) or a "
                              "rules file (default: levi)")
    command.add_argument("--players", default=None, metavar="SPEC",
                         help=f'who plays, in turn order, e.g. "{players}": "human" or '
                              '"greedy" (the computer) for each (default: as many as the '
                              f'rules seat, like "{players}")')
    command.set_defaults(default_players=players.split(","))
    command.add_argument("--seed", type=seed_number, default=None, metavar="N",
                         help="seed for the computer players' tie-breaks (default: 0 "
                              "headless, random in the window)")


#: The rules a race is run by when neither ``--rules`` nor the track names any.

def add_track_and_rules(command: argparse.ArgumentParser) -> None:
    command.add_argument("track", metavar="TRACK",
                         help="a track file or a bundled track's name")
    command.add_argument("--rules", default=None, metavar="R", help=RULES_HELP)
    add_overrides(command)


def add_overrides(command: argparse.ArgumentParser) -> None:
    command.add_argument("--set", dest="overrides", action="append", type=parse_override,
                         default=[], metavar="KEY=VALUE",
                         help="change one rule option of the chosen rules, e.g. "
                              "movement.choices=square-24 (repeatable; `racetrack rules NAME` "
                              "lists the options)")


#: The largest seed taken on the command line (a championship numbers its races' seeds from
#: it; every seed the game writes must stay within what its files may hold).
MAX_SEED = 10**12


def seed_number(text: str) -> int:
    """A whole-number seed for ``--seed``, from -10^12 to 10^12."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if not -MAX_SEED <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is from -{MAX_SEED} to {MAX_SEED}")
    return value


def positive_number(text: str) -> float:
    """A finite number above zero, for --scale."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not (value > 0 and value < float("inf")):
        raise argparse.ArgumentTypeError(f"expected a number above 0, not {text!r}")
    return value


def parse_point(text: str):
    """``"3,-4"`` -> ``Vec(3, -4)``, for command-line options."""
    from racetrack.board.geometry import Vec

    try:
        x, y = (int(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in whole numbers, not {text!r}") from None
    return Vec(x, y)


def run_validate(args: argparse.Namespace) -> int:
    """Check each file; one summary line per good track, one line per problem of a bad one."""
    from racetrack.board.track.summary import track_summary

    status = EXIT_OK
    for name in args.files:
        try:
            track = load_track(find_track(name))
        except FileProblemError as exc:
            for problem in exc.problems:
                say(f"error: {problem}", err=True)
            status = EXIT_FAILED
            continue
        say(f"{name}: ok: {track_summary(track)}")
    return status


def run_import(args: argparse.Namespace) -> int:
    """Import a map: write the track (or, when it still needs lines, the drawing) and say
    what it is; exit 1 for a file that cannot be read, or a drawing still to finish."""
    from pathlib import Path

    from racetrack.base.files import file_in
    from racetrack.base.settings import tracks_dir
    from racetrack.board.track import save_track
    from racetrack.board.track.draft import save_draft
    from racetrack.board.track.maps import MapFormat, import_map
    from racetrack.board.track.summary import track_summary

    chosen = MapFormat(args.format) if args.format else None
    imported = import_map(args.file, chosen, args.scale, args.name)
    if args.output:
        out = Path(args.output)
    else:
        folder = tracks_dir()
        # The map's file name may hold anything (controls, "CON", a leading dot or dash, 250
        # bytes): the track is named from it made safe, directly in the tracks folder.
        out = file_in(folder, Path(args.file).stem, fallback="imported")
        if out.exists() or out.is_symlink():
            raise RacetrackError(f"{out} already exists; give -o to write the track "
                                 "elsewhere (or over it)")
        folder.mkdir(parents=True, exist_ok=True)
    if args.scale is not None and imported.format is not MapFormat.IMAGE:
        say("note: --scale is for pictures: a map of cells is one square a cell")
    for note in imported.notes:
        say(f"note: {note}")
    try:
        track = imported.track()
    except FileProblemError as exc:
        save_draft(imported.draft, out)
        for problem in exc.problems:
            say(f"error: {out}: {problem.message}", err=True)
        say(f"wrote {out} as a drawing to finish: racetrack edit {out}", err=True)
        return EXIT_FAILED
    save_track(track, out)
    say(f"wrote {out} ({imported.format.value} map): ok: {track_summary(track)}")
    if track.rules:
        say(f"it races by its source's rules, {track.rules} (another: racetrack play {out} "
            "--rules NAME)")
    return EXIT_OK


def run_rules(args: argparse.Namespace) -> int:
    """List the variants, or print every option of one with its value and meaning."""
    from racetrack.rules import bundled_variant_names, load_rules
    from racetrack.rules.describe import describe_rules, one_line
    from racetrack.rules.ruleset import option_sources

    if not args.name:
        names = bundled_variant_names()
        width = max(len(n) for n in names)
        for name in names:
            say(f"{name:<{width}}  {one_line(load_rules(name).description)}")
        return EXIT_OK
    for line in describe_rules(load_rules(args.name), option_sources(args.name)):
        say(line)
    return EXIT_OK


def run_race(args: argparse.Namespace) -> int:
    """Race computer drivers headless; print the ranking (or JSON) and optionally save."""
    import json

    from racetrack.games.lineup import computer_line_up
    from racetrack.games.playout import play_out, race_drivers, race_result
    from racetrack.games.race import Race
    from racetrack.games.replay import save_replay

    track = load_track(find_track(args.track))
    rules = chosen_rules(args, track)
    levels = args.driver or ["medium", "medium"]
    try:
        cars = computer_line_up(levels, args.reverse)
        race = Race(track, rules, cars, seed=args.seed)
    except ValueError as exc:
        raise RacetrackError(str(exc)) from None
    state = play_out(race.start(), race_drivers(race))
    if args.save:
        save_replay(state, args.save)
    outcome = state.outcome
    names = [car.name for car in cars]
    if args.json:
        say(json.dumps(race_result(state)))
        return EXIT_OK
    say(f"{track.name}, {rules.name} rules, seed {args.seed}: {outcome.reason}")
    for place, index in enumerate(outcome.ranking, start=1):
        car = state.cars[index]
        status = (f"finished in turn {car.finish.round}" if car.finish
                  else car.status.value)
        say(f"{place}. {names[index]} ({levels[index]}): {status}, {car.moves} moves, "
              f"damage {car.damage}")
    winner = names[outcome.winner] if outcome.winner is not None else "nobody"
    say(f"Winner: {winner} after {outcome.rounds} turns")
    return EXIT_OK


def run_championship(args: argparse.Namespace) -> int:
    """A whole championship of computer drivers, headless and deterministic."""
    import json

    from racetrack.games.championship import Championship, Entrant, run_headless
    from racetrack.games.lineup import computer_line_up
    from racetrack.rules import load_rules

    load_rules(args.rules)  # a bad name fails here, with the list of variants
    tracks = [name.strip() for name in args.tracks.split(",") if name.strip()]
    for name in tracks:
        find_track(name)
    levels = args.driver or ["medium", "medium"]
    try:
        cars = computer_line_up(levels)
    except ValueError as exc:
        raise RacetrackError(str(exc)) from None
    entrants = [Entrant(car.name, car.colour, car.driver) for car in cars]
    series = Championship(args.rules, tracks, entrants, seed=args.seed)
    try:
        run_headless(series)
    except ValueError as exc:
        raise RacetrackError(str(exc)) from None
    if args.save:
        try:
            series.save(args.save, replace=True)
        except OSError as exc:
            raise RacetrackError(f"cannot save the championship to {args.save}: "
                                 f"{exc.strerror or exc}") from None
    if args.json:
        say(json.dumps({"rules": args.rules, "tracks": tracks, "seed": args.seed,
                          "races": series.results,
                          "standings": [{"name": n, "points": pts, "money": money}
                                        for n, pts, money in series.standings()]}))
        return EXIT_OK
    for number, result in enumerate(series.results, start=1):
        say(f"Race {number}, {result['track']}: " + ", ".join(result["ranking"]))
    say("Standings:")
    for place, (name, points, money) in enumerate(series.standings(), start=1):
        say(f"{place}. {name}: {points} points, ${money} for the next shop")
    return EXIT_OK


def run_records(args: argparse.Namespace) -> int:
    """Print the time-trial table; a damaged records file is one line and exit 1."""
    import json

    from racetrack.games.records import load_records, note_par, records_path, solo_par, track_for
    from racetrack.search.solver import SolverError

    path = records_path()
    table = load_records(path)
    if args.par:
        for record in table.entries:
            track = track_for(record) if record.par is None else None
            if track is None:
                continue
            try:
                found = solo_par(track, record.rules)
            except SolverError:
                continue
            if found is not None:
                with contextlib.suppress(OSError):
                    note_par(track, record.rules, found.moves, path)
        table = load_records(path)
    rows = [{"track": r.track_name, "rules": r.rules.name, "best": r.best, "par": r.par,
             "player": r.player, "date": r.date, "runs": r.runs, "track_hash": r.track_hash}
            for r in table.entries]
    if args.json:
        say(json.dumps({"file": str(path), "records": rows}))
        return EXIT_OK
    if not rows:
        say(f"no time-trial records yet (race alone to set one; they are kept in {path})")
        return EXIT_OK
    heads = ("track", "rules", "best", "par", "player", "date", "runs")
    cells = [[str(row[h]) if row[h] is not None else "-" for h in heads] for row in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    numeric = {"best", "par", "runs"}

    def line(values) -> str:
        return "  ".join(v.rjust(w) if h in numeric else v.ljust(w)
                         for h, v, w in zip(heads, values, widths, strict=True)).rstrip()

    say(line(heads))
    for row in cells:
        say(line(row))
    return EXIT_OK


def run_replay(args: argparse.Namespace) -> int:
    """Open the replay viewer, or check (--verify) or draw (--png) a replay headless."""
    from racetrack.games.replay import load_replay

    replay = load_replay(args.file)
    if not args.verify and not args.png:
        states = list(replay.states())
        return _window_over_menu(lambda app: app.routes.watch(replay, states))
    state = replay.verify() if args.verify else replay.final_state()
    if args.verify:
        note = "" if not replay.track_changed else " (the track file has changed since: " \
            "the copy in the replay was used)"
        verdict = "result matches" if state.is_over else "race unfinished"
        say(f"{args.file}: ok: {len(replay.moves)} moves re-simulated, {verdict}{note}")
    if args.png:
        from datetime import datetime

        from racetrack.ui.render.poster import save_race_sheet

        when = datetime.fromtimestamp(os.path.getmtime(args.file))  # when it was saved
        try:
            save_race_sheet(state, args.png, when)
        except OSError as exc:
            raise RacetrackError(f"cannot write {args.png}: {exc.strerror or exc}") from None
        except Exception as exc:  # pygame raises its own error type for unwritable files
            raise RacetrackError(f"cannot write {args.png}: {exc}") from None
        say(f"race sheet saved to {args.png}")
    return EXIT_OK


def run_solve(args: argparse.Namespace) -> int:
    """Print the optimum (and its route) or, with --starts, the optimum from each start."""
    import json

    from racetrack.board.course import Course
    from racetrack.search.solver import races_either_way, solve, solve_each_start, solve_each_way

    track = load_track(find_track(args.track))
    rules = chosen_rules(args, track)
    course = Course.for_rules(track, rules)
    if args.starts:
        found = solve_each_start(course, rules)
        solved = [v for v in found.values() if v is not None]
        if args.json:
            say(json.dumps({"starts": [{"start": list(p), "moves": v}
                                         for p, v in found.items()],
                              "best": min(solved) if solved else None,
                              "spread": max(solved) - min(solved) if solved else None}))
        else:
            say(f"{track.name} ({rules.name} rules): the optimum from each start point")
            for point, value in found.items():
                say(f"  {tuple(point)}: {value if value is not None else 'cannot finish'}")
            if solved:
                say(f"spread: {max(solved) - min(solved)} moves")
        return EXIT_OK if solved else EXIT_FAILED
    if args.position is not None:
        if args.start is not None or args.starts:
            raise RacetrackError("--position cannot be given with --from or --starts")
        from racetrack.engine.position import parse_car_position
        from racetrack.search.solver import solve_position

        solution = solve_position(course, rules, parse_car_position(args.position))
    elif args.start is not None and args.start not in course.start_positions:
        spots = " ".join(f"{p.x},{p.y}" for p in course.start_positions)
        raise RacetrackError(f"{tuple(args.start)} is not a start point of the track (a "
                             f"standing start is on the start line): {spots}")
    elif races_either_way(track, rules):
        return report_each_way(track, rules, solve_each_way(track, rules, args.start),
                               args.json)
    else:
        solution = solve(course, rules, start=args.start)
    if solution is None:
        if args.json:
            say(json.dumps({"moves": None, "start": None, "path": []}))
        else:
            say(f"{track.name} ({rules.name} rules): no way to the finish")
        return EXIT_FAILED
    if args.json:
        say(json.dumps(solution.to_json()))
        return EXIT_OK
    say(f"{track.name} ({rules.name} rules): {solution.moves} "
          f"move{'s' if solution.moves != 1 else ''} from "
          f"{tuple(solution.start)}{crash_count(solution)}")
    say("route: " + route_words(solution))
    return EXIT_OK


def report_each_way(track, rules, found: dict, as_json: bool) -> int:
    """``solve`` where a car may race either way round: both ways, and which is faster. The
    JSON is the faster way's answer (the arrow's where they tie) with ``direction`` (its way),
    ``faster`` (``forward``, ``reverse`` or ``null`` for a tie) and ``directions`` (each way's
    answer)."""
    import json

    from racetrack.search.solver import faster_way

    faster = faster_way(found)
    shown = faster or "forward"

    def answer(solution) -> dict:
        return solution.to_json() if solution is not None else \
            {"moves": None, "start": None, "path": []}

    if as_json:
        say(json.dumps({**answer(found[shown]), "direction": shown, "faster": faster,
                        "directions": {way: answer(s) for way, s in found.items()}}))
    else:
        say(f"{track.name} ({rules.name} rules), either way round:")
        for way, solution in found.items():
            side = "with the arrow" if way == "forward" else "against it"
            if solution is None:
                say(f"  {way} ({side}): no way to the finish")
                continue
            say(f"  {way} ({side}): {solution.moves} move{'s' if solution.moves != 1 else ''} "
                f"from {tuple(solution.start)}{crash_count(solution)}")
            say(f"  {way} route: {route_words(solution)}")
        turns = [s.moves for s in found.values() if s is not None]
        if faster is not None:
            by = max(turns) - min(turns) if len(turns) == 2 else None
            say(f"faster: {faster}" + (f", by {by} move{'s' if by != 1 else ''}" if by else ""))
        elif turns:
            say(f"both ways take {turns[0]} move{'s' if turns[0] != 1 else ''}")
    return EXIT_OK if any(s is not None for s in found.values()) else EXIT_FAILED


def crash_count(solution) -> str:
    """``, 1 crash`` (or more) for a route that crashes; nothing for one that does not."""
    crashes = sum(step.event == "crash" for step in solution.steps)
    return f", {crashes} crash{'es' if crashes != 1 else ''}" if crashes else ""


def route_words(solution) -> str:
    """The route's points, the start and then where the car stands after each turn, with a
    crash marked where it happens: ``30,12(crash at 33,9)`` is a crash into the wall at
    (33, 9) that puts the car on (30, 12), ``30,12(missed)`` a turn missed after it; a crash
    with no point given is the one the rules make when the car has no legal move. Without
    the marks a put-back point reads as a move there, which is a different race."""
    words = [f"{solution.start.x},{solution.start.y}"]
    for step in solution.steps:
        point = f"{step.position.x},{step.position.y}"
        if step.event == "crash":
            aimed = "" if step.target is None else f" at {step.target.x},{step.target.y}"
            point += f"(crash{aimed})"
        elif step.event == "miss":
            point += "(missed)"
        words.append(point)
    return " ".join(words)


def run_window(args: argparse.Namespace | None) -> int:
    """Open the window: the main menu, or (``play``) straight into a race."""
    from racetrack.base.settings import load_settings, parse_players

    play = None
    if args is not None:
        try:
            players = parse_players(args.players)
        except ValueError as exc:
            raise RacetrackError(f"--players: {exc}") from None
        track_path = find_track(args.track)
        track = load_track(track_path)  # a bad track is reported here, before any window
        chosen_rules(args, track)  # and bad rules or a bad --set
        play = (track_path, args.rules, players, args.seed, dict(args.overrides))
    from racetrack.ui.app import App

    settings = load_settings()
    app = App()
    app.routes.menu()
    if play is not None:
        track_path, rules, players, seed, overrides = play
        try:
            app.routes.start_race(track_path, rules, players, seed,
                                  settings.animation_seconds, replace=False,
                                  overrides=overrides)
        except ValueError as exc:
            raise RacetrackError(str(exc)) from None
    app.run()
    return EXIT_OK


def run_editor(args: argparse.Namespace) -> int:
    """Open the track editor, on a file or on the drawing in progress."""
    from pathlib import Path

    from racetrack.board.track.maps import is_map_file
    from racetrack.editing.files import open_drawing

    path = Path(args.file) if args.file else None
    if path is not None and (path.exists() or is_map_file(path)):
        open_drawing(path)  # an unreadable file (or map) is reported here, in one line
    from racetrack.ui.app import App

    app = App()
    app.routes.menu()
    app.routes.editor(path)  # a path not there yet: a new track Ctrl+S saves there
    app.run()
    return EXIT_OK


def trees_game(args: argparse.Namespace, seed: int):
    """The game the --rules, --players and --seed options describe."""
    from racetrack.games.trees import TreesGame, load_tree_rules

    rules = load_tree_rules(args.rules)
    if args.players is None:  # the first default kind, then the last one for every other seat
        first, other = args.default_players[0], args.default_players[-1]
        kinds = [first] + [other] * (rules.players - 1)
    else:
        kinds = [word.strip().lower() for word in args.players.split(",") if word.strip()]
    try:
        return TreesGame(rules, TreesGame.default_players(kinds), seed)
    except ValueError as exc:
        raise RacetrackError(f"--players: {exc}") from None


def run_trees_play(args: argparse.Namespace) -> int:
    """Play computer players to the end; print the result (or JSON) and optionally save."""
    import json

    from racetrack.games.playout import play_out, trees_players
    from racetrack.games.trees.record import result_data, save_game

    game = trees_game(args, args.seed if args.seed is not None else 0)
    if any(p.is_human for p in game.players):
        raise RacetrackError("--players: trees-play needs computer players only (greedy)")
    players = trees_players(game)
    state = play_out(game.start(), players)
    if args.save:
        save_game(state, args.save)
    result = result_data(state)
    if args.json:
        say(json.dumps({**result, "rules": game.rules.name, "seed": game.seed,
                          "moves": len(state.history),
                          "tracks": [len(state.track_ids(p)) for p in range(len(players))]}))
        return EXIT_OK
    say(f"Graph Trees, {game.rules.name} rules, seed {game.seed}: {result['reason']} after "
          f"{len(state.history)} moves")
    for place, name in enumerate(result["ranking"], start=1):
        index = [p.name for p in game.players].index(name)
        say(f"{place}. {name}: territory {result['scores'][index]}")
    say(f"Winner: {result['winner'] or 'nobody (a draw)'}")
    return EXIT_OK


def run_trees_replay(args: argparse.Namespace) -> int:
    """Check a saved game (--verify) or watch it in the window."""
    from racetrack.games.trees.record import load_game

    saved = load_game(args.file)
    if args.verify:
        state = saved.verify()
        verdict = "result matches" if state.is_over else "game unfinished"
        say(f"{args.file}: ok: {len(saved.moves)} moves re-simulated, {verdict}")
        return EXIT_OK
    states = list(saved.states())
    return _window_over_menu(lambda app: app.routes.watch(saved, states))


def _window_over_menu(show) -> int:
    """Open the window with the main menu, and ``show(app)`` a scene over it."""
    from racetrack.ui.app import App

    app = App()
    app.routes.menu()
    show(app)
    app.run()
    return EXIT_OK


def run_trees_window(args: argparse.Namespace) -> int:
    """Open the window straight into a game of Graph Trees."""
    import random

    game = trees_game(args, args.seed if args.seed is not None else random.randrange(10**6))
    return _window_over_menu(lambda app: app.routes.trees(game, replace=False))
