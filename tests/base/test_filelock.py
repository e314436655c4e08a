"""The lock two copies of the game take on a file they rewrite."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from racetrack.base.filelock import LockTimeout, hold, lock_path, locked

ROOT = Path(__file__).resolve().parents[2]


def test_the_lock_file_is_hidden_beside_the_file(tmp_path):
    target = tmp_path / "data" / "records.yaml"
    with locked(target):
        assert lock_path(target) == tmp_path / "data" / ".records.yaml.lock"
        assert lock_path(target).exists() and not target.exists()


def test_a_thread_holding_it_may_take_it_again(tmp_path):
    with locked(tmp_path / "a.yaml"), locked(tmp_path / "a.yaml"):
        pass
    with locked(tmp_path / "a.yaml", wait=0):  # and it was let go of
        pass


def test_another_thread_waits_and_gives_up_with_an_os_error(tmp_path):
    target = tmp_path / "a.yaml"
    caught = []

    def other() -> None:
        try:
            with locked(target, wait=0.05):
                caught.append("got it")
        except OSError as exc:
            caught.append(exc)

    with locked(target):
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert isinstance(caught[0], LockTimeout) and "another copy" in caught[0].strerror
    assert caught[0].filename == str(target)


def test_another_process_cannot_take_it_until_it_is_let_go(tmp_path):
    target = tmp_path / "a.yaml"
    child = [sys.executable, "-c", "import sys\nfrom racetrack.base.filelock import hold\n"
             "try:\n    hold(sys.argv[1], wait=0)\nexcept OSError:\n    sys.exit(3)\n",
             str(target)]
    held = hold(target)
    try:
        assert subprocess.run(child, cwd=ROOT).returncode == 3
    finally:
        held.release()
    assert subprocess.run(child, cwd=ROOT).returncode == 0
    held.release()  # a second release does nothing


def test_a_missing_folder_is_made_only_when_asked(tmp_path):
    with pytest.raises(FileNotFoundError), locked(tmp_path / "none" / "a.yaml",
                                                  make_parents=False):
        pass
    assert not (tmp_path / "none").exists()
