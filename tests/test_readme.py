"""The README's promises: the scripting example (docs/scripting.md) runs as printed, CI runs
the test command, the front page stays short and every link in it and in docs/ leads
somewhere."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_scripting_example_runs(capsys):
    page = (ROOT / "docs" / "scripting.md").read_text()
    example = re.search(r"```python\n(.*?)```", page, re.S).group(1)
    assert len(example.strip().splitlines()) <= 12
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(example, "docs/scripting.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert "Ann moves to (15, 20)" in capsys.readouterr().out


def test_the_ci_script_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    marker = readme.index("<!-- ci: test command -->")
    block = re.search(r"```sh\n(.*?)\n```", readme[marker:], re.S).group(1)
    assert "pytest" in block
    assert "ci: test command" in (ROOT / ".ci" / "run").read_text()


def test_the_front_page_is_read_in_five_minutes():
    """Under 15 KB: what a player needs first; the detail lives in docs/."""
    assert len((ROOT / "README.md").read_bytes()) < 15 * 1024


def test_every_local_link_leads_to_a_file():
    """Every relative link and picture in the README and docs/ names a file that exists."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken
