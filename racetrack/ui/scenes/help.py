"""How to play, for the chosen rules: the movement rule drawn on graph paper (the last move, the
ring where repeating it leads, the points to choose from), every mark a point can carry, and the
rules in words, each line under what it is about, read from the rule set's own options table
so each variant explains itself (``rules.explain``), and only what applies on the chosen track.

Reachable from the menu, the New race screen and the pause menu.
"""

from __future__ import annotations

import html

import pygame

from racetrack.geometry import Vec
from racetrack.outlook import Look
from racetrack.rules import RuleSet, load_rules
from racetrack.rules.explain import rule_lines
from racetrack.rules.moves import CHANGES
from racetrack.track import Track
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.render import marks
from racetrack.ui.scenes.form import FormScene, heading


class HelpScene(FormScene):
    idles = True
    caption = "How to play"
    def __init__(self, app, rules: str | RuleSet = "gardner", track: Track | str | None = None):
        """The page for ``rules``; with the ``track`` (or its name, for the title only) the
        rules' lines are those that apply on it."""
        super().__init__(app)
        try:
            self.rules = rules if isinstance(rules, RuleSet) else load_rules(rules)
        except ValueError:
            self.rules = load_rules("gardner")
        self.track = track if isinstance(track, Track) else None
        self.track_name = track.name if isinstance(track, Track) else (track or "")
        self.diagram = pygame.Rect(0, 0, 0, 0)

    def layout(self, page: Page, width: int, height: int) -> None:
        top = theme.px(96)
        bottom = height - theme.px(76)
        left_width = max(theme.px(300), min(width // 2 - theme.px(30), theme.px(560)))
        self.diagram = pygame.Rect(theme.px(24), top, left_width, bottom - top)
        text_x = self.diagram.right + theme.px(24)
        page.text_box((text_x, top, width - text_x - theme.px(24), bottom - top),
                      self.text())
        page.button((theme.px(24), height - theme.px(64), theme.px(160), theme.px(50)),
                    "Back", self.back)
        page.button((theme.px(200), height - theme.px(64), theme.px(220), theme.px(50)),
                    "Tutorial race", self.tutorial,
                    tooltip="A short race on the oval that walks you through the first turns")

    def text(self) -> str:
        rules = self.rules
        out = [f"<b>The {html.escape(rules.name)} rules</b>"]
        if rules.description:
            out.append(html.escape(rules.description))
        out.append("")
        out.append("<b>A turn.</b> Each car repeats its last move, changed a little: the "
                   "ring marks where the same move again leads, and the dots around it are "
                   "where the car may go. Click one; or choose one with the arrow keys (or W, "
                   "A, S, D) and press Enter or Space; or press a digit, on the keypad or the "
                   "top row, laid out like the grid round the ring: 5 is the ring. The line "
                   "from the car to the point must stay on the track. Speed is easy to gain "
                   "and hard to lose: brake for the bends in time.")
        out.append("")
        out.append("<b>Before you click.</b> Point at any dot to read what it does, in "
                   "numbers: the damage a wall costs and whether the car is out, how far "
                   "past the line a finish ends. A small warning triangle means the car "
                   "would be too fast to go on safely next turn. A move that puts your car "
                   "out asks first: choose the point again, or press Enter, to make it.")
        out.append("")
        where = f" on {html.escape(self.track.name)}" if self.track is not None else ""
        out.append(f"<b>These rules{where}.</b>")
        out += [f"• <b>{html.escape(line.topic)}:</b> {html.escape(line.words)}"
                for line in rule_lines(rules, self.track)]
        out.append("")
        out.append("<b>Keys.</b> Wheel or + and - zoom; drag, or Shift and the arrows, pan; "
                   "F follows your car again; Ctrl+Z or Backspace takes your last move back "
                   "(where the race allows it); Esc pauses; F11 fullscreen; F12 a "
                   "screenshot.")
        return "<br>".join(out)

    def tutorial(self) -> None:
        self.app.routes.tutorial()

    def draw_paper(self, surface: pygame.Surface) -> None:
        title = f"How to play{': ' + self.track_name if self.track_name else ''}"
        heading(surface, title, (theme.px(24), theme.px(26)), 46)
        self.draw_movement(surface, self.diagram)

    def draw_movement(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """The movement rule on a piece of paper: a car's last two points, its velocity
        repeated to the ring, and the points the rules let it choose from; then every mark
        a candidate can carry."""
        if box.w <= 0 or box.h <= 0:
            return
        colours = theme.palette()
        shown = list(marks.LEGEND)
        # In two columns where one would leave the drawing too little room and two fit.
        columns = 2 if (marks.legend_size(shown)[1] > box.h * 0.45
                        and marks.legend_size(shown, 2)[0] <= box.w) else 1
        key = theme.ui_font(18).render("Every mark a point can carry:", True, theme.MUTED)
        legend_height = marks.legend_size(shown, columns)[1] + key.get_height()
        paper = pygame.Rect(box.x, box.y, box.w, max(theme.px(160), box.h - legend_height
                                                     - theme.px(16)))
        pygame.draw.rect(surface, colours.paper, paper)
        # The lattice: 11 squares across, 8 up, points counted from the bottom left.
        cell = max(10, min(paper.w // 11, paper.h // 8))
        origin = (paper.x + (paper.w - cell * 10) // 2, paper.bottom - cell)
        clip = surface.get_clip()
        surface.set_clip(paper)
        for k in range(-1, 12):
            x = origin[0] + k * cell
            pygame.draw.line(surface, colours.grid, (x, paper.y), (x, paper.bottom))
            y = origin[1] - k * cell
            pygame.draw.line(surface, colours.grid, (paper.x, y), (paper.right, y))

        def at(point: Vec) -> tuple[int, int]:
            return origin[0] + point.x * cell, origin[1] - point.y * cell

        pencil = colours.pencil("red")
        before, start, here = Vec(1, 0), Vec(3, 1), Vec(5, 2)
        ring = here + (here - start)
        pygame.draw.line(surface, pencil, at(before), at(start), 3)
        pygame.draw.line(surface, pencil, at(start), at(here), 3)
        for point in (before, start):
            pygame.draw.circle(surface, pencil, at(point), 4)
        ghost = theme.pale(pencil, 0.45)
        pygame.draw.line(surface, ghost, at(here), at(ring), 2)
        marks.arrow_head(surface, ghost, at(here), at(ring), cell * 0.45)
        radius = max(5, cell // 5)
        pygame.draw.circle(surface, colours.ink, at(ring), radius * 2, 2)
        for change in CHANGES[self.rules.movement_choices]:
            point = ring + change
            look = Look.ILLEGAL if (change.is_zero and self.rules.movement_must_change) \
                else Look.SAFE
            marks.draw(surface, look, at(point), radius, pencil)
        pygame.draw.circle(surface, pencil, at(here), radius * 1.6)
        pygame.draw.circle(surface, colours.ink, at(here), radius * 1.6, 2)
        notes = theme.hand(max(16, round(cell * 0.6)), bold=True)
        reach = 2.6 if self.rules.movement_choices == "square-24" else 1.6
        for text, where, offset in (
                ("last move", at(Vec(4, 1)), (cell * 0.3, cell * 0.1)),
                ("your car", at(here), (-cell * 2.6, -cell * 0.9)),
                ("same move again", at(ring), (-cell * 1.5, -cell * (reach + 0.6)))):
            label = notes.render(text, True, colours.ink)
            surface.blit(label, (where[0] + offset[0], where[1] + offset[1]))
        surface.set_clip(clip)
        pygame.draw.rect(surface, theme.PANEL_EDGE, paper, 1)
        words = {"plus": "5 choices: same move, or one square more or less N, S, E or W",
                 "square": "9 choices: each part of the move changes by at most one",
                 "square-24": "25 choices: each part changes by at most two"}
        caption = theme.ui_font(18).render(words[self.rules.movement_choices], True,
                                           theme.MUTED)
        surface.blit(caption, (paper.x + theme.px(6), paper.y + theme.px(4)))
        top = paper.bottom + theme.px(6)
        legend = marks.draw_legend(surface, shown, pencil,
                                   (box.x + box.w, top + key.get_height() + theme.px(4)),
                                   columns=columns)
        surface.blit(key, (legend.x, top))  # over the legend it names
