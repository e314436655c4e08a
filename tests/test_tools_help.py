"""Every tool in tools/ answers --help with its usage, and does nothing else."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = sorted((Path(__file__).resolve().parents[1] / "tools").glob("*.py"))


@pytest.mark.parametrize("tool", TOOLS, ids=[t.name for t in TOOLS])
def test_a_tool_prints_its_usage_and_exits_cleanly(tool, tmp_path):
    done = subprocess.run([sys.executable, str(tool), "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:") or "\nusage:" in done.stdout
    assert list(tmp_path.iterdir()) == []  # no folder named "--help", nothing written
