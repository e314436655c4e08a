"""How to play, for the chosen rules: the movement rule drawn on graph paper (the last move, the
ring where repeating it leads, the points to choose from), every mark a point can carry, and the
rules in words, read from the rule set's own options table so each variant explains itself.

Reachable from the menu, the New race screen and the pause menu.
"""

from __future__ import annotations

import html
import re

import pygame

from racetrack.geometry import Vec
from racetrack.outlook import Look
from racetrack.rules import RuleSet, load_rules
from racetrack.rules.moves import CHANGES
from racetrack.rules.options import OPTIONS
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.render import marks
from racetrack.ui.scenes.form import FormScene, heading

#: Options whose value only matters when it is not the quiet default, and the words for it.
QUIET = {"zones.oil": "none", "zones.jump": "none", "zones.slopes": "none", "pit-stop": "none",
         "equipment.shop": "none", "collectables": "ignored", "teams.scoring": "none",
         "start.grid": "spread", "start.direction": "forward", "checkpoints": "in-order",
         "areas.checkpoints": "any-order"}
#: What each option is about, in the words a player uses.
TOPICS = {"movement.choices": "Moves", "walls": "Walls", "leaving-track": "Leaving the track",
          "crash.outcome": "After a crash", "crash.damage": "Damage from a crash",
          "cars": "Other cars", "turn-order": "Order of play", "finish.end": "The race ends",
          "finish.tie-break": "Cars finishing in the same round", "zones.oil": "Oil",
          "zones.jump": "Jumps", "zones.water": "Water", "zones.slopes": "Slopes",
          "start.grid": "Start", "start.direction": "Way round", "checkpoints": "Checkpoints",
          "pit-stop": "Pit stop", "equipment.shop": "Shop", "collectables": "Collectables",
          "teams.scoring": "Teams", "areas.checkpoints": "Checkpoint cells"}
SKIPPED = {"max-rounds", "equipment.budget", "laps", "crash.miss-turns", "damage-limit",
           "equipment.brakes", "equipment.turbo", "movement.skid-speed", "crash.set-back"}


def rules_words(rules: RuleSet) -> list[str]:
    """The rules in short sentences, one per option that says something about play."""
    lines = []
    for option in OPTIONS:
        value = rules.option(option.key)
        if option.key in SKIPPED or QUIET.get(option.key) == value:
            continue
        if option.is_bool:
            if value:
                lines.append(option.doc.replace("When true ", "").capitalize())
            continue
        if option.choices and value in option.choices:
            meaning = re.sub(r"\s*\(see [^)]*\)", "", option.choices[value])
            topic = TOPICS.get(option.key)
            lines.append(f"{topic}: {meaning[0].lower() + meaning[1:]}" if topic
                         else meaning[0].upper() + meaning[1:])
    if rules.damage_limit is not None:
        lines.append(f"More than {rules.damage_limit} damage and the car is out.")
    if rules.crash_outcome == "set-back":
        lines.append(f"A car with no move is set back {rules.crash_set_back} of its moves.")
    if rules.crash_miss_turns:
        lines.append(f"A crashed car misses {rules.crash_miss_turns} turn(s).")
    if rules.movement_skid_speed is not None:
        lines.append(f"At speed {rules.movement_skid_speed} or more a car cannot brake and "
                     "turn in the same move.")
    if rules.equipment_brakes or rules.equipment_turbo:
        lines.append(f"Each car has {rules.equipment_brakes} good-brakes uses and "
                     f"{rules.equipment_turbo} turbo boosts (hollow diamonds).")
    if rules.laps:
        lines.append(f"{rules.laps} laps.")
    return lines


class HelpScene(FormScene):
    idles = True
    caption = "How to play"
    def __init__(self, app, rules: str | RuleSet = "gardner", track: str = ""):
        super().__init__(app)
        try:
            self.rules = rules if isinstance(rules, RuleSet) else load_rules(rules)
        except ValueError:
            self.rules = load_rules("gardner")
        self.track = track
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
                   "where the car may go. Click one (or use the numeric keypad, laid out "
                   "like the grid round the ring: 5 is the ring). The line from the car to "
                   "the point must stay on the track. Speed is easy to gain and hard to lose: "
                   "brake for the bends in time.")
        out.append("")
        out.append("<b>Before you click.</b> Point at any dot to read what it does, in "
                   "numbers: the damage a wall costs and whether the car is out, how far "
                   "past the line a finish ends. A small warning triangle means the car "
                   "would be too fast to go on safely next turn.")
        out.append("")
        out.append("<b>These rules.</b>")
        out += [f"• {html.escape(line)}" for line in rules_words(rules)]
        out.append("")
        out.append("<b>Keys.</b> Wheel or +/- zoom, drag or the arrows pan, F follows the "
                   "cars again, Esc pauses, F11 fullscreen, F12 a screenshot.")
        return "<br>".join(out)

    def tutorial(self) -> None:
        self.app.routes.tutorial()

    def draw_paper(self, surface: pygame.Surface) -> None:
        title = f"How to play{': ' + self.track if self.track else ''}"
        heading(surface, title, (theme.px(24), theme.px(26)), 46)
        self.draw_movement(surface, self.diagram)

    def draw_movement(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """The movement rule on a piece of paper: a car's last two points, its velocity
        repeated to the ring, and the points the rules let it choose from; then every mark
        a candidate can carry."""
        if box.w <= 0 or box.h <= 0:
            return
        colours = theme.palette()
        legend_height = len(marks.LEGEND) * theme.px(26) + theme.px(10)
        paper = pygame.Rect(box.x, box.y, box.w, max(theme.px(160), box.h - legend_height
                                                     - theme.px(12)))
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
        legend = marks.draw_legend(surface, list(marks.LEGEND), pencil,
                                   (box.x + box.w, paper.bottom + theme.px(12)))
        key = theme.ui_font(18).render("Every mark a point can carry:", True, theme.MUTED)
        # Beside the legend it names, not across the column from it.
        place = key.get_rect(topright=(legend.x - theme.px(10), legend.y + theme.px(6)))
        surface.blit(key, place if place.x >= box.x else (box.x, legend.y + theme.px(6)))
