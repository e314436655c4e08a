"""``racetrack replay``: --verify, --png, and a track file changed since the race."""

from __future__ import annotations

import shutil

import pygame

from racetrack.board.track import find_track
from racetrack.cli import main
from racetrack.games.replay import load_replay


def test_png_draws_the_race_sheet(tmp_path, capsys):
    replay = tmp_path / "race.yaml"
    assert main(["race", "oval", "--driver", "hard", "--driver", "easy", "--seed", "5",
                 "--save", str(replay)]) == 0
    picture = tmp_path / "sheet.png"
    assert main(["replay", str(replay), "--verify", "--png", str(picture)]) == 0
    out = capsys.readouterr().out
    assert "result matches" in out and "race sheet saved" in out
    image = pygame.image.load(str(picture))
    assert image.get_width() > 400 and image.get_height() > 300


def test_a_changed_track_file_is_detected_and_the_embedded_copy_used(tmp_path, capsys,
                                                                    monkeypatch):
    from racetrack.base.settings import tracks_dir

    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    tracks_dir().mkdir(parents=True)
    track = tracks_dir() / "mine.yaml"
    shutil.copy(find_track("oval"), track)
    replay = tmp_path / "race.yaml"
    assert main(["race", str(track), "--driver", "expert", "--save", str(replay)]) == 0
    assert not load_replay(replay).track_changed
    track.write_text(track.read_text().replace("name: Oval", "name: Oval, changed"))
    assert load_replay(replay).track_changed
    capsys.readouterr()
    assert main(["replay", str(replay), "--verify"]) == 0
    assert "the copy in the replay was used" in capsys.readouterr().out


def test_a_track_reference_outside_the_tracks_folders_is_never_opened(tmp_path, capsys,
                                                                     monkeypatch):
    """The embedded track is the truth; the file a replay names is only a hint, and only a
    track in the bundled or the player's tracks folder is read for it."""
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    track = tmp_path / "mine.yaml"
    shutil.copy(find_track("oval"), track)
    replay = tmp_path / "race.yaml"
    assert main(["race", str(track), "--driver", "expert", "--save", str(replay)]) == 0
    track.write_text(track.read_text().replace("name: Oval", "name: Oval, changed"))
    assert not load_replay(replay).track_changed
    capsys.readouterr()
    for elsewhere in ("/etc/passwd", str(tmp_path / "licence.txt"), "/dev/zero"):
        (tmp_path / "licence.txt").write_text("Permission is hereby granted\f\n")
        replay.write_text(replay.read_text().replace(
            f"file: {track}", f"file: {elsewhere}", 1))
        track = elsewhere
        assert not load_replay(replay).track_changed
        assert main(["replay", str(replay), "--verify"]) == 0
        assert capsys.readouterr().out.count("\n") == 1


def test_a_tampered_replay_fails_naming_the_move(tmp_path, capsys):
    replay = tmp_path / "race.yaml"
    assert main(["race", "oval", "--driver", "medium", "--seed", "1", "--save",
                 str(replay)]) == 0
    text = replay.read_text().splitlines()
    index = next(i for i, line in enumerate(text) if line.startswith("- [0,")) + 2
    car, x, y = text[index].strip("- []").split(", ")
    text[index] = f"- [{car}, {int(x) + 7}, {y}]"
    replay.write_text("\n".join(text) + "\n")
    capsys.readouterr()
    assert main(["replay", str(replay), "--verify"]) == 1
    err = capsys.readouterr().err
    assert "move 3" in err and "illegal" in err and "Traceback" not in err


def test_the_race_sheet_is_saved_whole_and_never_into_a_pipe_or_a_link(tmp_path, capsys):
    import os

    replay = tmp_path / "race.yaml"
    assert main(["race", "oval", "--driver", "easy", "--save", str(replay)]) == 0
    pipe, link = tmp_path / "pipe.png", tmp_path / "link.png"
    os.mkfifo(pipe)
    link.symlink_to(tmp_path / "elsewhere.png")
    capsys.readouterr()
    for target in (pipe, link):
        assert main(["replay", str(replay), "--png", str(target)]) == 1
        assert "refusing to replace it" in capsys.readouterr().err
    assert not (tmp_path / "elsewhere.png").exists()
    assert main(["replay", str(replay), "--png", str(tmp_path / "sheet.png")]) == 0
    assert (tmp_path / "sheet.png").read_bytes().startswith(b"\x89PNG")
