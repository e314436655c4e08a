"""The screenshots of the README and docs/, drawn by the real scenes at 800 x 600, 1280 x 800 and
1920 x 1080: the menu, the New race screen, races showing every kind of candidate point (a
finish under Baker's advanced rules; safe, finishing, special, wall and refused points at once
under those rules with power braking and launches; a crash hover and a collision under Baker's
rules, leaving the track under Nystrom's), How to play, the tutorial (opened from the menu's
button and played by clicks as a first-time player would: its welcome, its second step, and turn
6), the results and their replay, a game of Graph Trees, its menu and a saved game played back,
the shop, a championship's standings, and the track editor (its road tool, its problem marks,
its question before discarding, its list of templates, and a picture of a track imported).

    python tools/screenshots.py [OUT_FOLDER] [--size WxH] [--only NAME,...]
                                   (default: build/screenshots, every size and screen)

Every picture is drawn into OUT_FOLDER (by default ``build/``, which git ignores); those that
the README and the pages in docs/ link are then copied into docs/screenshots, and any there
that no page links any more are removed, so the repository keeps only pictures a reader sees.

Runs without a display (SDL's dummy video driver) and saves PNGs with pygame.image.save,
reduced to 256 colours by ImageMagick's ``convert`` where it is installed (the paper has few
colours, so they stay sharp and small).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("RACETRACK_HOME", tempfile.mkdtemp(prefix="racetrack-shots-"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from racetrack.base.settings import PlayerChoice  # noqa: E402
from racetrack.board.geometry import Vec  # noqa: E402
from racetrack.board.track import find_track, load_track  # noqa: E402
from racetrack.games.outlook import Look  # noqa: E402
from racetrack.games.trees import TreesGame, load_tree_rules  # noqa: E402
from racetrack.games.trees.ai import GreedyPlayer  # noqa: E402
from racetrack.search.drivers import make_driver  # noqa: E402
from racetrack.ui import theme  # noqa: E402
from racetrack.ui.app import App  # noqa: E402
from racetrack.ui.scenes.help import HelpScene  # noqa: E402
from racetrack.ui.scenes.menu import MenuScene  # noqa: E402
from racetrack.ui.scenes.setup import SetupScene  # noqa: E402

SIZES = ((800, 600), (1280, 800), (1920, 1080))
#: The rules of the race that shows every kind of candidate point the rules allow at once.
EVERY_KIND = Path(__file__).resolve().parent / "rules" / "every-kind.yaml"


def frames(app: App, count: int, dt: float = 1 / 30) -> None:
    for _ in range(count):
        app.step(dt)


def save(app: App, out: Path, name: str) -> None:
    width, height = app.size
    path = out / f"{name}-{width}x{height}.png"
    app.save_screenshot(path)
    if shutil.which("convert"):
        subprocess.run(["convert", str(path), "-colors", "256", f"PNG8:{path}"], check=False)


def race_at(app: App, track: str, rules: str, players, seed: int, moves: int):
    """A race with ``moves`` moves played (the human cars by an expert coach), on the human
    car's turn, the start's announcement over."""
    app.routes.menu()
    scene = app.routes.start_race(find_track(track), rules, players, seed=seed,
                                  animation_seconds=0.0)
    scene.preparing.result()
    scene._start_following()
    coach = make_driver("expert", 9)
    while len(scene.state.history) < moves or not scene.human_turn:
        if scene.human_turn:
            scene.play(coach.choose(scene.state))
        if scene.thinking is not None:
            scene.thinking.result(timeout=60)
        frames(app, 1, 0.1)
    return scene


def pose(app: App, scene, places: dict[int, tuple[Vec, Vec]], hover: Look | None,
         damage: int = 0, progress: int | None = None) -> None:
    """Put cars where the picture needs them, work out the outlooks and hover one."""
    for index, (point, velocity) in places.items():
        scene.state.place(index, point, velocity, progress=progress,
                          damage=damage if index == scene.state.current_car else None)
        # A trail that leads in at that speed, as if the car had driven there.
        scene.state.trails[index] = [point - Vec(velocity.x * k, velocity.y * k)
                                     for k in (3, 2, 1, 0)]
    scene.toasts.clear()
    scene.camera.scale = min(scene.sheet.max_scale, max(scene.camera.scale,
                                                        scene.camera.height / 17))
    frames(app, 1)
    scene.finish_outlooks()
    car = scene.state.cars[scene.state.current_car]
    scene.camera.follow(car.position.x + car.velocity.x * 0.6,
                        car.position.y + car.velocity.y * 0.6)
    scene.camera.followed = False
    frames(app, 2)
    if hover is not None:
        found = [o for o in scene.current_outlooks() if o.look is hover]
        # The telling one: a crash that puts the car out, the finish farthest past the line.
        chosen = max(found, key=lambda o: (o.out, o.past or 0.0), default=None)
        if chosen is not None:
            scene.hover = chosen.target
            scene.mouse = tuple(round(v) for v in scene.camera.to_screen(*chosen.target))
    frames(app, 1)


def races(app: App, out: Path) -> None:
    three = (PlayerChoice("Ann", "red", "human"), PlayerChoice("Bob", "blue", "medium"),
             PlayerChoice("Cy", "green", "hard"))
    # The last straight under Baker's advanced rules: safe, special (good brakes, turbo),
    # finishing and into-the-wall points, and one taken by another car.
    scene = race_at(app, "oval", "baker-advanced", three, seed=5, moves=12)
    pose(app, scene, {0: (Vec(16, 21), Vec(4, 0)), 1: (Vec(20, 22), Vec(3, 0)),
                      2: (Vec(13, 23), Vec(3, 0))}, Look.FINISH,
         progress=scene.race.course.goal - 1)
    save(app, out, "race-finish")
    # Every kind of point these rules allow at once (see tools/rules/every-kind.yaml): safe,
    # finishing, special (power braking, good brakes, turbo), into the wall, and one refused
    # because a car stands there, hovered for its reason.
    scene = race_at(app, "oval", str(EVERY_KIND), three, seed=5, moves=12)
    ann = scene.state.cars[0]
    scene.state.set_car(0, replace(ann, kit=replace(ann.kit, brakes=2, turbo=2)))
    pose(app, scene, {0: (Vec(16, 21), Vec(4, 0)), 1: (Vec(20, 22), Vec(3, 0)),
                      2: (Vec(13, 23), Vec(3, 0))}, Look.ILLEGAL,
         progress=scene.race.course.goal - 1)
    save(app, out, "race-kinds")
    # Baker's rules at speed 6 into the bend: every wall point puts the car out.
    scene = race_at(app, "oval", "baker", three, seed=5, moves=12)
    pose(app, scene, {0: (Vec(30, 22), Vec(6, 0))}, Look.WALL, damage=1)
    save(app, out, "race-crash")
    # No clean point left: a collision is allowed (and costs both cars).
    pose(app, scene, {1: (Vec(35, 22), Vec(0, 0)), 2: (Vec(36, 21), Vec(0, 0)),
                      0: (Vec(30, 22), Vec(6, 0))}, Look.COLLIDE, damage=1)
    save(app, out, "race-collide")
    # Nystrom's rules: the move must change, and a car may leave the track and come back.
    scene = race_at(app, "oval", "nystrom", three, seed=5, moves=12)
    pose(app, scene, {0: (Vec(30, 22), Vec(6, 0))}, Look.LEAVE)
    save(app, out, "race-leave")


def results(app: App, out: Path) -> None:
    players = (PlayerChoice("Ann", "red", "expert"), PlayerChoice("Bob", "blue", "hard"),
               PlayerChoice("Cy", "green", "medium"), PlayerChoice("Di", "orange", "easy"))
    app.routes.menu()
    scene = app.routes.start_race(find_track("hairpins"), "gardner", players, seed=4,
                                  animation_seconds=0.0)
    scene.preparing.result()
    scene._start_following()
    while app.scenes[-1] is scene:
        if scene.thinking is not None:
            scene.thinking.result(timeout=60)
        frames(app, 1, 0.2)
    app.scenes[-1].saving.wait(60)  # the replay is written behind the results
    frames(app, 3)
    save(app, out, "results")


def trees(app: App, out: Path) -> None:
    """Graph Trees: Red (played here by a greedy coach) against the computer, nine turns in,
    with Red's green and orange dots showing and the reason for one orange dot."""
    app.routes.menu()
    game = TreesGame(load_tree_rules("levi"), TreesGame.default_players(["human", "greedy"]),
                     seed=7)
    scene = app.routes.trees(game)
    coach = GreedyPlayer(11)
    while len(scene.state.history) < 18:
        while not scene.human_turn:
            if scene.thinking is not None:
                scene.thinking.result(timeout=30)
            frames(app, 1, 0.1)
        scene.play(coach.choose(scene.state))
    while not scene.human_turn:
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        frames(app, 1, 0.1)
    frames(app, 1)
    refused = next((c for c in scene.candidates() if not c.legal), None)
    if refused is not None:
        scene.hover = refused.target
        scene.mouse = tuple(round(v) for v in scene.camera.to_screen(*refused.target))
    app.draw()
    save(app, out, "trees")


def menus(app: App, out: Path) -> None:
    app.routes.menu()
    frames(app, 2)
    save(app, out, "menu")
    app.push(SetupScene(app))
    frames(app, 3)
    save(app, out, "setup")


def help_screen(app: App, out: Path) -> None:
    app.routes.menu()
    app.push(HelpScene(app, "baker", load_track(find_track("oval"))))
    frames(app, 3)
    save(app, out, "help")


def move_rule(app: App, out: Path) -> None:
    """The README's picture of the move rule: How to play's drawing under Gardner's rules (a
    car's last move, the ring where the same move leads, the nine points round it) and every
    mark a point can carry, on a card of its own (drawn once, at the first size)."""
    if app.size != SIZES[0] and (out / "move-rule.png").exists():
        return
    scene = HelpScene(app, "gardner")
    card = pygame.Surface((560, 620))
    card.fill(theme.palette().paper)
    scene.draw_movement(card, pygame.Rect(10, 10, 540, 600))
    path = out / "move-rule.png"
    pygame.image.save(card, str(path))
    if shutil.which("convert"):
        subprocess.run(["convert", str(path), "-colors", "256", f"PNG8:{path}"], check=False)


def click(app: App, pos: tuple[float, float], count: int = 2) -> None:
    """A player's click (the mouse moved there, pressed and let go), then frames."""
    pos = (round(pos[0]), round(pos[1]))
    for kind, extra in ((pygame.MOUSEMOTION, {"rel": (0, 0), "buttons": (0, 0, 0)}),
                        (pygame.MOUSEBUTTONDOWN, {"button": 1}),
                        (pygame.MOUSEBUTTONUP, {"button": 1})):
        pygame.event.post(pygame.event.Event(kind, pos=pos, **extra))
    frames(app, count)


def key(app: App, name: int, count: int = 3) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=name, mod=0, unicode=""))
    frames(app, count)


def tutorial(app: App, out: Path) -> None:
    """The tutorial as a first-time player meets it: the menu's Tutorial race button clicked,
    the coach's first card, its second after Enter, and the race at turn 6, each move clicked
    where the player sees its point once the camera has come to rest."""
    from racetrack.ui.scenes.tutorial import TutorialScene

    menu = app.routes.menu()
    frames(app, 2)
    tutorial_button = next(w for w in menu.form.widgets
                           if getattr(w, "text", "") == "Tutorial race")
    click(app, tutorial_button.rect.center)
    scene = app.scenes[-1]
    assert isinstance(scene, TutorialScene), "the menu's Tutorial race did not open it"
    scene.preparing.result()
    frames(app, 3)
    save(app, out, "tutorial-welcome")  # the coach's first card, with its Next button
    key(app, pygame.K_RETURN)
    save(app, out, "tutorial")
    coach = make_driver("hard", 1)
    while scene.state.round < 6 and not scene.state.is_over:
        if scene.coaching is not None and scene.coaching.next \
                and scene.next_button is not None:  # look round: Next
            click(app, scene.next_button.rect.center)
        elif scene.human_turn and not scene.camera_moving:
            target = coach.choose(scene.state.clone()).target
            click(app, scene.camera.to_screen(*target))
        if scene.thinking is not None:
            scene.thinking.result(timeout=60)
        frames(app, 1, 0.1)
    while not (scene.human_turn and not scene.camera_moving):
        frames(app, 1, 0.1)
    scene.finish_outlooks()
    frames(app, 2)
    save(app, out, "tutorial-turn6")


def replay(app: App, out: Path) -> None:
    """The race viewer half way through the last finished race (the results' race)."""
    from racetrack.games import archive

    entry = archive.saved_races()[0]
    app.routes.menu()
    viewer = app.routes.watch(entry.recording)
    frames(app, 2)
    viewer.go(viewer.last // 2)
    frames(app, 2)
    save(app, out, "replay")


def trees_screens(app: App, out: Path) -> None:
    """The Graph Trees menu with a saved game and one in progress, and the saved game
    played back half way."""
    from racetrack.games.trees.ai import make_player
    from racetrack.games.trees.record import GAMES

    game = TreesGame(load_tree_rules("levi"), TreesGame.default_players(["greedy", "greedy"]),
                     seed=3)
    state = game.start()
    players = [make_player("greedy", 1), make_player("greedy", 2)]
    while not state.is_over:
        state.apply(players[state.current_player].choose(state))
        if len(state.history) == 12:
            GAMES.record_progress(state.clone(), GAMES.new_progress_path(state))
    GAMES.save_finished(state)
    app.routes.menu()
    menu = app.routes.trees_menu()
    menu.listing.wait(30)
    frames(app, 3)
    save(app, out, "trees-menu")
    viewer = app.routes.watch(GAMES.saved()[0].recording)
    frames(app, 2)
    viewer.go(viewer.last // 2)
    frames(app, 2)
    save(app, out, "trees-replay")


def shop_and_standings(app: App, out: Path) -> None:
    """James Bond mode's shop before a race, and a championship's standings after a race."""
    from racetrack.games.championship import Championship, Entrant, run_headless
    from racetrack.ui.scenes.championship import StandingsScene

    players = (PlayerChoice("Ann", "red", "human"), PlayerChoice("Bob", "blue", "hard"))
    app.routes.menu()
    shop = app.routes.start_race(find_track("hazards"), "baker-bond", players, seed=3)
    for item in ("damage", "damage", "missiles", "turbo", "brakes"):
        shop.change(item, True)
    frames(app, 2)
    save(app, out, "shop")
    entrants = [Entrant("Ann", "red", "expert"), Entrant("Bob", "blue", "hard"),
                Entrant("Cy", "green", "medium"), Entrant("Di", "orange", "easy")]
    series = Championship("baker-bond", ["oval"], entrants, seed=2)
    run_headless(series)
    series.tracks.append("hairpins")  # one race run, the next to come
    app.routes.menu()
    app.push(StandingsScene(app, series))
    frames(app, 2)
    save(app, out, "standings")


SCREENS = {"menus": menus, "help": help_screen, "move-rule": move_rule, "tutorial": tutorial,
           "races": races, "results": results, "replay": replay, "trees": trees,
           "trees-screens": trees_screens,
           "shop": shop_and_standings, "editor": lambda app, out: editor(app, out)}


def window_size(text: str) -> tuple[int, int]:
    """``--size``'s WxH, e.g. 800x600."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size like 800x600: {text!r}") from None
    return width, height


def main(out: Path, sizes=SIZES, only: set[str] | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for size in sizes:
        # A fresh player's folders for each size: no interrupted races from the last one.
        os.environ["RACETRACK_HOME"] = tempfile.mkdtemp(prefix="racetrack-shots-")
        app = App(size)
        app.push(MenuScene(app))
        for name, make in SCREENS.items():
            if only is None or name in only:
                make(app, out)
        app.gui.kill_all()
    print(f"screenshots in {out}")


#: The pages whose pictures are kept in the repository.
ROOT = Path(__file__).resolve().parent.parent
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
SHOWN = ROOT / "docs" / "screenshots"


def linked() -> set[str]:
    """The file names of the screenshots some page links."""
    return {match for page in PAGES
            for match in re.findall(r"screenshots/([\w.-]+\.png)", page.read_text())}


def publish(out: Path) -> None:
    """Copy the linked pictures drawn into ``out`` to docs/screenshots; remove those there
    that no page links."""
    wanted = linked()
    SHOWN.mkdir(parents=True, exist_ok=True)
    for name in sorted(wanted):
        if (out / name).exists() and out.resolve() != SHOWN.resolve():
            shutil.copyfile(out / name, SHOWN / name)
    for path in SHOWN.glob("*.png"):
        if path.name not in wanted:
            path.unlink()
    print(f"{len(wanted)} linked pictures in {SHOWN}")


def editor(app: App, out: Path) -> None:
    """The editor: a road circuit built from six clicks, with a short cut being drawn (its
    band follows the pointer); then a drawing with problems marked where they are."""
    from racetrack.editing import Leave, Tool
    from racetrack.ui.render import hud
    from racetrack.ui.scenes.editor import EditorScene

    def pointer(scene: EditorScene, point: tuple[float, float]) -> None:
        scene.mouse = tuple(round(v) for v in scene.camera.to_screen(*point))

    app.routes.menu()
    scene = EditorScene(app)
    app.push(scene)
    state = scene.state
    state.set_tool(Tool.ROAD)
    for point in [(0, 0), (22, -2), (34, 6), (30, 20), (12, 24), (-2, 14), (0, 0)]:
        state.press(point)
        state.release(point)
    state.set_tool(Tool.ROAD)
    for point in [(16, -4), (14, 8)]:
        state.press(point)
        state.release(point)
    scene.fit()
    pointer(scene, (17, 26))
    state.update(1.0)
    if state.checks.analyst.job is not None:
        state.checks.analyst.job.result(timeout=60)
    frames(app, 2)
    save(app, out, "editor-road")

    state.new_from(None)
    state.set_tool(Tool.OUTLINE)
    for point in [(0, 0), (36, 0), (36, 22), (22, 22), (28, -6), (14, -6), (18, 22),
                  (0, 22), (0, 0)]:
        state.press(point)
        state.release(point)
    for point in [(6, 6), (12, 6), (12, 16), (6, 16), (6, 6)]:
        state.press(point)
        state.release(point)
    state.set_tool(Tool.ZONE)
    for point in [(39, 8), (44, 8), (44, 13), (39, 13), (39, 8)]:
        state.press(point)
        state.release(point)
    scene.fit()
    crossing = [m.at for m in state.marks() if "crosses" in m.message][-1]
    pointer(scene, crossing)
    frames(app, 2)
    save(app, out, "editor-marks")

    # Unsaved work: New asks first, and then offers the templates in a list.
    from racetrack.editing import Choice

    pointer(scene, (-100, -100))
    state.request(Leave.NEW)
    frames(app, 3)
    save(app, out, "editor-question")
    state.answer(Choice.DISCARD)
    frames(app, 3)
    save(app, out, "editor-templates")
    state.new_from(None)
    frames(app, 1)

    # A picture of a track drawn in ink, opened in the editor: traced, its red stroke the
    # start line, the solver's par worked out.
    from racetrack.board.track.maps import bundled_map_paths

    picture = next(p for p in bundled_map_paths() if p.name == "ink-kidney.png")
    scene.toasts.clear()
    state.notes.clear()
    state.request(Leave.OPEN)
    state.open(picture)
    scene.toasts += [hud.Toast(note) for note in state.notes]
    state.notes.clear()
    scene.fit()
    pointer(scene, (-100, -100))
    state.update(1.0)
    if state.checks.analyst.job is not None:
        state.checks.analyst.job.result(timeout=120)
    state.update(1.0)
    frames(app, 2)
    save(app, out, "editor-import")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path, metavar="OUT_FOLDER",
                        default=ROOT / "build" / "screenshots",
                        help="where every picture is drawn (default: build/screenshots)")
    parser.add_argument("--size", type=window_size, metavar="WxH",
                        help="one window size, e.g. 800x600 (default: every size)")
    parser.add_argument("--only", type=lambda text: set(text.split(",")), metavar="NAME,...",
                        help="only these screens, by name")
    args = parser.parse_args()
    main(args.out, (args.size,) if args.size else SIZES, args.only)
    publish(args.out)
