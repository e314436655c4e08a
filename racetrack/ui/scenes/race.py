"""The race: graph paper, pencil trails, candidate points to click, computer cars that think off
the frame and glide to their point.

Clicks (or keys: the keypad's digits or the top row's, or the arrows and Enter, see
``ui.picking``) become a ``Move``; the core decides whether it is legal. A move that puts the
player's car out asks first: a second click on the point, or Enter. Computer drivers choose on
a worker thread from a copy of the state, and their move is animated before the next turn, so
the window never freezes and never teleports a car; once no person is left racing, one button
(or Enter) has them finish the race at once.

Where the race allows it (a race setting, off where records count), the player takes back their
last move and the computer moves made since (``racetrack.games.takeback``): the race goes on
from the state a replay of the moves that stood gives, and only those moves are saved.

Every candidate says what it does before the click: its mark (safe, into the wall, off the
track, into a car, over the finish, special, refused) and, under the mouse, a line with the
numbers. The core works those out (``racetrack.games.outlook``) a slice of each frame from the start
of the human's turn (``ui.lookout``); until they arrive the marks come from the candidates' kinds
alone.

The race opens on the whole track with the draw for the order of play, then follows the cars at
the zoom the player last chose (kept from race to race), keeping the car to move and every point
it may go to in view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import pygame

from racetrack.board.geometry import Vec
from racetrack.engine.model import Action, Candidate, Event, EventKind, Move
from racetrack.games.outlook import Outlook, outlook
from racetrack.games.playout import play_out
from racetrack.games.race import Race, RaceState
from racetrack.games.takeback import take_back_point, taken_back
from racetrack.search.drivers import Driver
from racetrack.ui import picking, theme
from racetrack.ui.gui import Button
from racetrack.ui.input import Click, Intent, Key, Motion, Release, Resize, Wheel
from racetrack.ui.lookout import Lookout
from racetrack.ui.panning import KEY_PANS, Drag, pan_by_key
from racetrack.ui.render import cars as draw_cars
from racetrack.ui.render import gadgets, hud, marks
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.sheet import SheetCache
from racetrack.ui.scenes.race_camera import WHOLE_MARGIN, RaceCamera
from racetrack.ui.waking import waking

SHOWN_EVENTS = {EventKind.CRASHED, EventKind.COLLIDED, EventKind.LAP, EventKind.FINISHED,
                EventKind.OUT, EventKind.MISSED_TURN, EventKind.STUCK, EventKind.BLOCKED,
                EventKind.LEFT_TRACK,
                EventKind.BACK_ON_TRACK, EventKind.CHECKPOINT, EventKind.RACE_OVER,
                EventKind.USED, EventKind.COLLECTED, EventKind.MISSILE_FIRED,
                EventKind.MISSILE_HIT, EventKind.MISSILE_GONE, EventKind.OIL_SPRAYED,
                EventKind.SHOT}
#: Keys that arm an action for the next move (James Bond mode).
ACTION_KEYS = {key: action for action, key in gadgets.ACTION_KEYS.items()}
#: The action buttons' words (bottom left, for the current human car's actions).
ACTION_WORDS = {Action.MISSILE: ("Fire missile", "Missile armed"),
                Action.OIL: ("Spray oil", "Oil armed")}
ACTION_BUTTON = (210, 44)
#: The keys that take back the player's last move.
TAKE_BACK_KEYS = ("backspace", "ctrl+z")
log = logging.getLogger(__name__)
#: How long the start's announcement shows over the whole track (a click or a key ends it).
INTRO_SECONDS = 3.2


@dataclass
class Glide:
    """A car moving along its last segment on screen."""

    car: int
    start: Vec
    end: Vec
    seconds: float
    elapsed: float = 0.0

    @property
    def done(self) -> bool:
        return self.elapsed >= self.seconds

    def where(self) -> tuple[float, float]:
        t = 1.0 if self.seconds <= 0 else min(1.0, self.elapsed / self.seconds)
        t = t * t * (3 - 2 * t)
        return (self.start.x + (self.end.x - self.start.x) * t,
                self.start.y + (self.end.y - self.start.y) * t)


class RaceScene(RaceCamera):
    def __init__(self, app, race: Race, drivers: dict[int, Driver],
                 animation_seconds: float = 0.35, on_over=None, state: RaceState | None = None,
                 record=None, intro: bool = True, undo: bool = False):
        self.app = app
        self.undo = undo  # whether the player may take moves back (a race setting)
        # The people's cars: every car no computer drives.
        self.humans = frozenset(range(len(race.cars))) - frozenset(drivers)
        self.record = record  # called with the state after every move (autosave)
        self.progress = None  # the file the race in progress is kept in (set by routes)
        # Where the pause menu's way out leads instead of the menu (a test race: back to the
        # editor): its words and what it does.
        self.back_to: tuple[str, Callable[[], None]] | None = None
        self.race = race
        self.drivers = drivers
        self.animation_seconds = animation_seconds
        # Called when the race is over with the final state and the autosaves' executor
        # (its queued writes land before the finished race is saved).
        self.on_over = on_over
        self.state = state or race.start()
        self.camera = Camera()
        self.sheet = SheetCache(race.course)
        self.trail_cache = draw_cars.TrailCache()
        self.cards = hud.Cards()
        self._resize(app.size)
        self.camera.fit(race.track.bounds, WHOLE_MARGIN)
        self.camera.scale = min(self.camera.scale, self.sheet.max_scale)
        self.camera.followed = False
        # The app's own memory: the file is written behind the frame, maybe not yet.
        remembered = app.settings.zoom
        self.follow_scale = remembered  # None: a comfortable zoom for the window
        self.zoomed = False  # the player chose a zoom in this race (kept for the next)
        self.intro = INTRO_SECONDS if intro else 0.0
        self.hover: Vec | None = None
        self.chosen: Vec | None = None  # the point the arrow keys have highlighted
        self.pending: Vec | None = None  # a move that puts the car out, asked about
        self.mouse = (0, 0)
        self.toasts: list[hud.Toast] = []
        self.glide: Glide | None = None
        self.workers = ThreadPoolExecutor(max_workers=1, thread_name_prefix="driver")
        # What each candidate does, worked out in a slice of each frame.
        self.lookout = Lookout(race)
        self._drivers_race: Race | None = None  # the drivers' thread's (see _drivers_copy)
        # The race in progress is written after every move, off the frame, in order.
        self.saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        self.thinking: Future | None = None
        self.finishing: Future | None = None  # the race played out by the computers
        self.preparing: Future | None = waking(self.workers.submit(self._prepare,
                                                                   self._drivers_copy()))
        self.drag = Drag()  # a held button: a click on a point, or the paper dragged
        self.camera_moving = False  # the camera moved on the last frame
        self.over_for = 0.0
        self.armed: Action | None = None  # fired or sprayed with the next move
        self._actions_key: tuple | None = None  # what the action buttons were made for
        self._actions_page = None
        self._buttons: list[tuple[Action, Button]] = []
        self.take_back_button: Button | None = None
        self.finish_button: Button | None = None
        self._show(self.state.take_events(), sound=False)
        self._save()
        if not intro:
            self._start_following()

    # -- helpers --------------------------------------------------------------------------

    def _prepare(self, state: RaceState) -> None:
        """Build the computer drivers' tables off the frame (from a copy made on the frame)."""
        for index, driver in self.drivers.items():
            prepare = getattr(driver, "prepare", None)
            if prepare:
                prepare(state.clone(), index)

    def _drivers_copy(self) -> RaceState:
        """A copy of the state for the drivers' thread, on a course of its own (shapely's
        prepared geometry may not be asked questions from two threads at once)."""
        if self._drivers_race is None:
            race = self.race
            self._drivers_race = Race(race.track, race.rules, race.cars, seed=race.seed)
        copy = self.state.clone()
        copy.race = self._drivers_race
        return copy

    def _resize(self, size: tuple[int, int]) -> None:
        width, height = size
        bar = hud.bar_height()
        self.camera.width, self.camera.height = width, height - bar
        self.camera.offset_x, self.camera.offset_y = 0, bar
        self.camera.scale = min(self.camera.scale, self.sheet.max_scale)

    def intro_lines(self) -> list[str]:
        """The start's announcement: the race, who moves first and why, how to play."""
        race, state = self.race, self.state
        names = [race.cars[i].name for i in race.order]
        lines = [f"{race.track.name} · {race.rules.name} rules"]
        if state.history:
            current = state.current_car
            who = race.cars[current].name if current is not None else "nobody"
            lines.append(f"Race resumed at turn {state.round}: {who} to move")
        elif state.placing:
            first = race.cars[state.current_car].name
            lines.append(f"Cars choose their start points: {first} chooses first "
                         "(the car that moves last)")
        elif len(names) == 1:
            lines.append("A time trial: finish in as few turns as you can")
        elif race.rules.turn_order == "lots":
            lines.append(f"Lots drawn for the order: {names[0]} drew first move, then "
                         + ", ".join(names[1:]))
        else:
            lines.append(f"{names[0]} moves first, then " + ", ".join(names[1:]))
        if any(car.is_human for car in race.cars):
            lines.append("Click a dot to move (or the arrows and Enter) · point at a dot to "
                         "see what it does · Esc: pause and how to play")
        return lines

    @property
    def caption(self) -> str:
        return f"race on {self.race.track.name}"

    @property
    def human_turn(self) -> bool:
        index = self.state.current_car
        return index is not None and index not in self.drivers and self.glide is None

    @property
    def people_done(self) -> bool:
        """Whether no person's car races on while the race does: the computers' cars may
        finish it at once (``finish_now``)."""
        return not self.state.is_over and not any(self.state.cars[i].racing
                                                  for i in self.humans)

    @property
    def can_take_back(self) -> bool:
        """Whether the race allows taking moves back and a person has one to take back."""
        return (self.undo and not self.state.is_over and self.finishing is None
                and take_back_point(self.state, self.humans) is not None)

    @property
    def animating(self) -> bool:
        """Whether the picture changes without input (the window draws every frame then;
        otherwise it sleeps until an input or a finished job wakes it): the start's
        announcement, a car gliding, messages fading, the camera catching up, the turn's
        outlooks still being worked out, the results about to follow."""
        return bool(self.intro or self.glide is not None or self.toasts
                    or self.camera_moving
                    or (self.human_turn and not self.lookout.complete)
                    or (self.state.is_over and self.on_over is not None))

    def current_outlooks(self) -> list[Outlook]:
        """What each of the human car's candidates does, as far as worked out this turn (the
        rest by their kinds alone; ``Lookout`` fills them in a slice of each frame)."""
        return self.lookout.outlooks(self.state) if self.human_turn else []

    def finish_outlooks(self) -> list[Outlook]:
        """Every outlook of the turn now (tests and pictures wait for them)."""
        return self.lookout.finish(self.state) if self.human_turn else []

    def outlook_at(self, target: Vec | None) -> Outlook | None:
        if target is None:
            return None
        return next((o for o in self.current_outlooks() if o.target == target), None)

    def candidate_near(self, pos: tuple[int, int]) -> Candidate | None:
        """The candidate whose point is nearest the mouse, if it is close enough to mean it."""
        if not self.human_turn:
            return None
        best, best_distance = None, max(10.0, self.camera.scale * 0.45)
        for candidate in self.state.candidates():
            x, y = self.camera.to_screen(*candidate.target)
            distance = ((x - pos[0]) ** 2 + (y - pos[1]) ** 2) ** 0.5
            if distance <= best_distance:
                best, best_distance = candidate, distance
        return best

    def choose(self, candidate: Candidate) -> None:
        """A person's choice of a point (a click, a key): refused with the reason, played, or,
        where it puts the car out of the race, asked about first: the same point again (or
        Enter) plays it, Esc or any other point does not."""
        if not candidate.legal:
            self.toasts.append(hud.Toast(f"Not there: {candidate.reason}"))
            return
        if self.pending != candidate.target and self.puts_out(candidate):
            self.pending = self.chosen = candidate.target
            self.toasts.append(hud.Toast("That move puts your car out of the race: choose the "
                                         "point again (or press Enter) to make it"))
            self.app.sound.play("click")
            return
        self.play(candidate.move)

    def puts_out(self, candidate: Candidate) -> bool:
        """Whether choosing the candidate puts the current car out of the race (the core
        plays it on a copy to tell)."""
        return outlook(self.state, candidate).out

    def take_back(self) -> None:
        """Take back the last move of a person's car and every computer move made since: the
        race goes on from the state a replay of the moves that stood gives."""
        if not self.can_take_back:
            self.toasts.append(hud.Toast("No move of yours to take back" if self.undo else
                                         "Moves cannot be taken back in this race"))
            return
        self.state = taken_back(self.state, self.humans)
        self.thinking = None  # a driver's choice for the state given up is never played
        self.glide = None
        self.chosen = self.pending = None
        self.armed = None
        self.toasts.append(hud.Toast("Move taken back"))
        self.app.sound.play("click")
        self._save()

    def finish_now(self) -> None:
        """No person races on: the computers play the race out at once, off the frame."""
        if not self.people_done or self.finishing is not None:
            return
        self.thinking = None
        self.glide = None
        self.finishing = waking(self.workers.submit(play_out, self._drivers_copy(),
                                                    self.drivers))

    def _take_finished(self) -> None:
        """The computers' race is in: it becomes the race (their moves are its history)."""
        job = self.finishing
        if job is None or not job.done():
            return
        self.finishing = None
        try:
            final = job.result()
        except Exception as exc:  # a driver's failure must not close the window
            log.exception("computer drivers failed to finish the race")
            self.toasts.append(hud.Toast(f"The computers could not finish the race ({exc})"))
            return
        final.race = self.race
        final.take_events()
        self.state = final
        outcome = final.outcome
        if outcome is not None:
            winner = self.race.cars[outcome.winner].name if outcome.winner is not None \
                else "nobody"
            self.toasts.append(hud.Toast(f"{winner} wins ({outcome.reason})"))
        self._save()

    def play(self, move: Move) -> None:
        """Apply a move (the core checks it) and start its glide."""
        index = self.state.current_car
        start = self.state.cars[index].position
        if self.armed is not None and index not in self.drivers and move.action is None:
            move = Move(move.target, self.armed)
        try:
            events = self.state.apply(move)
        except ValueError as exc:
            self.toasts.append(hud.Toast(str(exc)))
            return
        self.armed = None
        self.chosen = self.pending = None
        self.glide = Glide(index, start, self.state.trails[index][-1] if
                           self.state.trails[index] else move.target,
                           self.animation_seconds if index in self.drivers else
                           self.animation_seconds / 2)
        self._show(events)
        self._save()

    def _show(self, events: list[Event], sound: bool = True) -> None:
        for event in events:
            if event.kind in SHOWN_EVENTS:
                self.toasts.append(hud.Toast(event.message))
        if sound:
            self.app.sound.events(events)

    def arm(self, action: Action) -> None:
        """Arm an action for the human car's next move, or disarm it if it is armed."""
        if self.armed is action:
            self.armed = None
        elif action in self.state.actions():
            self.armed = action
            self.toasts.append(hud.Toast(f"{action.value} armed: it goes with your next move"))
        else:
            self.toasts.append(hud.Toast(f"No {action.value} to use now"))

    def action_buttons(self) -> list[tuple[Action, Button]]:
        """The race's buttons, stacked up from the bottom left of the scene's pygame_gui page
        (each with its key on it and a tooltip): "Finish the race" once no person races on,
        "Take back" while a person has a move to take back, and what the human car may do
        this turn besides moving, in the order of ``state.actions()`` (none on a computer
        car's turn). Made again only when what they offer or the window changes. Returns
        the action buttons."""
        actions = [] if not self.human_turn or self.state.placing else self.state.actions()
        finish = self.people_done and self.finishing is None
        key = (tuple(actions), self.armed, self.can_take_back, finish, self.app.layout_key)
        page = self.app.page(self)
        if key != self._actions_key or page is not self._actions_page:
            self._actions_key, self._actions_page = key, page
            page.clear()
            height = theme.px(ACTION_BUTTON[1])
            rows = iter(range(1, 9))

            def slot(words: str, style: str | None = None) -> pygame.Rect:
                """The next place up the stack, as wide as its words need."""
                width = max(theme.px(ACTION_BUTTON[0]), page.text_width(words, style)
                            + theme.px(28))
                return pygame.Rect(theme.px(14), self.app.size[1] - theme.px(6)
                                   - (height + theme.px(8)) * next(rows), width, height)

            self.finish_button = self.take_back_button = None
            if finish:
                words = "Finish the race  [Enter]"
                self.finish_button = page.button(
                    slot(words, "primary"), words, self.finish_now, style="primary",
                    tooltip="No one of yours races on: the computer cars finish the race now",
                    focusable=False)
            if self.can_take_back:
                words = "Take back  [Ctrl+Z]"
                self.take_back_button = page.button(
                    slot(words), words, self.take_back,
                    tooltip="Take back your last move and the computer moves since "
                            "(Backspace too)", focusable=False)
            self._buttons = []
            for action in actions:
                word = ACTION_WORDS[action][self.armed is action]
                letter = gadgets.ACTION_KEYS[action].upper()
                tip = (f"{action.value}: goes with your next move ({letter}); again to "
                       "disarm" if self.armed is not action else f"disarm ({letter})")
                words = f"{word}  [{letter}]"
                self._buttons.append((action, page.button(
                    slot(words), words, lambda action=action: self.arm(action),
                    tooltip=tip, focusable=False)))
        return list(self._buttons)

    # -- the scene ------------------------------------------------------------------------

    def handle(self, intent: Intent) -> None:
        self._handle(intent)
        if self.intro and isinstance(intent, Release | Key) and not (
                isinstance(intent, Key) and intent.name == "escape"):
            self._start_following()  # after the click or key has counted

    def _handle(self, intent: Intent) -> None:
        if isinstance(intent, Resize):
            self._resize(self.app.size if intent.size is None else intent.size)
        elif isinstance(intent, Key):
            self._key(intent)
        elif isinstance(intent, Wheel):
            self._zoom(1.15 ** intent.steps, intent.pos)
        elif isinstance(intent, Click):  # the action buttons' clicks go to their page
            self.drag.start(intent.pos)
        elif isinstance(intent, Motion):
            self.mouse = intent.pos
            self.drag.move(self.camera, intent.pos, intent.rel, intent.dragging)
            near = self.candidate_near(intent.pos)
            self.hover = near.target if near else None
        elif isinstance(intent, Release) and self.drag.end() and intent.button == 1:
            near = self.candidate_near(intent.pos)
            if near is not None:
                self.choose(near)

    def _key(self, intent: Key) -> None:
        name = intent.name
        if name == "escape":
            if self.pending is not None:  # "no" to the question about a move
                self.pending = None
            else:
                self.app.routes.pause(self)
        elif name == "backspace" or (name == "z" and intent.ctrl):
            self.take_back()
        elif name in picking.CONFIRM:
            if self.people_done:
                self.finish_now()
            elif self.human_turn:
                self._confirm()
        elif name in ACTION_KEYS and self.human_turn:
            self.arm(ACTION_KEYS[name])
        elif name in picking.KEYPAD and self.human_turn:
            target = picking.keypad_target(self.state, name)
            candidate = self.state.candidate_for(Move(target))
            if candidate is None:
                self.toasts.append(hud.Toast("No point there this turn"))
            else:
                self.chosen = candidate.target
                self.choose(candidate)
        elif name in KEY_PANS and intent.shift:
            pan_by_key(self.camera, name)
        elif name in picking.ARROWS and self.human_turn:
            self._step_choice(picking.ARROWS[name])
        elif name in ("plus", "minus"):
            self._zoom(1.2 if name == "plus" else 1 / 1.2)
        elif name in ("f", "home"):
            self.camera.followed = True

    def _step_choice(self, direction: tuple[int, int]) -> None:
        """An arrow (or W, A, S, D): the highlight moves to the next point that way."""
        points = [c.target for c in self.state.candidates()]
        if not points:
            return
        if self.chosen not in points:
            self.chosen = picking.first_choice(points, picking.base_point(self.state),
                                               direction)
        else:
            self.chosen = picking.step_towards(points, self.chosen, direction) or self.chosen
        if self.pending != self.chosen:
            self.pending = None

    def _confirm(self) -> None:
        """Enter or Space: go to the highlighted point (the first press, with none
        highlighted, highlights the unchanged move's point)."""
        points = [c.target for c in self.state.candidates()]
        if self.chosen not in points:
            if points:
                self.chosen = picking.first_choice(points, picking.base_point(self.state), None)
            return
        candidate = self.state.candidate_for(Move(self.chosen))
        if candidate is not None:
            self.choose(candidate)

    def update(self, dt: float) -> None:
        self.action_buttons()
        for toast in self.toasts:
            toast.age += dt
        self.toasts = [t for t in self.toasts if t.age < t.life]
        if self.intro:
            # The sheet at the following zoom is drawn now, while the picture stands still.
            self.sheet.prepare(self.following_scale())
            self.intro = max(0.0, self.intro - dt)
            if not self.intro:
                self._start_following()
            return
        if self.glide is not None:
            self.glide.elapsed += dt
            if self.glide.done:
                self.glide = None
        self._follow(dt)
        if self.glide is not None:
            return
        if self.finishing is not None:
            self._take_finished()
            return
        if self.state.is_over:
            self.over_for += dt
            if self.over_for > 1.2 and self.on_over is not None:
                callback, self.on_over = self.on_over, None
                self._leave(wait=False)
                # The finished race is written after the autosaves still queued.
                callback(self.state, self.saver)
            return
        if self.human_turn:
            self.lookout.work(self.state)
        index = self.state.current_car
        if index in self.drivers:
            if self.thinking is None:
                driver, copy = self.drivers[index], self._drivers_copy()
                self.thinking = waking(self.workers.submit(driver.choose, copy))
            elif self.thinking.done():
                future, self.thinking = self.thinking, None
                try:
                    move = future.result()
                except Exception as exc:  # a driver's failure must not close the window
                    log.exception("computer driver failed")
                    self.toasts.append(hud.Toast(f"{self.race.cars[index].name}'s driver "
                                                 f"failed ({exc}); it takes the first move"))
                    move = self.state.legal_moves()[0]
                self.play(move)

    def draw(self, surface: pygame.Surface) -> None:
        self.sheet.draw(surface, self.camera)  # the sheet and the paper beyond: every pixel
        gadgets.draw_paper_items(surface, self.state, self.camera)
        moving = (self.glide.car, self.glide.where()) if self.glide is not None else None
        draw_cars.draw_trails(surface, self.state, self.camera, moving, self.trail_cache)
        draw_cars.draw_velocities(surface, self.state, self.camera,
                                  moving[0] if moving else None)
        found = self.current_outlooks() if not self.intro else []
        draw_cars.draw_cars(surface, self.state, self.camera, moving)
        # Over the cars: a point another car stands on shows what driving there does.
        selected = self.hover if self.hover is not None else self.chosen
        draw_cars.draw_candidates(surface, self.state, self.camera, found, selected)
        note = "finishing the race…" if self.finishing is not None else ""
        hud.draw_bar(surface, self.state, self.thinking is not None, note, cards=self.cards)
        gadgets.draw_kit_panel(surface, self.state, hud.bar_height(), self.armed)
        panels = [hud.car_list_card(self.state, self.cards)]
        chosen = self.outlook_at(selected) if found else None
        if found:
            colour = theme.palette().pencil(self.race.cars[self.state.current_car].colour)
            panels.append(marks.legend_card(marks.entries(found, chosen), colour,
                                            cards=self.cards))
        for card, box in zip(panels, self.panel_boxes([c.get_size() for c in panels], found),
                             strict=True):
            surface.blit(card, box)
        self._draw_actions(surface)
        hud.draw_toasts(surface, self.toasts)
        if chosen is not None:
            at = self.mouse if selected == self.hover else \
                tuple(round(v) for v in self.camera.to_screen(*chosen.target))
            ask = "choose it again or press Enter to make this move" \
                if chosen.target == self.pending else ""
            hud.draw_hover_line(surface, chosen, at, ask)
        if self.intro:
            hud.draw_banner(surface, self.intro_lines(), alpha=min(1.0, self.intro / 0.4))

    def _draw_actions(self, surface: pygame.Surface) -> None:
        """The armed action's button outlined in the car's pencil (the buttons themselves
        are pygame_gui's, drawn over the scene)."""
        if self.armed is None or self.state.current_car is None:
            return
        colour = theme.palette().pencil(self.race.cars[self.state.current_car].colour)
        for action, button in self._buttons:
            if action is self.armed:
                pygame.draw.rect(surface, colour, button.rect.inflate(8, 8), 3,
                                 border_radius=10)

    def _leave(self, wait: bool = True) -> None:
        """Stop the threads, let the last autosave land (``wait``: now, else behind the
        frame, before the finished race is written), and keep the zoom for next time."""
        self.workers.shutdown(wait=False, cancel_futures=True)
        self.lookout.close()
        self.saver.shutdown(wait=wait)
        if self.zoomed:
            self.app.remember(zoom=round(self.follow_scale or self.camera.scale, 2))
            self.zoomed = False

    def close(self) -> None:
        self._leave()

    def flush(self) -> None:
        """Wait for the autosaves under way: leaving the race, its file is complete on disk."""
        self.saver.shutdown(wait=True)
        if self.zoomed:
            self.app.remember(zoom=round(self.follow_scale or self.camera.scale, 2))
            self.zoomed = False

    def _save(self) -> None:
        """Autosave a copy of the state in the background (a failure never stops the race)."""
        if self.record:
            try:
                self.saver.submit(self.record, self.state.clone())
            except RuntimeError:  # flushed already (the window is closing): write it now
                self.record(self.state)
