"""Rule sets: YAML files of named options, validated on load, each able to start from another.

A variant file names its options in sections (``movement: {choices: plus}``) or at the top
(``walls: off-track``); ``base: gardner`` starts from another variant (bundled name, or a path
relative to the file) and the file changes only what differs. Unknown options and bad values are
``RulesError``s naming the file, the line and the valid choices (the reading itself, shared with
the Graph Trees rule sets, is ``racetrack.rules.optionfile``).
"""

from __future__ import annotations

import logging
import os
from dataclasses import asdict, dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any

from racetrack.base.errors import Problem, RulesError
from racetrack.base.fields import describe_key
from racetrack.base.yamlio import YamlDocument, load_yaml, parse_yaml
from racetrack.rules.optionfile import (
    RULES_LIMITS,
    OptionTable,
    read_option_file,
    read_rules,
    refuse_base,
)
from racetrack.rules.options import OPTIONS, OPTIONS_BY_KEY, SECTIONS

logger = logging.getLogger(__name__)

__all__ = ["RuleSet", "bundled_rules_folder", "bundled_variant_names", "load_rules",
           "option_sources", "refuse_base", "rules_from_data", "rules_from_document",
           "rules_from_text"]


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
    movement_first_move: str
    walls: str
    leaving_track: str
    crash_outcome: str
    crash_damage: str
    crash_miss_turns: int
    cars: str
    blocked: str
    damage_limit: int | None
    start_grid: str
    start_direction: str
    start_line_checkpoints: str
    turn_order: str
    finish_end: str
    finish_tie_break: str
    finish_landing: str
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
    pickups_penny: int
    pickups_nickel: int
    pickups_dime: int
    pickups_money: int
    gadgets_missile_damage: int
    gadgets_missile_boost: int
    gadgets_missile_flight: str
    gadgets_oil_size: int
    gadgets_gun_damage: int
    teams_scoring: str
    stalled: str
    movement_power_braking_limit: int
    crawl_step: int
    equipment_brakes_reach: int
    equipment_turbo_reach: int
    equipment_boosters_reach: int
    prices_brakes: int
    prices_turbo: int
    prices_damage: int
    prices_missiles: int
    prices_sprayers: int
    prices_boosters: int
    prices_submarine: int
    prices_guns: int
    teams_first: int
    teams_second: int
    teams_third: int
    prizes_first: int
    prizes_second: int
    prizes_third: int
    max_rounds: int | None
    crash_set_back: int
    areas_checkpoints: str
    crawl_return: str

    @classmethod
    def from_options(cls, name: str, options: dict[str, Any], description: str = "",
                     source: str = "") -> RuleSet:
        """A rule set from option keys (``"movement.choices"``); missing ones take defaults."""
        values = {option.field_name: options.get(option.key, option.default)
                  for option in OPTIONS}
        return cls(name=name, description=description, source=source, **values)

    def prices(self) -> dict[str, int]:
        """The shop's price of each item (``prices.*``), by kit item."""
        return {name: getattr(self, f"prices_{name}") for name in
                ("brakes", "turbo", "damage", "missiles", "sprayers", "boosters", "submarine",
                 "guns")}

    @property
    def team_points(self) -> tuple[int, int, int]:
        """Points for the first three places (``teams.*``)."""
        return (self.teams_first, self.teams_second, self.teams_third)

    @property
    def prize_money(self) -> tuple[int, int, int]:
        """A championship's prizes for the first three places (``prizes.*``)."""
        return (self.prizes_first, self.prizes_second, self.prizes_third)

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

TABLE = OptionTable(OPTIONS, SECTIONS, "a rules file")


def bundled_rules_folder() -> Path:
    return Path(str(resources.files("racetrack.rules")))


def bundled_variant_names() -> list[str]:
    return sorted(p.stem for p in bundled_rules_folder().glob("*.yaml"))


def load_rules(name_or_path: str | os.PathLike[str]) -> RuleSet:
    """A rule set from a bundled variant's name (``baker``) or a path to a YAML file."""
    path = _locate(str(name_or_path))
    return _build(load_yaml(path, RulesError, RULES_LIMITS), path, (_resolved(path),))


def option_sources(name_or_path: str | os.PathLike[str]) -> dict[str, str]:
    """Where each option of a rule set (a bundled name or a file, as ``load_rules`` takes)
    gets its value: the rule set in its chain of bases that sets it, or ``"default"``."""
    path = _locate(str(name_or_path))
    sources: dict[str, str] = {}
    read_rules(load_yaml(path, RulesError, RULES_LIMITS), TABLE, path, (_resolved(path),),
               bundled_rules_folder(), sources=sources)
    return sources


def rules_from_text(text: str, file: str = "<rules>") -> RuleSet:
    """A rule set from YAML text; a ``base`` must then be a bundled variant's name."""
    return _build(parse_yaml(text, file, RulesError, RULES_LIMITS), None, ())


def rules_from_data(data: Any, file: str = "<rules>") -> RuleSet:
    """A rule set from plain data (as embedded in a replay); validated like a file."""
    return rules_from_document(YamlDocument(data, file, {}))


def rules_from_document(doc: YamlDocument, from_variant: bool = False,
                        whole: bool = False) -> RuleSet:
    """A rule set embedded in a saved file (replay, record): every option listed, no base.

    A file that lacks an option is refused with one line, rather than silently raced under
    the option table's default: the saved rules must be whole. ``whole`` is for files of a
    format that lists every option (a replay of format 3): any option missing is refused.
    Files of older formats may lack the options newer than their first writers (``Option.since``
    2): such a file raced with the engine's fixed behaviour of the time (``Option.legacy``: the
    default, or the old behaviour where the default has changed it, as steered missiles did),
    and the log says which options it took so. Where ``from_variant`` (a hand-edited records
    file), a file lacking an option every version wrote is instead completed from the bundled
    variant the rules name, and the log says so."""
    read = read_option_file(doc, TABLE, embedded=True)
    missing = [o.key for o in OPTIONS
               if (whole or o.since == 1) and o.key not in read.values]
    if missing and from_variant and read.name in bundled_variant_names():
        logger.warning("%s: the rules name %r but omit %s; taken from that variant", doc.file,
                       read.name, ", ".join(missing))
        merged = _with_options(load_rules(read.name).to_data(), read.values)
        merged.update({k: v for k, v in doc.data.items() if k in ("name", "description",
                                                                    "source")})
        doc = YamlDocument(merged, doc.file, doc.lines)
    elif missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise RulesError(doc.problem((), f"the saved rules lack the option "
                                         f"{describe_key(missing[0])}{more}: a saved file "
                                         "lists every option its race was played under"))
    else:
        # A records table keeps today's default (its keys stay those of today's rules: a
        # lone car's time trial knows no missiles); a replay races as it was raced.
        older = {o.key: o.default if from_variant else o.legacy for o in OPTIONS
                 if o.since > 1 and o.key not in read.values}
        if older:
            logger.warning("%s: the saved rules %r were written before the option%s %s; "
                           "taken as %s", doc.file, read.name or "", "s" * (len(older) > 1),
                           ", ".join(older),
                           ", ".join(f"{k}: {_word(v)}" for k, v in older.items()))
            doc = YamlDocument(_with_options(doc.data, older), doc.file, doc.lines)
    return _build(doc, None, (), embedded=True)


def _word(value: Any) -> str:
    """An option's value as a rules file writes it."""
    return "null" if value is None else str(value).lower() if isinstance(value, bool) \
        else str(value)


def _with_options(data: dict, values: dict[str, Any]) -> dict:
    """Rules data with options set (a section's mapping copied, not changed)."""
    merged = dict(data)
    for key, value in values.items():
        section, _, sub = key.partition(".")
        if sub:
            merged[section] = {**(merged.get(section) or {}), sub: value}
        else:
            merged[key] = value
    return merged


def _locate(name: str) -> Path:
    candidate = Path(name)
    bundled = bundled_rules_folder() / f"{name}.yaml"
    if candidate.suffix in (".yaml", ".yml") or os.sep in name or "/" in name or (
            candidate.is_file() and not bundled.is_file()):
        return candidate
    if bundled.is_file():
        return bundled
    raise RulesError(Problem(name, None, "no such rule set; bundled variants: "
                                         + ", ".join(bundled_variant_names())))


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return path


def _build(doc: YamlDocument, path: Path | None, chain: tuple[Path, ...],
           embedded: bool = False) -> RuleSet:
    read, options = read_rules(doc, TABLE, path, chain, bundled_rules_folder(), embedded)
    default_name = path.stem if path is not None else "custom"
    return RuleSet.from_options(name=read.name or default_name, options=options,
                                description=read.description, source=read.source)
