"""The window with hostile files in every place the game reads: it starts, every screen opens
and draws, and what could not be read is said (and kept aside, not overwritten)."""

from __future__ import annotations

import shutil

import pygame

from racetrack.base.settings import replays_dir, settings_path, tracks_dir
from racetrack.games import archive
from racetrack.games.championship import default_path
from racetrack.games.records import records_path
from racetrack.games.trees.record import GAMES, games_dir
from racetrack.ui.scenes.editor import EditorScene, autosave_path
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.replays import ReplaysScene
from racetrack.ui.scenes.setup import SetupScene
from racetrack.ui.scenes.trees_menu import TreesMenuScene
from tests.hostile_corpus import CORPUS, corpus_files
from tests.ui.conftest import run


def hostile_home() -> None:
    """Every file the game reads at start, hostile; the folders full of the corpus."""
    places = {settings_path(): "control-formfeed-in-settings.yaml",
              default_path(): "control-escape-in-championship.yaml",
              records_path(): "control-delete-in-records.yaml",
              archive.unfinished_path(): "driver-godlike.yaml",
              autosave_path(): "draft-infinite-coordinates.yaml",
              GAMES.legacy_path(): "name-escape-sequence-in-saved-game.yaml"}
    for target, name in places.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CORPUS / name, target)
    for folder in (replays_dir(), games_dir(), tracks_dir()):
        folder.mkdir(parents=True, exist_ok=True)
        for name in corpus_files():
            shutil.copy(CORPUS / name, folder / name.replace(".txt", ".yaml"))


def show(app, scene, frames=2):
    app.push(scene)
    run(app, frames)
    app.screen.fill((0, 0, 0))
    scene.draw(app.screen)


def test_every_screen_opens_over_hostile_files_and_says_what_was_kept(app):
    hostile_home()
    menu = MenuScene(app)
    show(app, menu)
    texts = [w.text for w in menu.form.widgets]
    assert "Resume race" not in texts and "Resume championship" not in texts
    assert any("kept as unfinished-race.yaml.bad" in note for note in menu.notices)
    assert (replays_dir() / "unfinished-race.yaml.bad").exists()
    assert "control character" in menu.series_problem  # drawn as "cannot be read: ..."
    show(app, SetupScene(app))
    replays = ReplaysScene(app)
    show(app, replays)
    replays.listing.wait(30)
    run(app, 2)
    replays.draw(app.screen)
    broken = [e for e in replays.entries if e.replay is None]
    assert broken and all(e.problem for e in broken)
    assert {e.path.name for e in replays.entries if e.replay is not None} >= {
        "reference-to-licence-text.yaml", "reference-to-device.yaml"}
    trees = TreesMenuScene(app)
    show(app, trees)
    trees.listing.wait(30)
    run(app, 2)
    trees.draw(app.screen)
    assert (games_dir() / "unfinished-game.yaml.bad").exists()
    editor = EditorScene(app)
    show(app, editor)
    assert any("kept as editor-autosave.yaml.bad" in t.text for t in editor.toasts)
    assert editor.state.draft.outer == ((0, 0),)  # the finite point of the drawing, and no more
    for scene in list(app.scenes):
        scene.draw(app.screen)
    assert pygame.display.get_init()
