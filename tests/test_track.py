"""Track files: every kind of bad input gets a clear, located error; good ones round-trip."""

from __future__ import annotations

import os
import textwrap

import pytest

from racetrack.errors import TrackError
from racetrack.geometry import Vec
from racetrack.track import (
    bundled_track_paths,
    load_track,
    parse_track,
    save_track,
    track_to_yaml,
)

GOOD = """\
racetrack-track: 1
name: Box
outer: [[0, 0], [12, 0], [12, 12], [0, 12]]
holes: [[[4, 4], [8, 4], [8, 8], [4, 8]]]
start: {a: [6, 0], b: [6, 4], forward: [1, 0]}
"""


def problems(text: str) -> list[str]:
    with pytest.raises(TrackError) as info:
        parse_track(textwrap.dedent(text), "bad.yaml")
    return [str(p) for p in info.value.problems]


def one_problem(text: str) -> str:
    found = problems(text)
    assert len(found) == 1, found
    return found[0]


def test_a_good_track_loads():
    track = parse_track(GOOD)
    assert track.name == "Box" and track.laps == 1 and track.is_circuit
    assert track.start_positions() == [Vec(6, 1), Vec(6, 2), Vec(6, 3)]


class TestBadFiles:
    def test_yaml_syntax_error_names_the_line(self):
        message = one_problem(GOOD + "laps: [1, 2\nzones: []\n")
        assert message.startswith("bad.yaml:") and "YAML error" in message

    def test_not_a_mapping(self):
        assert "must be a YAML mapping" in one_problem("- just\n- a list\n")

    def test_empty_file(self):
        assert "must be a YAML mapping" in one_problem("")

    def test_missing_keys(self):
        found = problems("racetrack-track: 1\n")
        assert any("missing 'name'" in p for p in found)
        assert any("missing 'outer'" in p for p in found)
        assert any("missing 'start'" in p for p in found)

    def test_missing_or_wrong_version(self):
        without_version = GOOD.replace("racetrack-track: 1\n", "")
        assert "missing 'racetrack-track: 1'" in one_problem(without_version)
        assert "unsupported track format version 2" in one_problem(
            GOOD.replace("racetrack-track: 1", "racetrack-track: 2"))

    def test_unknown_key_is_reported_with_its_line_and_the_valid_keys(self):
        message = one_problem(GOOD + "colour: red\n")
        assert message.startswith("bad.yaml:6:") and "unknown key 'colour'" in message
        assert "valid keys:" in message and "checkpoints" in message

    def test_wrong_types_name_the_line(self):
        message = one_problem(GOOD.replace("[12, 0], [12, 12]", "[12, zero], [12, 12]"))
        assert message.startswith("bad.yaml:3:") and "must be a number" in message
        assert "must be a whole number" in one_problem(GOOD + "laps: two\n")
        assert "must be a whole number" in one_problem(GOOD + "laps: true\n")
        assert "a point must be a pair" in one_problem(
            GOOD.replace("[6, 0], b", "[6, 0, 1], b"))
        assert "a line must be a mapping" in one_problem(GOOD + "finish: [1, 2]\n")

    def test_numbers_in_e_notation_are_numbers(self):
        track = parse_track(GOOD.replace("[12, 0], [12, 12]", "[1.2e1, 0], [12e0, 12]"))
        assert track.outer[1] == (12.0, 0)

    def test_booleans_are_not_coordinates(self):
        assert "must be a number" in one_problem(GOOD.replace("[0, 0], [12", "[0, no], [12"))

    def test_fewer_than_three_points(self):
        message = one_problem(GOOD.replace("[[0, 0], [12, 0], [12, 12], [0, 12]]",
                                           "[[0, 0], [12, 0], [0, 0]]"))
        assert "at least 3 different points" in message

    def test_self_intersecting_outline(self):
        message = one_problem(GOOD.replace("[[0, 0], [12, 0], [12, 12], [0, 12]]",
                                           "[[0, 0], [12, 12], [12, 0], [0, 12]]"))
        assert "not a simple polygon" in message and "edges cross at (6, 6)" in message

    def test_hole_outside_the_outline(self):
        message = one_problem(GOOD.replace("[[4, 4], [8, 4], [8, 8], [4, 8]]",
                                           "[[14, 4], [18, 4], [18, 8], [14, 8]]"))
        assert "hole 1 is not inside the outline" in message

    def test_overlapping_holes(self):
        text = GOOD.replace("holes: [[[4, 4], [8, 4], [8, 8], [4, 8]]]",
                            "holes: [[[4, 4], [8, 4], [8, 8], [4, 8]], "
                            "[[7, 7], [9, 7], [9, 9], [7, 9]]]")
        assert "hole 2 overlaps hole 1" in one_problem(text)

    def test_start_line_with_no_lattice_point_inside(self):
        text = GOOD.replace("{a: [6, 0], b: [6, 4], forward: [1, 0]}",
                            "{a: [6.5, 0], b: [6.5, 4], forward: [1, 0]}")
        assert "no lattice point strictly inside" in one_problem(text)

    def test_forward_parallel_to_its_line(self):
        message = one_problem(GOOD.replace("forward: [1, 0]", "forward: [0, -2]"))
        assert "runs along it" in message and message.startswith("bad.yaml:5:")

    @pytest.mark.parametrize("value", [".nan", ".inf", "-.inf"])
    def test_nan_and_infinite_numbers(self, value):
        message = one_problem(GOOD.replace("[12, 0], [12, 12]", f"[12, {value}], [12, 12]"))
        assert "finite number" in message

    def test_absurd_sizes(self):
        assert "beyond" in one_problem(GOOD.replace("[12, 12], [0, 12]", "[1.0e+9, 12], [0, 12]"))
        big = GOOD.replace("[[0, 0], [12, 0], [12, 12], [0, 12]]",
                           "[[0, 0], [5000, 0], [5000, 5000], [0, 5000]]")
        assert "the largest sheet" in one_problem(big)

    def test_yaml_tags_that_build_objects_are_refused(self):
        message = one_problem(GOOD + "description: !!python/object/apply:os.system ['true']\n")
        assert "YAML error" in message and "no tags that build objects" in message

    def test_alias_bombs_are_refused(self):
        bomb = GOOD + textwrap.dedent("""\
            description: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
            zones: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
            checkpoints: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
            collectables: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
            author: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
            laps: [*e, *e, *e, *e, *e, *e, *e, *e, *e]
        """)
        assert "alias bomb" in one_problem(bomb)

    def test_deep_nesting_is_refused(self):
        assert "YAML" in one_problem(GOOD + "laps: " + "[" * 5000 + "]" * 5000 + "\n")

    def test_unknown_zone_kind_lists_the_valid_ones(self):
        text = GOOD + "zones: [{kind: lava, polygon: [[1, 1], [3, 1], [3, 3]]}]\n"
        assert "unknown zone kind 'lava'; valid kinds: oil, jump, water" in one_problem(text)

    def test_every_problem_is_reported_at_once(self):
        text = GOOD + "laps: 0\ncolour: red\n"
        assert len(problems(text)) == 2

    def test_files_that_are_not_text(self, tmp_path):
        path = tmp_path / "track.yaml"
        path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
        with pytest.raises(TrackError, match="not a text file"):
            load_track(path)
        path.write_bytes(b"name: \xff\xfe\n")
        with pytest.raises(TrackError, match="not UTF-8"):
            load_track(path)

    def test_an_alias_that_refers_to_itself_is_refused(self):
        assert "refers to itself" in one_problem(GOOD + "laps: &a [1, *a]\n")

    def test_a_key_given_twice_is_refused(self):
        message = one_problem(GOOD + "name: Again\n")
        assert message.startswith("bad.yaml:6:") and "'name' appears twice" in message

    def test_a_pipe_is_refused_without_blocking(self, tmp_path):
        import os

        pipe = tmp_path / "pipe.yaml"
        os.mkfifo(pipe)
        with pytest.raises(TrackError, match="not an ordinary file"):
            load_track(pipe)

    def test_a_long_diagonal_start_line_is_fine(self):
        text = GOOD.replace("{a: [6, 0], b: [6, 4], forward: [1, 0]}",
                            "{a: [-9000, -9000], b: [9000, 9000], forward: [1, -1]}")
        track = parse_track(text)
        assert track.start_positions() == [Vec(1, 1), Vec(2, 2), Vec(3, 3), Vec(9, 9),
                                           Vec(10, 10), Vec(11, 11)]  # the hole is between

    def test_missing_file_and_folder(self, tmp_path):
        with pytest.raises(TrackError, match="no such file"):
            load_track(tmp_path / "nope.yaml")
        with pytest.raises(TrackError, match="is a folder"):
            load_track(tmp_path)


class TestSaving:
    def test_round_trip_is_exact(self, tmp_path):
        track = parse_track(GOOD)
        path = tmp_path / "box.yaml"
        save_track(track, path)
        again = load_track(path)
        assert again == track
        save_track(again, tmp_path / "again.yaml")
        assert (tmp_path / "again.yaml").read_text() == path.read_text()

    def test_fractional_coordinates_and_every_key_round_trip(self, tmp_path):
        text = textwrap.dedent("""\
            racetrack-track: 1
            name: Everything
            author: Someone
            description: All the keys.
            outer: [[-0.5, -0.5], [30.5, -0.5], [30.5, 10.5], [-0.5, 10.5]]
            start: {a: [2, -0.5], b: [2, 10.5], forward: [1, 0]}
            finish: {a: [28, -0.5], b: [28, 10.5], forward: [1, 0]}
            checkpoints: [{a: [15, -0.5], b: [15, 10.5], forward: [1, 0]}]
            laps: 2
            zones: [{kind: oil, polygon: [[10, 2], [12, 2], [12, 4], [10, 4]]}]
            collectables: [{kind: penny, at: [5, 5]}, {kind: money, at: [6, 5], value: 20}]
        """)
        track = parse_track(text)
        path = tmp_path / "all.yaml"
        save_track(track, path)
        assert load_track(path) == track
        assert parse_track(track_to_yaml(track)) == track

    def test_saving_is_atomic(self, tmp_path, monkeypatch):
        path = tmp_path / "box.yaml"
        path.write_text(GOOD)
        track = parse_track(GOOD).with_name("Changed")

        def broken_replace(*args):
            raise OSError("disk full")

        monkeypatch.setattr(os, "replace", broken_replace)
        with pytest.raises(OSError):
            save_track(track, path)
        assert path.read_text() == GOOD
        assert [p.name for p in tmp_path.iterdir()] == ["box.yaml"]


@pytest.mark.parametrize("path", bundled_track_paths(), ids=lambda p: p.stem)
def test_bundled_tracks_load_and_round_trip(path, tmp_path):
    track = load_track(path)
    assert track.start_positions(), "every bundled track has somewhere to start"
    save_track(track, tmp_path / path.name)
    assert load_track(tmp_path / path.name) == track
