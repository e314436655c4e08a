"""Pictures of drawn tracks: ink walls or a coloured road, the red start line, and the pictures
that are no track at all, each refused in one line, within seconds."""

from __future__ import annotations

import time

import numpy as np
from PIL import Image, ImageDraw

from racetrack.board.geometry import Vec
from racetrack.board.track.maps import MapFormat, import_map
from tests.board.track.maps.test_textmap import error_of

PAPER = (250, 247, 238)
INK = (25, 25, 35)
RED = (215, 35, 30)


def oval(path, road: tuple[int, int, int] | None = None, mark: bool = True,
         stroke: bool = True, size=(600, 400)):
    """An oval circuit: ink walls (or, given ``road``, a coloured road) on paper, a red start
    line across the top straight (a stroke, or a blob)."""
    image = Image.new("RGB", size, PAPER)
    draw = ImageDraw.Draw(image)
    w, h = size
    outer, inner = (w * 0.05, h * 0.075, w * 0.95, h * 0.925), (w * 0.25, h * 0.3, w * 0.75,
                                                                h * 0.7)
    if road is None:
        draw.ellipse(outer, outline=INK, width=5)
        draw.ellipse(inner, outline=INK, width=5)
    else:
        draw.ellipse(outer, fill=road)
        draw.ellipse(inner, fill=PAPER)
    if mark and stroke:
        draw.line((w * 0.52, h * 0.09, w * 0.5, h * 0.29), fill=RED, width=4)
    elif mark:
        draw.ellipse((w * 0.48, h * 0.15, w * 0.52, h * 0.2), fill=RED)
    image.save(path)
    return path


def test_ink_walls_and_a_red_stroke_make_a_circuit(tmp_path):
    imported = import_map(oval(tmp_path / "ink.png"), scale=0.1)
    assert imported.format is MapFormat.IMAGE
    assert "read as walls drawn in ink" in imported.notes
    track = imported.track()
    assert track.is_circuit and len(track.holes) == 1
    assert 30 <= track.bounds[2] - track.bounds[0] <= 58  # the road, not the paper round it
    start = track.start
    assert start.a[0] == start.b[0] and float(start.a[0]).is_integer()  # snapped upright
    assert start.forward == (1, 0)  # clockwise as the picture is seen: right along the top
    places = track.start_positions()
    assert len(places) >= 5 and {p.x for p in places} == {round(start.a[0])}
    assert Vec(31, 5) in places  # the lattice point nearest the stroke, and the ones beside


def test_a_coloured_road_on_paper_and_a_red_blob(tmp_path):
    path = oval(tmp_path / "blue.jpg", road=(80, 130, 200), stroke=False)
    imported = import_map(path, scale=0.1)
    assert "read as a coloured road on light paper" in imported.notes
    track = imported.track()
    assert len(track.holes) == 1 and track.start.forward == (1, 0)
    assert track.start.a[0] == track.start.b[0]  # the shortest way across the top straight


def test_without_a_mark_the_drawing_needs_its_start_line(tmp_path):
    imported = import_map(oval(tmp_path / "plain.png", mark=False), scale=0.1)
    assert not imported.complete
    assert imported.draft.start is None and len(imported.draft.holes) == 1
    assert any("place it in the editor" in note for note in imported.notes)


def test_the_scale_is_squares_per_pixel_and_has_a_default(tmp_path):
    path = oval(tmp_path / "ink.png")
    small = import_map(path, scale=0.05).track()
    assert small.bounds[2] - small.bounds[0] < 29
    default = import_map(path)
    assert any("60 squares along the longer side" in note for note in default.notes)
    assert "the largest sheet is 1,000,000 lattice points" in error_of(path, scale=5)


def test_noise_is_no_track(tmp_path):
    rng = np.random.default_rng(3)
    for size in (120, 900):
        path = tmp_path / f"noise-{size}.png"
        Image.fromarray(rng.integers(0, 256, (size, size, 3), dtype=np.uint8)).save(path)
        began = time.perf_counter()
        assert "no track found" in error_of(path, scale=0.2)
        assert time.perf_counter() - began < 5


def test_pictures_that_cannot_be_read(tmp_path):
    huge = tmp_path / "huge.png"
    Image.new("1", (5000, 4000), 1).save(huge)
    began = time.perf_counter()
    assert "the picture is 5000 x 4000 pixels; the largest read is 16,000,000" in error_of(
        huge)
    assert time.perf_counter() - began < 5
    # Beyond Pillow's own limit the size is not told, but the picture is no less a picture.
    larger = tmp_path / "larger.png"
    Image.new("1", (10_000, 10_000), 1).save(larger)
    began = time.perf_counter()
    assert "the picture is more than 89,478,485 pixels; the largest read is 16,000,000" in (
        error_of(larger))
    assert time.perf_counter() - began < 5
    gif = tmp_path / "track.gif"
    Image.new("RGB", (40, 40), PAPER).save(gif)
    assert "is a GIF picture; this game reads PNG and JPEG" in error_of(
        gif, format=MapFormat.IMAGE)
    text = tmp_path / "notes.png"
    text.write_text("not a picture at all")
    assert "is not a picture this game can read" in error_of(text, format=MapFormat.IMAGE)
    whole = oval(tmp_path / "cut.png").read_bytes()
    cut = tmp_path / "cut.png"
    cut.write_bytes(whole[: len(whole) // 2])
    assert "damaged picture" in error_of(cut)
    blank = tmp_path / "blank.png"
    Image.new("RGB", (300, 200), PAPER).save(blank)
    assert "no track found" in error_of(blank)


def test_a_red_stroke_over_a_wall_leaves_the_wall_whole(tmp_path):
    """The stroke overshoots both walls: the wall goes on under it, so the paper round the
    track stays out and the road stays a ring."""
    path = tmp_path / "over.png"
    image = Image.open(oval(tmp_path / "base.png", mark=False))
    draw = ImageDraw.Draw(image)
    draw.line((300, 10, 300, 140), fill=RED, width=6)  # from above the oval into its infield
    image.save(path)
    track = import_map(path, scale=0.1).track()
    assert len(track.holes) == 1 and track.bounds[1] >= 2.5 and track.bounds[3] <= 37.5
    assert track.start.forward == (1, 0)
