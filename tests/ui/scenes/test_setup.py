"""The New race screen: players' names, the track list, the way round, teams."""

from __future__ import annotations

import pygame
import pytest

from racetrack.model import team_standings
from racetrack.settings import PlayerChoice, load_settings
from racetrack.track import find_track
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.results import ResultsScene
from racetrack.ui.scenes.setup import SetupScene
from tests.ui.conftest import button, click, pick, run


def test_a_players_name_follows_its_kind_and_is_all_selected_on_focus(app):
    app.push(MenuScene(app))
    setup = SetupScene(app)
    app.push(setup)
    run(app, 1)
    setup.add()
    run(app, 1)
    assert setup.players[-1].name == "Computer 2" and setup.players[-1].driver == "medium"
    drivers = [w for w in setup.form.widgets if getattr(w, "choices", None) == list(
        ("human", "easy", "medium", "hard", "expert"))]
    pick(app, drivers[-1], "human")
    assert setup.players[-1].name == "Player 2"
    names = [w for w in setup.form.widgets if type(w).__name__ == "Entry"]
    click(app, names[-1].rect.center)
    element = names[-1].element
    assert element.select_range == [0, len("Player 2")]
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Zoe"))
    run(app, 1)
    assert setup.players[-1].name == "Zoe"


def test_two_tracks_of_the_same_name_are_told_apart_in_the_track_list(app):
    import shutil

    from racetrack.settings import tracks_dir

    tracks_dir().mkdir(parents=True, exist_ok=True)
    shutil.copy(find_track("oval"), tracks_dir() / "my oval.yaml")  # also called "Oval"
    setup = SetupScene(app)
    app.push(setup)
    run(app, 2)
    ovals = [i for i, c in enumerate(setup.tracks) if c.track.name == "Oval"]
    assert len(ovals) == 2 and all(setup.named_alike(i) for i in ovals)
    labels = [setup.labels[i] for i in ovals]
    assert [entry.name for entry in labels] == ["Oval (1)", "Oval (2)"]
    assert labels[0].detail == "oval.yaml, bundled" and labels[1].detail == "my oval.yaml"
    others = [i for i in range(len(setup.tracks)) if i not in ovals]
    assert not any(setup.named_alike(i) for i in others)
    assert setup.labels[others[0]].name == setup.tracks[others[0]].track.name
    # The two cells differ (the number and the file are drawn on them; neither is chosen).
    setup.selected = others[0]
    size = (200, 150)
    first, second = (setup.cell_picture(i, size) for i in ovals)
    assert pygame.image.tobytes(first, "RGB") != pygame.image.tobytes(second, "RGB")


def test_choosing_a_track_that_names_its_rules_chooses_them(app):
    from racetrack.settings import tracks_dir

    tracks_dir().mkdir(parents=True, exist_ok=True)
    text = find_track("oval").read_text().replace("racetrack-track: 1", "racetrack-track: 2")
    (tracks_dir() / "karo oval.yaml").write_text(
        text.replace("name: Oval", "name: Karo oval\nrules: karopapier"))
    setup = SetupScene(app)
    app.push(setup)
    run(app, 2)
    mine = next(i for i, c in enumerate(setup.tracks) if c.track.name == "Karo oval")
    plain = next(i for i, c in enumerate(setup.tracks) if c.track.name == "Oval")
    setup.rules.set("levi")
    setup.pick(plain)  # a track that names none keeps the player's choice
    assert setup.rules.value == "levi"
    setup.pick(mine)
    assert setup.rules.value == "karopapier"
    setup.rules.set("gardner")  # the player may still choose others
    assert setup.chosen_rules().name == "gardner"


def test_the_setup_screen_offers_the_way_round_where_the_rules_allow(app):
    setup = SetupScene(app)
    app.push(setup)
    setup.rules.set("levi")
    setup.selected = next(i for i, c in enumerate(setup.tracks) if c.path.stem == "oval")
    run(app, 2)
    ways = [w for w in setup.form.widgets if getattr(w, "choices", None) == ["fwd", "rev"]]
    assert len(ways) == len(setup.players)
    pick(app, ways[0], "rev")
    assert setup.players[0].reverse
    setup.rules.set("gardner")
    run(app, 2)
    assert not [w for w in setup.form.widgets if getattr(w, "choices", None) == ["fwd", "rev"]]
    setup.rules.set("levi")
    run(app, 2)
    setup.start()
    run(app, 2)
    race = next(s for s in app.scenes if isinstance(s, RaceScene)).race
    assert race.cars[0].reverse and not race.cars[1].reverse


def finish(app, scene: RaceScene, limit: int = 2000) -> None:
    """Run frames until the race scene has handed over to what follows it."""
    scene.preparing.result()
    for _ in range(limit):
        if app.scenes[-1] is not scene:
            return
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1, 0.2)
    raise AssertionError("the race did not end")


@pytest.mark.long
def test_the_team_chosen_on_setup_races_and_scores(app):
    app.push(MenuScene(app))
    setup = SetupScene(app)
    app.push(setup)
    setup.players = [PlayerChoice("Ann", "red", "expert"), PlayerChoice("Bob", "blue", "easy"),
                     PlayerChoice("Cy", "green", "hard")]
    setup.selected = next(i for i, c in enumerate(setup.tracks) if c.path.stem == "oval")
    run(app, 1)
    assert not setup.teams  # gardner's rules score no teams: no team boxes
    while setup.rules.value != "baker-teams":
        setup.rules.step(1)
    run(app, 2)
    assert setup.teams
    teams = [w for w in setup.form.widgets if getattr(w, "tooltip", "").startswith("team")]
    assert len(teams) == 3
    pick(app, teams[0], "A")
    pick(app, teams[1], "B")
    pick(app, teams[2], "A")
    assert [p.team for p in setup.players] == ["A", "B", "A"]
    click(app, button(setup, "Start race").rect.center)
    scene = app.scenes[-1]
    assert isinstance(scene, RaceScene)
    assert [car.team for car in scene.race.cars] == ["Team A", "Team B", "Team A"]
    assert [p.team for p in load_settings().players] == ["A", "B", "A"]
    scene.animation_seconds = 0.0
    finish(app, scene)
    results = app.scenes[-1]
    assert isinstance(results, ResultsScene)
    points = dict(team_standings(scene.race.cars, results.state.outcome.ranking))
    assert set(points) == {"Team A", "Team B"} and sum(points.values()) == 6
    run(app, 1)  # the results draw the team line


def test_esc_in_an_open_list_closes_the_list_only_and_back_keeps_the_choices(app):
    app.push(MenuScene(app))
    setup = SetupScene(app)
    app.push(setup)
    run(app, 1)
    def rules():
        return next(w for w in setup.form.widgets if getattr(w, "choices", None) ==
                    setup.rules.choices)

    assert rules().label_of("baker").startswith("baker — Baker's Graph Racers")
    pick(app, rules(), "nystrom")
    assert setup.rules.value == "nystrom"
    run(app, 1)  # laid out again for the new rules
    rules = rules()
    click(app, rules.rect.center, 2)
    assert rules.expanded
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0,
                                         unicode=""))
    run(app, 2)
    assert app.scenes[-1] is setup and not rules.expanded  # the list closed; still here
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0,
                                         unicode=""))
    run(app, 1)
    assert app.scenes[-1] is not setup  # then back, the rules just chosen kept
    assert load_settings().rules == "nystrom"
    assert SetupScene(app).rules.value == "nystrom"


def test_the_track_list_keeps_its_place_when_a_track_is_clicked(app):
    app.push(MenuScene(app))
    setup = SetupScene(app)
    app.push(setup)
    run(app, 2)
    bar = setup.picker.vert_scroll_bar
    assert bar is not None
    bar.set_scroll_from_start_percentage(0.5)
    run(app, 2)
    cells = setup._cells()
    before = {index: rect.topleft for index, rect in cells}
    index, rect = cells[len(cells) // 2]
    click(app, rect.center, 3)
    setup.add()  # the screen is laid out again (as for rules a track names, a new size)
    run(app, 3)
    assert setup.selected == index
    assert {i: r.topleft for i, r in setup._cells()} == before  # nothing moved under it


def test_the_list_first_shows_the_chosen_track_scrolled_no_further_than_needed(app):
    app.push(MenuScene(app))
    first = SetupScene(app)
    app.push(first)
    run(app, 3)
    chosen = dict(first._cells())[first.selected]
    assert first.picker.rect.contains(chosen)
    assert first.scrolled() == 0.0 or chosen.bottom > first.picker.rect.centery
    last = len(first.tracks) - 1
    first.pick(last)
    first.start()
    app.scenes[-1].close()
    again = SetupScene(app)
    app.push(again)
    run(app, 3)
    shown = dict(again._cells())
    assert last in shown and again.picker.rect.contains(shown[last])
    # At the bottom of the list's view, not its top: the tracks above it still show.
    assert shown[last].bottom > again.picker.rect.centery
