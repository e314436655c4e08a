"""Scenes: menu, race setup, race, pause, results. Each has handle / update / draw."""
