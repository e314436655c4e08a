"""Maps imported into the tracks folder show in the New race screen and race: one whose finish
and checkpoints are areas (cells) as well as a picture with its start line."""

from __future__ import annotations

from racetrack.imports import bundled_map_paths, import_map
from racetrack.settings import tracks_dir
from racetrack.track import save_track
from racetrack.ui.scenes.setup import SetupScene
from tests.ui.conftest import run


def test_imported_maps_are_listed_and_race(app):
    tracks_dir().mkdir(parents=True, exist_ok=True)
    for path in bundled_map_paths():
        if path.name in ("karo-hairpin.txt", "ink-kidney.png"):
            save_track(import_map(path).track(), tracks_dir() / f"{path.stem}.yaml")
    setup = SetupScene(app)
    app.push(setup)
    run(app, 2)
    names = [choice.track.name for choice in setup.tracks]
    assert "Karo hairpin" in names and "Ink kidney" in names
    for name in ("Karo hairpin", "Ink kidney"):
        setup.error = ""
        setup.selected = names.index(name)
        setup.start()
        assert setup.error == "" and app.scenes[-1] is not setup, name
        race = app.scenes[-1]
        assert race.state.race.track.name == name
        app.pop()
        run(app, 1)


def test_the_editor_races_an_imported_map_opened_as_a_drawing(app, tmp_path):
    from racetrack.ui.scenes.editor import EditorScene
    from racetrack.ui.scenes.race import RaceScene

    hairpin = next(p for p in bundled_map_paths() if p.name == "karo-hairpin.txt")
    path = tmp_path / hairpin.name
    path.write_text(hairpin.read_text())
    editor = EditorScene(app)
    app.push(editor)
    run(app, 1)
    assert editor.state.open(path)  # a map opens as a new drawing to finish
    assert editor.state.track() is not None  # nothing to finish: cells give start and finish
    editor.race()
    race = app.scenes[-1]
    assert isinstance(race, RaceScene) and race.race.track.finish_area is not None
