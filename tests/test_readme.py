"""The README's scripting example runs as printed."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_scripting_example_runs(capsys):
    readme = (ROOT / "README.md").read_text()
    example = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    assert len(example.strip().splitlines()) <= 12
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(example, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert "Ann moves to (15, 20)" in capsys.readouterr().out


def test_the_ci_script_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    marker = readme.index("<!-- ci: test command -->")
    block = re.search(r"```sh\n(.*?)\n```", readme[marker:], re.S).group(1)
    assert "pytest" in block
    assert "ci: test command" in (ROOT / ".ci" / "run").read_text()
