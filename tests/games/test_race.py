"""Random races for every variant: never an illegal state, always an end; pinned counts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup, CarStatus, Move, MoveKind
from racetrack.games.race import Race
from racetrack.rules import bundled_variant_names, load_rules

VARIANTS = bundled_variant_names()
TRACK = load_track(find_track("riddler-opolis"))


def check_invariants(state):
    race = state.race
    course = race.course
    rules = race.rules
    # Cars still to choose their start point stand nowhere yet.
    racing = [c for i, c in enumerate(state.cars) if c.racing and i not in state.unplaced]
    if rules.cars == "forbidden":
        spots = [tuple(c.position) for c in racing]
        assert len(spots) == len(set(spots)), "two cars on one point"
    for index, car in enumerate(state.cars):
        if not car.racing:
            continue
        assert course.on_sheet([car.position])[0], "a car left the paper"
        if not car.off_track:
            assert course.surface.covers_points([car.position], rules.boundary_counts)[0], \
                "a car on the track stands off it"
        assert 0 <= car.progress < course.goal
        limit = state.damage_limit(index)  # the rules' limit, or the car's damage points
        if limit is not None:
            assert car.damage <= limit
    for car in state.cars:
        if car.status is CarStatus.FINISHED:
            assert car.progress == course.goal
    if not state.is_over:
        assert any(c.legal for c in state.candidates()), "the current car has no choice"


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), cars=st.integers(1, 3))
def test_random_playouts_stay_legal_and_end(variant, seed, cars):
    rules = load_rules(variant).replace(max_rounds=40)
    race = Race(TRACK, rules, [CarSetup(f"Car {i}") for i in range(cars)], seed=seed)
    state = race.start()
    rng = random.Random(seed)
    moves = 0
    while not state.is_over:
        check_invariants(state)
        candidates = [c for c in state.candidates() if c.legal]
        # Prefer moves that stay on the track so races last, but take the others too.
        calm = [c for c in candidates if c.kind is MoveKind.DRIVE]
        choice = rng.choice(calm if calm and rng.random() < 0.9 else candidates)
        move = choice.move
        actions = state.actions()  # now and then fire a missile or spray oil with it
        if actions and rng.random() < 0.3:
            armed = Move(move.target, rng.choice(actions))
            if state.action_problem(armed, choice) is None:
                move = armed
        steering = state.steering is not None  # a missile's move is its owner's, not a turn
        state.apply(move)
        moves += not steering
        assert moves <= 40 * cars + cars
    check_invariants(state)
    outcome = state.outcome
    assert sorted(outcome.ranking) == list(range(cars))
    assert outcome.rounds <= 40


def perft(state, depth):
    """The number of move sequences of a given length (one car), like chess perft counts."""
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        total += perft(child, depth - 1)
    return total


# Move sequences of one car from the best start of Riddler-opolis, (0, -5), at depths 1-3.
# Baker's crashes are moves (5 ** 3); Levi's crawl adds 8-way steps off the track (and back on
# no farther along than where the car left, so two fewer at depth 3); touching the
# wall is off the track on the simulation sheet, so it has fewer than Gardner. Gardner's and the
# simulation sheet's first move goes ahead: three choices from rest.
PINNED = {
    "gardner": (3, 22, 159),
    "baker": (5, 25, 125),
    "nystrom": (8, 64, 502),
    "classroom": (9, 65, 457),
    "classroom-24": (25, 383),
    "simulation": (3, 19, 129),
    "levi": (5, 25, 129),
}


@pytest.mark.parametrize("variant", sorted(PINNED))
def test_pinned_move_counts(variant):
    race = Race(TRACK, load_rules(variant), [CarSetup("Solo")])
    state = race.start()
    state.place(0, (0, -5))
    depths = (1, 2) if variant == "classroom-24" else (1, 2, 3)
    assert tuple(perft(state, d) for d in depths) == PINNED[variant][:len(depths)]
