"""What the menu screens share: a page of pygame_gui widgets on graph paper, laid out again
whenever the window's size or the UI scale changes, with Esc to go back."""

from __future__ import annotations

from pathlib import Path

import pygame

from racetrack.errors import FileProblemError
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.input import Intent, Key
from racetrack.ui.render.sheet import paper_background


class FormScene:
    """A screen of widgets. Subclasses lay them out in ``layout(page, width, height)`` and draw
    anything of their own on the paper in ``draw_paper``."""

    overlay = False
    #: True for a screen that changes only on input, or when a job it waits on wakes the
    #: window (``ui.waking``): the window sleeps between (``ui.app``). A screen that moves
    #: by itself leaves it False, or says when it moves in ``animating``.
    idles = False

    @property
    def animating(self) -> bool:
        """Whether the screen changes without input, so the window draws every frame."""
        return not self.idles

    def __init__(self, app):
        self.app = app
        self._laid_out: tuple | None = None
        self.page: Page | None = None

    @property
    def form(self) -> Page:
        """The page of widgets (laid out on first use)."""
        self.ensure_layout()
        assert self.page is not None
        return self.page

    def ensure_layout(self) -> None:
        page = self.app.page(self)
        if self._laid_out != self.app.layout_key or page is not self.page:
            first = self.page is not page
            focus = self.page.focus if not first else 0
            self.page = page
            page.clear()
            width, height = self.app.size
            self.layout(page, width, height)
            if first:
                focus = self.first_focus(page)
            page.focus = min(focus, max(0, len(page.widgets) - 1))
            self._laid_out = self.app.layout_key

    def first_focus(self, page: Page) -> int:
        """The control Enter uses when the screen opens."""
        return 0

    def relayout(self) -> None:
        """Lay the widgets out again on the next frame (a choice changed what is shown)."""
        self._laid_out = None

    def layout(self, page: Page, width: int, height: int) -> None:
        raise NotImplementedError

    def back(self) -> None:
        self.app.pop()

    def handle(self, intent: Intent) -> None:
        self.ensure_layout()
        if self.page.modal:
            return
        if isinstance(intent, Key) and intent.name == "escape":
            self.back()  # (Esc in an open list only closes it: ``Gui.process``)
            return
        if self.page.handle(intent):
            return
        self.on_intent(intent)

    def on_intent(self, intent: Intent) -> None:
        """An intent the widgets did not use (clicks on the paper, other keys)."""

    def update(self, dt: float) -> None:
        self.ensure_layout()

    def draw(self, surface: pygame.Surface) -> None:
        if not self.overlay:
            paper_background(surface, theme.px(24))
        self.draw_paper(surface)

    def draw_paper(self, surface: pygame.Surface) -> None:
        """Whatever the screen draws itself, under the widgets."""


def read_file(load, path: Path) -> tuple[object | None, str]:
    """A player's file read by ``load`` (a track, a replay): the result, or ``None`` and the
    problem in one line (the file's first problem, or why it could not be read)."""
    try:
        return load(path), ""
    except FileProblemError as exc:
        return None, str(exc.problems[0])
    except OSError as exc:
        return None, f"{path.name}: {exc.strerror or exc}"


def heading(surface: pygame.Surface, text: str, at: tuple[int, int], size: int = 44,
            centred: bool = False) -> pygame.Rect:
    """A screen's heading in ink; returns where it went."""
    rendered = theme.ui_font(size, bold=True).render(text, True, theme.palette().ink)
    rect = rendered.get_rect(midtop=at) if centred else rendered.get_rect(topleft=at)
    surface.blit(rendered, rect)
    return rect
