"""New race: pick a track (a scrolling list of thumbnails, or any track file through a file
dialog), a rule variant (a drop-down with a line about each), the moves (the variant's own, or
5, 9 or 25 choices on top of any variant) and 1 to 6 players, each with a name, a pencil
colour and human or a computer level. The choices are remembered in the player's settings.

One human player alone is a time trial: the screen then shows the best run and the solver's
par for the chosen track and rules (the par worked out off the frame).

The screen lays itself out from 800 x 600 up: the track list takes what the player rows leave.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pygame

from racetrack.editing.files import TrackEntry, entry_for, told_apart
from racetrack.errors import FileProblemError
from racetrack.records import Record, Records, TrialKey, read_records, trial_track
from racetrack.rules import RuleSet, bundled_variant_names, load_rules
from racetrack.rules.overrides import apply_overrides
from racetrack.settings import (
    DRIVERS,
    MAX_PLAYERS,
    MOVES,
    PENCILS,
    TEAMS,
    PlayerChoice,
    load_settings,
    tracks_dir,
    update_settings,
)
from racetrack.track import Track, bundled_track_paths, load_track
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.input import Click, Intent, Key
from racetrack.ui.loading import Loading
from racetrack.ui.par import ParWorker
from racetrack.ui.render.marks import chosen_card
from racetrack.ui.render.sheet import THUMB, thumbnail
from racetrack.ui.render.words import shorten, wrap_pixels
from racetrack.ui.scenes.form import FormScene, heading, read_file

__all__ = ["SetupScene", "thumbnail", "wrap_pixels"]  # the helpers, where they were

#: The Moves list's words, for the settings' ``moves`` values.
MOVE_LABELS = {"": "rule set's own", "plus": "5 plus", "square": "9 square",
               "square-24": "25 square-24"}
assert set(MOVE_LABELS) == set(MOVES)
#: The Team list's words, for the settings' team letters.
TEAM_LABELS = {letter: letter or "-" for letter in TEAMS}
TEAM_LETTERS = {label: letter for letter, label in TEAM_LABELS.items()}
#: The way round a circuit, as the setup screen words it.
WAYS = {"fwd": False, "rev": True}
ERROR = theme.ERROR


@dataclass
class TrackChoice:
    path: Path
    track: Track
    thumbnail: pygame.Surface


class Selection:
    """A value chosen from a list, kept by the scene: the drop-down shows it, and code (or a
    test) may ``set`` or ``step`` it before or after the list is drawn."""

    def __init__(self, choices: Sequence[str], value: str,
                 on_change: Callable[[str], None] | None = None):
        self.choices = list(choices)
        self.value = value if value in self.choices else self.choices[0]
        self.on_change = on_change

    def set(self, value: str) -> None:
        if value in self.choices and value != self.value:
            self.value = value
            if self.on_change:
                self.on_change(value)

    def step(self, by: int) -> None:
        index = self.choices.index(self.value)
        self.set(self.choices[(index + by) % len(self.choices)])


def available_tracks() -> list[tuple[Path, Track]]:
    """Bundled tracks, then the player's own valid tracks (invalid drafts are not offered)."""
    found = []
    own = sorted(tracks_dir().glob("*.yaml")) if tracks_dir().is_dir() else []
    for path in [*bundled_track_paths(), *own]:
        with contextlib.suppress(FileProblemError):
            found.append((path, load_track(path)))
    return found


def default_name(driver: str, number: int) -> str:
    """The name a player of a kind starts with: "Player 2", "Computer 1"."""
    return f"Player {number}" if driver == "human" else f"Computer {number}"


def is_default_name(name: str) -> bool:
    word, _, number = name.rpartition(" ")
    return word in ("Player", "Computer") and number.isdigit() or name in ("Computer",
                                                                            "Player")


class SetupScene(FormScene):
    idles = True
    #: The left heading and the start button's words.
    track_heading = "Track"
    caption = "New race"
    start_label = "Start race"

    def __init__(self, app):
        super().__init__(app)
        self.settings = load_settings()
        self.tracks = [TrackChoice(p, t, thumbnail(t)) for p, t in available_tracks()]
        self.selected = next((i for i, c in enumerate(self.tracks)
                              if c.path.stem == self.settings.track), 0)
        self.variants = bundled_variant_names()
        self.descriptions = {name: load_rules(name).description for name in self.variants}
        # The rules list's words: each variant's name and what it is.
        self.rule_labels = {name: f"{name} — {about.split(':')[0]}" if about else name
                            for name, about in self.descriptions.items()}
        self.players = list(self.settings.players)
        self.take_backs = self.settings.take_backs
        self.take_backs_toggle = None
        self.rules = Selection(self.variants, self.settings.rules
                               if self.settings.rules in self.variants else "gardner",
                               lambda value: self.relayout())
        self.moves = Selection(list(MOVE_LABELS.values()), MOVE_LABELS[self.settings.moves],
                               lambda value: self.relayout())
        self.error = ""
        self.records, self.records_problem = Records(), ""
        self.reading = Loading(read_records, (Records(), ""))  # off the frame: it may be big
        self.par = ParWorker()
        self._rule_sets: dict[tuple[str, str], RuleSet] = {}
        self._keys: dict[tuple, TrialKey] = {}
        self._shown: tuple | None = None  # what the layout showed (rows change with it)
        self.picker = None
        self.cells: list[tuple[int, object]] = []  # (track index, its image)
        self.notes_rect = pygame.Rect(0, 0, 0, 0)
        self.grid_top = 0
        self.rule_label_y = self.moves_label_y = self.description_y = 0

    # -- layout ---------------------------------------------------------------------------

    @property
    def panel_x(self) -> int:
        """Where the right-hand panel (rules and players) starts."""
        width = self.app.size[0]
        return max(theme.px(250), min(width - theme.px(560), width // 2))

    def layout(self, page: Page, width: int, height: int) -> None:
        self._shown = (self.reversible, self.teams, self.time_trial, len(self.players))
        self._layout_tracks(page, width, height)
        x = self.panel_x + theme.px(20)
        right = width - theme.px(24)
        field = theme.px(40)
        y = theme.px(76)
        label_width = theme.px(70)
        page.choice((x + label_width, y, right - x - label_width - theme.px(52), field),
                    self.rules.choices, self.rules.value, self.rules.set,
                    tooltip="The rule variant", height_limit=height - y - theme.px(60),
                    labels=self.rule_labels)
        page.button((right - theme.px(44), y, theme.px(44), field), "?", self.help,
                    tooltip="How to play these rules")
        self.rule_label_y = y
        y += field + theme.px(4)
        self.description_y = y
        y += theme.px(40)
        page.choice((x + label_width, y, right - x - label_width, theme.px(36)),
                    self.moves.choices, self.moves.value, self.moves.set,
                    tooltip="The moves: the rule set's own, or 5, 9 or 25 choices on top "
                            "of any rules")
        self.moves_label_y = y
        y += theme.px(46)
        self._layout_players(page, x, y, right)
        y += len(self.players) * theme.px(44)
        page.button((x, y + theme.px(4), theme.px(150), theme.px(38)), "Add player", self.add,
                    enabled=len(self.players) < MAX_PLAYERS,
                    tooltip="Up to six cars")
        page.button((x + theme.px(160), y + theme.px(4), theme.px(150), theme.px(38)),
                    "Remove last", self.remove, enabled=len(self.players) > 1)
        y += theme.px(52)
        y = self.layout_take_backs(page, x, y, right)
        bottom = height - theme.px(66)
        page.button((x, bottom, theme.px(130), theme.px(50)), "Back", self.back, style="big")
        self.start_button = page.button((right - theme.px(210), bottom, theme.px(210),
                                         theme.px(50)), self.start_label, self.start,
                                        enabled=self.can_start, style="primary")
        self.notes_rect = pygame.Rect(x, y, right - x, bottom - theme.px(8) - y)

    def layout_take_backs(self, page: Page, x: int, y: int, right: int) -> int:
        """The race setting for taking moves back (never in a time trial: its record
        counts); returns the y below it."""
        box = theme.px(24)
        trial = self.time_trial
        self.take_backs_toggle = page.toggle(
            (x, y, box, box), "Take back moves (Ctrl+Z)" if not trial
            else "No take-backs in a time trial", self.take_backs and not trial,
            self._set_take_backs,
            tooltip="Let a player take back their last move and the computer moves since")
        self.take_backs_toggle.enabled = not trial
        return y + box + theme.px(12)

    def _set_take_backs(self, on: bool) -> None:
        self.take_backs = on

    def track_buttons(self) -> list[tuple[str, Callable[[], None], str, bool]]:
        """The buttons under the track list: (words, action, tooltip, enabled)."""
        return [("Open a track file…", self.open_track, "Race on a track file from anywhere",
                 True)]

    def _layout_track_buttons(self, page: Page, left: int, room: int, bottom: int) -> int:
        """The buttons under the track list, side by side where their words fit, else one
        above the other; returns the top of the highest."""
        buttons = self.track_buttons()
        gap, tall = theme.px(12), theme.px(50)
        widths = [page.text_width(words) + theme.px(28) for words, *_ in buttons]
        if sum(widths) + gap * (len(widths) - 1) <= room:
            x = left
            for (words, action, tip, enabled), width in zip(buttons, widths, strict=True):
                page.button((x, bottom, width, tall), words, action, tooltip=tip,
                            enabled=enabled)
                x += width + gap
            return bottom
        top = bottom
        for number, (words, action, tip, enabled) in enumerate(reversed(buttons)):
            top = bottom - number * (tall + theme.px(8))
            page.button((left, top, min(room, max(widths)), tall), words, action, tooltip=tip,
                        enabled=enabled)
        return top

    def _layout_tracks(self, page: Page, width: int, height: int) -> None:
        """The track list: thumbnails in as many columns as fit, scrolling; buttons under it
        (one opens any track file)."""
        self.grid_top = self.picker_top()
        left = theme.px(16)
        gap = theme.px(12)
        room = self.panel_x - left - theme.px(8)
        inside = room - theme.px(24)  # less the scroll bar
        columns = max(1, inside // (theme.px(THUMB[0]) + gap))
        cell_width = inside // columns - gap
        cell = (cell_width, round(cell_width * THUMB[1] / THUMB[0]) + theme.px(30))
        rows = (len(self.tracks) + columns - 1) // columns
        bottom = self._layout_track_buttons(page, left, room, height - theme.px(66))
        kept = self.scrolled()  # the list keeps its place when it is laid out again
        self.picker = page.scroller((left, self.grid_top, room, bottom - self.grid_top
                                     - theme.px(8)),
                                    (columns * (cell[0] + gap), rows * (cell[1] + gap)))
        self.cells = []
        for index in range(len(self.tracks)):
            row, column = divmod(index, columns)
            image = page.image((column * (cell[0] + gap) + gap // 2, row * (cell[1] + gap),
                                cell[0], cell[1]), self.cell_picture(index, cell),
                               container=self.picker)
            self.cells.append((index, image))
        if kept is None:  # first shown: scrolled only as far as shows the chosen track
            self.scroll_to(self.selected)
        elif self.picker.vert_scroll_bar is not None:
            self.picker.vert_scroll_bar.set_scroll_from_start_percentage(kept)

    def picker_top(self) -> int:
        """Where the track list begins (below the heading)."""
        return theme.px(76)

    def cell_picture(self, index: int, size: tuple[int, int]) -> pygame.Surface:
        """A track's cell: its thumbnail and name, framed (highlighted when chosen)."""
        choice = self.tracks[index]
        chosen = index == self.selected
        picture = chosen_card(size, chosen)
        thumb = choice.thumbnail
        room = (size[0] - 12, size[1] - theme.px(34))
        scale = min(room[0] / thumb.get_width(), room[1] / thumb.get_height())
        if abs(scale - 1) > 0.02:
            thumb = pygame.transform.smoothscale_by(thumb, scale)
        picture.blit(thumb, thumb.get_rect(midtop=(size[0] // 2, 6)))
        entry = self.labels[index]
        font = theme.ui_font(20, bold=chosen)
        name = font.render(shorten(entry.name, font, size[0] - 12), True, theme.TEXT)
        if self.named_alike(index):  # two tracks of one name: the file tells them apart
            small = theme.ui_font(15)
            where = small.render(shorten(entry.detail, small, size[0] - 12), True, theme.MUTED)
            picture.blit(where, where.get_rect(midbottom=(size[0] // 2, size[1] - 4)))
            picture.blit(name, name.get_rect(midbottom=(size[0] // 2,
                                                        size[1] - 4 - where.get_height())))
        else:
            picture.blit(name, name.get_rect(midbottom=(size[0] // 2, size[1] - 6)))
        badge = self.badge(index)
        if badge:
            label = theme.ui_font(20, bold=True).render(badge, True, (255, 255, 255))
            box = label.get_rect(topleft=(8, 8)).inflate(14, 6)
            pygame.draw.rect(picture, theme.palette().pencil("red"), box, border_radius=10)
            picture.blit(label, label.get_rect(center=box.center))
        return picture

    @property
    def labels(self) -> list[TrackEntry]:
        """Each track's name in the list, numbered where two share one, and its file."""
        key = tuple(c.path for c in self.tracks)
        if getattr(self, "_labels_key", None) != key:
            self._labels_key = key
            self._labels = told_apart([entry_for(c.path, c.track.name) for c in self.tracks])
        return self._labels

    def named_alike(self, index: int) -> bool:
        name = self.tracks[index].track.name.lower()
        return sum(c.track.name.lower() == name for c in self.tracks) > 1

    def badge(self, index: int) -> str:
        """Words on a track's thumbnail (the championship's race numbers)."""
        return ""

    def refresh_cells(self) -> None:
        """Draw the cells again (the choice or the badges changed)."""
        for index, image in self.cells:
            image.set_image(self.cell_picture(index, image.rect.size))

    def _layout_players(self, page: Page, x: int, y: int, right: int) -> None:
        reversible, teams = self.reversible, self.teams
        way_width = theme.px(80) if reversible else 0
        team_width = theme.px(64) if teams else 0
        gap = theme.px(8)
        room = right - x - way_width - team_width - gap * (2 + reversible + teams)
        name_width = room * 36 // 100
        colour_width = room * 28 // 100
        driver_width = room - name_width - colour_width
        tall = theme.px(38)
        for index, player in enumerate(self.players):
            row = y + index * theme.px(44)
            page.entry((x, row, name_width, tall), player.name,
                       on_change=lambda text, i=index: self._set(i, name=text),
                       tooltip="The player's name")
            at = x + name_width + gap
            page.choice((at, row, colour_width, tall), PENCILS, player.colour,
                        lambda value, i=index: self._set(i, colour=value))
            at += colour_width + gap
            page.choice((at, row, driver_width, tall), DRIVERS, player.driver,
                        lambda value, i=index: self.set_driver(i, value))
            at += driver_width + gap
            if teams:  # Baker's team racing: a team letter, or none
                page.choice((at, row, team_width, tall), list(TEAM_LABELS.values()),
                            TEAM_LABELS[player.team],
                            lambda value, i=index: self._set(i, team=TEAM_LETTERS[value]),
                            tooltip="team: the same letter scores together (- for none)")
                at += team_width + gap
            if reversible:  # Levi: each car may go either way round
                page.choice((at, row, way_width, tall), list(WAYS),
                            "rev" if player.reverse else "fwd",
                            lambda value, i=index: self._set(i, reverse=WAYS[value]),
                            tooltip="which way round the circuit")

    def first_focus(self, page: Page) -> int:
        """Enter starts the race straight away."""
        return page.widgets.index(self.start_button)

    # -- choices --------------------------------------------------------------------------

    @property
    def can_start(self) -> bool:
        return True

    def pick(self, index: int) -> None:
        """A click on a track's thumbnail; a track that names its rule set (an imported map
        races by its source's) chooses those rules, which the player may still change."""
        self.selected = index
        self.rules.set(self.tracks[index].track.rules)
        self.refresh_cells()

    def _set(self, index: int, **change) -> None:
        player = self.players[index]
        self.players[index] = replace(player, **change)

    def set_driver(self, index: int, driver: str) -> None:
        """A new kind of player: a name still the old kind's default follows the new kind."""
        player = self.players[index]
        name = player.name
        if is_default_name(name) and (player.driver == "human") != (driver == "human"):
            kind = [p for p in self.players if (p.driver == "human") == (driver == "human")]
            name = default_name(driver, len(kind) + 1)
        self.players[index] = replace(player, driver=driver, name=name)
        self.relayout()

    def add(self) -> None:
        used = {p.colour for p in self.players}
        colour = next((c for c in PENCILS if c not in used), "black")
        computers = sum(1 for p in self.players if p.driver != "human")
        self.players.append(PlayerChoice(default_name("medium", computers + 1), colour,
                                         "medium"))
        self.relayout()

    def remove(self) -> None:
        if len(self.players) > 1:
            self.players.pop()
            self.relayout()

    @property
    def moves_value(self) -> str:
        """The chosen movement override ("" for the rule set's own)."""
        return next(value for value, label in MOVE_LABELS.items() if label == self.moves.value)

    def overrides(self) -> dict[str, str]:
        return {"movement.choices": self.moves_value} if self.moves_value else {}

    @property
    def reversible(self) -> bool:
        """Whether the chosen rules and track let each car choose its way round."""
        return self.chosen_rules().start_direction == "either" \
            and self.tracks[self.selected].track.is_circuit

    @property
    def teams(self) -> bool:
        """Whether the chosen rules score teams (then each player may join one)."""
        return self.chosen_rules().teams_scoring != "none"

    @property
    def time_trial(self) -> bool:
        return len(self.players) == 1 and self.players[0].driver == "human"

    def chosen_rules(self) -> RuleSet:
        """The chosen variant with the Moves override (kept, not reloaded every frame)."""
        key = (self.rules.value, self.moves_value)
        if key not in self._rule_sets:
            self._rule_sets[key] = apply_overrides(load_rules(key[0]), self.overrides())
        return self._rule_sets[key]

    def trial_key(self) -> TrialKey:
        rules = self.chosen_rules()
        key = (self.selected, rules, self.players[0].reverse and self.reversible)
        if key not in self._keys:
            self._keys[key] = TrialKey.of(self.trial_track(), rules)
        return self._keys[key]

    def trial_track(self) -> Track:
        """The track a solo run here is measured on (its reversed course, raced in reverse)."""
        return trial_track(self.tracks[self.selected].track,
                           self.players[0].reverse and self.reversible)

    def best(self) -> Record | None:
        return self.records.find(self.trial_key())

    def help(self) -> None:
        self.app.routes.help(self.chosen_rules(), self.tracks[self.selected].track)

    def open_track(self) -> None:
        """Choose any track file: it joins the list, chosen."""
        start = tracks_dir() if tracks_dir().is_dir() else Path.home()
        self.form.choose_file("Open a track file", start, {".yaml", ".yml"}, self.add_track)

    def add_track(self, path: Path) -> None:
        track, self.error = read_file(load_track, path)
        if track is None:
            return
        known = next((i for i, c in enumerate(self.tracks) if c.path == path), None)
        if known is None:
            self.tracks.append(TrackChoice(path, track, thumbnail(track)))
            known = len(self.tracks) - 1
        self.selected = known
        self.rules.set(track.rules)
        self.relayout()

    def chosen_players(self) -> tuple[PlayerChoice, ...]:
        """The players as they will race: a blank name is the kind's default, and the way
        round is kept only where the rules and track allow a choice."""
        reversible = self.reversible
        return tuple(replace(p, name=p.name.strip() or default_name(p.driver, i + 1),
                             reverse=p.reverse and reversible)
                     for i, p in enumerate(self.players))

    def remember(self) -> None:
        """Keep the choices in the player's settings (on starting, and on going back), with
        whatever else the file holds."""
        with contextlib.suppress(OSError, ValueError):
            update_settings(track=self.tracks[self.selected].path.stem, rules=self.rules.value,
                            players=self.chosen_players(), moves=self.moves_value,
                            take_backs=self.take_backs)

    def back(self) -> None:
        self.remember()
        self.par.close()
        super().back()

    def start(self) -> None:
        choice = self.tracks[self.selected]
        players = self.chosen_players()
        self.remember()
        try:
            self.app.routes.start_race(choice.path, self.rules.value, players,
                                       animation_seconds=self.settings.animation_seconds,
                                       overrides=self.overrides())
        except ValueError as exc:
            self.error = str(exc)
            return
        self.par.close()

    def on_show(self) -> None:
        """Back from a race: the records may have changed."""
        self.reading = Loading(read_records, (Records(), ""))

    def take_records(self) -> None:
        """The records, once read off the frame."""
        if self.reading is not None and self.reading.done:
            self.records, self.records_problem = self.reading.value
            self.records_problem = self.records_problem or self.reading.problem
            self.reading = None

    # -- the track list -------------------------------------------------------------------

    def _cells(self) -> list[tuple[int, pygame.Rect]]:
        """The cells showing now, on the window (clipped to the list)."""
        if self.picker is None:
            return []
        view = self.picker.rect
        return [(index, pygame.Rect(image.rect)) for index, image in self.cells
                if view.colliderect(image.rect)]

    def scrolled(self) -> float | None:
        """How far down the track list is scrolled (a share of its length), or ``None``
        before it is first shown."""
        bar = self.picker.vert_scroll_bar if self.picker is not None else None
        if self.picker is None:
            return None
        return bar.start_percentage if bar is not None else 0.0

    def scroll_to(self, index: int) -> None:
        """Scroll the list the least that shows the track's cell whole (a frame later)."""
        image = dict(self.cells).get(index)
        bar = self.picker.vert_scroll_bar if self.picker is not None else None
        if image is None or bar is None:
            return
        content = self.picker.get_container().rect
        top = image.rect.y - content.y
        scrolled = self.picker.rect.y - content.y
        margin = theme.px(8)
        if top < scrolled:
            bar.set_scroll_from_start_percentage(max(0, top - margin) / max(1, content.h))
        elif top + image.rect.h > scrolled + self.picker.rect.h:
            lowest = top + image.rect.h + margin - self.picker.rect.h
            bar.set_scroll_from_start_percentage(max(0, lowest) / max(1, content.h))

    def on_intent(self, intent: Intent) -> None:
        if isinstance(intent, Key) and intent.name in ("pageup", "pagedown"):
            step = 1 if intent.name == "pagedown" else -1
            self.pick((self.selected + step) % len(self.tracks))
            self.scroll_to(self.selected)
            return
        if isinstance(intent, Click) and intent.button == 1:
            visible = self.picker.rect if self.picker is not None else pygame.Rect(0, 0, 0, 0)
            for index, rect in self._cells():
                if rect.collidepoint(intent.pos) and visible.collidepoint(intent.pos):
                    self.app.sound.play("click")
                    self.pick(index)
                    return

    def update(self, dt: float) -> None:
        self.take_records()
        if self._shown != (self.reversible, self.teams, self.time_trial, len(self.players)):
            self.relayout()
        super().update(dt)
        if self.time_trial:
            self.par.ask(self.trial_track(), self.chosen_rules(), self.trial_key())

    # -- drawing --------------------------------------------------------------------------

    def draw_paper(self, surface: pygame.Surface) -> None:
        heading(surface, self.track_heading, (theme.px(16), theme.px(16)), 40)
        x = self.panel_x + theme.px(20)
        heading(surface, "Time trial" if self.time_trial else "Rules and players",
                (x, theme.px(16)), 40)
        label = theme.ui_font(24)
        for text, y, tall in (("Rules", self.rule_label_y, theme.px(40)),
                              ("Moves", self.moves_label_y, theme.px(36))):
            rendered = label.render(text, True, theme.TEXT)
            surface.blit(rendered, rendered.get_rect(midleft=(x, y + tall // 2)))
        description = self.descriptions.get(self.rules.value, "")
        small = theme.ui_font(20)
        room = surface.get_width() - x - theme.px(24)
        for i, line in enumerate(wrap_pixels(description, small, room)[:2]):
            text = small.render(line, True, theme.MUTED)
            surface.blit(text, (x, self.description_y + i * small.get_linesize()))
        self.draw_notes(surface)

    def draw_notes(self, surface: pygame.Surface) -> None:
        """Under the players: the time trial's best and par, messages, the track's words."""
        box = self.notes_rect
        if box.h <= 0:
            return
        y = box.y
        font = theme.ui_font(22)
        if self.time_trial:
            y = self._draw_trial(surface, box.x, y, box.w)
        chosen = self.tracks[self.selected].track
        name = self.labels[self.selected].label if self.named_alike(self.selected) \
            else chosen.name
        about = f"{name}: {chosen.description}" if chosen.description else name
        notes = self.notes()
        if self.teams:
            notes.append(("A team letter: the same letter (or the same name) races as one team",
                          theme.MUTED))
        lines = [(line, colour) for text, colour in notes
                 for line in wrap_pixels(text, font, box.w)]
        lines += [(line, theme.TEXT) for line in wrap_pixels(about, font, box.w)]
        for line, colour in lines:
            if y + font.get_linesize() > box.bottom:
                break
            surface.blit(font.render(line, True, colour), (box.x, y))
            y += font.get_linesize()
        room = pygame.Rect(box.x, y + theme.px(10), box.w, box.bottom - y - theme.px(10))
        if room.h > theme.px(140):
            preview = self._preview(room.size)
            surface.blit(preview, preview.get_rect(midtop=room.midtop))

    def _preview(self, size: tuple[int, int]) -> pygame.Surface:
        """The chosen track, large, where the screen has room for it (kept per size)."""
        key = (self.selected, size)
        if getattr(self, "_preview_key", None) != key:
            self._preview_key = key
            self._preview_picture = thumbnail(self.tracks[self.selected].track, size)
        return self._preview_picture

    def notes(self) -> list[tuple[str, tuple[int, int, int]]]:
        """Lines (and their colours) shown above the chosen track's description."""
        return [(self.error, ERROR)] if self.error else []

    def _draw_trial(self, surface: pygame.Surface, x: int, y: int, width: int) -> int:
        """The best run and the par for the chosen track and rules; returns the y below."""
        best = self.best()
        job = self.par.jobs.get(self.trial_key())
        lines = [(f"Best: {best.best} turns, {best.player} ({best.date}, {best.runs} "
                  f"run{'s' if best.runs != 1 else ''})" if best else
                  "Best: reading the records..." if self.reading is not None else
                  "Best: no run yet",
                  theme.TEXT, True),
                 (ParWorker.status(job).capitalize() + (" turns" if job is not None and
                                                        job.done() and
                                                        job.result().turns else ""),
                  theme.TEXT, False),
                 ("Race alone and finish in as few turns as you can.", theme.MUTED, False)]
        if self.records_problem:
            lines.append((f"Records file damaged: {self.records_problem}"[:70], ERROR, False))
        line = theme.px(24)
        box = pygame.Rect(x, y, width, theme.px(10) + line * len(lines))
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=8)
        pygame.draw.rect(surface, theme.PANEL_EDGE, box, 2, border_radius=8)
        for i, (text, colour, bold) in enumerate(lines):
            rendered = theme.ui_font(20, bold=bold).render(text, True, colour)
            surface.blit(rendered, (x + theme.px(10), y + theme.px(6) + i * line))
        return box.bottom + theme.px(8)
