"""The race sheet as a picture: the whole paper with every trail, a title and the ranking."""

from __future__ import annotations

import pygame

from racetrack.game import RaceState
from racetrack.ui import theme
from racetrack.ui.render import cars as draw_cars
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.sheet import draw_sheet

MAX_WIDTH = 2400
HEADER = 90


def race_sheet(state: RaceState, scale: float = 24.0) -> pygame.Surface:
    """Draw the finished (or unfinished) race on one surface, ready to save as a PNG."""
    course = state.race.course
    x0, y0, x1, y1 = course.sheet
    scale = min(scale, MAX_WIDTH / (x1 - x0))
    width, height = round((x1 - x0) * scale), round((y1 - y0) * scale)
    picture = pygame.Surface((width, height + HEADER))
    picture.fill(theme.PANEL)
    paper = picture.subsurface((0, HEADER, width, height))
    draw_sheet(paper, course, scale, (x0, y0))
    camera = Camera(centre_x=(x0 + x1) / 2, centre_y=(y0 + y1) / 2, scale=scale, width=width,
                    height=height, offset_y=0, followed=False)
    draw_cars.draw_trails(paper, state, camera)
    draw_cars.draw_cars(paper, state, camera)
    race = state.race
    title = theme.font(44, bold=True).render(f"{race.track.name} · {race.rules.name} rules",
                                             True, theme.TEXT)
    picture.blit(title, (16, 12))
    outcome = state.outcome
    order = outcome.ranking if outcome else tuple(range(len(race.cars)))
    x = 16
    for place, index in enumerate(order, start=1):
        setup = race.cars[index]
        pygame.draw.circle(picture, theme.palette().pencil(setup.colour), (x + 8, 68), 8)
        label = theme.font(26).render(f"{place}. {setup.name}" if outcome else setup.name,
                                      True, theme.TEXT)
        picture.blit(label, (x + 22, 58))
        x += label.get_width() + 44
    pygame.draw.line(picture, theme.PANEL_EDGE, (0, HEADER - 1), (width, HEADER - 1), 2)
    return picture


def save_race_sheet(state: RaceState, path: str) -> None:
    """Save the race sheet as a PNG without opening a window."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    started = pygame.font.get_init()
    if not started:
        pygame.font.init()
        theme.clear_fonts()
    try:
        pygame.image.save(race_sheet(state), path)
    finally:
        if not started:
            pygame.font.quit()
