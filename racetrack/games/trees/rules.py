"""Graph Trees rule sets: the options that vary, as YAML files validated on load.

A file names its options in sections (``board: {width: 20}``) or at the top (``players: 4``);
``base: levi`` starts from a bundled set and changes only what differs. Unknown keys and bad
values are ``RulesError``s naming the file, the line and the valid choices, like the racing
rule sets (``racetrack.rules``), whose ``Option`` table and file reading
(``racetrack.rules.optionfile``) this reuses.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from racetrack.base.errors import Problem, RulesError
from racetrack.base.fields import describe
from racetrack.base.yamlio import YamlDocument, load_yaml, parse_yaml
from racetrack.board.geometry import Vec
from racetrack.engine.moves import CHANGES
from racetrack.rules.optionfile import RULES_LIMITS, OptionTable, read_rules
from racetrack.rules.options import Option

OPTIONS: tuple[Option, ...] = (
    Option("movement.choices", "plus",
           "Where a track may go next: the point its last segment repeated leads to, and the "
           "points around it (a new track: the points around its node). Levi: \"Movement is "
           "the same as Graph Racing\", whose rule 4 is Baker's five choices.",
           {"plus": "5 choices: the same segment, or one square more or less north, south, "
                    "east or west (Baker)",
            "square": "9 choices: each component of the segment changes by at most one "
                      "(Gardner)",
            "square-24": "25 choices: each component changes by at most two"}),
    Option("players", 2, "How many play: two start on opposite sides, four on all four.",
           {"2": "bottom and top", "4": "bottom, left, top and right"}),
    Option("board.width", 20, "Squares across the sheet (an even number, so each side has a "
                              "middle).", low=6, high=60),
    Option("board.height", 20, "Squares down the sheet (an even number).", low=6, high=60),
    Option("turn-limit", 2000, "The game stops after this many turns (a guard against endless "
                               "passing).", low=10, high=20_000),
)
OPTIONS_BY_KEY = {o.key: o for o in OPTIONS}
SECTIONS = ("movement", "board")


@dataclass(frozen=True)
class TreeRules:
    """A complete, validated Graph Trees rule set."""

    name: str
    movement: str = "plus"
    players: int = 2
    width: int = 20
    height: int = 20
    turn_limit: int = 2000
    description: str = ""

    @property
    def changes(self) -> tuple[Vec, ...]:
        """The changes a move may make to a track's velocity (from rest: the first step)."""
        return CHANGES[self.movement]

    @property
    def starts(self) -> tuple[Vec, ...]:
        """Each player's first node: the middle of their side, in turn order.

        Two players take the bottom and the top; four go round: bottom, left, top, right.
        """
        w, h = self.width, self.height
        bottom, left, top, right = Vec(w // 2, h), Vec(0, h // 2), Vec(w // 2, 0), Vec(w, h // 2)
        return (bottom, top) if self.players == 2 else (bottom, left, top, right)

    def options(self) -> dict[str, Any]:
        return {"movement.choices": self.movement, "players": self.players,
                "board.width": self.width, "board.height": self.height,
                "turn-limit": self.turn_limit}

    def to_data(self) -> dict[str, Any]:
        """Plain nested data, as a rules file (and a saved game) writes it."""
        data: dict[str, Any] = {"name": self.name}
        if self.description:
            data["description"] = self.description
        data.update({"movement": {"choices": self.movement}, "players": self.players,
                     "board": {"width": self.width, "height": self.height},
                     "turn-limit": self.turn_limit})
        return data


def bundled_folder() -> Path:
    return Path(str(resources.files("racetrack.games.trees") / "rulesets"))


def bundled_names() -> list[str]:
    return sorted(p.stem for p in bundled_folder().glob("*.yaml"))


def load_tree_rules(name_or_path: str | os.PathLike[str]) -> TreeRules:
    """A rule set from a bundled name (``levi``) or a path to a YAML file."""
    path = _locate(str(name_or_path))
    return _build(load_yaml(path, RulesError, RULES_LIMITS), path, (path.resolve(),))


def tree_rules_from_text(text: str, file: str = "<rules>") -> TreeRules:
    return _build(parse_yaml(text, file, RulesError, RULES_LIMITS), None, ())


def tree_rules_from_document(doc: YamlDocument) -> TreeRules:
    """A rule set embedded in a saved game: every option listed, no base."""
    return _build(doc, None, (), embedded=True)


def _locate(name: str) -> Path:
    bundled = bundled_folder() / f"{name}.yaml"
    looks_like_path = name.endswith((".yaml", ".yml")) or "/" in name or os.sep in name
    if not looks_like_path and bundled.is_file():
        return bundled
    if not looks_like_path and not Path(name).is_file():
        raise RulesError(Problem(name, None, "no such Graph Trees rule set; bundled: "
                                             + ", ".join(bundled_names())))
    return Path(name)


def _check(option: Option, value: Any) -> str | None:
    """The option table's check, and the two rules of its own: players is a number in the
    file (a word in the choices table), and the board's sides are even."""
    if option.key == "players":
        return None if type(value) is int and str(value) in option.choices else \
            f"'players' must be one of: {option.allowed()}; not {describe(value)}"
    reason = option.check(value)
    if reason is None and option.key.startswith("board.") and value % 2:
        reason = f"'{option.key}' must be an even number (players start at the middle of " \
                 f"a side); not {value!r}"
    return reason


TABLE = OptionTable(OPTIONS, SECTIONS, "a Graph Trees rules file", _check, "Graph Trees rule set")


def _build(doc: YamlDocument, path: Path | None, chain: tuple[Path, ...],
           embedded: bool = False) -> TreeRules:
    read, options = read_rules(doc, TABLE, path, chain, bundled_folder(), embedded)
    return TreeRules(name=read.name or (path.stem if path else "custom"),
                     movement=options["movement.choices"], players=options["players"],
                     width=options["board.width"], height=options["board.height"],
                     turn_limit=options["turn-limit"], description=read.description)
