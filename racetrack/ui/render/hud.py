"""The heads-up display: whose turn, the turn and the current car's numbers across the top; a
side list of every car's velocity, speed, damage and laps; the hover line saying what a point
does; a banner for the start; short messages.

Every length here grows with the UI scale (``theme.px``), so the display reads the same on a
small window and on a 4K screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from racetrack.game import RaceState
from racetrack.geometry import Vec
from racetrack.model import CarStatus
from racetrack.outlook import Look, Outlook
from racetrack.rules.moves import pit_stop_required
from racetrack.ui import theme
from racetrack.ui.render import marks

#: The top bar's height at a UI scale of 1 (``bar_height`` gives it at the current scale).
BAR_HEIGHT = 58


@dataclass
class Toast:
    text: str
    age: float = 0.0
    life: float = 3.5
    card: pygame.Surface | None = None  # drawn once, faded as it ages
    card_width: int = 0  # the room the card was wrapped to (drawn again if the window changes)


class Cards:
    """Drawn panels kept until what they show changes: a panel's words and glyphs are drawn
    once onto a card and blitted each frame, not rendered again sixty times a second."""

    def __init__(self):
        self._cards: dict[str, tuple[object, pygame.Surface]] = {}

    def get(self, name: str, key, make) -> pygame.Surface:
        key = (key, theme.LOOKS.scale, theme.LOOKS.colour_blind)
        found = self._cards.get(name)
        if found is None or found[0] != key:
            found = (key, make())
            self._cards[name] = found
        return found[1]


def bar_height() -> int:
    return theme.px(BAR_HEIGHT)


def car_numbers(state: RaceState, index: int) -> list[str]:
    """A car's numbers as short words: speed, damage (against the limit), lap, checkpoints."""
    race = state.race
    car = state.cars[index]
    laps, checkpoints = state.lap_and_checkpoint(index)
    course = race.course_of(index)
    words = [f"speed {car.velocity.speed}"]
    limit = state.damage_limit(index)
    if limit is not None:
        words.append(f"damage {car.damage}/{limit}")
    elif car.damage:
        words.append(f"damage {car.damage}")
    if course.laps > 1 or course.track.is_circuit:  # a sprint from start to finish has none
        words.append(f"lap {min(laps + 1, course.laps)}/{course.laps}")
    # The finish drawn as an area is a mark of its own, not a checkpoint.
    finish_area = course.finish_area_mark is not None
    per_lap = course.lines_per_lap() - (1 if finish_area or not course.is_point[-1] else 0)
    if per_lap:
        word = "point" if course.track.waypoints else "checkpoint"
        words.append(f"{word} {checkpoints}/{per_lap}")
    areas = course.area_marks.count if race.rules.areas_checkpoints == "any-order" else 0
    if areas:  # checkpoints drawn as areas, passed in any order
        words.append(f"checkpoints {bin(car.areas).count('1')}/{areas}")
    return words


def start_places(track) -> str:
    """Where a car chooses its start, in the words of the track: the start line's points, or
    the places it marks (an imported map's start cells)."""
    if not track.start_points:
        return "a start point on the line"
    return "a start cell" if track.finish_area is not None else "one of the start points"


def draw_bar(surface: pygame.Surface, state: RaceState, thinking: bool,
             note: str = "", cards: Cards | None = None) -> None:
    """The bar across the top: the current car's name, the turn and its numbers."""
    width = surface.get_width()
    key = (width, tuple(state.cars), state.current_car, state.round, state.placing,
           state.steering, state.is_over, thinking, note)
    card = (cards or Cards()).get("bar", key, lambda: _bar(width, state, thinking, note))
    surface.blit(card, (0, 0))


def _bar(width: int, state: RaceState, thinking: bool, note: str) -> pygame.Surface:
    height = bar_height()
    surface = pygame.Surface((width, height + 2))
    pygame.draw.rect(surface, theme.PANEL, (0, 0, width, height))
    pygame.draw.line(surface, theme.PANEL_EDGE, (0, height), (width, height), 2)
    colours = theme.palette()
    race = state.race
    index = state.current_car
    x = theme.px(14)
    if index is None:
        outcome = state.outcome
        text = "The race is over" + (f": {outcome.reason}" if outcome else "")
        label = theme.ui_font(30, bold=True).render(text, True, theme.TEXT)
        surface.blit(label, label.get_rect(midleft=(x, height // 2)))
        return surface
    setup, car = race.cars[index], state.cars[index]
    dot = theme.px(12)
    pygame.draw.circle(surface, colours.pencil(setup.colour), (x + dot, height // 2), dot)
    x += dot * 2 + theme.px(10)
    who = setup.name + ("" if setup.is_human else f" ({setup.driver})")
    label = theme.ui_font(30, bold=True).render(who, True, theme.TEXT)
    surface.blit(label, (x, theme.px(6)))
    missile = state.steering
    if state.placing:
        bits = ["choose " + start_places(race.track)]
    elif missile is not None:
        bits = [f"turn {state.round}", f"move your missile: speed {missile.velocity.speed}, "
                "turbo every turn"]
    else:
        bits = [f"turn {state.round}", *car_numbers(state, index)]
    if setup.reverse:
        bits.append("racing in reverse")
    if pit_stop_required(race.course_of(index), race.rules):
        bits.append("pit stop made" if car.pitted else "pit stop to make")
    if car.launch:
        bits.append("stopped: may launch anywhere")
    if car.off_track:
        bits.append("off the track")
    if thinking:
        bits.append("thinking…")
    if note:
        bits.append(note)
    details = fit_words(bits, theme.ui_font(20), width - x - theme.px(14))
    surface.blit(details, (x, theme.px(35)))
    return surface


def fit_words(bits: list[str], font: pygame.font.Font, room: int) -> pygame.Surface:
    """Words joined by dots, as many as fit in ``room`` pixels."""
    shown = list(bits)
    while len(shown) > 1 and font.size("   ·   ".join(shown))[0] > room:
        shown.pop()
    return font.render("   ·   ".join(shown), True, theme.MUTED)


def draw_car_list(surface: pygame.Surface, state: RaceState, top_right: tuple[int, int],
                  cards: Cards | None = None) -> pygame.Rect:
    """Every car in a side list: its pencil, name, a small arrow of its velocity, speed,
    damage and lap, and finished or out; the car to move is marked. Returns the card."""
    card = car_list_card(state, cards)
    box = card.get_rect(topright=top_right)
    surface.blit(card, box)
    return box


def car_list_card(state: RaceState, cards: Cards | None = None) -> pygame.Surface:
    """The car list's card (``draw_car_list``), for a caller that places it itself."""
    key = (tuple(state.cars), state.current_car)
    return (cards or Cards()).get("cars", key, lambda: _car_list(state))


def _car_list(state: RaceState) -> pygame.Surface:
    race = state.race
    colours = theme.palette()
    font = theme.ui_font(19)
    bold = theme.ui_font(19, bold=True)
    line = theme.px(25)
    rows = []
    for index, setup in enumerate(race.cars):
        car = state.cars[index]
        status = {CarStatus.FINISHED: "finished", CarStatus.OUT: "out"}.get(car.status)
        numbers = status or "  ".join(car_numbers(state, index)[:3]).replace("speed ", "")
        rows.append((index, setup.name, numbers))
    name_width = max(bold.size(name)[0] for _, name, _ in rows)
    numbers_width = max(font.size(text)[0] for _, _, text in rows)
    arrow = theme.px(26)
    pad = theme.px(8)
    width = pad + theme.px(16) + name_width + pad + arrow + pad + numbers_width + pad
    box = pygame.Rect(0, 0, width, line * len(rows) + pad)
    surface = pygame.Surface(box.size, pygame.SRCALPHA)
    marks.card(surface, box)
    current = state.current_car
    for number, (index, name, numbers) in enumerate(rows):
        car = state.cars[index]
        y = box.y + pad // 2 + number * line + line // 2
        colour = colours.pencil(race.cars[index].colour)
        if index == current:
            pygame.draw.rect(surface, theme.HIGHLIGHT,
                             (box.x + 2, y - line // 2 + 1, box.w - 4, line - 2),
                             border_radius=4)
        x = box.x + pad
        pygame.draw.circle(surface, colour, (x + theme.px(6), y), theme.px(6))
        x += theme.px(16)
        text = (bold if index == current else font).render(
            name, True, theme.TEXT if car.racing else theme.MUTED)
        surface.blit(text, text.get_rect(midleft=(x, y)))
        x += name_width + pad
        velocity_glyph(surface, car.velocity, (x + arrow // 2, y), arrow // 2 - 1,
                       colour if car.racing else theme.MUTED)
        x += arrow + pad
        text = font.render(numbers, True, theme.TEXT if car.racing else theme.MUTED)
        surface.blit(text, text.get_rect(midleft=(x, y)))
    return surface


def velocity_glyph(surface: pygame.Surface, velocity: Vec, centre: tuple[int, int],
                   reach: int, colour) -> None:
    """A small arrow pointing the way a car moves, longer the faster it goes (a dot at
    rest)."""
    if velocity.is_zero:
        pygame.draw.circle(surface, colour, centre, max(2, reach // 4))
        return
    length = math.hypot(velocity.x, velocity.y)
    grow = min(1.0, 0.45 + length / 10)
    ux, uy = velocity.x / length, velocity.y / length
    start = (centre[0] - ux * reach * grow, centre[1] - uy * reach * grow)
    end = (centre[0] + ux * reach * grow, centre[1] + uy * reach * grow)
    pygame.draw.line(surface, colour, start, end, max(2, reach // 5))
    marks.arrow_head(surface, colour, start, end, reach * 0.7)


#: The hover line's stripe for each look.
STRIPES = {Look.WALL: marks.WALL, Look.COLLIDE: marks.WALL, Look.LEAVE: marks.WARNING,
           Look.FINISH: (30, 30, 30), Look.ILLEGAL: theme.ILLEGAL}


def draw_hover_line(surface: pygame.Surface, outlook: Outlook, at: tuple[int, int],
                    ask: str = "") -> None:
    """What the hovered (or chosen) point does, in words and numbers, on a card beside ``at``
    (kept inside the window); a warning gets an amber stripe, a crash a red one, a move that
    puts the car out a dark one; ``ask`` is a question under the words (bold)."""
    font = theme.ui_font(22, bold=outlook.out)
    text = font.render(outlook.words(), True, theme.TEXT)
    if ask:
        question = theme.ui_font(20, bold=True).render(ask, True, theme.ERROR)
        both = pygame.Surface((max(text.get_width(), question.get_width()),
                               text.get_height() + question.get_height()), pygame.SRCALPHA)
        both.blit(text, (0, 0))
        both.blit(question, (0, text.get_height()))
        text = both
    stripe = marks.OUT if outlook.out else marks.WARNING if outlook.warning \
        else STRIPES.get(outlook.look)
    pad = theme.px(8)
    box = pygame.Rect(0, 0, text.get_width() + 2 * pad + (theme.px(6) if stripe else 0),
                      text.get_height() + pad)
    box.midleft = (at[0] + theme.px(18), at[1] - theme.px(18))
    box.clamp_ip(surface.get_rect())
    pygame.draw.rect(surface, (255, 250, 220), box, border_radius=5)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=5)
    x = box.x + pad
    if stripe:
        pygame.draw.rect(surface, stripe, (box.x + 3, box.y + 3, theme.px(5), box.h - 6),
                         border_radius=2)
        x += theme.px(6)
    surface.blit(text, text.get_rect(midleft=(x, box.centery)))


def draw_banner(surface: pygame.Surface, lines: list[str], alpha: float = 1.0,
                top: int | None = None) -> None:
    """A card across the middle top of the paper: a heading and lines under it (the start's
    announcement)."""
    if not lines or alpha <= 0:
        return
    heading = theme.ui_font(36, bold=True)
    body = theme.ui_font(23)
    rendered = [heading.render(lines[0], True, theme.palette().ink)] + \
        [body.render(line, True, theme.TEXT) for line in lines[1:]]
    pad = theme.px(18)
    width = max(r.get_width() for r in rendered) + 2 * pad
    height = sum(r.get_height() for r in rendered) + 2 * pad + theme.px(4) * len(rendered)
    box = pygame.Rect(0, 0, min(width, surface.get_width() - 20), height)
    box.midtop = (surface.get_width() // 2, top if top is not None else bar_height() +
                  theme.px(24))
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    layer.fill((*theme.PANEL, 240))
    pygame.draw.rect(layer, (*theme.palette().ink, 255), layer.get_rect(), 2, border_radius=10)
    y = pad
    for rendered_line in rendered:
        layer.blit(rendered_line, rendered_line.get_rect(midtop=(box.w // 2, y)))
        y += rendered_line.get_height() + theme.px(4)
    layer.set_alpha(round(255 * max(0.0, min(1.0, alpha))))
    surface.blit(layer, box)


def _wrapped(message: str, width: int) -> pygame.Surface:
    """A toast's text, over as many lines (at most three) as the window's width needs."""
    font = theme.ui_font(26)
    lines: list[str] = []
    for word in message.split():
        if lines and font.size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > 3:
        lines = [*lines[:2], lines[2] + " …"]
    rendered = [font.render(line, True, theme.TEXT) for line in lines or [""]]
    text = pygame.Surface((max(r.get_width() for r in rendered),
                           sum(r.get_height() for r in rendered)), pygame.SRCALPHA)
    y = 0
    for line in rendered:
        text.blit(line, line.get_rect(midtop=(text.get_width() // 2, y)))
        y += line.get_height()
    return text


def draw_toasts(surface: pygame.Surface, toasts: list[Toast]) -> None:
    """Short messages, newest at the bottom, fading out; a message said again while it
    still shows is drawn once (the newest), not stacked."""
    y = surface.get_height() - 16
    shown: list[Toast] = []
    for toast in reversed(toasts):
        if len(shown) < 5 and all(other.text != toast.text for other in shown):
            shown.append(toast)
    for toast in shown:
        alpha = 255 if toast.age < toast.life - 0.6 else int(255 * max(0.0, toast.life -
                                                                        toast.age) / 0.6)
        width = surface.get_width() - 48
        if toast.card is None or toast.card_width != width:
            text = _wrapped(toast.text, width)
            toast.card = pygame.Surface(text.get_rect().inflate(24, 12).size)
            toast.card_width = width
            toast.card.fill((255, 252, 235))
            pygame.draw.rect(toast.card, theme.PANEL_EDGE, toast.card.get_rect(), 1,
                             border_radius=6)
            toast.card.blit(text, text.get_rect(center=toast.card.get_rect().center))
        box = toast.card.get_rect(midbottom=(surface.get_width() // 2, y))
        toast.card.set_alpha(alpha)
        surface.blit(toast.card, box)
        y -= box.h + 6
