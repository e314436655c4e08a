"""The editor's side panel: the drawing's name and file, a button per tool, the tool's options,
the rules to test with, laps, what is wrong and what the solver says, and the actions.

The buttons and lists are pygame_gui's, on the editor's page, themed like every other screen,
each with its key in a tooltip; every one is also a key, and the keys go to the drawing, so the
panel's controls never take the keyboard focus. The panel lays them out, writes what the state
holds beside them, and calls back into the scene.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from racetrack.board.track import COLLECTABLE_KINDS, ZONE_KINDS
from racetrack.board.track.draft import AREA_KINDS, Severity
from racetrack.editing import EditorState, Tool
from racetrack.editing import parts as P
from racetrack.editing.road import MAX_WIDTH, MIN_WIDTH
from racetrack.editing.tools import TOOL_HELP
from racetrack.ui import theme
from racetrack.ui.gui import Button, Choice, Page
from racetrack.ui.render.words import shorten, wrap_pixels

TOOL_LABELS = {Tool.SELECT: "Select", Tool.ROAD: "Road", Tool.OUTLINE: "Outline",
               Tool.HOLE: "Hole", Tool.ZONE: "Zone", Tool.START: "Start",
               Tool.FINISH: "Finish", Tool.CHECKPOINT: "Checkpoint",
               Tool.WAYPOINT: "Waypoint", Tool.COLLECTABLE: "Coin, gadget",
               Tool.AREA: "Area", Tool.PLACE: "Start place"}
PROBLEM = (180, 40, 40)
WARNING = (176, 100, 10)
WIDTHS = [f"{w:g}" for w in range(int(MIN_WIDTH), int(MAX_WIDTH) + 1)]
LAPS = [f"{n} lap{'s' if n > 1 else ''}" for n in range(1, 100)]
#: The actions along the foot: words, what they do (an ``Actions`` field), their keys.
ACTIONS = (("Save", "save", "Ctrl+S; Ctrl+Shift+S saves as"),
           ("Open", "open", "open a track or a map (Ctrl+O)"),
           ("New", "new", "start again from a template (Ctrl+N)"),
           ("Test drive", "test_drive", "show the optimal line and the par (T)"),
           ("Race", "race", "race on it now (R)"),
           ("Menu", "menu", "back to the menu, asking first if unsaved (Esc)"))


def panel_width(window_width: int) -> int:
    return max(280, min(theme.px(340), round(window_width * 0.28)))


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
    def __init__(self, actions: Actions, variants: list[str], rules: str = "gardner"):
        self.actions = actions
        self.variants = variants
        self.rules_name = rules if rules in variants else variants[0]
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.page: Page | None = None
        self.tool_buttons: dict[Tool, Button] = {}
        self.buttons: dict[str, Button] = {}
        self.rules: Choice | None = None
        self.laps: Choice | None = None
        self.option: Choice | None = None
        self.option_label = ""
        self.hint_top = self.text_top = self.text_bottom = 0
        self._shape: tuple | None = None

    # -- layout ----------------------------------------------------------------------------

    def layout(self, state: EditorState, page: Page, layout_key: tuple) -> None:
        """Lay the controls out again when the window, the widgets, the tool or the
        selection changed; otherwise show what the state holds now."""
        window = page.app.size
        shape = (layout_key, id(page), state.tool, _option_kind(state))
        if shape == self._shape and page is self.page:
            self._refresh(state)
            return
        self._shape, self.page = shape, page
        page.clear()
        width, height = window
        self.rect = pygame.Rect(width - panel_width(width), 0, panel_width(width), height)
        gap = theme.px(6)
        x, inner = self.rect.x + theme.px(12), self.rect.w - theme.px(24)
        y = theme.px(14) + theme.ui_font(28, True).get_linesize() \
            + theme.ui_font(19).get_linesize() + theme.px(6)
        half, row = (inner - gap) // 2, theme.px(30)
        self.tool_buttons = {}
        for i, tool in enumerate(Tool):
            rect = (x + (i % 2) * (half + gap), y + (i // 2) * (row + theme.px(4)), half, row)
            self.tool_buttons[tool] = page.button(
                rect, f"{TOOL_LABELS[tool]}  {tool.key.upper()}",
                lambda t=tool: self.actions.tool(t),
                tooltip=f"{TOOL_HELP[tool]} ({tool.key.upper()})",
                style="small", focusable=False)
        y += (len(Tool) + 1) // 2 * (row + theme.px(4)) + theme.px(2)
        self.hint_top = y
        y += len(self.hint_lines(state)) * theme.ui_font(19).get_linesize() + theme.px(6)
        self.option, self.option_label = None, ""
        made = _option_choices(state)
        if made is not None:
            self.option_label, choices, on_change = made
            label_width = theme.ui_font(20).size(self.option_label)[0] + gap
            self.option = page.choice((x + label_width, y, inner - label_width, row), choices,
                                      _option_value(state) or choices[0], on_change,
                                      height_limit=max(theme.px(120), height - y - row * 2))
            self.option_top = y
            y += row + gap
        laps_width = max(theme.px(90), inner * 2 // 5)
        limit = max(theme.px(120), height - y - row * 2)
        self.rules = page.choice((x, y, inner - laps_width - gap, row), self.variants,
                                 self.rules_name, self._rules_chosen, height_limit=limit,
                                 tooltip="the rules for test drives and races")
        self.laps = page.choice((x + inner - laps_width, y, laps_width, row), LAPS,
                                LAPS[max(0, min(len(LAPS), state.draft.laps) - 1)],
                                lambda value: state.commit(state.draft.with_changes(
                                    laps=int(value.split()[0]))), height_limit=limit)
        y += row + gap
        self.text_top = y + theme.px(4)
        third, tall = (inner - 2 * gap) // 3, theme.px(36)
        top = height - 2 * (tall + gap) - theme.px(4)
        self.buttons = {}
        for i, (word, field, tip) in enumerate(ACTIONS):
            rect = (x + (i % 3) * (third + gap), top + (i // 3) * (tall + gap), third, tall)
            self.buttons[word] = page.button(rect, word, getattr(self.actions, field),
                                             tooltip=tip, focusable=False)
        self.text_bottom = top - theme.ui_font(19).get_linesize() - theme.px(6)
        self._refresh(state)

    def open_list(self) -> Choice | None:
        """The panel's drop-down whose list is open, if one is."""
        return next((choice for choice in (self.option, self.rules, self.laps)
                     if choice is not None and choice.expanded), None)

    def hint_lines(self, state: EditorState) -> list[str]:
        return wrap_pixels(TOOL_HELP[state.tool], theme.ui_font(19), self.rect.w - theme.px(24))

    def _rules_chosen(self, name: str) -> None:
        self.rules_name = name
        self.actions.rules(name)

    def set_rules(self, name: str) -> None:
        """Show ``name`` as the chosen rules (no callback)."""
        if name in self.variants:
            self.rules_name = name
            if self.rules is not None:
                self.rules.set(name)

    def _refresh(self, state: EditorState) -> None:
        if self.laps is not None and not self.laps.expanded:
            self.laps.set(LAPS[max(1, min(len(LAPS), state.draft.laps)) - 1])
        if self.option is not None and not self.option.expanded:
            value = _option_value(state)
            if value is not None:
                self.option.set(value)
        for tool, button in self.tool_buttons.items():
            chosen = tool is state.tool
            if chosen != button.element.is_selected:
                button.element.select() if chosen else button.element.unselect()

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, state: EditorState, status: list[tuple[str, tuple]]
             ) -> None:
        """The panel's paper and words (its controls are drawn over it by pygame_gui)."""
        panel = self.rect
        pygame.draw.rect(surface, theme.PANEL, panel)
        pygame.draw.line(surface, theme.PANEL_EDGE, panel.topleft, panel.bottomleft, 2)
        x, inner = panel.x + theme.px(12), panel.w - theme.px(24)
        title = theme.ui_font(28, True)
        surface.blit(title.render(shorten(state.draft.name, title, inner), True, theme.TEXT),
                     (x, theme.px(10)))
        where = state.path.name if state.path is not None else "not saved yet"
        if state.dirty:
            where += "  ·  unsaved changes"
        small = theme.ui_font(19)
        surface.blit(small.render(shorten(where, small, inner), True, theme.MUTED),
                     (x, theme.px(12) + title.get_linesize()))
        y = self.hint_top
        for piece in self.hint_lines(state):
            surface.blit(small.render(piece, True, theme.MUTED), (x, y))
            y += small.get_linesize()
        if self.option is not None:
            label = theme.ui_font(20).render(self.option_label, True, theme.TEXT)
            surface.blit(label, label.get_rect(midleft=(x, self.option.rect.centery)))
        self._draw_status(surface, status, x, inner)
        hint = small.render("F1: every key", True, theme.MUTED)
        surface.blit(hint, (x, self.text_bottom + theme.px(4)))

    def _draw_status(self, surface: pygame.Surface, status: list[tuple[str, tuple]], x: int,
                     inner: int) -> None:
        y, line = self.text_top, theme.ui_font(20).get_linesize()
        pieces = [(piece, colour, i == 0) for text, colour in status
                  for i, piece in enumerate(wrap_pixels(text, theme.ui_font(20, True), inner))]
        room = max(1, (self.text_bottom - y) // line)
        if len(pieces) > room:
            pieces = pieces[:room - 1] + [("… and more: point at the marks", theme.MUTED, True)]
        for piece, colour, first in pieces:
            y += theme.px(3) if first else 0
            font = theme.ui_font(20, colour != theme.MUTED)
            surface.blit(font.render(piece, True, colour), (x, y))
            y += line


def status_lines(state: EditorState, solving: bool) -> list[tuple[str, tuple]]:
    """The panel's report: problems, warnings, and the solver's par and fairness."""
    lines: list[tuple[str, tuple]] = []
    marks = state.marks()
    problems = [m for m in marks if m.severity is Severity.PROBLEM]
    warnings = [m for m in marks if m.severity is Severity.WARNING]
    analysis = state.analysis()
    if problems:
        lines.append((f"{len(problems)} problem{'s' if len(problems) != 1 else ''} to fix "
                      "before racing:", PROBLEM))
        lines += [(m.message, PROBLEM) for m in problems[:5]]
    elif analysis is None and solving:
        lines.append(("Checking that a car can finish from every start place…", theme.MUTED))
    else:
        lines.append(("Ready to race (R)", theme.START_COLOUR))
    lines += [(m.message, WARNING) for m in warnings[:4]]
    if analysis is not None:
        lines.append((analysis.par_text().capitalize(), theme.TEXT))
        fairness = analysis.fairness_text()
        if fairness:
            lines.append((fairness.capitalize(), theme.MUTED))
    return lines


def _option_kind(state: EditorState) -> str:
    if state.tool is Tool.ZONE:
        return "zone"
    if state.tool is Tool.AREA:
        return "area"
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


def _option_choices(state: EditorState) -> tuple[str, list[str], Callable[[str], None]] | None:
    """The tool's option: its label, its choices and what choosing one does."""
    kind = _option_kind(state)
    if kind in ("zone", "selected zone"):
        return "Kind (K)", list(ZONE_KINDS), state.palette.choose_zone_kind
    if kind in ("collectable", "selected collectable"):
        return "Item (K)", list(COLLECTABLE_KINDS), state.palette.choose_collectable_kind
    if kind == "area":
        return "Area (K)", list(AREA_KINDS), state.palette.choose_area_kind
    if kind == "road":
        return "Width ([ ])", WIDTHS, lambda value: state.palette.widen(
            float(value) - state.palette.road_width)
    return None


def _option_value(state: EditorState) -> str | None:
    """What the tool's option shows now (the selection's kind, or the next one drawn)."""
    kind = _option_kind(state)
    if kind == "zone":
        return state.palette.zone_kind
    if kind == "selected zone":
        return state.draft.zones[min(state.selection).index].kind
    if kind == "collectable":
        return state.palette.collectable_kind
    if kind == "selected collectable":
        return state.draft.collectables[min(state.selection).index].kind
    if kind == "area":
        return state.palette.area_kind
    if kind == "road":
        return f"{state.palette.road_width:g}"
    return None
