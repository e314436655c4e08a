"""The ``xvfb-run`` command for a test's own virtual X screen.

``xvfb-run -a`` takes the first display number whose lock file is free, from 99 up; two
started at once (the tutorial's three screens, or two test workers) may both take the same
one, and the second Xvfb fails to start. Each worker, and each of a test's screens started
together, begins its search from a number of its own."""

from __future__ import annotations

import os
import signal
import subprocess


def xvfb_run(screen: str, slot: int = 0) -> list[str]:
    """``xvfb-run`` with a screen of ``screen`` (``"1280x800x24"``), searching for a free
    display from a number of this worker's and this ``slot``'s own."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    first = 100 + 100 * (int(worker) if worker.isdigit() else 0) + 10 * slot
    return ["xvfb-run", "-a", "-n", str(first), "-s", f"-screen 0 {screen}"]


def start_on_screen(command: list[str], env: dict, **options) -> subprocess.Popen:
    """An ``xvfb_run`` command started in a process group of its own (see
    ``finish_on_screen``), its output read as text."""
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, **options)


def finish_on_screen(process: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """Its output once it ends; on a timeout the whole group goes (the screen, its script and
    the game it started), not ``xvfb-run`` alone, which left the game running on a screen that
    was gone."""
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise


def run_on_screen(command: list[str], env: dict, timeout: float) -> subprocess.CompletedProcess:
    """``subprocess.run`` of an ``xvfb_run`` command, by ``start_on_screen`` and
    ``finish_on_screen``."""
    process = start_on_screen(command, env)
    out, err = finish_on_screen(process, timeout)
    return subprocess.CompletedProcess(command, process.returncode, out, err)
