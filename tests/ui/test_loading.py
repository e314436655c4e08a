"""A file read off the window's thread."""

from __future__ import annotations

import threading

from racetrack.ui.loading import Loading


def test_the_value_arrives_once_read_and_the_frame_never_waits_for_it():
    gate = threading.Event()

    def read() -> str:
        gate.wait(10)
        return "table"

    loading = Loading(read, "empty")
    assert not loading.done and loading.value == "empty"  # the frame goes on meanwhile
    gate.set()
    assert loading.wait(10) and loading.done and loading.value == "table"
    assert loading.problem == ""


def test_a_reader_that_raises_leaves_the_empty_value_and_one_line():
    def read() -> str:
        raise OSError("disk gone\nsecond line")

    loading = Loading(read, "empty")
    assert loading.wait(10)
    assert loading.value == "empty" and loading.problem == "disk gone"
