"""A list of keys and what they do, laid out to fit whatever room there is.

The editor's list of every key (F1) has three dozen rows; a window of 800 x 600 holds them
only in columns and at a smaller size than a large screen would show. So the layout tries the
largest type first, in one column, then two, then three, and shrinks the type until every row
fits: no key is ever cut off, whatever the window and the UI scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from racetrack.ui import theme
from racetrack.ui.render.words import wrap_pixels

#: The type sizes tried, largest first (pixels, before the UI scale caps them).
SIZES = tuple(range(24, 9, -1))
MOST_COLUMNS = 3


@dataclass(frozen=True)
class Placed:
    """One row where it goes: the keys at ``at``, the words in lines beside them."""

    keys: str
    lines: tuple[str, ...]
    at: tuple[int, int]


@dataclass(frozen=True)
class KeyLayout:
    size: int
    key_width: int
    rows: tuple[Placed, ...]

    @property
    def line_height(self) -> int:
        return self.size + max(2, self.size // 5)


def lay_out(rows: Sequence[tuple[str, str]], room: pygame.Rect,
            sizes: Sequence[int] = SIZES) -> KeyLayout:
    """Every row placed inside ``room``, in the largest type and the fewest columns that fit
    (the smallest type tried, in the most columns, if nothing fits)."""
    largest = min(sizes[0], theme.px(sizes[0]))
    tried = [size for size in sizes if size <= largest] or [sizes[-1]]
    layout = None
    for size in tried:
        for columns in range(1, MOST_COLUMNS + 1):
            layout = _try(rows, room, size, columns)
            if layout is not None and _fits(layout, room):
                return layout
    assert layout is not None
    return layout


def _try(rows: Sequence[tuple[str, str]], room: pygame.Rect, size: int,
         columns: int) -> KeyLayout | None:
    bold, plain = theme.font(size, True), theme.font(size)
    gap = size
    column_width = (room.w - gap * (columns - 1)) // columns
    key_width = max(bold.size(keys)[0] for keys, _ in rows) + size // 2
    key_width = min(key_width, column_width * 2 // 5)
    text_width = column_width - key_width
    if text_width < size * 6:
        return None
    line = size + max(2, size // 5)
    wrapped = []
    for keys, what in rows:
        key_lines = wrap_pixels(keys, bold, key_width - size // 2)
        words = wrap_pixels(what, plain, text_width)
        wrapped.append((keys, tuple(words), max(len(words), len(key_lines)) * line + line // 3))
    total = sum(height for *_, height in wrapped)
    target = total / columns
    placed, column, y = [], 0, room.y
    used = 0
    for keys, words, height in wrapped:
        if used + height > target + line and column < columns - 1 and used > 0:
            column, y, used = column + 1, room.y, 0
        placed.append(Placed(keys, words, (room.x + column * (column_width + gap), y)))
        y += height
        used += height
    return KeyLayout(size, key_width, tuple(placed))


def _fits(layout: KeyLayout, room: pygame.Rect) -> bool:
    line = layout.line_height
    return all(row.at[1] + max(1, len(row.lines)) * line <= room.bottom
               for row in layout.rows)


def draw(surface: pygame.Surface, layout: KeyLayout) -> None:
    bold, plain = theme.font(layout.size, True), theme.font(layout.size)
    line = layout.line_height
    for row in layout.rows:
        x, y = row.at
        for number, piece in enumerate(wrap_pixels(row.keys, bold,
                                                   layout.key_width - layout.size // 2)):
            surface.blit(bold.render(piece, True, theme.TEXT), (x, y + number * line))
        for number, piece in enumerate(row.lines):
            surface.blit(plain.render(piece, True, theme.MUTED),
                         (x + layout.key_width, y + number * line))
