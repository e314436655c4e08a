"""Graph Trees rule sets: the options that vary, as YAML files validated on load.

A file names its options in sections (``board: {width: 20}``) or at the top (``players: 4``);
``base: levi`` starts from a bundled set and changes only what differs. Unknown keys and bad
values are ``RulesError``s naming the file, the line and the valid choices, like the racing
rule sets (``racetrack.rules``), whose ``Option`` table this reuses.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from racetrack.errors import Problem, RulesError
from racetrack.geometry import Vec
from racetrack.rules.moves import CHANGES
from racetrack.rules.options import Option
from racetrack.rules.ruleset import refuse_base
from racetrack.yamlio import YamlDocument, load_yaml, parse_yaml

OPTIONS: tuple[Option, ...] = (
    Option("movement.choices", "square",
           "Where a track may go next: the point its last segment repeated leads to, and the "
           "points around it (a new track: the points around its node).",
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
META_KEYS = ("name", "description", "source", "base")
MAX_BASE_DEPTH = 8


@dataclass(frozen=True)
class TreeRules:
    """A complete, validated Graph Trees rule set."""

    name: str
    movement: str = "square"
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
    return Path(str(resources.files("racetrack.trees") / "rulesets"))


def bundled_names() -> list[str]:
    return sorted(p.stem for p in bundled_folder().glob("*.yaml"))


def load_tree_rules(name_or_path: str | os.PathLike[str]) -> TreeRules:
    """A rule set from a bundled name (``levi``) or a path to a YAML file."""
    return _load(_locate(str(name_or_path), None), ())


def tree_rules_from_text(text: str, file: str = "<rules>") -> TreeRules:
    return _build(parse_yaml(text, file, RulesError), None, ())


def tree_rules_from_data(data: Any, file: str = "<rules>") -> TreeRules:
    """A rule set from plain data (as a saved game embeds it), validated like a file."""
    refuse_base(data, file)
    return _build(YamlDocument(data, file, {}), None, ())


def _locate(name: str, relative_to: Path | None) -> Path:
    bundled = bundled_folder() / f"{name}.yaml"
    looks_like_path = name.endswith((".yaml", ".yml")) or "/" in name or os.sep in name
    if not looks_like_path and bundled.exists():
        return bundled
    if not looks_like_path and not Path(name).is_file():
        raise RulesError(Problem(name, None, "no such Graph Trees rule set; bundled: "
                                             + ", ".join(bundled_names())))
    path = Path(name)
    if relative_to is not None and not path.is_absolute():
        path = relative_to.parent / path
    return path


def _load(path: Path, chain: tuple[Path, ...]) -> TreeRules:
    resolved = path.resolve()
    if resolved in chain or len(chain) > MAX_BASE_DEPTH:
        raise RulesError(Problem(str(path), None, "'base' goes round in a circle"))
    return _build(load_yaml(path, RulesError), path, (*chain, resolved))


def _build(doc: YamlDocument, path: Path | None, chain: tuple[Path, ...]) -> TreeRules:
    data = doc.data
    if not isinstance(data, dict):
        raise RulesError(doc.problem((), "a Graph Trees rules file must be a YAML mapping of "
                                         "options"))
    problems: list[Problem] = []
    values: dict[str, tuple[Any, tuple]] = {}
    top_keys = (*META_KEYS, *dict.fromkeys(o.key.split(".")[0] for o in OPTIONS))
    for key, value in data.items():
        if key in META_KEYS:
            if value is not None and not isinstance(value, str):
                problems.append(doc.problem((key,), f"'{key}' must be a text"))
        elif key in SECTIONS:
            inner = [o.key for o in OPTIONS if o.key.startswith(f"{key}.")]
            if not isinstance(value, dict):
                problems.append(doc.problem((key,), f"'{key}' must be a mapping of options: "
                                                    + ", ".join(inner)))
                continue
            for sub, sub_value in value.items():
                full = f"{key}.{sub}"
                if full in OPTIONS_BY_KEY:
                    values[full] = (sub_value, (key, sub))
                else:
                    problems.append(doc.problem((key, sub), f"unknown option '{full}'; valid "
                                                            f"options: {', '.join(inner)}"))
        elif key in OPTIONS_BY_KEY:
            values[key] = (value, (key,))
        else:
            problems.append(doc.problem((key,), f"unknown option {key!r}; valid keys: "
                                                + ", ".join(top_keys)))
    for key, (value, where) in values.items():
        option = OPTIONS_BY_KEY[key]
        if key == "players":  # a number in the file, a word in the choices table
            reason = None if type(value) is int and str(value) in option.choices else \
                f"'players' must be one of: {option.allowed()}; not {value!r}"
        else:
            reason = option.check(value)
            if reason is None and key.startswith("board.") and value % 2:
                reason = f"'{key}' must be an even number (players start at the middle of " \
                         f"a side); not {value!r}"
        if reason:
            problems.append(doc.problem(where, reason))
    if problems:
        raise RulesError(problems)

    if data.get("base"):
        try:
            options = _load(_locate(data["base"], path), chain).options()
        except RulesError as exc:
            if exc.problems and exc.problems[0].file == data["base"]:
                raise RulesError(doc.problem(("base",), exc.problems[0].message)) from None
            raise
    else:
        options = {o.key: (int(o.default) if o.key == "players" else o.default)
                   for o in OPTIONS}
    options.update({key: value for key, (value, _) in values.items()})
    return TreeRules(name=data.get("name") or (path.stem if path else "custom"),
                     movement=options["movement.choices"], players=options["players"],
                     width=options["board.width"], height=options["board.height"],
                     turn_limit=options["turn-limit"],
                     description=data.get("description") or "")
