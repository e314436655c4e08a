"""The race sheet as a picture: the whole paper with every trail, and a header with the track
and rules, the turns, the date and the seed, and the ranking with each driver's level."""

from __future__ import annotations

from datetime import datetime

import pygame

from racetrack.base.files import atomic_write_bytes
from racetrack.games.race import RaceState
from racetrack.ui import theme
from racetrack.ui.render import cars as draw_cars
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.sheet import draw_sheet

MAX_WIDTH = 2400
HEADER = 124


def race_sheet(state: RaceState, scale: float = 24.0,
               when: datetime | None = None) -> pygame.Surface:
    """Draw the finished (or unfinished) race on one surface, ready to save as a PNG;
    ``when`` is the race's date (the replay file's), if known."""
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
    heading, facts, ranking = sheet_words(state, when)
    title = theme.font(44, bold=True).render(heading, True, theme.TEXT)
    picture.blit(title, (16, 10))
    line = theme.font(24).render(facts, True, theme.MUTED)
    picture.blit(line, (16, 52))
    x = 16
    for index, words in ranking:
        setup = race.cars[index]
        pygame.draw.circle(picture, theme.palette().pencil(setup.colour), (x + 8, 98), 8)
        label = theme.font(26).render(words, True, theme.TEXT)
        picture.blit(label, (x + 22, 88))
        x += label.get_width() + 44
    pygame.draw.line(picture, theme.PANEL_EDGE, (0, HEADER - 1), (width, HEADER - 1), 2)
    return picture


def sheet_words(state: RaceState, when: datetime | None = None,
                ) -> tuple[str, str, list[tuple[int, str]]]:
    """The sheet's header: the track and rules; the turns, how it ended, the date and the
    seed; and each car in ranking order with its place and driver level."""
    race, outcome = state.race, state.outcome
    facts = [f"{outcome.rounds} turns" if outcome else f"unfinished, turn {state.round}"]
    if outcome is not None:
        facts.append(outcome.reason)
    if when is not None:
        facts.append(f"{when:%Y-%m-%d %H:%M}")
    facts.append(f"seed {race.seed}")
    order = outcome.ranking if outcome else tuple(range(len(race.cars)))
    ranking = []
    for place, index in enumerate(order, start=1):
        setup = race.cars[index]
        who = setup.name + ("" if setup.is_human else f" ({setup.driver})")
        ranking.append((index, f"{place}. {who}" if outcome else who))
    return f"{race.track.name} · {race.rules.name} rules", " · ".join(facts), ranking


def save_race_sheet(state: RaceState, path: str, when: datetime | None = None) -> None:
    """Save the race sheet as a PNG without opening a window (atomically, like every file the
    game writes: a link, pipe or device named as the picture is refused, not written into)."""
    import io
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    started = pygame.font.get_init()
    if not started:
        pygame.font.init()
        theme.clear_fonts()
    try:
        picture = io.BytesIO()
        pygame.image.save(race_sheet(state, when=when), picture, "png")
        atomic_write_bytes(path, picture.getvalue(), make_parents=False)
    finally:
        if not started:
            pygame.font.quit()
