"""A championship in the window: New championship, shop, race, results and standings, twice,
with the prize money carried into the next shop, a resume from the menu and a damaged file."""

from __future__ import annotations

import pytest

from racetrack.ai import make_driver
from racetrack.championship import default_path, load_championship
from racetrack.settings import PlayerChoice
from racetrack.ui.scenes.championship import ChampionshipSetupScene, StandingsScene
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.results import ResultsScene
from racetrack.ui.scenes.shop import ShopScene
from tests.ui.conftest import button, click, run


def pick_track(app, setup, stem):
    index = next(i for i, c in enumerate(setup.tracks) if c.path.stem == stem)
    setup.scroll_to(index)
    run(app, 2)
    click(app, dict(setup._cells())[index].center)


def shop_and_race(app) -> ResultsScene:
    """Buy damage points in the shop, then drive the human car by clicking the points the
    expert driver would choose, until the results show."""
    shop = app.scenes[-1]
    assert isinstance(shop, ShopScene)
    damage = [item for item, _ in shop.items].index("damage")
    for _ in range(3):
        click(app, shop.form.widgets[2 * damage + 1].rect.center)
    click(app, button(shop, "Done").rect.center)
    scene = app.scenes[-1]
    assert isinstance(scene, RaceScene)
    scene.animation_seconds = 0.0
    scene.preparing.result()
    expert = make_driver("expert")
    for _ in range(3000):
        if app.scenes[-1] is not scene:
            break
        if scene.human_turn and not scene.state.is_over:
            move = expert.choose(scene.state.clone())
            point = tuple(round(v) for v in scene.camera.to_screen(*move.target))
            assert app.screen.get_rect().collidepoint(point)
            click(app, point)
        elif scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1, 0.2)
    results = app.scenes[-1]
    assert isinstance(results, ResultsScene)
    return results


@pytest.mark.long
def test_a_two_race_championship_carries_money_and_resumes_from_the_menu(app):
    menu = MenuScene(app)
    app.push(menu)
    run(app, 1)
    click(app, button(menu, "Championship").rect.center)
    setup = app.scenes[-1]
    assert isinstance(setup, ChampionshipSetupScene)
    setup.players = [PlayerChoice("Ann", "red", "human"), PlayerChoice("Bot", "blue", "easy")]
    while setup.rules.value != "baker-bond":
        setup.rules.step(1)
    setup.relayout()
    run(app, 1)
    assert not button(setup, "Start series").enabled  # no tracks yet
    pick_track(app, setup, "oval")
    pick_track(app, setup, "oval")
    assert setup.track_names() == ["oval", "oval"]
    click(app, button(setup, "Start series").rect.center)

    results = shop_and_race(app)
    click(app, button(results, "Standings").rect.center)
    standings = app.scenes[-1]
    assert isinstance(standings, StandingsScene)
    series = standings.series
    assert len(series.results) == 1 and sorted(series.points.values()) == [2, 3]
    carried = dict(series.money)
    assert sorted(carried.values())[-1] >= 30  # the winner's prize at least
    assert standings.saving.wait(10) and not standings.problem  # written behind the frame
    assert load_championship(default_path()).money == carried  # saved as it went

    # Quit to the menu; the championship waits there.
    click(app, button(standings, "Back to menu").rect.center)
    menu = app.scenes[-1]
    run(app, 1)
    click(app, button(menu, "Resume championship").rect.center)
    standings = app.scenes[-1]
    assert isinstance(standings, StandingsScene)
    click(app, button(standings, "Next race").rect.center)
    shop = app.scenes[-1]
    assert isinstance(shop, ShopScene)
    assert shop.budget == 100 + carried["Ann"]  # the money carried into the second shop

    results = shop_and_race(app)
    click(app, button(results, "Standings").rect.center)
    final = app.scenes[-1]
    assert isinstance(final, StandingsScene) and final.series.is_over
    # Three points for a win and two for second place, in each race; a car put out (the
    # computer's rear guns can do it to a car close behind) wins neither points nor a prize.
    expected = sum(3 + (2 if result["prizes"][result["ranking"][1]] else 0)
                   for result in final.series.results)
    assert len(final.series.results) == 2
    assert sum(final.series.points.values()) == expected
    assert [button_.text for button_ in final.form.widgets] == ["Back to menu"]
    assert final.saving.wait(10) and not final.problem  # written behind the frame
    assert load_championship(default_path()).is_over
    click(app, button(final, "Back to menu").rect.center)
    assert not any(getattr(w, "text", "") == "Resume championship"
                   for w in app.scenes[-1].form.widgets)


def test_a_hostile_championship_file_does_not_crash_the_menu(app):
    path = default_path()
    path.parent.mkdir(parents=True)
    path.write_text("racetrack-championship: 1\nrules: baker-bond\ntracks: [oval]\n"
                    "seed: .inf\nentrants: [{name: Ann, driver: easy}]\n")
    menu = MenuScene(app)
    app.push(menu)
    run(app, 1)  # the menu reads the file when it lays itself out
    assert "damaged" in menu.series_problem and menu.series is None


def test_a_damaged_championship_file_is_reported_and_kept(app):
    path = default_path()
    path.parent.mkdir(parents=True)
    path.write_text("racetrack-championship: 1\nrules: baker-bond\n")  # no tracks, no one
    menu = MenuScene(app)
    app.push(menu)
    run(app, 1)
    assert "damaged" in menu.series_problem
    assert not any(getattr(w, "text", "") == "Resume championship"
                   for w in menu.form.widgets)
    click(app, button(menu, "Championship").rect.center)
    setup = app.scenes[-1]
    setup.players = [PlayerChoice("Bot", "blue", "easy"), PlayerChoice("Cy", "green", "easy")]
    setup.relayout()
    run(app, 1)
    pick_track(app, setup, "oval")
    pick_track(app, setup, "hairpins")
    click(app, button(setup, "Start series").rect.center)
    aside = path.with_name("championship-damaged-1.yaml")
    assert aside.read_text().startswith("racetrack-championship: 1\nrules: baker-bond")
    assert load_championship(path).tracks == ["oval", "hairpins"]
    assert isinstance(app.scenes[-1], RaceScene)  # computer cars only: no shop to stop at


def test_a_race_interrupted_mid_championship_resumes_within_it(app):
    menu = MenuScene(app)
    app.push(menu)
    run(app, 1)
    click(app, button(menu, "Championship").rect.center)
    setup = app.scenes[-1]
    setup.players = [PlayerChoice("Bot", "blue", "easy"), PlayerChoice("Cy", "green", "easy")]
    setup.relayout()
    run(app, 1)
    pick_track(app, setup, "oval")
    pick_track(app, setup, "oval")
    click(app, button(setup, "Start series").rect.center)
    scene = app.scenes[-1]
    scene.preparing.result()
    while len(scene.state.history) < 4:
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1, 0.2)
    moves = len(scene.state.history)
    scene.close()
    app.scenes.clear()  # the window closed mid-race
    menu = MenuScene(app)
    app.push(menu)
    run(app, 1)
    texts = [w.text for w in menu.form.widgets]
    assert "Resume championship" in texts and "Resume race" not in texts
    click(app, button(menu, "Resume championship").rect.center)
    resumed = app.scenes[-1]
    assert isinstance(resumed, RaceScene) and len(resumed.state.history) == moves
    resumed.close()


def test_next_race_on_a_track_edited_into_a_draft_says_so_and_starts_nothing(app):
    import shutil

    from racetrack.championship import Championship, Entrant
    from racetrack.settings import tracks_dir
    from racetrack.track import find_track

    tracks_dir().mkdir(parents=True)
    mine = tracks_dir() / "mine.yaml"
    shutil.copy(find_track("oval"), mine)
    series = Championship("gardner", [str(mine)], [Entrant("Ann", "red", "easy"),
                                                   Entrant("Bob", "blue", "easy")])
    app.push(MenuScene(app))
    standings = StandingsScene(app, series)
    app.push(standings)
    run(app, 1)
    mine.write_text("racetrack-track: 1\nname: Half drawn\nouter: [[0, 0], [9, 0], [9, 9]]\n")
    click(app, button(standings, "Next race").rect.center)
    assert app.scenes[-1] is standings and "cannot be raced" in standings.problem
    standings.draw(app.screen)


def test_picking_tracks_keeps_the_list_still_and_new_races_rules_unchanged(app):
    from racetrack.settings import load_settings
    from racetrack.ui.scenes.setup import SetupScene

    before = load_settings()
    menu = MenuScene(app)
    app.push(menu)
    run(app, 1)
    click(app, button(menu, "Championship").rect.center)
    setup = app.scenes[-1]
    assert setup.rules.value == "baker-bond"
    run(app, 2)
    setup.picker.vert_scroll_bar.set_scroll_from_start_percentage(1.0)  # the list's end
    run(app, 2)
    index, rect = setup._cells()[-1]
    click(app, rect.center, 3)
    click(app, rect.center, 3)  # the same spot again: the same track, the list stayed
    assert setup.series == [index, index]
    setup.players = [PlayerChoice("Ann", "red", "human"), PlayerChoice("Bot", "blue", "easy")]
    click(app, button(setup, "Start series").rect.center)
    kept = load_settings()
    assert (kept.rules, kept.track, kept.moves) == (before.rules, before.track, before.moves)
    assert SetupScene(app).rules.value == before.rules
