"""The window, the clock and the scene stack: poll, hand intents to the top scene, update, draw.

Each scene has ``handle(intent)``, ``update(dt)`` and ``draw(surface)``; ``draw`` never changes
state. Scenes move between each other through the app's ``routes`` (``ui/routes.py``, the one
module that knows them all), which ``push``, ``pop`` and ``replace`` them here.

The window draws only when something changes. While the top scene is ``animating`` (a car
gliding, a message fading), a text field has the keyboard, or for a moment after each input
(the widgets' hover looks and tooltips come on a timer of their own), it draws every frame;
otherwise it sleeps until the next input, until a job finished off the frame posts
``waking.WAKE`` (a computer driver's move, a list read, a file written, a message from a game
server), or until the time the top scene gives in ``wake_in`` (a clock counting down). A
scene without an ``animating`` property is drawn every frame, as all were once.

The window opens sized to the screen it is on (never larger than it), is resizable and can go
fullscreen (F11, or the setting); the player's size, UI scale, pencils and sound are read from
the settings here and applied everywhere at once (``apply_settings``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Protocol

import pygame

from racetrack.settings import UI_SCALES, Settings, load_settings, save_settings
from racetrack.ui import input as intents_
from racetrack.ui import theme, waking
from racetrack.ui.gui import Gui, Page
from racetrack.ui.input import Intent, Key, Quit, Resize
from racetrack.ui.routes import Routes
from racetrack.ui.saving import SettingsWriter
from racetrack.ui.sound import Sounds
from racetrack.ui.waking import WAKE

log = logging.getLogger(__name__)

FPS = 60
#: How long frames go on after an input (the widgets' hover looks, and their tooltips, which
#: show after half a second of hovering), in milliseconds.
SETTLE_MS = 1000
#: How often a sleeping window looks for inputs, in seconds (a job's wake comes at once).
LOOK_SECONDS = 0.03
DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (640, 480)
#: A window smaller than the screen by this much leaves room for the desktop's bars.
ROOM = (0.9, 0.86)


class Scene(Protocol):
    def handle(self, intent: Intent) -> None: ...

    def update(self, dt: float) -> None: ...

    def draw(self, surface: pygame.Surface) -> None: ...


def window_size(screen: tuple[int, int], wanted: tuple[int, int] | None,
                ) -> tuple[tuple[int, int], bool]:
    """The window's size on a screen of ``screen`` pixels, and whether to maximise it.

    The wanted size (the last one the player had) or the default is kept if it fits with room
    for the desktop's bars; else the window takes most of a large screen, or, on a small one
    (800 x 600), the whole of it, maximised so the desktop fits it inside its bars."""
    width, height = screen
    room = (int(width * ROOM[0]), int(height * ROOM[1]))
    want = wanted or DEFAULT_SIZE
    if want[0] <= room[0] and want[1] <= room[1]:
        return (max(want[0], MIN_SIZE[0]), max(want[1], MIN_SIZE[1])), False
    if room[0] >= 1024 and room[1] >= 700:
        ratio = min(room[0] / want[0], room[1] / want[1])
        return (round(want[0] * ratio), round(want[1] * ratio)), False
    return (width, height), True


def auto_scale(size: tuple[int, int]) -> float:
    """The UI scale for a window: 1 at 1280 x 800, growing more slowly than the window."""
    ratio = min(size[0] / DEFAULT_SIZE[0], size[1] / DEFAULT_SIZE[1])
    return round(max(0.85, min(2.0, ratio ** 0.6)), 2)


#: The window each screen is laid out to fit at a UI scale of 1 (800 x 600 at 85 %).
LAID_OUT_FOR = (940, 705)


def fitting_scale(size: tuple[int, int]) -> float:
    """The largest UI scale at which the screens fit a window (a larger one chosen is cut
    to it, rather than cut the words): 85 % at 800 x 600, 150 % at 1920 x 1080."""
    return round(max(0.5, min(size[0] / LAID_OUT_FOR[0], size[1] / LAID_OUT_FOR[1])), 2)


class App:
    """Owns the window and the stack of scenes; ``step`` runs one frame.

    ``size`` fixes the window's size (tests, screenshots); without it the window fits the
    screen and remembers its size in the settings."""

    def __init__(self, size: tuple[int, int] | None = None, title: str = "Racetrack",
                 settings: Settings | None = None):
        # The drivers and the table builder think on threads: a short switch interval lets the
        # frame take the interpreter back within a millisecond rather than five.
        sys.setswitchinterval(0.001)
        os.environ.setdefault("SDL_VIDEO_CENTERED", "1")
        # The window's class (pygame sets it to the script's name on import): "racetrack".
        os.environ["SDL_VIDEO_X11_WMCLASS"] = "racetrack"
        pygame.display.init()
        pygame.font.init()
        theme.clear_fonts()  # fonts from an earlier pygame session are dead
        self.settings = settings or load_settings()
        self.fixed = size is not None
        self.fullscreen = self.settings.fullscreen and not self.fixed
        maximise = False
        self.screen_at_start = self.screen_size()  # the screen its size is kept for
        if size is None:
            size, maximise = window_size(self.screen_at_start,
                                         self.settings.window_for(self.screen_at_start))
        self.windowed = size
        self.screen = self._open(maximise)
        self.title = title
        self._title_shown = ""  # the title is set with the first frame: the window is ready
        pygame.key.set_repeat(350, 40)
        self.clock = pygame.time.Clock()
        self._held: list[pygame.event.Event] = []  # the event that woke the window
        self._last_input = pygame.time.get_ticks()
        self._last_frame = pygame.time.get_ticks()
        self.frames_drawn = 0
        self.scenes: list[Scene] = []
        self.running = True
        self.frame_times: list[float] = []
        self.screenshot_dir = Path(os.environ.get("RACETRACK_SCREENSHOTS", "."))
        self.generation = 0  # grows whenever the widgets are made afresh (a new UI scale)
        theme.configure(self.ui_scale(), self.settings.colour_blind)
        self.gui = Gui(self.size, theme.LOOKS.scale)
        self.sound = Sounds(self.settings.volume, self.settings.muted)
        self.settings_writer = SettingsWriter()
        self.routes = Routes(self)  # the one place that knows the scenes

    # -- the window -----------------------------------------------------------------------

    @staticmethod
    def screen_size() -> tuple[int, int]:
        """The size of the screen the window opens on."""
        with contextlib.suppress(pygame.error, IndexError):
            sizes = pygame.display.get_desktop_sizes()
            if sizes and sizes[0][0] > 0:
                return sizes[0]
        return DEFAULT_SIZE

    def _open(self, maximise: bool = False) -> pygame.Surface:
        if self.fullscreen:
            screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            screen = pygame.display.set_mode(self.windowed, pygame.RESIZABLE)
        with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
            # Only to set the window's limits: the drawing stays pygame.display's.
            warnings.simplefilter("ignore", DeprecationWarning)
            window = pygame.Window.from_display_module()
            window.minimum_size = MIN_SIZE
            if maximise and not self.fullscreen:
                window.maximize()
        return screen

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    @property
    def layout_key(self) -> tuple:
        """What a scene's layout depends on: the window's size and the widgets' generation."""
        return (self.size, self.generation)

    def ui_scale(self) -> float:
        """The scale the widgets and words are drawn at: the chosen one, as far as the
        window fits it, or (auto) one that grows with the window."""
        fixed = UI_SCALES.get(self.settings.ui_scale)
        if fixed is None:
            return min(auto_scale(self.size), fitting_scale(self.size))
        return min(fixed, fitting_scale(self.size))

    def set_window_size(self, size: tuple[int, int] | None) -> None:
        """A window size chosen in the settings (None: fit the screen), kept inside the
        screen and for this screen only; applied now unless the window is fullscreen."""
        fitted, _ = window_size(self.screen_at_start, size)
        self.windowed = fitted
        self.remember_window(size)
        if not self.fullscreen and not self.fixed and fitted != self.size:
            self.screen = self._open()
            self._resized()

    def remember_window(self, size: tuple[int, int] | None) -> None:
        """Keep the window's size for the screen it is on (None: fit that screen)."""
        if not self.fixed:
            kept = self.settings.with_window(self.screen_at_start, size)
            self.remember(windows=kept.windows)

    def toggle_fullscreen(self) -> None:
        self.fullscreen = not self.fullscreen
        self.screen = self._open()
        self._resized()
        if not self.fixed:
            self.remember(fullscreen=self.fullscreen)

    def _resized(self) -> None:
        self.gui.resize(self.size)
        if abs(self.ui_scale() - theme.LOOKS.scale) > 0.02:
            self.restyle()

    def restyle(self) -> None:
        """Make the widgets afresh at the current UI scale (scenes lay themselves out again)."""
        theme.configure(self.ui_scale(), self.settings.colour_blind)
        self.gui.kill_all()
        self.gui = Gui(self.size, theme.LOOKS.scale)
        self.generation += 1

    def page(self, owner) -> Page:
        """The scene's page of widgets (made on first use, and again after ``restyle``)."""
        for page in self.gui.pages:
            if page.owner is owner:
                return page
        return Page(self, owner)

    def apply_settings(self, settings: Settings) -> None:
        """New settings from the Settings screen: keep them and apply them now."""
        old, self.settings = self.settings, settings
        self.sound.configure(settings.volume, settings.muted)
        if settings.fullscreen != self.fullscreen and not self.fixed:
            self.toggle_fullscreen()
        if (settings.ui_scale, settings.colour_blind) != (old.ui_scale, old.colour_blind):
            self.restyle()
        with contextlib.suppress(OSError):  # an unwritable folder costs only the memory
            save_settings(settings)

    def remember(self, **change) -> None:
        """Keep a window choice (the zoom, the size, fullscreen) in the settings file, written
        behind the frame; the file's other settings are kept as a screen last saved them."""
        self.settings = replace(self.settings, **change)
        self.settings_writer.change(**change)

    # -- the scene stack ------------------------------------------------------------------

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

    def reset(self, scene: Scene) -> None:
        """Leave every scene and start again from ``scene`` (back to the menu)."""
        self.scenes.clear()
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
        autosave in progress), and remember the window's size."""
        for scene in self.scenes:
            flush = getattr(scene, "flush", None)
            if flush:
                flush()
        if not self.fixed and not self.fullscreen \
                and self.settings.window_for(self.screen_at_start) != self.size:
            self.remember_window(self.size)
        self.settings_writer.wait()

    # -- a frame --------------------------------------------------------------------------

    def step(self, dt: float | None = None) -> None:
        """One frame: events to the widgets or, as intents, to the top scene; update, draw."""
        start = pygame.time.get_ticks()
        # Widgets post events of their own while handling one (a list picked, a dialog
        # confirmed): they are handled in the same frame.
        for _ in range(6):
            events, self._held = self._held + pygame.event.get(), []
            if not events:
                break
            if any(event.type != WAKE for event in events):
                self._last_input = pygame.time.get_ticks()
            for event in events:
                if self.gui.process(event):
                    continue
                for intent in intents_.intents([event]):
                    self.dispatch(intent)
                    self.gui.arrange(self.scenes)
                if not self.running:
                    return
        if not self.running or not self.scenes:
            return
        now = pygame.time.get_ticks()
        elapsed = dt if dt is not None else (now - self._last_frame) / 1000.0
        self._last_frame = now
        top = self.scenes[-1]
        top.update(min(elapsed, 0.1))
        if self.running and self.scenes and self.scenes[-1] is not top:
            self.scenes[-1].update(0.0)  # a new scene lays itself out before it is drawn
        if not self.running or not self.scenes:
            return
        self.gui.arrange(self.scenes)
        self.gui.update(min(elapsed, 0.1))
        self._caption()
        self.draw()
        pygame.display.flip()
        self.frames_drawn += 1
        self.frame_times.append((pygame.time.get_ticks() - start) / 1000.0)
        del self.frame_times[:-240]

    def _caption(self) -> None:
        """The window's title says where the player is ("Racetrack · New race")."""
        where = getattr(self.scenes[-1], "caption", "")
        title = f"{self.title} · {where}" if where else self.title
        if title != self._title_shown:
            pygame.display.set_caption(title)
            self._title_shown = title

    def dispatch(self, intent: Intent) -> None:
        if isinstance(intent, Quit):
            if not self.may_close():
                return
            self.running = False
            self.finish()
            return
        if isinstance(intent, Resize):
            if not self.fullscreen:
                width, height = max(intent.size[0], MIN_SIZE[0]), max(intent.size[1],
                                                                      MIN_SIZE[1])
                if (width, height) != self.screen.get_size():
                    self.screen = pygame.display.set_mode((width, height), pygame.RESIZABLE)
                self.windowed = self.size
            self._resized()
        if isinstance(intent, Key) and intent.name == "f12":
            self.save_screenshot()
            return
        if isinstance(intent, Key) and intent.name == "f11":
            self.toggle_fullscreen()
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
        self.gui.draw(self.screen)

    def save_screenshot(self, path: Path | None = None) -> Path:
        if path is None:
            self.screenshot_dir.mkdir(parents=True, exist_ok=True)
            number = len(list(self.screenshot_dir.glob("racetrack-*.png"))) + 1
            path = self.screenshot_dir / f"racetrack-{number:03d}.png"
        pygame.image.save(self.screen, str(path))
        log.info("screenshot saved to %s", path)
        return path

    @property
    def busy(self) -> bool:
        """Whether the next frame is wanted at once: the top scene is animating, a text
        field has the keyboard (its cursor blinks), or an input came a moment ago."""
        if not self.scenes:
            return False
        return (getattr(self.scenes[-1], "animating", True) or self.gui.typing
                or pygame.time.get_ticks() - self._last_input < SETTLE_MS)

    def sleep(self, timeout: float | None = None) -> bool:
        """Wait for the next events (inputs, or a job's ``WAKE``), at most ``timeout``
        seconds (``None``: for ever); the next ``step`` handles them. True when some came."""
        until = None if timeout is None else time.monotonic() + timeout
        while True:
            events = pygame.event.get()
            if events:
                self._held += events
                break
            if until is not None and time.monotonic() >= until:
                break
            waking.ALARM.wait(LOOK_SECONDS)
            waking.ALARM.clear()
        self._last_frame = pygame.time.get_ticks()  # no animation ran while asleep
        return bool(self._held)

    def run(self) -> None:
        while self.running and self.scenes:
            self.step()
            if self.busy:
                self.clock.tick(FPS)
            elif self.running and self.scenes:
                # A scene whose picture changes by the clock alone says when (``wake_in``).
                self.sleep(getattr(self.scenes[-1], "wake_in", None))
                self.clock.tick()
        self.gui.kill_all()
        self.sound.close()
        self.settings_writer.close()
        pygame.quit()
