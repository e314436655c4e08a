"""The Graph Trees menu: choose a rule set (a drop-down) and who plays each side (one list a
side), start a game; resume a game in progress or discard it, watch a saved game or delete it
(after a question). The games are read off the window's thread, from the same shelf of saved
games the races use (``racetrack.archive``)."""

from __future__ import annotations

import random

import pygame

from racetrack.archive import Entry, Interrupted, Unfinished
from racetrack.trees import TreesGame, bundled_names, load_tree_rules
from racetrack.trees.game import PLAYER_KINDS
from racetrack.trees.record import GAMES
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.listing import Listing
from racetrack.ui.render.words import shorten, wrap_pixels
from racetrack.ui.scenes.form import FormScene, heading

SIDES = {2: ("bottom", "top"), 4: ("bottom", "left", "top", "right")}


def read_games() -> list[tuple[Interrupted, list[Entry]]]:
    """The games in progress and the saved games, in one reading (for a ``Listing``)."""
    return [(GAMES.read_unfinished(), GAMES.saved())]


class TreesMenuScene(FormScene):
    idles = True
    caption = "Graph Trees"

    def __init__(self, app):
        super().__init__(app)
        self.names = bundled_names()
        self.rules = {name: load_tree_rules(name) for name in self.names}
        self.chosen = "levi" if "levi" in self.names else self.names[0]
        self.kinds = ["human", "greedy", "greedy", "greedy"]
        self.listing = Listing(read_games, "saved-games")
        self.unfinished: list[Unfinished] = []
        self.entries: list[Entry] = []
        self.notices: tuple[str, ...] = ()
        self.message = ""
        self.description_y = 0
        self.column = 0

    # -- layout ---------------------------------------------------------------------------

    def layout(self, page: Page, width: int, height: int) -> None:
        left = theme.px(24)
        self.column = min(theme.px(440), width // 2 - theme.px(40))
        label = theme.px(100)
        y = theme.px(150)
        tall = theme.px(40)
        page.choice((left + label, y, self.column - label, tall), self.names, self.chosen,
                    self._rules_changed, tooltip="The rule set: movement, players, sheet")
        self.rules_y = y
        y += tall + theme.px(8)
        self.description_y = y
        y += theme.px(70)
        self.seats_y = y
        for seat, _ in enumerate(SIDES[self.rules[self.chosen].players]):
            page.choice((left + label, y, self.column - label, tall), PLAYER_KINDS,
                        self.kinds[seat],
                        lambda value, seat=seat: self.kinds.__setitem__(seat, value),
                        tooltip="A person, or the computer")
            y += tall + theme.px(8)
        bottom = height - theme.px(70)
        self.start_button = page.button((left, min(y + theme.px(12), bottom), theme.px(200),
                                         theme.px(50)), "Start game", self.start,
                                        style="primary")
        page.button((left + theme.px(214), min(y + theme.px(12), bottom), theme.px(160),
                     theme.px(50)), "Back", self.back, style="big")
        self._layout_games(page, width, height)

    def _layout_games(self, page: Page, width: int, height: int) -> None:
        """The games in progress and the saved ones, in a scrolling list on the right."""
        x = width // 2 + theme.px(10)
        top = theme.px(150)
        row = theme.px(52)
        box_width = width - x - theme.px(24)
        rows: list[tuple[str, object, object, str]] = []
        for unfinished in self.unfinished:
            rows.append((f"Resume: {unfinished.describe}",
                         lambda u=unfinished: self.resume(u),
                         lambda u=unfinished: self.discard(u),
                         f"In progress since {unfinished.saved:%Y-%m-%d %H:%M}, "
                         f"{len(unfinished.recording.moves)} moves"))
        for entry in self.entries:
            words = f"{entry.saved:%Y-%m-%d %H:%M} · {entry.title}"
            if entry.recording is None:
                words = f"{entry.path.stem} (cannot be opened)"
            rows.append((words, lambda e=entry: self.open(e), lambda e=entry: self.delete(e),
                         entry.problem or f"Watch it ({entry.path.name})"))
        if not rows:
            return
        box = page.scroller((x, top, box_width, height - top - theme.px(90)),
                            (box_width - theme.px(24), len(rows) * row))
        font = theme.gui_font(19)  # the buttons' own words, cut to fit with an ellipsis
        inside = box_width - theme.px(24) - theme.px(58)
        for number, (words, open_, delete, tip) in enumerate(rows):
            y = number * row
            page.button((0, y, inside, row - theme.px(8)), shorten(words, font,
                                                                   inside - theme.px(24)),
                        open_, tooltip=tip, container=box)
            page.button((inside + theme.px(8), y, theme.px(46), row - theme.px(8)), "×", delete,
                        tooltip="Delete it (after a question)", container=box, style="danger")

    def first_focus(self, page: Page) -> int:
        return page.widgets.index(self.start_button)

    # -- actions --------------------------------------------------------------------------

    def _rules_changed(self, name: str) -> None:
        self.chosen = name
        self.relayout()

    def start(self) -> None:
        rules = self.rules[self.chosen]
        game = TreesGame(rules, TreesGame.default_players(self.kinds[:rules.players]),
                         seed=random.randrange(1_000_000))
        self.app.routes.trees(game, replace=False)

    def resume(self, unfinished: Unfinished) -> None:
        try:
            state = unfinished.recording.final_state()
        except ValueError as exc:
            self.message = str(exc)
            return
        self.app.routes.trees(unfinished.recording.game, state, replace=False,
                              progress=unfinished.path)

    def open(self, entry: Entry) -> None:
        if entry.recording is None:
            self.message = entry.problem
            return
        try:
            self.app.routes.watch(entry.recording)
        except ValueError as exc:
            self.message = str(exc)

    def discard(self, unfinished: Unfinished) -> None:
        self.form.confirm("Discard game", f"Discard the game in progress "
                          f"({unfinished.recording.describe}, {len(unfinished.recording.moves)}"
                          " moves)? It cannot be resumed after.", "Discard",
                          lambda: self._forget(unfinished.path, "Discarded the game"))

    def delete(self, entry: Entry) -> None:
        self.form.confirm("Delete game", f"Delete the saved game {entry.path.stem}? It cannot "
                          "be undone.", "Delete",
                          lambda: self._forget(entry.path, f"Deleted {entry.path.stem}"))

    def _forget(self, path, said: str) -> None:
        """Remove a game's file, from the lists at once and from the disk."""
        try:
            GAMES.delete(path)
        except OSError as exc:
            self.message = f"Could not delete {path.name}: {exc.strerror or exc}"
            return
        self.message = said
        self.unfinished = [u for u in self.unfinished if u.path != path]
        self.entries = [e for e in self.entries if e.path != path]
        self.listing.refresh()  # a reading begun before the delete must not bring it back
        self.relayout()

    def back(self) -> None:
        self.listing.close()
        self.app.pop()

    def on_show(self) -> None:
        self.listing.refresh()

    def update(self, dt: float) -> None:
        if self.listing.poll() and self.listing.items:
            found, self.entries = self.listing.items[0]
            self.unfinished = list(found.races)
            self.notices = tuple(dict.fromkeys([*self.notices, *found.messages]))
            self.relayout()
        super().update(dt)

    # -- drawing --------------------------------------------------------------------------

    def draw_paper(self, surface: pygame.Surface) -> None:
        width = surface.get_width()
        left = theme.px(24)
        heading(surface, "Graph Trees", (width // 2, theme.px(16)), 60, centred=True)
        sub = theme.ui_font(22).render("Levi's territory game: grow tracks that never cross, "
                                       "fence off the paper", True, theme.MUTED)
        surface.blit(sub, sub.get_rect(midtop=(width // 2, theme.px(84))))
        label = theme.ui_font(26)
        tall = theme.px(40)
        rendered = label.render("Rules", True, theme.TEXT)
        surface.blit(rendered, rendered.get_rect(midleft=(left, self.rules_y + tall // 2)))
        small = theme.ui_font(22)
        for i, line in enumerate(wrap_pixels(self.rules[self.chosen].description, small,
                                             self.column)[:3]):
            surface.blit(small.render(line, True, theme.MUTED),
                         (left, self.description_y + i * small.get_linesize()))
        sides = SIDES[self.rules[self.chosen].players]
        for seat, side in enumerate(sides):
            rendered = label.render(side.title(), True, theme.TEXT)
            y = self.seats_y + seat * (tall + theme.px(8))
            surface.blit(rendered, rendered.get_rect(midleft=(left, y + tall // 2)))
        x = width // 2 + theme.px(10)
        words = "Games" if self.unfinished or self.entries else (
            "Reading the saved games…" if self.listing.loading else
            self.listing.problem or "No saved games yet: a finished game is kept here")
        rendered = theme.ui_font(24, bold=True).render(words, True, theme.TEXT)
        surface.blit(rendered, (x, theme.px(116)))
        notes = [*self.notices, self.message]
        y = surface.get_height() - theme.px(16)
        for note in reversed([n for n in notes if n]):
            text = small.render(shorten(note, small, width - theme.px(48)), True,
                                theme.ERROR if note in self.notices else theme.TEXT)
            y -= small.get_linesize()
            surface.blit(text, (left, y))
