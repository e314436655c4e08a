"""The replays menu: saved races with date, track thumbnail, players and winner, in a scrolling
list; open, rename (asking before a name already taken is replaced) and delete them (after a
question), or open a replay file from anywhere through a file dialog. The list is read off the
window's thread (each file is loaded and checked)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame

from racetrack.base.files import file_in
from racetrack.base.settings import replays_dir
from racetrack.games import archive
from racetrack.games.replay import Replay, load_replay
from racetrack.ui import theme
from racetrack.ui.gui import Entry, Page
from racetrack.ui.input import Click, Intent, Key
from racetrack.ui.listing import Listing
from racetrack.ui.render.marks import chosen_card
from racetrack.ui.render.sheet import thumbnail
from racetrack.ui.render.words import shorten
from racetrack.ui.scenes.form import FormScene, heading, read_file

ROW = 96


class ReplaysScene(FormScene):
    caption = "Replays"

    def __init__(self, app):
        super().__init__(app)
        self.listing = Listing(archive.saved_races, "replays")
        self.entries: list[archive.Entry] = []
        self.thumbnails: dict[str, pygame.Surface] = {}
        self.selected = 0
        self.renaming: Entry | None = None  # the new name's field, while renaming
        self.rename_asked = False
        self.message = ""
        self.rows: list[tuple[int, object]] = []
        self.scroller = None

    # -- layout ---------------------------------------------------------------------------

    def layout(self, page: Page, width: int, height: int) -> None:
        bottom = height - theme.px(66)
        have = bool(self.entries)
        actions = [("Open", self.open, have, "Watch the chosen race (Enter)"),
                   ("Rename", self.start_rename, have, "Give the chosen race a name"),
                   ("Delete", self.delete, have, "Delete the chosen race (Del)"),
                   ("Open a file…", self.open_file, True, "Watch a replay file from anywhere"),
                   ("Back", self.back, True, "")]
        button = min(theme.px(170), (width - theme.px(40)) // len(actions) - theme.px(10))
        for number, (text, action, enabled, tip) in enumerate(actions):
            page.button((theme.px(20) + number * (button + theme.px(10)), bottom, button,
                         theme.px(50)), text, action, tooltip=tip, enabled=enabled,
                        style="danger" if text == "Delete" else "big")
        top = theme.px(100)
        row = theme.px(ROW)
        self.scroller = page.scroller((theme.px(20), top, width - theme.px(40),
                                      bottom - top - theme.px(34)),
                                     (width - theme.px(64), max(1, len(self.entries) *
                                                                (row + theme.px(8)))))
        self.rows = []
        for index in range(len(self.entries)):
            image = page.image((0, index * (row + theme.px(8)), width - theme.px(64), row),
                               self.row_picture(index, (width - theme.px(64), row)),
                               container=self.scroller)
            self.rows.append((index, image))
        self.renaming = None
        if self.rename_asked and self.entry is not None:
            self.renaming = page.entry((width // 2 - theme.px(260), theme.px(56), theme.px(520),
                                        theme.px(40)), self.entry.path.stem, max_length=80,
                                       on_finish=lambda text: self.finish_rename())
            self.renaming.activate()

    def row_picture(self, index: int, size: tuple[int, int]) -> pygame.Surface:
        """One saved race: its track's thumbnail, date, players and winner."""
        entry = self.entries[index]
        picture = chosen_card(size, index == self.selected)
        x = theme.px(12)
        if entry.replay is not None:
            key = f"{entry.path}:{size[1]}"
            if key not in self.thumbnails:
                small = thumbnail(entry.replay.race.track)
                self.thumbnails[key] = pygame.transform.smoothscale_by(
                    small, (size[1] - 12) / small.get_height())
            picture.blit(self.thumbnails[key], (6, 6))
            x = self.thumbnails[key].get_width() + theme.px(18)
        title = f"{entry.title} · {entry.saved:%Y-%m-%d %H:%M}"
        picture.blit(theme.ui_font(26, bold=True).render(title, True, theme.TEXT),
                     (x, theme.px(12)))
        if entry.replay is not None:
            players = ", ".join(entry.players)
            winner = f"winner: {entry.winner}" if entry.winner else "no winner"
            detail = f"{players} · {winner} · {entry.path.stem}"
        else:
            detail = f"cannot be opened: {entry.problem}"
        font = theme.ui_font(20)
        detail = shorten(detail, font, size[0] - x - theme.px(12))
        picture.blit(font.render(detail, True, theme.MUTED), (x, theme.px(52)))
        return picture

    def first_focus(self, page: Page) -> int:
        return 0  # Open

    # -- actions --------------------------------------------------------------------------

    @property
    def entry(self) -> archive.Entry | None:
        return self.entries[self.selected] if self.entries else None

    def choose(self, index: int) -> None:
        self.selected = index
        for number, image in self.rows:
            image.set_image(self.row_picture(number, image.rect.size))

    def open(self) -> None:
        entry = self.entry
        if entry is None or entry.replay is None:
            self.message = entry.problem if entry else ""
            return
        self.watch(entry.replay)

    def watch(self, replay: Replay) -> None:
        try:
            self.app.routes.watch(replay)
        except ValueError as exc:
            self.message = str(exc)

    def open_file(self) -> None:
        self.form.choose_file("Open a replay", replays_dir() if replays_dir().is_dir()
                              else Path.home(), {".yaml", ".yml"}, self.watch_file)

    def watch_file(self, path: Path) -> None:
        replay, self.message = read_file(load_replay, path)
        if replay is not None:
            self.watch(replay)

    def start_rename(self) -> None:
        """A field for the new name over the list (Enter keeps it, Esc cancels)."""
        if self.entry is not None:
            self.rename_asked = True
            self.relayout()
            self.ensure_layout()

    def finish_rename(self) -> None:
        field, self.rename_asked = self.renaming, False
        self.relayout()
        if field is None or self.entry is None:
            return
        name = field.text
        try:
            target = file_in(self.entry.path.parent, name)
        except ValueError as exc:
            self.message = str(exc)
            return
        if target.exists() and target != self.entry.path:
            path = self.entry.path
            self.form.confirm("Replace replay", f"There is already a replay called "
                              f"{target.stem!r}. Replace it with this one?", "Replace",
                              lambda: self._rename(path, name, replace=target))
            return
        self._rename(self.entry.path, name)

    def _rename(self, path: Path, name: str, replace: Path | None = None) -> None:
        try:
            if replace is not None:
                archive.delete(replace)
            renamed = archive.rename(path, name)
            self.message = f"Renamed to {renamed.stem}"
            # Shown at once; the folder is read again meanwhile, off the window's thread.
            self.entries = [dataclasses.replace(e, path=renamed) if e.path == path else e
                            for e in self.entries if e.path != replace]
        except (ValueError, OSError) as exc:
            self.message = str(exc)
        self._changed()

    def delete(self) -> None:
        entry = self.entry
        if entry is not None:
            self.form.confirm("Delete replay", f"Delete the race on {entry.title} saved "
                              f"{entry.saved:%Y-%m-%d %H:%M}? It cannot be undone.", "Delete",
                              lambda: self._delete(entry))

    def _delete(self, entry: archive.Entry) -> None:
        try:
            archive.delete(entry.path)
            self.message = f"Deleted {entry.path.stem}"
            self.entries = [e for e in self.entries if e.path != entry.path]
        except OSError as exc:
            self.message = str(exc)
        self._changed()

    def _changed(self) -> None:
        """The list as just changed, shown now, and the folder read again."""
        self.selected = min(self.selected, max(0, len(self.entries) - 1))
        self.relayout()
        self.reload()

    def reload(self) -> None:
        """Read the folder again, off the window's thread (``update`` takes the list in)."""
        self.listing.refresh()

    def update(self, dt: float) -> None:
        if self.listing.poll():
            self.entries = list(self.listing.items)
            self.selected = min(self.selected, max(0, len(self.entries) - 1))
            self.relayout()
        super().update(dt)

    def back(self) -> None:
        self.listing.close()
        self.app.pop()

    # -- the scene ------------------------------------------------------------------------

    def handle(self, intent: Intent) -> None:
        self.ensure_layout()
        if self.rename_asked and isinstance(intent, Key) and intent.name == "escape":
            self.rename_asked = False
            self.relayout()
            return
        super().handle(intent)

    def on_intent(self, intent: Intent) -> None:
        if isinstance(intent, Key):
            if intent.name in ("up", "down") and self.entries:
                step = 1 if intent.name == "down" else -1
                self.choose((self.selected + step) % len(self.entries))
            elif intent.name == "enter":
                self.open()
            elif intent.name == "delete":
                self.delete()
            return
        if isinstance(intent, Click) and self.scroller is not None \
                and self.scroller.rect.collidepoint(intent.pos):
            for index, image in self.rows:
                if image.rect.collidepoint(intent.pos):
                    if index == self.selected and intent.button == 1:
                        self.open()
                    self.choose(index)
                    return

    def draw_paper(self, surface: pygame.Surface) -> None:
        heading(surface, "Replays", (surface.get_width() // 2, theme.px(16)), 48,
                centred=True)
        if self.renaming is not None:
            prompt = theme.ui_font(20).render("New name (Enter to keep, Esc to cancel):", True,
                                              theme.TEXT)
            surface.blit(prompt, prompt.get_rect(bottomleft=(surface.get_width() // 2 -
                                                             theme.px(260), theme.px(54))))
        if not self.entries:
            words = ("Reading the saved races…" if self.listing.loading else
                     self.listing.problem or "No saved races yet: finish a race and it is "
                                             "kept here.")
            empty = theme.ui_font(28).render(words[:90], True, theme.MUTED)
            surface.blit(empty, empty.get_rect(center=(surface.get_width() // 2,
                                                       theme.px(220))))
        if self.message:
            note = theme.ui_font(22).render(self.message[:120], True, theme.TEXT)
            surface.blit(note, (theme.px(24), surface.get_height() - theme.px(96)))
