"""The race's words on the paper: toasts that stack without repeating themselves."""

from __future__ import annotations

import os

import pygame

from racetrack.ui import theme
from racetrack.ui.render import hud

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def test_a_message_said_again_is_drawn_once_the_newest_of_them():
    pygame.init()
    theme.clear_fonts()  # faces loaded by an earlier test's pygame session died with it
    surface = pygame.Surface((600, 400))
    toasts = [hud.Toast("Red agrees to end the game") for _ in range(4)]
    toasts.append(hud.Toast("Blue passes"))
    hud.draw_toasts(surface, toasts)
    drawn = [toast for toast in toasts if toast.card is not None]  # a card is made to draw
    assert drawn == [toasts[3], toasts[4]]
    many = [hud.Toast(f"note {n}") for n in range(8)]
    hud.draw_toasts(surface, many)
    assert [toast for toast in many if toast.card is not None] == many[3:]  # five at most
