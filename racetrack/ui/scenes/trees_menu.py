"""The Graph Trees menu: choose a rule set and who plays each side, start or resume a game,
and open saved games to watch them (the list read off the window's thread)."""

from __future__ import annotations

import random

import pygame

from racetrack.trees import TreesGame, bundled_names, load_tree_rules
from racetrack.trees import record as saved_games
from racetrack.trees.game import PLAYER_KINDS
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key
from racetrack.ui.listing import Listing
from racetrack.ui.widgets import Button, Cycler, Form, paper_background, title, wrap

SIDES = {2: ("bottom", "top"), 4: ("bottom", "left", "top", "right")}
SHOWN_GAMES = 8


class TreesMenuScene:
    def __init__(self, app):
        self.app = app
        self.names = bundled_names()
        self.rules = {name: load_tree_rules(name) for name in self.names}
        self.chosen = "levi" if "levi" in self.names else self.names[0]
        self.kinds = ["human", "greedy", "greedy", "greedy"]
        self.form = Form()
        self.listing = Listing(saved_games.saved_games, "saved-games")
        self.entries: list[saved_games.Entry] = []
        self.message = ""
        self._size = None

    def _layout(self) -> None:
        width, height = self.app.size
        self.entries = self.listing.items[:SHOWN_GAMES]
        left = 40
        rules = Cycler(pygame.Rect(left, 150, 420, 48), label="Rules", choices=self.names,
                       on_change=self._rules_changed)
        rules.set(self.chosen)
        widgets: list = [rules]
        for seat, side in enumerate(SIDES[self.rules[self.chosen].players]):
            def changed(value, seat=seat):
                self.kinds[seat] = value
            cycler = Cycler(pygame.Rect(left, 280 + seat * 56, 420, 46),
                            label=f"{side.title()}", choices=PLAYER_KINDS, on_change=changed)
            cycler.set(self.kinds[seat])
            widgets.append(cycler)
        y = 280 + 4 * 56 + 20
        widgets.append(Button(pygame.Rect(left, y, 200, 54), text="Start game",
                              action=self.start))
        widgets.append(Button(pygame.Rect(left + 220, y, 200, 54), text="Back",
                              action=self.back))
        x = width // 2 + 20
        for row, entry in enumerate(self.entries):
            text = entry.path.stem if entry.game is not None else f"{entry.path.stem} (broken)"
            if entry.path.name == saved_games.UNFINISHED:
                text = "Resume the game in progress"
            widgets.append(Button(pygame.Rect(x, 150 + row * 56, width - x - 96, 46),
                                  text=text[:44], size=24,
                                  action=lambda entry=entry: self.open(entry),
                                  tooltip=entry.problem[:90]))
            widgets.append(Button(pygame.Rect(width - 86, 150 + row * 56, 46, 46), text="×",
                                  size=26, action=lambda entry=entry: self.delete(entry),
                                  tooltip="delete this saved game (Ctrl+Z does not bring "
                                          "it back)"))
        self.form.widgets = widgets
        self._size = (width, height)

    def _rules_changed(self, name: str) -> None:
        self.chosen = name
        self._size = None

    def start(self) -> None:
        from racetrack.ui.scenes.trees import start_trees

        rules = self.rules[self.chosen]
        game = TreesGame(rules, TreesGame.default_players(self.kinds[:rules.players]),
                         seed=random.randrange(1_000_000))
        start_trees(self.app, game, replace=False)
        self._size = None

    def open(self, entry: saved_games.Entry) -> None:
        if entry.game is None:
            self.message = entry.problem
            return
        try:
            states = list(entry.game.states())
        except ValueError as exc:
            self.message = str(exc)
            return
        if entry.path.name == saved_games.UNFINISHED and not states[-1].is_over:
            from racetrack.ui.scenes.trees import start_trees

            start_trees(self.app, entry.game.game, states[-1], replace=False)
        else:
            from racetrack.ui.scenes.trees_viewer import TreesViewerScene

            self.app.push(TreesViewerScene(self.app, entry.game, states))
        self._size = None

    def delete(self, entry: saved_games.Entry) -> None:
        """Remove a saved game from the list and the disk."""
        try:
            entry.path.unlink()
        except OSError as exc:
            self.message = f"Could not delete {entry.path.name}: {exc.strerror or exc}"
            return
        self.message = f"Deleted {entry.path.stem}"
        self.listing.items = [e for e in self.listing.items if e.path != entry.path]
        self.listing.refresh()  # a reading begun before the delete must not bring it back
        self._size = None

    def back(self) -> None:
        self.listing.close()
        self.app.pop()

    def on_show(self) -> None:
        self.listing.refresh()
        self._size = None

    def handle(self, intent: Intent) -> None:
        if self._size != self.app.size:
            self._layout()
        if isinstance(intent, Key) and intent.name == "escape":
            self.back()
            return
        self.form.handle(intent)

    def update(self, dt: float) -> None:
        if self.listing.poll():
            self._size = None
        if self._size != self.app.size:
            self._layout()

    def draw(self, surface: pygame.Surface) -> None:
        paper_background(surface)
        width = surface.get_width()
        title(surface, "Graph Trees", (width // 2, 60), 72)
        sub = theme.font(26).render("Levi's territory game: grow tracks that never cross, "
                                    "fence off the paper", True, theme.MUTED)
        surface.blit(sub, sub.get_rect(center=(width // 2, 112)))
        rules = self.rules[self.chosen]
        for i, line in enumerate(wrap(rules.description, 44)[:3]):
            text = theme.font(22).render(line, True, theme.TEXT)
            surface.blit(text, (44, 206 + i * 22))
        if self.entries:
            head = theme.font(26, bold=True).render("Saved games", True, theme.TEXT)
            surface.blit(head, (width // 2 + 20, 118))
        if self.message:
            note = theme.font(22).render(self.message[:110], True, theme.TEXT)
            surface.blit(note, (40, surface.get_height() - 40))
        self.form.draw(surface)
