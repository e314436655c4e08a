"""A small widget layer: buttons, option cyclers and text fields, keyboard friendly.

Widgets draw themselves and answer intents; a ``Form`` keeps a focus order so Tab, the arrow
keys and Enter work everywhere the mouse does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame

from racetrack.ui import theme
from racetrack.ui.input import Click, Intent, Key, Motion, Text, Wheel


@dataclass
class Widget:
    rect: pygame.Rect
    enabled: bool = True
    hovered: bool = False
    tooltip: str = ""

    def handle(self, intent: Intent, focused: bool) -> bool:
        """Answer an intent; True when it was used."""
        return False

    def draw(self, surface: pygame.Surface, focused: bool) -> None: ...


@dataclass
class Button(Widget):
    text: str = ""
    action: Callable[[], None] | None = None
    size: int = 30

    def handle(self, intent: Intent, focused: bool) -> bool:
        if not self.enabled:
            return False
        if isinstance(intent, Click) and intent.button == 1 and self.rect.collidepoint(intent.pos):
            self.press()
            return True
        if focused and isinstance(intent, Key) and intent.name in ("enter", "space"):
            self.press()
            return True
        return False

    def press(self) -> None:
        if self.action:
            self.action()

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        lit = (self.hovered or focused) and self.enabled
        fill = theme.HIGHLIGHT if lit else theme.PANEL
        pygame.draw.rect(surface, fill, self.rect, border_radius=8)
        pygame.draw.rect(surface, theme.TEXT if lit else theme.PANEL_EDGE, self.rect, 2,
                         border_radius=8)
        colour = theme.TEXT if self.enabled else theme.MUTED
        label = theme.font(self.size).render(self.text, True, colour)
        surface.blit(label, label.get_rect(center=self.rect.center))


@dataclass
class Cycler(Widget):
    """``< value >``: left/right (or clicks on either half) step through the choices."""

    label: str = ""
    choices: Sequence[str] = ()
    index: int = 0
    on_change: Callable[[str], None] | None = None
    size: int = 26

    @property
    def value(self) -> str:
        return self.choices[self.index] if self.choices else ""

    def set(self, value: str) -> None:
        if value in self.choices:
            self.index = list(self.choices).index(value)

    def step(self, by: int) -> None:
        if self.choices:
            self.index = (self.index + by) % len(self.choices)
            if self.on_change:
                self.on_change(self.value)

    def handle(self, intent: Intent, focused: bool) -> bool:
        if not self.enabled:
            return False
        if isinstance(intent, Click) and intent.button == 1 and self.rect.collidepoint(intent.pos):
            self.step(-1 if intent.pos[0] < self.rect.x + self.rect.w * 0.3 else 1)
            return True
        if focused and isinstance(intent, Key) and intent.name in ("left", "right"):
            self.step(-1 if intent.name == "left" else 1)
            return True
        return False

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        lit = (self.hovered or focused) and self.enabled
        pygame.draw.rect(surface, theme.HIGHLIGHT if lit else theme.PANEL, self.rect,
                         border_radius=6)
        pygame.draw.rect(surface, theme.TEXT if lit else theme.PANEL_EDGE, self.rect, 2,
                         border_radius=6)
        text = f"{self.label}: {self.value}" if self.label else self.value
        rendered = theme.font(self.size).render(f"<  {text}  >", True, theme.TEXT)
        surface.blit(rendered, rendered.get_rect(center=self.rect.center))


@dataclass
class TextField(Widget):
    text: str = ""
    max_length: int = 20
    on_change: Callable[[str], None] | None = None
    size: int = 26
    selected: bool = False  # the whole text is selected: typing replaces it, Backspace clears

    def handle(self, intent: Intent, focused: bool) -> bool:
        if not focused:
            return False
        if isinstance(intent, Text):
            printable = "".join(ch for ch in intent.text if ch.isprintable())
            kept = "" if self.selected else self.text
            self.text = (kept + printable)[: self.max_length]
        elif isinstance(intent, Key) and intent.name == "backspace":
            self.text = "" if self.selected else self.text[:-1]
        elif self.selected and (isinstance(intent, Click) or isinstance(intent, Key) and
                                intent.name in ("left", "right", "home", "end")):
            self.selected = False  # moving the caret keeps the text, to edit it
            return False
        else:
            return False
        self.selected = False
        if self.on_change:
            self.on_change(self.text)
        return True

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        pygame.draw.rect(surface, (255, 255, 255), self.rect, border_radius=6)
        pygame.draw.rect(surface, theme.TEXT if focused else theme.PANEL_EDGE, self.rect, 2,
                         border_radius=6)
        caret = "|" if focused and (pygame.time.get_ticks() // 500) % 2 == 0 else ""
        rendered = theme.font(self.size).render(self.text + caret, True, theme.TEXT)
        place = rendered.get_rect(midleft=(self.rect.x + 10, self.rect.centery))
        if self.selected and self.text:
            width = theme.font(self.size).size(self.text)[0]
            pygame.draw.rect(surface, theme.HIGHLIGHT, (place.x - 2, place.y, width + 4, place.h))
        surface.blit(rendered, place)


@dataclass
class ListBox(Widget):
    """A scrolling list of rows: a click picks a row, the wheel scrolls, and the arrow keys,
    Page Up/Down, Home/End and Enter work as well. Each row has a label and, in grey, a
    detail (a file name, where it lives)."""

    labels: Sequence[str] = ()
    details: Sequence[str] = ()
    index: int = 0
    top: int = 0  # the first row shown
    row_height: int = 34
    on_pick: Callable[[int], None] | None = None
    size: int = 26
    hovered_row: int | None = None

    @property
    def rows(self) -> int:
        return max(1, self.rect.h // self.row_height)

    def row_at(self, pos: tuple[int, int]) -> int | None:
        if not self.rect.collidepoint(pos):
            return None
        row = self.top + (pos[1] - self.rect.y) // self.row_height
        return row if row < len(self.labels) else None

    def scroll(self, by: int) -> None:
        self.top = max(0, min(max(0, len(self.labels) - self.rows), self.top + by))

    def select(self, index: int) -> None:
        if not self.labels:
            return
        self.index = max(0, min(len(self.labels) - 1, index))
        if self.index < self.top:
            self.top = self.index
        elif self.index >= self.top + self.rows:
            self.top = self.index - self.rows + 1

    def pick(self, index: int) -> None:
        self.select(index)
        if self.on_pick and self.labels:
            self.on_pick(self.index)

    def handle(self, intent: Intent, focused: bool) -> bool:
        if isinstance(intent, Motion):
            self.hovered_row = self.row_at(intent.pos)
            return False
        if isinstance(intent, Wheel) and self.rect.collidepoint(intent.pos):
            self.scroll(-intent.steps * 3)
            return True
        if isinstance(intent, Click) and intent.button == 1:
            row = self.row_at(intent.pos)
            if row is not None:
                self.pick(row)
                return True
            return False
        if focused and isinstance(intent, Key):
            moves = {"up": -1, "down": 1, "pageup": -self.rows, "pagedown": self.rows,
                     "home": -len(self.labels), "end": len(self.labels)}
            if intent.name in moves:
                self.select(self.index + moves[intent.name])
                return True
            if intent.name == "enter":
                self.pick(self.index)
                return True
        return False

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        pygame.draw.rect(surface, theme.PANEL, self.rect, border_radius=8)
        pygame.draw.rect(surface, theme.PANEL_EDGE, self.rect, 2, border_radius=8)
        clip = surface.get_clip()
        surface.set_clip(self.rect.inflate(-4, -4))
        for row in range(self.top, min(len(self.labels), self.top + self.rows)):
            box = pygame.Rect(self.rect.x + 4, self.rect.y + (row - self.top) * self.row_height,
                              self.rect.w - 8, self.row_height)
            if row == self.index or row == self.hovered_row:
                pygame.draw.rect(surface, theme.HIGHLIGHT if row == self.index else
                                 (250, 240, 200), box, border_radius=6)
            label = theme.font(self.size, row == self.index).render(self.labels[row], True,
                                                                   theme.TEXT)
            surface.blit(label, label.get_rect(midleft=(box.x + 10, box.centery)))
            detail = self.details[row] if row < len(self.details) else ""
            if detail:
                text = theme.font(max(14, self.size - 6)).render(detail, True, theme.MUTED)
                surface.blit(text, text.get_rect(midleft=(box.x + 24 + label.get_width(),
                                                          box.centery + 1)))
        surface.set_clip(clip)
        if len(self.labels) > self.rows:  # a scroll bar
            track = pygame.Rect(self.rect.right - 8, self.rect.y + 6, 4, self.rect.h - 12)
            share = self.rows / len(self.labels)
            thumb = pygame.Rect(track.x, track.y + track.h * self.top / len(self.labels),
                                track.w, max(12, track.h * share))
            pygame.draw.rect(surface, theme.PANEL_EDGE, thumb, border_radius=2)


@dataclass
class Form:
    """Widgets with a focus order: Tab / Shift+Tab or up / down move the focus."""

    widgets: list[Widget] = field(default_factory=list)
    focus: int = 0

    def handle(self, intent: Intent) -> bool:
        if isinstance(intent, Motion):
            for index, widget in enumerate(self.widgets):
                widget.hovered = widget.rect.collidepoint(intent.pos)
                if widget.hovered and widget.enabled:
                    self.focus = index
            return False
        if isinstance(intent, Click):
            for index, widget in enumerate(self.widgets):
                if widget.rect.collidepoint(intent.pos) and widget.enabled:
                    self.focus = index
        if self.focus >= len(self.widgets):  # the widgets were laid out again, fewer
            self.focus = 0
        focused = self.widgets[self.focus] if self.widgets else None
        if isinstance(intent, Key) and intent.name in ("tab", "down", "up") and focused:
            self.move(-1 if intent.name == "up" or intent.shift else 1)
            return True
        for index, widget in enumerate(self.widgets):
            if widget.handle(intent, index == self.focus):
                return True
        return False

    def move(self, by: int) -> None:
        if not self.widgets:
            return
        for _ in range(len(self.widgets)):
            self.focus = (self.focus + by) % len(self.widgets)
            if self.widgets[self.focus].enabled:
                return

    def draw(self, surface: pygame.Surface) -> None:
        for index, widget in enumerate(self.widgets):
            widget.draw(surface, index == self.focus)
        for widget in self.widgets:
            if widget.hovered and widget.tooltip:
                tip(surface, widget.tooltip, (widget.rect.right + 12, widget.rect.centery))


def tip(surface: pygame.Surface, text: str, at: tuple[int, int]) -> None:
    """A small label on a pale card (hover explanations)."""
    rendered = theme.font(22).render(text, True, theme.TEXT)
    box = rendered.get_rect(midleft=at).inflate(14, 10)
    box.clamp_ip(surface.get_rect())
    pygame.draw.rect(surface, (255, 250, 220), box, border_radius=5)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=5)
    surface.blit(rendered, rendered.get_rect(center=box.center))


def paper_background(surface: pygame.Surface, spacing: int = 24) -> None:
    """Plain graph paper filling the window (menus sit on it)."""
    colours = theme.palette()
    surface.fill(colours.paper)
    width, height = surface.get_size()
    for x in range(0, width, spacing):
        pygame.draw.line(surface, colours.grid, (x, 0), (x, height))
    for y in range(0, height, spacing):
        pygame.draw.line(surface, colours.grid, (0, y), (width, y))


def chosen_card(size: tuple[int, int], chosen: bool) -> pygame.Surface:
    """A list entry's card (a track, a saved race): pale, or highlighted when chosen; the
    caller draws its picture and words on it."""
    picture = pygame.Surface(size, pygame.SRCALPHA)
    frame = picture.get_rect().inflate(-2, -2)
    pygame.draw.rect(picture, theme.HIGHLIGHT if chosen else theme.PANEL, frame,
                     border_radius=8)
    pygame.draw.rect(picture, theme.TEXT if chosen else theme.PANEL_EDGE, frame, 2,
                     border_radius=8)
    return picture


def shorten(text: str, font: pygame.font.Font, width: int) -> str:
    """The text, cut with an ellipsis where it would run past ``width`` pixels."""
    if font.size(text)[0] <= width:
        return text
    while len(text) > 1 and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, width: int) -> list[str]:
    """Split text into lines of at most about ``width`` characters, at spaces."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + len(word) + 1 > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


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
