"""Graph Trees in the window: from the menu into a game, played by clicking the paper."""

from __future__ import annotations

import pygame

from racetrack.games.trees import TreesGame, load_tree_rules
from racetrack.games.trees.ai import GreedyPlayer
from racetrack.games.trees.record import GAMES
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.playback import PlaybackScene
from racetrack.ui.scenes.trees import TreesScene
from racetrack.ui.scenes.trees_menu import TreesMenuScene
from tests.ui.conftest import click, press, run


def screen(scene, point):
    return tuple(round(v) for v in scene.camera.to_screen(*point))


def button(scene, text):
    return next(w for w in scene.form.widgets if getattr(w, "text", "") == text)


def wait_for_human(app, scene):
    for _ in range(300):
        if scene.human_turn or scene.state.is_over:
            return
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1, dt=0.2)
    raise AssertionError("the computer never moved")


def game(kinds, rules="quick", seed=2):
    return TreesGame(load_tree_rules(rules), TreesGame.default_players(kinds), seed)


def test_from_the_main_menu_to_a_game_against_the_computer(app):
    app.push(MenuScene(app))
    run(app, 1)
    button(app.scenes[-1], "Graph Trees").press()
    assert isinstance(app.scenes[-1], TreesMenuScene)
    run(app, 1)
    button(app.scenes[-1], "Start game").press()
    scene = app.scenes[-1]
    assert isinstance(scene, TreesScene)
    assert [p.kind for p in scene.game.players] == ["human", "greedy"]


def test_a_few_turns_played_by_clicking_green_dots(app):
    app.push(MenuScene(app))
    scene = app.routes.trees(game(["human", "greedy"]), replace=False)
    coach = GreedyPlayer(1)
    for _ in range(4):
        wait_for_human(app, scene)
        run(app, 1)
        move = coach.choose(scene.state)
        if not move.places:
            break
        if (scene.source, scene.track) != ((scene.state.tracks[move.track].tip, move.track)
                                           if move.track is not None else (move.node, None)):
            # Choose where to draw from first: a tip extends, a node branches.
            point = scene.state.tracks[move.track].tip if move.track is not None else move.node
            click(app, screen(scene, point))
            if move.track is None and scene.track is not None:
                click(app, screen(scene, point))  # the tip again: a new track from it
        before = len(scene.state.history)
        click(app, screen(scene, move.target))
        assert len(scene.state.history) == before + 1, scene.toasts
        assert scene.state.history[-1] == (0, move)
    wait_for_human(app, scene)
    assert len(scene.state.history) >= 6
    assert [len(u.recording.moves) for u in GAMES.unfinished()] == [len(scene.state.history)]


def test_an_orange_dot_is_refused_with_the_reason(app):
    app.push(MenuScene(app))
    scene = app.routes.trees(game(["human", "human"]), replace=False)
    run(app, 1)
    refused = next(c for c in scene.candidates() if not c.legal)  # below the bottom edge
    click(app, screen(scene, refused.target))
    assert scene.state.history == []
    assert any("Not there: off the sheet" in t.text for t in scene.toasts)


def test_agreeing_ends_the_game_which_is_saved_and_can_be_watched(app):
    app.push(MenuScene(app))
    app.push(TreesMenuScene(app))
    run(app, 1)
    scene = app.routes.trees(game(["human", "human"]), replace=False)
    run(app, 1)
    first = next(c for c in scene.candidates() if c.legal)
    click(app, screen(scene, first.target))
    agree = button(scene, "Agree to end")
    click(app, agree.rect.center)
    click(app, agree.rect.center)
    assert scene.state.is_over
    run(app, 1)
    assert scene.saving is not None and scene.saving.wait(10)  # written behind the frame
    run(app, 1)
    assert scene.saving_said and scene.toasts[-1].text.startswith("Game saved as ")
    entries = GAMES.saved()
    assert len(entries) == 1 and entries[0].recording.verify().is_over
    assert GAMES.unfinished() == []  # the copy in progress is gone
    press(app, pygame.K_ESCAPE)
    menu = app.scenes[-1]
    assert isinstance(menu, TreesMenuScene)
    menu.listing.wait(10)  # the saved games are read off the window's thread
    run(app, 1)
    next(w for w in menu.form.widgets if entries[0].path.name in w.tooltip).press()
    viewer = app.scenes[-1]
    assert isinstance(viewer, PlaybackScene) and viewer.index == 0
    press(app, pygame.K_RIGHT)
    assert viewer.index == 1 and len(viewer.states[1].tracks) == 1
    press(app, pygame.K_END)
    assert viewer.states[viewer.index].is_over
    press(app, pygame.K_ESCAPE)
    run(app, 1)
    delete = [w for w in menu.form.widgets if getattr(w, "text", "") == "×"]
    assert len(delete) == 1
    click(app, delete[0].rect.center, frames=2)
    assert entries[0].path.exists(), "deleting asks first"
    click(app, menu.form.dialogs[0].confirm_button.rect.center, frames=2)
    assert not entries[0].path.exists()
    assert not [w for w in menu.form.widgets if getattr(w, "text", "") == "×"]


def test_a_saved_game_plays_back_with_the_scrub_bar_the_speed_and_take_over(app):
    from racetrack.games.trees.ai import make_player
    from racetrack.games.trees.record import save_game

    played = game(["greedy", "greedy"], seed=5).start()
    players = [make_player("greedy", 1), make_player("greedy", 2)]
    while not played.is_over:
        played.apply(players[played.current_player].choose(played))
    path = GAMES.folder() / "played.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    save_game(played, path)
    app.push(MenuScene(app))
    viewer = app.routes.watch(GAMES.load(path))
    assert isinstance(viewer, PlaybackScene)
    run(app, 1)
    last = len(played.history)
    assert viewer.last == last
    click(app, (viewer.bar.x + viewer.bar.w // 2, viewer.bar.centery))
    assert abs(viewer.index - last // 2) <= 1
    assert len(viewer.states[viewer.index].history) == viewer.index
    press(app, pygame.K_PLUS)
    press(app, pygame.K_PLUS)
    assert viewer.speed == "4x" and viewer.speed_list.value == "4x"
    start = viewer.index
    press(app, pygame.K_SPACE)
    run(app, 6, 0.1)  # 0.6 s at four times: four moves (one at the usual speed)
    assert viewer.playing and viewer.index - start >= 3
    press(app, pygame.K_SPACE)
    viewer.go(3)
    viewer.take_over()
    viewer.confirm_take_over()  # the player to move at that point, the other plays on
    scene = app.scenes[-1]
    assert isinstance(scene, TreesScene) and scene.state.history == played.history[:3]
    mover = played.history[3][0]
    assert [p.is_human for p in scene.game.players] == [i == mover for i in range(2)]
    assert app.scenes[-2] is not viewer  # in place of the playback
