"""Maps imported into the tracks folder show in the New race screen and race: one whose finish
and checkpoints are areas (cells) as well as a picture with its start line."""

from __future__ import annotations

from racetrack.editing import Leave
from racetrack.imports import bundled_map_paths, import_map
from racetrack.settings import tracks_dir
from racetrack.track import find_track, load_track, save_track
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


def imported_race(app, tmp_path, name="karo-hairpin.txt", rules="karopapier", humans=1):
    from racetrack.settings import PlayerChoice
    from racetrack.ui.scenes.menu import MenuScene

    path = next(p for p in bundled_map_paths() if p.name == name)
    out = tmp_path / f"{path.stem}.yaml"
    save_track(import_map(path).track(), out)
    app.push(MenuScene(app))
    players = (PlayerChoice("Ann", "red", "human"),) * humans + (
        PlayerChoice("Bot", "blue", "easy"),)
    scene = app.routes.start_race(out, rules, players, seed=2, animation_seconds=0.0,
                                  replace=False)
    scene.preparing.result()
    return scene


def on_screen(scene, bounds) -> bool:
    minx, miny, maxx, maxy = bounds
    camera = scene.camera
    (left, top), (right, bottom) = camera.to_screen(minx, miny), camera.to_screen(maxx, maxy)
    return (left >= camera.offset_x and top >= camera.offset_y
            and right <= camera.offset_x + camera.width
            and bottom <= camera.offset_y + camera.height)


def test_a_small_map_stays_in_view_whole_after_the_announcement(app, tmp_path):
    from racetrack.ui.scenes.race_camera import FOLLOW_SQUARES

    scene = imported_race(app, tmp_path)
    run(app, 120, 1 / 30)  # the announcement ends by itself
    assert not scene.intro and not scene.camera.followed
    track = scene.race.track
    assert on_screen(scene, track.bounds)  # the start, every checkpoint cell and the finish
    assert scene.camera.scale >= scene.camera.height / FOLLOW_SQUARES  # and readable
    scene._zoom(1.5)  # the player's own zoom: the race follows the cars again
    assert scene.camera.followed


def test_start_cells_are_chosen_and_a_sprint_shows_no_laps(app, tmp_path):
    import pygame

    from racetrack.ui.render import hud

    scene = imported_race(app, tmp_path)
    assert scene.state.placing
    assert hud.start_places(scene.race.track) == "a start cell"
    surface = pygame.Surface((1000, 700))
    hud.draw_bar(surface, scene.state, False)  # says so in the bar (drawn without failing)
    while scene.state.placing:
        scene.state.apply(scene.state.legal_moves()[0])
    words = hud.car_numbers(scene.state, scene.state.current_car)
    assert not any(w.startswith("lap") for w in words)
    assert "checkpoints 0/3" in words
    assert hud.start_places(load_track(find_track("oval"))) == "a start point on the line"


#: The karopapier optimum on the hairpin from the start cell (1, 7), as far as the top right
#: corner, where the car list and the legend stand.
HAIRPIN_ROUTE = [(1, 7), (2, 6), (3, 5), (5, 3), (8, 2), (10, 2), (11, 3), (13, 5), (14, 6),
                 (16, 6), (18, 6), (19, 7), (19, 9), (19, 12), (20, 14), (22, 15), (25, 16),
                 (28, 16), (30, 15), (31, 13), (32, 10), (32, 7), (31, 4)]


def test_the_car_list_and_legend_keep_clear_of_the_move_to_make(app, tmp_path):
    """A map seen whole reaches into the window's corners: where the car to move and its
    candidates lie under the cards at the top right, the cards stand at the bottom right."""
    import pygame

    from racetrack.geometry import Vec
    from racetrack.model import Move
    from racetrack.settings import PlayerChoice
    from racetrack.ui.scenes.menu import MenuScene

    path = next(p for p in bundled_map_paths() if p.name == "karo-hairpin.txt")
    out = tmp_path / "hairpin.yaml"
    save_track(import_map(path).track(), out)
    app.push(MenuScene(app))
    scene = app.routes.start_race(out, "karopapier", (PlayerChoice("Ann", "red", "human"),),
                                  seed=2, animation_seconds=0.0, replace=False)
    scene.preparing.result()
    run(app, 120, 1 / 30)  # the announcement ends: the whole map stays in view
    state = scene.state
    for point in HAIRPIN_ROUTE:
        state.apply(Move(Vec(*point)))
    found = scene.finish_outlooks()
    run(app, 2)
    sizes = [(260, 70), (220, 110)]  # the car list and the legend, as large as they get here
    points = [scene.camera.to_screen(*o.target) for o in found]
    corner = pygame.Rect(scene.panel_boxes(sizes, [])[0].topleft, (260, 190))
    assert any(corner.collidepoint(p) for p in points)  # the top right would hide them
    boxes = scene.panel_boxes(sizes, found)
    assert not any(box.collidepoint(p) for box in boxes for p in points)
    assert boxes[0].top > scene.camera.height // 2 and boxes[1].top > boxes[0].bottom
    scene.draw(pygame.Surface(app.screen.get_size()))  # and the cards are drawn there


def test_the_editor_tests_and_races_a_map_by_its_sources_rules(app, tmp_path):
    """Opened in the editor, a Karopapier map is test driven and raced by karopapier's rules
    (as the game races it), a character grid by Sutton & Barto's; the player's own choice of
    rules stays as it was, and comes back for a drawing that names none (a picture, a
    track)."""
    from racetrack.settings import load_settings
    from racetrack.ui.scenes.editor import EditorScene

    maps = {p.name: p for p in bundled_map_paths()}
    editor = EditorScene(app, maps["karo-zigzag.txt"])
    app.push(editor)
    run(app, 1)
    assert editor.state.rules.name == "karopapier" and editor.panel.rules_name == "karopapier"
    assert any("races by its source's rules, karopapier" in t.text for t in editor.toasts)
    grid = tmp_path / "barto-bend.track"
    grid.write_text(maps["barto-bend.track"].read_text())
    editor._open_file(grid)
    assert editor.state.rules.name == "sutton-barto" and editor.panel.rules_name == "sutton-barto"
    assert load_settings().rules == "gardner"  # not remembered as the player's choice
    editor._open_file(maps["ink-kidney.png"])  # a picture names no rules: the player's again
    assert editor.state.rules.name == "gardner" and editor.panel.rules_name == "gardner"
    assert any("your own rules, gardner" in t.text for t in editor.toasts)
    editor._open_file(maps["karo-zigzag.txt"])
    editor.choose_rules("baker")  # chosen by the player while the map is open: theirs now
    editor._open_file(find_track("oval"))
    assert editor.state.rules.name == "baker" and editor.panel.rules_name == "baker"
    editor.state.request(Leave.NEW)
    editor.state.new_from(None)  # a new drawing keeps the player's rules too
    editor._after()
    assert editor.state.rules.name == "baker"
