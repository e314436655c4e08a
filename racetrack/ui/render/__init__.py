"""Drawing the race sheet: camera, paper, track, cars and the HUD."""
