"""The window, the clock and the scene stack: poll, hand intents to the top scene, update, draw.

Each scene has ``handle(intent)``, ``update(dt)`` and ``draw(surface)``; ``draw`` never changes
state. Scenes move between each other through the app (``push``, ``pop``, ``replace``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Protocol

import pygame

from racetrack.ui import input as intents_
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key, Quit, Resize

log = logging.getLogger(__name__)

FPS = 60
DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (640, 480)


class Scene(Protocol):
    def handle(self, intent: Intent) -> None: ...

    def update(self, dt: float) -> None: ...

    def draw(self, surface: pygame.Surface) -> None: ...


class App:
    """Owns the window and the stack of scenes; ``step`` runs one frame."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, title: str = "Racetrack"):
        # Only what the game uses: no sound, so no complaints from machines without a card.
        pygame.display.init()
        pygame.font.init()
        theme.font.cache_clear()  # fonts from an earlier pygame session are dead
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(title)
        pygame.key.set_repeat(350, 40)
        self.clock = pygame.time.Clock()
        self.scenes: list[Scene] = []
        self.running = True
        self.frame_times: list[float] = []
        self.screenshot_dir = Path(os.environ.get("RACETRACK_SCREENSHOTS", "."))

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    def push(self, scene: Scene) -> None:
        self.scenes.append(scene)

    def pop(self) -> None:
        if self.scenes:
            self.scenes.pop()
        if not self.scenes:
            self.running = False
        else:
            self._shown()

    def replace(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes.pop()
        self.scenes.append(scene)

    def _shown(self) -> None:
        """Tell the scene now on top that it is showing again (it may refresh itself)."""
        on_show = getattr(self.scenes[-1], "on_show", None)
        if on_show:
            on_show()

    def quit(self) -> None:
        self.running = False
        self.finish()

    def may_close(self) -> bool:
        """Whether the window may close now. A scene with unsaved work (the editor) may ask
        first: its ``close_requested()`` answers False and it quits the app itself once the
        player has chosen to save or discard."""
        ask = getattr(self.scenes[-1], "close_requested", None) if self.scenes else None
        return ask is None or bool(ask())

    def finish(self) -> None:
        """The window is closing: let every scene finish what must reach the disk (a race's
        autosave in progress)."""
        for scene in self.scenes:
            flush = getattr(scene, "flush", None)
            if flush:
                flush()

    def step(self, dt: float | None = None) -> None:
        """One frame: events to intents to the top scene, update, draw, flip."""
        start = pygame.time.get_ticks()
        for intent in intents_.intents(pygame.event.get()):
            self.dispatch(intent)
        if not self.running or not self.scenes:
            return
        elapsed = dt if dt is not None else self.clock.get_time() / 1000.0
        self.scenes[-1].update(min(elapsed, 0.1))
        self.draw()
        pygame.display.flip()
        self.frame_times.append((pygame.time.get_ticks() - start) / 1000.0)
        del self.frame_times[:-240]

    def dispatch(self, intent: Intent) -> None:
        if isinstance(intent, Quit):
            if not self.may_close():
                return
            self.running = False
            self.finish()
            return
        if isinstance(intent, Resize):
            width, height = max(intent.size[0], MIN_SIZE[0]), max(intent.size[1], MIN_SIZE[1])
            if (width, height) != self.screen.get_size():
                self.screen = pygame.display.set_mode((width, height), pygame.RESIZABLE)
        if isinstance(intent, Key) and intent.name == "f12":
            self.save_screenshot()
            return
        if self.scenes:
            self.scenes[-1].handle(intent)

    def draw(self) -> None:
        # Scenes below a see-through one (a pause menu) are drawn first.
        first = len(self.scenes) - 1
        while first > 0 and getattr(self.scenes[first], "overlay", False):
            first -= 1
        for scene in self.scenes[first:]:
            scene.draw(self.screen)

    def save_screenshot(self, path: Path | None = None) -> Path:
        if path is None:
            self.screenshot_dir.mkdir(parents=True, exist_ok=True)
            number = len(list(self.screenshot_dir.glob("racetrack-*.png"))) + 1
            path = self.screenshot_dir / f"racetrack-{number:03d}.png"
        pygame.image.save(self.screen, str(path))
        log.info("screenshot saved to %s", path)
        return path

    def run(self) -> None:
        while self.running and self.scenes:
            self.step()
            self.clock.tick(FPS)
        pygame.quit()
