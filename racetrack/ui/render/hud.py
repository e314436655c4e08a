"""The heads-up display: whose turn, speed, damage, laps and checkpoints, the turn, messages."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from racetrack.game import RaceState
from racetrack.model import CarStatus
from racetrack.rules.moves import pit_stop_required
from racetrack.ui import theme

BAR_HEIGHT = 58


@dataclass
class Toast:
    text: str
    age: float = 0.0
    life: float = 3.5


def draw_bar(surface: pygame.Surface, state: RaceState, thinking: bool) -> None:
    """The bar across the top: the current car's turn and numbers, then every car's status."""
    width = surface.get_width()
    pygame.draw.rect(surface, theme.PANEL, (0, 0, width, BAR_HEIGHT))
    pygame.draw.line(surface, theme.PANEL_EDGE, (0, BAR_HEIGHT), (width, BAR_HEIGHT), 2)
    colours = theme.palette()
    race = state.race
    index = state.current_car
    x = 14
    if index is not None:
        setup, car = race.cars[index], state.cars[index]
        pygame.draw.circle(surface, colours.pencil(setup.colour), (x + 12, 29), 12)
        x += 34
        who = f"{setup.name}" + ("" if setup.is_human else f" ({setup.driver})")
        label = theme.font(32, bold=True).render(who, True, theme.TEXT)
        surface.blit(label, (x, 8))
        laps, checkpoints = state.lap_and_checkpoint(index)
        course = race.course_of(index)
        per_lap = course.lines_per_lap() - (0 if course.is_point[-1] else 1)
        if state.placing:
            bits = ["choose a start point on the line"]
        else:
            bits = [f"turn {state.round}", f"speed {car.velocity.speed}"]
        limit = state.damage_limit(index)
        if limit is not None:
            bits.append(f"damage {car.damage}/{limit}")
        elif car.damage:
            bits.append(f"damage {car.damage}")
        bits.append(f"lap {min(laps + 1, course.laps)}/{course.laps}")
        if per_lap:
            word = "point" if course.track.waypoints else "checkpoint"
            bits.append(f"{word} {checkpoints}/{per_lap}")
        if setup.reverse:
            bits.append("racing in reverse")
        if pit_stop_required(course, race.rules):
            bits.append("pit stop made" if car.pitted else "pit stop to make")
        if car.launch:
            bits.append("stopped: may launch anywhere")
        if car.off_track:
            bits.append("off the track")
        if thinking:
            bits.append("thinking…")
        details = theme.font(22).render("   ·   ".join(bits), True, theme.MUTED)
        surface.blit(details, (x, 36))
    # Every car, right-aligned: a dot, the name and its state.
    x = width - 14
    for i in reversed(range(len(race.cars))):
        setup, car = race.cars[i], state.cars[i]
        status = {CarStatus.FINISHED: "finished", CarStatus.OUT: "out"}.get(car.status, "")
        text = theme.font(22).render(f"{setup.name}{' ' + status if status else ''}", True,
                                     theme.TEXT if car.racing else theme.MUTED)
        x -= text.get_width()
        surface.blit(text, (x, 20))
        x -= 18
        pygame.draw.circle(surface, colours.pencil(setup.colour), (x + 7, 28), 7)
        x -= 14
        if x < width * 0.55:
            break


def _wrapped(message: str, width: int) -> pygame.Surface:
    """A toast's text, over as many lines (at most three) as the window's width needs."""
    font = theme.font(28)
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
    """Short messages, newest at the bottom, fading out."""
    y = surface.get_height() - 16
    for toast in reversed(toasts[-5:]):
        alpha = 255 if toast.age < toast.life - 0.6 else int(255 * max(0.0, toast.life -
                                                                        toast.age) / 0.6)
        text = _wrapped(toast.text, surface.get_width() - 48)
        box = text.get_rect(midbottom=(surface.get_width() // 2, y)).inflate(24, 12)
        card = pygame.Surface(box.size, pygame.SRCALPHA)
        card.fill((255, 252, 235, min(alpha, 235)))
        pygame.draw.rect(card, (*theme.PANEL_EDGE, alpha), card.get_rect(), 1, border_radius=6)
        text.set_alpha(alpha)
        card.blit(text, text.get_rect(center=(box.w // 2, box.h // 2)))
        surface.blit(card, box)
        y -= box.h + 6
