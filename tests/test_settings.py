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
    chosen = Settings(fullscreen=True, ui_scale="125%", colour_blind=True, volume=35,
                      muted=True, zoom=31.5, tutorial_done=True, take_backs=False)
    chosen = chosen.with_window((1920, 1080), (1024, 700)).with_window((800, 600), (800, 600))
    save_settings(chosen, path)
    assert load_settings(path) == chosen
    assert chosen.window_for((1920, 1080)) == (1024, 700)
    assert chosen.window_for((3840, 2160)) is None  # a screen never used: fit it


def test_a_window_size_is_kept_per_screen_and_old_files_forget_theirs(tmp_path):
    small = Settings().with_window((800, 600), (800, 600))
    both = small.with_window((1920, 1080), (1500, 900))
    assert both.window_for((800, 600)) == (800, 600)
    assert both.window_for((1920, 1080)) == (1500, 900)
    assert both.with_window((800, 600), None).window_for((800, 600)) is None
    many = Settings()
    for width in range(1000, 1020):
        many = many.with_window((width, 800), (900, 700))
    assert len(many.windows) == 8 and many.window_for((1019, 800)) == (900, 700)
    path = tmp_path / "settings.yaml"
    path.write_text("window: [800, 600]\nwindows: {1920x1080: [1500, 900], big: [1, 2]}\n")
    loaded = load_settings(path)  # one size for every screen, from before: forgotten
    assert loaded.windows == (("1920x1080", (1500, 900)),)


def test_bad_window_sound_and_looks_values_fall_back_one_by_one(tmp_path):
    path = tmp_path / "settings.yaml"
    path.write_text("windows: {800x600: [99999, 20]}\nfullscreen: maybe\nui_scale: 300%\n"
                    "volume: 150\nmuted: 1\nzoom: -4\ncolour_blind: true\ntrack: oval\n")
    loaded = load_settings(path)
    defaults = Settings()
    assert (loaded.windows, loaded.fullscreen, loaded.ui_scale, loaded.volume, loaded.muted,
            loaded.zoom) == (defaults.windows, defaults.fullscreen, defaults.ui_scale,
                             defaults.volume, defaults.muted, defaults.zoom)
    assert loaded.colour_blind and loaded.track == "oval"
