"""The one reader: every parser error one located line; limits counted while parsing; the
writer refuses what the reader would; libyaml and PyYAML's own parser read alike."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from racetrack.base import yamlio
from racetrack.base.errors import FileProblemError, ReplayError
from racetrack.base.yamlio import Limits, count_nodes, load_yaml, parse_yaml, write_yaml

ROOT = Path(__file__).resolve().parents[2]


def refused(text: str, limits: Limits = yamlio.DEFAULT_LIMITS) -> str:
    with pytest.raises(FileProblemError) as caught:
        parse_yaml(text, "f.yaml", limits=limits)
    assert len(caught.value.problems) == 1
    return str(caught.value)


@pytest.mark.parametrize("char", ["\x07", "\x0c", "\x1b", "\x7f", "\x9b", "\ufffe", "\ud800"])
def test_a_control_character_anywhere_is_one_line_with_its_line(char):
    message = refused(f"name: Box\nauthor: Ann\ndescription: a{char}b\n")
    assert message.startswith("f.yaml:3: ") and f"U+{ord(char):04X}" in message


@pytest.mark.parametrize("text, words", [
    ("a: [1, 2\n", "YAML error"),
    ("a: 1\n---\nb: 2\n", "single document"),
    ("a: !!python/object/apply:os.system [ls]\n", "no tags that build objects"),
    ("a: !!set {x, y}\n", "no tags that build objects"),
    ("a: 2001-02-30\n", "not a valid timestamp"),
    ("a: " + "9" * 5000 + "\n", "far too large"),
    ("a: !!int 1.5\n", "not a valid int"),
    ("? [1]\n: 2\n", "a key must be a plain value"),
    ("a: &a [1, *a]\n", "refers to itself"),
    ("a: *nowhere\n", "unknown anchor"),
    ("{a: 1, a: 2}\n", "appears twice"),
])
def test_every_parser_error_is_one_located_line(text, words):
    message = refused(text)
    assert words in message and re.match(r"f\.yaml:\d+: ", message)


def test_limits_are_counted_while_parsing_before_a_big_tree_exists():
    text = "[" + "0, " * 2_000_000 + "]"  # six megabytes of tiny values
    tracemalloc.start()
    try:
        message = refused(text, Limits(bytes=len(text), nodes=1_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "more than 1,000 values" in message
    assert peak < 20 * 1024 * 1024  # the text's own copy, and not a tree of two million
    assert "nested too deeply" in refused("a: " + "[" * 50 + "]" * 50)
    assert "larger than" in refused("a: 1\n" * 10, Limits(bytes=20))


def test_an_alias_counts_as_every_value_it_stands_for():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n"
        for i in range(8))
    assert "more than 200,000 values" in refused(bomb)


def test_lines_are_remembered_for_keys_and_items():
    doc = parse_yaml("a:\n  - x\n  - y\n  -\n    - 1\nb: [1,\n  2]\nc: &c {d: 1}\ne:\n  <<: *c\n"
                     "  f: 2\n", "f.yaml")
    assert doc.data == {"a": ["x", "y", [1]], "b": [1, 2], "c": {"d": 1}, "e": {"f": 2, "d": 1}}
    assert [doc.line_of(p) for p in (("a",), ("a", 0), ("a", 1), ("a", 2), ("b", 1),
                                      ("e", "f"), ("a", 2, 0, "missing"))] == [1, 2, 3, 5, 7,
                                                                             11, 5]
    sub = doc.sub(("a", 2))
    assert sub.data == [1] and sub.line_of(()) == 5


def test_numbers_dates_and_words_are_read_as_yaml_1_1_plus_e_notation():
    doc = parse_yaml("a: 1e3\nb: 0x10\nc: 012\nd: 2020-01-02\ne: ~\nf: yes\ng: '1'\nh: =\n"
                     "i: 1:30\nj: .inf\n", "f.yaml")
    assert doc.data["a"] == 1000.0 and doc.data["b"] == 16 and doc.data["c"] == 10
    assert str(doc.data["d"]) == "2020-01-02" and doc.data["e"] is None
    assert (doc.data["f"], doc.data["g"], doc.data["h"], doc.data["i"]) == (True, "1", "=", 90)


def _both_parsers(text: str):
    found = []
    for parser in (yamlio._Parser, yamlio._PurePythonParser):
        original, yamlio._Parser = yamlio._Parser, parser
        try:
            doc = parse_yaml(text, "f.yaml")
            found.append((doc.data, doc.lines))
        except FileProblemError as exc:
            found.append(str(exc))
        finally:
            yamlio._Parser = original
    return found


FILES = sorted([*(ROOT / "tracks").glob("*.yaml"), *(ROOT / "racetrack/rules").glob("*.yaml"),
                *(ROOT / "tests/hostile").iterdir()])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_libyaml_and_the_pure_python_parser_read_alike(path):
    try:
        text = yamlio.read_text(path)
    except FileProblemError:
        return
    with_c, pure = _both_parsers(text)
    if path.name == "name-lone-surrogate-in-replay.yaml":
        # libyaml refuses the escape of a lone surrogate; PyYAML builds it, and the field
        # reader refuses it: refused either way.
        from racetrack.games.replay import replay_from_document

        assert isinstance(with_c, str)
        original, yamlio._Parser = yamlio._Parser, yamlio._PurePythonParser
        try:
            with pytest.raises(ReplayError, match="cannot be shown"):
                replay_from_document(parse_yaml(text, "f.yaml"))
        finally:
            yamlio._Parser = original
        return
    assert with_c == pure


#: Text the game writes: names and descriptions are printable (PyYAML does not read back the
#: line separators it writes raw, NEL, U+2028 and U+2029; no name can hold them).
SHOWN = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Cf", "Co", "Cn")),
                max_size=5)
def test_libyaml_and_pyyaml_write_alike():
    if yamlio._Writer is yamlio._Dumper:
        pytest.skip("PyYAML was built without libyaml")
    for path in FILES:
        try:
            data = load_yaml(path).data
        except FileProblemError:
            continue
        pure = yaml.dump(data, Dumper=yamlio._Dumper, sort_keys=False, allow_unicode=True,
                         width=100)
        assert yamlio.dump_yaml(data) == pure, path.name


PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | SHOWN,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(SHOWN, inner, max_size=4),
    max_leaves=30)


@settings(max_examples=60, deadline=None)
@given(PLAIN)
def test_the_writer_counts_values_as_the_reader_does(data):
    doc = parse_yaml(yamlio.dump_yaml(data), "f.yaml")
    assert doc.data == data
    nodes = count_nodes(data)
    parse_yaml(yamlio.dump_yaml(data), "f.yaml", limits=Limits(nodes=nodes))
    with pytest.raises(FileProblemError, match="more than"):
        parse_yaml(yamlio.dump_yaml(data), "f.yaml", limits=Limits(nodes=nodes - 1))


def test_the_writer_refuses_what_the_reader_would(tmp_path):
    path = tmp_path / "big.yaml"
    with pytest.raises(FileProblemError, match="too large to save"):
        write_yaml(path, {"moves": [[0, 1, 2]] * 100}, Limits(nodes=300))
    with pytest.raises(FileProblemError, match="too large to save"):
        write_yaml(path, {"text": "x" * 100}, Limits(bytes=50))
    assert not path.exists()
    write_yaml(path, {"moves": [[0, 1, 2]] * 100}, Limits(nodes=403))
    assert load_yaml(path, limits=Limits(nodes=403)).data["moves"][99] == [0, 1, 2]


def test_the_longest_race_fits_in_a_replay_the_game_reads_back(tmp_path):
    """A replay is written with the limits it is read with; the longest race the rules allow
    (every car moving every round to the last) fits them, and a 60,000-move race, once
    refused on reading, is read back."""
    from racetrack.board.track import MAX_COORD, TRACK_LIMITS
    from racetrack.games.race import MAX_CARS
    from racetrack.games.replay import MAX_MOVES, REPLAY_LIMITS, load_replay
    from racetrack.rules.options import OPTIONS_BY_KEY

    assert MAX_CARS * (OPTIONS_BY_KEY["max-rounds"].high + 1) <= MAX_MOVES
    widest = [11, -MAX_COORD, MAX_COORD, "missile"]
    longest = {"moves": [widest] * MAX_MOVES}
    # The rest of a replay (rules, twelve cars with their kits, the result) is a few hundred.
    assert count_nodes(longest) + TRACK_LIMITS.nodes + 5_000 <= REPLAY_LIMITS.nodes
    line = len(yamlio.dump_yaml({"moves": [widest]}).encode()) - len("moves:\n")
    assert line * MAX_MOVES + TRACK_LIMITS.bytes < REPLAY_LIMITS.bytes
    text = (ROOT / "tests/hostile/reference-to-licence-text.yaml").read_text()
    data = yamlio.parse_yaml(text, "r.yaml").data
    data["moves"] = data["moves"] * (60_000 // len(data["moves"]) + 1)
    path = tmp_path / "long.yaml"
    write_yaml(path, data, REPLAY_LIMITS, ReplayError)
    assert len(load_replay(path).moves) > 60_000
