"""Maps imported into the tracks folder show in the New race screen; one whose finish and
checkpoints are areas is shown, and refused for racing in one line, never a crash."""

from __future__ import annotations

from racetrack.imports import bundled_map_paths, import_map
from racetrack.settings import tracks_dir
from racetrack.track import save_track
from racetrack.ui.scenes.setup import SetupScene
from tests.ui.conftest import run


def test_an_imported_map_is_listed_and_refused_for_racing_with_a_reason(app):
    tracks_dir().mkdir(parents=True, exist_ok=True)
    for path in bundled_map_paths():
        if path.name in ("karo-hairpin.txt", "ink-kidney.png"):
            save_track(import_map(path).track(), tracks_dir() / f"{path.stem}.yaml")
    setup = SetupScene(app)
    app.push(setup)
    run(app, 2)
    names = [choice.track.name for choice in setup.tracks]
    assert "Karo hairpin" in names and "Ink kidney" in names
    setup.selected = names.index("Karo hairpin")
    setup.start()
    assert "cannot be raced by this version's rules yet" in setup.error
    assert app.scenes[-1] is setup
    setup.error = ""
    setup.selected = names.index("Ink kidney")  # a picture with its start line races
    setup.start()
    assert setup.error == "" and app.scenes[-1] is not setup
