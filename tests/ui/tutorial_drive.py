"""A first-time player's tutorial, driven in a real window (run under xvfb-run by
``test_tutorial_window.py``): the menu's Tutorial race button clicked with xdotool, each step of
the coach done as it asks (Next with Enter, the dots clicked, the wheel turned and F pressed),
and at every frame the player's car, and on the player's turn every point it may go to, checked
to be on the window's paper and clear of the coach's card.

    python -m tests.ui.tutorial_drive WIDTHxHEIGHT

prints one JSON line: the frames and points checked, the steps reached, and every point found
off the paper.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pygame

from racetrack.ai import make_driver
from racetrack.ui.app import App
from racetrack.ui.render import hud
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.tutorial import STEPS, TutorialScene

#: How long the player waits for the window to do what was asked, in seconds.
PATIENCE = 60


def xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True, capture_output=True, timeout=30)


def game_window() -> str | None:
    """The game's X window once it shows, named (by its class: SDL writes the title as
    UTF-8, which xdotool's name search does not match); ``None`` until then."""
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "racetrack"],
                           capture_output=True, text=True, timeout=30).stdout.split()
    for window in found:
        name = subprocess.run(["xdotool", "getwindowname", window], capture_output=True,
                              text=True, timeout=30).stdout
        if name.startswith("Racetrack"):
            return window
    return None


class Player:
    """Drives the window with real X input, running its frames meanwhile, and checks what it
    shows."""

    def __init__(self, size: tuple[int, int]):
        self.app = App(size)
        self.app.push(MenuScene(self.app))
        self.checked_frames = self.checked_points = 0
        self.off: list[str] = []
        give_up = time.monotonic() + PATIENCE
        while (window := game_window()) is None:
            if time.monotonic() > give_up:
                raise RuntimeError("no game window")
            self.frames(5)
        self.window = window
        xdotool("windowfocus", "--sync", self.window)

    def frames(self, count: int = 1) -> None:
        for _ in range(count):
            self.app.step()
            self.app.clock.tick(60)
            self.check()

    def until(self, done, what: str) -> None:
        """Frames until ``done()``; an error naming ``what`` if it never comes."""
        give_up = time.monotonic() + PATIENCE
        while not done():
            if time.monotonic() > give_up:
                raise RuntimeError(f"the window never {what}")
            self.frames()

    def click(self, point: tuple[float, float], button: str = "1") -> None:
        x, y = round(point[0]), round(point[1])
        xdotool("mousemove", "--window", self.window, str(x), str(y), "click", button)

    def key(self, name: str) -> None:
        xdotool("key", "--window", self.window, name)

    @property
    def scene(self):
        return self.app.scenes[-1]

    def check(self) -> None:
        """The player's car, and on its turn every point it may go to, well on the paper
        (inside the window, below the bar, three quarters of a square from its edges, so a
        mark is never cut) and clear of the coach's card."""
        scene = self.scene
        if not isinstance(scene, TutorialScene) or scene.intro:
            return
        width, height = self.app.size
        margin = round(scene.camera.scale * 0.75)
        paper = pygame.Rect(0, hud.bar_height(), width, height - hud.bar_height())
        paper.inflate_ip(-2 * margin, -2 * margin)
        card = scene.card()[0] if scene.coaching is not None else pygame.Rect(0, 0, 0, 0)
        card = card.inflate(2 * margin, 2 * margin)
        points = [("car", scene.state.cars[0].position)]
        if scene.human_turn:
            points += [("point", c.target) for c in scene.state.candidates()]
        self.checked_frames += 1
        for what, point in points:
            x, y = scene.camera.to_screen(*point)
            self.checked_points += 1
            if not paper.collidepoint(x, y) or card.collidepoint(x, y):
                self.off.append(f"step {scene.step + 1}, turn {scene.state.round}: the {what} "
                                f"{tuple(point)} drawn at ({x:.0f}, {y:.0f})")

    def open_tutorial(self) -> TutorialScene:
        """From the menu, as a first-time player: click Tutorial race."""
        menu = self.scene
        tutorial = next(w for w in menu.form.widgets if getattr(w, "text", "") ==
                        "Tutorial race")
        self.click(tutorial.rect.center)
        self.until(lambda: isinstance(self.scene, TutorialScene), "opened the tutorial")
        return self.scene

    def follow_the_coach(self, scene: TutorialScene) -> int:
        """Do each step as the coach asks, to the last; returns the steps seen."""
        coach = make_driver("hard", 1)
        seen = {scene.step}
        while scene.step < len(STEPS) - 1 and not scene.state.is_over:
            step = scene.coaching
            number = scene.step
            if step.done is None:  # Next, with Enter
                self.key("Return")
                self.until(lambda n=number: scene.step > n, "took Enter for Next")
            elif step.next:  # look round: the wheel, then F
                self.click(scene.camera.to_screen(*scene.state.cars[0].position), "5")
                self.until(lambda: scene.zoomed, "zoomed with the wheel")
                self.key("f")
                self.until(lambda n=number: scene.step > n, "followed the car again on F")
            else:
                self.until(lambda: scene.human_turn or scene.state.is_over,
                           "came to the player's turn")
                if scene.state.is_over:
                    break
                moves = len(scene.state.history)
                scene.finish_outlooks()
                target = coach.choose(scene.state.clone()).target
                # Where the point is once the camera has come to rest, as a player waits.
                self.until(lambda: not scene.camera_moving, "let the camera settle")
                self.click(scene.camera.to_screen(*target))
                self.until(lambda m=moves: len(scene.state.history) > m, "took the click")
                assert scene.state.history[moves][1].target == target, "clicked another point"
                self.until(lambda: scene.glide is None, "let the car glide")
            seen.add(scene.step)
        return len(seen)


def main(size: str) -> None:
    os.environ.pop("SDL_VIDEODRIVER", None)
    width, height = (int(v) for v in size.split("x"))
    player = Player((width, height))
    scene = player.open_tutorial()
    steps = player.follow_the_coach(scene)
    print(json.dumps({"size": size, "frames": player.checked_frames,
                      "points": player.checked_points, "steps": steps,
                      "last step": scene.step + 1, "off": player.off[:20]}), flush=True)
    player.app.gui.kill_all()
    pygame.quit()


if __name__ == "__main__":
    main(sys.argv[1])
