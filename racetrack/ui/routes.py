"""The window's one map of its screens: every way from one scene to another goes through here.

Scenes never import each other (a subclass imports its base, and that is all): a button that
leads elsewhere calls the app's ``routes`` (``self.app.routes.menu()``, ``.new_race()``,
``.watch(recording)``, ...). This module is the only one that imports the scenes, so the
imports run one way (app -> routes -> scenes -> render, gui, core) and a new screen is one more
method here. What a route sets up that is not the window's business, the cars of a race and the
next race of a championship, is the core's (``racetrack.lineup``, ``racetrack.championship``),
where the command line uses it too.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from racetrack import archive
from racetrack.championship import Championship
from racetrack.championship import default_path as championship_path
from racetrack.errors import FileProblemError
from racetrack.game import Race, RaceState
from racetrack.lineup import line_up
from racetrack.model import CarSetup
from racetrack.net.mygames import MyGame, remember
from racetrack.playout import race_drivers, trees_players
from racetrack.recording import Recording
from racetrack.records import is_time_trial, record_run, run_turns
from racetrack.rules import RuleSet, load_rules
from racetrack.rules.overrides import apply_overrides
from racetrack.settings import PlayerChoice, load_settings
from racetrack.shop import shop_items
from racetrack.takeover import take_over
from racetrack.track import Track, load_track
from racetrack.trees import TreesGame, TreesState
from racetrack.trees.record import GAMES
from racetrack.ui.saving import Saving
from racetrack.ui.scenes.championship import ChampionshipSetupScene, StandingsScene
from racetrack.ui.scenes.editor import EditorScene
from racetrack.ui.scenes.help import HelpScene
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.online_games import MyGamesScene
from racetrack.ui.scenes.online_host import HostSetupScene, InvitationsScene
from racetrack.ui.scenes.online_menu import JoinScene, OnlineMenuScene, WatchScene
from racetrack.ui.scenes.online_race import ConnectingScene, Follow, OnlineRaceScene
from racetrack.ui.scenes.options import OptionsScene
from racetrack.ui.scenes.pause import PauseScene
from racetrack.ui.scenes.playback import PlaybackScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.replays import ReplaysScene
from racetrack.ui.scenes.results import ResultsScene
from racetrack.ui.scenes.setup import SetupScene
from racetrack.ui.scenes.shop import ShopScene
from racetrack.ui.scenes.trees import TreesScene
from racetrack.ui.scenes.trees_menu import TreesMenuScene
from racetrack.ui.scenes.trial import TrialResultsScene
from racetrack.ui.scenes.tutorial import TutorialScene, tutorial_race
from racetrack.ui.scenes.unfinished import UnfinishedScene

#: What follows a race: ``results(final state, the replay's saving)`` makes the results' scene.
Results = Callable[[RaceState, Saving], Any]


class Routes:
    """Every screen the app can go to, and how."""

    def __init__(self, app):
        self.app = app

    def _show(self, scene, replace: bool = False):
        """Put a scene on top: over the current one, or in its place."""
        if replace and self.app.scenes:
            self.app.replace(scene)
        else:
            self.app.push(scene)
        return scene

    @property
    def animation_seconds(self) -> float:
        return load_settings().animation_seconds

    # -- the menus --------------------------------------------------------------------------

    def menu(self) -> MenuScene:
        """Leave every screen for the main menu."""
        scene = MenuScene(self.app)
        self.app.reset(scene)
        return scene

    def new_race(self) -> SetupScene:
        return self._show(SetupScene(self.app))

    def new_championship(self, problem: str = "") -> ChampionshipSetupScene:
        return self._show(ChampionshipSetupScene(self.app, championship_path(), problem))

    def help(self, rules: RuleSet | str, track: Track | None = None) -> HelpScene:
        return self._show(HelpScene(self.app, rules, track))

    def settings(self) -> OptionsScene:
        return self._show(OptionsScene(self.app))

    def interrupted(self, resume: Callable[[archive.Unfinished], None]) -> UnfinishedScene:
        return self._show(UnfinishedScene(self.app, resume))

    def replays(self) -> ReplaysScene:
        return self._show(ReplaysScene(self.app))

    def editor(self, path: Path | None = None) -> EditorScene:
        return self._show(EditorScene(self.app, path))

    def trees_menu(self) -> TreesMenuScene:
        return self._show(TreesMenuScene(self.app))

    def pause(self, race_scene: RaceScene) -> PauseScene:
        return self._show(PauseScene(self.app, race_scene))

    # -- watching ---------------------------------------------------------------------------

    def watch(self, recording: Recording, states: list | None = None,
              replace: bool = False) -> PlaybackScene:
        """Watch a recorded race or game (``states``: already re-simulated). ``ValueError``
        (``ReplayError``) if a move does not re-simulate."""
        states = states if states is not None else list(recording.states())
        return self._show(PlaybackScene(self.app, recording, states), replace)

    def take_over(self, setup, state, seats) -> Any:
        """Play on from a state of a recorded game, in place of the playback, the players in
        ``seats`` human from now on and the others still computer players: a new game in a
        file of its own (no other game in progress is replaced). ``ValueError`` if the game
        cannot be taken over there."""
        new, resumed = take_over(setup, state, seats)
        if isinstance(resumed, TreesState):
            return self.trees(new, resumed, replace=True)
        return self.race(new, resumed, replace=True)

    # -- races ------------------------------------------------------------------------------

    def start_race(self, track_path: Path, rules_name: str, players: tuple[PlayerChoice, ...],
                   seed: int | None = None, animation_seconds: float = 0.35,
                   replace: bool = True, overrides: Mapping[str, Any] | None = None):
        """Set up a new race from the players' choices (the shop first where the rules have
        one and a person shops); ``overrides`` change rule options of the named rules (the
        setup screen's choice of movement)."""
        track = load_track(track_path)
        rules = apply_overrides(load_rules(rules_name), overrides or {})
        seed = seed if seed is not None else random.randrange(1_000_000)
        cars = line_up(rules, players)

        def race_with(kitted: list[CarSetup], replace: bool) -> RaceScene:
            race = Race(track, rules, kitted, seed=seed)
            return self.race(race, race.start(), animation_seconds, replace)

        return self.shop_then(rules, cars, race_with, replace)

    def test_race(self, track: Track, rules: RuleSet, back: Callable[[], None]) -> None:
        """The editor's race on its drawing (``ValueError`` if it cannot be set up): its
        results and its pause menu lead back to the drawing (``back``)."""
        cars = line_up(rules, load_settings().players)
        seed = random.randrange(1_000_000)
        Race(track, rules, cars, seed=seed)  # refuses too many cars for the start line

        def results(final: RaceState, saved: Saving) -> ResultsScene:
            return ResultsScene(self.app, final, None, saved, proceed=("Back to editor", back))

        def race_with(kitted: list[CarSetup], replace: bool) -> RaceScene:
            race = Race(track, rules, kitted, seed=seed)
            scene = self.race(race, race.start(), self.animation_seconds, replace,
                              results=results)
            scene.back_to = ("Back to editor", back)
            return scene

        self.shop_then(rules, cars, race_with, replace=False)

    def shop_then(self, rules: RuleSet, cars: list[CarSetup],
                  then: Callable[[list[CarSetup], bool], Any], replace: bool,
                  heading: str = "") -> Any:
        """The shop where the rules have one and a person shops, then ``then(kitted cars,
        replace)``; else ``then`` at once."""
        if not (shop_items(rules) and any(car.is_human for car in cars)):
            return then(cars, replace)
        return self._show(ShopScene(self.app, rules, cars, lambda kitted: then(kitted, True),
                                    heading=heading), replace)

    @staticmethod
    def take_backs(race: Race) -> bool:
        """Whether a race lets its players take moves back: the player's setting, for a race
        against computer drivers or in hot seat; never a time trial (its record counts)."""
        return load_settings().take_backs and not is_time_trial(race) \
            and any(car.is_human for car in race.cars)

    def race(self, race: Race, state: RaceState, animation_seconds: float | None = None,
             replace: bool = True, results: Results | None = None,
             progress: Path | None = None, scene_type: type[RaceScene] = RaceScene,
             undo: bool | None = None) -> RaceScene:
        """Race on from ``state`` (a new race, a resumed one, or one taken over from a
        replay).

        The race is recorded after every move in a file of its own (``progress``: the resumed
        race's file, or a new one), so other interrupted races are kept; when it ends it is
        saved to the replays folder and the results follow: ``results(final, saved)`` makes
        their scene when given (a championship's, a test race's), else the usual ranking with
        a rematch (a time trial's with its record). ``scene_type`` is the race scene's class
        (the tutorial's has a coach). ``undo`` says whether moves may be taken back (by
        default as ``take_backs`` says; a championship's races never).
        """
        seconds = self.animation_seconds if animation_seconds is None else animation_seconds
        drivers = race_drivers(race)

        def rematch() -> None:
            again = Race(race.track, race.rules, race.cars, seed=random.randrange(1_000_000))
            self.race(again, again.start(), seconds)

        progress = progress or archive.new_progress_path(state)

        def over(final: RaceState, autosaves: Executor | None = None) -> None:
            """The results at once; the replay is written behind them, after the race's
            last autosaves (``autosaves``), and the results say so when it is on disk."""
            saved = Saving(lambda: archive.save_finished(final, progress=progress),
                           after=autosaves)
            if results is not None:
                self.app.replace(results(final, saved))
            elif is_time_trial(race):
                self.app.replace(self._trial_results(final, rematch, saved))
            else:
                self.app.replace(ResultsScene(self.app, final, rematch, saved))

        def record(current: RaceState) -> None:
            """Keep the race in progress on disk; a failure to write must not stop it."""
            with contextlib.suppress(OSError, FileProblemError):
                archive.record_progress(current, progress)

        scene = scene_type(self.app, race, drivers, seconds, on_over=over, state=state,
                           record=record,
                           undo=self.take_backs(race) if undo is None else undo)
        scene.progress = progress
        return self._show(scene, replace)

    def restart(self, old: RaceScene) -> RaceScene:
        """The same race from the start, in place of the pause menu and the race under it."""
        old.close()
        self.app.pop()
        scene = type(old)(self.app, old.race, old.drivers, old.animation_seconds, old.on_over,
                          record=old.record, undo=old.undo)
        scene.progress = old.progress
        scene.back_to = old.back_to
        self.app.replace(scene)
        return scene

    def resume(self, entry: archive.Unfinished) -> RaceScene | None:
        """Go on with an interrupted race; one that no longer re-simulates, or is over, is
        forgotten."""
        try:
            state = entry.replay.final_state()
        except ValueError:
            state = None
        if state is None or state.is_over:
            archive.discard_unfinished(entry.path)
            return None
        return self.race(entry.replay.race, state, replace=False, progress=entry.path)

    def tutorial(self) -> TutorialScene:
        """The tutorial race, over whatever is showing."""
        race = tutorial_race()
        return self.race(race, race.start(), replace=False, scene_type=TutorialScene,
                         undo=True)

    def _trial_results(self, final: RaceState, rematch, saved: Saving):
        """Show a finished time trial, its run recorded behind the frame (a failure to write
        costs only the record, said in one line)."""
        recording = None
        if run_turns(final) is not None:
            recording = Saving(lambda: record_run(final), failure="Could not save the record")
        return TrialResultsScene(self.app, final, rematch, saved, recording)

    # -- championships ----------------------------------------------------------------------

    def championship_race(self, series: Championship, path: Path | None = None,
                          replace: bool = True) -> None:
        """The next race of a championship: the shop (with the money carried), the race, its
        results, then the standings. ``ChampionshipError`` (nothing started) if the next track
        no longer loads."""
        rules = series.ruleset()
        cars = series.next_cars()
        results = self._championship_results(series, path)

        def race_with(kitted: list[CarSetup], replace: bool) -> RaceScene:
            race = series.next_race(kitted)
            return self.race(race, race.start(), replace=replace, results=results, undo=False)

        heading = ""
        if shop_items(rules) and any(car.is_human for car in cars):
            heading = f"Race {series.race_number} of {len(series.tracks)}, " \
                      f"{series.load_next_track().name}"
        self.shop_then(rules, cars, race_with, replace, heading)

    def resume_championship(self, series: Championship, path: Path | None = None) -> None:
        """Go on with a saved championship: its race interrupted by a quit, if that is among
        the races in progress; else the standings, with the next race a click away."""
        found = series.interrupted_race(archive.unfinished_races())
        if found is not None:
            entry, state = found
            self.race(entry.replay.race, state, replace=False, progress=entry.path,
                      results=self._championship_results(series, path), undo=False)
            return
        self._show(StandingsScene(self.app, series, path))

    def _championship_results(self, series: Championship, path: Path | None) -> Results:
        """What follows a championship's race: the race scored and the series saved, its
        ranking, and a button on to the standings."""
        def results(final: RaceState, saved: Saving) -> ResultsScene:
            series.record(final)
            # Written behind the frame, from a copy: the standings go on changing.
            kept = copy.deepcopy(series)
            saving = Saving(lambda: kept.save(path),
                            failure="Could not save the championship")

            def standings() -> None:
                self.app.replace(StandingsScene(self.app, series, path, saving=saving))

            return ResultsScene(self.app, final, None, saved, proceed=("Standings", standings))

        return results

    # -- Graph Trees ------------------------------------------------------------------------

    def trees(self, game: TreesGame, state: TreesState | None = None, replace: bool = True,
              progress: Path | None = None) -> TreesScene:
        """Put a game on the app: computer players seeded from the game, saved as it goes in
        a file of its own (``progress``: the resumed game's, or a new one)."""
        computers = trees_players(game)
        progress = progress or GAMES.new_progress_path(state or game.start())

        def record(current: TreesState) -> None:
            with contextlib.suppress(OSError, ValueError):  # a failed save must not stop play
                GAMES.record_progress(current, progress)

        def over(final: TreesState) -> Saving:
            """The finished game written behind the frame (the scene says when)."""
            return Saving(lambda: GAMES.save_finished(final, progress=progress),
                          failure="Could not save the game")

        scene = TreesScene(self.app, game, computers, state, record=record, on_over=over)
        return self._show(scene, replace)

    # -- online -----------------------------------------------------------------------------

    def play_online(self) -> OnlineMenuScene:
        return self._show(OnlineMenuScene(self.app))

    def host_online(self) -> HostSetupScene:
        return self._show(HostSetupScene(self.app))

    def invitations(self, message: dict, track_name: str) -> InvitationsScene:
        """Host the game set up (off the frame), then show its invitations."""
        return self._show(InvitationsScene(self.app, message, track_name), replace=True)

    def join_online(self) -> JoinScene:
        return self._show(JoinScene(self.app))

    def watch_online(self) -> WatchScene:
        return self._show(WatchScene(self.app))

    def my_games(self) -> MyGamesScene:
        return self._show(MyGamesScene(self.app))

    def online_race(self, url: str, follow: Follow) -> ConnectingScene:
        """Connect to a game (a seat with its token, or a watch code), then race it; a seat
        the server shows is kept in My games. Its results and replay are kept as a local
        race's are; leaving it leaves the game on the server."""
        def ready(session, mirror) -> None:
            if mirror.seat is not None:
                setup = mirror.race.cars[mirror.seat]
                with contextlib.suppress(OSError, ValueError):
                    remember(MyGame(session.session.url, mirror.game, mirror.seat + 1,
                                    follow[1]["token"], setup.name, mirror.race.track.name))

            def over(final: RaceState, autosaves: Executor | None = None) -> None:
                saved = Saving(lambda: archive.save_finished(final), after=autosaves)
                def again() -> None:
                    self.menu()
                    self.play_online()

                self.app.replace(ResultsScene(self.app, final, None, saved,
                                              proceed=("Play online", again)))

            scene = OnlineRaceScene(self.app, session, mirror, url, follow,
                                    self.animation_seconds, on_over=over)
            self.app.replace(scene)

        return self._show(ConnectingScene(self.app, url, follow, ready))
