"""Rule sets: the YAML variants in this folder, the option table, and the loader.

``load_rules("baker")`` loads a bundled variant; a path loads a player's own file.
"""

from racetrack.rules.options import OPTIONS, Option
from racetrack.rules.ruleset import (
    RuleSet,
    bundled_variant_names,
    load_rules,
    rules_from_data,
    rules_from_text,
)

__all__ = ["OPTIONS", "Option", "RuleSet", "bundled_variant_names", "load_rules",
           "rules_from_data", "rules_from_text"]
