"""The track editor: draw outlines, holes, zones and lines on graph paper; check them as you go.

Clicks snap to lattice points (hold Shift for half-points). Every edit is a new immutable
draft (so Ctrl+Z / Ctrl+Y undo and redo anything) and is autosaved at once, so a crash loses
nothing. Problems are marked on the drawing in plain words; an invalid track can be saved as a
draft but is not offered for racing. Test drive shows the solver's par and optimal line, and a
race on the track is one key away.
"""

from __future__ import annotations

import contextlib
import math
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pygame

from racetrack.course import Course
from racetrack.draft import (
    Draft,
    History,
    across,
    flipped,
    load_draft,
    restore_autosave,
    save_draft,
)
from racetrack.errors import FileProblemError, TrackError
from racetrack.files import file_in, safe_name
from racetrack.geometry import Line, Vec
from racetrack.settings import data_dir, tracks_dir
from racetrack.track import ZONE_KINDS, Zone, bundled_track_paths
from racetrack.ui import theme
from racetrack.ui.input import Click, Intent, Key, Motion, Release, Text, Wheel
from racetrack.ui.render import hud
from racetrack.ui.render.camera import Camera
from racetrack.ui.widgets import Button, Form, TextField, tip, wrap

PANEL_WIDTH = 330
TOOLS = {"v": "select", "o": "outline", "h": "hole", "z": "zone", "s": "start",
         "f": "finish", "c": "checkpoint", "w": "waypoint"}
TOOL_HELP = [("V", "select: drag points, click edges to add"),
             ("Del, right-click", "remove a point"),
             ("O", "outline"), ("H", "hole"), ("Z", "zone (K changes its kind)"),
             ("S", "start line"), ("F", "finish line"), ("C", "checkpoint"),
             ("W", "waypoint: click to add, again to remove"),
             ("click an arrow", "flip a line's direction"), ("PgUp/PgDn", "renumber checkpoint"),
             ("+ / -", "laps"), ("N / D", "name / description"), ("T", "test drive (par)"),
             ("R", "race on it"), ("Ctrl+S", "save (Shift: save as)"), ("Ctrl+O", "open"),
             ("Ctrl+N", "new from a template"), ("Ctrl+Z / Ctrl+Y", "undo / redo")]
GRAB = 9  # pixels within which a point or edge is grabbed


def autosave_path() -> Path:
    return data_dir() / "editor-autosave.yaml"


class EditorScene:
    def __init__(self, app, path: Path | None = None):
        self.app = app
        self.path = path
        draft = Draft()
        self.toasts: list[hud.Toast] = []
        if path is not None:
            draft = load_draft(path)
        else:
            restored, message = restore_autosave(autosave_path())
            draft = restored or draft
            if message:
                self.toasts.append(hud.Toast(message))
        self.history = History([draft])
        self.tool = "outline" if not draft.outer else "select"
        self.zone_kind = ZONE_KINDS[0]
        self.pending: list[tuple[float, float]] = []
        self.drag: tuple | None = None  # ("ring", kind, index, vertex) or ("line", kind, i, end)
        self.dragged_draft: Draft | None = None
        self.mouse = (0, 0)
        self.shift = False
        self.prompt: tuple[str, TextField] | None = None  # (what, field) while typing
        self.chooser: tuple[str, list[Path], int] | None = None
        self.camera = Camera(followed=False)
        self.workers = ThreadPoolExecutor(max_workers=1, thread_name_prefix="editor")
        self.par: Future | None = None
        self.par_for: Draft | None = None
        self._marks = draft.marks()
        self._layout()
        self._fit()

    # -- geometry helpers -----------------------------------------------------------------

    @property
    def draft(self) -> Draft:
        return self.history.current

    def _layout(self) -> None:
        width, height = self.app.size
        self.camera.width, self.camera.height = width - PANEL_WIDTH, height
        self.camera.offset_x, self.camera.offset_y = 0, 0
        x, y = width - PANEL_WIDTH + 14, height - 118
        actions = [("Save", self.save), ("Test drive", self.test_drive), ("Race", self.race),
                   ("Menu", self.leave)]
        self.buttons = Form([Button(pygame.Rect(x + (i % 2) * 152, y + (i // 2) * 54, 144,
                                                46), text=text, action=action, size=26)
                             for i, (text, action) in enumerate(actions)])

    def leave(self) -> None:
        self.workers.shutdown(wait=False, cancel_futures=True)
        self.app.pop()

    def _fit(self) -> None:
        points = [p for _, _, ring in self.draft.rings() for p in ring]
        if points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            self.camera.fit((min(xs), min(ys), max(xs), max(ys)), margin=3)
        else:
            self.camera.fit((0, 0, 40, 26), margin=1)

    def snap(self, pos: tuple[int, int]) -> tuple[float, float]:
        x, y = self.camera.to_world(*pos)
        if self.shift:
            return round(x * 2) / 2, round(y * 2) / 2
        return float(round(x)), float(round(y))

    def _near_vertex(self, pos) -> tuple | None:
        for kind, index, ring in self.draft.rings():
            for vertex, point in enumerate(ring):
                if math.dist(self.camera.to_screen(*point), pos) <= GRAB:
                    return ("ring", kind, index, vertex)
        for kind, index, line in self.draft.lines():
            for end, point in (("a", line.a), ("b", line.b)):
                if math.dist(self.camera.to_screen(*point), pos) <= GRAB:
                    return ("line", kind, index, end)
        return None

    def _near_arrow(self, pos) -> tuple[str, int, Line] | None:
        for kind, index, line in self.draft.lines():
            if math.dist(self.camera.to_screen(*_arrow_tip(line)), pos) <= GRAB + 4:
                return kind, index, line
        return None

    def _near_edge(self, pos) -> tuple[str, int, int] | None:
        for kind, index, ring in self.draft.rings():
            for i in range(len(ring)):
                a = self.camera.to_screen(*ring[i])
                b = self.camera.to_screen(*ring[(i + 1) % len(ring)])
                if _distance_to_segment(pos, a, b) <= GRAB / 1.5:
                    return kind, index, i
        return None

    # -- edits ----------------------------------------------------------------------------

    def commit(self, draft: Draft) -> None:
        self.history.push(draft)
        self._changed()

    def _changed(self) -> None:
        self._marks = self.draft.marks()
        with contextlib.suppress(OSError, FileProblemError):
            save_draft(self.draft, autosave_path())

    def close_pending(self) -> None:
        points = tuple(self.pending)
        self.pending = []
        if len(set(points)) < 3:
            return
        draft = self.draft
        if self.tool == "outline":
            self.commit(draft.with_changes(outer=points))
            self.tool = "hole" if not draft.holes else "select"
        elif self.tool == "hole":
            self.commit(draft.with_changes(holes=(*draft.holes, points)))
        elif self.tool == "zone":
            self.commit(draft.with_changes(zones=(*draft.zones, Zone(self.zone_kind, points))))

    def add_line(self, a, b) -> None:
        if a == b:
            return
        line = across(a, b)
        if self.tool == "start":
            self.commit(self.draft.with_changes(start=line))
        elif self.tool == "finish":
            self.commit(self.draft.with_changes(finish=line))
        else:
            self.commit(self.draft.with_changes(checkpoints=(*self.draft.checkpoints, line)))

    def toggle_waypoint(self, point) -> None:
        """Add a waypoint on the lattice point (after the others), or remove the one there."""
        spot = Vec(round(point[0]), round(point[1]))
        waypoints = self.draft.waypoints
        if spot in waypoints:
            waypoints = tuple(w for w in waypoints if w != spot)
        else:
            waypoints = (*waypoints, spot)
        self.commit(self.draft.with_changes(waypoints=waypoints))

    def delete_vertex(self, grabbed: tuple) -> None:
        if grabbed[0] == "ring":
            _, kind, index, vertex = grabbed
            ring = dict(((k, i), r) for k, i, r in self.draft.rings())[(kind, index)]
            new = ring[:vertex] + ring[vertex + 1:]
            if kind == "outer" and len(new) < 3:
                new = ()
            self.commit(self.draft.set_ring(kind, index, new))
        else:
            _, kind, index, _ = grabbed
            self.commit(self.draft.set_line(kind, index, None))

    # -- files ----------------------------------------------------------------------------

    def save(self, path: Path | None = None) -> None:
        path = path or self.path
        if path is None:
            self.ask("save as", self.draft.name)
            return
        try:
            save_draft(self.draft, path)
        except OSError as exc:
            self.toasts.append(hud.Toast(f"Could not save: {exc.strerror or exc}"))
            return
        except FileProblemError as exc:
            self.toasts.append(hud.Toast(f"Could not save: {exc.problems[0].message}"))
            return
        self.path = path
        problems = len(self._marks)
        self.toasts.append(hud.Toast(f"Saved {path.name}" + (
            "" if not problems else f" as a draft ({problems} problem"
                                    f"{'s' if problems != 1 else ''} to fix before racing)")))

    def ask(self, what: str, text: str) -> None:
        width = self.app.size[0] - PANEL_WIDTH
        self.prompt = (what, TextField(pygame.Rect(width // 2 - 260, 80, 520, 44), text=text,
                                       max_length=80))

    def answer(self) -> None:
        what, field = self.prompt
        self.prompt = None
        text = field.text.strip()
        if what == "name" and text:
            self.commit(self.draft.with_changes(name=text))
        elif what == "description":
            self.commit(self.draft.with_changes(description=text))
        elif what == "save as" and safe_name(text):
            if self.draft.name in ("New track", "") or self.path is None:
                self.commit(self.draft.with_changes(name=text))
            self.save(file_in(tracks_dir(), text))

    def choose(self, what: str) -> None:
        if what == "open":
            files = sorted(tracks_dir().glob("*.yaml")) if tracks_dir().is_dir() else []
        else:
            files = [Path(""), *bundled_track_paths()]
        if not files:
            self.toasts.append(hud.Toast("No saved tracks yet (Ctrl+N starts from a template)"))
            return
        self.chooser = (what, files, 0)

    def chosen(self) -> None:
        what, files, index = self.chooser
        self.chooser = None
        picked = files[index]
        try:
            draft = load_draft(picked) if picked.name else Draft()
        except FileProblemError as exc:
            self.toasts.append(hud.Toast(str(exc.problems[0])))
            return
        if what == "new":
            draft = draft.with_changes(name=f"My {draft.name}" if picked.name else "New track")
            self.path = None
        else:
            self.path = picked
        self.history = History([draft])
        self._changed()
        self.tool = "select" if draft.outer else "outline"
        self._fit()

    # -- test drive and racing --------------------------------------------------------------

    def test_drive(self) -> None:
        try:
            track = self.draft.to_track()
        except TrackError:
            self.toasts.append(hud.Toast("Fix the marked problems first"))
            return
        from racetrack.ai.tables import par
        from racetrack.rules import load_rules

        self.par_for = self.draft
        self.par = self.workers.submit(par, Course(track), load_rules("gardner"))

    def race(self) -> None:
        try:
            track = self.draft.to_track()
        except TrackError:
            self.toasts.append(hud.Toast("Fix the marked problems first"))
            return
        from racetrack.game import Race
        from racetrack.model import CarSetup
        from racetrack.rules import load_rules
        from racetrack.settings import load_settings
        from racetrack.ui.launch import continue_race

        players = load_settings().players
        cars = [CarSetup(p.name, p.colour, p.driver, reverse=p.reverse) for p in players]
        try:
            race = Race(track, load_rules("gardner"), cars, seed=1)
        except ValueError as exc:
            self.toasts.append(hud.Toast(str(exc)))
            return
        continue_race(self.app, race, race.start(), replace=False)

    # -- the scene ------------------------------------------------------------------------

    def handle(self, intent: Intent) -> None:
        if self.prompt is not None:
            if isinstance(intent, Key) and intent.name == "enter":
                self.answer()
            elif isinstance(intent, Key) and intent.name == "escape":
                self.prompt = None
            else:
                self.prompt[1].handle(intent, True)
            return
        if self.chooser is not None:
            what, files, index = self.chooser
            if isinstance(intent, Key):
                if intent.name in ("up", "down"):
                    step = 1 if intent.name == "down" else -1
                    self.chooser = (what, files, (index + step) % len(files))
                elif intent.name == "enter":
                    self.chosen()
                elif intent.name == "escape":
                    self.chooser = None
            return
        if isinstance(intent, Key):
            self.shift = intent.shift
            self._key(intent)
        elif isinstance(intent, Text):
            return
        elif isinstance(intent, Wheel):
            self.camera.zoom(1.15 ** intent.steps, intent.pos)
        elif isinstance(intent, Motion):
            self.mouse = intent.pos
            self.buttons.handle(intent)
            self.shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            if self.drag is not None:
                self._drag_to(intent.pos)
        elif isinstance(intent, Click):
            self.shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            if intent.pos[0] >= self.app.size[0] - PANEL_WIDTH:
                self.buttons.handle(intent)
                return
            self._click(intent)
        elif isinstance(intent, Release) and self.drag is not None:
            self.drag = None
            if self.dragged_draft is not None:
                self.history.push(self.dragged_draft)
                self.dragged_draft = None
                self._changed()

    def _key(self, intent: Key) -> None:
        name = intent.name
        if intent.ctrl:
            moved = {"z": self.history.undo, "y": self.history.redo}.get(name)
            if moved is not None:
                if moved():
                    self._changed()
            elif name == "s" and intent.shift:
                self.ask("save as", self.draft.name)
            elif name == "s":
                self.save()
            elif name == "o":
                self.choose("open")
            elif name == "n":
                self.choose("new")
            return
        if name == "escape":
            if self.pending:
                self.pending = []
            else:
                self.leave()
        elif name == "enter":
            self.close_pending()
        elif name in TOOLS:
            self.pending = []
            self.tool = TOOLS[name]
        elif name == "k":
            self.zone_kind = ZONE_KINDS[(ZONE_KINDS.index(self.zone_kind) + 1) % len(ZONE_KINDS)]
        elif name in ("plus", "minus"):
            laps = max(1, min(99, self.draft.laps + (1 if name == "plus" else -1)))
            self.commit(self.draft.with_changes(laps=laps))
        elif name == "n":
            self.ask("name", self.draft.name)
        elif name == "d":
            self.ask("description", self.draft.description)
        elif name == "t":
            self.test_drive()
        elif name == "r":
            self.race()
        elif name in ("delete", "backspace"):
            grabbed = self._near_vertex(self.mouse)
            if grabbed:
                self.delete_vertex(grabbed)
        elif name in ("pageup", "pagedown"):
            near = self._near_arrow(self.mouse) or self._hovered_checkpoint()
            if near and near[0] == "checkpoint":
                self.commit(self.draft.move_checkpoint(near[1], -1 if name == "pageup" else 1))

    def _hovered_checkpoint(self):
        for kind, index, line in self.draft.lines():
            a, b = self.camera.to_screen(*line.a), self.camera.to_screen(*line.b)
            if kind == "checkpoint" and _distance_to_segment(self.mouse, a, b) <= GRAB:
                return kind, index, line
        return None

    def _click(self, intent: Click) -> None:
        point = self.snap(intent.pos)
        if intent.button == 3:
            grabbed = self._near_vertex(intent.pos)
            if grabbed:
                self.delete_vertex(grabbed)
            return
        if intent.button != 1:
            return
        if self.tool in ("outline", "hole", "zone"):
            if len(self.pending) >= 3 and math.dist(
                    self.camera.to_screen(*self.pending[0]), intent.pos) <= GRAB:
                self.close_pending()
            elif not self.pending or self.pending[-1] != point:
                self.pending.append(point)
        elif self.tool == "waypoint":
            self.toggle_waypoint(point)
        elif self.tool in ("start", "finish", "checkpoint"):
            self.pending.append(point)
            if len(self.pending) == 2:
                a, b = self.pending
                self.pending = []
                self.add_line(a, b)
        else:
            arrow = self._near_arrow(intent.pos)
            if arrow is not None:
                kind, index, line = arrow
                self.commit(self.draft.set_line(kind, index, flipped(line)))
                return
            grabbed = self._near_vertex(intent.pos)
            if grabbed is None:
                edge = self._near_edge(intent.pos)
                if edge is not None:
                    kind, index, i = edge
                    ring = dict(((k, j), r) for k, j, r in self.draft.rings())[(kind, index)]
                    new = ring[:i + 1] + (point,) + ring[i + 1:]
                    self.commit(self.draft.set_ring(kind, index, new))
                    grabbed = ("ring", kind, index, i + 1)
            self.drag = grabbed

    def _drag_to(self, pos) -> None:
        point = self.snap(pos)
        base = self.dragged_draft or self.draft
        if self.drag[0] == "ring":
            _, kind, index, vertex = self.drag
            ring = list(dict(((k, i), r) for k, i, r in base.rings())[(kind, index)])
            ring[vertex] = point
            self.dragged_draft = base.set_ring(kind, index, tuple(ring))
        else:
            _, kind, index, end = self.drag
            line = dict(((k, i), ln) for k, i, ln in base.lines())[(kind, index)]
            a, b = (point, line.b) if end == "a" else (line.a, point)
            if a != b:
                moved = Line(a, b, line.forward)
                if moved.is_degenerate:
                    moved = across(a, b)
                self.dragged_draft = base.set_line(kind, index, moved)

    def update(self, dt: float) -> None:
        for toast in self.toasts:
            toast.age += dt
        self.toasts = [t for t in self.toasts if t.age < t.life]
        if (self.camera.width + PANEL_WIDTH, self.camera.height) != self.app.size:
            self._layout()

    # -- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        draft = self.dragged_draft or self.draft
        colours = theme.palette()
        surface.fill(colours.paper)
        self._grid(surface)
        at = self.camera.to_screen
        for zone in draft.zones:
            if len(zone.polygon) >= 3:
                fill, edge = theme.ZONE_COLOURS.get(zone.kind, ((200, 200, 200), (90, 90, 90)))
                layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
                pygame.draw.polygon(layer, (*fill, 140), [at(*p) for p in zone.polygon])
                surface.blit(layer, (0, 0))
                pygame.draw.aalines(surface, edge, True, [at(*p) for p in zone.polygon])
        for kind, _, ring in draft.rings():
            if kind != "zone" and len(ring) >= 2:
                pygame.draw.lines(surface, colours.ink, True, [at(*p) for p in ring], 3)
        for kind, index, line in draft.lines():
            colour = {"start": theme.START_COLOUR, "finish": theme.FINISH_COLOUR}.get(
                kind, theme.CHECKPOINT_COLOUR)
            pygame.draw.line(surface, colour, at(*line.a), at(*line.b), 3)
            pygame.draw.line(surface, colour, at(*_middle(line)), at(*_arrow_tip(line)), 3)
            pygame.draw.circle(surface, colour, at(*_arrow_tip(line)), 6)
            if kind == "checkpoint":
                label = theme.font(26, bold=True).render(str(index + 1), True, colour)
                surface.blit(label, label.get_rect(center=at(*_label_point(line))))
        for _, _, ring in draft.rings():
            for point in ring:
                x, y = at(*point)
                pygame.draw.rect(surface, colours.ink, (x - 3, y - 3, 7, 7), 1)
        for index, point in enumerate(draft.waypoints):
            centre = at(*point)
            pygame.draw.circle(surface, theme.CHECKPOINT_COLOUR, centre, 10, 3)
            label = theme.font(22, bold=True).render(str(index + 1), True,
                                                     theme.CHECKPOINT_COLOUR)
            surface.blit(label, label.get_rect(midbottom=(centre[0] + 12, centre[1] - 6)))
        if self.pending:
            points = [at(*p) for p in self.pending] + [at(*self.snap(self.mouse))]
            pygame.draw.lines(surface, theme.FINISH_COLOUR, False, points, 2)
        x, y = at(*self.snap(self.mouse))
        pygame.draw.circle(surface, theme.TEXT, (x, y), 4, 1)
        self._ghost(surface)
        for mark in self._marks:
            mx, my = at(*mark.at)
            pygame.draw.circle(surface, (210, 40, 40), (mx, my), 11, 3)
            bang = theme.font(24, bold=True).render("!", True, (210, 40, 40))
            surface.blit(bang, bang.get_rect(center=(mx, my)))
            if math.dist((mx, my), self.mouse) < 14:
                tip(surface, mark.message, (mx + 16, my))
        self._panel(surface)
        hud.draw_toasts(surface, self.toasts)
        if self.prompt is not None:
            what, field = self.prompt
            shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            shade.fill((250, 248, 240, 200))
            surface.blit(shade, (0, 0))
            text = theme.font(28).render(f"{what.capitalize()} (Enter to confirm, Esc to "
                                         "cancel):", True, theme.TEXT)
            surface.blit(text, text.get_rect(midbottom=(field.rect.centerx, field.rect.y - 8)))
            field.draw(surface, True)
        if self.chooser is not None:
            self._chooser(surface)

    def _grid(self, surface: pygame.Surface) -> None:
        colours = theme.palette()
        width, height = self.camera.width, self.camera.height
        x0, y0 = self.camera.to_world(0, 0)
        x1, y1 = self.camera.to_world(width, height)
        for x in range(math.floor(x0), math.ceil(x1) + 1):
            sx = self.camera.to_screen(x, 0)[0]
            pygame.draw.line(surface, colours.grid_major if x % 10 == 0 else colours.grid,
                             (sx, 0), (sx, height))
        for y in range(math.floor(y0), math.ceil(y1) + 1):
            sy = self.camera.to_screen(0, y)[1]
            pygame.draw.line(surface, colours.grid_major if y % 10 == 0 else colours.grid,
                             (0, sy), (width, sy))

    def _ghost(self, surface: pygame.Surface) -> None:
        if self.par is None or not self.par.done() or self.par_for != self.draft:
            return
        solution = self.par.result()
        if solution is None:
            return
        points = [self.camera.to_screen(*p) for p in solution.path]
        if len(points) > 1:
            pygame.draw.lines(surface, (150, 150, 170), False, points, 2)
        for point in points:
            pygame.draw.circle(surface, (150, 150, 170), point, 3)

    def _panel(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        panel = pygame.Rect(width - PANEL_WIDTH, 0, PANEL_WIDTH, height)
        pygame.draw.rect(surface, theme.PANEL, panel)
        pygame.draw.line(surface, theme.PANEL_EDGE, panel.topleft, panel.bottomleft, 2)
        x, y = panel.x + 14, 12
        draft = self.draft

        def line(text: str, size: int = 22, colour=theme.TEXT, bold: bool = False) -> None:
            nonlocal y
            surface.blit(theme.font(size, bold).render(text, True, colour), (x, y))
            y += size - 2

        line(draft.name, 32, bold=True)
        line(self.path.name if self.path else "not saved yet", 20, theme.MUTED)
        line(f"laps: {draft.laps}   checkpoints: {len(draft.checkpoints)}", 22)
        tool = self.tool + (f" ({self.zone_kind})" if self.tool == "zone" else "")
        line(f"tool: {tool}", 24, bold=True)
        y += 4
        for keys, what in TOOL_HELP:
            line(f"{keys}: {what}"[:46], 19, theme.MUTED)
        y += 8
        if self.par is not None and self.par_for == draft:
            if self.par.done():
                found = self.par.result()
                line(f"par: {found.moves} moves (grey line)" if found else
                     "par: the finish cannot be reached", 24, bold=True)
            else:
                line("test drive: solving…", 22)
        if self._marks:
            line(f"{len(self._marks)} problem{'s' if len(self._marks) != 1 else ''}:", 22,
                 (180, 40, 40), bold=True)
            for mark in self._marks[:6]:
                for piece in wrap(mark.message, 40)[:2]:
                    line(piece, 19, (180, 40, 40))
        else:
            line("valid: ready to race (R)", 22, theme.START_COLOUR, bold=True)
        self.buttons.draw(surface)

    def _chooser(self, surface: pygame.Surface) -> None:
        what, files, index = self.chooser
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((250, 248, 240, 220))
        surface.blit(shade, (0, 0))
        heading = "Open a track" if what == "open" else "New track from a template"
        surface.blit(theme.font(36, bold=True).render(heading, True, theme.TEXT), (40, 30))
        for i, path in enumerate(files[:20]):
            label = path.stem if path.name else "(empty sheet)"
            colour = theme.TEXT if i == index else theme.MUTED
            text = theme.font(28, i == index).render(("> " if i == index else "  ") + label,
                                                     True, colour)
            surface.blit(text, (50, 80 + i * 30))


def _middle(line: Line) -> tuple[float, float]:
    return (line.a[0] + line.b[0]) / 2, (line.a[1] + line.b[1]) / 2


def _arrow_tip(line: Line) -> tuple[float, float]:
    fx, fy = line.forward
    length = math.hypot(fx, fy) or 1
    mx, my = _middle(line)
    return mx + fx / length * 1.2, my + fy / length * 1.2


def _label_point(line: Line) -> tuple[float, float]:
    fx, fy = line.forward
    length = math.hypot(fx, fy) or 1
    mx, my = _middle(line)
    return mx - fx / length * 0.9, my - fy / length * 0.9


def _distance_to_segment(p, a, b) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.dist(p, a)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.dist(p, (ax + t * dx, ay + t * dy))
