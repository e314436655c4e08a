"""Moving the view by hand: a held mouse button dragged over the paper, or a key's step.

Every scene that shows paper pans it the same way, so a player's hand learns it once: the
race, Graph Trees, the replays and the editor hold a ``Drag`` and hand it their presses,
motions and releases. Where a click on the paper also means something (a point to go to),
the drag waits until the pointer has moved a few pixels, so a slightly shaky click is still
a click; where it means nothing else (the replays, the editor's middle button), it follows
the pointer from the first pixel.
"""

from __future__ import annotations

from dataclasses import dataclass

from racetrack.ui.render.camera import Camera

#: Pixels the view moves for one press of an arrow key.
PAN_STEP = 60
#: Pixels (across plus down) a held button moves before a click becomes a drag.
DRAG_THRESHOLD = 5
#: The arrow keys and which way each moves the paper (the view looks the other way).
KEY_PANS = {"left": (PAN_STEP, 0), "right": (-PAN_STEP, 0),
            "up": (0, PAN_STEP), "down": (0, -PAN_STEP)}


@dataclass
class Drag:
    """One held mouse button over the paper: a click until it moves past ``threshold``
    pixels, a pan of the camera from then until it is let go (at once, with no threshold)."""

    threshold: int = DRAG_THRESHOLD
    press: tuple[int, int] | None = None  # where the button went down (None: not held)
    dragged: bool = False  # the press has become a drag

    @property
    def held(self) -> bool:
        return self.press is not None

    def start(self, pos: tuple[int, int]) -> None:
        self.press, self.dragged = pos, False

    def move(self, camera: Camera, pos: tuple[int, int], rel: tuple[int, int],
             dragging: bool = True) -> bool:
        """The pointer moved to ``pos`` by ``rel`` (``dragging``: with a button held); pans
        ``camera`` once the press has become a drag, and says whether it did."""
        if not dragging or self.press is None:
            return False
        moved = abs(pos[0] - self.press[0]) + abs(pos[1] - self.press[1])
        self.dragged = self.dragged or not self.threshold or moved > self.threshold
        if self.dragged:
            camera.pan(*rel)
        return self.dragged

    def end(self) -> bool:
        """The button was let go: says whether it was a click (held, and never dragged)."""
        clicked = self.press is not None and not self.dragged
        self.press, self.dragged = None, False
        return clicked


def pan_by_key(camera: Camera, name: str) -> bool:
    """An arrow key's step: moves ``camera`` if ``name`` is an arrow, and says whether it did."""
    if name not in KEY_PANS:
        return False
    camera.pan(*KEY_PANS[name])
    return True
