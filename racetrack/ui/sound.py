"""The game's sounds: a pencil stroke for a move, a crunch for a crash, a bump for a collision,
a flourish at the finish, a chime for a lap, a click for the menus.

The sounds are small WAVs made by ``tools/make_sounds.py``. Where there is no audio device (a
server, a virtual screen, SDL's dummy driver refused) the game is silent, never in error: the
mixer is tried once and, if it will not open, every ``play`` does nothing.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys

import pygame

from racetrack.engine.model import Event, EventKind
from racetrack.ui import theme

log = logging.getLogger(__name__)

NAMES = ("move", "crash", "bump", "finish", "lap", "out", "click")
#: The sound each race event makes (one per batch of events: the loudest wins).
EVENT_SOUNDS = {EventKind.OUT: "out", EventKind.CRASHED: "crash",
                EventKind.COLLIDED: "bump", EventKind.MISSILE_HIT: "crash",
                EventKind.FINISHED: "finish", EventKind.LAP: "lap",
                EventKind.MOVED: "move", EventKind.LEFT_TRACK: "move",
                EventKind.BACK_ON_TRACK: "move", EventKind.PLACED: "move"}
#: Which sound wins when one move makes several.
PRIORITY = ("finish", "out", "crash", "bump", "lap", "move")


@contextlib.contextmanager
def _quiet_stderr():
    """Hide the C audio libraries' complaints while the mixer looks for a device (ALSA prints
    a page of them on a machine without a sound card)."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            sys.stderr.flush()
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class Sounds:
    """Plays the named sounds at the player's volume; silent without a device or muted."""

    def __init__(self, volume: int = 70, muted: bool = False):
        self.volume = volume
        self.muted = muted
        self.ready = False
        self._sounds: dict[str, pygame.mixer.Sound | None] = {}
        self.played: list[str] = []  # the last sounds asked for (tests read it)
        try:
            with _quiet_stderr():
                if not pygame.mixer.get_init():
                    pygame.mixer.init(22050, -16, 1, 512)
            self.ready = True
        except (pygame.error, OSError) as exc:
            log.info("no sound: %s", exc)

    def configure(self, volume: int, muted: bool) -> None:
        self.volume, self.muted = volume, muted

    def _sound(self, name: str) -> pygame.mixer.Sound | None:
        if name not in self._sounds:
            try:
                self._sounds[name] = pygame.mixer.Sound(str(theme.asset("sounds",
                                                                       f"{name}.wav")))
            except (pygame.error, FileNotFoundError, OSError) as exc:
                log.warning("sound %s not loaded: %s", name, exc)
                self._sounds[name] = None
        return self._sounds[name]

    def play(self, name: str) -> None:
        self.played = [*self.played[-19:], name]
        if not self.ready or self.muted or self.volume <= 0:
            return
        sound = self._sound(name)
        if sound is not None:
            sound.set_volume(self.volume / 100)
            with contextlib.suppress(pygame.error):
                sound.play()

    def events(self, events: list[Event]) -> None:
        """The one sound a move's events make (a finish over a lap over a pencil stroke)."""
        names = {EVENT_SOUNDS[e.kind] for e in events if e.kind in EVENT_SOUNDS}
        for name in PRIORITY:
            if name in names:
                self.play(name)
                return

    def close(self) -> None:
        if self.ready:
            with contextlib.suppress(pygame.error):
                pygame.mixer.quit()
            self.ready = False
