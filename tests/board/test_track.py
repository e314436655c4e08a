"""Track files: every kind of bad input gets a clear, located error; good ones round-trip."""

from __future__ import annotations

import os
import textwrap

import pytest

from racetrack.base.errors import TrackError
from racetrack.board.geometry import Vec
from racetrack.board.track import (
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
        assert "unsupported track format version 3" in one_problem(
            GOOD.replace("racetrack-track: 1", "racetrack-track: 3"))

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


AREAS = """\
racetrack-track: 2
name: Cells
outer: [[-0.5, -0.5], [9.5, -0.5], [9.5, 2.5], [-0.5, 2.5]]
start-points: [[0, 0], [0, 1], [0, 2]]
finish-area: [[[7.5, -0.5], [8.5, -0.5], [8.5, 2.5], [7.5, 2.5]]]
checkpoint-areas:
  - [[[3.5, -0.5], [4.5, -0.5], [4.5, 0.5], [3.5, 0.5]],
     [[3.5, 1.5], [4.5, 1.5], [4.5, 2.5], [3.5, 2.5]]]
"""


class TestVersion2:
    """Start points, and a finish and checkpoints drawn as areas (imported maps' cells)."""

    def test_areas_and_start_points_load(self):
        track = parse_track(AREAS)
        assert track.start is None and not track.is_circuit
        assert track.start_positions() == [Vec(0, 0), Vec(0, 1), Vec(0, 2)]
        assert track.finish_area.geometry().area == 3
        assert len(track.checkpoint_areas) == 1
        assert track.checkpoint_areas[0].geometry().area == 2
        assert track.format_version == 2

    def test_they_round_trip_and_version_1_stays_version_1(self, tmp_path):
        track = parse_track(AREAS)
        assert parse_track(track_to_yaml(track)) == track
        assert track_to_yaml(track).startswith("racetrack-track: 2\n")
        assert track_to_yaml(parse_track(GOOD)).startswith("racetrack-track: 1\n")

    def test_a_version_1_file_cannot_use_them(self):
        found = problems(AREAS.replace("racetrack-track: 2", "racetrack-track: 1"))
        assert [p.split(": ", 1)[1].split(" (")[0] for p in found] == [
            "'start-points'", "'finish-area'", "'checkpoint-areas'"]
        assert all("is new in track format version 2; write 'racetrack-track: 2'" in p
                   for p in found)

    def test_start_points_on_the_edge_are_places_and_off_the_track_are_refused(self):
        track = parse_track(AREAS.replace("[0, 2]]", "[0, 2], [9, 2]]"))
        assert Vec(9, 2) in track.start_positions()  # the cell's centre, at its edge too
        on_edge = AREAS.replace("outer: [[-0.5, -0.5]", "outer: [[0, -0.5]")
        assert parse_track(on_edge).start_positions()[0] == Vec(0, 0)
        assert "start point 2 at (5, 7) is off the track" in one_problem(
            AREAS.replace("[0, 1]", "[5, 7]"))

    def test_one_finish_only_and_a_finish_without_a_start_line(self):
        both = AREAS + "finish: {a: [6, -0.5], b: [6, 2.5], forward: [1, 0]}\n"
        assert "one finish" in one_problem(both)
        lines = AREAS.split("finish-area")[0]
        assert "needs a finish of its own" in one_problem(lines)

    def test_an_area_off_the_track_or_crossing_itself_is_refused(self):
        away = AREAS.replace("[[[7.5, -0.5], [8.5, -0.5], [8.5, 2.5], [7.5, 2.5]]]",
                             "[[[20, 20], [21, 20], [21, 21], [20, 21]]]")
        assert "the finish area does not lie on the track" in one_problem(away)
        bow = AREAS.replace("[[[7.5, -0.5], [8.5, -0.5], [8.5, 2.5], [7.5, 2.5]]]",
                            "[[[7.5, -0.5], [8.5, 2.5], [8.5, -0.5], [7.5, 2.5]]]")
        assert "polygon 1 of the finish area is not a simple polygon" in one_problem(bow)
        empty = AREAS.replace("[[[7.5, -0.5], [8.5, -0.5], [8.5, 2.5], [7.5, 2.5]]]", "[]")
        assert "the finish area must be a list of 1 to 200 polygons" in one_problem(empty)

    def test_reversing_reverses_the_checkpoint_areas(self):
        track = parse_track(AREAS.replace("[3.5, 2.5]]]", "[3.5, 2.5]]]\n  - "
                                          "[[[5.5, 0.5], [6.5, 0.5], [6.5, 1.5], [5.5, 1.5]]]"))
        assert track.reversed().checkpoint_areas == track.checkpoint_areas[::-1]
