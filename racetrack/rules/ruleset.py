"""Rule sets: YAML files of named options, validated on load, each able to start from another.

A variant file names its options in sections (``movement: {choices: plus}``) or at the top
(``walls: off-track``); ``base: gardner`` starts from another variant (bundled name, or a path
relative to the file) and the file changes only what differs. Unknown options and bad values are
``RulesError``s naming the file, the line and the valid choices.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any

from racetrack.errors import Problem, RulesError
from racetrack.rules.options import OPTIONS, OPTIONS_BY_KEY, SECTIONS
from racetrack.yamlio import YamlDocument, load_yaml, parse_yaml

_META_KEYS = ("name", "description", "source", "base")
MAX_BASE_DEPTH = 16


@dataclass(frozen=True)
class RuleSet:
    """A complete, validated set of rule options (see ``racetrack.rules.options`` for each)."""

    name: str
    description: str
    source: str
    movement_choices: str
    movement_must_change: bool
    movement_launch: bool
    movement_power_braking: bool
    movement_skid_speed: int | None
    walls: str
    leaving_track: str
    crash_outcome: str
    crash_damage: str
    crash_miss_turns: int
    cars: str
    damage_limit: int | None
    start_grid: str
    start_direction: str
    turn_order: str
    finish_end: str
    finish_tie_break: str
    laps: int | None
    checkpoints: str
    zones_oil: str
    zones_jump: str
    zones_water: str
    zones_slopes: str
    pit_stop: str
    equipment_brakes: int
    equipment_turbo: int
    equipment_shop: str
    equipment_budget: int
    equipment_bond: bool
    collectables: str
    teams_scoring: str
    max_rounds: int

    @classmethod
    def from_options(cls, name: str, options: dict[str, Any], description: str = "",
                     source: str = "") -> RuleSet:
        """A rule set from option keys (``"movement.choices"``); missing ones take defaults."""
        values = {option.field_name: options.get(option.key, option.default)
                  for option in OPTIONS}
        return cls(name=name, description=description, source=source, **values)

    def option(self, key: str) -> Any:
        return getattr(self, OPTIONS_BY_KEY[key].field_name)

    def options(self) -> dict[str, Any]:
        """Every option by key, in the documented order."""
        return {option.key: self.option(option.key) for option in OPTIONS}

    def to_data(self) -> dict[str, Any]:
        """Plain nested data with every option, as a rules file (and a replay) writes it."""
        data: dict[str, Any] = {"name": self.name}
        if self.description:
            data["description"] = self.description
        if self.source:
            data["source"] = self.source
        for key, value in self.options().items():
            section, _, sub = key.partition(".")
            if sub:
                data.setdefault(section, {})[sub] = value
            else:
                data[key] = value
        return data

    @property
    def boundary_counts(self) -> bool:
        """True when touching the wall is allowed (the closed track counts)."""
        return self.walls == "touching-allowed"

    def replace(self, **changes: Any) -> RuleSet:
        values = asdict(self)
        values.update(changes)
        return RuleSet(**values)


assert {f.name for f in fields(RuleSet)} == {*("name", "description", "source"),
                                              *(o.field_name for o in OPTIONS)}


# --------------------------------------------------------------------------------------------
# Loading


def bundled_rules_folder() -> Path:
    return Path(str(resources.files("racetrack.rules")))


def bundled_variant_names() -> list[str]:
    return sorted(p.stem for p in bundled_rules_folder().glob("*.yaml"))


def load_rules(name_or_path: str | os.PathLike[str]) -> RuleSet:
    """A rule set from a bundled variant's name (``baker``) or a path to a YAML file."""
    return _load(_locate(str(name_or_path), None), ())


def rules_from_text(text: str, file: str = "<rules>") -> RuleSet:
    """A rule set from YAML text; a ``base`` must then be a bundled variant's name."""
    return _build(parse_yaml(text, file, RulesError), None, ())


def rules_from_data(data: Any, file: str = "<rules>") -> RuleSet:
    """A rule set from plain data (as embedded in a replay); validated like a file."""
    refuse_base(data, file)
    return _build(YamlDocument(data, file, {}), None, ())


def refuse_base(data: Any, file: str) -> None:
    """A saved file (replay, game, record) embeds every option itself: it may not name a
    ``base`` and so reach out to other files on the disk."""
    if isinstance(data, dict) and data.get("base") is not None:
        raise RulesError(Problem(file, None, "'base' is not allowed in embedded rules: they "
                                             "list every option"))


def _locate(name: str, relative_to: Path | None) -> Path:
    candidate = Path(name)
    local = candidate if relative_to is None else relative_to.parent / candidate
    if candidate.suffix in (".yaml", ".yml") or os.sep in name or "/" in name or (
            local.is_file() and not (bundled_rules_folder() / f"{name}.yaml").exists()):
        if relative_to is not None and not candidate.is_absolute():
            candidate = relative_to.parent / candidate
        return candidate
    bundled = bundled_rules_folder() / f"{name}.yaml"
    if bundled.exists():
        return bundled
    raise RulesError(Problem(name, None, "no such rule set; bundled variants: "
                                         + ", ".join(bundled_variant_names())))


def _load(path: Path, chain: tuple[Path, ...]) -> RuleSet:
    resolved = path.resolve()
    if resolved in chain:
        cycle = " -> ".join(p.stem for p in (*chain, resolved))
        raise RulesError(Problem(str(path), None, f"'base' goes round in a circle: {cycle}"))
    if len(chain) > MAX_BASE_DEPTH:
        raise RulesError(Problem(str(path), None, "'base' chain is too long"))
    doc = load_yaml(path, RulesError)
    return _build(doc, path, (*chain, resolved))


def _build(doc: YamlDocument, path: Path | None, chain: tuple[Path, ...]) -> RuleSet:
    data = doc.data
    if not isinstance(data, dict):
        raise RulesError(doc.problem((), "a rules file must be a YAML mapping of options"))
    problems: list[Problem] = []
    values: dict[str, tuple[Any, tuple]] = {}
    for key, value in data.items():
        if key in _META_KEYS:
            if value is not None and not isinstance(value, str):
                problems.append(doc.problem((key,), f"'{key}' must be a text"))
        elif key in SECTIONS:
            if not isinstance(value, dict):
                problems.append(doc.problem((key,), f"'{key}' must be a mapping of options: "
                                                    + ", ".join(_section_keys(key))))
                continue
            for sub, sub_value in value.items():
                full = f"{key}.{sub}"
                if full in OPTIONS_BY_KEY:
                    values[full] = (sub_value, (key, sub))
                else:
                    valid = ", ".join(_section_keys(key))
                    problems.append(doc.problem((key, sub), f"unknown option '{full}'; "
                                                            f"valid options: {valid}"))
        elif key in OPTIONS_BY_KEY:
            values[key] = (value, (key,))
        else:
            valid = ", ".join((*_META_KEYS, *dict.fromkeys(o.key.split(".")[0] for o in OPTIONS)))
            problems.append(doc.problem((key,), f"unknown option {key!r}; valid keys: {valid}"))
    for key, (value, where) in values.items():
        reason = OPTIONS_BY_KEY[key].check(value)
        if reason:
            problems.append(doc.problem(where, reason))
    if problems:
        raise RulesError(problems)

    base_name = data.get("base")
    if base_name:
        try:
            base = _load(_locate(base_name, path), chain)
        except RulesError as exc:
            if not exc.problems or exc.problems[0].file != base_name:
                raise
            raise RulesError(doc.problem(("base",), exc.problems[0].message)) from None
        options = base.options()
    else:
        options = {o.key: o.default for o in OPTIONS}
    options.update({key: value for key, (value, _) in values.items()})
    default_name = path.stem if path is not None else "custom"
    return RuleSet.from_options(
        name=data.get("name") or default_name,
        options=options,
        description=data.get("description") or "",
        source=data.get("source") or "",
    )


def _section_keys(section: str) -> list[str]:
    return [o.key for o in OPTIONS if o.key.startswith(section + ".")]
