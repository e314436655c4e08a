"""The player's settings and folders: remembered race choices, where tracks and replays live.

Folders come from platformdirs (the platform's usual places); ``RACETRACK_HOME`` puts them all
under one folder instead (tests and portable installs). The settings file is the player's own
and so untrusted: anything unreadable or wrong in it is reported in one line and replaced by the
default, never allowed to stop the game.

The settings file is written under a lock (``filelock``): the window keeps its zoom and size
on a thread of its own while its screens save what the player chose, and another copy of the
game may share the folder. A change of a few settings (``update_settings``) is made to the
file as it is then, so changes from elsewhere are kept; the race screens' choices are saved
all at once, the last copy to start a race setting them.
"""

from __future__ import annotations

import logging
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import platformdirs

from racetrack.base.errors import FileProblemError
from racetrack.base.fields import MAX_NAME, Field, Reader, unprintable
from racetrack.base.filelock import locked
from racetrack.base.yamlio import Limits, YamlDocument, load_yaml, write_yaml

log = logging.getLogger(__name__)

APP = "racetrack"
DRIVERS = ("human", "easy", "medium", "hard", "expert")
MAX_PLAYERS = 6
#: Team letters a player may join on the setup screen ("" for none) when the rules score teams.
TEAMS = ("", "A", "B", "C")
#: The setup screen's movement override: "" keeps the rule set's own, else a
#: ``movement.choices`` value applied on top of any variant.
MOVES = ("", "plus", "square", "square-24")
#: The UI scale: "auto" follows the window's size, the rest are fixed.
UI_SCALES = {"auto": None, "80%": 0.8, "100%": 1.0, "125%": 1.25, "150%": 1.5, "200%": 2.0}
#: The largest window or zoom a settings file may ask for (a sanity bound for the file).
MAX_WINDOW = (16384, 16384)
#: The screens whose window sizes are kept (the most recent ones).
MAX_SCREENS = 8


def home() -> Path | None:
    value = os.environ.get("RACETRACK_HOME")
    return Path(value) if value else None


def config_dir() -> Path:
    base = home()
    return base / "config" if base else Path(platformdirs.user_config_dir(APP))


def data_dir() -> Path:
    base = home()
    return base / "data" if base else Path(platformdirs.user_data_dir(APP))


def tracks_dir() -> Path:
    """Where the player's own tracks are saved (the editor) and found (the track picker)."""
    return data_dir() / "tracks"


def replays_dir() -> Path:
    return data_dir() / "replays"


def settings_path() -> Path:
    return config_dir() / "settings.yaml"


@dataclass(frozen=True)
class PlayerChoice:
    name: str
    colour: str
    driver: str = "human"
    reverse: bool = False  # races the circuit the other way round (where the rules allow)
    team: str = ""  # a team letter (TEAMS) used where the rules score teams

    @property
    def team_name(self) -> str:
        """The team the car races for ("Team A"), or "" for none."""
        return f"Team {self.team}" if self.team else ""


@dataclass(frozen=True)
class Settings:
    track: str = "oval"
    rules: str = "gardner"
    players: tuple[PlayerChoice, ...] = field(default_factory=lambda: (
        PlayerChoice("Player 1", "red", "human"), PlayerChoice("Computer", "blue", "medium")))
    animation_seconds: float = 0.35
    moves: str = ""  # a movement.choices override, "" for the rule set's own (see MOVES)
    # The window's size on each screen it was used on, as (screen "WxH", (width, height)):
    # a window sized on a small screen is not reused on a large one (none: fit the screen).
    windows: tuple[tuple[str, tuple[int, int]], ...] = ()
    fullscreen: bool = False
    ui_scale: str = "auto"  # one of UI_SCALES
    colour_blind: bool = False  # colour-blind-safe pencils
    volume: int = 70  # percent
    muted: bool = False
    zoom: float | None = None  # the race camera's zoom, kept from race to race
    tutorial_done: bool = False  # the tutorial race was finished (or skipped)
    # Whether a race against computer drivers or in hot seat lets a player take moves back
    # (never a time trial's or a championship's: their records and points count).
    take_backs: bool = True

    def with_race(self, track: str, rules: str, players: tuple[PlayerChoice, ...],
                  moves: str | None = None) -> Settings:
        return replace(self, track=track, rules=rules, players=players,
                       moves=self.moves if moves is None else moves)

    def overrides(self) -> dict[str, str]:
        """The rule overrides these settings ask for (none, or the movement)."""
        return {"movement.choices": self.moves} if self.moves else {}

    def window_for(self, screen: tuple[int, int]) -> tuple[int, int] | None:
        """The window's size last used on a screen of this size (None: fit the screen)."""
        return dict(self.windows).get(screen_key(screen))

    def with_window(self, screen: tuple[int, int], size: tuple[int, int] | None) -> Settings:
        """These settings with the window's size on a screen kept (None: forgotten, so the
        window fits that screen), the most recently used screens first."""
        key = screen_key(screen)
        others = tuple(entry for entry in self.windows if entry[0] != key)
        kept = ((key, (int(size[0]), int(size[1]))),) if size else ()
        return replace(self, windows=(kept + others)[:MAX_SCREENS])


def screen_key(screen: tuple[int, int]) -> str:
    """A screen's size as the settings file names it ("1920x1080")."""
    return f"{int(screen[0])}x{int(screen[1])}"


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings; defaults for a missing file, and for any bad value in one."""
    path = path or settings_path()
    if not path.exists():
        return Settings()
    try:
        doc = load_yaml(path, FileProblemError, SETTINGS_LIMITS)
    except FileProblemError as exc:
        log.warning("settings ignored: %s", exc.problems[0])
        return Settings()
    return settings_from_document(doc)


def settings_from_document(doc: YamlDocument) -> Settings:
    """Settings from a parsed file, value by value: whatever is wrong is said in the log and
    left at its default (a settings file must never stop the game)."""
    defaults = Settings()
    reader = Reader(doc, FileProblemError, collect=True)
    root = reader.root
    if not root.keys(_KEYS, what="the settings"):
        log.warning("settings ignored: %s", reader.problems[0])
        return defaults
    values: dict[str, Any] = {
        "track": root["track"].text(500, default=defaults.track),
        "rules": root["rules"].text(500, default=defaults.rules),
        "moves": root["moves"].choice(MOVES, default=defaults.moves),
        "animation_seconds": root["animation_seconds"].number(
            0, 3, default=defaults.animation_seconds),
        "volume": root["volume"].whole(0, 100, default=defaults.volume),
        "ui_scale": root["ui_scale"].choice(tuple(UI_SCALES), default=defaults.ui_scale),
    }
    for key in ("fullscreen", "colour_blind", "muted", "tutorial_done", "take_backs"):
        values[key] = root[key].flag(default=getattr(defaults, key))
    # Sizes and zoom are null until the player first changes them.
    if root["zoom"].value is not None:
        values["zoom"] = root["zoom"].number(1, 200)
    windows = []
    for key, size in root["windows"].entries(MAX_SCREENS, default=()):
        screen = key.split("x")
        pair = size.pair(100, min(MAX_WINDOW), whole=True)
        if len(screen) == 2 and all(part.isdigit() for part in screen) and pair:
            windows.append((key, (int(pair[0]), int(pair[1]))))
        else:
            log.warning("settings: the window size for screen %r is not a screen's size and "
                        "a window's [width, height] (forgotten)", key)
    values["windows"] = tuple(windows)
    if root["players"].given:
        before = len(reader.problems)
        players = tuple(_player(item) for item in
                        root["players"].items(MAX_PLAYERS, item="player", low=1))
        if len(reader.problems) == before and players:
            values["players"] = players
    for problem in reader.problems:
        log.warning("settings: %s (the default is used)", problem)
    return replace(defaults, **{key: value for key, value in values.items()
                                if value is not None})


#: ``window`` is read and forgotten: one size for every screen, kept before sizes were kept
#: per screen.
_KEYS = ("track", "rules", "animation_seconds", "players", "moves", "window", "windows",
         "fullscreen", "ui_scale", "colour_blind", "volume", "muted", "zoom", "tutorial_done",
         "take_backs")
#: How much of a settings file is read: a few lines.
SETTINGS_LIMITS = Limits(bytes=64 * 1024, nodes=2_000)


def _player(item: Field) -> PlayerChoice:
    item.keys(("name", "colour", "driver", "reverse", "team"), what="a player")
    name = item["name"].text(MAX_NAME)
    return PlayerChoice((name or "")[:20], item["colour"].text(MAX_NAME) or "",
                        item["driver"].choice(DRIVERS) or "",
                        item["reverse"].value is True,
                        item["team"].value if item["team"].value in TEAMS else "")


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write every setting (the race screens' choices, all at once)."""
    data = asdict(settings)
    data["players"] = [asdict(p) for p in settings.players]
    data["windows"] = {key: list(size) for key, size in settings.windows}
    path = path or settings_path()
    with locked(path):
        write_yaml(path, data, SETTINGS_LIMITS)


def update_settings(path: Path | None = None, **change: Any) -> Settings:
    """Change some settings in the file as it is now (read, changed and written as one, so
    a save from elsewhere in between is kept, by this copy of the game or another sharing
    the folder); returns them."""
    path = path or settings_path()
    with locked(path):
        settings = replace(load_settings(path), **change)
        save_settings(settings, path)
    return settings


PENCILS = ("red", "blue", "green", "orange", "purple", "black")


def parse_players(spec: str) -> tuple[PlayerChoice, ...]:
    """Players from ``"human,ai"`` or ``"Ann,Bob,ai:expert"``.

    ``human`` is a human player; ``ai`` a computer driver (medium), ``ai:LEVEL`` one of a level
    (easy, medium, hard, expert); any other word is a human player of that name. A trailing
    ``:reverse`` (``Bob:reverse``, ``ai:expert:reverse``) races the circuit the other way round,
    where the rules allow it. Pencil colours are handed out in order.
    """
    words = [w.strip() for w in spec.split(",") if w.strip()]
    if not 1 <= len(words) <= MAX_PLAYERS:
        raise ValueError(f"give 1 to {MAX_PLAYERS} players, separated by commas")
    players = []
    humans = computers = 0
    for number, word in enumerate(words):
        colour = PENCILS[number % len(PENCILS)]
        reverse = word.lower().endswith(":reverse")
        if reverse:
            word = word[:-len(":reverse")]
        kind, _, level = word.partition(":")
        if kind.lower() == "ai":
            level = (level or "medium").lower()
            if level not in DRIVERS[1:]:
                raise ValueError(f"unknown computer level {level!r}; levels: "
                                 f"{', '.join(DRIVERS[1:])}")
            computers += 1
            players.append(PlayerChoice(f"Computer {computers}" if computers > 1 or
                                        words.count(word) > 1 else "Computer", colour, level,
                                        reverse))
        elif word.lower() == "human":
            humans += 1
            players.append(PlayerChoice(f"Player {humans}", colour, "human", reverse))
        else:
            name = word[:20]
            if unprintable(name) is not None:  # it would be drawn, printed and saved
                raise ValueError(f"a player's name must be printable text, not {name!r}")
            players.append(PlayerChoice(name, colour, "human", reverse))
    return tuple(players)
