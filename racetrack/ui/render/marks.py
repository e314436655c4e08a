"""The marks a candidate point is drawn with, one for each thing a move can do, and the legend
that names them.

Each mark differs in shape, not only in colour, so it reads in grey and for colour-blind eyes:
a dot is safe, a chequered ring finishes, a red burst hits the wall, a dark burst (or two dark
dots) with a white cross puts the car out of the race, a hollow square leaves the track, two
overlapping dots collide, a hollow diamond is a special move, a thin grey cross is not allowed;
a small warning triangle beside a dot means the car would be too fast to go on safely. Round
them: the ring where the unchanged move leads, a dashed ring where a crashed car starts again,
and a yellow halo round the point chosen (under the mouse, or with the arrow keys).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from racetrack.outlook import Look, Outlook
from racetrack.ui import theme

Point = tuple[float, float]
Colour = tuple[int, int, int]

WALL = (206, 44, 30)
OUT = (48, 40, 40)
OUT_EDGE = (20, 16, 16)
WARNING = (240, 150, 20)
WHITE = (255, 255, 255)

#: The legend's words for each look, in the order the legend lists them.
WORDS = {Look.SAFE: "safe", Look.START: "start point", Look.FINISH: "finishes",
         Look.SPECIAL: "special move", Look.LEAVE: "leaves the track",
         Look.COLLIDE: "collides: both stop", Look.WALL: "hits the wall",
         Look.ILLEGAL: "not allowed"}
#: The marks beyond the looks: a point that puts the car out, the warning, the rings, the
#: chosen point's halo.
OUT_MARK, WARNING_MARK, RING, RESTART, CHOSEN = "out", "warning", "ring", "restart", "chosen"
EXTRA_WORDS = {OUT_MARK: "puts the car out", WARNING_MARK: "too fast for the bend",
               RING: "ring: the same move again", RESTART: "dashed: restarts here",
               CHOSEN: "halo: the point chosen"}
#: Every entry a legend can hold, in the order legends list them.
LEGEND: dict[object, str] = {**{look: WORDS[look] for look in WORDS if look is not Look.ILLEGAL},
                             OUT_MARK: EXTRA_WORDS[OUT_MARK], Look.ILLEGAL: WORDS[Look.ILLEGAL],
                             **{key: EXTRA_WORDS[key] for key in (WARNING_MARK, RING, RESTART,
                                                                  CHOSEN)}}


def draw(surface: pygame.Surface, look: Look, centre: Point, radius: float, colour: Colour,
         warning: bool = False, out: bool = False, hovered: bool = False) -> None:
    """One candidate's mark at ``centre``; ``colour`` is the car's pencil."""
    ink = theme.palette().ink
    x, y = centre
    r = radius
    if hovered:
        halo(surface, centre, r)
    if look is Look.ILLEGAL:
        cross(surface, theme.ILLEGAL, centre, r * 0.8, 2)
        return
    if look in (Look.SAFE, Look.START):
        size = r * 1.5 if look is Look.START else r
        pygame.draw.circle(surface, WHITE, centre, size + 2)
        pygame.draw.circle(surface, colour, centre, size)
    elif look is Look.FINISH:
        chequered_ring(surface, centre, r * 1.55, max(3, round(r * 0.55)))
        pygame.draw.circle(surface, colour, centre, r * 0.9)
    elif look is Look.WALL:
        burst = star(centre, r * 1.6, r * 0.75, 8)
        pygame.draw.polygon(surface, OUT if out else WALL, burst)
        pygame.draw.polygon(surface, OUT_EDGE if out else ink, burst, max(1, round(r / 4)))
        if out:
            cross(surface, WHITE, centre, r * 0.6, max(2, round(r / 2.5)))
    elif look is Look.LEAVE:
        box = pygame.Rect(0, 0, r * 2.2, r * 2.2)
        box.center = (round(x), round(y))
        pygame.draw.rect(surface, WHITE, box)
        pygame.draw.rect(surface, colour, box, max(2, round(r / 2)))
    elif look is Look.COLLIDE:
        for dx in (-0.55, 0.55):
            spot = (x + dx * r, y)
            pygame.draw.circle(surface, OUT if out else colour, spot, r * 0.95)
            pygame.draw.circle(surface, OUT_EDGE if out else ink, spot, r * 0.95,
                               max(1, round(r / 4)))
        if out:
            cross(surface, WHITE, centre, r * 0.6, max(2, round(r / 2.5)))
    elif look is Look.SPECIAL:
        d = r * 1.4
        diamond = [(x, y - d), (x + d, y), (x, y + d), (x - d, y)]
        pygame.draw.polygon(surface, WHITE, diamond)
        pygame.draw.polygon(surface, colour, diamond, max(2, round(r / 2)))
    if warning:
        triangle(surface, (x + r * 1.3, y - r * 1.3), max(6.0, r * 1.1))


def halo(surface: pygame.Surface, centre: Point, radius: float) -> None:
    """The chosen point's halo: a broad yellow ring round its mark, hollow so a car standing
    there still shows, and unlike the unchanged move's thin ink ring."""
    outer = radius * 2.4
    pygame.draw.circle(surface, theme.HIGHLIGHT, centre, outer, max(3, round(radius * 0.8)))
    pygame.draw.circle(surface, theme.palette().ink, centre, outer, 2)


def star(centre: Point, outer: float, inner: float, points: int) -> list[Point]:
    x, y = centre
    corners = []
    for k in range(points * 2):
        angle = math.pi * k / points - math.pi / 2
        reach = outer if k % 2 == 0 else inner
        corners.append((x + reach * math.cos(angle), y + reach * math.sin(angle)))
    return corners


def chequered_ring(surface: pygame.Surface, centre: Point, radius: float, width: int) -> None:
    """A ring of black and white segments: the finish."""
    rect = pygame.Rect(0, 0, radius * 2, radius * 2)
    rect.center = (round(centre[0]), round(centre[1]))
    pygame.draw.circle(surface, WHITE, centre, radius)
    for i in range(8):
        start = i * math.pi / 4
        pygame.draw.arc(surface, (30, 30, 30) if i % 2 else (235, 235, 235), rect, start,
                        start + math.pi / 4, width)
    pygame.draw.circle(surface, (30, 30, 30), centre, radius, 1)


def triangle(surface: pygame.Surface, centre: Point, size: float) -> None:
    """A small warning sign: an amber triangle with a "!"."""
    x, y = centre
    corners = [(x, y - size), (x + size * 0.95, y + size * 0.7), (x - size * 0.95, y + size * 0.7)]
    pygame.draw.polygon(surface, WARNING, corners)
    pygame.draw.polygon(surface, OUT, corners, 1)
    bar = max(1, round(size / 5))
    pygame.draw.line(surface, OUT, (x, y - size * 0.45), (x, y + size * 0.2), bar)
    pygame.draw.circle(surface, OUT, (x, y + size * 0.45), max(1, bar * 0.7))


def cross(surface: pygame.Surface, colour, centre: Point, size: float, width: int) -> None:
    x, y = centre
    pygame.draw.line(surface, colour, (x - size, y - size), (x + size, y + size), width)
    pygame.draw.line(surface, colour, (x - size, y + size), (x + size, y - size), width)


def restart(surface: pygame.Surface, centre: Point, radius: float) -> None:
    """Where a crashed car starts again: a dashed ink ring."""
    ink = theme.palette().ink
    for i in range(0, 12, 2):
        rect = pygame.Rect(0, 0, radius * 3, radius * 3)
        rect.center = (round(centre[0]), round(centre[1]))
        pygame.draw.arc(surface, ink, rect, i * math.pi / 6, (i + 1) * math.pi / 6, 2)


def arrow_head(surface: pygame.Surface, colour, start: Point, end: Point, size: float) -> None:
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    size = min(size, length * 0.6)
    back = (end[0] - ux * size, end[1] - uy * size)
    wing = size * 0.5
    pygame.draw.polygon(surface, colour, [end, (back[0] - uy * wing, back[1] + ux * wing),
                                          (back[0] + uy * wing, back[1] - ux * wing)])


def entries(found: Sequence[Outlook], chosen: Outlook | None = None) -> list[object]:
    """The legend's entries for the marks on screen now, in the legend's order: each look
    drawn (a point that puts the car out is its own mark), the warning and the ring where
    shown, and, for the chosen point, its halo and where a crash would restart the car."""
    shown: set[object] = {o.look for o in found if not o.out}
    if any(o.out for o in found):
        shown.add(OUT_MARK)
    if any(o.warning for o in found):
        shown.add(WARNING_MARK)
    if any(o.candidate.unchanged for o in found):
        shown.add(RING)
    if chosen is not None:
        shown.add(CHOSEN)
        if chosen.restart is not None:
            shown.add(RESTART)
    return [key for key in LEGEND if key in shown]


def draw_legend(surface: pygame.Surface, shown: Sequence[object], colour: Colour,
                top_right: Point, cards=None, columns: int = 1) -> pygame.Rect:
    """A card naming the marks ``shown`` (keys of ``LEGEND``, in its order, down each of
    ``columns`` in turn); returns where it was drawn. ``cards`` (``hud.Cards``) keeps it
    drawn between frames."""
    card = legend_card(shown, colour, cards, columns)
    box = card.get_rect(topright=(round(top_right[0]), round(top_right[1])))
    surface.blit(card, box)
    return box


def legend_card(shown: Sequence[object], colour: Colour, cards=None,
                columns: int = 1) -> pygame.Surface:
    """The legend's card (``draw_legend``), for a caller that places it itself."""
    key = (tuple(shown), colour, columns)
    return cards.get("legend", key, lambda: _legend(shown, colour, columns)) \
        if cards is not None else _legend(shown, colour, columns)


def legend_size(shown: Sequence[object], columns: int = 1) -> tuple[int, int]:
    """The legend card's size, before drawing it."""
    font = theme.ui_font(19)
    column = theme.px(32) + max(font.size(LEGEND[key])[0] for key in shown) + theme.px(16)
    rows = -(-len(shown) // columns)
    return column * columns, theme.px(26) * rows + theme.px(10)


def legend_icon(surface: pygame.Surface, what: object, at: Point, r: float,
                colour: Colour) -> None:
    """One legend entry's mark, drawn at ``at`` inside a room about ``4 r`` across."""
    if what == WARNING_MARK:  # the dot and its sign side by side
        draw(surface, Look.SAFE, (at[0] - r * 0.9, at[1] + r * 0.3), r * 0.8, colour)
        triangle(surface, (at[0] + r * 0.9, at[1] - r * 0.2), r * 1.0)
    elif what == RING:
        pygame.draw.circle(surface, theme.palette().ink, at, r * 1.9, 2)
    elif what == RESTART:
        restart(surface, at, r * 1.2)
    elif what == CHOSEN:
        draw(surface, Look.SAFE, at, r * 0.8, colour, hovered=True)
    elif what == OUT_MARK:
        draw(surface, Look.WALL, at, r, colour, out=True)
    else:
        draw(surface, what, at, r, colour)  # type: ignore[arg-type]


def _legend(shown: Sequence[object], colour: Colour, columns: int = 1) -> pygame.Surface:
    rows = [(LEGEND[key], key) for key in shown]
    font = theme.ui_font(19)
    line = theme.px(26)
    icon = theme.px(32)
    box = pygame.Rect((0, 0), legend_size(shown, columns))
    per_column = -(-len(rows) // columns)
    column_width = box.w // columns
    surface = pygame.Surface(box.size, pygame.SRCALPHA)
    card(surface, box)
    r = theme.px(7)
    for number, (text, what) in enumerate(rows):
        x = box.x + (number // per_column) * column_width
        y = box.y + theme.px(5) + line * (number % per_column) + line // 2
        legend_icon(surface, what, (x + icon // 2 + theme.px(2), y), r, colour)
        label = font.render(text, True, theme.TEXT)
        surface.blit(label, label.get_rect(midleft=(x + icon + theme.px(4), y)))
    return surface


def card(surface: pygame.Surface, box: pygame.Rect, alpha: int = 232) -> None:
    """A pale see-through card to write on over the paper (at ``box``, or filling a card
    surface of the box's size)."""
    if surface.get_size() == box.size and surface.get_flags() & pygame.SRCALPHA:
        surface.fill((*theme.PANEL, alpha))
        pygame.draw.rect(surface, theme.PANEL_EDGE, surface.get_rect(), 1, border_radius=5)
        return
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((*theme.PANEL, alpha))
    surface.blit(shade, box)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=5)


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
