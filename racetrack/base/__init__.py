"""What every layer stands on: the errors, the one YAML reader and the one field reader for
every file a player can hand the game, safe file names and atomic writes, the player's
folders and settings.
"""
