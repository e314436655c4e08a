"""Rule overrides: any option on top of any variant, checked against the option table."""

from __future__ import annotations

import pytest

from racetrack.base.errors import RulesError
from racetrack.board.geometry import Vec
from racetrack.engine.model import CarSetup
from racetrack.games.race import Race
from racetrack.rules import bundled_variant_names, load_rules, rules_from_data
from racetrack.rules.overrides import apply_overrides, parse_assignment, parse_value


@pytest.mark.parametrize("variant", bundled_variant_names())
@pytest.mark.parametrize("choices", ["plus", "square", "square-24"])
def test_movement_can_be_overridden_in_every_variant(variant, choices):
    base = load_rules(variant)
    rules = apply_overrides(base, {"movement.choices": choices})
    assert rules.movement_choices == choices
    # Everything else is the variant's own.
    assert {k: v for k, v in rules.options().items() if k != "movement.choices"} == \
        {k: v for k, v in base.options().items() if k != "movement.choices"}
    if choices == base.movement_choices:
        assert rules == base
    else:
        assert rules.name == f"{variant} + {choices}"
    assert rules_from_data(rules.to_data()) == rules


def test_square_24_gives_25_candidates_from_rest(square_ring):
    rules = apply_overrides(load_rules("gardner"), {"movement.choices": "square-24"})
    state = Race(square_ring, rules, [CarSetup("Ann")]).start()
    state.place(0, Vec(6, 2))
    assert len(state.candidates()) == 25


def test_other_options_are_named_by_key_and_value():
    rules = apply_overrides(load_rules("gardner"), {"laps": 2, "movement.must-change": True})
    assert rules.laps == 2 and rules.movement_must_change is True
    assert rules.name == "gardner + laps=2 + movement.must-change=true"


def test_an_unknown_key_lists_the_valid_options():
    with pytest.raises(RulesError, match="unknown option 'movement.choice'.*movement.choices"):
        apply_overrides(load_rules("gardner"), {"movement.choice": "plus"})


def test_a_bad_value_lists_the_valid_values():
    with pytest.raises(RulesError, match="plus, square, square-24; not 'hex'"):
        apply_overrides(load_rules("gardner"), {"movement.choices": "hex"})
    with pytest.raises(RulesError, match="from 1 to 99"):
        apply_overrides(load_rules("gardner"), {"laps": 0})


@pytest.mark.parametrize("text, value", [("true", True), ("False", False), ("null", None),
                                         ("3", 3), ("-2", -2), ("square-24", "square-24"),
                                         ("", None)])
def test_values_are_read_like_the_rules_file(text, value):
    assert parse_value(text) == value


def test_an_assignment_needs_an_equals_sign():
    assert parse_assignment("movement.choices = plus") == ("movement.choices", "plus")
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_assignment("movement.choices")
