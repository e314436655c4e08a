"""Rule overrides: change an option of any variant without writing a rules file.

The classroom sheet offers the 24-neighbour choice as "a variation" of its own rules; players
want it (and the 5-choice plus, and any other option) on top of whichever variant they picked.
An override is an option key from ``racetrack.rules.options.OPTIONS`` and a value that option's
``check`` accepts. The result is an ordinary ``RuleSet`` whose name says what was changed
("gardner + square-24"), so replays and time-trial records tell it apart from the plain variant.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from racetrack.base.errors import Problem, RulesError
from racetrack.rules.options import OPTIONS, OPTIONS_BY_KEY
from racetrack.rules.ruleset import RuleSet

#: The movement choices offered by name, with the number of points each gives.
MOVEMENT_CHOICES = {"plus": 5, "square": 9, "square-24": 25}

_INTEGER = re.compile(r"[-+]?[0-9]+")


def parse_value(text: str) -> Any:
    """A command-line value as the rules file would read it: ``true``/``false``, ``null``,
    a whole number, or else the word itself.

    Deliberately small (not a YAML parser): an option's value is only ever one of these.
    """
    word = text.strip()
    lowered = word.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("null", "none", "~", ""):
        return None
    if _INTEGER.fullmatch(word) and len(word) <= 12:
        return int(word)
    return word


def parse_assignment(text: str) -> tuple[str, Any]:
    """``"movement.choices=square-24"`` -> ``("movement.choices", "square-24")``.

    Raises ``ValueError`` if there is no ``=`` or no key; the key and value are checked later,
    by ``apply_overrides``, against the option table.
    """
    key, equals, value = text.partition("=")
    key = key.strip()
    if not equals or not key:
        raise ValueError(f"expected KEY=VALUE (e.g. movement.choices=square-24), not {text!r}")
    return key, parse_value(value)


def check_overrides(overrides: Mapping[str, Any], where: str = "override") -> None:
    """Raise ``RulesError`` naming the valid keys or values if any override is not allowed."""
    problems = []
    for key, value in overrides.items():
        option = OPTIONS_BY_KEY.get(key)
        if option is None:
            valid = ", ".join(o.key for o in OPTIONS)
            problems.append(Problem(where, None, f"unknown option {key!r}; valid options: "
                                                 f"{valid}"))
            continue
        reason = option.check(value)
        if reason:
            problems.append(Problem(where, None, reason))
    if problems:
        raise RulesError(problems)


def apply_overrides(rules: RuleSet, overrides: Mapping[str, Any],
                    where: str = "override") -> RuleSet:
    """``rules`` with the given options changed, named after the changes.

    An override equal to the rule set's own value changes nothing (not even the name), so
    "gardner with square movement" is plain gardner and shares its records.

    Raises ``RulesError`` (a ``ValueError``) for an unknown key or a value the option does not
    allow; the message lists the valid ones.
    """
    check_overrides(overrides, where)
    changes = {key: value for key, value in overrides.items() if rules.option(key) != value}
    if not changes:
        return rules
    labels = [describe(key, value) for key, value in changes.items()]
    fields = {OPTIONS_BY_KEY[key].field_name: value for key, value in changes.items()}
    return rules.replace(name=" + ".join([rules.name, *labels]), **fields)


def describe(key: str, value: Any) -> str:
    """A short label for one override: the movement's own name, else ``key=value``."""
    if key == "movement.choices":
        return str(value)
    shown = "null" if value is None else str(value).lower() if isinstance(value, bool) \
        else str(value)
    return f"{key}={shown}"
