"""James Bond's gadgets and Baker's collectables: what a race adds beyond the cars' moves.

The race (``racetrack.games.race``) owns the turn machine; this module owns the gadgets' state (the
missiles in flight, the oil sprayed, the collectables taken) and their rules: picking up a
collectable, spraying oil, rear machine guns, firing a missile, and its moves. Its interface
is narrow on purpose: cars, missiles, the course and the rules go in; new cars, events and
``Hit``s (damage for the race to deal, since only the race knows damage limits and knock-outs)
come out. It never imports the game, so the game can use it without a cycle.

Baker's missile: "You can fire the missile one time whenever it's your turn. It moves on your
turn just like it was another car - so it starts off moving the same speed as you are. It's
advantage is that it can use turbo-boost every turn until it hits something. (Not 'good
brakes' though - it's boost only makes it go faster!). If it ends up on the same square as any
car (including your own!) then it explodes and causes 3 points of damage. If two missiles hit
each other then they both vanish." Read so (``gadgets.missile-flight: steered``):

- It is launched on its owner's turn, before the car moves, from the car's point with the
  car's velocity (its last move), and makes its first move on that same turn.
- On each of its owner's turns (a turn the car sits out too: the missile is "another car"),
  after the car has moved, the owner moves it with a car's choices (the rules' movement) and
  a turbo boost of ``gadgets.missile-boost`` that only speeds it up, every turn, never good
  brakes. Every choice is allowed: one whose move leaves the track hits the wall, and the
  missile is gone.
- It hits what it ends its move on, never what it passes: a car's point (its owner's too: it
  explodes for ``gadgets.missile-damage`` to each car there) or another missile's (both
  vanish). A car that ends its own move on a missile's point is hit the same way.
- It lives until it hits something, or until its owner no longer races (out, or finished):
  with no more turns of its owner it has no more moves, and it is taken off the paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import shapely

from racetrack.board.course import Course
from racetrack.board.geometry import Vec
from racetrack.engine.model import (
    MAX_ITEMS,
    Candidate,
    CarSetup,
    CarState,
    Event,
    EventKind,
    Kit,
    Missile,
    MoveKind,
    Special,
)
from racetrack.engine.movement import CHANGES, special_velocities
from racetrack.engine.transition import MoveMemo, transition_for
from racetrack.rules.ruleset import RuleSet

#: What each gadget collectable gives (one of that gadget). The coins' and money's values are
#: rule options (``collectables.*``).
GADGET_GAINS = {"missile": Kit(missiles=1), "oil-sprayer": Kit(sprayers=1),
                "rocket-boosters": Kit(boosters=1), "submarine": Kit(submarine=True),
                "machine-guns": Kit(guns=1)}


@dataclass(frozen=True)
class Hit:
    """Damage a gadget deals to a car: the race applies it (and puts the car out if it is too
    much)."""

    car: int
    amount: int
    where: Vec
    why: str


def add_kits(a: Kit, b: Kit) -> Kit:
    """Both kits together; an item is capped at ``MAX_ITEMS`` (a collectable beyond the cap
    is picked up but adds nothing more)."""
    def total(name: str) -> int | bool:
        if name == "submarine":
            return getattr(a, name) or getattr(b, name)
        both = getattr(a, name) + getattr(b, name)
        return both if name == "money" else min(both, MAX_ITEMS)

    return Kit(**{name: total(name) for name in Kit.__dataclass_fields__})


def collectable_gain(rules: RuleSet, kind: str, value: int | None) -> Kit:
    """What picking up a collectable of ``kind`` gives (``value``: the dollars a money
    collectable holds, where the track says)."""
    if kind == "penny":
        return Kit(turbo=rules.pickups_penny)
    if kind == "nickel":
        return Kit(brakes=rules.pickups_nickel)
    if kind == "dime":
        return Kit(damage=rules.pickups_dime)
    if kind == "money":
        return Kit(money=value or rules.pickups_money)
    return GADGET_GAINS[kind]


def heading(velocity: Vec) -> Vec:
    """The unit step a car is heading in: along its larger component, diagonal when the two
    are equal; zero at rest. "Behind" a car is the opposite step."""
    ax, ay = abs(velocity.x), abs(velocity.y)
    sx = (velocity.x > 0) - (velocity.x < 0)
    sy = (velocity.y > 0) - (velocity.y < 0)
    return Vec(sx if ax >= ay else 0, sy if ay >= ax else 0)


def oil_patch(point: Vec, velocity: Vec, size: int = 3) -> tuple[tuple[float, float], ...]:
    """The ``size`` x ``size`` oil slick an oil sprayer lays right behind a car at ``point``
    that moved by ``velocity``: the square of lattice points centred just far enough behind
    the car that its edge lies half a square behind it (two steps back for Baker's 3 x 3)."""
    back = heading(velocity)
    half = size / 2
    shift = (size + 1) // 2
    cx, cy = point.x - shift * back.x, point.y - shift * back.y
    return ((cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half),
            (cx - half, cy + half))


def missile_boost(velocity: Vec, boost: int = 2) -> Vec:
    """A velocity after a turbo boost: ``boost`` squares faster along its larger component
    (the east-west one when they are equal)."""
    if abs(velocity.x) >= abs(velocity.y):
        return Vec(velocity.x + boost * ((velocity.x > 0) - (velocity.x < 0)), velocity.y)
    return Vec(velocity.x, velocity.y + boost * ((velocity.y > 0) - (velocity.y < 0)))


def missile_choices(rules: RuleSet, velocity: Vec) -> list[tuple[Vec, Special]]:
    """A steered missile's velocities this turn, in the order players see them: a car's
    choices under the rules' movement, then what a turbo boost of ``gadgets.missile-boost``
    adds (faster only: "it's boost only makes it go faster")."""
    choices = rules.movement_choices
    found = [(velocity + change, Special.NONE) for change in CHANGES[choices]]
    seen = {w for w, _ in found}
    boost = rules.gadgets_missile_boost
    if boost > 1:
        for w in special_velocities(velocity, choices, "faster", boost):
            if w not in seen:
                seen.add(w)
                found.append((w, Special.TURBO))
    return found


def missile_stays_on(course: Course, rules: RuleSet, start: Vec,
                     targets: Sequence[Vec]) -> list[bool]:
    """Whether a missile's move from ``start`` to each of ``targets`` stays on the track (else
    it hits the wall and is gone). The one wall test of every missile, flown straight or
    steered: a missile is judged as a car that cannot swim, by the transition's own test
    (the whole move on the track, touching the wall as the rules allow, landing on it), so
    the two kinds of flight never disagree about the same move."""
    if not targets:
        return []
    px = np.full(len(targets), start.x, dtype=np.int32)
    py = np.full(len(targets), start.y, dtype=np.int32)
    tx = np.array([t.x for t in targets], dtype=np.int32)
    ty = np.array([t.y for t in targets], dtype=np.int32)
    flags = transition_for(course, rules).move_flags(px, py, tx, ty)
    return ((flags & MoveMemo.ON) > 0).tolist()


def missile_candidates(course: Course, rules: RuleSet, missile: Missile) -> list[Candidate]:
    """Every point a steered missile may go to this turn: all allowed, those whose move
    leaves the track (``missile_stays_on``) marked as crashes, since the missile hits the
    wall there and is gone."""
    choices = missile_choices(rules, missile.velocity)
    p = missile.position
    targets = [p + w for w, _ in choices]
    on = missile_stays_on(course, rules, p, targets)
    return [Candidate(target, w, legal=True,
                      kind=MoveKind.DRIVE if inside else MoveKind.CRASH,
                      unchanged=w == missile.velocity, note=special, missile=True)
            for (w, special), target, inside in zip(choices, targets, on, strict=True)]


def on_segment(p: Vec, q: Vec, point: Vec) -> bool:
    """Whether the lattice point lies on the move p -> q, the start excluded."""
    if point == p:
        return False
    d, e = q - p, point - p
    if d.x * e.y - d.y * e.x:
        return False
    return min(p.x, q.x) <= point.x <= max(p.x, q.x) and min(p.y, q.y) <= point.y <= max(p.y, q.y)


class Gadgets:
    """The gadgets' side of one race: missiles in flight, oil sprayed during the race (its
    corners, and the shapes the rules test moves against) and the collectables taken."""

    def __init__(self, rules: RuleSet, names: Sequence[str]):
        self.rules = rules
        self.names = tuple(names)
        self.missiles: list[Missile] = []
        self.oil: list[tuple[tuple[float, float], ...]] = []
        self.oil_shapes: list = []
        self.taken: set[int] = set()
        # Steered missiles still to move this turn, their owner's, in the order fired.
        self.to_steer: list[Missile] = []
        # A steered missile fired this turn that has not moved yet: it shares its car's point
        # without ending a move there, so it strikes nothing until its first move.
        self.launched: Missile | None = None

    def clone(self) -> Gadgets:
        other = Gadgets(self.rules, self.names)
        other.missiles = list(self.missiles)
        other.to_steer = list(self.to_steer)
        other.launched = self.launched
        other.oil = list(self.oil)
        other.oil_shapes = list(self.oil_shapes)
        other.taken = set(self.taken)
        return other

    def lying(self, collectables: Sequence) -> list[tuple[int, object]]:
        """The collectables still lying on the track (index, collectable)."""
        return [(i, c) for i, c in enumerate(collectables) if i not in self.taken]

    def collect(self, index: int, car: CarState, collectables: Sequence, p: Vec, q: Vec,
                ) -> tuple[CarState, list[Event]]:
        """Baker: the first car to drive into a collectable picks it up: every one still
        lying on a lattice point of the move p -> q (its start excluded)."""
        if self.rules.collectables != "taken":
            return car, []
        events = []
        for number, item in self.lying(collectables):
            if not on_segment(p, q, item.at):  # type: ignore[attr-defined]
                continue
            self.taken.add(number)
            kind = item.kind  # type: ignore[attr-defined]
            gain = collectable_gain(self.rules, kind, item.value)  # type: ignore[attr-defined]
            car = replace(car, kit=add_kits(car.kit, gain))
            events.append(Event(EventKind.COLLECTED, index, f"{self.names[index]} picks up "
                                f"the {kind} ({gain.describe()})", item.at))  # type: ignore
        return car, events

    def spray(self, index: int, car: CarState, p: Vec, q: Vec) -> tuple[CarState, list[Event]]:
        """The car (now at ``q``, having moved from ``p``) sprays a slick behind it."""
        car = replace(car, kit=replace(car.kit, sprayers=car.kit.sprayers - 1))
        corners = oil_patch(q, q - p, self.rules.gadgets_oil_size)
        self.oil.append(corners)
        self.oil_shapes.append(shapely.Polygon(corners))
        return car, [Event(EventKind.OIL_SPRAYED, index, f"{self.names[index]} sprays oil "
                           "behind it", q)]

    def guns(self, index: int, cars: Sequence[CarState], setups: Sequence[CarSetup],
             shot: set[int]) -> tuple[list[Event], list[Hit]]:
        """Rear machine guns fire by themselves at a car one square behind (at the start and
        at the end of the turn; each car is shot at most once a turn; never a team-mate): each
        set does the rules' damage."""
        car = cars[index]
        sets = car.kit.guns
        if not sets or not car.racing or car.velocity.is_zero:
            return [], []
        behind = car.position - heading(car.velocity)
        team = setups[index].team
        events: list[Event] = []
        hits: list[Hit] = []
        amount = sets * self.rules.gadgets_gun_damage
        for other, target in enumerate(cars):
            if (other == index or other in shot or not target.racing
                    or target.position != behind
                    or (team and setups[other].team == team)):
                continue
            shot.add(other)
            events.append(Event(EventKind.SHOT, index, f"{self.names[index]}'s rear guns hit "
                                f"{self.names[other]}", behind, amount))
            hits.append(Hit(other, amount, behind, "machine guns"))
        return events, hits

    def fire(self, index: int, car: CarState) -> tuple[CarState, list[Event]]:
        """The car fires a missile from its point with its velocity."""
        car = replace(car, kit=replace(car.kit, missiles=car.kit.missiles - 1))
        self.missiles.append(Missile(index, car.position, car.velocity))
        if self.steered:
            self.launched = self.missiles[-1]
        return car, [Event(EventKind.MISSILE_FIRED, index, f"{self.names[index]} fires a "
                           "missile", car.position)]

    def fly(self, owner: int, course: Course, cars: Sequence[CarState],
            ) -> tuple[list[Event], list[Hit]]:
        """Straight missiles (``gadgets.missile-flight: straight``): the owner's move on its
        turn, each straight on with a turbo boost; one that leaves the track
        (``missile_stays_on``, as a steered one) is gone. Then missiles strike."""
        events: list[Event] = []
        flown: list[Missile | None] = list(self.missiles)
        for number, missile in enumerate(self.missiles):
            if missile.owner != owner:
                continue
            velocity = missile_boost(missile.velocity, self.rules.gadgets_missile_boost)
            target = missile.position + velocity
            if not missile_stays_on(course, self.rules, missile.position, [target])[0]:
                flown[number] = None
                events.append(Event(EventKind.MISSILE_GONE, owner, f"{self.names[owner]}'s "
                                    "missile hits the wall", missile.position))
                continue
            flown[number] = Missile(owner, target, velocity)
            events.append(Event(EventKind.MISSILE_MOVED, owner, f"{self.names[owner]}'s "
                                f"missile flies to {tuple(target)}", target))
        self.missiles = [m for m in flown if m is not None]
        more, hits = self.strikes(cars)
        return events + more, hits

    @property
    def steered(self) -> bool:
        """Whether missiles are steered by their owners (else they fly straight by
        themselves)."""
        return self.rules.gadgets_missile_flight == "steered"

    def begin_steering(self, owner: int) -> bool:
        """The owner's turn has come to its missiles: each waits for its move, in the order
        fired. Whether any does."""
        self.to_steer = [m for m in self.missiles if m.owner == owner] if self.steered else []
        return bool(self.to_steer)

    def steer(self, course: Course, candidate: Candidate, cars: Sequence[CarState],
              ) -> tuple[list[Event], list[Hit]]:
        """The missile whose move it is goes to the ``candidate``'s point (one of its
        ``missile_candidates``); into the wall it is gone. Then missiles strike."""
        missile = self.to_steer.pop(0)
        if missile == self.launched:
            self.launched = None
        owner = missile.owner
        number = self.missiles.index(missile)
        target = candidate.target
        if candidate.kind is MoveKind.CRASH:
            del self.missiles[number]
            events = [Event(EventKind.MISSILE_GONE, owner, f"{self.names[owner]}'s missile "
                            "hits the wall", target)]
        else:
            self.missiles[number] = Missile(owner, target, candidate.velocity)
            events = [Event(EventKind.MISSILE_MOVED, owner, f"{self.names[owner]}'s missile "
                            f"goes to {tuple(target)}", target)]
        more, hits = self.strikes(cars)
        self.to_steer = [m for m in self.to_steer if m in self.missiles]
        return events + more, hits

    def ground(self, cars: Sequence[CarState]) -> list[Event]:
        """Missiles whose owner no longer races have no more turns to move on: they are
        taken off the paper."""
        gone = [m for m in self.missiles if not cars[m.owner].racing]
        if not gone:
            return []
        self.missiles = [m for m in self.missiles if cars[m.owner].racing]
        self.to_steer = [m for m in self.to_steer if m in self.missiles]
        if self.launched not in self.missiles:
            self.launched = None
        return [Event(EventKind.MISSILE_GONE, m.owner, f"{self.names[m.owner]}'s missile "
                      "falls harmless: its car races no more", m.position) for m in gone]

    def strikes(self, cars: Sequence[CarState]) -> tuple[list[Event], list[Hit]]:
        """Missiles that meet vanish together; a missile on a car's point explodes."""
        events: list[Event] = []
        hits: list[Hit] = []
        at: dict[Vec, list[Missile]] = {}
        keep: list[Missile] = []
        for missile in self.missiles:
            if missile == self.launched:
                keep.append(missile)
            else:
                at.setdefault(missile.position, []).append(missile)
        damage = self.rules.gadgets_missile_damage
        for point, group in at.items():
            if len(group) > 1:
                events.append(Event(EventKind.MISSILE_GONE, None, f"{len(group)} missiles "
                                    f"meet at {tuple(point)} and vanish", point))
                continue
            victims = [i for i, c in enumerate(cars) if c.racing and c.position == point]
            if not victims:
                keep.append(group[0])
                continue
            for victim in victims:
                events.append(Event(EventKind.MISSILE_HIT, victim, f"{self.names[group[0].owner]}"
                                    f"'s missile explodes on {self.names[victim]}", point,
                                    damage))
                hits.append(Hit(victim, damage, point, "a missile"))
        self.missiles = [m for m in self.missiles if m in keep]
        return events, hits
