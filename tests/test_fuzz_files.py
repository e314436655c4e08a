"""Fuzzing the readers: valid files mutated, byte by byte and value by value, are read or
refused with the project's own error, never anything else.

The mutations start from files the game wrote (a track, a rule set, a replay, a saved game,
a championship, a records table, the settings) and change bytes (flips, insertions, cuts,
repeats) or values in the YAML tree (any value anywhere replaced by a hostile one: nothing,
yes/no, huge or infinite numbers, text with controls and lone surrogates, lists, mappings;
keys removed or added). A replay or saved game that loads is also re-simulated.
"""

from __future__ import annotations

import copy
import os
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from racetrack.base.errors import FileProblemError
from tests.hostile_corpus import CORPUS, showable

#: A few seconds in the suite; set RACETRACK_FUZZ_EXAMPLES to fuzz for longer.
EXAMPLES = settings(max_examples=int(os.environ.get("RACETRACK_FUZZ_EXAMPLES", 40)),
                    deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _replay(text: str):
    from racetrack.base.errors import ReplayError
    from racetrack.base.yamlio import parse_yaml
    from racetrack.games.replay import REPLAY_LIMITS, replay_from_document

    replay = replay_from_document(parse_yaml(text, "fuzz.yaml", ReplayError, REPLAY_LIMITS))
    replay.verify()
    return replay


def _game(text: str):
    from racetrack.base.errors import ReplayError
    from racetrack.base.yamlio import parse_yaml
    from racetrack.games.trees.record import GAME_LIMITS, game_from_document

    game = game_from_document(parse_yaml(text, "fuzz.yaml", ReplayError, GAME_LIMITS))
    game.verify()
    return game


def _championship(text: str):
    from racetrack.base.yamlio import parse_yaml
    from racetrack.games.championship import (
        CHAMPIONSHIP_LIMITS,
        ChampionshipError,
        championship_from_document,
    )

    return championship_from_document(parse_yaml(text, "fuzz.yaml", ChampionshipError,
                                                 CHAMPIONSHIP_LIMITS))


def _records(text: str):
    from racetrack.base.yamlio import parse_yaml
    from racetrack.games.records import RECORDS_LIMITS, RecordsError, records_from_document

    return records_from_document(parse_yaml(text, "fuzz.yaml", RecordsError, RECORDS_LIMITS))


def _settings(text: str):
    from racetrack.base.settings import SETTINGS_LIMITS, settings_from_document
    from racetrack.base.yamlio import parse_yaml

    return settings_from_document(parse_yaml(text, "fuzz.yaml", FileProblemError,
                                             SETTINGS_LIMITS))


def _track(text: str):
    from racetrack.board.track import parse_track

    return parse_track(text, "fuzz.yaml")


def _rules(text: str):
    from racetrack.rules import rules_from_text

    return rules_from_text(text, "fuzz.yaml")


def _tree_rules(text: str):
    from racetrack.games.trees.rules import tree_rules_from_text

    return tree_rules_from_text(text, "fuzz.yaml")


def _draft(text: str):
    """A draft, read as the editor reads its autosave (from a file: the reader takes a path)."""
    import tempfile

    from racetrack.board.track.draft import read_draft

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "editor-autosave.yaml"
        path.write_text(text, encoding="utf-8")
        draft, problems = read_draft(path)
    assert all("\n" not in str(problem) for problem in problems)
    return draft


def _body(name: str) -> str:
    """A corpus file without its first line (the kind it shows)."""
    return (CORPUS / name).read_text().split("\n", 1)[1]


TRACK = """racetrack-track: 1
name: Box
description: A ring four squares wide round a square infield.
outer: [[0, 0], [12, 0], [12, 12], [0, 12]]
holes: [[[4, 4], [8, 4], [8, 8], [4, 8]]]
start: {a: [6, 0], b: [6, 4], forward: [1, 0]}
finish: {a: [6, 8], b: [6, 12], forward: [-1, 0]}
checkpoints: [{a: [0, 6], b: [4, 6], forward: [0, -1]}]
zones: [{kind: oil, polygon: [[9, 1], [11, 1], [11, 3]]}]
collectables: [{kind: dime, at: [10, 10]}]
"""
PACKAGE = Path(__file__).resolve().parent.parent / "racetrack"
RULES = (PACKAGE / "rules" / "baker.yaml").read_text()
TREE_RULES = (PACKAGE / "games" / "trees" / "rulesets" / "levi-4.yaml").read_text()
SETTINGS = ("track: oval\nrules: gardner\nanimation_seconds: 0.35\nmoves: ''\nplayers:\n"
            "- {name: Ann, colour: red, driver: human, reverse: false, team: A}\n")

KINDS = {
    "track": (TRACK, _track),
    "rules": (RULES, _rules),
    "replay": (_body("reference-to-licence-text.yaml"), _replay),
    "saved game": (_body("path-escape-in-player-name.yaml"), _game),
    "championship": (_body("championship-etc-passwd.yaml").replace("/etc/passwd",
                                                                   "riddler-opolis"),
                     _championship),
    "records": (_body("control-delete-in-records.yaml").replace("\x7f", ""), _records),
    "settings": (SETTINGS, _settings),
    "Graph Trees rules": (TREE_RULES, _tree_rules),
    "draft": (TRACK + "racetrack-editor:\n  sketch: [[1, 1], [2, 3]]\n", _draft),
}


def test_every_starting_file_is_valid():
    for kind, (text, load) in KINDS.items():
        assert load(text) is not None, kind


def _read(kind: str, text: str) -> None:
    """Read ``text`` as ``kind``: loaded (everything in it showable) or refused with the
    project's own error."""
    try:
        loaded = KINDS[kind][1](text)
    except FileProblemError as exc:
        assert exc.problems and all("\n" not in str(p) for p in exc.problems)
        return
    assert not showable(loaded)


# -- bytes ------------------------------------------------------------------------------------

EDITS = st.lists(st.tuples(st.sampled_from(["flip", "insert", "delete", "repeat"]),
                           st.floats(0, 1), st.integers(0, 255), st.integers(1, 40)),
                 min_size=1, max_size=4)


@EXAMPLES
@given(kind=st.sampled_from(sorted(KINDS)), edits=EDITS)
def test_mutated_bytes_are_read_or_refused_with_the_projects_error(tmp_path, kind, edits):
    data = bytearray(KINDS[kind][0].encode("utf-8"))
    for edit, where, byte, length in edits:
        at = int(where * len(data))
        if edit == "flip" and data:
            data[min(at, len(data) - 1)] ^= byte or 1
        elif edit == "insert":
            data[at:at] = bytes([byte]) * length
        elif edit == "delete":
            del data[at:at + length]
        else:
            data[at:at] = data[at:at + length] * 3
    path = tmp_path / f"fuzz-{kind.replace(' ', '-')}.yaml"
    path.write_bytes(bytes(data))
    from racetrack.base.yamlio import read_text

    try:
        text = read_text(path)
    except FileProblemError:
        return  # not UTF-8 text, or a NUL byte: refused before parsing
    _read(kind, text)


# -- values -----------------------------------------------------------------------------------

ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=12)
HOSTILE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
              st.floats(allow_nan=True, allow_infinity=True), ANY_TEXT,
              st.sampled_from(["human", "godlike", "x/../../records", "/etc/passwd",
                               "oval", "plus", "square", "\x00", "\ud800", 10**6, -1, 0])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=2),
    max_leaves=6)


def _places(data, path=()):
    """Every path in a YAML tree, the root included."""
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _places(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _places(value, (*path, index))


@EXAMPLES
@given(kind=st.sampled_from(sorted(KINDS)), where=st.integers(0, 10**6),
       change=st.sampled_from(["replace", "remove", "add"]), value=HOSTILE,
       key=ANY_TEXT)
def test_mutated_values_are_read_or_refused_with_the_projects_error(kind, where, change,
                                                                     value, key):
    data = yaml.safe_load(KINDS[kind][0])
    places = list(_places(data))
    path = places[where % len(places)]
    data = copy.deepcopy(data)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if not path:
        data = value
    elif change == "replace":
        parent[path[-1]] = value
    elif change == "remove":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[key] = value
    else:
        parent.insert(path[-1], value)
    _read(kind, yaml.dump(data, allow_unicode=False, sort_keys=False))


# -- numbers ----------------------------------------------------------------------------------

_NUMERIC = re.compile(r"[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?")


def number_places(text: str) -> list[tuple[int, int]]:
    """Where each number of a YAML text is (start and end offsets): its plain scalars that
    read as numbers, found by PyYAML's scanner."""
    return [(token.start_mark.index, token.end_mark.index) for token in yaml.scan(text)
            if isinstance(token, yaml.ScalarToken) and token.plain
            and _NUMERIC.fullmatch(token.value)]


@st.composite
def hostile_numbers(draw) -> str:
    """A number as YAML 1.1 may write it: in any base, in base 60, with an exponent, from a
    digit to far beyond what a float holds."""
    size = draw(st.one_of(st.integers(1, 30), st.integers(300, 1200)))
    sign = draw(st.sampled_from(["", "-", "+"]))
    digit = draw(st.sampled_from("123456789"))
    form = draw(st.sampled_from(["decimal", "hex", "binary", "octal", "sexagesimal",
                                 "sexagesimal real", "exponent", "real", "special"]))
    if form == "decimal":
        return sign + digit * size
    if form == "hex":
        return f"{sign}0x{'f' * size}"
    if form == "binary":
        return f"{sign}0b{'1' * size}"
    if form == "octal":
        return f"{sign}0{'7' * size}"
    if form == "sexagesimal":
        return sign + digit + ":59" * size
    if form == "sexagesimal real":
        return sign + digit + ":30" * size + ".5"
    if form == "exponent":
        return f"{sign}{digit}e{draw(st.sampled_from(['', '+', '-']))}{size * 17}"
    if form == "real":
        return f"{sign}{digit * size}.{digit * draw(st.integers(0, 400))}"
    return draw(st.sampled_from([".inf", "-.inf", ".nan", "1_000", "0x_", "0b", "1:60",
                                 "1e308", "1.7976931348623157e308", "1.8e308"]))


@EXAMPLES
@given(kind=st.sampled_from(sorted(KINDS)), where=st.integers(0, 10**6),
       number=hostile_numbers())
def test_mutated_numbers_are_read_or_refused_with_the_projects_error(kind, where, number):
    text = KINDS[kind][0]
    places = number_places(text)
    start, end = places[where % len(places)]
    _read(kind, text[:start] + number + text[end:])


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("number", ["9" * 400, "0x" + "f" * 300, "0b" + "1" * 1100,
                                    "0" + "7" * 400, "1" + ":0" * 200, "-" + "9" * 400])
def test_a_whole_number_too_large_for_a_float_is_refused_in_every_number_of_every_kind(
        kind, number):
    text = KINDS[kind][0]
    places = number_places(text)
    assert places
    for start, end in places:
        try:
            KINDS[kind][1](text[:start] + number + text[end:])
        except FileProblemError as exc:
            assert "far too large" in str(exc.problems[0]), exc
        else:
            raise AssertionError(f"{kind} read {number[:20]} at {start}")


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" + ":0" * 200 + ".5", ".inf"])
def test_an_infinite_number_anywhere_is_read_or_refused_with_the_projects_error(kind,
                                                                               number):
    text = KINDS[kind][0]
    for start, end in number_places(text):
        _read(kind, text[:start] + number + text[end:])
