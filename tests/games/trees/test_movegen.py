"""Graph Trees movement: extending a track from its velocity, branching from a node as from a
standing start, and never crossing."""

from __future__ import annotations

import pytest

from racetrack.base.errors import IllegalMoveError
from racetrack.board.geometry import Vec
from racetrack.games.trees import Move, MoveKind, Termination
from tests.games.trees.positions import game, position, stuck_red


def verdicts(candidates):
    return {tuple(c.target): c.legal for c in candidates}


def test_the_first_move_is_a_standing_start_from_the_middle_of_the_side():
    state = game().start()
    assert state.rules.starts == (Vec(10, 20), Vec(10, 0))
    targets = sorted(tuple(m.target) for m in state.placements())
    # "Movement is the same as Graph Racing": rule 4's one square north, south, east or west
    # (not off the sheet).
    assert targets == [(9, 20), (10, 19), (11, 20)]
    nine = game("levi-9").start()  # the house rule: Gardner's nine choices
    assert sorted(tuple(m.target) for m in nine.placements()) == [
        (9, 19), (9, 20), (10, 19), (11, 19), (11, 20)]


def test_the_sources_example_red_has_gone_as_far_as_he_can_and_must_branch():
    state = stuck_red()
    extensions = state.candidates(tips=[0], nodes=[])
    assert extensions and not any(c.legal for c in extensions)
    assert all(m.kind is MoveKind.BRANCH for m in state.placements())


def test_the_sources_example_green_and_orange_nodes_around_a_middle_node():
    state = stuck_red()
    around = state.candidates(tips=[], nodes=[Vec(10, 14)])
    green = {t for t, ok in verdicts(around).items() if ok}
    orange = {t for t, ok in verdicts(around).items() if not ok}
    # Straight on up the track is its direction; straight back down runs along it. A new
    # track moves off as from a standing start: one square north, south, east or west.
    assert orange == {(10, 13), (10, 15)}
    assert green == {(9, 14), (11, 14)}
    reasons = {tuple(c.target): c.reason for c in around}
    assert "a track already runs" in reasons[(10, 13)]
    assert "own tracks" in reasons[(10, 15)]


def test_a_new_track_from_the_tip_may_not_carry_straight_on():
    state = stuck_red()
    around = verdicts(state.candidates(tips=[], nodes=[Vec(10, 5)]))
    assert around[(10, 4)] is False and around[(10, 6)] is False
    assert all(ok for t, ok in around.items() if t not in ((10, 4), (10, 6)))


def test_a_track_extends_from_its_own_velocity_and_keeps_it():
    state = position({0: [[(10, 20), (11, 19), (13, 17)]], 1: [[(10, 0), (10, 1)]]},
                     rules="levi-9")
    ahead = {tuple(c.target) for c in state.candidates(tips=[0], nodes=[])}
    assert ahead == {(15 + dx, 15 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    state.apply(Move.extend(0, (16, 14)))
    assert state.tracks[0].velocity == (3, -3)
    # The other player's turn: a branch of Red's keeps Red's first track's velocity intact.
    state.apply(Move.extend(1, (10, 3)))
    state.apply(Move.branch((11, 19), (12, 19)))
    assert state.tracks[0].velocity == (3, -3) and state.tracks[2].velocity == (1, 0)


def test_tracks_never_cross_or_touch_another_players_track():
    # Blue's track runs across the sheet at y = 10; Red's tip is just below it.
    state = position({0: [[(10, 20), (10, 19), (10, 17), (10, 14), (10, 12)]],
                      1: [[(10, 0), (10, 1)], [(10, 1), (5, 10), (15, 10)]]})
    for c in state.candidates(tips=[0], nodes=[]):
        if c.target.y <= 10:
            assert not c.legal and "another player's" in c.reason


def test_a_track_may_not_end_on_or_run_through_its_own_tree():
    state = position({0: [[(10, 20), (10, 18), (12, 16)], [(10, 18), (8, 17)]],
                      1: [[(10, 0), (10, 1)]]})
    # From (8, 17) the step to (9, 17)... then (10, 17) would touch nothing; (10, 18) is a node.
    state.tracks[1] = state.tracks[1].extended(Vec(9, 17))
    ahead = verdicts(state.candidates(tips=[1], nodes=[]))
    assert ahead[(10, 18)] is False  # an existing node of the same tree
    assert ahead[(10, 17)] is True


def test_an_illegal_move_is_refused_with_the_reason_and_nothing_changes():
    state = stuck_red()
    before = (list(state.tracks), state.current, list(state.history))
    with pytest.raises(IllegalMoveError, match="a track already runs"):
        state.apply(Move.branch((10, 14), (10, 13)))
    with pytest.raises(IllegalMoveError, match="not one of Red's nodes"):
        state.apply(Move.branch((3, 3), (3, 4)))
    with pytest.raises(IllegalMoveError, match="not Red's"):
        state.apply(Move.extend(1, (12, 3)))
    assert (list(state.tracks), state.current, list(state.history)) == before


def test_agreeing_ends_the_game_only_when_everyone_agrees_and_a_placement_withdraws_it():
    state = game().start()
    state.apply(Move(MoveKind.AGREE))
    state.apply(Move.branch((10, 0), (10, 1)))  # Blue plays on: Red's agreement lapses
    state.apply(Move(MoveKind.AGREE))
    assert not state.is_over
    state.apply(Move(MoveKind.PASS))  # passing is not agreeing
    assert not state.is_over
    state.apply(Move(MoveKind.AGREE))
    state.apply(Move(MoveKind.AGREE))
    assert state.is_over and state.outcome.termination is Termination.AGREED
    assert state.legal_moves() == []


def test_a_player_who_cannot_move_is_skipped():
    # Blue has fenced in Red's start: every point around (10, 20) is on one of Blue's tracks.
    state = position({0: [], 1: [[(10, 0), (10, 1), (9, 18), (9, 19), (9, 20)],
                                 [(9, 18), (11, 18), (11, 19), (11, 20)],
                                 [(9, 19), (10, 19)]]}, current=1)
    assert not state.can_move(0) and state.can_move(1)
    events = state.apply(state.placements()[0])
    assert "Red cannot move" in events and state.current == 1
    assert not state.is_over
