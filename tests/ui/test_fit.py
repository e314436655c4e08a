"""Every widget's words fit its box, and every widget the window, on every screen a player
meets first, from 800 x 600 to 4K, at UI scales from 100 % to 200 % (a scale larger than the
window fits is drawn at the most it fits, never cut)."""

from __future__ import annotations

import functools
from dataclasses import replace

import pygame
import pytest
from pygame_gui.elements import (
    UIButton,
    UICheckBox,
    UIDropDownMenu,
    UIHorizontalSlider,
    UILabel,
    UITextBox,
    UITextEntryLine,
)

from racetrack.base.settings import PlayerChoice, Settings
from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup, CarStatus
from racetrack.games.championship import Championship, Entrant
from racetrack.games.playout import play_out
from racetrack.games.race import Race
from racetrack.rules import load_rules
from racetrack.search.drivers import make_driver
from racetrack.ui.gui import tip_place
from racetrack.ui.scenes.championship import ChampionshipSetupScene, StandingsScene
from racetrack.ui.scenes.help import HelpScene
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.options import OptionsScene
from racetrack.ui.scenes.results import ResultsScene
from racetrack.ui.scenes.setup import SetupScene
from tests.ui.conftest import run

#: (window, UI scale): the smallest window (where every scale is drawn at the 85 % it
#: fits), the common ones, and 4K.
CASES = [((800, 600), "200%"), ((1280, 800), "150%"), ((1920, 1080), "100%"),
         ((1920, 1080), "200%"), ((3840, 2160), "200%")]


def overflows(app) -> list[str]:
    """Every visible widget whose words run past its box, or that reaches past the window."""
    window = app.screen.get_rect()
    found = []
    for element in app.gui.manager.get_sprite_group().sprites():
        if not element.visible or not element.alive() or element.rect.w <= 0:
            continue
        if isinstance(element, UIButton | UILabel) and element.text and \
                element.font is not None:
            width, height = element.font.size(element.text)
            room = element.rect.w - 8 if isinstance(element, UIButton) else element.rect.w
            if width > room or height > element.rect.h:
                found.append(f"{element.text!r} ({width} x {height}) in {element.rect}")
        if isinstance(element, UITextBox) and element.text_box_layout is not None:
            room = element.text_wrap_rect.w
            for row in element.text_box_layout.layout_rows:
                if row.x + row.width > room:
                    found.append(f"a line of a text box runs {row.x + row.width - room} "
                                 f"pixels past its room ({room}) in {element.rect}")
                    break
        if isinstance(element, UIButton | UILabel) and not window.contains(element.rect):
            found.append(f"{getattr(element, 'text', element)!r} at {element.rect} is "
                         f"outside the window")
    controls = [element for element in app.gui.manager.get_sprite_group().sprites()
                if isinstance(element, CONTROLS) and element.visible and element.alive()
                and element.parent_element is None]
    for number, one in enumerate(controls):
        for other in controls[number + 1:]:
            if one.rect.colliderect(other.rect):
                found.append(f"{words(one)} at {one.rect} overlaps {words(other)} at "
                             f"{other.rect}")
    return found


#: The widgets a player uses, which must not lie on one another.
CONTROLS = (UIButton, UIDropDownMenu, UITextEntryLine, UICheckBox, UIHorizontalSlider)


def words(element) -> str:
    return repr(getattr(element, "text", "") or getattr(element, "selected_option", element))


@functools.cache
def played_race():
    """One race played out, once per test process: each screen size shows a copy of it."""
    race = Race(load_track(find_track("oval")), load_rules("baker"),
                [CarSetup("Ann", "red", "human"), CarSetup("Computer 1", "blue", "easy")],
                seed=2)
    return play_out(race.start(), {0: make_driver("expert", 1), 1: make_driver("easy", 2)})


@pytest.mark.long
@pytest.mark.parametrize("size, scale", CASES)
def test_every_first_screens_words_fit_their_boxes(size, scale, tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    from racetrack.ui.app import App

    app = App(size, settings=Settings(ui_scale=scale))
    try:
        assert app.ui_scale() <= 2.0
        problems: dict[str, list[str]] = {}

        def look(name: str, frames: int = 2) -> None:
            run(app, frames)
            problems[name] = overflows(app)

        app.push(MenuScene(app))
        look("menu")
        setup = SetupScene(app)
        app.push(setup)
        look("new race")
        setup.players = [PlayerChoice("Player 1", "red", "human")]
        setup.relayout()
        look("time trial")
        app.pop()
        series = ChampionshipSetupScene(app)
        app.push(series)
        series.pick(0)
        series.pick(1)
        look("new championship")
        app.pop()
        app.push(OptionsScene(app))
        look("settings")
        app.pop()
        app.push(HelpScene(app, "baker", load_track(find_track("oval"))))
        look("how to play")
        app.pop()
        race = app.routes.tutorial()
        race.preparing.result()
        look("tutorial")
        race.state.apply(race.state.legal_moves()[0])  # a move to take back
        race.state.set_car(0, replace(race.state.cars[0], status=CarStatus.OUT))
        look("race, its buttons")
        app.routes.pause(race)
        look("pause")
        race.close()
        app.push(ResultsScene(app, played_race().clone(), rematch=lambda: None))
        look("results", frames=4)
        app.pop()
        entrants = [Entrant("Ann", "red", "human"), Entrant("Computer 1", "blue", "easy")]
        app.push(StandingsScene(app, Championship("baker", ["oval", "hairpins"], entrants)))
        look("standings")
        assert not any(problems.values()), {k: v for k, v in problems.items() if v}
    finally:
        app.gui.kill_all()
        pygame.quit()


def test_a_ui_scale_larger_than_the_window_fits_is_drawn_at_the_most_it_fits():
    from racetrack.ui.app import auto_scale, fitting_scale

    assert fitting_scale((800, 600)) == 0.85
    assert 1.5 <= fitting_scale((1920, 1080)) < 1.6
    assert fitting_scale((3840, 2160)) > 2.0
    for size in ((800, 600), (1280, 800), (1920, 1080), (3840, 2160)):
        assert auto_scale(size) <= fitting_scale(size)


def test_a_tooltip_goes_beside_its_button_never_over_the_next_one():
    screen = pygame.Rect(0, 0, 800, 600)
    column = [pygame.Rect(235, 190 + 58 * n, 330, 48) for n in range(8)]
    owner = column[2]
    place = tip_place(owner, (200, 60), screen, column[:2] + column[3:])
    assert place is not None and place.left >= owner.right
    assert not any(place.colliderect(other) for other in column)
    # No room beside it: under or over it, covering as few others as can be.
    wide = tip_place(owner, (400, 40), screen, column[:2] + column[3:])
    assert wide is not None and screen.contains(wide) and not wide.colliderect(owner)


def test_a_hovered_button_looks_unlike_a_recommended_one():
    from racetrack.ui.gui import theme_data

    data = theme_data()
    plain, primary = data["defaults"]["colours"], data["@primary"]["colours"]
    assert plain["hovered_bg"] not in (primary["normal_bg"], primary["hovered_bg"],
                                       plain["normal_bg"])
