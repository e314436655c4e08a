"""Both games through the one protocol: random playouts that use nothing but its names, and
check what any game must keep (every legal move passes the check, a refused move changes
nothing, a clone is independent, the history re-plays to the same state, every game ends)."""

from __future__ import annotations

import random

import pytest

from racetrack.base.errors import IllegalMoveError
from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup
from racetrack.games.protocol import GameSetup, GameState, Outcome
from racetrack.games.race import Race
from racetrack.games.trees import TreesGame, load_tree_rules
from racetrack.rules import load_rules


def race(rules: str = "baker") -> Race:
    track = load_track(find_track("oval"))
    return Race(track, load_rules(rules), [CarSetup("Ann", "red"), CarSetup("Bob", "blue"),
                                           CarSetup("Cy", "green")], seed=4)


def trees() -> TreesGame:
    return TreesGame(load_tree_rules("quick"), TreesGame.default_players(["human", "human"]), 3)


SETUPS = {"race baker": lambda: race("baker"), "race gardner": lambda: race("gardner"),
          "race westinghouse": lambda: race("westinghouse"), "graph trees": trees}


def fingerprint(state: GameState) -> tuple:
    """What a state shows through the protocol: enough to tell two states apart."""
    return (state.current_player, state.is_over, tuple(state.history),
            tuple(state.legal_moves()) if not state.is_over else ())


@pytest.mark.parametrize("make", SETUPS.values(), ids=SETUPS.keys())
@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_playout_through_the_protocol(make, seed):
    setup = make()
    assert isinstance(setup, GameSetup)
    state = setup.start()
    assert isinstance(state, GameState)
    assert len(setup.player_names) >= 1
    chooser = random.Random(seed)
    for _ in range(400):
        if state.is_over:
            break
        moves = list(state.legal_moves())
        assert moves, "a game that is not over has a move"
        assert state.current_player is not None
        move = chooser.choice(moves)
        assert state.check(move) is None
        before = state.clone()
        state.apply(move)
        assert state.history[:-1] == before.history and state.history[-1][1] == move
        # The copy taken before stands still.
        assert len(before.history) == len(state.history) - 1
    else:
        pytest.skip("long game: the check above ran on 400 moves")
    assert state.current_player is None
    assert isinstance(state.outcome, Outcome)
    assert sorted(state.outcome.ranking) == list(range(len(setup.player_names)))
    assert state.outcome.reason
    # The history re-plays to the same state.
    again = setup.start()
    for player, move in state.history:
        assert again.current_player == player
        again.apply(move)
    assert fingerprint(again) == fingerprint(state)
    assert again.outcome == state.outcome


@pytest.mark.parametrize("make", SETUPS.values(), ids=SETUPS.keys())
def test_a_refused_move_has_a_reason_and_changes_nothing(make):
    state = make().start()
    legal = list(state.legal_moves())
    shown = fingerprint(state)
    refused = None
    # A move of the game's own kind that is not legal now: a legal one's twin far away.
    for move in legal:
        target = getattr(move, "target", None)
        if target is None:
            continue
        far = type(target)(target.x + 500, target.y + 500)
        fields = {name: getattr(move, name) for name in move.__dataclass_fields__}
        fields["target"] = far
        refused = type(move)(**fields)
        break
    assert refused is not None
    reason = state.check(refused)
    assert isinstance(reason, str) and reason
    with pytest.raises(IllegalMoveError):
        state.apply(refused)
    assert fingerprint(state) == shown
