"""The replays menu: saved races with date, track thumbnail, players and winner; open, rename
and delete them. The list is read off the window's thread (each file is loaded and checked)."""

from __future__ import annotations

from dataclasses import replace

import pygame

from racetrack import archive
from racetrack.ui import theme
from racetrack.ui.input import Click, Intent, Key, Wheel
from racetrack.ui.listing import Listing
from racetrack.ui.scenes.setup import thumbnail
from racetrack.ui.widgets import Button, Form, TextField, paper_background, title

ROW = 96


class ReplaysScene:
    def __init__(self, app):
        self.app = app
        self.listing = Listing(archive.saved_races, "replays")
        self.entries: list[archive.Entry] = []
        self.thumbnails: dict[str, pygame.Surface] = {}
        self.selected = 0
        self.scroll = 0
        self.renaming: TextField | None = None
        self.message = ""
        self.form = Form()
        self._size = None

    def _layout(self) -> None:
        width, height = self.app.size
        y = height - 76
        actions = [("Open", self.open), ("Rename", self.start_rename), ("Delete", self.delete),
                   ("Back", self.back)]
        self.form.widgets = [Button(pygame.Rect(24 + i * 170, y, 156, 52), text=text,
                                    action=action, enabled=bool(self.entries) or text == "Back")
                             for i, (text, action) in enumerate(actions)]
        self._size = (width, height)

    # -- actions --------------------------------------------------------------------------

    @property
    def entry(self) -> archive.Entry | None:
        return self.entries[self.selected] if self.entries else None

    def open(self) -> None:
        from racetrack.ui.scenes.viewer import ViewerScene

        entry = self.entry
        if entry is None or entry.replay is None:
            self.message = entry.problem if entry else ""
            return
        try:
            states = list(entry.replay.states())
        except ValueError as exc:
            self.message = str(exc)
            return
        self.app.push(ViewerScene(self.app, entry.replay, states))

    def start_rename(self) -> None:
        if self.entry is not None:
            width = self.app.size[0]
            self.renaming = TextField(pygame.Rect(width // 2 - 250, 120, 500, 44),
                                      text=self.entry.path.stem, max_length=80)

    def finish_rename(self) -> None:
        field, self.renaming = self.renaming, None
        if field is None or self.entry is None:
            return
        try:
            renamed = archive.rename(self.entry.path, field.text)
            self.message = f"Renamed to {renamed.stem}"
            self.entries[self.selected] = replace(self.entry, path=renamed)
        except (ValueError, OSError) as exc:
            self.message = str(exc)
        self.reload()

    def delete(self) -> None:
        if self.entry is not None:
            try:
                archive.delete(self.entry.path)
                self.message = f"Deleted {self.entry.path.stem}"
                del self.entries[self.selected]
            except OSError as exc:
                self.message = str(exc)
            self._took_in()
            self.reload()

    def reload(self) -> None:
        """Read the folder again; the list shown meanwhile is the one just changed."""
        self.listing.refresh()

    def _took_in(self) -> None:
        self.selected = min(self.selected, max(0, len(self.entries) - 1))
        self._size = None

    def back(self) -> None:
        self.listing.close()
        self.app.pop()

    # -- the scene ------------------------------------------------------------------------

    def handle(self, intent: Intent) -> None:
        if self._size != self.app.size:
            self._layout()
        if self.renaming is not None:
            if isinstance(intent, Key) and intent.name == "enter":
                self.finish_rename()
            elif isinstance(intent, Key) and intent.name == "escape":
                self.renaming = None
            else:
                self.renaming.handle(intent, True)
            return
        if isinstance(intent, Key):
            if intent.name == "escape":
                self.back()
                return
            if intent.name in ("up", "down") and self.entries:
                step = 1 if intent.name == "down" else -1
                self.selected = (self.selected + step) % len(self.entries)
                return
            if intent.name == "enter":
                self.open()
                return
            if intent.name == "delete":
                self.delete()
                return
        if isinstance(intent, Wheel):
            self.scroll = max(0, self.scroll - intent.steps * 40)
            return
        if isinstance(intent, Click):
            for index, rect in self._rows():
                if rect.collidepoint(intent.pos):
                    if index == self.selected and intent.button == 1:
                        self.open()
                    self.selected = index
                    return
        self.form.handle(intent)
        if self._size is None:
            self._layout()

    def _rows(self) -> list[tuple[int, pygame.Rect]]:
        width = self.app.size[0]
        return [(i, pygame.Rect(24, 110 + i * (ROW + 10) - self.scroll, width - 48, ROW))
                for i in range(len(self.entries))]

    def update(self, dt: float) -> None:
        if self.listing.poll():
            self.entries = list(self.listing.items)
            self._took_in()
        if self._size != self.app.size:
            self._layout()

    def draw(self, surface: pygame.Surface) -> None:
        paper_background(surface)
        title(surface, "Replays", (surface.get_width() // 2, 56))
        if not self.entries:
            words = ("Reading the saved races…" if self.listing.loading else
                     self.listing.problem or "No saved races yet: finish a race and it is "
                                             "kept here.")
            empty = theme.font(30).render(words[:90], True, theme.MUTED)
            surface.blit(empty, empty.get_rect(center=(surface.get_width() // 2, 220)))
        clip = surface.get_clip()
        surface.set_clip(pygame.Rect(0, 100, surface.get_width(), surface.get_height() - 190))
        for index, rect in self._rows():
            if rect.bottom < 100 or rect.top > surface.get_height():
                continue
            entry = self.entries[index]
            chosen = index == self.selected
            pygame.draw.rect(surface, theme.HIGHLIGHT if chosen else theme.PANEL, rect,
                             border_radius=8)
            pygame.draw.rect(surface, theme.TEXT if chosen else theme.PANEL_EDGE, rect, 2,
                             border_radius=8)
            if entry.replay is not None:
                key = str(entry.path)
                if key not in self.thumbnails:
                    picture = thumbnail(entry.replay.race.track)
                    ratio = (ROW - 12) / picture.get_height()
                    self.thumbnails[key] = pygame.transform.smoothscale_by(picture, ratio)
                surface.blit(self.thumbnails[key], (rect.x + 6, rect.y + 6))
            x = rect.x + 190
            heading = f"{entry.track} · {entry.saved:%Y-%m-%d %H:%M}"
            surface.blit(theme.font(30, bold=True).render(heading, True, theme.TEXT),
                         (x, rect.y + 12))
            if entry.replay is not None:
                players = ", ".join(entry.players)
                winner = f"winner: {entry.winner}" if entry.winner else "no winner"
                detail = f"{players} · {winner} · {entry.path.stem}"
            else:
                detail = f"cannot be opened: {entry.problem}"
            surface.blit(theme.font(22).render(detail[:110], True, theme.MUTED),
                         (x, rect.y + 50))
        surface.set_clip(clip)
        if self.message:
            note = theme.font(24).render(self.message[:120], True, theme.TEXT)
            surface.blit(note, (24, surface.get_height() - 110))
        self.form.draw(surface)
        if self.renaming is not None:
            shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            shade.fill((250, 248, 240, 210))
            surface.blit(shade, (0, 0))
            prompt = theme.font(28).render("New name (Enter to keep, Esc to cancel):", True,
                                           theme.TEXT)
            surface.blit(prompt, prompt.get_rect(midbottom=(surface.get_width() // 2, 110)))
            self.renaming.draw(surface, True)
