"""The settings file: the movement override is remembered, and old files still load."""

from __future__ import annotations

from racetrack.settings import Settings, load_settings, save_settings


def test_the_movement_choice_round_trips(tmp_path):
    path = tmp_path / "settings.yaml"
    save_settings(Settings(moves="square-24"), path)
    loaded = load_settings(path)
    assert loaded.moves == "square-24"
    assert loaded.overrides() == {"movement.choices": "square-24"}


def test_an_old_settings_file_without_moves_still_loads(tmp_path):
    path = tmp_path / "settings.yaml"
    path.write_text("track: hairpins\nrules: baker\nanimation_seconds: 0.15\n"
                    "players:\n- {name: Ann, colour: green, driver: human}\n")
    loaded = load_settings(path)
    assert (loaded.track, loaded.rules, loaded.moves) == ("hairpins", "baker", "")
    assert loaded.overrides() == {}
    assert [p.name for p in loaded.players] == ["Ann"]


def test_a_bad_moves_value_falls_back_to_the_rule_sets_own(tmp_path, caplog):
    path = tmp_path / "settings.yaml"
    path.write_text("moves: hexagonal\ntrack: oval\n")
    loaded = load_settings(path)
    assert loaded.moves == "" and loaded.track == "oval"


def test_the_team_choice_round_trips_and_old_players_have_none(tmp_path):
    from racetrack.settings import PlayerChoice

    path = tmp_path / "settings.yaml"
    players = (PlayerChoice("Ann", "red", "human", team="A"),
               PlayerChoice("Bot", "blue", "easy", team="B"))
    save_settings(Settings(players=players), path)
    assert load_settings(path).players == players
    path.write_text("players:\n- {name: Ann, colour: green, driver: human}\n"
                    "- {name: Bob, colour: red, driver: human, team: Z}\n")
    assert [p.team for p in load_settings(path).players] == ["", ""]


def test_a_player_named_on_the_command_line_must_be_printable():
    """An undecodable byte in an argument becomes a lone surrogate: it would crash the
    window's text drawing, and a replay holding it could not be read back."""
    import pytest

    from racetrack.settings import parse_players

    assert [p.name for p in parse_players("Ann,Zoë,ai")] == ["Ann", "Zoë", "Computer"]
    for name in ("\udcff", "Ann\x1b[2J", "A\u202eB"):
        with pytest.raises(ValueError, match="printable"):
            parse_players(f"Bob,{name}")


def test_a_control_character_in_the_settings_file_leaves_the_defaults(tmp_path, caplog):
    path = tmp_path / "settings.yaml"
    path.write_text("track: hairpins\nplayers:\n- {name: \"Ann\\e[2J\", colour: red, "
                    "driver: human}\n")
    loaded = load_settings(path)
    assert loaded.track == "hairpins" and loaded.players == Settings().players
    assert "cannot be shown" in caplog.text
    path.write_text("track: hairpins\x07\n")
    assert load_settings(path) == Settings() and "U+0007" in caplog.text


def test_the_window_sound_and_looks_round_trip(tmp_path):
    path = tmp_path / "settings.yaml"
    chosen = Settings(window=(1024, 700), fullscreen=True, ui_scale="125%", colour_blind=True,
                      volume=35, muted=True, zoom=31.5, tutorial_done=True)
    save_settings(chosen, path)
    assert load_settings(path) == chosen


def test_bad_window_sound_and_looks_values_fall_back_one_by_one(tmp_path):
    path = tmp_path / "settings.yaml"
    path.write_text("window: [99999, 20]\nfullscreen: maybe\nui_scale: 300%\nvolume: 150\n"
                    "muted: 1\nzoom: -4\ncolour_blind: true\ntrack: oval\n")
    loaded = load_settings(path)
    defaults = Settings()
    assert (loaded.window, loaded.fullscreen, loaded.ui_scale, loaded.volume, loaded.muted,
            loaded.zoom) == (defaults.window, defaults.fullscreen, defaults.ui_scale,
                             defaults.volume, defaults.muted, defaults.zoom)
    assert loaded.colour_blind and loaded.track == "oval"
