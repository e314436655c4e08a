"""Where the race's camera looks, and where its cards go: the whole track where it fits
readably, else following the cars at the player's zoom; the car to move and every point it may
go to kept clear of the window's edges (and, in the tutorial, of the coach's card); the car
list and the legend moved off the points they would hide.

A part of ``RaceScene`` (``scenes/race.py``), kept here so each file has one job; it reads the
scene's ``camera``, ``sheet``, ``race``, ``state``, ``glide``, ``human_turn``, ``intro``,
``zoomed`` and ``follow_scale``, and keeps ``camera_moving`` (the camera moved on the last
frame: the window draws on while it does). A scene changes where it looks by overriding
``whole_scale``, ``following_scale``, ``followed_car`` and ``clear_area`` (the tutorial does).
"""

from __future__ import annotations

import pygame

from racetrack.outlook import Outlook
from racetrack.ui import theme
from racetrack.ui.render import hud
from racetrack.ui.render.camera import MAX_SCALE

#: Squares of track the default zoom shows from top to bottom of the paper.
FOLLOW_SQUARES = 28
#: Squares of paper shown round a track seen whole.
WHOLE_MARGIN = 1.5


class RaceCamera:
    """The race scene's framing: see the module's words."""

    camera_moving = False

    def whole_scale(self) -> float | None:
        """The zoom that shows the whole track, where that is readable (no smaller than the
        comfortable zoom the race would follow the cars at): a small map, its checkpoints and
        finish in view all race long. ``None`` for a track too large for it, or where the
        player has chosen a closer zoom (in this race, or kept from an earlier one)."""
        if self.zoomed:
            return None
        minx, miny, maxx, maxy = self.race.track.bounds
        camera, margin = self.camera, WHOLE_MARGIN
        scale = min(camera.width / (maxx - minx + 2 * margin),
                    camera.height / (maxy - miny + 2 * margin))
        scale = min(scale, self.sheet.max_scale, MAX_SCALE)
        if scale < camera.height / FOLLOW_SQUARES or (self.follow_scale or 0) > scale:
            return None
        return scale

    def following_scale(self) -> float:
        """The zoom the race follows the cars at: the whole track where it fits, readable;
        else the player's, or a comfortable one."""
        whole = self.whole_scale()
        if whole is not None:
            return whole
        if self.follow_scale is None:
            comfortable = self.camera.height / FOLLOW_SQUARES
            self.follow_scale = max(self.camera.scale, comfortable)
        return min(self.follow_scale, self.sheet.max_scale, MAX_SCALE)

    def _start_following(self) -> None:
        """The announcement is over: zoom to the player's zoom and follow the cars."""
        self.intro = 0.0
        if self.whole_scale() is not None:  # the whole track stays in view: nothing to follow
            self.camera.fit(self.race.track.bounds, WHOLE_MARGIN)
            self.camera.scale = self.following_scale()
            self.camera.followed = False
            return
        self.camera.scale = self.following_scale()
        self.camera.followed = True
        self._follow(1.0)

    def _zoom(self, factor: float, around: tuple[int, int] | None = None) -> None:
        if self.intro:
            self._start_following()
        whole = self.whole_scale() is not None
        self.camera.zoom(factor, around)
        self.camera.scale = min(self.camera.scale, self.sheet.max_scale)
        self.follow_scale = self.camera.scale
        self.zoomed = True
        if whole:  # zoomed in from the whole track: follow the cars from now on
            self.camera.followed = True

    def followed_car(self) -> int | None:
        """The car the camera follows: the one gliding, else the one to move."""
        return self.glide.car if self.glide is not None else self.state.current_car

    def clear_area(self) -> tuple[int, int, int, int]:
        """The part of the window (left, top, right, bottom) the followed car and the points
        it may go to are kept in: the paper, less a margin round its edges (a square of
        paper at the least, so a point is never drawn half off the window)."""
        margin = max(theme.px(30), round(self.camera.scale))
        camera = self.camera
        return (camera.offset_x + margin, camera.offset_y + margin,
                camera.offset_x + camera.width - margin, camera.offset_y + camera.height - margin)

    def _follow(self, dt: float) -> None:
        """Glide the camera towards where the followed car is heading, and keep that car
        and every point it may go to this turn in the clear area, zooming out for them if
        they are too far apart (the player's zoom is kept for the turns after)."""
        self.camera_moving = False
        if not self.camera.followed:
            return
        index = self.followed_car()
        if index is None:
            return
        before = (self.camera.centre_x, self.camera.centre_y, self.camera.scale)
        self.camera.scale = self.following_scale()
        if self.glide is not None and self.glide.car == index:
            x, y = self.glide.where()
            points = [(x, y), tuple(self.glide.end)]
        else:
            # Look ahead to where the unchanged move leads, so the candidates are in view
            # (the missile's, when the player moves its missile).
            missile = self.state.steering if index == self.state.current_car else None
            car = missile if missile is not None else self.state.cars[index]
            x = car.position.x + car.velocity.x * 0.5
            y = car.position.y + car.velocity.y * 0.5
            points = [tuple(car.position)]
            if index == self.state.current_car and self.human_turn:
                points += [tuple(c.target) for c in self.state.candidates()]
        self.camera.follow(x, y, ease=min(1.0, dt * 4))
        self.camera.keep_inside(points, self.clear_area())
        after = (self.camera.centre_x, self.camera.centre_y, self.camera.scale)
        self.camera_moving = any(abs(a - b) > 0.01 for a, b in zip(before, after,
                                                                      strict=True))

    def panel_boxes(self, sizes: list[tuple[int, int]],
                    found: list[Outlook]) -> list[pygame.Rect]:
        """Where the car list and the legend below it go: the top right of the window, or
        its bottom right where the top would cover the car to move or its candidates (a map
        seen whole reaches into the corners, and a dot under a card cannot be seen)."""
        gap = theme.px(8)
        right = self.camera.offset_x + self.camera.width - gap
        height = sum(h for _, h in sizes) + gap * (len(sizes) - 1)
        width = max(w for w, _ in sizes)
        top = hud.bar_height() + gap
        bottom = self.camera.offset_y + self.camera.height - gap - height
        busy = self._busy_rect(found)
        if busy is not None and busy.colliderect(
                pygame.Rect(right - width, top, width, height)):
            below = pygame.Rect(right - width, bottom, width, height)
            if bottom > top and not busy.colliderect(below):
                top = bottom
        boxes = []
        for w, h in sizes:
            boxes.append(pygame.Rect(right - w, top, w, h))
            top += h + gap
        return boxes

    def _busy_rect(self, found: list[Outlook]) -> pygame.Rect | None:
        """The part of the window the player's turn needs in sight: the car to move and the
        points it may go to, with room for their marks."""
        index = self.state.current_car
        if not found or index is None:
            return None
        points = [self.state.cars[index].position, *(o.target for o in found)]
        xs, ys = zip(*(self.camera.to_screen(p[0], p[1]) for p in points), strict=True)
        room = theme.px(16)
        return pygame.Rect(min(xs) - room, min(ys) - room, max(xs) - min(xs) + 2 * room,
                           max(ys) - min(ys) + 2 * room)
