"""The editor's side panel: the drawing's name and file, a button per tool, the tool's options,
the rules to test with, laps, what is wrong and what the solver says, and the actions.

Everything here is also a key (the buttons name theirs); the panel only lays widgets out, says
what the state holds, and calls back into the scene.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from racetrack.draft import Severity
from racetrack.editing import EditorState, Tool
from racetrack.editing import parts as P
from racetrack.editing.road import MAX_WIDTH, MIN_WIDTH
from racetrack.editing.tools import TOOL_HELP
from racetrack.track import COLLECTABLE_KINDS, ZONE_KINDS
from racetrack.ui import theme
from racetrack.ui.widgets import Button, Cycler, Form, wrap

TOOL_LABELS = {Tool.SELECT: "Select", Tool.ROAD: "Road", Tool.OUTLINE: "Outline",
               Tool.HOLE: "Hole", Tool.ZONE: "Zone", Tool.START: "Start",
               Tool.FINISH: "Finish", Tool.CHECKPOINT: "Checkpoint",
               Tool.WAYPOINT: "Waypoint", Tool.COLLECTABLE: "Coin, gadget"}
PROBLEM = (180, 40, 40)
WARNING = (176, 100, 10)
WIDTHS = [f"{w:g}" for w in range(int(MIN_WIDTH), int(MAX_WIDTH) + 1)]


def panel_width(window_width: int) -> int:
    return max(260, min(340, round(window_width * 0.28)))


@dataclass
class Actions:
    """What the panel's buttons do (the scene's methods)."""

    tool: Callable[[Tool], None]
    save: Callable[[], None]
    open: Callable[[], None]
    new: Callable[[], None]
    test_drive: Callable[[], None]
    race: Callable[[], None]
    menu: Callable[[], None]
    rules: Callable[[str], None]
    help: Callable[[], None]


class EditorPanel:
    def __init__(self, actions: Actions, variants: list[str]):
        self.actions = actions
        self.variants = variants
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.form = Form()
        self.tool_buttons: dict[Tool, Button] = {}
        self.rules = Cycler(pygame.Rect(0, 0, 10, 10), choices=variants,
                            on_change=actions.rules, size=21,
                            tooltip="the rules for test drives and races")
        self.laps = Cycler(pygame.Rect(0, 0, 10, 10),
                           choices=[f"{n} lap{'s' if n > 1 else ''}" for n in range(1, 100)],
                           size=21)
        self.option: Cycler | None = None
        self.text_top = 0
        self.text_bottom = 0
        self._shape: tuple | None = None

    # -- layout ----------------------------------------------------------------------------

    def layout(self, state: EditorState, window: tuple[int, int]) -> None:
        """Lay the widgets out again when the window, the tool or the selection changed."""
        width, height = window
        shape = (window, state.tool, _option_kind(state))
        if shape == self._shape:
            self._refresh(state)
            return
        self._shape = shape
        self.rect = pygame.Rect(width - panel_width(width), 0, panel_width(width), height)
        x, inner = self.rect.x + 12, self.rect.w - 24
        y = 70
        self.tool_buttons = {}
        half = (inner - 6) // 2
        for i, tool in enumerate(Tool):
            rect = pygame.Rect(x + (i % 2) * (half + 6), y + (i // 2) * 31, half, 27)
            self.tool_buttons[tool] = Button(rect, text=f"{TOOL_LABELS[tool]}  {tool.key.upper()}",
                                             action=lambda t=tool: self.actions.tool(t), size=20)
        y += 5 * 31 + 4
        hint_lines = len(wrap(TOOL_HELP[state.tool], max(20, inner // 8)))
        self.hint_top = y
        y += hint_lines * 17 + 6
        widgets: list = list(self.tool_buttons.values())
        self.option = _option_widget(state, pygame.Rect(x, y, inner, 30))
        if self.option is not None:
            widgets.append(self.option)
            y += 34
        laps_width = max(90, inner * 2 // 5)
        self.rules.rect = pygame.Rect(x, y, inner - laps_width - 6, 30)
        self.laps.rect = pygame.Rect(self.rules.rect.right + 6, y, laps_width, 30)
        self.laps.on_change = lambda value: state.commit(state.draft.with_changes(
            laps=int(value.split()[0])))
        widgets += [self.rules, self.laps]
        y += 34
        self.text_top = y + 4
        buttons = [("Save", self.actions.save), ("Open", self.actions.open),
                   ("New", self.actions.new), ("Test drive", self.actions.test_drive),
                   ("Race", self.actions.race), ("Menu", self.actions.menu)]
        third = (inner - 12) // 3
        top = height - 2 * 40 - 8
        for i, (text, action) in enumerate(buttons):
            rect = pygame.Rect(x + (i % 3) * (third + 6), top + (i // 3) * 40, third, 34)
            widgets.append(Button(rect, text=text, action=action, size=21))
        self.text_bottom = top - 24
        self.form = Form(widgets)
        self._refresh(state)

    def _refresh(self, state: EditorState) -> None:
        self.laps.index = state.draft.laps - 1
        if self.option is not None:
            _set_option(self.option, state)

    def handle(self, intent) -> bool:
        return self.form.handle(intent)

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, state: EditorState, status: list[tuple[str, tuple]]
             ) -> None:
        panel = self.rect
        pygame.draw.rect(surface, theme.PANEL, panel)
        pygame.draw.line(surface, theme.PANEL_EDGE, panel.topleft, panel.bottomleft, 2)
        x, inner = panel.x + 12, panel.w - 24
        name = _fit(state.draft.name, theme.font(30, True), inner)
        surface.blit(theme.font(30, True).render(name, True, theme.TEXT), (x, 10))
        where = state.path.name if state.path is not None else "not saved yet"
        if state.dirty:
            where += "  ·  unsaved changes"
        surface.blit(theme.font(19).render(_fit(where, theme.font(19), inner), True,
                                           theme.MUTED), (x, 38))
        for widget in self.form.widgets:  # lit when pointed at: keys go to the drawing
            widget.draw(surface, widget.hovered)
        active = self.tool_buttons.get(state.tool)
        if active is not None:
            pygame.draw.rect(surface, theme.HIGHLIGHT, active.rect, border_radius=8)
            pygame.draw.rect(surface, theme.TEXT, active.rect, 2, border_radius=8)
            label = theme.font(20, True).render(active.text, True, theme.TEXT)
            surface.blit(label, label.get_rect(center=active.rect.center))
        y = self.hint_top
        for piece in wrap(TOOL_HELP[state.tool], max(20, inner // 8)):
            surface.blit(theme.font(18).render(piece, True, theme.MUTED), (x, y))
            y += 17
        y = self.text_top
        pieces = [(piece, colour, i == 0) for text, colour in status
                  for i, piece in enumerate(wrap(text, max(20, inner // 8)))]
        room = max(1, (self.text_bottom - y) // 18)
        if len(pieces) > room:
            pieces = pieces[:room - 1] + [("… and more: point at the marks", theme.MUTED, True)]
        for piece, colour, first in pieces:
            y += 3 if first else 0
            surface.blit(theme.font(19, colour != theme.MUTED).render(piece, True, colour),
                         (x, y))
            y += 18
        hint = theme.font(18).render("F1: every key", True, theme.MUTED)
        surface.blit(hint, (x, self.text_bottom + 4))


def status_lines(state: EditorState, solving: bool) -> list[tuple[str, tuple]]:
    """The panel's report: problems, warnings, and the solver's par and fairness."""
    lines: list[tuple[str, tuple]] = []
    marks = state.marks()
    problems = [m for m in marks if m.severity is Severity.PROBLEM]
    warnings = [m for m in marks if m.severity is Severity.WARNING]
    if problems:
        lines.append((f"{len(problems)} problem{'s' if len(problems) != 1 else ''} to fix "
                      "before racing:", PROBLEM))
        lines += [(m.message, PROBLEM) for m in problems[:5]]
    else:
        lines.append(("Ready to race (R)", theme.START_COLOUR))
    lines += [(m.message, WARNING) for m in warnings[:4]]
    analysis = state.analysis()
    if analysis is not None:
        lines.append((analysis.par_text().capitalize(), theme.TEXT))
        fairness = analysis.fairness_text()
        if fairness:
            lines.append((fairness.capitalize(), theme.MUTED))
    elif solving and not problems:
        lines.append(("Working out par…", theme.MUTED))
    return lines


def _option_kind(state: EditorState) -> str:
    if state.tool is Tool.ZONE:
        return "zone"
    if state.tool is Tool.COLLECTABLE:
        return "collectable"
    if state.tool is Tool.ROAD:
        return "road"
    kinds = {p.kind for p in state.selection}
    if state.tool is Tool.SELECT and kinds == {P.PartKind.ZONE}:
        return "selected zone"
    if state.tool is Tool.SELECT and kinds == {P.PartKind.COLLECTABLE}:
        return "selected collectable"
    return ""


def _option_widget(state: EditorState, rect: pygame.Rect) -> Cycler | None:
    kind = _option_kind(state)
    if kind in ("zone", "selected zone"):
        return Cycler(rect, label="Kind (K)", choices=ZONE_KINDS, size=22,
                      on_change=state.choose_zone_kind)
    if kind in ("collectable", "selected collectable"):
        return Cycler(rect, label="Item (K)", choices=COLLECTABLE_KINDS, size=22,
                      on_change=state.choose_collectable_kind)
    if kind == "road":
        return Cycler(rect, label="Width ([ ])", choices=WIDTHS, size=22,
                      on_change=lambda value: state.widen(float(value) - state.road_width))
    return None


def _set_option(option: Cycler, state: EditorState) -> None:
    kind = _option_kind(state)
    if kind == "zone":
        option.set(state.zone_kind)
    elif kind == "selected zone":
        option.set(state.draft.zones[min(state.selection).index].kind)
    elif kind == "collectable":
        option.set(state.collectable_kind)
    elif kind == "selected collectable":
        option.set(state.draft.collectables[min(state.selection).index].kind)
    elif kind == "road":
        option.set(f"{state.road_width:g}")


def _fit(text: str, font: pygame.font.Font, width: int) -> str:
    """The text, shortened with an ellipsis to fit the width."""
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"
