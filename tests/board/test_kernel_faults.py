"""The differential tests of the compiled kernel (``tests/board/test_kernel_rules.py``) would catch
a real bug: faults planted one at a time in a copy of ``racetrack/board/_kernel.c`` (a skid
judged a speed too late, a damage limit one too tight, a crash put back on the wrong point or
sought from where the move ends rather than where it left the track, a detour allowed back on
ahead of where it left, a legal move beyond the speed bound let through) must each make the
kernel disagree with the numpy transition on the rule sets that reach the rule.

Each copy is compiled here with the C compiler Python was built with and loaded, in a process of
its own, in place of the built kernel; the same copy unchanged must agree, so a fault caught is
the fault and not the harness.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from racetrack.board import kernel

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "racetrack" / "board" / "_kernel.c"

pytestmark = [
    pytest.mark.skipif(kernel._kernel is None, reason="the package was built without the kernel"),
    pytest.mark.skipif(shutil.which(sysconfig.get_config_var("CC").split()[0]
                                    if sysconfig.get_config_var("CC") else "cc") is None,
                       reason="no C compiler"),
]

#: Each fault: the text it changes in the kernel (found exactly once), what it puts there,
#: and the rule sets of ``VARIANTS`` whose differential test must catch it.
FAULTS = {
    "a skid from one speed faster": (
        "if (r->s.skid > 0 && speed_v >= r->s.skid",
        "if (r->s.skid > 0 && speed_v > r->s.skid",
        ["skidding", "moving-first"]),
    "the damage limit reached is out": (
        "if (r->damage_limit >= 0 && damage > r->damage_limit",
        "if (r->damage_limit >= 0 && damage >= r->damage_limit",
        ["baker"]),
    "put back level with the crash": (
        "        sy = r->s.points[2 * spot + 1];\n",
        "        sy = st->y;\n",
        ["baker", "classroom"]),
    "a put-back sought from the move's end, not where it left the track": (
        "double ex = (double)px + t * (double)(qx - px), ey",
        "double ex = (double)qx + 0 * t, ey",
        ["baker", "classroom"]),
    "a detour back on level with where it left": (
        "if (r->return_level ? there < st.exit : there <= st.exit) continue;",
        "if (r->return_level ? there < st.exit : there < st.exit) continue;",
        ["nystrom"]),
    "a legal move beyond the speed bound": (
        "        uint64_t next;\n        if (!encode_state(r, &after, &next)) return TOO_FAST;",
        "        uint64_t next;\n        if (!encode_state(r, &after, &next)) continue;",
        ["gardner", "baker"]),
}

#: Run in a fresh process: load the kernel copy given as the built one, then race the
#: differential test's turns; exit 1 where the kernel and numpy disagree.
CHECK = """
import importlib.machinery, importlib.util, sys
path, names = sys.argv[1], sys.argv[2:]
loader = importlib.machinery.ExtensionFileLoader("racetrack.board._kernel", path)
spec = importlib.util.spec_from_file_location("racetrack.board._kernel", path, loader=loader)
module = importlib.util.module_from_spec(spec)
loader.exec_module(module)
sys.modules["racetrack.board._kernel"] = module
import racetrack.board
racetrack.board._kernel = module
from racetrack.board import kernel
assert kernel._kernel is module and kernel.ENABLED
from tests.board.test_kernel_rules import VARIANTS, one_turn
for name in names:
    track_name, rules = VARIANTS[name]
    for seed, top in ((0, False), (1, False), (9, True)):
        try:
            compiled = one_turn(track_name, rules, seed, True, top_speed=top)
        except Exception as error:
            compiled = repr(error)
        if compiled != one_turn(track_name, rules, seed, False, top_speed=top):
            print(f"caught by {name} (seed {seed})")
            sys.exit(1)
print("agrees")
"""


def compiled_copy(folder: Path, change: tuple[str, str] | None) -> Path:
    """``_kernel.c`` with ``change`` (text, replacement) made, compiled into ``folder``."""
    text = SOURCE.read_text()
    if change is not None:
        before, after = change
        assert text.count(before) == 1, f"the fault's place is not in the kernel: {before!r}"
        text = text.replace(before, after)
    source = folder / "_kernel.c"
    source.write_text(text)
    built = folder / ("_kernel" + sysconfig.get_config_var("EXT_SUFFIX"))
    compiler = (sysconfig.get_config_var("CC") or "cc").split()
    subprocess.run([*compiler, "-O1", "-ffp-contract=off", "-shared", "-fPIC",
                    f"-I{sysconfig.get_paths()['include']}", str(source), "-o", str(built),
                    "-lm"], check=True, capture_output=True)
    return built


def differential(built: Path, names: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "RACETRACK_KERNEL": "on", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", CHECK, str(built), *names], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_kernel_copy_unchanged_agrees(tmp_path):
    names = sorted({name for _, _, caught_by in FAULTS.values() for name in caught_by})
    found = differential(compiled_copy(tmp_path, None), names)
    assert found.returncode == 0 and found.stdout.strip() == "agrees", found.stderr[-2000:]


@pytest.mark.parametrize("fault", FAULTS)
def test_a_planted_fault_is_caught(tmp_path, fault):
    before, after, caught_by = FAULTS[fault]
    found = differential(compiled_copy(tmp_path, (before, after)), caught_by)
    assert found.returncode == 1 and found.stdout.startswith("caught by"), \
        (fault, found.stdout, found.stderr[-2000:])
