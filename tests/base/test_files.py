"""The game's files: names from user text stay one plain name in their folder; writes are
whole, replace only ordinary files and name the user's file; damaged files are kept."""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from racetrack.base.files import (
    MAX_NAME_BYTES,
    STRAY_AGE_SECONDS,
    atomic_write_text,
    file_in,
    is_reserved,
    keep_aside,
    remove_stray_temp_files,
    safe_name,
)

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
    ("NUL.txt", "NUL_.txt"),
    ("CON .x", "CON _.x"),
    ("COM\u00b9", "COM\u00b9_"),
    ("lpt\u00b2.tar.gz", "lpt\u00b2_.tar.gz"),
    ("aux.", "aux_"),
    ("CONIN$", "CONIN"),
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
    assert not is_reserved(path.name) and not path.name.endswith((" ", "."))


RESERVED = ["con", "prn", "aux", "nul", *(f"{p}{d}" for p in ("com", "lpt")
                                          for d in "0123456789\u00b9\u00b2\u00b3")]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(RESERVED), st.sampled_from(["", " ", "  ", ".", " ."]),
       st.text(alphabet="abc. ", max_size=8), st.booleans())
def test_no_name_made_is_a_windows_device_name(device, gap, rest, upper):
    text = (device.upper() if upper else device) + gap + rest
    name = file_in(FOLDER, text).name
    assert name.split(".")[0].rstrip(" ").lower() not in RESERVED, name


# --------------------------------------------------------------------------------------------
# Writing and keeping files

def test_a_write_replaces_the_file_whole_and_keeps_its_mode(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("old")
    os.chmod(path, 0o640)
    atomic_write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.yaml"]


def test_a_new_file_gets_the_users_umask(tmp_path):
    old = os.umask(0o027)
    try:
        from racetrack.base import files

        files._umask.cache_clear()
        atomic_write_text(tmp_path / "new.yaml", "x")
    finally:
        os.umask(old)
        files._umask.cache_clear()
    assert stat.S_IMODE((tmp_path / "new.yaml").stat().st_mode) == 0o640


@pytest.mark.parametrize("kind", ["symlink", "fifo", "folder", "device"])
def test_only_an_ordinary_file_is_replaced(tmp_path, kind):
    target = tmp_path / "target.yaml"
    if kind == "symlink":
        (tmp_path / "elsewhere").write_text("kept")
        target.symlink_to(tmp_path / "elsewhere")
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    else:
        target = Path("/dev/null")  # as root, /dev/full once became an ordinary file
    with pytest.raises(OSError, match="refusing to replace it") as caught:
        atomic_write_text(target, "new", make_parents=False)
    assert caught.value.filename == str(target)
    if kind == "symlink":
        assert target.is_symlink() and (tmp_path / "elsewhere").read_text() == "kept"
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_write_error_names_the_users_file_not_the_temporary_one(tmp_path):
    missing = tmp_path / "no folder" / "a.yaml"
    with pytest.raises(OSError) as caught:
        atomic_write_text(missing, "x", make_parents=False)
    assert caught.value.filename == str(missing) and caught.value.errno == errno.ENOENT


def test_the_temporary_files_of_killed_saves_are_removed(tmp_path):
    old = tmp_path / ".a.yaml.k3x9q2ab.tmp"
    young = tmp_path / ".a.yaml.zz11zz11.tmp"
    other = tmp_path / ".b.yaml.k3x9q2ab.tmp"
    mine = tmp_path / "notes.tmp"
    for path in (old, young, other, mine):
        path.write_text("half")
    long_ago = time.time() - STRAY_AGE_SECONDS - 5
    for path in (old, other, mine):
        os.utime(path, (long_ago, long_ago))
    atomic_write_text(tmp_path / "a.yaml", "whole")
    assert not old.exists() and young.exists() and other.exists() and mine.exists()
    assert remove_stray_temp_files(tmp_path) == [other]
    assert mine.exists()


def test_a_damaged_file_is_kept_aside_under_a_new_name_each_time(tmp_path):
    path = tmp_path / "records.yaml"
    for number, expected in enumerate(["records.yaml.bad", "records.yaml.bad-2",
                                       "records.yaml.bad-3"]):
        path.write_text(f"damaged {number}")
        assert keep_aside(path) == tmp_path / expected and not path.exists()
    assert (tmp_path / "records.yaml.bad-2").read_text() == "damaged 1"


def test_a_new_file_is_made_only_where_there_is_none(tmp_path):
    from racetrack.base.files import create_new_text

    target = tmp_path / "data" / "2025-03-14 120000 Oval.yaml"
    create_new_text(target, "first\n")
    with pytest.raises(FileExistsError) as caught:
        create_new_text(target, "second\n")
    assert caught.value.filename == str(target)
    assert target.read_text() == "first\n"
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]  # no temp left
    (tmp_path / "link.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    with pytest.raises(FileExistsError):
        create_new_text(tmp_path / "link.yaml", "x")
    assert not (tmp_path / "elsewhere.yaml").exists()


def test_without_hard_links_a_new_file_is_still_made_exclusively(tmp_path, monkeypatch):
    from racetrack.base.files import create_new_text

    def no_links(source, target):
        raise OSError(errno.EPERM, "links not supported")

    monkeypatch.setattr(os, "link", no_links)
    create_new_text(tmp_path / "a.yaml", "first\n")
    with pytest.raises(FileExistsError):
        create_new_text(tmp_path / "a.yaml", "second\n")
    assert (tmp_path / "a.yaml").read_text() == "first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.yaml"]
