"""The package's shape: every sub-package installs, and the core never imports pygame."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {".".join(p.parent.relative_to(ROOT).parts)
               for p in (ROOT / "racetrack").rglob("__init__.py")}
    assert on_disk <= listed, f"add to pyproject.toml: {sorted(on_disk - listed)}"


def test_the_core_imports_without_pygame():
    """Block pygame, then import every core module: none may need it."""
    code = """
import sys, importlib, pkgutil
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "pygame" or name.startswith("pygame."):
            raise ImportError("pygame is blocked in this test")
sys.meta_path.insert(0, Block())
import racetrack
for info in pkgutil.walk_packages(racetrack.__path__, "racetrack."):
    if info.name.startswith("racetrack.ui") or info.name == "racetrack.__main__":
        continue
    importlib.import_module(info.name)
print("ok")
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    assert result.stdout.strip() == "ok", result.stderr
