"""The track editor's window: pygame intents in, ``EditorState`` calls out, and the drawing.

The editing itself (tools, gestures, undo, checks, files, questions) lives in
``racetrack.editing`` and is tested without a window; this scene converts the pointer to lattice
coordinates through the camera, pans and zooms, shows the state's questions, prompts and track
lists as pygame_gui dialogs on its page (a question with a button per answer, a line to type, a
list to pick from, a file dialog for a track kept elsewhere), and starts test races under the
rules chosen in the panel, with the way back to the same drawing afterwards.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import pygame

from racetrack.base.errors import FileProblemError
from racetrack.base.settings import load_settings, save_settings, tracks_dir
from racetrack.board.track.maps import MAP_SUFFIXES
from racetrack.editing import Choice, EditorState, Leave, Tool
from racetrack.editing.files import TrackEntry, templates, your_tracks
from racetrack.editing.state import Asking
from racetrack.editing.state import autosave_path as autosave_path
from racetrack.editing.tools import KEY_HELP, TOOL_SHORT
from racetrack.rules import bundled_variant_names, load_rules
from racetrack.rules.overrides import apply_overrides
from racetrack.ui import theme
from racetrack.ui.dialogs import Picker, Prompt, Question
from racetrack.ui.gui import Entry
from racetrack.ui.input import Click, Intent, Key, KeyUp, Motion, Release, Text, Wheel
from racetrack.ui.panning import Drag, pan_by_key
from racetrack.ui.render import hud, key_list
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.editor_view import EditorCanvas
from racetrack.ui.render.sheet import arrow_length
from racetrack.ui.scenes.editor_panel import Actions, EditorPanel, panel_width, status_lines

GRAB = 9  # pixels within which a point or an edge is grabbed
PROMPTS = {Asking.NAME: ("Name", "The track's name:"),
           Asking.DESCRIPTION: ("Description", "A line about the track:"),
           Asking.SAVE_AS: ("Save as", "A name for the file in your tracks folder:")}
#: How each answer to a question looks: the one that loses work in red.
ANSWER_STYLES = {Choice.SAVE: "primary", Choice.RESTORE: "primary", Choice.DISCARD: "danger",
                 Choice.REPLACE: "danger"}


class EditorScene:
    def __init__(self, app, path: Path | None = None):
        self.app = app
        self.settings = load_settings()
        self.variants = bundled_variant_names()
        rules_name = self.settings.rules if self.settings.rules in self.variants else "gardner"
        self.own_rules = rules_name  # the player's choice, for drawings that name none
        self._rules_of: str | None = None  # the rules named by the drawing last shown
        rules, cars = self._rules(rules_name), len(self.settings.players)
        self.toasts: list[hud.Toast] = []
        try:
            self.state = EditorState.starting(path, rules, cars)
        except FileProblemError as exc:
            self.state = EditorState.restore(rules, cars)
            self.toasts.append(hud.Toast(str(exc.problems[0])))
        self.toasts += [hud.Toast(note) for note in self.state.notes]  # shown from the start
        self.state.notes.clear()
        self.camera = Camera(followed=False)
        self.canvas = EditorCanvas()
        self.panel = EditorPanel(Actions(
            tool=self.state.set_tool, save=lambda: self.state.files.save(),
            open=lambda: self.state.request(Leave.OPEN),
            new=lambda: self.state.request(Leave.NEW), test_drive=self.test_drive,
            race=self.race, menu=lambda: self.state.request(Leave.MENU),
            rules=self.choose_rules, help=self.toggle_help), self.variants, rules_name)
        self.mouse: tuple[int, int] | None = None
        self.shift = False
        self.space = False
        self.panning = Drag(threshold=0)  # the middle button, or Space and the left, held
        self.help = False
        self.swallow: str | None = None  # the key that opened a text field types nothing
        self.dialog: Question | None = None  # the state's question, as a window
        self.prompt: Prompt | None = None  # the text the state waits for
        self.chooser: Picker | None = None  # the track list after Open or New
        self.entries: list[TrackEntry] = []  # the chooser's rows
        self._shown_for: dict[str, object] = {}  # what each open dialog was made for
        self._laid_out: tuple | None = None
        self._shade: pygame.Surface | None = None
        self._key_layout: tuple[pygame.Rect, key_list.KeyLayout] | None = None
        self._layout()
        self._drawings_rules()
        self.fit()
        self._after()

    # -- compatibility: what other code and tests read -------------------------------------

    @property
    def draft(self):
        return self.state.draft

    @property
    def path(self) -> Path | None:
        return self.state.path

    @property
    def field(self) -> Entry | None:
        """The text field of the open prompt."""
        return self.prompt.field if self.prompt is not None else None

    @path.setter
    def path(self, value: Path | None) -> None:
        self.state.path = value

    # -- layout ----------------------------------------------------------------------------

    def _layout(self) -> None:
        """Fit the paper, the panel and any open dialog to the window (and the widgets, made
        afresh after a change of UI scale)."""
        width, height = self.app.size
        self._laid_out = self.app.layout_key
        self.camera.width, self.camera.height = width - panel_width(width), height
        self.camera.offset_x, self.camera.offset_y = 0, 0
        self.panel.layout(self.state, self.app.page(self), self.app.layout_key)
        self._shade = None
        self._close_dialogs()
        self._after()

    @property
    def canvas_rect(self) -> pygame.Rect:
        """The paper beside the panel, where dialogs open."""
        return pygame.Rect(0, 0, self.camera.width, self.app.size[1])

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
                self.toggle_help()
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
                self.panning.end()
            return
        if isinstance(intent, Key):
            self.shift = intent.shift
            if not self._browse(intent):
                self._key(intent)
        elif isinstance(intent, Wheel):
            if self.on_canvas(intent.pos):
                self.camera.zoom(1.15 ** intent.steps, intent.pos)
        elif isinstance(intent, Motion):
            self.shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            if self.panning.held:
                self.panning.move(self.camera, intent.pos, intent.rel)
            elif state.hand.gesture is not None:
                state.drag(self.world(intent.pos), self.shift)
            else:
                state.hand.hover(self.world(intent.pos))
        elif isinstance(intent, Click):
            self.shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            if not self.on_canvas(intent.pos):
                return  # the panel's own words: its buttons are pygame_gui's
            if intent.button == 2 or (intent.button == 1 and self.space):
                self.panning.start(intent.pos)
            else:
                state.press(self.world(intent.pos), intent.button, self.shift, self.shift)
        elif isinstance(intent, Release):
            if self.panning.held and (intent.button == 2 or intent.button == 1):
                self.panning.end()
            elif state.hand.gesture is not None:
                state.release(self.world(intent.pos), self.shift)

    def _browse(self, intent: Key) -> bool:
        """With one of the panel's lists open, the keys work it: Up / Down and PgUp / PgDn
        go through it (it scrolls with them), Enter and Esc close it."""
        choice = self.panel.open_list()
        if choice is None:
            return False
        steps = {"up": -1, "down": 1, "pageup": -5, "pagedown": 5}
        if intent.name in steps:
            choice.browse(steps[intent.name])
        elif intent.name in ("enter", "escape"):
            choice.open_list(False)
        else:
            return False
        return True

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
        if name == "home":
            self.fit()
        elif name == "t":
            self.test_drive()
        elif name == "r":
            self.race()
        else:
            pan_by_key(self.camera, name)

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

    def _handle_prompt(self, intent: Intent) -> None:
        """Keys the text field left: Esc cancels, Enter (the field not focused) confirms."""
        if not isinstance(intent, Key) or self.field is None:
            return
        if intent.name == "enter":
            self.state.answer_prompt(self.field.text)
        elif intent.name == "escape":
            self.state.answer_prompt(None)

    def _handle_chooser(self, intent: Intent) -> None:
        if not isinstance(intent, Key) or self.chooser is None:
            return
        if intent.name == "escape":
            self.state.files.cancel_choosing()
        else:
            self.chooser.key(intent.name)

    def _after(self) -> None:
        """Show what the state now asks for, and leave when it says so."""
        state = self.state
        for note in state.notes:
            self.toasts.append(hud.Toast(note))
        state.notes.clear()
        if state.draft.rules != self._rules_of:
            self._drawings_rules()
        if self._shown_for.get("question") is not state.question:
            self._close("dialog", "question")
            if state.question is not None:
                self._question()
        if self._shown_for.get("prompt") is not state.prompt:
            self._close("prompt", "prompt")
            if state.prompt is not None:
                self._prompt()
        if self._shown_for.get("choosing") is not state.choosing:
            self._close("chooser", "choosing")
            if state.choosing is not None:
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

    def _close(self, attribute: str, what: str) -> None:
        dialog = getattr(self, attribute)
        if dialog is not None:
            dialog.close()
        setattr(self, attribute, None)
        self._shown_for.pop(what, None)

    def _close_dialogs(self) -> None:
        """Close every dialog (``_after`` opens again what the state still asks)."""
        for attribute, what in (("dialog", "question"), ("prompt", "prompt"),
                                ("chooser", "choosing")):
            self._close(attribute, what)

    def _answered(self, answer) -> None:
        """A dialog's button or its close button: the state takes the answer, and the
        window shows what follows."""
        answer()
        self._after()

    def _question(self) -> None:
        question = self.state.question
        self._shown_for["question"] = question
        choices = question.choices

        def answer(number: int | None) -> None:
            choice = Choice.CANCEL if number is None else choices[number]
            self._answered(lambda: self.state.answer(choice))

        self.dialog = Question(self.app.page(self), question.title, question.text,
                               [choice.value for choice in choices], answer,
                               [ANSWER_STYLES.get(choice) for choice in choices],
                               area=self.canvas_rect)

    def _prompt(self) -> None:
        prompt = self.state.prompt
        self._shown_for["prompt"] = prompt
        title, label = PROMPTS[prompt.asking]
        self.prompt = Prompt(self.app.page(self), title,
                             f"{label} Enter confirms, Esc cancels.", prompt.text, 80,
                             lambda text: self._answered(lambda: self.state.answer_prompt(text)),
                             area=self.canvas_rect, ignore=self.swallow)

    def _open_chooser(self, what: Leave) -> None:
        self._shown_for["choosing"] = what
        self.entries = your_tracks() if what is Leave.OPEN else templates()
        if not self.entries and what is not Leave.OPEN:
            self.state.choosing = None
            self._shown_for.pop("choosing")
            self.toasts.append(hud.Toast("No templates found"))
            return
        title = "Open a track" if what is Leave.OPEN else "New track from a template"
        hint = ("Click one, or use the arrow keys and Enter; Esc cancels." if self.entries
                else "No saved tracks yet: open a file from elsewhere, or start a new one "
                     "(Ctrl+N).")
        rows = [f"{entry.name}   ({entry.detail})" if entry.detail else entry.name
                for entry in self.entries]
        extra = [("Other file…", self._other_file)] if what is Leave.OPEN else []
        self.chooser = Picker(self.app.page(self), title, hint, rows, self._picked,
                               lambda: self._answered(self._cancel_choosing), extra,
                               area=self.canvas_rect)

    def _cancel_choosing(self) -> None:
        self.state.files.cancel_choosing()

    def _other_file(self) -> None:
        """A track file or a map from anywhere, through the file dialog."""
        self.app.page(self).choose_file(
            "Open a track or a map", tracks_dir(), {".yaml", ".yml", *MAP_SUFFIXES},
            lambda path: self._answered(lambda: self._open_file(path)))

    def _open_file(self, path: Path) -> None:
        if self.state.open(path):
            self._drawings_rules()
            self.fit()

    def _picked(self, index: int) -> None:
        if self.chooser is None or not 0 <= index < len(self.entries):
            return
        entry = self.entries[index]
        what = self.state.choosing
        if what is Leave.OPEN and entry.path is not None:
            done = self.state.open(entry.path)
            if done:
                self._drawings_rules()
        else:
            done = self.state.new_from(entry.path)
        if done:
            self.fit()
        self._after()

    def toggle_help(self) -> None:
        """F1: the list of every key over the whole window (the panel's controls hidden under
        it), or back."""
        self.help = not self.help
        if self.panel.page is not None:
            self.panel.page.cover(self.help)

    # -- rules, test drive and racing --------------------------------------------------------

    def _rules(self, name: str):
        rules = load_rules(name)
        with contextlib.suppress(ValueError):
            rules = apply_overrides(rules, self.settings.overrides())
        return rules

    def choose_rules(self, name: str) -> None:
        """Test drives and races use these rules, remembered for the New race screen too."""
        self.state.set_rules(self._rules(name), len(self.settings.players))
        self.own_rules = name
        self.settings = replace(self.settings, rules=name)
        with contextlib.suppress(OSError):
            save_settings(self.settings)

    def _drawings_rules(self) -> None:
        """A drawing that names the rules it races by (a map imported from Karopapier, or a
        character grid) is test driven and raced by them, as the game races it: the panel
        shows them. The player's own choice of rules is left as it was, and comes back for
        a drawing that names none."""
        named = self.state.draft.rules
        self._rules_of = named
        name = named if named in self.variants else self.own_rules
        if name == self.panel.rules_name and name == self.state.rules.name:
            return
        self.state.set_rules(self._rules(name), len(self.settings.players))
        self.panel.set_rules(name)
        self.toasts.append(hud.Toast(
            f"{self.state.draft.name} races by its source's rules, {name}" if name == named
            else f"Back to your own rules, {name}"))

    def test_drive(self) -> None:
        """T: show (or hide) the solver's optimal line, with the par in the panel."""
        if self.state.track() is None:
            self.toasts.append(hud.Toast("Fix the marked problems first"))
            return
        self.state.show_route = not self.state.show_route
        self.state.checks.hurry()
        self.state.update(0.0)

    def race(self) -> None:
        """R: race the drawing now, with the players and rules chosen; the results lead back
        here."""
        track = self.state.track()
        if track is None or not self.state.raceable():
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
        if self.app.layout_key != self._laid_out or self.app.page(self) is not self.panel.page:
            self._layout()
        self.state.hand.reach_is(GRAB / self.camera.scale, arrow_length(self.camera.scale))
        self.state.update(dt)
        self.panel.layout(self.state, self.app.page(self), self.app.layout_key)
        if self.help:
            self.panel.page.cover(True)  # laid out afresh under the list of keys
        self._after()  # what the panel's buttons asked for (they call the state directly)

    def draw(self, surface: pygame.Surface) -> None:
        state = self.state
        mouse = self.mouse if not (state.question or state.prompt or state.choosing) else None
        self.canvas.draw(surface, state, self.camera, mouse, self.shift)
        self.panel.draw(surface, state, status_lines(state, state.checks.solving()))
        if self.dialog or self.prompt or self.chooser:
            self._shaded(surface)  # the dialog's window is drawn over it by pygame_gui
        if self.help:
            self._help(surface)
            return
        # Over the drawing, clear of the panel's buttons and the pointer's coordinates.
        room = self.canvas_rect
        room.h -= theme.px(26)
        hud.draw_toasts(surface.subsurface(room), self.toasts)

    def _shaded(self, surface: pygame.Surface) -> None:
        """A pale veil over the paper."""
        surface.blit(self._veil((self.camera.width, surface.get_height())), (0, 0))

    def _veil(self, size: tuple[int, int]) -> pygame.Surface:
        """A pale see-through sheet, made once per size."""
        if self._shade is None or self._shade.get_size() != size:
            self._shade = pygame.Surface(size, pygame.SRCALPHA)
            self._shade.fill((250, 248, 240, 228))
        return self._shade

    def _help(self, surface: pygame.Surface) -> None:
        """The list of every key, over the whole window, laid out to fit it."""
        width, height = surface.get_size()
        surface.blit(self._veil((width, height)), (0, 0))
        margin = theme.px(20)
        title = theme.ui_font(28, True)
        surface.blit(title.render("Every key (any key closes this)", True, theme.TEXT),
                     (margin, margin))
        room = pygame.Rect(margin, margin + title.get_linesize() + theme.px(8),
                           width - 2 * margin, 0)
        room.h = height - room.y - margin
        if self._key_layout is None or self._key_layout[0] != room:
            rows = [(tool.key.upper(), TOOL_SHORT[tool]) for tool in Tool] + list(KEY_HELP)
            self._key_layout = (room, key_list.lay_out(rows, room))
        key_list.draw(surface, self._key_layout[1])
