"""Playing Graph Trees: click one of your nodes to choose where to draw from, then a green dot.

A track's tip extends that track (from its velocity: the dashed ghost shows the unchanged
segment); any other node, or a tip clicked a second time, starts a new track from rest. Orange
dots are refused, and hovering one says why. Territory is shaded as it changes. Computer
players choose on a worker thread from a copy of the state, so the window never freezes. Pass,
Agree to end and Menu are pygame_gui buttons; the paper is the game's own drawing.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor

import pygame

from racetrack.board.geometry import Vec
from racetrack.games.trees import Candidate, Move, MoveKind, TreesGame, TreesState
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.input import Click, Intent, Key, Motion, Release, Wheel
from racetrack.ui.panning import Drag
from racetrack.ui.render import hud
from racetrack.ui.render import trees as draw
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.words import tip
from racetrack.ui.scenes.form import FormScene
from racetrack.ui.waking import waking

log = logging.getLogger(__name__)
CONTROLS_HEIGHT = 64
COMPUTER_PAUSE = 0.35  # seconds between a computer's move and the next, so it can be followed


class TreesScene(FormScene):
    caption = "Graph Trees"
    idles = True

    def __init__(self, app, game: TreesGame, computers: dict, state: TreesState | None = None,
                 record=None, on_over=None):
        super().__init__(app)
        self.game = game
        self.computers = computers
        self.state = state or game.start()
        self.record = record
        self.on_over = on_over
        self.camera = Camera(followed=False)
        self.board = draw.BoardCache(game.rules.width, game.rules.height)
        self.turn_buttons: list = []
        self._place_camera(*app.size)
        self.camera.fit((0, 0, game.rules.width, game.rules.height), margin=1.6)
        self.source: Vec | None = None   # where the next segment is drawn from
        self.track: int | None = None    # the track it extends (None: a new track)
        self.hover: Vec | None = None
        self.mouse = (0, 0)
        self.drag = Drag()  # a held button: a click on a node or dot, or the paper dragged
        self.toasts: list[hud.Toast] = []
        self.workers = ThreadPoolExecutor(max_workers=1, thread_name_prefix="trees")
        self.thinking: Future | None = None
        self.pause = 0.0
        self.reported_over = False
        self.saving = None  # the finished game being written (a Saving)
        self.saving_said = False  # the toast about it shown

    @property
    def animating(self) -> bool:
        """Messages fading, or the pause before a computer's move (its move itself wakes the
        window when it is chosen)."""
        return bool(self.toasts) or (not self.state.is_over and not self.human_turn
                                     and self.thinking is None)

    # -- layout and helpers -------------------------------------------------------------------

    def _place_camera(self, width: int, height: int) -> None:
        self.camera.width = width
        self.camera.height = height - draw.BAR_HEIGHT - theme.px(CONTROLS_HEIGHT)
        self.camera.offset_x, self.camera.offset_y = 0, draw.BAR_HEIGHT

    def layout(self, page: Page, width: int, height: int) -> None:
        self._place_camera(width, height)
        y, tall = height - theme.px(CONTROLS_HEIGHT) + theme.px(10), theme.px(44)
        self.turn_buttons = [
            page.button((theme.px(16), y, theme.px(150), tall), "Pass", self.pass_turn,
                        tooltip="Leave the paper as it is this turn"),
            page.button((theme.px(176), y, theme.px(200), tall), "Agree to end", self.agree,
                        tooltip="The game ends when every player who can move agrees")]
        page.button((width - theme.px(166), y, theme.px(150), tall), "Menu", self.leave,
                    tooltip="Back to the Graph Trees menu (the game is kept to resume)")

    @property
    def human_turn(self) -> bool:
        return not self.state.is_over and self.state.current not in self.computers

    def candidates(self) -> list[Candidate]:
        if not self.human_turn or self.source is None:
            return []
        if self.track is not None:
            return self.state.candidates(tips=[self.track], nodes=[])
        return self.state.candidates(tips=[], nodes=[self.source])

    def choose_default_source(self) -> None:
        """The last track drawn that can go on, else a node with a legal new track."""
        player = self.state.current
        for track in reversed(self.state.track_ids(player)):
            if any(c.legal for c in self.state.candidates(tips=[track], nodes=[])):
                self.source, self.track = self.state.tracks[track].tip, track
                return
        for node in reversed(self.state.nodes(player)):
            if any(c.legal for c in self.state.candidates(tips=[], nodes=[node])):
                self.source, self.track = node, None
                return
        self.source, self.track = None, None

    def select(self, point: Vec) -> None:
        """Choose a node to draw from: a tip extends its track, clicked again it branches."""
        player = self.state.current
        track = self.state.track_with_tip(point, player)
        if track is not None and not (self.source == point and self.track == track):
            self.source, self.track = point, track
        else:
            self.source, self.track = point, None

    def near(self, pos: tuple[int, int], points) -> Vec | None:
        best, best_distance = None, max(10.0, self.camera.scale * 0.45)
        for point in points:
            x, y = self.camera.to_screen(*point)
            distance = ((x - pos[0]) ** 2 + (y - pos[1]) ** 2) ** 0.5
            if distance <= best_distance:
                best, best_distance = Vec(*point), distance
        return best

    # -- actions ------------------------------------------------------------------------------

    def play(self, move: Move) -> None:
        try:
            events = self.state.apply(move)
        except ValueError as exc:
            self.toasts.append(hud.Toast(str(exc)))
            return
        self.toasts += [hud.Toast(e) for e in events]
        self.source = self.track = None
        self.pause = COMPUTER_PAUSE
        if self.record:
            self.record(self.state)

    def pass_turn(self) -> None:
        if self.human_turn:
            self.play(Move(MoveKind.PASS))

    def agree(self) -> None:
        if self.human_turn:
            self.play(Move(MoveKind.AGREE))

    def leave(self) -> None:
        self.close()
        self.app.pop()

    def back(self) -> None:
        self.leave()

    def click(self, pos: tuple[int, int]) -> None:
        if not self.human_turn:
            return
        candidates = self.candidates()
        legal = {c.target: c for c in candidates if c.legal}
        spot = self.near(pos, legal)
        if spot is not None:
            self.play(legal[spot].move)
            return
        node = self.near(pos, self.state.nodes(self.state.current))
        if node is not None:
            self.select(node)
            return
        refused = {c.target: c for c in candidates if not c.legal}
        spot = self.near(pos, refused)
        if spot is not None:
            self.toasts.append(hud.Toast(f"Not there: {refused[spot].reason}"))

    # -- the scene ----------------------------------------------------------------------------

    def on_intent(self, intent: Intent) -> None:
        """Keys and the paper (the buttons had their turn; Esc leaves)."""
        if isinstance(intent, Key):
            if intent.name == "b" and self.source is not None:
                self.select(self.source)
            elif intent.name in ("plus", "minus"):
                self.camera.zoom(1.2 if intent.name == "plus" else 1 / 1.2)
            elif intent.name == "home":
                rules = self.game.rules
                self.camera.fit((0, 0, rules.width, rules.height), margin=1.6)
            return
        if isinstance(intent, Wheel):
            self.camera.zoom(1.15 ** intent.steps, intent.pos)
        elif isinstance(intent, Click):
            self.drag.start(intent.pos)
        elif isinstance(intent, Motion):
            self.mouse = intent.pos
            self.drag.move(self.camera, intent.pos, intent.rel, intent.dragging)
            self.hover = self.near(intent.pos, [c.target for c in self.candidates()])
        elif isinstance(intent, Release) and self.drag.end() and intent.button == 1:
            self.click(intent.pos)

    def update(self, dt: float) -> None:
        super().update(dt)
        for toast in self.toasts:
            toast.age += dt
        self.toasts = [t for t in self.toasts if t.age < t.life]
        for button in self.turn_buttons:
            if button.enabled != self.human_turn:
                button.enabled = self.human_turn
        if self.state.is_over:
            if not self.reported_over:
                self.reported_over = True
                if self.on_over:
                    self.saving = self.on_over(self.state)
            elif self.saving is not None and self.saving.done and not self.saving_said:
                self.saving_said = True  # said once, when on disk
                saving = self.saving
                self.toasts.append(hud.Toast(saving.problem if saving.problem or
                                             saving.path is None else
                                             f"Game saved as {saving.path.name}"))
            return
        if self.human_turn:
            if self.source is None:
                self.choose_default_source()
            return
        self.pause -= dt
        index = self.state.current
        if self.thinking is None and self.pause <= 0:
            self.thinking = waking(self.workers.submit(self.computers[index].choose,
                                                       self.state.clone()))
        elif self.thinking is not None and self.thinking.done():
            future, self.thinking = self.thinking, None
            try:
                move = future.result()
            except Exception as exc:  # a computer's failure must not close the window
                log.exception("computer player failed")
                self.toasts.append(hud.Toast(f"The computer failed ({exc}); it agrees to end"))
                move = Move(MoveKind.AGREE)
            self.play(move)

    def note(self) -> str:
        if not self.human_turn:
            return "thinking…" if self.thinking is not None else ""
        if self.source is None:
            return "no move: pass or agree to end"
        if self.track is not None:
            speed = self.state.tracks[self.track].velocity.speed
            return (f"extending track {self.track + 1} (speed {speed}) · click the tip again "
                    "or press B for a new track from it")
        return f"a new track from {self.source.x},{self.source.y} (standing start)"

    def draw(self, surface: pygame.Surface) -> None:
        draw.draw_board(surface, self.state, self.camera, self.board)
        if self.human_turn:
            draw.draw_selection(surface, self.state, self.camera, self.source, self.track)
            draw.draw_candidates(surface, self.camera, self.candidates(), self.hover)
        draw.draw_bar(surface, self.state, self.note())
        width, height = surface.get_size()
        panel = pygame.Rect(0, height - theme.px(CONTROLS_HEIGHT), width,
                            theme.px(CONTROLS_HEIGHT))
        pygame.draw.rect(surface, theme.PANEL, panel)
        pygame.draw.line(surface, theme.PANEL_EDGE, panel.topleft, panel.topright, 2)
        hud.draw_toasts(surface.subsurface((0, 0, width, panel.y)), self.toasts)  # above
        if self.hover is not None:
            refused = next((c for c in self.candidates()
                            if c.target == self.hover and not c.legal), None)
            if refused is not None:
                tip(surface, refused.reason, (self.mouse[0] + 16, self.mouse[1]))

    def close(self) -> None:
        self.workers.shutdown(wait=False, cancel_futures=True)
