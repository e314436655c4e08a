"""README screenshots: the menu, the race setup, a race in progress, a game of Graph Trees and
the track editor (its road tool, and its problem marks), drawn by the real scenes.

    python tools/screenshots.py [OUT_FOLDER]      (default: docs/screenshots)

Runs without a display (SDL's dummy video driver) and saves PNGs with pygame.image.save.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("RACETRACK_HOME", tempfile.mkdtemp(prefix="racetrack-shots-"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from racetrack.settings import PlayerChoice  # noqa: E402
from racetrack.track import find_track  # noqa: E402
from racetrack.trees import TreesGame, load_tree_rules  # noqa: E402
from racetrack.trees.ai import GreedyPlayer  # noqa: E402
from racetrack.ui.app import App  # noqa: E402
from racetrack.ui.launch import start_race  # noqa: E402
from racetrack.ui.scenes.menu import MenuScene  # noqa: E402
from racetrack.ui.scenes.setup import SetupScene  # noqa: E402
from racetrack.ui.scenes.trees import start_trees  # noqa: E402

SIZE = (1280, 800)


def frames(app: App, count: int, dt: float = 1 / 30) -> None:
    for _ in range(count):
        app.step(dt)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    app = App(SIZE)
    app.push(MenuScene(app))
    frames(app, 2)
    app.save_screenshot(out / "menu.png")
    app.push(SetupScene(app))
    frames(app, 2)
    app.save_screenshot(out / "setup.png")
    players = (PlayerChoice("Ann", "red", "expert"), PlayerChoice("Bob", "blue", "hard"),
               PlayerChoice("Cy", "green", "medium"), PlayerChoice("Di", "orange", "easy"))
    scene = start_race(app, find_track("hairpins"), "gardner", players, seed=4,
                       animation_seconds=0.05)
    scene.preparing.result()
    while len(scene.state.history) < 40:
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        frames(app, 1, 0.1)
    scene.camera.fit(scene.race.track.bounds)
    scene.camera.followed = False
    frames(app, 2)
    app.save_screenshot(out / "race.png")
    trees(app, out)
    editor(app, out)
    print(f"screenshots in {out}")


def trees(app: App, out: Path) -> None:
    """Graph Trees: Red (played here by a greedy coach) against the computer, nine turns in,
    with Red's green and orange dots showing and the reason for one orange dot."""
    game = TreesGame(load_tree_rules("levi"), TreesGame.default_players(["human", "greedy"]),
                     seed=7)
    scene = start_trees(app, game)
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
    app.save_screenshot(out / "trees.png")


def editor(app: App, out: Path) -> None:
    """The editor: a road circuit built from six clicks, with a short cut being drawn (its
    band follows the pointer); then a drawing with problems marked where they are."""
    from racetrack.editing import Tool
    from racetrack.ui.scenes.editor import EditorScene

    def pointer(scene: EditorScene, point: tuple[float, float]) -> None:
        scene.mouse = tuple(round(v) for v in scene.camera.to_screen(*point))

    app.scenes.clear()
    app.push(MenuScene(app))
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
    if state.analyst.job is not None:
        state.analyst.job.result(timeout=60)
    frames(app, 2)
    app.save_screenshot(out / "editor-road.png")

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
    app.save_screenshot(out / "editor-marks.png")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/screenshots"))
