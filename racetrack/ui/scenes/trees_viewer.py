"""Watching a saved game of Graph Trees: step through it move by move, or let it play."""

from __future__ import annotations

import pygame

from racetrack.trees import TreesState
from racetrack.trees.record import SavedGame
from racetrack.ui import theme
from racetrack.ui.input import Click, Intent, Key, Motion, Release, Resize, Wheel
from racetrack.ui.render import trees as draw
from racetrack.ui.render.camera import Camera
from racetrack.ui.widgets import Button, Form

SECONDS_PER_MOVE = 0.6
CONTROLS_HEIGHT = 64


class TreesViewerScene:
    def __init__(self, app, saved: SavedGame, states: list[TreesState]):
        self.app = app
        self.saved = saved
        self.states = states  # states[k]: after k moves
        self.index = 0
        self.playing = False
        self.clock = 0.0
        self.press: tuple[int, int] | None = None
        rules = saved.game.rules
        self.camera = Camera(followed=False)
        self.board = draw.BoardCache(rules.width, rules.height)
        self.form = Form()
        self._size = None
        self._layout()
        self.camera.fit((0, 0, rules.width, rules.height), margin=1.6)

    def _layout(self) -> None:
        width, height = self.app.size
        self.camera.width, self.camera.height = width, height - draw.BAR_HEIGHT - CONTROLS_HEIGHT
        self.camera.offset_y = draw.BAR_HEIGHT
        y = height - CONTROLS_HEIGHT + 10
        buttons = [("|<", lambda: self.go(0)), ("<", lambda: self.go(self.index - 1)),
                   ("play", self.toggle), (">", lambda: self.go(self.index + 1)),
                   (">|", lambda: self.go(self.last))]
        self.form.widgets = [Button(pygame.Rect(16 + i * 74, y, 66, 44), text=text,
                                    action=action, size=26)
                             for i, (text, action) in enumerate(buttons)]
        self.form.widgets.append(Button(pygame.Rect(width - 166, y, 150, 44), text="Close",
                                        action=self.app.pop, size=26))
        self._size = (width, height)

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def go(self, index: int) -> None:
        self.index = max(0, min(self.last, index))
        self.clock = 0.0

    def toggle(self) -> None:
        if self.index >= self.last:
            self.index = 0
        self.playing = not self.playing

    def handle(self, intent: Intent) -> None:
        if self._size != self.app.size or isinstance(intent, Resize):
            self._layout()
        if isinstance(intent, Key):
            actions = {"space": self.toggle, "right": lambda: self.go(self.index + 1),
                       "left": lambda: self.go(self.index - 1), "home": lambda: self.go(0),
                       "end": lambda: self.go(self.last), "escape": self.app.pop}
            if intent.name in actions:
                actions[intent.name]()
            return
        if self.form.handle(intent):
            return
        if isinstance(intent, Wheel):
            self.camera.zoom(1.15 ** intent.steps, intent.pos)
        elif isinstance(intent, Click):
            self.press = intent.pos
        elif isinstance(intent, Motion) and intent.dragging and self.press is not None:
            self.camera.pan(*intent.rel)
        elif isinstance(intent, Release):
            self.press = None

    def update(self, dt: float) -> None:
        if self._size != self.app.size:
            self._layout()
        self.form.widgets[2].text = "pause" if self.playing else "play"
        if self.playing:
            self.clock += dt
            if self.clock >= SECONDS_PER_MOVE:
                if self.index >= self.last:
                    self.playing = False
                else:
                    self.go(self.index + 1)

    def draw(self, surface: pygame.Surface) -> None:
        state = self.states[self.index]
        draw.draw_board(surface, state, self.camera, self.board)
        last = state.history[-1] if state.history else None
        note = "the start" if last is None else \
            f"move {self.index}: {state.game.players[last[0]].name} {last[1]}"
        draw.draw_bar(surface, state, note)
        width, height = surface.get_size()
        panel = pygame.Rect(0, height - CONTROLS_HEIGHT, width, CONTROLS_HEIGHT)
        pygame.draw.rect(surface, theme.PANEL, panel)
        pygame.draw.line(surface, theme.PANEL_EDGE, panel.topleft, panel.topright, 2)
        label = theme.font(24).render(f"move {self.index} of {self.last}", True, theme.MUTED)
        surface.blit(label, label.get_rect(midleft=(16 + 5 * 74 + 16, height - 32)))
        self.form.draw(surface)
