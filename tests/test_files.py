"""File names made from user text stay one plain name inside their folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from racetrack.files import MAX_NAME_BYTES, file_in, safe_name

FOLDER = Path("/data/replays")


@pytest.mark.parametrize("text, name", [
    ("x/../../records", "x....records"),
    ("../../../etc/passwd", "etcpasswd"),
    ("..", "untitled"),
    ("  .hidden  ", "hidden"),
    ("-rf", "rf"),
    ("a\\b", "ab"),
    ("Ann\x1b]0;title\x07", "Ann0title"),
    ("con", "con_"),
    ("NUL.txt", "NUL.txt_"),
    ("Ann v Bob", "Ann v Bob"),
    ("Zoë's track", "Zoës track"),
])
def test_user_text_becomes_one_safe_name(text, name):
    assert file_in(FOLDER, text) == FOLDER / f"{name}.yaml"


def test_a_long_name_is_cut_at_a_whole_character():
    name = safe_name("é" * 500)
    assert len(name.encode("utf-8")) <= MAX_NAME_BYTES and name == "é" * (MAX_NAME_BYTES // 2)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["", "2024-01-02 120000 "]))
def test_any_text_gives_a_plain_name_directly_in_the_folder(text, prefix):
    path = file_in(FOLDER, text, prefix=prefix)
    assert path.parent == FOLDER
    assert not path.name.startswith((".", "-"))
    assert "/" not in path.name and "\\" not in path.name and "\x00" not in path.name
    assert all(ch.isprintable() for ch in path.name)
    assert len(path.name.encode("utf-8")) <= MAX_NAME_BYTES + len(prefix) + len(".yaml")
