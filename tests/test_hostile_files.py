"""Hostile files: every loader and every command on every file of the corpus.

The promise (docs/files.md): a file is never executed, a bad one is one line per
problem and exit 1 (never a traceback), nothing is written outside the data folder, and a big
or hostile file is refused in bounded time and memory. The small corpus runs in this process;
the big files run in a child whose CPU time is limited and whose peak memory is measured.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from racetrack.cli import main
from tests.hostile_corpus import (
    COMMANDS,
    LOADER_NAMES,
    corpus_files,
    large_files,
    prepare,
    run_loaders,
)

ROOT = Path(__file__).resolve().parent.parent

#: What the corpus must come to, beyond "no traceback": (file, reader or command) -> outcome.
EXPECTED = {
    ("path-escape-in-player-name.yaml", "saved game"): "ok",
    ("path-escape-in-player-name.yaml", "trees-replay --verify"): 0,
    ("reference-to-licence-text.yaml", "replay"): "ok",
    ("reference-to-licence-text.yaml", "replay --verify"): 0,
    ("reference-to-device.yaml", "replay --verify"): 0,
    ("reference-to-device.yaml", "replay --png"): 0,
    ("driver-godlike.yaml", "replay --verify"): 1,
    ("driver-godlike.yaml", "unfinished race"): "ok",  # kept aside, and said
    ("replay-without-result.yaml", "replay --verify"): 1,
    ("replay-cut-off.yaml", "replay --verify"): 1,
    ("replay-version-true.yaml", "replay --verify"): 1,
    ("replay-unknown-key.yaml", "replay --verify"): 1,
    ("saved-game-without-result.yaml", "trees-replay --verify"): 1,
    ("move-far-off-the-paper.yaml", "replay --verify"): 1,
    ("seed-far-too-large.yaml", "replay --verify"): 1,
    ("name-escape-sequence-in-saved-game.yaml", "trees-replay --verify"): 1,
    ("name-right-to-left-override-in-replay.yaml", "replay --verify"): 1,
    ("championship-etc-passwd.yaml", "championship"): "neither a bundled track nor",
    ("championship-own-draft.yaml", "championship"): "cannot be raced",
    ("rules-base-etc-shadow.yaml", "rules"): "ending in .yaml",
    ("rules-base-foreign-yaml.yaml", "rules"): "is not a rules file",
    ("rules-file-shaped-like-etc-shadow.yaml", "rules"): "none of its 3 keys is a rule option",
    ("rules-file-shaped-like-etc-shadow.yaml", "race oval --rules"): "none of its 3 keys",
    ("rules-file-shaped-like-etc-shadow.yaml", "trees-play --rules"): "none of its 3 keys",
    ("rules-file-shaped-like-etc-shadow.yaml", "Graph Trees rules"): "none of its 3 keys",
    ("number-decimal-too-large-in-settings.yaml", "settings"): "ok",  # defaults, and a warning
    ("number-version-of-5000-digits-in-track.yaml", "validate"): 1,
    ("number-hex-too-large-in-replay.yaml", "replay --verify"): 1,
    ("number-sexagesimal-in-replay-seed.yaml", "replay"): "far too large",
    ("number-binary-too-large-in-records.yaml", "records"): "far too large",
    ("number-octal-too-large-in-championship.yaml", "championship"): "far too large",
    ("number-sexagesimal-real-in-saved-game.yaml", "saved game"): "must be a whole number",
    ("number-exponent-too-large-in-track.yaml", "track"): "finite",
    ("draft-infinite-coordinates.yaml", "validate"): 1,
    ("draft-infinite-coordinates.yaml", "editor autosave"): "ok",
    ("control-formfeed-in-settings.yaml", "settings"): "ok",  # the defaults, with a warning
}
#: Files whose several problems are each a line of their own, as ``validate`` documents.
SEVERAL_PROBLEMS = {"draft-infinite-coordinates.yaml"}


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("RACETRACK_HOME", str(home))
    folder = tmp_path / "corpus"
    prepare(folder, home)
    monkeypatch.chdir(folder)  # relative references (a licence text) resolve here
    return folder


def test_the_corpus_has_a_file_for_each_kind():
    names = corpus_files()
    for kind in ("control-bell", "control-formfeed", "control-escape", "control-delete",
                 "control-c1", "control-fffe", "name-nul", "name-lone-surrogate",
                 "name-escape-sequence", "path-escape", "reference-to-licence",
                 "championship-etc-passwd", "championship-own-draft", "driver-godlike",
                 "draft-infinite", "replay-without-result", "replay-cut-off",
                 "replay-version-true", "replay-unknown-key", "saved-game-without-result",
                 "rules-base-etc-shadow", "rules-base-foreign", "alias-bomb", "deep-nesting"):
        assert any(name.startswith(kind) for name in names), kind
    for name in names:
        if name.endswith(".yaml"):
            assert (Path(__file__).parent / "hostile" / name).read_bytes().startswith(b"# ")


@pytest.mark.parametrize("name", corpus_files())
def test_every_loader_refuses_a_hostile_file_with_its_own_error(corpus, name):
    outcome = run_loaders(corpus / name)
    assert set(outcome) == set(LOADER_NAMES)
    for reader, result in outcome.items():
        expected = EXPECTED.get((name, reader))
        if expected is not None:
            assert expected in result, (reader, result)
        if name != "secret.yaml":  # reached through a reference, a file is never quoted
            assert "hunter2" not in result and "password" not in result


@pytest.mark.parametrize("name", corpus_files())
def test_every_command_gives_one_line_and_the_documented_exit_code(corpus, name, capsys):
    for command in COMMANDS:
        argv = [part.format(file=name, out=str(corpus / "sheet.png")) for part in command]
        code = main(argv)
        out, err = capsys.readouterr()
        label = " ".join(p for p in command if not p.startswith("{"))
        expected = EXPECTED.get((name, label))
        if isinstance(expected, int):
            assert code == expected, (label, err)
        elif isinstance(expected, str):
            assert expected in err, (label, err)
        assert code in (0, 1), (label, code, err)
        errors = err.splitlines()
        assert (code == 1) == bool(errors), (label, err)
        assert all(line.startswith("error: ") for line in errors), (label, err)
        if name not in SEVERAL_PROBLEMS:
            assert len(errors) <= 1, (label, err)
        assert all(c.isprintable() for line in (out + err).splitlines() for c in line)
        if name != "secret.yaml":
            assert "hunter2" not in out + err


def test_nothing_is_written_outside_the_data_folder(corpus, tmp_path):
    """Every game a saved file can start is saved under the data folder, whatever its names."""
    from racetrack.trees.record import GAMES, load_game

    state = load_game(corpus / "path-escape-in-player-name.yaml").final_state()
    path = GAMES.save_finished(state)
    assert path.parent == tmp_path / "home" / "data" / "graph-trees"
    assert not (tmp_path / "home" / "data" / "records.yaml").exists()


# --------------------------------------------------------------------------------------------
# The big files: bounded time (CPU seconds) and memory (peak resident size), in a child


CPU_SECONDS = 60
MEGABYTES = 300  # a bare command peaks at about 40; the 16 MiB replay at about 130

#: The child runs the command and reports its exit code and its peak resident memory: Linux's
#: VmHWM, the high-water mark of this program alone (ru_maxrss would carry over the peak of
#: the test process that started it).
CHILD = """
import json, resource, sys
from racetrack.cli import main
code = main(sys.argv[1:])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
try:
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) // 1024
except (OSError, StopIteration):
    pass
print(json.dumps({"code": code, "megabytes": peak}), file=sys.stderr)
"""


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    return large_files(tmp_path_factory.mktemp("large"))


@pytest.mark.parametrize("kind, command, words", [
    ("tiny points", ("validate", "{file}"), ("refusing", "more than")),
    ("many moves", ("replay", "{file}", "--verify"), ("refusing", "more than")),
    ("over the limit", ("trees-replay", "{file}", "--verify"), ("refusing", "more than")),
    ("base-60 track", ("validate", "{file}"), ("far too large",)),
    ("base-60 replay", ("replay", "{file}", "--verify"), ("far too large",)),
])
def test_a_big_file_is_refused_in_bounded_time_and_memory(big, tmp_path, kind, command,
                                                          words):
    argv = [part.format(file=big[kind]) for part in command]
    env = {**os.environ, "RACETRACK_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True,
                          text=True, env=env, preexec_fn=_limit_cpu, timeout=600)
    *errors, report = done.stderr.splitlines()
    measured = json.loads(report)
    assert measured["code"] == 1 and len(errors) == 1 and errors[0].startswith("error: ")
    assert any(word in errors[0] for word in words), errors
    assert measured["megabytes"] < MEGABYTES, measured


def test_ten_thousand_records_are_read_off_a_file_the_game_wrote(big):
    from racetrack.records import read_records

    table, problem = read_records(big["10,000 records"])  # as the window reads them
    assert problem is None and len(table) == 10_000 and len(table.entries[-1].moves) == 20
    assert table.find(table.entries[4_321].key) is table.entries[4_321]


@pytest.mark.parametrize("name", [n for n in corpus_files() if n.startswith("number-")])
def test_a_number_no_float_holds_never_stops_a_start_a_list_or_the_editor(corpus, name):
    """In the interrupted race it is kept aside and said; among the replays it is one broken
    entry beside the others; as the editor's autosave it is kept aside and said."""
    from racetrack import archive
    from racetrack.draft import restore_autosave
    from racetrack.replay import save_replay
    from racetrack.settings import load_settings, replays_dir, settings_path

    replays_dir().mkdir(parents=True, exist_ok=True)
    shutil.copy(corpus / name, archive.unfinished_path())
    found = archive.read_unfinished()
    assert not found.races and len(found.messages) == 1
    assert "kept as unfinished-race.yaml.bad" in found.messages[0]
    assert archive.load_unfinished() is None  # nothing left to resume
    state = _finished_race()
    save_replay(state, replays_dir() / "good.yaml")
    shutil.copy(corpus / name, replays_dir() / name)
    entries = {e.path.name: e for e in archive.saved_races()}
    assert entries["good.yaml"].replay is not None
    assert entries[name].replay is None and "\n" not in entries[name].problem
    autosave = corpus / "editor-autosave.yaml"
    shutil.copy(corpus / name, autosave)
    draft, message = restore_autosave(autosave)
    assert "kept as editor-autosave.yaml.bad" in message and "\n" not in message
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(corpus / name, settings_path())
    assert load_settings() is not None  # the defaults where a value cannot be read


def _finished_race():
    from racetrack.ai import make_driver
    from racetrack.game import Race
    from racetrack.model import CarSetup
    from racetrack.rules import load_rules
    from racetrack.track import find_track, load_track

    state = Race(load_track(find_track("oval")), load_rules("gardner"),
                 [CarSetup("Ann", "red", "easy")]).start()
    driver = make_driver("expert")
    while not state.is_over:
        state.apply(driver.choose(state))
    return state
