"""A rule set in words: every option with its value and meaning (``racetrack rules NAME``)."""

from __future__ import annotations

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


def describe_rules(rules: RuleSet) -> list[str]:
    """The lines that document a rule set: its name and source, then each option's value,
    what the option means, what that value means and the other values it could take."""
    lines = [f"{rules.name}: {one_line(rules.description)}"]
    if rules.source:
        lines.append(f"source: {one_line(rules.source)}")
    for option in OPTIONS:
        shown = shown_value(rules.option(option.key))
        lines += ["", f"{option.key}: {shown}", f"    {option.doc}"]
        if option.choices:
            lines.append(f"    {shown}: {option.choices.get(shown, '')}")
            others = [k for k in option.choices if k != shown]
            lines.append(f"    other values: {', '.join(others)}")
        else:
            lines.append(f"    allowed: {option.allowed()}")
    return lines
