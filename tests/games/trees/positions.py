"""Hand-made Graph Trees positions, written out so each test shows the paper it relies on."""

from __future__ import annotations

from racetrack.board.geometry import Vec
from racetrack.games.trees import Track, TreesGame, TreesState, load_tree_rules


def game(rules: str = "levi", seed: int = 0) -> TreesGame:
    loaded = load_tree_rules(rules)
    return TreesGame(loaded, TreesGame.default_players(["human"] * loaded.players), seed)


def position(tracks: dict[int, list[list[tuple[int, int]]]], rules: str = "levi",
             current: int = 0) -> TreesState:
    """A state with the given tracks: ``{player: [[node, node, ...], ...]}``."""
    state = game(rules).start()
    state.tracks = [Track(player, tuple(Vec(*p) for p in nodes))
                    for player, lines in tracks.items() for nodes in lines]
    state.current = current
    return state


def stuck_red() -> TreesState:
    """Levi's example: Red, starting at the bottom, has run straight up the middle as fast as
    the paper allows (1, 2, 3, 4, 5 squares) and can go no farther: every point the track's
    velocity leads to is off the sheet or across Blue's three short tracks at the top."""
    return position({
        0: [[(10, 20), (10, 19), (10, 17), (10, 14), (10, 10), (10, 5)]],
        1: [[(10, 0), (11, 1), (13, 2)], [(10, 0), (9, 1), (7, 2)], [(10, 0), (10, 1)]],
    })
