"""How the computer drivers use steered missiles (Baker's James Bond mode): when to fire one,
and where to move it on their turn.

Kept simple and deterministic, as the drivers' other rules of thumb for gadgets are: a missile
chases one rival, the nearest ahead of it by the course's distance field (the nearest of any
when none is ahead), and each turn takes the point that hits a rival now, else the point from
which its next move can end nearest where that rival is heading (its unchanged move), looking
one move ahead so that it turns in time for a bend rather than flying into the wall. It never
ends on its own car or a team-mate's while another point is open. The drivers fire when a
rival is ahead of the car and within a missile's reach of a few moves.
"""

from __future__ import annotations

from racetrack.board.distance import distance_field
from racetrack.board.geometry import Vec
from racetrack.engine.gadgets import missile_candidates
from racetrack.engine.model import Candidate, Missile, Move, MoveKind
from racetrack.search.drivers.view import RaceView

#: How far (in squares, straight) a rival may be ahead of the car for a missile to be fired.
FIRE_RANGE = 16
#: A score worse than any distance on the paper: a point from which every move hits the wall.
DEAD_END = 10.0**9


def rivals(state: RaceView, owner: int) -> list[int]:
    """The cars a missile of ``owner``'s is meant for: racing, not its own, no team-mate."""
    team = state.race.cars[owner].team
    return [j for j, car in enumerate(state.cars)
            if j != owner and car.racing and not (team and state.race.cars[j].team == team)]


def friends(state: RaceView, owner: int) -> set[Vec]:
    """The points a missile of ``owner``'s must not end on: its own car's and team-mates'."""
    team = state.race.cars[owner].team
    return {car.position for j, car in enumerate(state.cars)
            if car.racing and (j == owner or (team and state.race.cars[j].team == team))}


def _to_go(state: RaceView, index: int, point: Vec, progress: int) -> float:
    """Squares to go to the finish from ``point`` at ``progress`` on car ``index``'s course."""
    course = state.race.course_of(index)
    rules = state.race.rules
    return float(distance_field(course, rules.boundary_counts, rules.areas_checkpoints)(
        point, progress, state.cars[index].areas))


def _distance(a: Vec, b: Vec) -> float:
    return float(((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5)


def quarry(state: RaceView, owner: int, at: Vec) -> int | None:
    """The rival a missile of ``owner``'s at ``at`` chases: the nearest ahead of it by the
    course (less to go than the missile, measured at its owner's progress), else the nearest
    in a straight line; ``None`` when no rival races."""
    found = rivals(state, owner)
    if not found:
        return None
    mine = _to_go(state, owner, at, state.cars[owner].progress)
    gaps = {j: mine - _to_go(state, j, state.cars[j].position, state.cars[j].progress)
            for j in found}
    ahead = [j for j in found if 0 < gaps[j] < 1e8]
    if ahead:
        return min(ahead, key=lambda j: (gaps[j], j))
    return min(found, key=lambda j: (_distance(state.cars[j].position, at), j))


def steer_missile(state: RaceView) -> Move:
    """The move for the missile whose move it is (``state.steering``)."""
    missile = state.steering
    if missile is None:
        raise ValueError("no missile to move now")
    options = state.candidates()
    owner = missile.owner
    targets = {state.cars[j].position for j in rivals(state, owner)}
    hits = [c for c in options if c.kind is MoveKind.DRIVE and c.target in targets]
    if hits:
        return hits[0].move
    own = friends(state, owner)
    open_ = [c for c in options if c.target not in own]
    flying = [c for c in open_ if c.kind is MoveKind.DRIVE]
    if not flying:
        return (open_ or options)[0].move  # the wall rather than its own car
    chased = quarry(state, owner, missile.position)
    if chased is None:
        return min(flying, key=lambda c: (not c.unchanged, c.velocity.speed)).move
    rival = state.cars[chased]
    aim = rival.position + rival.velocity
    course = state.race.course_of(owner)
    scores = [_score(course, state, owner, c, aim) for c in flying]
    best = min(range(len(flying)), key=lambda i: (scores[i], i))
    return flying[best].move


def _score(course, state: RaceView, owner: int, candidate: Candidate, aim: Vec) -> float:
    """How near the missile can get to ``aim`` by this point and its next move (a point from
    which every move hits the wall scores ``DEAD_END``)."""
    after = Missile(owner, candidate.target, candidate.velocity)
    onward = [c.target for c in missile_candidates(course, state.race.rules, after)
              if c.kind is MoveKind.DRIVE]
    if not onward:
        return DEAD_END
    return min(_distance(candidate.target, aim), *(_distance(t, aim) for t in onward))


def worth_firing(state: RaceView) -> bool:
    """Whether the current car fires its missile this turn: a rival is ahead of it by the
    course and within ``FIRE_RANGE`` squares in a straight line."""
    index = state.current_car
    assert index is not None
    car = state.cars[index]
    if car.velocity.is_zero:
        return False
    mine = _to_go(state, index, car.position, car.progress)
    for j in rivals(state, index):
        other = state.cars[j]
        ahead = mine - _to_go(state, j, other.position, other.progress)
        if 0 < ahead < 1e8 and _distance(other.position, car.position) <= FIRE_RANGE:
            return True
    return False


def missile_points(state: RaceView) -> frozenset[Vec]:
    """Where steered missiles stand now: a car that ends its move on one is hit (where they
    go next is their owners' choice, so their points now are all a driver can keep off)."""
    return frozenset(m.position for m in state.missiles)
