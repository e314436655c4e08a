"""The track editor's window: pygame intents in, ``EditorState`` calls out, and the drawing.

The editing itself (tools, gestures, undo, checks, files, questions) lives in
``racetrack.editing`` and is tested without a window; this scene converts the pointer to lattice
coordinates through the camera, pans and zooms, shows the state's questions, prompts and track
lists as dialogs, and starts test races under the rules chosen in the panel, with the way back
to the same drawing afterwards.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import pygame

from racetrack.editing import Choice, EditorState, Leave, Tool
from racetrack.editing.files import TrackEntry, templates, your_tracks
from racetrack.editing.state import QUIET_BEFORE_ANALYSIS, Asking
from racetrack.editing.state import autosave_path as autosave_path
from racetrack.editing.tools import KEY_HELP, TOOL_HELP
from racetrack.errors import FileProblemError
from racetrack.rules import bundled_variant_names, load_rules
from racetrack.rules.overrides import apply_overrides
from racetrack.settings import load_settings, save_settings
from racetrack.ui import theme
from racetrack.ui.input import Click, Intent, Key, KeyUp, Motion, Release, Text, Wheel
from racetrack.ui.render import hud
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.editor_view import EditorCanvas
from racetrack.ui.render.sheet import arrow_length
from racetrack.ui.scenes.editor_panel import Actions, EditorPanel, panel_width, status_lines
from racetrack.ui.widgets import Button, Form, ListBox, TextField, wrap

GRAB = 9  # pixels within which a point or an edge is grabbed
PROMPTS = {Asking.NAME: "The track's name", Asking.DESCRIPTION: "A line about the track",
           Asking.SAVE_AS: "Save as (a file in your tracks folder)"}


class EditorScene:
    def __init__(self, app, path: Path | None = None):
        self.app = app
        self.settings = load_settings()
        self.variants = bundled_variant_names()
        rules_name = self.settings.rules if self.settings.rules in self.variants else "gardner"
        rules, cars = self._rules(rules_name), len(self.settings.players)
        self.toasts: list[hud.Toast] = []
        try:
            self.state = EditorState.of_file(path, rules, cars) if path is not None \
                else EditorState.restore(rules, cars)
        except FileProblemError as exc:
            self.state = EditorState.restore(rules, cars)
            self.toasts.append(hud.Toast(str(exc.problems[0])))
        self.camera = Camera(followed=False)
        self.canvas = EditorCanvas()
        self.panel = EditorPanel(Actions(
            tool=self.state.set_tool, save=self.state.save,
            open=lambda: self.state.request(Leave.OPEN),
            new=lambda: self.state.request(Leave.NEW), test_drive=self.test_drive,
            race=self.race, menu=lambda: self.state.request(Leave.MENU),
            rules=self.choose_rules, help=self.toggle_help), self.variants)
        self.panel.rules.set(rules_name)
        self.mouse: tuple[int, int] | None = None
        self.shift = False
        self.space = False
        self.panning = False
        self.help = False
        self.swallow: str | None = None  # the key that opened a text field types nothing
        self.field: TextField | None = None
        self.dialog: Form | None = None
        self.chooser: tuple[ListBox, list[TrackEntry], Button] | None = None
        self._size: tuple[int, int] | None = None
        self._shade: pygame.Surface | None = None
        self._layout()
        self.fit()
        self._after()

    # -- compatibility: what other code and tests read -------------------------------------

    @property
    def draft(self):
        return self.state.draft

    @property
    def path(self) -> Path | None:
        return self.state.path

    @path.setter
    def path(self, value: Path | None) -> None:
        self.state.path = value

    # -- layout ----------------------------------------------------------------------------

    def _layout(self) -> None:
        width, height = self.app.size
        self._size = (width, height)
        self.camera.width, self.camera.height = width - panel_width(width), height
        self.camera.offset_x, self.camera.offset_y = 0, 0
        self.panel.layout(self.state, self.app.size)
        self._shade = None
        if self.chooser is not None:
            self._open_chooser(self.state.choosing)
        if self.dialog is not None:
            self._question()

    def fit(self) -> None:
        """Show the whole drawing (Home)."""
        draft = self.state.draft
        points = [p for ring in (draft.outer, *draft.holes, *(z.polygon for z in draft.zones))
                  for p in ring]
        points += list(draft.sketch.points) if draft.sketch else []
        if len(points) > 1:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            self.camera.fit((min(xs), min(ys), max(xs), max(ys)), margin=3)
        else:
            self.camera.fit((0, 0, 40, 26), margin=1)

    def world(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.camera.to_world(*pos)

    def on_canvas(self, pos: tuple[int, int]) -> bool:
        return pos[0] < self.camera.width

    # -- intents ---------------------------------------------------------------------------

    def handle(self, intent: Intent) -> None:
        if isinstance(intent, Text) and self.swallow is not None:
            typed, self.swallow = self.swallow, None
            if intent.text.lower() == typed:
                return
        elif isinstance(intent, Key | Click):
            self.swallow = None
        if isinstance(intent, Motion):
            self.mouse = intent.pos
        if self.help:
            if isinstance(intent, Key | Click):
                self.help = False
        elif self.state.question is not None:
            self._handle_question(intent)
        elif self.state.prompt is not None:
            self._handle_prompt(intent)
        elif self.state.choosing is not None:
            self._handle_chooser(intent)
        else:
            self._handle_editing(intent)
        self._after()

    def _handle_editing(self, intent: Intent) -> None:
        state = self.state
        if isinstance(intent, KeyUp):
            if intent.name == "space":
                self.space = False
                self.panning = False
            return
        if isinstance(intent, Key):
            self.shift = intent.shift
            self._key(intent)
        elif isinstance(intent, Wheel):
            if self.on_canvas(intent.pos):
                self.camera.zoom(1.15 ** intent.steps, intent.pos)
        elif isinstance(intent, Motion):
            self.panel.handle(intent)
            self.shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            if self.panning:
                self.camera.pan(*intent.rel)
            elif state.gesture is not None:
                state.drag(self.world(intent.pos), self.shift)
            else:
                state.hover(self.world(intent.pos))
        elif isinstance(intent, Click):
            self.shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            if not self.on_canvas(intent.pos):
                self.panel.handle(intent)
            elif intent.button == 2 or (intent.button == 1 and self.space):
                self.panning = True
            else:
                state.press(self.world(intent.pos), intent.button, self.shift, self.shift)
        elif isinstance(intent, Release):
            if self.panning and (intent.button == 2 or intent.button == 1):
                self.panning = False
            elif state.gesture is not None:
                state.release(self.world(intent.pos), self.shift)

    def _key(self, intent: Key) -> None:
        name = intent.name
        if name == "space":
            self.space = True
            return
        if name == "f1":
            self.toggle_help()
            return
        asked = self.state.prompt
        if self.state.key(name, intent.ctrl, intent.shift):
            if self.state.prompt is not None and asked is None and len(name) == 1 \
                    and not intent.ctrl:  # a Ctrl+key types nothing
                self.swallow = name
            return
        if intent.ctrl:
            return
        step = 60
        pans = {"left": (step, 0), "right": (-step, 0), "up": (0, step), "down": (0, -step)}
        if name in pans:
            self.camera.pan(*pans[name])
        elif name == "home":
            self.fit()
        elif name == "t":
            self.test_drive()
        elif name == "r":
            self.race()

    def _handle_question(self, intent: Intent) -> None:
        question = self.state.question
        if isinstance(intent, Key):
            letters = {choice.value[0].lower(): choice for choice in question.choices}
            if intent.name == "escape":
                self.state.answer(Choice.CANCEL)
            elif intent.name == "enter":
                self.state.answer(question.choices[0])
            elif intent.name in letters:
                self.state.answer(letters[intent.name])
            return
        if self.dialog is not None:
            self.dialog.handle(intent)

    def _handle_prompt(self, intent: Intent) -> None:
        if self.field is None:
            return
        if isinstance(intent, Key) and intent.name == "enter":
            self.state.answer_prompt(self.field.text)
        elif isinstance(intent, Key) and intent.name == "escape":
            self.state.answer_prompt(None)
        else:
            self.field.handle(intent, True)

    def _handle_chooser(self, intent: Intent) -> None:
        if self.chooser is None:
            return
        listing, _, cancel = self.chooser
        if isinstance(intent, Key) and intent.name == "escape":
            self.state.choosing = None
            return
        if not listing.handle(intent, True):
            cancel.handle(intent, False)
            if isinstance(intent, Motion):
                cancel.hovered = cancel.rect.collidepoint(intent.pos)

    def _after(self) -> None:
        """Show what the state now asks for, and leave when it says so."""
        state = self.state
        for note in state.notes:
            self.toasts.append(hud.Toast(note))
        state.notes.clear()
        if state.question is None:
            self.dialog = None
        elif self.dialog is None:
            self._question()
        if state.prompt is None:
            self.field = None
        elif self.field is None:
            width = self.camera.width
            self.field = TextField(pygame.Rect(width // 2 - min(260, width // 2 - 20), 110,
                                               min(520, width - 40), 44),
                                   text=state.prompt.text, max_length=80, selected=True)
        if state.choosing is None:
            self.chooser = None
        elif self.chooser is None:
            self._open_chooser(state.choosing)
        if state.leaving is Leave.MENU:
            state.leaving = None
            self.leave()
        elif state.leaving is Leave.QUIT:
            state.leaving = None
            state.close()
            self.app.quit()

    def close_requested(self) -> bool:
        """The window's close button: ask first when there is unsaved work."""
        if self.state.question is not None:
            return False
        self.state.request(Leave.QUIT)
        if self.state.leaving is Leave.QUIT:
            self.state.leaving = None
            self.state.close()
            return True
        self._after()
        return False

    def leave(self) -> None:
        self.state.close()
        if self.app.scenes and self.app.scenes[-1] is self:
            self.app.pop()

    def on_show(self) -> None:
        """Back from a test race: the same drawing, laid out for the window as it is now."""
        self._layout()

    # -- dialogs ---------------------------------------------------------------------------

    def _question(self) -> None:
        question = self.state.question
        width = self.camera.width
        count = len(question.choices)
        button_width = min(150, (width - 80) // count - 10)
        left = width // 2 - (count * (button_width + 10) - 10) // 2
        buttons = [Button(pygame.Rect(left + i * (button_width + 10), 230, button_width, 44),
                          text=choice.value, action=lambda c=choice: self.state.answer(c),
                          size=24)
                   for i, choice in enumerate(question.choices)]
        self.dialog = Form(buttons)

    def _open_chooser(self, what: Leave | None) -> None:
        entries = your_tracks() if what is Leave.OPEN else templates()
        if not entries:
            self.state.choosing = None
            self.toasts.append(hud.Toast("No saved tracks yet (Ctrl+N starts from a template)"))
            self.chooser = None
            return
        width, height = self.camera.width, self.app.size[1]
        rect = pygame.Rect(30, 120, width - 60, max(120, height - 200))
        listing = ListBox(rect, labels=[e.name for e in entries],
                          details=[e.detail for e in entries], on_pick=self._picked,
                          size=24 if width < 700 else 26)
        cancel = Button(pygame.Rect(30, rect.bottom + 12, 140, 40), text="Cancel",
                        action=lambda: setattr(self.state, "choosing", None), size=24)
        self.chooser = (listing, entries, cancel)

    def _picked(self, index: int) -> None:
        if self.chooser is None:
            return
        entry = self.chooser[1][index]
        what = self.state.choosing
        if what is Leave.OPEN and entry.path is not None:
            self.state.open(entry.path)
        else:
            self.state.new_from(entry.path)
        self.fit()

    def toggle_help(self) -> None:
        self.help = not self.help

    # -- rules, test drive and racing --------------------------------------------------------

    def _rules(self, name: str):
        rules = load_rules(name)
        with contextlib.suppress(ValueError):
            rules = apply_overrides(rules, self.settings.overrides())
        return rules

    def choose_rules(self, name: str) -> None:
        """Test drives and races use these rules, remembered for the New race screen too."""
        self.state.set_rules(self._rules(name), len(self.settings.players))
        self.settings = replace(self.settings, rules=name)
        with contextlib.suppress(OSError):
            save_settings(self.settings)

    def test_drive(self) -> None:
        """T: show (or hide) the solver's optimal line, with the par in the panel."""
        if self.state.track() is None:
            self.toasts.append(hud.Toast("Fix the marked problems first"))
            return
        self.state.show_route = not self.state.show_route
        self.state.quiet = max(self.state.quiet, QUIET_BEFORE_ANALYSIS)
        self.state.update(0.0)

    def race(self) -> None:
        """R: race the drawing now, with the players and rules chosen; the results lead back
        here."""
        track = self.state.track()
        if track is None:
            self.toasts.append(hud.Toast("Fix the marked problems first"))
            return
        try:
            self.app.routes.test_race(track, self.state.rules, self.back_here)
        except ValueError as exc:  # too many cars for the start line, say
            self.toasts.append(hud.Toast(str(exc)))

    def back_here(self) -> None:
        """From a test race's results: back to this editor, the drawing as it was."""
        while self.app.scenes and self.app.scenes[-1] is not self:
            self.app.pop()

    # -- time and drawing ------------------------------------------------------------------

    def update(self, dt: float) -> None:
        for toast in self.toasts:
            toast.age += dt
        self.toasts = [t for t in self.toasts if t.age < t.life]
        if self.app.size != self._size:
            self._layout()
        self.state.reach_is(GRAB / self.camera.scale, arrow_length(self.camera.scale))
        self.state.update(dt)
        self.panel.layout(self.state, self.app.size)

    def draw(self, surface: pygame.Surface) -> None:
        state = self.state
        mouse = self.mouse if not (state.question or state.prompt or state.choosing) else None
        self.canvas.draw(surface, state, self.camera, mouse, self.shift)
        job = state.analyst.job
        solving = job is not None and not job.done()
        self.panel.draw(surface, state, status_lines(state, solving))
        if state.question is not None and self.dialog is not None:
            self._shaded(surface)
            lines = wrap(state.question.text, max(20, self.camera.width // 15))
            for i, line in enumerate(lines):
                text = theme.font(30, i == 0).render(line, True, theme.TEXT)
                surface.blit(text, text.get_rect(midtop=(self.camera.width // 2,
                                                         130 + i * 30)))
            self.dialog.draw(surface)
        elif state.prompt is not None and self.field is not None:
            self._shaded(surface)
            label = f"{PROMPTS[state.prompt.asking]} (Enter to confirm, Esc to cancel):"
            text = theme.font(26).render(label, True, theme.TEXT)
            surface.blit(text, text.get_rect(midbottom=(self.field.rect.centerx,
                                                         self.field.rect.y - 8)))
            self.field.draw(surface, True)
        elif self.chooser is not None:
            self._shaded(surface)
            listing, _, cancel = self.chooser
            heading = "Open a track" if state.choosing is Leave.OPEN else \
                "New track from a template"
            surface.blit(theme.font(36, True).render(heading, True, theme.TEXT), (30, 40))
            surface.blit(theme.font(22).render("Click one (or use the arrow keys and Enter); "
                                               "Esc cancels", True, theme.MUTED), (30, 84))
            listing.draw(surface, True)
            cancel.draw(surface, cancel.hovered)
        if self.help:
            self._help(surface)
        hud.draw_toasts(surface, self.toasts)

    def _shaded(self, surface: pygame.Surface) -> None:
        """A pale veil over the paper, made once per window size."""
        size = (self.camera.width, surface.get_height())
        if self._shade is None or self._shade.get_size() != size:
            self._shade = pygame.Surface(size, pygame.SRCALPHA)
            self._shade.fill((250, 248, 240, 215))
        surface.blit(self._shade, (0, 0))

    def _help(self, surface: pygame.Surface) -> None:
        self._shaded(surface)
        x, y = 24, 20
        surface.blit(theme.font(32, True).render("Keys (any key closes this)", True,
                                                 theme.TEXT), (x, y))
        y += 40
        rows = [(f"{tool.key.upper()}  {tool.value}", TOOL_HELP[tool]) for tool in Tool]
        rows += list(KEY_HELP)
        size = 20 if surface.get_height() < 800 else 24
        width = max(30, (self.camera.width - 220) // (size // 2))
        for keys, what in rows:
            pieces = wrap(what, width)
            surface.blit(theme.font(size, True).render(keys, True, theme.TEXT), (x, y))
            for piece in pieces:
                surface.blit(theme.font(size).render(piece, True, theme.MUTED), (x + 190, y))
                y += size - 3
            y += 2
            if y > surface.get_height() - size:
                break
