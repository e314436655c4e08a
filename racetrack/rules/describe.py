"""A rule set in words: every option with its value and meaning (``racetrack rules NAME``)."""

from __future__ import annotations

from collections.abc import Mapping

from racetrack.rules.optionfile import DEFAULT_SOURCE
from racetrack.rules.options import OPTIONS
from racetrack.rules.ruleset import RuleSet


def one_line(text: str) -> str:
    """A description written over several lines, as one."""
    return " ".join(text.split())


def shown_value(value) -> str:
    """An option's value as a YAML file writes it (``null``, ``true``)."""
    if value is None:
        return "null"
    return str(value).lower() if isinstance(value, bool) else str(value)


def describe_rules(rules: RuleSet, sources: Mapping[str, str] | None = None) -> list[str]:
    """The lines that document a rule set: its name and source, then each option's value
    (with where it came from, where ``sources`` says: ``rules.ruleset.option_sources``),
    what the option means, what that value means and the other values it could take."""
    lines = [f"{rules.name}: {one_line(rules.description)}"]
    if rules.source:
        lines.append(f"source: {one_line(rules.source)}")
    if sources:
        lines.append("each value is the option table's default, or set by the rule set named "
                     "after it (this one, or a base it starts from)")
    for option in OPTIONS:
        shown = shown_value(rules.option(option.key))
        origin = (sources or {}).get(option.key)
        where = "" if origin is None else "   (default)" if origin == DEFAULT_SOURCE \
            else f"   (set by {origin})"
        lines += ["", f"{option.key}: {shown}{where}", f"    {option.doc}"]
        if option.choices:
            lines.append(f"    {shown}: {option.choices.get(shown, '')}")
            others = [k for k in option.choices if k != shown]
            lines.append(f"    other values: {', '.join(others)}")
        else:
            lines.append(f"    allowed: {option.allowed()}")
    return lines
