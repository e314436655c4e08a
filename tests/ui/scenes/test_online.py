"""The online screens on SDL's dummy driver against a real server process: a whole race
played by clicking (each car moved only when the server tells it), a lost connection said and
made again, My games, and hosting a game from the New race choices."""

from __future__ import annotations

import pytest

from racetrack.net.mygames import load_games
from racetrack.search.drivers import make_driver
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.online_games import MyGamesScene
from racetrack.ui.scenes.online_host import InvitationsScene
from racetrack.ui.scenes.online_race import ConnectingScene, OnlineRaceScene
from racetrack.ui.scenes.results import ResultsScene
from tests.net.conftest import RING, launch, new_game, start_server
from tests.ui.conftest import click, run

pytestmark = pytest.mark.long


def wait_for(app, kind, frames: int = 3000):
    for _ in range(frames):
        if isinstance(app.scenes[-1], kind):
            return app.scenes[-1]
        run(app, 1)
    raise AssertionError(f"no {kind.__name__}: {app.scenes[-1]}")


def test_an_online_race_is_clicked_through_and_survives_a_lost_connection(app, tmp_path):
    home = tmp_path / "server-home"
    ring = tmp_path / "ring.yaml"
    ring.write_text(RING)
    server = start_server(home, str(tmp_path / "games.sqlite3"))
    other = None
    try:
        game = new_game(home, server.url, "--track", str(ring), "--seats", "2")
        one, two = game["seats"]
        other = launch(home, "online", "play", server.url, str(game["game"]), "--token",
                       two["token"], "--driver", "easy", "--patience", "60")
        app.push(MenuScene(app))
        app.routes.online_race(server.url, ("join", {"game": game["game"],
                                                     "token": one["token"]}))
        assert isinstance(app.scenes[-1], ConnectingScene)
        scene = wait_for(app, OnlineRaceScene)
        assert scene.seat == 0 and "Online: you drive" in scene.intro_lines()[-1]
        assert [g.game for g in load_games()[0]] == [game["game"]]  # kept in My games
        coach = make_driver("medium")
        clicks, killed = 0, False
        for _ in range(6000):
            if scene.state.is_over or not isinstance(app.scenes[-1], OnlineRaceScene):
                break
            if scene.human_turn:
                before = len(scene.state.history)
                target = coach.choose(scene.state).target
                hear = scene.session.poll
                scene.session.poll = lambda: []  # the server's answer not yet taken in
                click(app, tuple(round(v) for v in scene.camera.to_screen(*target)))
                # Proposed, not played: the car moves when the server says so.
                assert len(scene.state.history) == before and scene.proposed == before
                assert scene.status() == "Sent: waiting for the server…"
                scene.session.poll = hear
                clicks += 1
                if clicks == 3 and not killed:  # the server goes down and comes back
                    server.kill()
                    for _ in range(600):  # the loss is noticed within a few frames
                        run(app, 1)
                        if "Connection lost" in scene.status():
                            break
                    assert "Connection lost" in scene.status()
                    server = start_server(home, str(tmp_path / "games.sqlite3"), server.port)
                    killed = True
                if clicks == 4:  # a move refused as stale: the scene asks for the game again
                    asked = len(scene.toasts)
                    stale = {"v": 1, "type": "refused", "game": game["game"], "code": "stale",
                             "number": before, "reason": "not the next move"}
                    scene.session.poll = lambda stale=stale: [stale]
                    run(app, 1)
                    scene.session.poll = hear
                    assert len(scene.toasts) > asked and scene.proposed is None
            elif scene.state.current_car == 1 and scene.glide is None and scene.connection \
                    == "connected" and not scene.heard:
                assert scene.status().startswith("Player 2")
            run(app, 1)
        assert killed and scene.state.is_over
        results = wait_for(app, ResultsScene)
        assert results.state.history == scene.state.history
        # Watching it by its code: the same race, and no seat to play.
        app.routes.online_race(server.url, ("watch", {"watch": game["watch"]}))
        watching = wait_for(app, OnlineRaceScene)
        assert watching.seat is None and not watching.human_turn
        assert watching.state.history == scene.state.history
        watching.leave()
        # My games: the finished game, as the server tells it.
        app.routes.my_games()
        games = wait_for(app, MyGamesScene)
        for _ in range(600):
            if games.rows:
                break
            run(app, 1)
        assert games.rows and games.rows[0]["over"] and "won" in games.rows[0]["words"]
    finally:
        server.stop()
        if other is not None and other.poll() is None:
            other.kill()


def test_hosting_starts_a_server_and_shows_an_invitation_per_seat(app, monkeypatch):
    monkeypatch.setattr("racetrack.ui.scenes.online_host.local_server",
                        lambda: _local_server(app))
    app.push(MenuScene(app))
    setup = app.routes.host_online()
    setup.players = setup.players[:1]
    setup.add()  # a computer driver
    run(app, 2)
    click(app, setup.start_button.rect.center, frames=2)
    invitations = wait_for(app, InvitationsScene)
    for _ in range(3000):
        if invitations.reply or invitations.problem:
            break
        run(app, 1)
    try:
        assert invitations.reply is not None, invitations.problem
        assert len(invitations.reply["seats"]) == 1 and invitations.reply["watch"]
        kept = load_games()[0]
        assert kept[0].game == invitations.reply["game"] and kept[0].watch
    finally:
        _servers.pop().stop()


_servers: list = []


def _local_server(app):
    """The host's server, started as the window starts it but on a free loopback port."""
    import os
    from pathlib import Path

    home = Path(os.environ["RACETRACK_HOME"])
    server = start_server(home, str(home / "host.sqlite3"))
    _servers.append(server)
    return server.url, server.url


def test_the_host_chooses_a_time_a_move_from_a_list_that_opens_upwards(app, monkeypatch):
    """The time a move takes the take-backs' place (none is taken back online): its list
    opens upwards, inside the window, every choice in full, and the time chosen is the
    game's."""
    from racetrack.ui.scenes.online_host import MOVE_TIMES

    asked: list[dict] = []
    app.push(MenuScene(app))
    setup = app.routes.host_online()
    monkeypatch.setattr(app.routes, "invitations", lambda message, name: asked.append(message))
    run(app, 2)
    times = setup.time_choice
    assert times.choices == list(MOVE_TIMES)
    click(app, times.element.rect.center, frames=3)
    assert times.expanded
    listed = times.element.current_state.options_selection_list.rect
    assert listed.bottom <= times.element.rect.top + 2 and listed.top >= 0, (listed, times.rect)
    assert [times.label_of(choice) for choice in MOVE_TIMES] == list(MOVE_TIMES)
    (day,) = [item["button_element"] for item in
              times.element.current_state.options_selection_list.item_list
              if item["text"] == "1 day a move" and item["button_element"] is not None]
    click(app, day.rect.center, frames=3)
    assert times.value == "1 day a move" and not times.expanded
    setup.start()
    assert asked and asked[0]["move_time"] == 86_400.0
