"""The package's shape: every sub-package installs, one package per layer with the layers'
import contracts kept, the core never imports pygame, and imports deferred into functions are
only the listed ones."""

from __future__ import annotations

import ast
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


def test_the_import_contracts_hold():
    """The layers, the core without pygame, no circles: import-linter's contracts in
    pyproject.toml, as the README's test command checks them (under a second)."""
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(no_cache=True, no_logo=True))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_few_modules_lie_loose_at_the_top():
    """The tree is the architecture: every module lives in its layer's package, but for the
    package's own, the command line and at most three more."""
    loose = sorted(p.name for p in (ROOT / "racetrack").glob("*.py"))
    assert len(loose) <= 6, loose


def deferred_imports(path: Path) -> set[str]:
    """The ``racetrack`` modules a file imports inside a function (outside TYPE_CHECKING)."""
    import ast

    found = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if inside and isinstance(child, ast.ImportFrom) and child.level == 0 and \
                    (child.module or "").startswith("racetrack"):
                found.add(child.module)
            elif inside and isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name.startswith("racetrack"))
            visit(child, inside)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def test_imports_inside_functions_are_only_the_listed_ones():
    """An import deferred into a function is kept only to keep start-up light, and each module
    that has one says so in pyproject.toml ([tool.racetrack.deferred-imports]): a new one
    is a decision, never a way round a layer (the contracts check deferred imports too)."""
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["racetrack"][
        "deferred-imports"]
    having = set()
    for path in (ROOT / "racetrack").rglob("*.py"):
        if deferred_imports(path):
            parts = path.relative_to(ROOT).with_suffix("").parts
            having.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    assert having == set(listed), (f"deferred without a reason: {sorted(having - set(listed))}; "
                                   f"listed but gone: {sorted(set(listed) - having)}")


def test_the_architecture_page_places_every_module():
    """docs/architecture.md names every module in its layer's row, so the page cannot fall
    behind the tree again."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {row.split("|")[1].strip().strip("`"): row for row in page.splitlines()
            if row.startswith("| ")}
    missing = []
    for path in sorted((ROOT / "racetrack").rglob("*")):
        if path.suffix not in (".py", ".c") or path.name == "__init__.py" or \
                "__pycache__" in path.parts:
            continue
        parts = path.relative_to(ROOT / "racetrack").parts
        row = rows.get(parts[0] if len(parts) > 1 else "top", "")
        if f"`{path.name}`" not in row:
            missing.append("/".join(parts))
    assert not missing, f"docs/architecture.md does not place: {missing}"


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


def test_the_editor_parts_name_the_editor_for_type_checking_only():
    """The one import the circles contract lets pass (``racetrack.editing.* ->
    racetrack.editing.state``) must stay an annotation: a part that imported the editor to run
    would be a real circle in the editor's package."""
    for path in (ROOT / "racetrack" / "editing").glob("*.py"):
        if path.name in ("state.py", "__init__.py"):  # the package exports the editor
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(block.test)
                   for node in ast.walk(block)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "racetrack.editing.state":
                assert id(node) in guarded, f"{path.name}:{node.lineno} imports the editor to run"
