"""The values a race is made of: cars, moves, candidates, events and the outcome.

All are frozen dataclasses or string enums, so they compare, hash, print readably and can be
shared between states without copying.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from racetrack.board.geometry import ZERO, Vec


class CarStatus(StrEnum):
    RACING = "racing"
    FINISHED = "finished"
    OUT = "out"


class MoveKind(StrEnum):
    """What a candidate move does, beyond going to its point."""

    DRIVE = "drive"          # an ordinary move on the track
    COLLISION = "collision"  # onto another car (only when the rules allow it)
    CRASH = "crash"          # into the wall: the crash rules apply
    LEAVE = "leave"          # off the track, where the rules allow driving off it
    OFF = "off"              # from off the track to another point off it
    RETURN = "return"        # from off the track back onto it
    PLACE = "place"          # before the start: taking a point on the start line
    FINISH = "finish"        # over the finish and on beyond the track (finish.landing: anywhere)


class Special(StrEnum):
    """Where a candidate's move comes from, when it is not one of the ordinary changes.

    The value is the move's name as players see it; ``item`` is the kit item a use of it
    spends (good brakes, turbo and rocket boosters), if any."""

    NONE = ""
    POWER_BRAKING = "power braking"
    LAUNCH = "fast acceleration after a stop"
    GOOD_BRAKES = "good brakes"
    TURBO = "turbo"
    BOOSTERS = "rocket boosters"

    @property
    def item(self) -> str | None:
        """The ``Kit`` field a use of this move spends, or ``None``."""
        return _SPECIAL_ITEMS.get(self)


_SPECIAL_ITEMS = {Special.GOOD_BRAKES: "brakes", Special.TURBO: "turbo",
                  Special.BOOSTERS: "boosters"}


class Refusal(StrEnum):
    """Why a candidate move is not legal. ``text`` words it for players; ``{}`` in a value
    stands for a detail (the other car's name, the skid speed)."""

    NONE = ""
    OFF_PAPER = "off the paper"
    BEHIND_EXIT = "must come back onto the track behind the point where it left"
    AHEAD_OF_EXIT = "may not come back onto the track farther on than the point where it left"
    LEAVE_AND_RETURN = "a move may not leave the track and come back in one go"
    WATER = "into the water: this car cannot swim"
    OFF_TRACK = "off the track"
    UPGRADE = "on an upgrade the car must slow down"
    DOWNGRADE = "on a downgrade the car must speed up"
    SKIDDING_ON_OIL = "skidding on oil: the car must repeat its last move"
    STEADY_ON_OIL = "through oil the move must repeat the last one"
    JUMP = "over a jump the move must repeat the last one"
    SKID = ("would skid: at speed {} or more a car cannot brake and turn in the same move")
    MUST_CHANGE = "the move must change (brake and/or turn)"
    FIRST_MOVE_STAY = "the first move must go somewhere: the car moves off from the start"
    FIRST_MOVE_BACK = "the first move goes ahead along the track, over the start line's arrow"
    OCCUPIED = "occupied by {}"
    AVOIDABLE_COLLISION = "occupied by {}: a collision is allowed only when it cannot be avoided"
    TAKEN = "taken by {}"

    def text(self, detail: object = "") -> str:
        return self.value.format(detail) if "{}" in self.value else self.value


class Termination(StrEnum):
    """Why a race ended. ``text`` words it as results and replays show it."""

    FIRST_ACROSS = "first across the line"
    ROUND_COMPLETE = "the round is complete"
    MAX_ROUNDS = "stopped after {} rounds"
    NO_CAR_RACING = "no car is left racing"
    STALLED = "stopped: the cars held each other up"
    STOPPED = "stopped"  # ended from outside the rules (a script, a test)

    def text(self, rounds: int = 0) -> str:
        return self.value.format(rounds) if "{}" in self.value else self.value


class EventKind(StrEnum):
    MOVED = "moved"
    SKIDDED = "skidded"
    CRASHED = "crashed"
    COLLIDED = "collided"
    DAMAGED = "damaged"
    LEFT_TRACK = "left-track"
    BACK_ON_TRACK = "back-on-track"
    CHECKPOINT = "checkpoint"
    LAP = "lap"
    FINISHED = "finished"
    OUT = "out"
    MISSED_TURN = "missed-turn"
    STUCK = "stuck"
    BLOCKED = "blocked"          # every point it could reach is taken by cars: it waits
    PLACED = "placed"
    PIT_STOP = "pit-stop"
    NEEDS_PIT = "needs-pit"
    RACE_OVER = "race-over"
    USED = "used"                # good brakes, turbo or rocket boosters spent
    COLLECTED = "collected"      # a collectable picked up
    MISSILE_FIRED = "missile-fired"
    MISSILE_MOVED = "missile-moved"
    MISSILE_HIT = "missile-hit"  # exploded on a car
    MISSILE_GONE = "missile-gone"  # met another missile, or left the track
    OIL_SPRAYED = "oil-sprayed"
    SHOT = "shot"                # rear machine guns hit a car


#: The shop's prices in dollars by default (Baker, "Design Your Own Car" and "James Bond
#: Mode"); a rule set's own are its ``prices.*`` options (``RuleSet.prices``).
PRICES: dict[str, int] = {"brakes": 10, "turbo": 10, "damage": 5, "missiles": 30,
                          "sprayers": 10, "boosters": 30, "submarine": 30, "guns": 20}
#: The most of any one item a car can hold (a sanity bound for files, not a rule).
MAX_ITEMS = 99
#: The most money a car can carry from race to race in a championship (a sanity bound for
#: files: prizes and what is picked up on the track add up to far less in any real series).
MAX_MONEY = 100_000


@dataclass(frozen=True)
class Kit:
    """What a car carries: uses of good brakes and turbo, damage points, James Bond gadgets
    and money. A car's setup holds the kit it bought (or was given); its state holds what is
    left of it during the race (collectables add to it, using things takes them away)."""

    brakes: int = 0      # good-brakes uses
    turbo: int = 0       # turbo-boost uses
    damage: int = 0      # damage points: the car is out with more damage than this
    missiles: int = 0
    sprayers: int = 0    # oil sprayers, each one 3 x 3 slick
    boosters: int = 0    # rocket boosters, each one speeds up by three once
    submarine: bool = False  # may cross water
    guns: int = 0        # sets of rear-shooting machine guns
    money: int = 0       # dollars held: unspent, or picked up on the track

    def __post_init__(self) -> None:
        for name in ("brakes", "turbo", "damage", "missiles", "sprayers", "boosters", "guns",
                     "money"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"a kit's {name} must be a whole number of 0 or more, "
                                 f"not {value!r}")
            if name != "money" and value > MAX_ITEMS:
                raise ValueError(f"a kit holds at most {MAX_ITEMS} {name}, not {value}")
        if not isinstance(self.submarine, bool):
            raise ValueError(f"a kit's submarine must be true or false, not {self.submarine!r}")

    def cost(self, prices: Mapping[str, int] = PRICES) -> int:
        """What the kit costs in the shop at ``prices`` (money held is not bought)."""
        return sum(prices[name] * int(getattr(self, name)) for name in PRICES)

    def to_data(self) -> dict[str, int | bool]:
        """The items held, for files: only those the car has."""
        return {name.replace("_", "-"): value for name, value in self.__dict__.items() if value}

    def describe(self) -> str:
        """A short line for the HUD and the results: ``brakes 2, turbo 2, $10``."""
        words = {"brakes": "brakes", "turbo": "turbo", "damage": "damage pts",
                 "missiles": "missiles", "sprayers": "oil", "boosters": "boosters",
                 "guns": "guns"}
        parts = [f"{words[name]} {getattr(self, name)}" for name in words
                 if getattr(self, name)]
        if self.submarine:
            parts.append("submarine")
        if self.money:
            parts.append(f"${self.money}")
        return ", ".join(parts) or "nothing"


@dataclass(frozen=True)
class Missile:
    """A missile in flight (James Bond mode): it moves on its owner's turn, like a car (its
    owner steers it, turbo allowed every turn) or, under ``gadgets.missile-flight: straight``,
    straight on with a turbo boost."""

    owner: int
    position: Vec
    velocity: Vec


@dataclass(frozen=True)
class Handover:
    """A car a person took over part way through a race (watching its replay, then playing
    on): the computer driver that drove it until then, and how many of the race's moves had
    been made. Its moves before that were the computer's, which a record or a ranking of
    people must know."""

    driver: str
    after: int


@dataclass(frozen=True)
class CarSetup:
    """A car as the players set it up before the race."""

    name: str
    colour: str = "red"
    driver: str = "human"
    can_swim: bool = False
    reverse: bool = False  # races the circuit the other way round (where the rules allow)
    kit: Kit | None = None  # what it bought in the shop; None: what the rules give every car
    budget: int | None = None  # what it had to spend in the shop; None: the rules' budget
    team: str = ""  # team racing: cars with the same team name score together
    handover: Handover | None = None  # human only from a take-over; None: all along

    @property
    def is_human(self) -> bool:
        return self.driver == "human"

    @property
    def human_all_along(self) -> bool:
        """A person drove it from the start (not taken over from a computer driver)."""
        return self.is_human and self.handover is None

    def driver_at(self, move: int) -> str:
        """Who chose the race's move number ``move`` (counted from 0) for this car."""
        if self.handover is not None and move < self.handover.after:
            return self.handover.driver
        return self.driver


@dataclass(frozen=True)
class FinishRecord:
    """When and how a car crossed the finish: for ranking cars that finish in the same round."""

    round: int
    turn_position: int  # its place in the round's order of moving
    fraction: float     # where along its finishing move it met the line
    past: float         # how far beyond the line it ended


@dataclass(frozen=True)
class CarState:
    """Everything about one car that changes during a race."""

    position: Vec
    velocity: Vec = ZERO
    progress: int = 1
    damage: int = 0
    status: CarStatus = CarStatus.RACING
    missed_turns: int = 0
    off_track: bool = False
    exit_distance: float | None = None
    # Off the track on a detour: lines un-passed round their ends since it left, which it may
    # pass again (and no others) until it is back on.
    lines_lost: int = 0
    finish: FinishRecord | None = None
    out_round: int | None = None
    moves: int = 0
    pitted: bool = False  # has made its pit stop (where the rules require one)
    launch: bool = False  # braked to a full stop last move: may launch (Pope's rule)
    kit: Kit = Kit()  # what the car still holds: uses left, damage points, gadgets, money
    areas: int = 0  # the checkpoint areas passed this lap, checkpoint area k as bit k

    @property
    def racing(self) -> bool:
        return self.status is CarStatus.RACING


class Action(StrEnum):
    """Something a car does on its turn besides moving (James Bond mode)."""

    MISSILE = "missile"  # fire a missile before the move
    OIL = "oil"          # spray a 3 x 3 oil slick behind the car after the move
    RETIRE = "retire"    # give up the race where the car stands (a seat that dropped out)


#: How a missile's move is marked in a move's text and in a replay's row.
MISSILE_MARK = "steer"


@dataclass(frozen=True)
class Move:
    """A player's choice for a turn: the lattice point the car goes to, and perhaps an action
    (``Move(Vec(5, 3), Action.MISSILE)``; as text ``"5,3+missile"``); or, with ``missile``,
    the point the player's missile in flight goes to on the same turn (``"5,3+steer"``)."""

    target: Vec
    action: Action | None = None
    missile: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", Vec(int(self.target[0]), int(self.target[1])))
        if self.action is not None:
            object.__setattr__(self, "action", Action(self.action))
        if self.missile and self.action is not None:
            raise ValueError("a missile's move carries no action")

    def __str__(self) -> str:
        text = f"{self.target.x},{self.target.y}"
        if self.missile:
            return f"{text}+{MISSILE_MARK}"
        return f"{text}+{self.action.value}" if self.action else text

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from ``"x,y"``, ``"x,y+action"`` or ``"x,y+steer"`` (what ``str`` gives)."""
        point, _, action = text.partition("+")
        x, _, y = point.partition(",")
        if action == MISSILE_MARK:
            return cls(Vec(int(x), int(y)), missile=True)
        return cls(Vec(int(x), int(y)), Action(action) if action else None)


@dataclass(frozen=True)
class Candidate:
    """One point the current car might go to this turn, with the rules' verdict on it."""

    target: Vec
    velocity: Vec
    legal: bool
    kind: MoveKind = MoveKind.DRIVE
    reason: str = ""
    unchanged: bool = False  # the last move repeated exactly: the "no change" point
    note: Special = Special.NONE  # a special move: power braking, a launch, turbo, ...
    refusal: Refusal = Refusal.NONE  # why it is not legal (``reason`` words it)
    missile: bool = False  # a point the car's missile may go to, not the car

    @property
    def move(self) -> Move:
        return Move(self.target, missile=self.missile)


@dataclass(frozen=True)
class Event:
    """Something that happened in a race, for the log, the HUD and tests."""

    kind: EventKind
    car: int | None
    message: str
    position: Vec | None = None
    amount: int = 0


@dataclass(frozen=True)
class Outcome:
    """How a race ended: the ranking of car indexes (best first), the winner and why
    (``termination``; ``reason`` words it)."""

    ranking: tuple[int, ...]
    winner: int | None
    termination: Termination
    rounds: int
    reason: str


#: Team racing: points for first, second and third place by default (Baker); a rule set's own
#: are its ``teams.*`` options (``RuleSet.team_points``).
TEAM_POINTS = (3, 2, 1)


def team_standings(cars: tuple[CarSetup, ...] | list[CarSetup],
                   ranking: tuple[int, ...], out: frozenset[int] = frozenset(),
                   points_by_place: Sequence[int] = TEAM_POINTS) -> list[tuple[str, int]]:
    """Each team's points from a race's ranking, best first: three for a win, two for second,
    one for third (Baker's team racing); a car that went ``out`` scores nothing (as in a
    championship). A car with no team name is a team of its own; teams level on points are
    listed in the order of their best car."""
    def team(index: int) -> str:
        return cars[index].team or cars[index].name

    points: dict[str, int] = {}
    for place, index in enumerate(ranking):
        points[team(index)] = points.get(team(index), 0) + (
            points_by_place[place] if place < len(points_by_place) and index not in out else 0)
    first = {}
    for place, index in enumerate(ranking):
        first.setdefault(team(index), place)
    return sorted(points.items(), key=lambda item: (-item[1], first[item[0]]))
