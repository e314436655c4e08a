"""pygame events become intents here, and only here.

Scenes never read pygame events: they get small frozen values ("clicked at (x, y)", "key
numpad7"), which tests can also post directly.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame


@dataclass(frozen=True)
class Click:
    pos: tuple[int, int]
    button: int = 1


@dataclass(frozen=True)
class Release:
    pos: tuple[int, int]
    button: int = 1


@dataclass(frozen=True)
class Motion:
    pos: tuple[int, int]
    rel: tuple[int, int] = (0, 0)
    dragging: bool = False  # a mouse button is held


@dataclass(frozen=True)
class Wheel:
    pos: tuple[int, int]
    steps: int  # positive: away from the player (zoom in)


@dataclass(frozen=True)
class Key:
    name: str
    ctrl: bool = False
    shift: bool = False


@dataclass(frozen=True)
class KeyUp:
    """A key let go (for keys held while dragging, such as Space to pan)."""

    name: str


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Resize:
    size: tuple[int, int]


@dataclass(frozen=True)
class Quit:
    pass


Intent = Click | Release | Motion | Wheel | Key | KeyUp | Text | Resize | Quit

_KEY_NAMES = {
    pygame.K_ESCAPE: "escape", pygame.K_RETURN: "enter", pygame.K_KP_ENTER: "enter",
    pygame.K_SPACE: "space", pygame.K_TAB: "tab", pygame.K_BACKSPACE: "backspace",
    pygame.K_DELETE: "delete", pygame.K_UP: "up", pygame.K_DOWN: "down",
    pygame.K_LEFT: "left", pygame.K_RIGHT: "right", pygame.K_HOME: "home",
    pygame.K_END: "end", pygame.K_PAGEUP: "pageup", pygame.K_PAGEDOWN: "pagedown",
    pygame.K_F1: "f1", pygame.K_F11: "f11", pygame.K_F12: "f12",
    pygame.K_PLUS: "plus", pygame.K_EQUALS: "plus", pygame.K_KP_PLUS: "plus",
    pygame.K_MINUS: "minus", pygame.K_KP_MINUS: "minus",
    pygame.K_KP1: "numpad1", pygame.K_KP2: "numpad2", pygame.K_KP3: "numpad3",
    pygame.K_KP4: "numpad4", pygame.K_KP5: "numpad5", pygame.K_KP6: "numpad6",
    pygame.K_KP7: "numpad7", pygame.K_KP8: "numpad8", pygame.K_KP9: "numpad9",
}


def key_name(key: int) -> str:
    return _KEY_NAMES.get(key) or pygame.key.name(key).lower()


def intents(events: list[pygame.event.Event]) -> list[Intent]:
    """The intents in a batch of pygame events, in order; other events are dropped."""
    found: list[Intent] = []
    for event in events:
        if event.type == pygame.QUIT:
            found.append(Quit())
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 2, 3):
            found.append(Click(tuple(event.pos), event.button))
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (1, 2, 3):
            found.append(Release(tuple(event.pos), event.button))
        elif event.type == pygame.MOUSEMOTION:
            found.append(Motion(tuple(event.pos), tuple(event.rel), any(event.buttons)))
        elif event.type == pygame.MOUSEWHEEL:
            found.append(Wheel(tuple(pygame.mouse.get_pos()), int(event.y)))
        elif event.type == pygame.KEYDOWN:
            mods = event.mod
            found.append(Key(key_name(event.key), bool(mods & pygame.KMOD_CTRL),
                             bool(mods & pygame.KMOD_SHIFT)))
        elif event.type == pygame.KEYUP:
            found.append(KeyUp(key_name(event.key)))
        elif event.type == pygame.TEXTINPUT:
            found.append(Text(event.text))
        elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            size = (event.w, event.h) if event.type == pygame.VIDEORESIZE else (event.x, event.y)
            found.append(Resize(size))
    return found
