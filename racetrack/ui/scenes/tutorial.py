"""The tutorial race: a first race on the oval against one easy computer car, Baker's rules,
with a coach who walks the player through the first turns (moving off, the ring, pointing
before clicking, looking round with the zoom and the camera, braking for the bend, taking a
move back) and then lets them race on.

Each step waits for the player to do what it asks (or for Next, a pygame_gui button on the
race's page like its action buttons, or Enter); the race itself is an ordinary race, recorded
and ranked like any other. The camera follows the player's car close up from the first turn,
whatever the window's size, and keeps it and every point it may go to clear of the coach's
card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from racetrack.game import Race
from racetrack.model import CarSetup
from racetrack.rules import load_rules
from racetrack.settings import load_settings
from racetrack.track import find_track, load_track
from racetrack.ui import theme
from racetrack.ui.gui import Button
from racetrack.ui.input import Intent, Key
from racetrack.ui.render import hud, marks
from racetrack.ui.render.camera import MAX_SCALE
from racetrack.ui.render.words import wrap_pixels
from racetrack.ui.scenes.race import RaceScene

TRACK, RULES, SEED = "oval", "baker", 7


@dataclass(frozen=True)
class Step:
    """One thing the coach says, and what ends it (``None``: the Next button; with ``next``
    the Next button is offered beside what ends it, for a step the player may skip)."""

    text: str
    done: Callable[[TutorialScene], bool] | None = None
    next: bool = False

    @property
    def has_next(self) -> bool:
        return self.done is None or self.next


def _moves(scene: TutorialScene) -> int:
    return sum(1 for car, _ in scene.state.history if car == 0)


def _speed(scene: TutorialScene) -> int:
    return scene.state.cars[0].velocity.speed


def _looked_round(scene: TutorialScene) -> bool:
    """The player zoomed, and brought the camera back to the car with F."""
    return scene.zoomed and scene.refollowed


STEPS = (
    Step("Welcome to Racetrack! Your car is the red dot on the start line of the oval; the "
         "blue car is the computer. The race is one lap, anticlockwise: off to the right "
         "along the bottom straight, round, and back over this line."),
    Step("You stand still, so you may go one square in any of four directions or stay. The "
         "dots are your choices. Click the dot to the right of your car to move off (or "
         "press the right arrow, then Enter).", lambda s: _moves(s) >= 1),
    Step("You drew a line of length 1: that is your speed. Next turn you repeat it: the ring "
         "marks where the same move again leads, and the dots round the ring are your "
         "choices. Click the dot right of the ring to speed up.", lambda s: _moves(s) >= 2),
    Step("The camera follows your car. Turn the mouse wheel (or press + and -) to zoom, and "
         "drag the paper to look ahead; press F to follow your car again. Try it, or Next.",
         _looked_round, next=True),
    Step("Point at a dot before you click: the card beside it says what it does. Speed up "
         "along the straight, to speed 3 or 4.", lambda s: _speed(s) >= 3),
    Step("The bend is coming. A car loses speed only one square a turn, so brake early: "
         "choose dots behind the ring. A dot with an amber triangle is too fast for the "
         "bend; a red burst hits the wall and costs damage; a dark one puts you out. "
         "Ctrl+Z (or Take back) undoes a move.",
         lambda s: s.state.cars[0].position.y <= 16),
    Step("Round the bend! Keep to the middle, brake before each turn, and race the computer "
         "back to the line. Esc pauses; How to play is there too."),
)


class TutorialScene(RaceScene):
    """A race scene with a coach: a card of advice that moves on as the player learns."""

    #: The squares of track the camera shows from top to bottom: close up, so a first
    #: race's few dots are big and far apart.
    CLOSE_SQUARES = 18

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("intro", False)
        self.step = 0
        self.refollowed = False  # F pressed after the camera was zoomed or moved
        super().__init__(*args, **kwargs)
        self.next_button: Button | None = None
        self._next_key: tuple | None = None

    @property
    def coaching(self) -> Step | None:
        return STEPS[self.step] if self.step < len(STEPS) else None

    def advance(self) -> None:
        self.step += 1
        if self.step >= len(STEPS) - 1 and not self.app.settings.tutorial_done:
            # The player has been walked through: the menu stops offering the tutorial
            # first (written behind the frame).
            self.app.remember(tutorial_done=True)

    # -- the camera: on the player's car, close up, clear of the card ---------------------

    def whole_scale(self) -> float | None:
        """Never the whole track: the tutorial follows the player's car from the start."""
        return None

    def following_scale(self) -> float:
        """Close up, until the player chooses a zoom of their own."""
        if self.zoomed:
            return super().following_scale()
        return min(self.sheet.max_scale, MAX_SCALE, self.camera.height / self.CLOSE_SQUARES)

    def followed_car(self) -> int | None:
        """The player's car, whoever moves."""
        return 0

    def clear_area(self) -> tuple[int, int, int, int]:
        """The paper below the coach's card (where the card leaves room enough)."""
        left, top, right, bottom = super().clear_area()
        if self.coaching is None:
            return left, top, right, bottom
        box, _, _ = self.card()
        below = box.bottom + theme.px(24)
        if bottom - below >= (bottom - top) // 3:
            top = max(top, below)
        return left, top, right, bottom

    def card(self) -> tuple[pygame.Rect, list[str], pygame.Rect | None]:
        """The coach's card (top left, under the bar), its lines and its Next button."""
        step = self.coaching
        assert step is not None
        width, _ = self.app.size
        font = theme.ui_font(21)
        card_width = min(width - theme.px(40), theme.px(560))
        pad = theme.px(14)
        lines = wrap_pixels(step.text, font, card_width - 2 * pad)
        button = theme.px(44) if step.has_next else 0
        box = pygame.Rect(theme.px(12), hud.bar_height() + theme.px(10), card_width,
                          pad * 2 + theme.px(22) + font.get_linesize() * len(lines) + button)
        next_rect = None
        if step.has_next:
            next_rect = pygame.Rect(0, 0, theme.px(120), theme.px(36))
            next_rect.bottomright = (box.right - pad, box.bottom - pad // 2)
        return box, lines, next_rect

    def action_buttons(self) -> list:
        """The race's buttons, and the card's Next on the same page while the step offers
        it (made again when the step, the window or the race's buttons change)."""
        buttons = super().action_buttons()
        key = (self._actions_key, id(self._actions_page), self.step)
        if key != self._next_key:
            self._next_key = key
            if self.next_button is not None and self.next_button.element.alive():
                self.next_button.element.kill()
            self.next_button = None
            step = self.coaching
            if step is not None and step.has_next:
                _, _, rect = self.card()
                self.next_button = self._actions_page.button(
                    rect, "Next", self.advance, tooltip="on to the next step (Enter)",
                    style="primary", focusable=False)
        return buttons

    def handle(self, intent: Intent) -> None:
        step = self.coaching
        if step is not None and step.has_next and isinstance(intent, Key) \
                and intent.name == "enter":
            self.advance()
            return
        if isinstance(intent, Key) and intent.name in ("f", "home") and self.zoomed:
            self.refollowed = True
        super().handle(intent)

    def update(self, dt: float) -> None:
        super().update(dt)
        step = self.coaching
        if step is not None and step.done is not None and self.glide is None \
                and step.done(self):
            self.advance()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.coaching is None:
            return
        box, lines, _ = self.card()
        marks.card(surface, box, 245)
        pygame.draw.rect(surface, theme.palette().pencil("blue"), box, 2, border_radius=6)
        pad = theme.px(14)
        coach = theme.ui_font(17, bold=True).render(
            f"Tutorial · step {self.step + 1} of {len(STEPS)}", True, theme.MUTED)
        surface.blit(coach, (box.x + pad, box.y + pad - theme.px(4)))
        font = theme.ui_font(21)
        for number, text in enumerate(lines):
            rendered = font.render(text, True, theme.TEXT)
            surface.blit(rendered, (box.x + pad, box.y + pad + theme.px(20)
                                    + number * font.get_linesize()))


def tutorial_race() -> Race:
    """The tutorial's race: the player (by the name last used) against an easy computer car
    on the oval, one lap (``routes.tutorial`` puts it on the window with its coach)."""
    track = load_track(find_track(TRACK))
    name = next((p.name for p in load_settings().players if p.driver == "human"), "You")
    return Race(track, load_rules(RULES), [CarSetup(name, "red", "human"),
                                           CarSetup("Computer", "blue", "easy")], seed=SEED)
