"""The replay viewer: the race re-simulated move by move, with play/pause, steps, jumps to the
start or end, a scrub bar, playback speed, and "take over" to race on from any point."""

from __future__ import annotations

import pygame

from racetrack.game import RaceState
from racetrack.replay import Replay
from racetrack.ui import theme
from racetrack.ui.input import Click, Intent, Key, Motion, Release, Resize, Wheel
from racetrack.ui.render import cars as draw_cars
from racetrack.ui.render import hud
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.sheet import SheetCache
from racetrack.ui.widgets import Button, Cycler, Form

SPEEDS = ("0.5x", "1x", "2x", "4x")
SECONDS_PER_MOVE = 0.6
CONTROLS_HEIGHT = 96


class ViewerScene:
    def __init__(self, app, replay: Replay, states: list[RaceState]):
        self.app = app
        self.replay = replay
        self.states = states  # states[k]: after k moves
        self.index = 0
        self.playing = False
        self.clock = 0.0
        self.camera = Camera(followed=False)
        self.sheet = SheetCache(replay.race.course)
        self.toasts: list[hud.Toast] = []
        self.trails = draw_cars.TrailCache()
        self.cards = hud.Cards()
        self.label_x: int | None = None
        self.scrubbing = False
        self.press: tuple[int, int] | None = None
        self.speed = Cycler(pygame.Rect(0, 0, 10, 10), choices=SPEEDS, size=24)
        self.speed.set("1x")
        self.form = Form()
        self._size = None
        self._layout()
        self.camera.fit(replay.race.track.bounds)

    # -- layout ---------------------------------------------------------------------------

    def _layout(self) -> None:
        width, height = self.app.size
        self.camera.width, self.camera.height = width, height - hud.bar_height() - CONTROLS_HEIGHT
        self.camera.offset_y = hud.bar_height()
        self.camera.scale = min(self.camera.scale, self.sheet.max_scale)
        y = height - CONTROLS_HEIGHT + 44
        buttons = [("|<", self.to_start), ("<", lambda: self.go(self.index - 1)),
                   ("play", self.toggle), (">", lambda: self.go(self.index + 1)),
                   (">|", self.to_end)]
        # On a narrow window the controls close up (and the move count under them goes).
        narrow = width < 1000
        step, wide = (62, 56) if narrow else (74, 66)
        widgets = [Button(pygame.Rect(16 + i * step, y, wide, 40), text=text, action=action,
                          size=26) for i, (text, action) in enumerate(buttons)]
        self.speed.rect = pygame.Rect(16 + 5 * step + 10, y, 110 if narrow else 130, 40)
        take = Button(pygame.Rect(width - (270 if narrow else 330), y, 140 if narrow else 160,
                                  40), text="Take over", action=self.take_over, size=26,
                      tooltip="Race on from this point")
        back = Button(pygame.Rect(width - (120 if narrow else 160), y, 104 if narrow else 144,
                                  40), text="Close", action=self.app.pop, size=26)
        self.label_x = self.speed.rect.right + 20 if not narrow else None
        self.form.widgets = [*widgets, self.speed, take, back]
        self.bar = pygame.Rect(16, height - CONTROLS_HEIGHT + 12, width - 32, 20)
        self._size = (width, height)

    # -- controls -------------------------------------------------------------------------

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def go(self, index: int) -> None:
        index = max(0, min(self.last, index))
        if index == self.index + 1:
            self._announce(index)
        self.index = index
        self.clock = 0.0

    def _announce(self, index: int) -> None:
        """Tell what the move leading to state ``index`` changed: a car out or finished,
        damage taken, the end of the race."""
        before, after = self.states[index - 1], self.states[index]
        for i, (old, new) in enumerate(zip(before.cars, after.cars, strict=True)):
            name = after.race.cars[i].name
            if new.status != old.status:
                self.toasts.append(hud.Toast(f"{name} {new.status.value}"))
            elif new.damage > old.damage:
                self.toasts.append(hud.Toast(f"{name} takes {new.damage - old.damage} damage"))
        if after.is_over and not before.is_over:
            self.toasts.append(hud.Toast(after.outcome.reason.capitalize()))

    def toggle(self) -> None:
        if self.index >= self.last:
            self.index = 0
        self.playing = not self.playing

    def to_start(self) -> None:
        self.go(0)
        self.playing = False

    def to_end(self) -> None:
        self.go(self.last)
        self.playing = False

    def take_over(self) -> None:
        from racetrack.ui.launch import continue_race

        state = self.states[self.index].clone()
        if state.is_over:
            self.toasts.append(hud.Toast("The race is over at this point"))
            return
        continue_race(self.app, self.replay.race, state, replace=True)

    def _scrub(self, x: int) -> None:
        t = (x - self.bar.x) / max(1, self.bar.w)
        self.go(round(t * self.last))

    # -- the scene ------------------------------------------------------------------------

    def handle(self, intent: Intent) -> None:
        if self._size != self.app.size or isinstance(intent, Resize):
            self._layout()
        if isinstance(intent, Key):
            actions = {"space": self.toggle, "right": lambda: self.go(self.index + 1),
                       "left": lambda: self.go(self.index - 1), "home": self.to_start,
                       "end": self.to_end, "plus": lambda: self.speed.step(1),
                       "minus": lambda: self.speed.step(-1), "escape": self.app.pop}
            if intent.name in actions:
                actions[intent.name]()
                return
        if isinstance(intent, Click) and self.bar.inflate(0, 16).collidepoint(intent.pos):
            self.scrubbing = True
            self._scrub(intent.pos[0])
            return
        if isinstance(intent, Motion) and self.scrubbing:
            self._scrub(intent.pos[0])
            return
        if isinstance(intent, Release) and self.scrubbing:
            self.scrubbing = False
            return
        if isinstance(intent, Wheel):
            self.camera.zoom(1.15 ** intent.steps, intent.pos)
            self.camera.scale = min(self.camera.scale, self.sheet.max_scale)
            return
        if self.form.handle(intent):
            return
        if isinstance(intent, Click):
            self.press = intent.pos
        elif isinstance(intent, Motion) and intent.dragging and self.press is not None:
            self.camera.pan(*intent.rel)
        elif isinstance(intent, Release):
            self.press = None

    def update(self, dt: float) -> None:
        if self._size != self.app.size:
            self._layout()
        for toast in self.toasts:
            toast.age += dt
        self.toasts = [t for t in self.toasts if t.age < t.life]
        self.form.widgets[2].text = "pause" if self.playing else "play"
        if not self.playing:
            return
        factor = float(self.speed.value.rstrip("x"))
        self.clock += dt * factor
        if self.clock >= SECONDS_PER_MOVE:
            if self.index >= self.last:
                self.playing = False
            else:
                self.go(self.index + 1)

    def draw(self, surface: pygame.Surface) -> None:
        state = self.states[self.index]
        surface.fill(theme.palette().paper)
        self.sheet.draw(surface, self.camera)
        draw_cars.draw_trails(surface, state, self.camera, cache=self.trails)
        draw_cars.draw_velocities(surface, state, self.camera)
        draw_cars.draw_cars(surface, state, self.camera)
        hud.draw_bar(surface, state, thinking=False, note=f"move {self.index} of {self.last}",
                     cards=self.cards)
        hud.draw_car_list(surface, state, (surface.get_width() - theme.px(8),
                                           hud.bar_height() + theme.px(8)), self.cards)
        width, height = surface.get_size()
        panel = pygame.Rect(0, height - CONTROLS_HEIGHT, width, CONTROLS_HEIGHT)
        pygame.draw.rect(surface, theme.PANEL, panel)
        pygame.draw.line(surface, theme.PANEL_EDGE, panel.topleft, panel.topright, 2)
        pygame.draw.rect(surface, (230, 226, 214), self.bar, border_radius=10)
        filled = self.bar.copy()
        filled.w = round(self.bar.w * (self.index / max(1, self.last)))
        pygame.draw.rect(surface, theme.HIGHLIGHT, filled, border_radius=10)
        knob = (self.bar.x + filled.w, self.bar.centery)
        pygame.draw.circle(surface, theme.TEXT, knob, 10)
        if self.label_x is not None:
            label = theme.font(22).render(f"move {self.index} of {self.last}", True,
                                          theme.MUTED)
            surface.blit(label, label.get_rect(midleft=(self.label_x, height - 32)))
        self.form.draw(surface)
        hud.draw_toasts(surface, self.toasts)
