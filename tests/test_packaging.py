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


def imports_of(path: Path) -> set[str]:
    """The ``racetrack`` modules a file imports, at its top or inside a function."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("racetrack")}


def ui_modules() -> dict[str, set[str]]:
    """Every module of the window and the window's modules it imports."""
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts): p
               for p in (ROOT / "racetrack" / "ui").rglob("*.py") if p.name != "__init__.py"}
    return {name: {m for m in imports_of(path) if m in modules} for name, path in
            modules.items()}


#: A scene may import the scene it extends, and nothing else of its kind.
BASES = {"racetrack.ui.scenes.championship": {"racetrack.ui.scenes.setup"},
         "racetrack.ui.scenes.tutorial": {"racetrack.ui.scenes.race"},
         "racetrack.ui.scenes.trial": {"racetrack.ui.scenes.results"},
         "racetrack.ui.scenes.editor": {"racetrack.ui.scenes.editor_panel"},
         "racetrack.ui.scenes.online_host": {"racetrack.ui.scenes.setup"},
         "racetrack.ui.scenes.online_race": {"racetrack.ui.scenes.race"},
         "racetrack.ui.scenes.race": {"racetrack.ui.scenes.race_camera"}}


def test_the_window_imports_run_one_way():
    """Only the routes know the scenes: a scene imports no other scene (but the one it
    extends, or a helper it draws with), and no scene imports the routes or the app. So the
    window's modules import each other without a circle."""
    graph = ui_modules()
    scenes = {name for name in graph if name.startswith("racetrack.ui.scenes.")}
    for scene in scenes:
        allowed = BASES.get(scene, set()) | {"racetrack.ui.scenes.form"}
        assert graph[scene] & scenes <= allowed, f"{scene} imports {graph[scene] & scenes}"
        assert not graph[scene] & {"racetrack.ui.routes", "racetrack.ui.app"}, scene
    # No circle anywhere in the window.
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for other in graph[name]:
            visit(other, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())
