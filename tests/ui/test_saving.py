"""Files written behind the window: after the writes queued before them, problems in a line,
and a race's end that never writes on the window's thread."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from racetrack import archive
from racetrack.settings import PlayerChoice, load_settings, save_settings
from racetrack.ui.saving import Saving, SettingsWriter
from racetrack.ui.scenes.results import ResultsScene
from tests.ui.conftest import button, run
from tests.ui.scenes.test_race import race_scene


def test_a_saving_waits_for_the_writes_queued_before_it(tmp_path):
    queued = ThreadPoolExecutor(max_workers=1)
    first = tmp_path / "first"
    queued.submit(lambda: (time.sleep(0.2), first.write_text("autosave")))

    def write():
        assert first.read_text() == "autosave"  # landed before
        (tmp_path / "second").write_text("finished")
        return tmp_path / "second"

    saving = Saving(write, after=queued)
    assert not saving.done
    assert saving.wait(5) and saving.path == tmp_path / "second" and not saving.problem


def test_a_failed_write_says_why_in_one_line(tmp_path):
    def write():
        raise PermissionError(13, "Permission denied")

    saving = Saving(write)
    assert saving.wait(5)
    assert saving.path is None and saving.problem == "Could not save: Permission denied"
    assert Saving.finished(tmp_path).path == tmp_path
    refused = Saving(write, failure="Could not save the record")
    assert refused.wait(5) and refused.problem == "Could not save the record: Permission denied"


def test_the_windows_own_settings_are_written_in_order_and_keep_a_screens_save(app):
    writer = SettingsWriter()
    gate = threading.Event()
    writer._pool.submit(gate.wait)  # the writer busy: the changes wait their turn
    writer.change(zoom=30.0)
    writer.change(windows=(("1920x1080", (900, 700)),))
    save_settings(load_settings().with_race("spiral", "baker", load_settings().players))
    assert load_settings().zoom is None  # not on the frame's thread
    gate.set()
    writer.close()
    settings = load_settings()
    assert (settings.zoom, settings.window_for((1920, 1080)), settings.track,
            settings.rules) == (30.0, (900, 700), "spiral", "baker")


def test_remembering_the_zoom_never_writes_on_the_frame(app, monkeypatch):
    import racetrack.settings as settings_module

    frame = threading.current_thread()
    writers: list[threading.Thread] = []
    real = settings_module.write_yaml

    def spy(*args, **kwargs):
        writers.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(settings_module, "write_yaml", spy)
    app.remember(zoom=42.0)
    assert app.settings.zoom == 42.0  # the app knows at once
    app.settings_writer.wait()
    assert load_settings().zoom == 42.0 and writers and frame not in writers


def test_the_replay_is_written_off_the_frame_and_the_results_say_when(app, monkeypatch):
    writers: list[threading.Thread] = []
    gate = threading.Event()
    save_finished = archive.save_finished

    def slow_save(state, *args, **kwargs):
        writers.append(threading.current_thread())
        gate.wait(10)  # the disk is slow: the window goes on meanwhile
        return save_finished(state, *args, **kwargs)

    monkeypatch.setattr(archive, "save_finished", slow_save)
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),
                             PlayerChoice("Bot", "blue", "easy")), track="oval")
    for _ in range(3000):
        if not isinstance(app.scenes[-1], type(scene)):
            break
        if scene.human_turn:
            scene.play(scene.state.legal_moves()[0])
        elif scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1, 0.2)
    results = app.scenes[-1]
    assert isinstance(results, ResultsScene)
    for _ in range(100):  # the autosaves queued before it land first
        run(app, 1)
        if writers:
            break
        time.sleep(0.05)
    assert writers and threading.current_thread() not in writers
    assert results.saved_to == "Saving the replay…"
    assert not button(results, "Watch replay").enabled
    gate.set()
    assert results.saving.wait(10)
    run(app, 2)
    assert results.saved_to.startswith("Replay saved as ")
    assert button(results, "Watch replay").enabled
    assert not any(getattr(w, "text", "") == "Save replay" for w in results.form.widgets)
    assert archive.unfinished_races() == []  # the race in progress is forgotten
