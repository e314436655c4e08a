"""The rules of a car's move, written once: from a batch of car states to their successors.

As far as its own moves go, a car is its point, its velocity, its progress along the course and
whatever the options make it carry (``Cars``: whether it has made its pit stop, whether it may
launch, whether it is off the track and how far from the finish it left it, its damage, and the
uses left in its kit). ``Transition`` turns a batch of such states into every move each may
consider, with the rules' verdict on each (``Moves``: its kind, what special move it is and why
it is refused), and a legal move into the state it leads to (``after``), including a crash and
where the car is put back.

The game asks with a batch of one car and adds what only a race knows (other cars; oil sprayed
during the race is passed in); the solver and the drivers' tables ask with whole layers of
states. Every option is read here, so a new rule is written once and both see the same moves.

Where the next changes plug in:

- Progress along the course (lines, their continuations round their ends, Levi's rule-6
  checkpoints): the transition reads progress only through ``Course.progress_after`` (in
  ``_drive`` and ``crash``); change it there and the game, the solver, the tables and the perft
  counts all follow (regenerate ``tests/data/perft`` with ``tools/perft.py`` and review).
- Checkpoints or finishes that are areas passed in any order: add a column (say ``areas``, a
  bitmask) to ``COLUMNS``, set it in ``_drive``/``crash`` from the zones a move touches
  (``ZoneLattice.touches``), declare it with ``Option.state`` and ask for it in ``columns``;
  ``StateSpace`` in the solver gives every declared column its radix (``2 ** areas``) and
  ``car_batch``/``car_after`` in ``engine/moves.py`` carry it to and from ``CarState``.
- The rules of a race (collisions, first move, gadgets, missiles, collectables): on top of the
  batch of one, in ``engine/moves.py`` (``race_moves``) and ``games/race.py``; never here.
- The computer drivers: ``search/drivers/tables.py`` builds the solver's ``ValueTable`` over
  the same successors, and ``search/drivers/driver.py`` values a candidate by
  ``successors_of`` (where the move leads, its cost in turns, and whether the car is out).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from racetrack.board import kernel
from racetrack.board.areas import marks_for
from racetrack.board.course import Course
from racetrack.board.distance import UNREACHABLE, distance_field
from racetrack.board.graphs import HashIndex
from racetrack.board.lattice import LatticeRegion, SheetGrid, ZoneLattice
from racetrack.engine.model import MoveKind, Refusal, Special
from racetrack.engine.movement import (
    CHANGES,
    component_class,
    crawl_steps,
    power_brake_arrays,
    special_offsets,
)
from racetrack.engine.views import LaunchViews
from racetrack.rules.options import OPTIONS
from racetrack.rules.ruleset import RuleSet

#: Every column of a batch of car states, in order; ``x`` to ``progress`` always matter, the
#: rest only where the options (or a car's kit) make the state carry them.
COLUMNS = ("x", "y", "vx", "vy", "progress", "pitted", "launch", "off", "exit", "damage",
           "brakes", "turbo", "boosters", "areas")
KIT_COLUMNS = ("brakes", "turbo", "boosters")
#: The largest value the ``exit`` column holds (distances beyond it compare as equal).
EXIT_CAP = np.iinfo(np.int32).max

KINDS = tuple(MoveKind)
SPECIAL_CODES = tuple(Special)
REFUSALS = tuple(Refusal)
DRIVE, COLLISION, CRASH, LEAVE, OFF, RETURN, FINISH = (KINDS.index(k) for k in (
    MoveKind.DRIVE, MoveKind.COLLISION, MoveKind.CRASH, MoveKind.LEAVE, MoveKind.OFF,
    MoveKind.RETURN, MoveKind.FINISH))


#: The options a lone car's moves depend on (``Option.moves``), each with the values under
#: which the compiled kernel may judge the moves (``None``: any value). An option missing here,
#: or a value not listed, and the numpy transition judges every move: a new rule is never
#: passed over by the kernel (``tests/board/test_kernel.py`` asks that each option be decided here,
#: and pins the kernel to this module for every value it claims).
COMPILED_OPTIONS: dict[str, frozenset | None] = {
    # how a car moves and what stops it
    "movement.choices": None, "movement.must-change": None, "movement.skid-speed": None,
    "movement.first-move": None, "walls": None,
    "movement.launch": frozenset({False}), "movement.power-braking": frozenset({False}),
    "movement.power-braking-limit": None,  # no power braking
    # leaving the track: a crash (Baker), a detour (Nystrom), a crawl (Levi), or not at all
    "leaving-track": None, "crawl-step": None, "crawl-return": None,
    "finish.landing": frozenset({"on-track"}),
    # a crash: out, put back (its damage, its restart point, the turns it misses), set back
    "crash.outcome": None, "crash.set-back": None, "crash.damage": None,
    "crash.miss-turns": None, "damage-limit": None,
    # the course's lines, whichever there are, and checkpoint areas passed in any order
    "start.line-checkpoints": None, "laps": None, "checkpoints": None,
    "areas.checkpoints": None,
    # zones that force a move: what a move touches is worked out by ``move_facts``; water as a
    # wall is the land's own shape; a pit the kernel leaves to numpy (``compiled``)
    "zones.oil": None, "zones.jump": None, "zones.slopes": None, "zones.water": None,
    "pit-stop": None,
    # a kit is carried in the state: ``StateSpace.kernel_rules`` refuses such states
    "equipment.brakes": None, "equipment.turbo": None, "equipment.shop": None,
    "equipment.brakes-reach": None, "equipment.turbo-reach": None,
    "equipment.boosters-reach": None,
}
#: How the kernel names the rules' words (``kernel_rules``).
LEAVING_CODES = {"illegal": 0, "crash": 1, "detour": 2, "crawl": 3}
CRASH_CODES = {"out": 0, "restart": 1, "set-back": 2}
OIL_CODES = {"none": 0, "skid": 1, "steady": 2}

#: How many lone cars' states a transition remembers the candidates of (``candidates``).
RECENT = 256


class Out:
    """Why a move puts the car out of the race (codes in ``Successors.out``)."""

    NO = 0
    CRASHED = 1  # the crash rules put a crashed car out
    DAMAGE = 2   # more damage than the car can take
    STRANDED = 3  # on a detour with no legal move: it can no longer come back behind its exit


class Cars:
    """A batch of car states, one row each: a 32-bit integer array per column.

    Columns given as ``None`` are zero (most states carry few of the extras); ``zero`` names
    them, so taking rows of them costs nothing."""

    __slots__ = (*COLUMNS, "zero")

    def __init__(self, **columns: np.ndarray | Sequence[int] | None):
        n = len(columns["x"])  # type: ignore[arg-type]
        zero = []
        for name in COLUMNS:
            value = columns.get(name)
            if value is None:
                zero.append(name)
                setattr(self, name, np.zeros(n, dtype=np.int32))
            else:
                setattr(self, name, np.asarray(value, dtype=np.int32))
        self.zero = frozenset(zero)

    def __len__(self) -> int:
        return len(self.x)

    def take(self, rows: np.ndarray) -> Cars:
        return Cars(**{name: None if name in self.zero else getattr(self, name)[rows]
                       for name in COLUMNS})

    @staticmethod
    def concat(parts: Sequence[Cars]) -> Cars:
        zero = frozenset.intersection(*(p.zero for p in parts)) if parts else frozenset()
        return Cars(**{name: None if name in zero else
                       np.concatenate([getattr(p, name) for p in parts])
                       for name in COLUMNS})

    def row(self, i: int) -> dict[str, int]:
        return {name: int(getattr(self, name)[i]) for name in COLUMNS}

    def moving(self) -> np.ndarray:
        return (self.vx != 0) | (self.vy != 0)


@dataclass
class Moves:
    """The moves a batch of states may consider: one row per (state, velocity)."""

    row: np.ndarray      # the state each move is of
    wx: np.ndarray       # the move's velocity
    wy: np.ndarray
    special: np.ndarray  # index into SPECIAL_CODES
    tx: np.ndarray       # the point it goes to
    ty: np.ndarray
    kind: np.ndarray | None = None     # index into KINDS, after ``judge``
    refusal: np.ndarray | None = None  # index into REFUSALS (0 when legal)
    legal: np.ndarray | None = None
    unchanged: np.ndarray | None = None
    other: np.ndarray | None = None    # in a race: the car whose point a refused move takes

    def __len__(self) -> int:
        return len(self.row)

    def take(self, rows: np.ndarray) -> Moves:
        return Moves(*(None if v is None else v[rows] for v in (
            self.row, self.wx, self.wy, self.special, self.tx, self.ty, self.kind,
            self.refusal, self.legal, self.unchanged, self.other)))


@dataclass
class Successors:
    """Where moves lead: the states after them, the turns each costs, whether the car is out
    after it (``Out`` codes; such a row's state is not raced on) and whether it crashed."""

    cars: Cars
    cost: np.ndarray
    out: np.ndarray
    crashed: np.ndarray
    left: np.ndarray | None = None  # the move leaves the track (detour or crawl)

    @staticmethod
    def concat(parts: Sequence[Successors]) -> Successors:
        left = [p.left if p.left is not None else np.zeros(len(p.cost), dtype=bool)
                for p in parts]
        return Successors(Cars.concat([p.cars for p in parts]),
                          *(np.concatenate([getattr(p, name) for p in parts])
                            for name in ("cost", "out", "crashed")), np.concatenate(left))


class CrashSpots:
    """Where crashes put cars back, remembered by move (a search meets the same crash at every
    damage and progress): a hash of (from, to) to the restart point."""

    def __init__(self):
        self.index = HashIndex()
        self.spots = np.zeros((0, 2), dtype=np.int64)

    @staticmethod
    def keys(px, py, qx, qy) -> np.ndarray:
        return kernel.move_keys(px, py, qx, qy)

    def find(self, keys: np.ndarray) -> np.ndarray:
        return self.index.find(keys)

    def add(self, keys: np.ndarray, spots: np.ndarray) -> None:
        first = len(self.spots)
        unique, where = np.unique(keys, return_index=True)
        self.index.add(unique, np.arange(first, first + len(unique)))
        self.spots = np.concatenate([self.spots, spots[where]])


class MoveMemo:
    """What a search has worked out about moves from a point of the track with a velocity: one
    byte of flags each (known, on the track, touching oil, a jump, an upgrade, a downgrade), in
    one array over the track's points and a box of velocities. A move recurs at every progress,
    damage and flag value of the states it is made from; its geometry is worked out once."""

    KNOWN, ON, OIL, JUMP, UP, DOWN = 1, 2, 4, 8, 16, 32

    def __init__(self, land: LatticeRegion, vmax_x: int, vmax_y: int):
        self.land = land
        self.vmax_x, self.vmax_y = vmax_x, vmax_y
        self.span_y = 2 * vmax_y + 1
        self.span = (2 * vmax_x + 1) * self.span_y
        self.flags = np.zeros(len(land.points) * self.span, dtype=np.uint8)

    @staticmethod
    def size(land: LatticeRegion, vmax_x: int, vmax_y: int) -> int:
        return len(land.points) * (2 * vmax_x + 1) * (2 * vmax_y + 1)

    def slots(self, px, py, wx, wy, index: np.ndarray | None = None) -> np.ndarray:
        """Each move's byte, or -1 where it has none (from off the track, or too fast).
        ``index``: the points' lattice indices, where the caller has them already."""
        index = (self.land.point_index(px, py) if index is None else index).astype(np.int64)
        ok = (index >= 0) & (np.abs(wx) <= self.vmax_x) & (np.abs(wy) <= self.vmax_y)
        return np.where(ok, index * self.span + (wx + self.vmax_x) * self.span_y
                        + (wy + self.vmax_y), -1)


def pit_stop_required(course: Course, rules: RuleSet) -> bool:
    """Whether cars must stop in a pit: the rules ask for it and the track has a pit."""
    return rules.pit_stop == "required" and bool(course.zones("pit"))


class Transition:
    """The rules of one kind of car's moves on one course (built once, then shared).

    ``swims``: the car may cross water (it was set up so, or carries a submarine).
    """

    def __init__(self, course: Course, rules: RuleSet, swims: bool = False):
        self.course = course
        self.rules = rules
        self.swims = swims
        self.closed = rules.boundary_counts
        self.grid = SheetGrid(course.sheet)
        without_water = rules.zones_water == "wall" and not swims
        land = course.region(without_water=without_water)
        drive = course.region(without_water=without_water, with_jumps=rules.zones_jump == "fly")
        self.land = LatticeRegion(land, self.grid, self.closed)
        self.drive = self.land if drive is land else LatticeRegion(drive, self.grid, self.closed)
        self.wet = without_water and bool(course.zones("water"))
        self.changes = np.array(CHANGES[rules.movement_choices], dtype=np.int32)
        self.crawl = np.array(crawl_steps(rules.crawl_step), dtype=np.int32)
        self.reaches = (rules.equipment_brakes_reach, rules.equipment_turbo_reach,
                        rules.equipment_boosters_reach)
        self.step = int(np.abs(self.changes).max())
        self.oil = ZoneLattice(course.zones("oil") if rules.zones_oil != "none" else [],
                               self.grid)
        self.jump = ZoneLattice(course.zones("jump") if rules.zones_jump == "fly" else [],
                                self.grid)
        slopes = rules.zones_slopes == "force"
        self.upgrade = ZoneLattice(course.zones("upgrade") if slopes else [], self.grid)
        self.downgrade = ZoneLattice(course.zones("downgrade") if slopes else [], self.grid)
        self.pits = pit_stop_required(course, rules)
        self.pit = ZoneLattice(course.zones("pit") if self.pits else [], self.grid)
        self.leaving = rules.leaving_track
        # Where a car that left the track must come back no farther on than where it left
        # (Nystrom's detour: behind it; Levi's crawl read with crawl-return: not-ahead: not
        # ahead of it), states off the track carry how far from the finish they left it.
        self.keeps_exit = self.leaving == "detour" or (
            self.leaving == "crawl" and rules.crawl_return == "not-ahead")
        # The detour must come back strictly behind; a crawl may come back level with it.
        self.return_level = self.leaving == "crawl"
        self.goal = course.goal
        self.first_move = rules.movement_first_move
        starts = course.start_positions if self.first_move != "free" else ()
        self.start_keys = np.sort(np.array([self.grid.cells(np.array([p.x]), np.array([p.y]))[0]
                                            for p in starts], dtype=np.int64))
        line = course.track.start
        self._recent: dict[tuple, Moves] = {}
        self.views = LaunchViews(self.drive, self.land)  # Pope's launches
        self.ahead = (0, 0) if line is None or self.first_move != "ahead" else \
            (float(line.forward[0]), float(line.forward[1]))
        # Checkpoints and a finish drawn as areas (racetrack.board.areas); falsy where there are
        # none.
        self.marks = marks_for(course, rules.areas_checkpoints)
        # ``finish.landing: anywhere``: the finishing move is judged only up to the finish.
        self.finish_anywhere = rules.finish_landing == "anywhere"

    # -- what the state carries -------------------------------------------------------------

    def columns(self, kit: bool = False, damage_limit: int | None = None) -> tuple[str, ...]:
        """The columns beyond point, velocity and progress that states must carry here: the
        options decide (``Option.state``), and whether the car has a kit and a damage limit."""
        found = []
        if self.pits:
            found.append("pitted")
        if self.rules.movement_launch:
            found.append("launch")
        if self.leaving in ("detour", "crawl"):
            found.append("off")
        if self.keeps_exit:
            found.append("exit")
        if self.rules.crash_damage == "speed" and damage_limit is not None \
                and self.rules.crash_outcome != "out":
            found.append("damage")
        if kit:
            found += KIT_COLUMNS
        if self.marks.count:
            found.append("areas")
        return tuple(found)

    # -- the compiled kernel ----------------------------------------------------------------

    @cached_property
    def compiled(self) -> bool:
        """Whether the compiled kernel's ``successors`` (``racetrack.board.kernel.expand_all`` and
        the compiled search) may stand in for ``successors`` on this course: every option in
        play has a value ``COMPILED_OPTIONS`` lists (not launches, power braking nor finishing
        off the track), the course has no pit to stop in, the lines are few enough to follow
        and, for a detour, the distance field is worked out for every point. What only numpy
        and shapely know of a move (the zones it touches, the areas it passes over, where a
        crash along it puts the car back) the kernel asks of ``move_facts``. The state must
        carry no kit (the search checks its columns)."""
        if not kernel.enabled():
            return False
        for option in OPTIONS:
            if option.moves:
                allowed = COMPILED_OPTIONS.get(option.key, frozenset())
                if allowed is not None and self.rules.option(option.key) not in allowed:
                    return False
        return (not self.pits and len(self.changes) <= 64 and len(self.crawl) <= 64
                and self.land.compiled is not None and self.drive.compiled is not None
                and self.course.compiled_lines is not None
                and len(self.land.points) < (1 << 23)
                and (not self.keeps_exit or self.exit_table is not None))

    @cached_property
    def ordinary(self) -> bool:
        """Whether the kernel's first, narrower expansion (``racetrack.board.kernel.expand``, which
        drops moves to states seen before any geometry) applies: the moves are the ordinary
        changes of velocity, judged by where they land, whether they stay on the track, and
        the rules of first moves, repeats and skids; no zone acts on them and no area counts.
        A car with no legal move is left to ``stuck``."""
        return (self.compiled and self.leaving == "illegal" and not self.marks
                and not (self.oil or self.jump or self.upgrade or self.downgrade))

    @cached_property
    def exit_table(self) -> np.ndarray | None:
        """``exit_units`` of every point of the land, for every progress and set of areas
        passed, as the kernel reads it: int32 rows (progress × sets + areas) of the land's
        points; ``None`` where the distance field is too large to work out."""
        field = distance_field(self.course, self.closed, self.rules.areas_checkpoints)
        if field.steps is None or not len(self.land.points):
            return None
        sets = 1 << self.marks.count
        if (self.goal + 1) * sets * len(self.land.points) > 1 << 26:
            return None
        x, y = self.land.points[:, 0], self.land.points[:, 1]
        n = len(x)
        rows = [self.exit_units(x, y, np.full(n, k), np.full(n, a))
                for k in range(self.goal + 1) for a in range(sets)]
        return np.ascontiguousarray(np.concatenate(rows), dtype=np.int32)

    def kernel_rules(self, damage_limit: int | None) -> tuple:
        """The rules beyond the ordinary moves as ``racetrack.board.kernel`` packs them (see
        ``unpack_rules`` in ``_kernel.c``), but for the numbering (``StateSpace``)."""
        rules = self.rules
        marks = self.marks
        return (np.ascontiguousarray(self.crawl.reshape(-1), dtype=np.int32),
                (LEAVING_CODES[self.leaving], int(self.keeps_exit), int(self.return_level)),
                (CRASH_CODES[rules.crash_outcome], int(rules.crash_set_back),
                 int(rules.crash_damage == "speed"), int(rules.crash_miss_turns),
                 -1 if damage_limit is None else int(damage_limit)),
                (OIL_CODES[rules.zones_oil] if self.oil else 0, int(bool(self.jump)),
                 int(bool(self.upgrade)), int(bool(self.downgrade))),
                (int(bool(marks)), int(marks.everything) if marks else 0,
                 int(marks.finish_bit) if marks else 0,
                 int(self.course.finish_area_mark is not None), self.course.lines_per_lap()),
                (self.exit_table if self.keeps_exit else None, 1 << marks.count))

    def move_facts(self, px: np.ndarray, py: np.ndarray, tx: np.ndarray, ty: np.ndarray,
                   mask: np.ndarray) -> np.ndarray:
        """What the kernel asks of moves p→t (``racetrack.board.kernel.MoveFacts``), worked out
        here: ``move_flags`` (on the track, the zones touched), the areas passed over
        (``AreaMarks.passed``) and the point a crash along the move puts the car back on
        (``restart_points``), each where ``mask`` asks for it."""
        values = np.zeros(len(px), dtype=np.uint64)
        rows = np.flatnonzero(mask & kernel.NEED_FLAGS)
        if len(rows):
            flags = self.move_flags(px[rows], py[rows], tx[rows], ty[rows])
            values[rows] |= flags.astype(np.uint64)
        rows = np.flatnonzero(mask & kernel.NEED_AREAS)
        if len(rows) and self.marks:
            bits, finish = self.marks.passed(px[rows], py[rows], tx[rows], ty[rows])
            code = bits.astype(np.uint64) | (finish.astype(np.uint64)
                                              << np.uint64(self.marks.count))
            values[rows] |= np.uint64(kernel.F_AREAS) | (code << np.uint64(kernel.AREAS_SHIFT))
        rows = np.flatnonzero(mask & kernel.NEED_SPOT)
        if len(rows):
            spot = self.restart_points(Cars(x=px[rows], y=py[rows]), tx[rows], ty[rows])
            index = self.land.point_index(spot[:, 0], spot[:, 1]).astype(np.int64)
            values[rows] |= np.uint64(kernel.F_SPOT) | ((index + 1).astype(np.uint64)
                                                         << np.uint64(kernel.SPOT_SHIFT))
        return values

    def compiled_rules(self) -> tuple:
        """The rules as ``racetrack.board.kernel.expand`` reads them (with the search's numbering:
        see ``racetrack.search.solver.StateSpace.compiled``): the changes, must-change, the skid
        speed (0: none), the start's progress, the start points' sheet cells and the first move's
        direction."""
        skid = self.rules.movement_skid_speed
        return (np.ascontiguousarray(self.changes.reshape(-1), dtype=np.int32),
                bool(self.rules.movement_must_change), 0 if skid is None else int(skid),
                int(self.course.start_progress),
                np.ascontiguousarray(self.start_keys, dtype=np.int64),
                float(self.ahead[0]), float(self.ahead[1]))

    # -- the moves each state may consider ----------------------------------------------------

    def move_flags(self, px, py, tx, ty, memo: MoveMemo | None = None,
                   cells: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """``MoveMemo`` flags of each move p→t: whether it stays on the track and lands on it,
        and which kinds of zone it touches (a move of no length: which the point lies in).
        ``cells``: the sheet cells of p and t, where the caller has them already."""
        n = len(px)
        if cells is None:
            cells = (self.grid.cells(px, py), self.grid.cells(tx, ty))
        flags = np.zeros(n, dtype=np.uint8)
        slot = None
        p, c = (px, py, tx, ty), cells
        todo: np.ndarray | None = None  # None: every move
        if memo is not None:
            slot = memo.slots(px, py, tx - px, ty - py, self.land.index[cells[0]])
            have = np.flatnonzero(slot >= 0)
            known = memo.flags[slot[have]]
            done = have[(known & MoveMemo.KNOWN) > 0]
            flags[done] = memo.flags[slot[done]]
            seen = np.zeros(n, dtype=bool)
            seen[done] = True
            todo = np.flatnonzero(~seen)
            p, c = tuple(v[todo] for v in p), (cells[0][todo], cells[1][todo])
        if len(p[0]):
            found = np.full(len(p[0]), MoveMemo.KNOWN, dtype=np.uint8)
            on = self.land.index[c[1]] >= 0
            ask = np.flatnonzero(on)
            if len(ask):
                on[ask] = self.drive.segments_inside(*(v[ask] for v in p),
                                                     cells=(c[0][ask], c[1][ask]))
            found |= on.astype(np.uint8) * MoveMemo.ON
            for zones, bit in ((self.oil, MoveMemo.OIL), (self.jump, MoveMemo.JUMP),
                               (self.upgrade, MoveMemo.UP), (self.downgrade, MoveMemo.DOWN)):
                if zones:
                    found |= zones.touches(*p, cells=c).astype(np.uint8) * bit
            if todo is None:
                flags = found
            else:
                flags[todo] = found
                assert slot is not None
                keep = slot[todo] >= 0
                memo.flags[slot[todo][keep]] = found[keep]
        return flags

    def unchanged_touches_oil(self, cars: Cars, oil: Sequence[BaseGeometry] = (),
                              memo: MoveMemo | None = None) -> np.ndarray:
        """Per state: whether its unchanged move touches oil (standing on oil, at rest): the
        car skids, or must keep steady, and its kit gets no grip."""
        if self.rules.zones_oil == "none" or not (self.oil or oil):
            return np.zeros(len(cars), dtype=bool)
        qx, qy = cars.x + cars.vx, cars.y + cars.vy
        hit = (self.move_flags(cars.x, cars.y, qx, qy, memo) & MoveMemo.OIL) > 0
        return hit | self._sprayed(cars.x, cars.y, qx, qy, oil)

    def _sprayed(self, px, py, qx, qy, sprayed: Sequence[BaseGeometry]) -> np.ndarray:
        """Whether each move touches oil sprayed during the race (which counts where the
        track's oil does)."""
        hit = np.zeros(len(px), dtype=bool)
        if sprayed and self.rules.zones_oil != "none" and len(px):
            coords = np.stack([np.column_stack([px, py]), np.column_stack([qx, qy])],
                              axis=1).astype(float)
            lines = shapely.linestrings(coords)
            for zone in sprayed:
                hit |= np.asarray(shapely.intersects(zone, lines))
        return hit

    def choices(self, cars: Cars, oil: Sequence[BaseGeometry] = (),
                on_oil: np.ndarray | None = None) -> Moves:
        """Every move each state may consider, in the order players see them: the ordinary
        changes (or a crawling car's steps), power brakes, launches, then the kit's special
        moves; a velocity already offered is not offered again.

        Good brakes, turbo and rocket boosters add moves only while the car has uses left and
        is not on oil (its unchanged move touches oil, or it stands on oil at rest)."""
        n = len(cars)
        crawling = (cars.off > 0) & (self.leaving == "crawl")
        normal = np.flatnonzero(~crawling)
        blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
        m = len(self.changes)
        blocks.append((np.repeat(normal, m), np.repeat(cars.vx[normal], m)
                       + np.tile(self.changes[:, 0], len(normal)),
                       np.repeat(cars.vy[normal], m) + np.tile(self.changes[:, 1], len(normal)),
                       0))
        crawlers = np.flatnonzero(crawling)
        if len(crawlers):
            k = len(self.crawl)
            blocks.append((np.repeat(crawlers, k), np.tile(self.crawl[:, 0], len(crawlers)),
                           np.tile(self.crawl[:, 1], len(crawlers)), 0))
        extra = False
        if self.rules.movement_power_braking and len(normal):
            for rows, bx, by in power_brake_arrays(cars.vx[normal], cars.vy[normal],
                                                   self.rules.movement_power_braking_limit):
                blocks.append((normal[rows], bx, by, SPECIAL_CODES.index(Special.POWER_BRAKING)))
            extra = True
        if self.rules.movement_launch:
            launching = np.flatnonzero((cars.launch > 0) & (cars.off == 0))
            if len(launching):
                blocks.append(self._launches(cars, launching))
                extra = True
        has_kit = (cars.brakes > 0) | (cars.turbo > 0) | (cars.boosters > 0)
        kitted = has_kit & (cars.off == 0)
        if kitted.any():
            if on_oil is None:
                on_oil = self.unchanged_touches_oil(cars, oil)
            kitted &= ~on_oil
            for block in self._specials(cars, np.flatnonzero(kitted)):
                blocks.append(block)
                extra = True
        row = np.concatenate([b[0] for b in blocks]).astype(np.int64)
        wx = np.concatenate([b[1] for b in blocks]).astype(np.int32)
        wy = np.concatenate([b[2] for b in blocks]).astype(np.int32)
        special = np.concatenate([np.full(len(b[0]), b[3], dtype=np.int8) for b in blocks])
        if extra:
            key = (row * (1 << 16) + (wx.astype(np.int64) + (1 << 15))) * (1 << 16) \
                + (wy.astype(np.int64) + (1 << 15))
            _, first = np.unique(key, return_index=True)
            first.sort()
            if len(first) < len(row):
                row, wx, wy, special = row[first], wx[first], wy[first], special[first]
        if n > 1 and len(blocks) > 1:
            order = np.argsort(row, kind="stable")
            row, wx, wy, special = row[order], wx[order], wy[order], special[order]
        return Moves(row, wx, wy, special, cars.x[row] + wx, cars.y[row] + wy)

    def _launches(self, cars: Cars, rows: np.ndarray):
        """Pope's fast acceleration: from a full stop, to any point of the track the car can
        reach in one straight move on it, however far.

        What a point sees depends on the point alone, and a search meets the same stopping
        points again and again (with other progress, other kit): each point's view is worked
        out once per transition (``LaunchViews``) and reused."""
        points = self.land.points
        starts = np.column_stack([cars.x[rows], cars.y[rows]])
        unique, inverse = np.unique(starts, axis=0, return_inverse=True)
        views = self.views.of(unique)
        seen = [views[i] for i in inverse.reshape(-1).tolist()]
        row = np.repeat(rows, [len(view) for view in seen])
        target = np.concatenate(seen) if seen else np.zeros(0, dtype=np.int64)
        tx, ty = points[target, 0], points[target, 1]
        return (row, tx - cars.x[row], ty - cars.y[row], SPECIAL_CODES.index(Special.LAUNCH))

    def _specials(self, cars: Cars, rows: np.ndarray):
        """The kit's special moves (good brakes, turbo, rocket boosters) for states that may
        use them, by the classes of their velocities' components."""
        if not len(rows):
            return
        choices = self.rules.movement_choices
        cx = component_class(cars.vx[rows], choices, self.reaches)
        cy = component_class(cars.vy[rows], choices, self.reaches)
        uses = {Special.GOOD_BRAKES: cars.brakes, Special.TURBO: cars.turbo,
                Special.BOOSTERS: cars.boosters}
        classes = np.unique(np.column_stack([cx, cy]), axis=0)
        for special_index in range(3):
            for kx, ky in classes:
                special, offsets = special_offsets(choices, int(kx), int(ky),
                                                   self.reaches)[special_index]
                if not offsets:
                    continue
                members = rows[(cx == kx) & (cy == ky) & (uses[special][rows] > 0)]
                if not len(members):
                    continue
                d = np.array(offsets, dtype=np.int32)
                k = len(d)
                yield (np.repeat(members, k), np.repeat(cars.vx[members], k)
                       + np.tile(d[:, 0], len(members)),
                       np.repeat(cars.vy[members], k) + np.tile(d[:, 1], len(members)),
                       SPECIAL_CODES.index(special))

    # -- the rules' verdict ---------------------------------------------------------------------

    def judge(self, cars: Cars, moves: Moves, oil: Sequence[BaseGeometry] = (),
              explain: bool = True, on_oil: np.ndarray | None = None,
              memo: MoveMemo | None = None) -> Moves:
        """Decide every move: its kind, whether it is legal and, if not, why.

        ``explain=False`` skips what only tells players why (which of two refusals applies),
        for searches that only need to know whether a move is legal."""
        rules = self.rules
        row = moves.row
        n = len(moves)
        px, py = cars.x[row], cars.y[row]
        vx, vy = cars.vx[row], cars.vy[row]
        wx, wy, tx, ty = moves.wx, moves.wy, moves.tx, moves.ty
        off = cars.off[row] > 0
        crawling = off & (self.leaving == "crawl")
        moving = (vx != 0) | (vy != 0)
        unchanged = ~crawling & (wx == vx) & (wy == vy)
        kind = np.full(n, DRIVE, dtype=np.int8)
        refusal = np.zeros(n, dtype=np.int8)
        legal = np.ones(n, dtype=bool)
        cells = (self.grid.cells(px, py), self.grid.cells(tx, ty))
        flags = self.move_flags(px, py, tx, ty, memo, cells)

        def forbid(mask: np.ndarray, why: Refusal) -> None:
            refusal[mask & legal] = REFUSALS.index(why)
            legal[mask] = False

        lands = self.land.index[cells[1]] >= 0
        on_sheet = cells[1] >= 0
        if off.any():
            kind[off] = np.where(lands[off], RETURN, OFF)
            forbid(off & ~lands & ~on_sheet, Refusal.OFF_PAPER)
            if self.keeps_exit:
                back = np.flatnonzero(off & lands & legal)
                if len(back):
                    progress = self.progress_off_track(cars.progress[row[back]],
                                                       cars.off[row[back]], px[back], py[back],
                                                       tx[back], ty[back])
                    there = self.exit_units(tx[back], ty[back], progress,
                                            cars.areas[row[back]])
                    ahead = np.zeros(n, dtype=bool)
                    left = cars.exit[row[back]]
                    if self.return_level:
                        ahead[back] = there < left
                        forbid(ahead, Refusal.AHEAD_OF_EXIT)
                    else:
                        ahead[back] = there <= left
                        forbid(ahead, Refusal.BEHIND_EXIT)
        leaving = ~off & ((flags & MoveMemo.ON) == 0)
        if self.finish_anywhere and leaving.any():
            over = self.finishes_before_leaving(cars, moves, np.flatnonzero(leaving))
            kind[over] = FINISH
            leaving[over] = False
        if leaving.any():
            if self.leaving == "crash":
                kind[leaving] = CRASH
            elif self.leaving in ("detour", "crawl"):
                kind[leaving] = LEAVE
                forbid(leaving & lands, Refusal.LEAVE_AND_RETURN)
                forbid(leaving & ~on_sheet, Refusal.OFF_PAPER)
            else:
                if explain and self.wet:
                    wet = np.flatnonzero(leaving)
                    in_water = np.zeros(n, dtype=bool)
                    in_water[wet] = self.course.surface.covers_segments(
                        np.column_stack([px[wet], py[wet]]), np.column_stack([tx[wet], ty[wet]]),
                        self.closed)
                    forbid(in_water, Refusal.WATER)
                forbid(leaving, Refusal.OFF_TRACK)

        # Zones that force the last move to be repeated or the speed to change, and skids (a
        # car at rest is never forced).
        forced = ~crawling & moving
        repeat_demanded = np.zeros(len(cars), dtype=bool)
        if forced.any():
            speed_v = np.maximum(np.abs(vx), np.abs(vy))
            speed_w = np.maximum(np.abs(wx), np.abs(wy))
            if self.upgrade:
                forbid(forced & ((flags & MoveMemo.UP) > 0) & ~(speed_w < speed_v),
                       Refusal.UPGRADE)
            if self.downgrade:
                forbid(forced & ((flags & MoveMemo.DOWN) > 0) & ~(speed_w > speed_v),
                       Refusal.DOWNGRADE)
            if self.oil or oil or self.jump:
                state = self.move_flags(cars.x, cars.y, cars.x + cars.vx, cars.y + cars.vy,
                                        memo)
                if on_oil is None:
                    on_oil = ((state & MoveMemo.OIL) > 0) | self._sprayed(
                        cars.x, cars.y, cars.x + cars.vx, cars.y + cars.vy, oil)
                touches_oil = ((flags & MoveMemo.OIL) > 0) | self._sprayed(px, py, tx, ty, oil)
                touches_jump = (flags & MoveMemo.JUMP) > 0
                state_moving = cars.moving() & ~((cars.off > 0) & (self.leaving == "crawl"))
                if rules.zones_oil == "skid":
                    skidding = (on_oil & state_moving)[row]
                    forbid(skidding & ~unchanged, Refusal.SKIDDING_ON_OIL)
                elif rules.zones_oil == "steady":
                    forbid(touches_oil & ~unchanged & forced, Refusal.STEADY_ON_OIL)
                forbid(touches_jump & ~unchanged & forced, Refusal.JUMP)
                repeat_demanded = (on_oil | ((state & MoveMemo.JUMP) > 0)) & state_moving
            skid = rules.movement_skid_speed
            if skid is not None:
                turning = vx * wy - vy * wx != 0
                forbid(forced & (speed_v >= skid) & turning & (speed_w < speed_v), Refusal.SKID)
        if rules.movement_must_change:
            forbid(unchanged & ~repeat_demanded[row], Refusal.MUST_CHANGE)
        if len(self.start_keys):
            first = self.at_start(cars)[row]
            if first.any():
                forbid(first & ~((wx != 0) | (wy != 0)), Refusal.FIRST_MOVE_STAY)
                if self.ahead != (0, 0):
                    forbid(first & (wx * self.ahead[0] + wy * self.ahead[1] <= 0),
                           Refusal.FIRST_MOVE_BACK)
        moves.kind, moves.refusal, moves.legal, moves.unchanged = kind, refusal, legal, unchanged
        return moves

    def finishes_before_leaving(self, cars: Cars, moves: Moves, rows: np.ndarray) -> np.ndarray:
        """Of moves ``rows`` (from the track, leaving it): those that finish the race on the
        part of them still on the track (``finish.landing: anywhere``). The part up to where
        the move first leaves the track is judged as a move of its own that ends nowhere (it
        reaches no waypoint, and passes over an area only by meeting its inside); where that
        finishes, the move does, and whatever lies beyond is not judged."""
        course = self.course
        src = moves.row[rows]
        # Only a move that would finish if it were all on the track can finish on a part of
        # it (a part passes no line and no area the whole does not): the rest need no
        # geometry.
        whole = course.progress_after(cars.progress[src], cars.x[src], cars.y[src],
                                      moves.tx[rows], moves.ty[rows])
        if self.marks:
            bits, finish = self.marks.passed(cars.x[src], cars.y[src], moves.tx[rows],
                                             moves.ty[rows])
            whole, _ = self.marks.advance(course, cars.progress[src], whole, cars.areas[src],
                                          bits, finish)
        near = whole >= self.goal
        if self.pits:
            near &= cars.pitted[src] > 0
        rows, src = rows[near], src[near]
        found = np.zeros(len(moves), dtype=bool)
        if not len(rows):
            return found
        px, py = cars.x[src], cars.y[src]
        tx, ty = moves.tx[rows], moves.ty[rows]
        t = self.drive.exit_fractions(px, py, tx, ty)
        ends = np.column_stack([px + t * (tx - px), py + t * (ty - py)])
        before = cars.progress[src]
        progress = course.advance(before, np.column_stack([px, py]).astype(float), ends,
                                  reach_points=False)
        if self.marks:
            bits, finish = self.marks.met(px, py, ends[:, 0], ends[:, 1])
            progress, _ = self.marks.advance(course, before, progress, cars.areas[src], bits,
                                             finish)
        found[rows[progress >= self.goal]] = True
        return found

    def at_start(self, cars: Cars) -> np.ndarray:
        """Per state: whether its next move is a first move (``movement.first-move``): the
        car is at rest, on the track, on a start point and has passed no line yet."""
        if not len(self.start_keys):
            return np.zeros(len(cars), dtype=bool)
        cells = self.grid.cells(cars.x, cars.y).astype(np.int64)
        where = np.minimum(np.searchsorted(self.start_keys, cells), len(self.start_keys) - 1)
        return ((self.start_keys[where] == cells) & (cells >= 0) & ~cars.moving()
                & (cars.off == 0) & (cars.progress == self.course.start_progress))

    def candidates(self, cars: Cars, oil: Sequence[BaseGeometry] = (),
                   explain: bool = True, memo: MoveMemo | None = None) -> Moves:
        """``choices`` judged: every move each state may consider, with the rules' verdict.

        A lone car's answer is remembered for the states asked about lately: a race asks
        about the same car several times a turn (its legal moves, the move played, the
        driver's choice, the screen), and a batch of one pays numpy's cost per call, not per
        move. Each caller gets its own copy to change."""
        if len(cars) == 1 and not oil and memo is None:
            key = (*cars.row(0).values(), explain)
            found = self._recent.get(key)
            if found is None:
                if len(self._recent) >= RECENT:
                    self._recent.clear()
                found = self._recent[key] = self._candidates(cars, oil, explain, memo)
            return found.take(np.arange(len(found)))
        return self._candidates(cars, oil, explain, memo)

    def _candidates(self, cars: Cars, oil: Sequence[BaseGeometry], explain: bool,
                    memo: MoveMemo | None) -> Moves:
        on_oil = self.unchanged_touches_oil(cars, oil, memo) if (self.oil or oil) else None
        return self.judge(cars, self.choices(cars, oil, on_oil), oil, explain, on_oil, memo)

    # -- where moves lead -------------------------------------------------------------------------

    def exit_units(self, x: np.ndarray, y: np.ndarray, progress: np.ndarray,
                   areas: np.ndarray | None = None) -> np.ndarray:
        """The distance to go from each point (in the distance field's fifths of a square),
        as the ``exit`` column holds it (Nystrom's detour and Levi's crawl under
        ``crawl-return: not-ahead`` compare against it). Points that cannot reach the finish
        all hold ``exit_cap``.

        "Farther along the course" is read as less distance to go: the distance field walks
        the track back from the finish over (point, progress, checkpoint areas passed), so it
        counts the laps and the checkpoints still to pass, and a car racing the circuit the
        other way round has its own course (the reversed track) and so its own field."""
        field = distance_field(self.course, self.closed, self.rules.areas_checkpoints)
        return np.minimum(field.units(x, y, progress, areas), self.exit_cap).astype(np.int64)

    @cached_property
    def exit_cap(self) -> int:
        """One more than the farthest distance to go of any point of the track: what the
        ``exit`` column holds for places farther than that (or that cannot finish)."""
        if not self.keeps_exit:
            return 0
        field = distance_field(self.course, self.closed, self.rules.areas_checkpoints)
        if field.steps is None:
            return int(EXIT_CAP)
        steps = field.steps[field.steps < UNREACHABLE]
        return int(np.rint(steps.max() * 5)) + 1 if len(steps) else 1

    def after(self, cars: Cars, moves: Moves, rows: np.ndarray | None = None,
              damage_limit: int | None = None, memo: CrashSpots | None = None) -> Successors:
        """The state each chosen move (``rows`` of ``moves``, judged; all by default) leads to.

        A crash is worked out here too: the car is put back on the track's lattice point
        nearest to where it left the track and starts again from rest (or is out), with the
        damage the rules give and the turns it misses counted in the move's cost."""
        if rows is None:
            rows = np.arange(len(moves))
        chosen = moves.take(rows)
        assert chosen.kind is not None
        src = chosen.row
        before = cars.take(src)
        crash = chosen.kind == CRASH
        result = self._drive(before, chosen)
        cost = np.ones(len(src), dtype=np.int32)
        out = np.zeros(len(src), dtype=np.int8)
        if crash.any():
            where = np.flatnonzero(crash)
            crashed = self.crash(before.take(where), chosen.tx[where], chosen.ty[where],
                                 damage_limit, memo=memo)
            for name in COLUMNS:
                if name not in KIT_COLUMNS:
                    getattr(result, name)[where] = getattr(crashed.cars, name)
            cost[where], out[where] = crashed.cost, crashed.out
        return Successors(result, cost, out, crash, chosen.kind == LEAVE)

    def drive_after(self, cars: Cars, moves: Moves) -> Cars:
        """Where each move leads if it drives on the track (a search uses this to drop moves
        to states it has seen before judging them, where moves cannot leave the track)."""
        kind = np.full(len(moves), DRIVE, dtype=np.int8)
        chosen = Moves(moves.row, moves.wx, moves.wy, moves.special, moves.tx, moves.ty, kind)
        return self._drive(cars.take(moves.row), chosen)

    def _drive(self, before: Cars, chosen: Moves) -> Cars:
        """The state after ordinary moves (on the track, off it, or back onto it), with the
        use of a special move spent."""
        kind = chosen.kind
        assert kind is not None
        progress = self._progress_of_moves(before, chosen)
        stopped = (chosen.wx == 0) & (chosen.wy == 0)
        pitted = before.pitted.copy()
        if self.pits:
            pitted |= (stopped & self.pit.covers(chosen.tx, chosen.ty)).astype(np.int32)
            progress = np.where((pitted == 0) & (progress >= self.goal), self.goal - 1, progress)
        launch = (stopped & before.moving()).astype(np.int32) if self.rules.movement_launch \
            else np.zeros(len(before), dtype=np.int32)
        off = np.where((kind == LEAVE) | (kind == OFF), 1, 0)
        exit_ = np.where(kind == OFF, before.exit, 0)
        leaving = np.flatnonzero(kind == LEAVE)
        if len(leaving) and self.keeps_exit:
            exit_[leaving] = self.exit_units(before.x[leaving], before.y[leaving],
                                             before.progress[leaving], before.areas[leaving])
        areas = before.areas
        if self.marks:  # checkpoints and a finish drawn as areas
            bits, finish = self.marks.passed(before.x, before.y, chosen.tx, chosen.ty)
            driven = kind != OFF  # a car off the track passes nothing until it is back on
            progress, areas = self.marks.advance(self.course, before.progress, progress,
                                                 before.areas, bits * driven, finish & driven)
            if self.pits:
                progress = np.where((pitted == 0) & (progress >= self.goal), self.goal - 1,
                                    progress)
        if self.finish_anywhere:  # over the finish and beyond the track (judged so)
            progress = np.where(kind == FINISH, self.goal, progress)
        if self.keeps_exit:  # off the track: 1 + how many lines it has lost since it left
            had = np.where(kind == OFF, before.progress + np.maximum(before.off - 1, 0),
                           np.maximum(before.progress, progress))
            off = np.where(off > 0, 1 + had - progress, 0)
        kit = {name: getattr(before, name) for name in KIT_COLUMNS}
        for special in (Special.GOOD_BRAKES, Special.TURBO, Special.BOOSTERS):
            using = chosen.special == SPECIAL_CODES.index(special)
            if using.any():
                column = kit[special.item] = kit[special.item].copy()  # type: ignore[index]
                column[using] = np.maximum(column[using] - 1, 0)
        return Cars(x=chosen.tx, y=chosen.ty, vx=chosen.wx, vy=chosen.wy, progress=progress,
                    pitted=pitted, launch=launch, off=off, exit=exit_, damage=before.damage,
                    areas=areas, **kit)

    def _progress_of_moves(self, before: Cars, chosen: Moves) -> np.ndarray:
        """Progress after ordinary moves (see ``progress_off_track`` for a car off the track
        that must come back behind where it left)."""
        progress = self.course.progress_after(before.progress, before.x, before.y, chosen.tx,
                                              chosen.ty)
        if self.keeps_exit:
            away = np.flatnonzero(before.off > 0)
            if len(away):
                progress[away] = self.progress_off_track(
                    before.progress[away], before.off[away], before.x[away], before.y[away],
                    chosen.tx[away], chosen.ty[away])
        return progress

    def progress_off_track(self, progress: np.ndarray, off: np.ndarray, px: np.ndarray,
                           py: np.ndarray, tx: np.ndarray, ty: np.ndarray) -> np.ndarray:
        """Progress after the moves of cars off the track that must come back behind where
        they left (a detour, Nystrom: "you had to make a circle and enter the race track at a
        point before the point you left it"; a crawl under ``crawl-return: not-ahead``),
        onto the track or not.

        Such a car passes and un-passes lines as any car does, and round their ends too: going
        round a line's end backwards un-passes it, coming back round it forwards passes it
        again. But it passes no line it had not passed when it left: ``off`` - 1 is how many of
        those it has lost since (so a move over the track from off it to off it again, or onto
        it, never goes on over the finish or a checkpoint it never reached). Coming back round
        the end of the start line it left round, it has its lap back, and must come back onto
        the track behind where it left, as the words say."""
        cap = np.asarray(progress) + np.maximum(np.asarray(off) - 1, 0)
        return self.course.progress_after(progress, px, py, tx, ty, round_ends=True, cap=cap)

    def crash(self, cars: Cars, tx: np.ndarray, ty: np.ndarray, damage_limit: int | None = None,
              exclude: Sequence[tuple[int, int]] = (), memo: CrashSpots | None = None,
              spots: np.ndarray | None = None) -> Successors:
        """Each car leaves the track on its move to (tx, ty): the damage its speed does, then it
        is out, or put on the lattice point nearest to where it left (not one in ``exclude``)
        to start again from rest, missing the turns the rules say.

        A car on a detour (``leaving-track: detour``), or crawling where it must come back no
        farther on than where it left (``crawl-return: not-ahead``), that has no legal move is
        out (``Out.STRANDED``): Nystrom's rule replaces the crash ("If you left the race-track,
        you had to make a circle and enter the race track at a point before the point you left
        it"), and a car that can no longer do that (every move runs off the paper, or onto the
        track ahead of where it left) has no place on the track the rule would give it. Being
        out, never put back somewhere, also means a car that left farther on is never worse off
        than one that left farther back, so the solver may keep only the farthest on of the
        cars off the track that reach the same point at the same speed (``Search``).

        Under ``crash.outcome: set-back`` the race says where each car is put back (``spots``:
        where it stood ``crash.set-back`` moves ago); without them, as in a lone car's search,
        which knows no history, a set-back of no moves leaves the car where it stands and a
        longer one ends the car's search (``Out.CRASHED``)."""
        rules = self.rules
        damage = cars.damage.copy()
        if rules.crash_damage == "speed":
            damage += np.maximum(np.abs(tx - cars.x), np.abs(ty - cars.y)).astype(np.int32)
        out = np.zeros(len(cars), dtype=np.int8)
        zero = np.zeros(len(cars), dtype=np.int32)
        if rules.crash_outcome == "out":
            out[:] = Out.CRASHED
            after = Cars(x=cars.x, y=cars.y, vx=zero, vy=zero, progress=cars.progress,
                         pitted=cars.pitted, damage=damage, brakes=cars.brakes,
                         turbo=cars.turbo, boosters=cars.boosters, areas=cars.areas)
            return Successors(after, np.ones(len(cars), dtype=np.int32), out,
                              np.ones(len(cars), dtype=bool))
        stranded = (cars.off > 0) if self.keeps_exit else np.zeros(len(cars), bool)
        if stranded.any():  # out where they are (see above); the others are put back
            put_back = np.flatnonzero(~stranded)
            found = self.crash(cars.take(put_back), tx[put_back], ty[put_back], damage_limit,
                               exclude, memo,
                               None if spots is None else np.asarray(spots)[put_back]) \
                if len(put_back) else None
            after = Cars(**{name: getattr(cars, name).copy() for name in COLUMNS})
            after.vx[:], after.vy[:], after.damage[:] = 0, 0, damage
            cost = np.full(len(cars), 1 + rules.crash_miss_turns, dtype=np.int32)
            out[stranded] = Out.STRANDED
            if found is not None:
                for name in COLUMNS:
                    getattr(after, name)[put_back] = getattr(found.cars, name)
                cost[put_back], out[put_back] = found.cost, found.out
            return Successors(after, cost, out, np.ones(len(cars), dtype=bool))
        if rules.crash_outcome == "set-back" and spots is None:
            spots = np.column_stack([cars.x, cars.y]).astype(np.int64)
            if rules.crash_set_back > 0:
                out[:] = Out.CRASHED
        if spots is not None:
            spot = np.asarray(spots, dtype=np.int64).reshape(-1, 2)
        elif memo is not None and not exclude:
            keys = memo.keys(cars.x, cars.y, tx, ty)
            found = memo.find(keys)
            spot = np.zeros((len(cars), 2), dtype=np.int64)
            known = found >= 0
            spot[known] = memo.spots[found[known]]
            new = np.flatnonzero(~known)
            if len(new):
                spot[new] = self.restart_points(cars.take(new), tx[new], ty[new])
                memo.add(keys[new], spot[new])
        else:
            spot = self.restart_points(cars, tx, ty, exclude)
        progress = self.course.progress_after(cars.progress, cars.x, cars.y, spot[:, 0],
                                              spot[:, 1], reach_points=False)
        areas = cars.areas
        if self.marks:  # a put-back passes over no area, nor a line before the areas are
            progress, areas = self.marks.advance(self.course, cars.progress, progress, areas,
                                                 zero, zero > 0)
        if self.pits:
            progress = np.where(cars.pitted == 0, np.minimum(progress, self.goal - 1), progress)
        if damage_limit is not None:  # a car put back beyond the finish has finished first
            out[(damage > damage_limit) & (progress < self.goal)] = Out.DAMAGE
        after = Cars(x=spot[:, 0], y=spot[:, 1], vx=zero, vy=zero, progress=progress,
                     pitted=cars.pitted, damage=damage, brakes=cars.brakes, turbo=cars.turbo,
                     boosters=cars.boosters, areas=areas)
        # A car put back over the finish has finished with the crash: it misses no turn after.
        cost = np.where(progress >= self.goal, 1, 1 + rules.crash_miss_turns).astype(np.int32)
        return Successors(after, cost, out, np.ones(len(cars), dtype=bool))

    def restart_points(self, cars: Cars, tx: np.ndarray, ty: np.ndarray,
                       exclude: Sequence[tuple[int, int]] = ()) -> np.ndarray:
        """Where crashing cars are put back: the track's lattice point nearest to where each
        move first leaves the track (the car's own point, if it is off the track already),
        nearest the car's point among equals, and not one in ``exclude``."""
        t = np.zeros(len(cars))
        inside = self.drive.contains(cars.x, cars.y)
        if inside.any():
            t[inside] = self.drive.exit_fractions(cars.x[inside], cars.y[inside], tx[inside],
                                                  ty[inside])
        ex = cars.x + t * (tx - cars.x)
        ey = cars.y + t * (ty - cars.y)
        return self.land.nearest_points(ex, ey, cars.x, cars.y, exclude)

    def stuck(self, cars: Cars, damage_limit: int | None = None,
              memo: CrashSpots | None = None) -> Successors:
        """States with no legal move: the car crashes along its unchanged move."""
        return self.crash(cars, cars.x + cars.vx, cars.y + cars.vy, damage_limit, memo=memo)

    def successors(self, cars: Cars, damage_limit: int | None = None,
                   memo: CrashSpots | None = None, moves_memo: MoveMemo | None = None,
                   ) -> tuple[np.ndarray, Successors]:
        """Every state each state of a lone car leads to in one turn: its legal moves, or
        (where it has none) the crash the rules make of its unchanged move. Returns the
        source row of each successor with the successors."""
        moves = self.candidates(cars, explain=False, memo=moves_memo)
        legal = np.flatnonzero(moves.legal)
        found = self.after(cars, moves, legal, damage_limit, memo)
        src = moves.row[legal]
        stuck = np.ones(len(cars), dtype=bool)
        stuck[src] = False
        rows = np.flatnonzero(stuck)
        if len(rows):
            crashed = self.stuck(cars.take(rows), damage_limit, memo)
            src = np.concatenate([src, rows])
            found = Successors.concat([found, crashed])
        return src, found


def transition_for(course: Course, rules: RuleSet, swims: bool = False) -> Transition:
    """The course's transition for these rules and this kind of car (built once per course)."""
    key = ("transition", moves_key(rules), swims)
    found = course.derived(key)
    if found is None:
        found = course.remember(key, Transition(course, rules, swims))
    return found


@cache
def moves_key(rules: RuleSet) -> tuple:
    """The options a lone car's moves depend on (``Option.moves``), as a hashable key."""
    return tuple(rules.option(o.key) for o in OPTIONS if o.moves)
