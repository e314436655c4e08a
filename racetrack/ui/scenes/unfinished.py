"""Interrupted races: every race left part way, newest first, to resume or discard (after a
question). Starting another race never replaces one of them."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from racetrack import archive
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.render.sheet import thumbnail
from racetrack.ui.scenes.form import FormScene, heading


class UnfinishedScene(FormScene):
    idles = True
    caption = "Interrupted races"
    def __init__(self, app, resume: Callable[[archive.Unfinished], None]):
        super().__init__(app)
        self.resume = resume  # the menu's: goes on with a chosen race
        self.entries = archive.unfinished_races()
        self.thumbnails: dict[str, pygame.Surface] = {}
        self.message = ""

    def layout(self, page: Page, width: int, height: int) -> None:
        self.entries = archive.unfinished_races()
        top = theme.px(110)
        row = theme.px(96)
        content = max(1, len(self.entries) * (row + theme.px(8)))
        box = page.scroller((theme.px(20), top, width - theme.px(40),
                             height - top - theme.px(90)), (width - theme.px(60), content))
        button_width = theme.px(120)
        for number, entry in enumerate(self.entries):
            y = number * (row + theme.px(8))
            picture = self._thumbnail(entry, row - theme.px(12))
            page.image((theme.px(6), y + theme.px(6), picture.get_width(),
                        picture.get_height()), picture, container=box)
            x = theme.px(16) + picture.get_width()
            race = entry.replay.race
            page.label((x, y + theme.px(6), width - x - 3 * button_width - theme.px(80),
                        theme.px(34)), f"{race.track.name} · {entry.saved:%Y-%m-%d %H:%M}",
                       container=box, style="big")
            page.label((x, y + theme.px(44), width - x - 3 * button_width - theme.px(80),
                        theme.px(28)), entry.describe, container=box, style="muted")
            right = width - theme.px(80) - 2 * (button_width + theme.px(10))
            page.button((right, y + row // 2 - theme.px(22), button_width, theme.px(44)),
                        "Resume", lambda e=entry: self._resume(e), container=box,
                        style="primary")
            page.button((right + button_width + theme.px(10), y + row // 2 - theme.px(22),
                         button_width, theme.px(44)), "Discard",
                        lambda e=entry: self.discard(e), container=box, style="danger")
        page.button((theme.px(20), height - theme.px(70), theme.px(160), theme.px(50)), "Back",
                    self.back)

    def _thumbnail(self, entry: archive.Unfinished, height: int) -> pygame.Surface:
        key = str(entry.path)
        if key not in self.thumbnails:
            picture = thumbnail(entry.replay.race.track)
            self.thumbnails[key] = pygame.transform.smoothscale_by(
                picture, height / picture.get_height())
        return self.thumbnails[key]

    def _resume(self, entry: archive.Unfinished) -> None:
        self.app.pop()
        self.resume(entry)

    def discard(self, entry: archive.Unfinished) -> None:
        race = entry.replay.race
        self.form.confirm("Discard race", f"Discard the race on {race.track.name} "
                          f"({len(entry.replay.moves)} moves)? It cannot be resumed after.",
                          "Discard", lambda: self._discarded(entry))

    def _discarded(self, entry: archive.Unfinished) -> None:
        archive.discard_unfinished(entry.path)
        self.message = f"Discarded the race on {entry.replay.race.track.name}"
        self.relayout()
        if not archive.unfinished_races():
            self.app.pop()

    def draw_paper(self, surface: pygame.Surface) -> None:
        heading(surface, "Interrupted races", (surface.get_width() // 2, theme.px(30)), 48,
                centred=True)
        if self.message:
            text = theme.ui_font(20).render(self.message, True, theme.MUTED)
            surface.blit(text, text.get_rect(midbottom=(surface.get_width() // 2,
                                                        theme.px(104))))
