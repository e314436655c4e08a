"""Watching a recorded game, race or Graph Trees: the game re-simulated move by move, with
play/pause, steps, jumps to the start or end, a scrub bar, playback speed, and "Take over" to
play on from any point.

The scene is written once over the games' shared protocol (``racetrack.games.protocol``) and a
recording (``racetrack.games.recording``); what differs is how a game is drawn, which a small board
says (``RaceBoard``, ``TreesBoard``): the paper and what is on it, the bar at the top, what a
move changed. The buttons and the speed list are pygame_gui's; the scrub bar is drawn, because
pygame_gui's slider moves only by dragging its handle or stepping with its arrows, and a scrub
bar must jump to the move under a click.
"""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from racetrack.games.race import RaceState
from racetrack.games.recording import Recording
from racetrack.games.trees import TreesGame, TreesState
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.input import Click, Intent, Key, Motion, Release, Wheel
from racetrack.ui.panning import Drag
from racetrack.ui.render import cars as draw_cars
from racetrack.ui.render import gadgets, hud
from racetrack.ui.render import trees as draw_trees
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.sheet import SheetCache
from racetrack.ui.scenes.form import FormScene

SPEEDS = ("0.5x", "1x", "2x", "4x")
SECONDS_PER_MOVE = 0.6
#: The panel under the paper: the scrub bar, then a row of controls.
CONTROLS_HEIGHT = 96


class Board(Protocol):
    """What the playback needs of a game's drawing."""

    def bar_height(self) -> int: ...

    def fit(self, camera: Camera) -> None: ...

    def clamp(self, camera: Camera) -> None: ...

    def draw(self, surface: pygame.Surface, state: Any, camera: Camera) -> None: ...

    def draw_bar(self, surface: pygame.Surface, state: Any, note: str) -> None: ...

    def note(self, state: Any, index: int, last: int) -> str: ...

    def announce(self, before: Any, after: Any) -> list[str]: ...


class RaceBoard:
    """A race on its sheet: trails, velocities, cars, the list of cars."""

    def __init__(self, recording: Recording):
        self.race = recording.setup
        self.sheet = SheetCache(self.race.course)
        self.trails = draw_cars.TrailCache()
        self.cards = hud.Cards()

    def bar_height(self) -> int:
        return hud.bar_height()

    def fit(self, camera: Camera) -> None:
        camera.fit(self.race.track.bounds)
        self.clamp(camera)

    def clamp(self, camera: Camera) -> None:
        camera.scale = min(camera.scale, self.sheet.max_scale)

    def draw(self, surface: pygame.Surface, state: RaceState, camera: Camera) -> None:
        surface.fill(theme.palette().paper)
        self.sheet.draw(surface, camera)
        gadgets.draw_paper_items(surface, state, camera)  # oil sprayed, missiles in flight
        draw_cars.draw_trails(surface, state, camera, cache=self.trails)
        draw_cars.draw_velocities(surface, state, camera)
        draw_cars.draw_cars(surface, state, camera)
        hud.draw_car_list(surface, state, (surface.get_width() - theme.px(8),
                                           hud.bar_height() + theme.px(8)), self.cards)

    def draw_bar(self, surface: pygame.Surface, state: RaceState, note: str) -> None:
        hud.draw_bar(surface, state, thinking=False, note=note, cards=self.cards)

    def note(self, state: RaceState, index: int, last: int) -> str:
        return f"move {index} of {last}"

    def announce(self, before: RaceState, after: RaceState) -> list[str]:
        """A car out or finished, damage taken."""
        said = []
        for i, (old, new) in enumerate(zip(before.cars, after.cars, strict=True)):
            name = after.race.cars[i].name
            if new.status != old.status:
                said.append(f"{name} {new.status.value}")
            elif new.damage > old.damage:
                said.append(f"{name} takes {new.damage - old.damage} damage")
        return said


class TreesBoard:
    """A game of Graph Trees on its sheet: the tracks and the territory."""

    def __init__(self, recording: Recording):
        rules = recording.setup.rules
        self.size = (rules.width, rules.height)
        self.board = draw_trees.BoardCache(rules.width, rules.height)

    def bar_height(self) -> int:
        return draw_trees.BAR_HEIGHT

    def fit(self, camera: Camera) -> None:
        camera.fit((0, 0, *self.size), margin=1.6)

    def clamp(self, camera: Camera) -> None:
        """The board has no largest scale of its own."""

    def draw(self, surface: pygame.Surface, state: TreesState, camera: Camera) -> None:
        draw_trees.draw_board(surface, state, camera, self.board)

    def draw_bar(self, surface: pygame.Surface, state: TreesState, note: str) -> None:
        draw_trees.draw_bar(surface, state, note)

    def note(self, state: TreesState, index: int, last: int) -> str:
        if not state.history:
            return f"the start · {last} moves"
        player, move = state.history[-1]
        return f"move {index} of {last}: {state.game.players[player].name} {move}"

    def announce(self, before: TreesState, after: TreesState) -> list[str]:
        """A pass or an agreement to end (a drawn segment shows itself)."""
        player, move = after.history[-1]
        return [] if move.places else [f"{after.game.players[player].name} {move}"]


def board_for(recording: Recording) -> Board:
    """The drawing for a recording's game."""
    return TreesBoard(recording) if isinstance(recording.setup, TreesGame) \
        else RaceBoard(recording)


class PlaybackScene(FormScene):
    """A recorded game, state by state (``states[k]``: after ``k`` moves)."""

    caption = "Replay"

    def __init__(self, app, recording: Recording, states: list, board: Board | None = None):
        super().__init__(app)
        self.recording = recording
        self.states = states
        self.board = board or board_for(recording)
        self.index = 0
        self.playing = False
        self.clock = 0.0
        self.speed = "1x"
        self.camera = Camera(followed=False)
        self.toasts: list[hud.Toast] = []
        self.scrubbing = False
        self.drag = Drag(threshold=0)  # the paper follows a held button from its first pixel
        self.bar = pygame.Rect(0, 0, 0, 0)
        self.label_x: int | None = None
        self.play_button = self.speed_list = None
        # Taking over: the seats chosen to become human (``None``: not choosing).
        self.choosing: set[int] | None = None
        self.seat_toggles: list = []
        self._place_camera(*app.size)
        self.board.fit(self.camera)

    @property
    def replay(self) -> Recording:
        """The recording, by the name the race screens use."""
        return self.recording

    # -- layout ---------------------------------------------------------------------------

    def _place_camera(self, width: int, height: int) -> None:
        top = self.board.bar_height()
        self.camera.width, self.camera.height = width, height - top - theme.px(CONTROLS_HEIGHT)
        self.camera.offset_y = top
        self.board.clamp(self.camera)

    def layout(self, page: Page, width: int, height: int) -> None:
        self._place_camera(width, height)
        if self.choosing is not None:
            self._layout_choosing(page, width, height)
            return
        panel = height - theme.px(CONTROLS_HEIGHT)
        self.bar = pygame.Rect(theme.px(16), panel + theme.px(12), width - theme.px(32),
                               theme.px(20))
        y, tall = panel + theme.px(44), theme.px(40)
        narrow = width < theme.px(1000)
        step, wide = (theme.px(60), theme.px(54)) if narrow else (theme.px(72), theme.px(64))
        tips = ("The start (Home)", "One move back (left)", "Play or pause (space)",
                "One move on (right)", "The end (End)")
        buttons = [("|<", self.to_start), ("<", lambda: self.go(self.index - 1)),
                   ("pause" if self.playing else "play", self.toggle),
                   (">", lambda: self.go(self.index + 1)), (">|", self.to_end)]
        for number, ((text, action), tip) in enumerate(zip(buttons, tips, strict=True)):
            made = page.button((theme.px(16) + number * step, y, wide, tall), text, action,
                               tooltip=tip)
            if number == 2:
                self.play_button = made
        speed_x = theme.px(16) + 5 * step + theme.px(8)
        speed_width = theme.px(100 if narrow else 120)
        self.speed_list = page.choice((speed_x, y, speed_width, tall), SPEEDS, self.speed,
                                      self._speed_changed,
                                      tooltip="Playback speed (+ and -)")
        self.label_x = speed_x + speed_width + theme.px(16) if not narrow else None
        close = theme.px(104 if narrow else 140)
        take = theme.px(140 if narrow else 160)
        page.button((width - theme.px(16) - close - theme.px(12) - take, y, take, tall),
                    "Take over", self.take_over,
                    tooltip="Play on from this point: choose who you play")
        page.button((width - theme.px(16) - close, y, close, tall), "Close", self.back)

    def _layout_choosing(self, page: Page, width: int, height: int) -> None:
        """The panel while taking over: a box per player (ticked: you play it from here on,
        unticked: the computer goes on playing it), then Play on and Cancel."""
        panel = height - theme.px(CONTROLS_HEIGHT)
        self.bar = pygame.Rect(0, 0, 0, 0)
        noun = "cars" if isinstance(self.states[0], RaceState) else "players"
        page.label((theme.px(16), panel + theme.px(8), width - theme.px(32), theme.px(28)),
                   f"Take over which {noun}? Ticked: you play it from this point on; the "
                   "others play themselves.")
        y, tall = panel + theme.px(44), theme.px(40)
        play, cancel = theme.px(120), theme.px(104)
        room = width - theme.px(48) - play - cancel - theme.px(12)
        names = self.recording.players
        each = max(theme.px(60), min(theme.px(170), room // max(1, len(names))))
        box = theme.px(24)
        self.seat_toggles = []
        for seat, name in enumerate(names):
            x = theme.px(16) + seat * each
            shown = name if len(name) <= 14 else name[:13] + "…"
            self.seat_toggles.append(page.toggle(
                (x, y + tall // 2 - box // 2, box, box), "", seat in self.choosing,
                lambda on, seat=seat: self.choose_seat(seat, on), tooltip=name))
            page.label((x + box + theme.px(4), y, each - box - theme.px(10), tall), shown)
        page.button((width - theme.px(16) - cancel - theme.px(12) - play, y, play, tall),
                    "Play on", self.confirm_take_over, style="primary")
        page.button((width - theme.px(16) - cancel, y, cancel, tall), "Cancel",
                    self.cancel_take_over)

    def first_focus(self, page: Page) -> int:
        return page.widgets.index(self.play_button) if self.play_button in page.widgets else 0

    # -- controls -------------------------------------------------------------------------

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def go(self, index: int) -> None:
        """Show the state after ``index`` moves: one move on tells what it changed; a jump
        anywhere else drops what was told, which would speak of other moves."""
        index = max(0, min(self.last, index))
        if index == self.index + 1:
            self._announce(index)
        elif index != self.index:
            self.toasts.clear()
        self.index = index
        self.clock = 0.0

    def _announce(self, index: int) -> None:
        """Tell what the move leading to state ``index`` changed, and the end of the game."""
        before, after = self.states[index - 1], self.states[index]
        self.toasts += [hud.Toast(words) for words in self.board.announce(before, after)]
        if after.is_over and not before.is_over:
            self.toasts.append(hud.Toast(after.outcome.reason.capitalize()))

    def toggle(self) -> None:
        """Play or pause; play at the end starts again from the start."""
        if not self.playing and self.index >= self.last:
            self.go(0)
        self._set_playing(not self.playing)

    def _set_playing(self, playing: bool) -> None:
        self.playing = playing
        if self.play_button is not None:
            self.play_button.text = "pause" if playing else "play"

    def to_start(self) -> None:
        self.go(0)
        self._set_playing(False)

    def to_end(self) -> None:
        self.go(self.last)
        self._set_playing(False)

    def _speed_changed(self, value: str) -> None:
        self.speed = value

    def step_speed(self, by: int) -> None:
        index = max(0, min(len(SPEEDS) - 1, SPEEDS.index(self.speed) + by))
        self.speed = SPEEDS[index]
        if self.speed_list is not None:
            self.speed_list.set(self.speed)

    def take_over(self) -> None:
        """Choose who to take over (the player to move at this point, to begin with)."""
        state = self.states[self.index]
        if state.is_over:
            self.toasts.append(hud.Toast(f"The {self.recording.noun} is over at this point"))
            return
        self.playing = False
        self.choosing = {state.current_player}
        self.relayout()

    def choose_seat(self, seat: int, on: bool) -> None:
        assert self.choosing is not None
        if on:
            self.choosing.add(seat)
        else:
            self.choosing.discard(seat)

    def cancel_take_over(self) -> None:
        self.choosing = None
        self.relayout()

    def confirm_take_over(self) -> None:
        """Play on as a new game, the chosen players human, in place of the playback."""
        if not self.choosing:
            self.toasts.append(hud.Toast("Tick at least one to take over"))
            return
        try:
            self.app.routes.take_over(self.recording.setup, self.states[self.index],
                                      sorted(self.choosing))
        except ValueError as exc:
            self.toasts.append(hud.Toast(str(exc).capitalize()))

    def _scrub(self, x: int) -> None:
        t = (x - self.bar.x) / max(1, self.bar.w)
        self.go(round(t * self.last))

    # -- the scene ------------------------------------------------------------------------

    KEYS = {"space": "toggle", "right": "forward", "left": "backward", "home": "to_start",
            "end": "to_end", "plus": "faster", "minus": "slower", "escape": "back"}

    def handle(self, intent: Intent) -> None:
        self.ensure_layout()
        if self.page.modal:
            return
        if self.choosing is not None:
            if isinstance(intent, Key) and intent.name == "escape":
                self.cancel_take_over()
            elif not self.page.handle(intent):
                self.on_intent(intent)
            return
        if isinstance(intent, Key) and intent.name in self.KEYS:
            {"toggle": self.toggle, "forward": lambda: self.go(self.index + 1),
             "backward": lambda: self.go(self.index - 1), "to_start": self.to_start,
             "to_end": self.to_end, "faster": lambda: self.step_speed(1),
             "slower": lambda: self.step_speed(-1), "back": self.back,
             }[self.KEYS[intent.name]]()
            return
        if self.page.handle(intent):
            return
        self.on_intent(intent)

    def on_intent(self, intent: Intent) -> None:
        if isinstance(intent, Click) and self.bar.inflate(0, theme.px(16)).collidepoint(
                intent.pos):
            self.scrubbing = True
            self._scrub(intent.pos[0])
        elif isinstance(intent, Motion) and self.scrubbing:
            self._scrub(intent.pos[0])
        elif isinstance(intent, Release) and self.scrubbing:
            self.scrubbing = False
        elif isinstance(intent, Wheel):
            self.camera.zoom(1.15 ** intent.steps, intent.pos)
            self.board.clamp(self.camera)
        elif isinstance(intent, Click):
            self.drag.start(intent.pos)
        elif isinstance(intent, Motion):
            self.drag.move(self.camera, intent.pos, intent.rel, intent.dragging)
        elif isinstance(intent, Release):
            self.drag.end()

    def update(self, dt: float) -> None:
        super().update(dt)
        for toast in self.toasts:
            toast.age += dt
        self.toasts = [t for t in self.toasts if t.age < t.life]
        if not self.playing:
            return
        self.clock += dt * float(self.speed.rstrip("x"))
        while self.playing and self.clock >= SECONDS_PER_MOVE:
            carried = self.clock - SECONDS_PER_MOVE  # fast playback keeps its pace
            self.go(self.index + 1)
            self.clock = carried
            if self.index >= self.last:
                self._set_playing(False)  # the end: it stays on the last move

    def draw(self, surface: pygame.Surface) -> None:
        state = self.states[self.index]
        self.board.draw(surface, state, self.camera)
        self.board.draw_bar(surface, state, self.board.note(state, self.index, self.last))
        width, height = surface.get_size()
        panel = pygame.Rect(0, height - theme.px(CONTROLS_HEIGHT), width,
                            theme.px(CONTROLS_HEIGHT))
        pygame.draw.rect(surface, theme.PANEL, panel)
        pygame.draw.line(surface, theme.PANEL_EDGE, panel.topleft, panel.topright, 2)
        paper = surface.subsurface(pygame.Rect(0, 0, width, panel.y))  # toasts clear of it
        if self.choosing is not None:
            hud.draw_toasts(paper, self.toasts)
            return
        radius = self.bar.h // 2
        pygame.draw.rect(surface, (230, 226, 214), self.bar, border_radius=radius)
        filled = self.bar.copy()
        filled.w = round(self.bar.w * (self.index / max(1, self.last)))
        pygame.draw.rect(surface, theme.HIGHLIGHT, filled, border_radius=radius)
        pygame.draw.circle(surface, theme.TEXT, (self.bar.x + filled.w, self.bar.centery),
                           radius)
        if self.label_x is not None:
            label = theme.ui_font(20).render(f"move {self.index} of {self.last}", True,
                                             theme.MUTED)
            surface.blit(label, label.get_rect(midleft=(self.label_x,
                                                        height - theme.px(32))))
        hud.draw_toasts(paper, self.toasts)
