"""Words fitted to the room they have: cut with an ellipsis, wrapped at spaces, or set on a
small card beside what they explain."""

from __future__ import annotations

import pygame

from racetrack.ui import theme


def shorten(text: str, font: pygame.font.Font, width: int) -> str:
    """The text, cut with an ellipsis where it would run past ``width`` pixels."""
    if font.size(text)[0] <= width:
        return text
    while len(text) > 1 and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap_pixels(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Split text into lines that fit ``width`` pixels in ``font``, at spaces."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and font.size(candidate)[0] > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line] if line else lines


def tip(surface: pygame.Surface, text: str, at: tuple[int, int]) -> None:
    """A small label on a pale card (hover explanations), wrapped to fit the area being
    drawn (the editor's paper) and kept inside it."""
    font = theme.font(22)
    room = surface.get_clip()
    lines = wrap_pixels(text, font, max(80, room.w - 24))
    rendered = [font.render(line, True, theme.TEXT) for line in lines]
    width = max(piece.get_width() for piece in rendered)
    height = sum(piece.get_height() for piece in rendered)
    box = pygame.Rect(0, 0, width, height)
    box.midleft = at
    box = box.inflate(14, 10)
    box.clamp_ip(room)
    pygame.draw.rect(surface, (255, 250, 220), box, border_radius=5)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=5)
    y = box.y + 5
    for piece in rendered:
        surface.blit(piece, (box.x + 7, y))
        y += piece.get_height()
