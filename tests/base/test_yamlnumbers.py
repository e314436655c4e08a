"""Numbers as YAML 1.1 writes them, read in linear time and refused past a float's range."""

from __future__ import annotations

import math
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from racetrack.base.errors import FileProblemError
from racetrack.base.yamlio import parse_yaml
from racetrack.base.yamlnumbers import LARGEST, NumberTooLarge, real_number, whole_number


@pytest.mark.parametrize("text, value", [
    ("0", 0), ("-0", 0), ("+12", 12), ("1_000", 1000), ("0x1F", 31), ("-0x_1f", -31),
    ("0b101", 5), ("-0b1_01", -5), ("017", 15), ("0_17", 15), ("1:30", 90),
    ("190:20:30", 685230), ("-1:0", -60), ("1:0:0:0:7", 12_960_007), (str(LARGEST), LARGEST),
    ("0x" + "0" * 5000 + "1", 1), ("0" * 3000, 0),
])
def test_whole_numbers_in_every_notation(text, value):
    assert whole_number(text) == value
    assert parse_yaml(f"a: {text}\n", "f.yaml").data["a"] == value


@pytest.mark.parametrize("text", [
    str(LARGEST + 1), "9" * 310, "-" + "9" * 400, "0x" + "f" * 257, "0b" + "1" * 1025,
    "0" + "7" * 400, "1" + ":0" * 174, "1" + ":59" * 200_000, "9" * 400 + ":0",
])
def test_a_whole_number_no_float_holds_is_too_large(text):
    with pytest.raises(NumberTooLarge):
        whole_number(text)
    with pytest.raises(FileProblemError, match="far too large"):
        parse_yaml(f"a: {text}\n", "f.yaml")


@pytest.mark.parametrize("text", ["", "-", "0x", "0b", "0b2", "09", "1:60", "1:x", "1.5",
                                  "１２", "1e3"])
def test_what_is_no_whole_number_is_a_value_error_not_too_large(text):
    with pytest.raises(ValueError) as caught:
        whole_number(text)
    assert not isinstance(caught.value, NumberTooLarge)


@pytest.mark.parametrize("text, value", [
    ("2.5", 2.5), ("1e3", 1000.0), ("2.5E-4", 0.00025), ("-1.5e+2", -150.0), ("1:30.5", 90.5),
    ("685_230.15", 685230.15), (".inf", math.inf), ("-.inf", -math.inf),
    ("1e-400", 0.0), (repr(sys.float_info.max), sys.float_info.max),
    ("1." + "0" * 100_000, 1.0),
])
def test_real_numbers_in_every_notation(text, value):
    assert real_number(text) == value


def test_not_a_number_is_read_as_such():
    assert math.isnan(real_number(".nan"))


@pytest.mark.parametrize("text", ["1e400", "1.8e308", "9" * 400 + ".0",
                                  "1e" + "9" * 100_000, "1" + ":30" * 200 + ".5",
                                  "1" + ":30" * 200_000 + ".5"])
def test_a_real_number_too_large_for_a_float_is_infinite_as_python_reads_it(text):
    assert real_number(text) == math.inf
    assert real_number("-" + text) == -math.inf
    assert parse_yaml(f"a: {text}\n", "f.yaml").data["a"] == math.inf


def test_a_long_base_60_number_is_refused_before_any_big_arithmetic():
    """Each place multiplies by 60: without the early stop, 200,000 places are a number of
    a million bits built a place at a time."""
    with pytest.raises(FileProblemError, match="far too large"):
        parse_yaml("a: 1" + ":0" * 200_000 + "\n", "f.yaml")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789:._-+", min_size=1, max_size=14))
def test_text_with_a_colon_is_typed_as_pyyaml_types_it(text):
    """The reader types text with a colon itself (PyYAML's patterns backtrack through a long
    one); it comes to the type PyYAML's own loader gives."""
    import datetime

    import yaml

    line = f"a: {text}\n"
    try:
        expected = yaml.safe_load(line)["a"]
    except (yaml.YAMLError, ValueError, OverflowError, TypeError, KeyError):
        return  # not a plain scalar of one line, or PyYAML refuses it: nothing to compare
    try:
        found = parse_yaml(line, "f.yaml").data["a"]
    except FileProblemError:
        return
    if isinstance(expected, float) and math.isnan(expected):
        assert isinstance(found, float) and math.isnan(found)
        return
    assert type(found) is type(expected) or isinstance(expected, datetime.date)
    assert found == expected
