"""New race: pick a track (thumbnails), a rule variant (with its description) and 1 to 6
players, each with a name, a pencil colour and human or a computer level. The choices are
remembered in the player's settings for next time."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

import pygame

from racetrack.course import Course
from racetrack.errors import FileProblemError
from racetrack.rules import bundled_variant_names, load_rules
from racetrack.settings import (
    DRIVERS,
    MAX_PLAYERS,
    PENCILS,
    PlayerChoice,
    load_settings,
    save_settings,
    tracks_dir,
)
from racetrack.track import Track, bundled_track_paths, load_track
from racetrack.ui import theme
from racetrack.ui.input import Click, Intent, Key, Wheel
from racetrack.ui.render.sheet import draw_sheet
from racetrack.ui.widgets import Button, Cycler, Form, TextField, paper_background, wrap

THUMB = (210, 130)


@dataclass
class TrackChoice:
    path: Path
    track: Track
    thumbnail: pygame.Surface


def available_tracks() -> list[tuple[Path, Track]]:
    """Bundled tracks, then the player's own valid tracks (invalid drafts are not offered)."""
    found = []
    own = sorted(tracks_dir().glob("*.yaml")) if tracks_dir().is_dir() else []
    for path in [*bundled_track_paths(), *own]:
        with contextlib.suppress(FileProblemError):
            found.append((path, load_track(path)))
    return found


def thumbnail(track: Track) -> pygame.Surface:
    course = Course(track)
    x0, y0, x1, y1 = course.sheet
    scale = min(THUMB[0] / (x1 - x0), THUMB[1] / (y1 - y0))
    picture = pygame.Surface((round((x1 - x0) * scale) + 1, round((y1 - y0) * scale) + 1))
    draw_sheet(picture, course, scale, (x0, y0))
    return picture


class SetupScene:
    def __init__(self, app):
        self.app = app
        self.settings = load_settings()
        self.tracks = [TrackChoice(p, t, thumbnail(t)) for p, t in available_tracks()]
        self.selected = next((i for i, c in enumerate(self.tracks)
                              if c.path.stem == self.settings.track), 0)
        self.scroll = 0
        self.variants = bundled_variant_names()
        self.descriptions = {name: load_rules(name).description for name in self.variants}
        self.players = list(self.settings.players)
        self.form = Form()
        self.rules = Cycler(pygame.Rect(0, 0, 10, 10), label="Rules", choices=self.variants)
        self.rules.set(self.settings.rules if self.settings.rules in self.variants else "gardner")
        self.error = ""
        self._size = None

    # -- layout ---------------------------------------------------------------------------

    @property
    def panel_x(self) -> int:
        return max(480, self.app.size[0] - 560)

    def _layout(self) -> None:
        width, height = self.app.size
        x = self.panel_x + 20
        self.rules.rect = pygame.Rect(x, 90, width - x - 30, 44)
        widgets = [self.rules]
        y = 200
        for index, player in enumerate(self.players):
            name = TextField(pygame.Rect(x, y, 170, 40), text=player.name,
                             on_change=lambda text, i=index: self._set(i, name=text))
            colour = Cycler(pygame.Rect(x + 180, y, 150, 40), choices=PENCILS, size=24,
                            on_change=lambda value, i=index: self._set(i, colour=value))
            colour.set(player.colour)
            driver = Cycler(pygame.Rect(x + 340, y, width - x - 370, 40), choices=DRIVERS,
                            size=24, on_change=lambda value, i=index: self._set(i, driver=value))
            driver.set(player.driver)
            widgets += [name, colour, driver]
            y += 50
        add = Button(pygame.Rect(x, y + 6, 160, 40), text="Add player", action=self.add,
                     size=26, enabled=len(self.players) < MAX_PLAYERS)
        remove = Button(pygame.Rect(x + 180, y + 6, 160, 40), text="Remove last",
                        action=self.remove, size=26, enabled=len(self.players) > 1)
        start = Button(pygame.Rect(width - 250, height - 80, 220, 56), text="Start race",
                       action=self.start, size=34)
        back = Button(pygame.Rect(x, height - 80, 140, 56), text="Back", action=self.app.pop)
        self.form.widgets = widgets + [add, remove, start, back]
        self._size = (width, height)

    def _set(self, index: int, **change) -> None:
        player = self.players[index]
        self.players[index] = PlayerChoice(change.get("name", player.name),
                                           change.get("colour", player.colour),
                                           change.get("driver", player.driver))

    def add(self) -> None:
        used = {p.colour for p in self.players}
        colour = next((c for c in PENCILS if c not in used), "black")
        self.players.append(PlayerChoice(f"Computer {len(self.players)}", colour, "medium"))
        self._size = None

    def remove(self) -> None:
        if len(self.players) > 1:
            self.players.pop()
            self._size = None

    def start(self) -> None:
        from racetrack.ui.launch import start_race

        choice = self.tracks[self.selected]
        players = tuple(PlayerChoice(p.name.strip() or f"Player {i + 1}", p.colour, p.driver)
                        for i, p in enumerate(self.players))
        remembered = self.settings.with_race(choice.path.stem, self.rules.value, players)
        with contextlib.suppress(OSError):
            save_settings(remembered)
        try:
            start_race(self.app, choice.path, self.rules.value, players,
                       animation_seconds=self.settings.animation_seconds)
        except ValueError as exc:
            self.error = str(exc)

    # -- the track grid -------------------------------------------------------------------

    def _cells(self) -> list[tuple[int, pygame.Rect]]:
        columns = max(1, (self.panel_x - 30) // (THUMB[0] + 20))
        cells = []
        for index in range(len(self.tracks)):
            row, column = divmod(index, columns)
            rect = pygame.Rect(24 + column * (THUMB[0] + 20), 90 + row * (THUMB[1] + 46)
                               - self.scroll, THUMB[0], THUMB[1] + 30)
            cells.append((index, rect))
        return cells

    def handle(self, intent: Intent) -> None:
        if self._size != self.app.size:
            self._layout()
        if isinstance(intent, Key) and intent.name == "escape":
            self.app.pop()
            return
        if isinstance(intent, Key) and intent.name in ("pageup", "pagedown"):
            step = 1 if intent.name == "pagedown" else -1
            self.selected = (self.selected + step) % len(self.tracks)
            return
        if isinstance(intent, Wheel) and intent.pos[0] < self.panel_x:
            self.scroll = max(0, self.scroll - intent.steps * 40)
            return
        if isinstance(intent, Click) and intent.pos[0] < self.panel_x:
            for index, rect in self._cells():
                if rect.collidepoint(intent.pos):
                    self.selected = index
            return
        self.form.handle(intent)
        if self._size is None:
            self._layout()

    def update(self, dt: float) -> None:
        if self._size != self.app.size:
            self._layout()

    def draw(self, surface: pygame.Surface) -> None:
        paper_background(surface)
        heading = theme.font(44, bold=True)
        surface.blit(heading.render("Track", True, theme.palette().ink), (24, 30))
        surface.blit(heading.render("Rules and players", True, theme.palette().ink),
                     (self.panel_x + 20, 30))
        clip = surface.get_clip()
        surface.set_clip(pygame.Rect(0, 80, self.panel_x, surface.get_height() - 80))
        for index, rect in self._cells():
            choice = self.tracks[index]
            chosen = index == self.selected
            frame = rect.inflate(10, 10)
            pygame.draw.rect(surface, theme.HIGHLIGHT if chosen else theme.PANEL, frame,
                             border_radius=8)
            pygame.draw.rect(surface, theme.TEXT if chosen else theme.PANEL_EDGE, frame, 2,
                             border_radius=8)
            picture = choice.thumbnail
            surface.blit(picture, picture.get_rect(midtop=(rect.centerx, rect.y)))
            name = theme.font(24, bold=chosen).render(choice.track.name, True, theme.TEXT)
            surface.blit(name, name.get_rect(midbottom=(rect.centerx, rect.bottom + 2)))
        surface.set_clip(clip)
        x = self.panel_x + 20
        description = self.descriptions.get(self.rules.value, "")
        for i, line in enumerate(wrap(description, 50)):
            text = theme.font(22).render(line, True, theme.MUTED)
            surface.blit(text, (x, 140 + i * 20))
        chosen = self.tracks[self.selected].track
        about = f"{chosen.name}: {chosen.description}" if chosen.description else chosen.name
        top = self.form.widgets[-1].rect.y - 90 if self.form.widgets else 500
        for i, line in enumerate(wrap(about, 56)[:4]):
            text = theme.font(22).render(line, True, theme.TEXT)
            surface.blit(text, (x, top + i * 20))
        self.form.draw(surface)
        if self.error:
            text = theme.font(24).render(self.error, True, (180, 40, 40))
            surface.blit(text, (x, surface.get_height() - 110))
