"""Drawing a game of Graph Trees: the sheet, territory shaded in pale pencil, the tracks with
hash marks for their velocity, the nodes, the candidate dots and the score bar.

The sheet (paper and grid) is cached per zoom level like the racing sheet; the rest is a few
hundred lines and polygons, drawn every frame from the state (which caches its territory).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from racetrack.board.geometry import Vec
from racetrack.games.trees import Candidate, TreesState
from racetrack.ui import theme
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.lines import dashed_line

BAR_HEIGHT = 58
LEGAL = (40, 170, 70)      # the source's green dots
ILLEGAL = (236, 140, 30)   # and its orange ones
OUTSIDE = (226, 222, 210)
TERRITORY_ALPHA = 70


class BoardCache:
    """The paper inside the sheet's edge, and the grid, at one scale."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.scale = 0.0
        self.surface: pygame.Surface | None = None

    def draw(self, target: pygame.Surface, camera: Camera) -> None:
        if self.surface is None or abs(self.scale - camera.scale) > 1e-6:
            self._render(camera.scale)
        sx, sy = camera.to_screen(0, 0)
        target.blit(self.surface, (round(sx), round(sy)))

    def _render(self, scale: float) -> None:
        self.scale = scale
        colours = theme.palette()
        w, h = round(self.width * scale) + 1, round(self.height * scale) + 1
        surface = pygame.Surface((w, h))
        surface.fill(colours.paper)
        for x in range(self.width + 1):
            pygame.draw.line(surface, colours.grid_major if x % 10 == 0 else colours.grid,
                             (round(x * scale), 0), (round(x * scale), h))
        for y in range(self.height + 1):
            pygame.draw.line(surface, colours.grid_major if y % 10 == 0 else colours.grid,
                             (0, round(y * scale)), (w, round(y * scale)))
        pygame.draw.rect(surface, colours.ink, surface.get_rect(), max(2, round(scale / 10)))
        self.surface = surface


def pale(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(round(c + (255 - c) * 0.55) for c in colour)  # type: ignore[return-value]


def draw_board(surface: pygame.Surface, state: TreesState, camera: Camera,
               board: BoardCache) -> None:
    """Everything on the paper: sheet, territory, tracks, nodes and hash marks."""
    surface.fill(OUTSIDE)
    board.draw(surface, camera)
    draw_territory(surface, state, camera)
    draw_tracks(surface, state, camera)


def draw_territory(surface: pygame.Surface, state: TreesState, camera: Camera) -> None:
    colours = theme.palette()
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    radius = max(1, round(camera.scale / 10))
    for player, setup in enumerate(state.game.players):
        territory = state.territory(player)
        if not territory.faces:
            continue
        colour = colours.pencil(setup.colour)
        for face in territory.faces:
            points = [camera.to_screen(x, y) for x, y in face.exterior.coords]
            pygame.draw.polygon(layer, (*colour, TERRITORY_ALPHA), points)
        ys, xs = territory.points.nonzero()
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
            pygame.draw.circle(layer, (*colour, 110), camera.to_screen(x, y), radius)
    surface.blit(layer, (0, 0))


def draw_tracks(surface: pygame.Surface, state: TreesState, camera: Camera) -> None:
    colours = theme.palette()
    width = max(2, round(camera.scale / 9))
    for track in state.tracks:
        colour = colours.pencil(state.game.players[track.owner].colour)
        points = [camera.to_screen(*p) for p in track.nodes]
        pygame.draw.lines(surface, colour, False, points, width)
        for point in points[1:]:
            pygame.draw.circle(surface, colour, point, width + 1)
        # Levi's faint hash marks through a new track's first segment, so it reads as a track
        # of its own; the last segment's marks count its speed (squares per turn).
        _hashes(surface, points[0], points[1], 1, pale(colour), camera.scale)
        _hashes(surface, points[-2], points[-1], track.velocity.speed, colour, camera.scale)
    for player, start in enumerate(state.rules.starts):
        colour = colours.pencil(state.game.players[player].colour)
        centre = camera.to_screen(*start)
        pygame.draw.circle(surface, colour, centre, max(6, camera.scale * 0.35))
        pygame.draw.circle(surface, colours.ink, centre, max(6, camera.scale * 0.35), 2)


def _hashes(surface, a, b, count: int, colour, scale: float) -> None:
    """``count`` short ticks across the segment a -> b, around its middle."""
    length = math.dist(a, b)
    if length < 1:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    half = max(4.0, scale * 0.22)
    gap = max(4.0, scale * 0.16)
    count = min(count, 6)
    for i in range(count):
        t = length / 2 + (i - (count - 1) / 2) * gap
        cx, cy = a[0] + ux * t, a[1] + uy * t
        pygame.draw.line(surface, colour, (cx - uy * half, cy + ux * half),
                         (cx + uy * half, cy - ux * half), 2)


def draw_selection(surface: pygame.Surface, state: TreesState, camera: Camera,
                   source: Vec | None, track: int | None) -> None:
    """The chosen source (a ring) and, for a track, the ghost of its unchanged next segment."""
    if source is None:
        return
    colours = theme.palette()
    centre = camera.to_screen(*source)
    pygame.draw.circle(surface, colours.ink, centre, max(8, camera.scale * 0.45), 2)
    if track is not None:
        ahead = state.tracks[track].tip + state.tracks[track].velocity
        end = camera.to_screen(*ahead)
        dashed_line(surface, colours.ink, centre, end, 1, max(5.0, camera.scale / 4))
        pygame.draw.circle(surface, colours.ink, end, max(5, camera.scale * 0.3), 1)


def draw_candidates(surface: pygame.Surface, camera: Camera, candidates: Sequence[Candidate],
                    hover: Vec | None) -> None:
    """Green dots where the chosen source may go, orange where it may not."""
    radius = max(4, round(camera.scale * 0.2))
    for candidate in candidates:
        centre = camera.to_screen(*candidate.target)
        if candidate.legal:
            pygame.draw.circle(surface, LEGAL, centre, radius + (2 if candidate.target == hover
                                                                 else 0))
        else:
            pygame.draw.circle(surface, ILLEGAL, centre, max(3, radius - 1))


def draw_bar(surface: pygame.Surface, state: TreesState, note: str) -> None:
    """Whose turn and what they are doing, then every player's territory."""
    width = surface.get_width()
    colours = theme.palette()
    pygame.draw.rect(surface, theme.PANEL, (0, 0, width, BAR_HEIGHT))
    pygame.draw.line(surface, theme.PANEL_EDGE, (0, BAR_HEIGHT), (width, BAR_HEIGHT), 2)
    players = state.game.players
    if state.is_over:
        outcome = state.outcome
        winner = "a draw" if outcome.winner is None else f"{players[outcome.winner].name} wins"
        headline, colour = f"Game over: {winner}", theme.palette().ink
    else:
        player = players[state.current]
        headline = player.name + ("" if player.is_human else f" ({player.kind})")
        colour = colours.pencil(player.colour)
    pygame.draw.circle(surface, colour, (26, 29), 12)
    surface.blit(theme.font(32, bold=True).render(headline, True, theme.TEXT), (48, 8))
    details = f"turn {len(state.history) + 1}" + (f"   ·   {note}" if note else "")
    if state.is_over:
        details = state.outcome.termination.value
    surface.blit(theme.font(22).render(details, True, theme.MUTED), (48, 36))
    x = width - 14
    scores = state.scores()
    for i in reversed(range(len(players))):
        agreed = "  (agrees)" if i in state.agreed and not state.is_over else ""
        text = theme.font(26, bold=True).render(f"{players[i].name} {scores[i]}{agreed}", True,
                                                theme.TEXT)
        x -= text.get_width()
        surface.blit(text, (x, 18))
        x -= 20
        pygame.draw.circle(surface, colours.pencil(players[i].colour), (x + 8, 28), 8)
        x -= 18
