"""Random games: whatever the players do, tracks never cross, each player's tracks stay one
tree, territories never overlap, and every game ends."""

from __future__ import annotations

import random
from itertools import combinations

import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from racetrack.games.trees import MoveKind, Termination, TreesState
from tests.games.trees.positions import game


def assert_sound(state: TreesState) -> None:
    segments = [(a, b, t.owner) for t in state.tracks
                for a, b in zip(t.nodes, t.nodes[1:], strict=False)]
    lines = [shapely.LineString([a, b]) for a, b, _ in segments]
    for i, j in combinations(range(len(segments)), 2):
        (a1, b1, o1), (a2, b2, o2) = segments[i], segments[j]
        meet = lines[i].intersection(lines[j])
        if meet.is_empty:
            continue
        # Only one player's segments may meet, and only at a node both end at.
        assert o1 == o2, f"{segments[i]} crosses {segments[j]}"
        assert meet.geom_type == "Point", f"{segments[i]} overlaps {segments[j]}"
        assert (meet.x, meet.y) in {tuple(map(float, p)) for p in (a1, b1)} & \
            {tuple(map(float, p)) for p in (a2, b2)}, f"{segments[i]} crosses {segments[j]}"
    for start, (player, _) in zip(state.rules.starts, enumerate(state.game.players),
                                  strict=True):
        own = state.segments(player)
        nodes = {p for seg in own for p in seg} | {start}
        assert len(nodes) == len(own) + 1, "a player's tracks must form one tree"
        for other, other_start in enumerate(state.rules.starts):
            if other != player:
                assert not any(shapely.LineString([a, b]).intersects(shapely.Point(other_start))
                               for a, b in own)
    scores = [state.territory(p).points for p in range(len(state.game.players))]
    for first, second in combinations(scores, 2):
        assert not (first & second).any(), "two players cannot own one point"


def random_game(rules: str, seed: int, agree_after: int, talk: float = 0.03) -> TreesState:
    rng = random.Random(seed)
    state = game(rules, seed).start()
    while not state.is_over:
        moves = state.legal_moves()
        placements = [m for m in moves if m.places]
        if len(state.history) >= agree_after or rng.random() < talk:
            move = next(m for m in moves if m.kind is MoveKind.AGREE)
        elif rng.random() < talk:
            move = next(m for m in moves if m.kind is MoveKind.PASS)
        else:
            move = rng.choice(placements)
        state.apply(move)
        assert len(state.history) <= state.rules.turn_limit
    return state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["quick", "levi", "levi-4"]))
def test_random_games_never_cross_and_always_end(seed, rules):
    state = random_game(rules, seed, agree_after=120)
    assert state.is_over
    assert_sound(state)
    assert state.outcome.scores == state.scores()


def test_a_game_played_to_the_end_leaves_nobody_a_move():
    state = random_game("quick", 5, agree_after=10**6, talk=0.0)
    assert state.outcome.termination is Termination.NO_MOVES
    assert not any(state.can_move(p) for p in range(2))
    assert_sound(state)
