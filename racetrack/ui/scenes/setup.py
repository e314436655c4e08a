"""New race: pick a track (thumbnails), a rule variant (with its description), the moves (the
variant's own, or 5, 9 or 25 choices on top of any variant) and 1 to 6 players, each with a
name, a pencil colour and human or a computer level. The choices are remembered in the
player's settings for next time.

One human player alone is a time trial: the screen then shows the best run and the solver's
par for the chosen track and rules (the par worked out off the frame)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from pathlib import Path

import pygame

from racetrack.course import Course
from racetrack.errors import FileProblemError
from racetrack.records import Record, TrialKey, read_records, trial_track
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
    save_settings,
    tracks_dir,
)
from racetrack.track import Track, bundled_track_paths, load_track
from racetrack.ui import theme
from racetrack.ui.input import Click, Intent, Key, Wheel
from racetrack.ui.par import ParWorker
from racetrack.ui.render.sheet import draw_sheet
from racetrack.ui.widgets import Button, Cycler, Form, TextField, paper_background, wrap

THUMB = (210, 130)
#: The Moves cycler's labels, for the settings' ``moves`` values.
MOVE_LABELS = {"": "rule set's own", "plus": "5 plus", "square": "9 square",
               "square-24": "25 square-24"}
assert set(MOVE_LABELS) == set(MOVES)
#: The Team cycler's labels, for the settings' team letters.
TEAM_LABELS = {letter: letter or "-" for letter in TEAMS}
TEAM_LETTERS = {label: letter for letter, label in TEAM_LABELS.items()}


@dataclass
class TrackChoice:
    path: Path
    track: Track
    thumbnail: pygame.Surface


def available_tracks() -> list[tuple[Path, Track]]:
    """Bundled tracks, then the player's own valid tracks (invalid drafts are not offered)."""
    found = []
    own = sorted(tracks_dir().glob("*.yaml")) if tracks_dir().is_dir() else []
    for path in [*bundled_track_paths(), *own]:
        with contextlib.suppress(FileProblemError):
            found.append((path, load_track(path)))
    return found


def thumbnail(track: Track) -> pygame.Surface:
    course = Course(track)
    x0, y0, x1, y1 = course.sheet
    scale = min(THUMB[0] / (x1 - x0), THUMB[1] / (y1 - y0))
    picture = pygame.Surface((round((x1 - x0) * scale) + 1, round((y1 - y0) * scale) + 1))
    draw_sheet(picture, course, scale, (x0, y0))
    return picture


#: The way round a circuit, as the setup screen words it.
WAYS = {"fwd": False, "rev": True}


class SetupScene:
    #: The left heading, the start button's words and where the track grid begins.
    track_heading = "Track"
    start_label = "Start race"
    grid_top = 90

    def __init__(self, app):
        self.app = app
        self._laid_out_reversible = False
        self._laid_out_teams = False
        self.settings = load_settings()
        self.tracks = [TrackChoice(p, t, thumbnail(t)) for p, t in available_tracks()]
        self.selected = next((i for i, c in enumerate(self.tracks)
                              if c.path.stem == self.settings.track), 0)
        self.scroll = 0
        self.variants = bundled_variant_names()
        self.descriptions = {name: load_rules(name).description for name in self.variants}
        self.players = list(self.settings.players)
        self.form = Form()
        self.rules = Cycler(pygame.Rect(0, 0, 10, 10), label="Rules", choices=self.variants)
        self.rules.set(self.settings.rules if self.settings.rules in self.variants else "gardner")
        self.moves = Cycler(pygame.Rect(0, 0, 10, 10), label="Moves",
                            choices=list(MOVE_LABELS.values()), size=24)
        self.moves.set(MOVE_LABELS[self.settings.moves])
        self.error = ""
        self._size = None
        self.records, self.records_problem = read_records()
        self.par = ParWorker()
        self._rule_sets: dict[tuple[str, str], RuleSet] = {}
        self._keys: dict[tuple[int, RuleSet], TrialKey] = {}

    # -- layout ---------------------------------------------------------------------------

    @property
    def panel_x(self) -> int:
        return max(480, self.app.size[0] - 560)

    def _layout(self) -> None:
        width, height = self.app.size
        x = self.panel_x + 20
        self.rules.rect = pygame.Rect(x, 90, width - x - 30, 44)
        self.moves.rect = pygame.Rect(x, 196, width - x - 30, 38)
        widgets = [self.rules, self.moves]
        y = 246
        self._laid_out_reversible = reversible = self.reversible
        self._laid_out_teams = teams = self.teams
        # A way round or a team to choose: each row's boxes get narrower to make room for it.
        way_width = 90 if reversible else 0
        team_width = 80 if teams else 0
        narrow = 30 * (reversible + teams)
        right = width - 30
        for index, player in enumerate(self.players):
            name = TextField(pygame.Rect(x, y, 170 - narrow, 40), text=player.name,
                             on_change=lambda text, i=index: self._set(i, name=text))
            colour = Cycler(pygame.Rect(x + 180 - narrow, y, 150 - narrow, 40), choices=PENCILS,
                            size=24,
                            on_change=lambda value, i=index: self._set(i, colour=value))
            colour.set(player.colour)
            driver = Cycler(pygame.Rect(x + 340 - 2 * narrow, y,
                                        right - x - 340 + 2 * narrow - way_width - team_width,
                                        40),
                            choices=DRIVERS, size=24,
                            on_change=lambda value, i=index: self._set(i, driver=value))
            driver.set(player.driver)
            widgets += [name, colour, driver]
            if teams:  # Baker's team racing: a team letter, or none
                team = Cycler(pygame.Rect(right - way_width - team_width + 10, y,
                                          team_width - 10, 40),
                              choices=list(TEAM_LABELS.values()), size=24,
                              tooltip="team: the same letter scores together (- for none)",
                              on_change=lambda value, i=index: self._set(
                                  i, team=TEAM_LETTERS[value]))
                team.set(TEAM_LABELS[player.team])
                widgets.append(team)
            if reversible:  # Levi: each car may go either way round
                way = Cycler(pygame.Rect(right - way_width + 10, y, way_width - 10, 40),
                             choices=list(WAYS), size=22,
                             on_change=lambda value, i=index: self._set(i, reverse=WAYS[value]))
                way.set("rev" if player.reverse else "fwd")
                widgets.append(way)
            y += 50
        add = Button(pygame.Rect(x, y + 6, 160, 40), text="Add player", action=self.add,
                     size=26, enabled=len(self.players) < MAX_PLAYERS)
        remove = Button(pygame.Rect(x + 180, y + 6, 160, 40), text="Remove last",
                        action=self.remove, size=26, enabled=len(self.players) > 1)
        start = Button(pygame.Rect(width - 250, height - 80, 220, 56), text=self.start_label,
                       action=self.start, size=34, enabled=self.can_start)
        back = Button(pygame.Rect(x, height - 80, 140, 56), text="Back", action=self.app.pop)
        self.form.widgets = widgets + self.extra_widgets() + [add, remove, start, back]
        self._size = (width, height)

    def extra_widgets(self) -> list:
        """More widgets (the championship's) before the Add/Remove/Start/Back buttons."""
        return []

    @property
    def can_start(self) -> bool:
        return True

    def pick(self, index: int) -> None:
        """A click on a track's thumbnail."""
        self.selected = index

    def _set(self, index: int, **change) -> None:
        player = self.players[index]
        self.players[index] = replace(player, **change)

    def add(self) -> None:
        used = {p.colour for p in self.players}
        colour = next((c for c in PENCILS if c not in used), "black")
        self.players.append(PlayerChoice(f"Computer {len(self.players)}", colour, "medium"))
        self._size = None

    def remove(self) -> None:
        if len(self.players) > 1:
            self.players.pop()
            self._size = None

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

    def start(self) -> None:
        from racetrack.ui.launch import start_race

        choice = self.tracks[self.selected]
        reversible = self.reversible
        players = tuple(replace(p, name=p.name.strip() or f"Player {i + 1}",
                                reverse=p.reverse and reversible)
                        for i, p in enumerate(self.players))
        remembered = self.settings.with_race(choice.path.stem, self.rules.value, players,
                                             self.moves_value)
        with contextlib.suppress(OSError):
            save_settings(remembered)
        try:
            start_race(self.app, choice.path, self.rules.value, players,
                       animation_seconds=self.settings.animation_seconds,
                       overrides=self.overrides())
        except ValueError as exc:
            self.error = str(exc)
            return
        self.par.close()

    def on_show(self) -> None:
        """Back from a race: the records may have changed."""
        self.records, self.records_problem = read_records()

    # -- the track grid -------------------------------------------------------------------

    def _cells(self) -> list[tuple[int, pygame.Rect]]:
        columns = max(1, (self.panel_x - 30) // (THUMB[0] + 20))
        cells = []
        for index in range(len(self.tracks)):
            row, column = divmod(index, columns)
            rect = pygame.Rect(24 + column * (THUMB[0] + 20),
                               self.grid_top + row * (THUMB[1] + 46)
                               - self.scroll, THUMB[0], THUMB[1] + 30)
            cells.append((index, rect))
        return cells

    def handle(self, intent: Intent) -> None:
        if self._size != self.app.size:
            self._layout()
        if isinstance(intent, Key) and intent.name == "escape":
            self.app.pop()
            return
        if isinstance(intent, Key) and intent.name in ("pageup", "pagedown"):
            step = 1 if intent.name == "pagedown" else -1
            self.selected = (self.selected + step) % len(self.tracks)
            return
        if isinstance(intent, Wheel) and intent.pos[0] < self.panel_x:
            self.scroll = max(0, self.scroll - intent.steps * 40)
            return
        if isinstance(intent, Click) and intent.pos[0] < self.panel_x:
            for index, rect in self._cells():
                if rect.collidepoint(intent.pos):
                    self.pick(index)
            return
        self.form.handle(intent)
        if self._size is None:
            self._layout()

    def update(self, dt: float) -> None:
        if self._size != self.app.size or self._laid_out_reversible != self.reversible \
                or self._laid_out_teams != self.teams:
            self._layout()
        if self.time_trial:
            self.par.ask(self.trial_track(), self.chosen_rules(), self.trial_key())

    def draw(self, surface: pygame.Surface) -> None:
        paper_background(surface)
        heading = theme.font(44, bold=True)
        surface.blit(heading.render(self.track_heading, True, theme.palette().ink), (24, 30))
        surface.blit(heading.render("Time trial" if self.time_trial else "Rules and players",
                                    True, theme.palette().ink), (self.panel_x + 20, 30))
        clip = surface.get_clip()
        surface.set_clip(pygame.Rect(0, self.grid_top - 10, self.panel_x,
                                     surface.get_height() - self.grid_top + 10))
        for index, rect in self._cells():
            choice = self.tracks[index]
            chosen = index == self.selected
            frame = rect.inflate(10, 10)
            pygame.draw.rect(surface, theme.HIGHLIGHT if chosen else theme.PANEL, frame,
                             border_radius=8)
            pygame.draw.rect(surface, theme.TEXT if chosen else theme.PANEL_EDGE, frame, 2,
                             border_radius=8)
            picture = choice.thumbnail
            surface.blit(picture, picture.get_rect(midtop=(rect.centerx, rect.y)))
            name = theme.font(24, bold=chosen).render(choice.track.name, True, theme.TEXT)
            surface.blit(name, name.get_rect(midbottom=(rect.centerx, rect.bottom + 2)))
            self.draw_badge(surface, index, rect)
        surface.set_clip(clip)
        x = self.panel_x + 20
        description = self.descriptions.get(self.rules.value, "")
        for i, line in enumerate(wrap(description, 56)[:3]):
            text = theme.font(22).render(line, True, theme.MUTED)
            surface.blit(text, (x, 139 + i * 17))
        chosen = self.tracks[self.selected].track
        about = f"{chosen.name}: {chosen.description}" if chosen.description else chosen.name
        notes = self.notes()
        if self.teams:
            notes.append(("Last box: a team letter; the same letter (or the same name) races "
                          "as one team", theme.MUTED))
        lines = [(line, colour) for text, colour in notes for line in wrap(text, 56)]
        lines += [(line, theme.TEXT) for line in wrap(about, 56)]
        if self.form.widgets:
            add, back = self.form.widgets[-4].rect, self.form.widgets[-1].rect
            top = max(back.y - 10 - 20 * max(4, len(lines)), add.bottom + 12)
            room = max(0, (back.y - 8 - top) // 20)
        else:
            top, room = 500, 4
        for i, (line, colour) in enumerate(lines[:room]):
            text = theme.font(22).render(line, True, colour)
            surface.blit(text, (x, top + i * 20))
        self.form.draw(surface)
        if self.time_trial:
            self._draw_trial(surface, x, self.form.widgets[-4].rect.bottom + 16)

    def notes(self) -> list[tuple[str, tuple[int, int, int]]]:
        """Lines (and their colours) shown above the chosen track's description."""
        return []

    def draw_badge(self, surface: pygame.Surface, index: int, rect: pygame.Rect) -> None:
        """Something more on a track's thumbnail (the championship's race numbers)."""

    def _draw_trial(self, surface: pygame.Surface, x: int, y: int) -> None:
        """The best run and the par for the chosen track and rules."""
        best = self.best()
        job = self.par.jobs.get(self.trial_key())
        lines = [(f"Best: {best.best} turns, {best.player} ({best.date}, {best.runs} "
                  f"run{'s' if best.runs != 1 else ''})" if best else "Best: no run yet",
                  theme.TEXT, True),
                 (ParWorker.status(job).capitalize() + (" turns" if job is not None and
                                                        job.done() and
                                                        job.result().turns else ""),
                  theme.TEXT, False),
                 ("Race alone and finish in as few turns as you can.", theme.MUTED, False)]
        if self.records_problem:
            lines.append((f"Records file damaged: {self.records_problem}"[:70], (180, 40, 40),
                          False))
        width = surface.get_width() - x - 30
        box = pygame.Rect(x, y, width, 12 + 26 * len(lines))
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=8)
        pygame.draw.rect(surface, theme.PANEL_EDGE, box, 2, border_radius=8)
        for i, (text, colour, bold) in enumerate(lines):
            rendered = theme.font(24, bold=bold).render(text, True, colour)
            surface.blit(rendered, (x + 12, y + 8 + i * 26))
        if self.error:
            text = theme.font(24).render(self.error, True, (180, 40, 40))
            surface.blit(text, (x, surface.get_height() - 110))
