"""What each candidate point does, told before the click: safe, into the wall, off the track,
into another car, over the finish, a special move, or not allowed and why; with the numbers
(damage it costs against the limit, out or not, how far past the line, turns missed) and a
warning when the car would be too fast to go on safely.

The answer comes from the rules themselves: each legal candidate is played on a copy of the
race and the car's state and events read back, so what the window promises is exactly what
``RaceState.apply`` will do. "Too fast for the bend" looks one turn ahead on the same copy (no
safe point next turn) and, where a drivers' moves-to-go table is at hand, all the way (no way
to the finish that stays off the wall).

Nothing here draws; the window turns an ``Outlook`` into a mark and a hover line.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from racetrack.board.geometry import Vec
from racetrack.engine.model import Candidate, CarStatus, EventKind, MoveKind
from racetrack.games.race import RaceState
from racetrack.search.compact import CompactTable
from racetrack.search.solver import UNSOLVED


class Look(StrEnum):
    """What a candidate does, as one word the window draws a mark for (and a legend names)."""

    SAFE = "safe"
    FINISH = "finishes"
    WALL = "hits the wall"
    LEAVE = "leaves the track"
    COLLIDE = "collides"
    SPECIAL = "special move"
    START = "start point"
    ILLEGAL = "not allowed"


#: How a car that leaves the track comes back, by the rules' ``leaving-track`` option.
LEAVE_RULES = {"detour": "must come back on behind the point where it left",
               "crawl": "crawls back one square a turn"}
#: Moves that keep a car on the track without a penalty: what "a safe point" means.
SAFE_KINDS = frozenset({MoveKind.DRIVE, MoveKind.RETURN, MoveKind.PLACE, MoveKind.FINISH})


@dataclass(frozen=True)
class Outlook:
    """One candidate with what choosing it would do to the car, up to its next choice."""

    candidate: Candidate
    look: Look
    damage: int = 0                  # damage the move costs the car
    damage_after: int = 0            # the car's damage once it has moved
    damage_limit: int | None = None  # the most damage the car survives (None: no limit)
    out: bool = False                # the move puts the car out of the race
    past: float | None = None        # finishing: how far past the line it ends
    wins: bool = False               # finishing ends the race with this car the winner
    missed_turns: int = 0            # turns the car will sit out
    restart: Vec | None = None       # after a crash: where the car starts again, from rest
    other: str = ""                  # the car it collides with
    lap: str = ""                    # "lap 2 of 3", "checkpoint 2": a line it passes
    pit: str = ""                    # about the pit stop, when the move concerns it
    no_way_on: bool = False          # no safe point next turn
    doomed: bool = False             # no way on to the finish that stays off the wall
    leave_rule: str = ""             # leaving the track: how the car must come back
    missile: bool = False            # the point is the car's missile's, not the car's

    @property
    def target(self) -> Vec:
        return self.candidate.target

    @property
    def warning(self) -> bool:
        """Whether the point, safe for now, leads into trouble."""
        return (self.no_way_on or self.doomed) and not self.out

    def words(self) -> str:
        """The hover line: what the move does, in numbers ("hits the wall: +6 damage, 7/5:
        out"; "finishes: 2.5 past the line · wins"; "speed 5 · too fast for the bend: no safe
        point next turn")."""
        candidate = self.candidate
        if self.missile:
            return self._missile_words()
        if self.look is Look.ILLEGAL:
            return f"not allowed: {candidate.reason}"
        if self.look is Look.START:
            return "start here"
        heads = {Look.WALL: "hits the wall", Look.FINISH: "finishes",
                 Look.COLLIDE: f"collides with {self.other}" if self.other else "collides",
                 Look.LEAVE: "leaves the track" if candidate.kind is MoveKind.LEAVE
                 else "stays off the track"}
        text = heads.get(self.look, f"speed {candidate.velocity.speed}")
        details = []
        if self.past is not None:
            details.append(f"{self.past + 0.0:.1f} past the line")
        if self.damage:
            limit = f"/{self.damage_limit}" if self.damage_limit is not None else ""
            each = " each" if self.look is Look.COLLIDE else ""
            details.append(f"+{self.damage} damage{each}, {self.damage_after}{limit}")
        if candidate.note:
            details.append(candidate.note.value)
        if candidate.kind is MoveKind.RETURN:
            details.append("back on the track")
        if candidate.kind is MoveKind.LEAVE:
            details.append(self.leave_rule)
        if details:
            text += ": " + ", ".join(details)
        if self.out:
            return text + ": out"
        after = []
        if self.look is Look.COLLIDE:
            after.append("both stop")
        if self.restart is not None:
            after.append("restarts from rest")
        if self.missed_turns:
            after.append(f"misses {self.missed_turns} turn{'s' if self.missed_turns > 1 else ''}")
        after += [extra for extra in (self.lap, self.pit) if extra]
        if self.wins:
            after.append("wins")
        if self.no_way_on:
            after.append("too fast for the bend: no safe point next turn")
        elif self.doomed:
            after.append("too fast for the bend: every way on hits the wall")
        return " · ".join([text, *after])


    def _missile_words(self) -> str:
        """The hover line of a missile's point: where it goes, or what it hits there."""
        candidate = self.candidate
        text = f"missile, speed {candidate.velocity.speed}"
        if candidate.note:
            text += f" ({candidate.note.value})"
        if self.look is Look.WALL:
            return "missile hits the wall: gone"
        if self.look is Look.COLLIDE:
            hit = f"missile explodes on {self.other}" if self.other else "missile vanishes"
            return hit + (f": +{self.damage} damage" if self.damage else "")
        return text


def outlooks(state: RaceState, table: CompactTable | None = None) -> list[Outlook]:
    """The outlook of every candidate of the current car, in ``state.candidates()`` order.

    ``table`` is the car's moves-to-go table (``racetrack.search.drivers.tables.value_table``) if
    one is ready: with it a point from which every way to the finish hits the wall is ``doomed``.
    """
    return [outlook(state, candidate, table) for candidate in state.candidates()]


def outlook(state: RaceState, candidate: Candidate,
            table: CompactTable | None = None) -> Outlook:
    """What choosing ``candidate`` would do to the current car (``state`` is not changed)."""
    index = state.current_car
    if index is None:
        raise ValueError("the race is over: no car has a move to make")
    if not candidate.legal:
        return Outlook(candidate, Look.ILLEGAL)
    if candidate.kind is MoveKind.PLACE:
        return Outlook(candidate, Look.START)
    if candidate.missile:
        return _missile_outlook(state, candidate)
    before = state.cars[index]
    trial = state.clone()
    trial.take_events()
    events = trial.apply(candidate.move)
    mine = []
    for event in events:
        if event.car == index and event.kind in (EventKind.STUCK, EventKind.BLOCKED):
            break  # the car's next turn: no longer this move's doing
        mine.append(event)
    own = [e for e in mine if e.car == index]
    kinds = {e.kind for e in own}
    after = trial.cars[index]
    damage = sum(e.amount for e in own if e.kind is EventKind.DAMAGED)
    out = EventKind.OUT in kinds
    finished = EventKind.FINISHED in kinds and after.finish is not None
    crashed = EventKind.CRASHED in kinds
    look = _look(candidate, finished)
    other = ""
    if candidate.kind is MoveKind.COLLISION:
        other = next((state.race.cars[j].name for j, car in enumerate(state.cars)
                      if j != index and car.racing and car.position == candidate.target), "")
    over = next((e for e in mine if e.kind is EventKind.RACE_OVER), None)
    lap = next((_line_words(e.kind, e.amount, e.message) for e in reversed(own)
                if e.kind in (EventKind.LAP, EventKind.CHECKPOINT)), "")
    leave_rule = LEAVE_RULES.get(state.race.rules.leaving_track, "") \
        if candidate.kind is MoveKind.LEAVE else ""
    pit = "makes its pit stop" if EventKind.PIT_STOP in kinds else \
        "must make its pit stop first" if EventKind.NEEDS_PIT in kinds else ""
    result = Outlook(
        candidate, look, damage=damage, damage_after=before.damage + damage,
        damage_limit=trial.damage_limit(index), out=out,
        past=after.finish.past if finished else None,
        wins=finished and over is not None and over.car == index,
        missed_turns=sum(1 for e in own if e.kind is EventKind.MISSED_TURN)
        + (after.missed_turns if after.racing else 0),
        restart=after.position if crashed and not out else None, other=other, lap=lap, pit=pit,
        leave_rule=leave_rule)
    if after.status is not CarStatus.RACING or after.off_track:
        return result
    no_way_on = not any(c.legal and c.kind in SAFE_KINDS for c in trial.candidates_for(index))
    doomed = no_way_on or _hopeless(trial, index, table)
    return Outlook(**{**result.__dict__, "no_way_on": no_way_on, "doomed": doomed})


def _missile_outlook(state: RaceState, candidate: Candidate) -> Outlook:
    """What moving the current missile to ``candidate``'s point does: flies on, hits the
    wall, explodes on a car (whose, and the damage) or meets another missile."""
    trial = state.clone()
    trial.take_events()
    events = trial.apply(candidate.move)
    hits = [e for e in events if e.kind is EventKind.MISSILE_HIT]
    struck = [e for e in events if e.kind is EventKind.MISSILE_GONE
              and e.position == candidate.target]
    if hits:
        names = ", ".join(state.race.cars[e.car].name for e in hits if e.car is not None)
        return Outlook(candidate, Look.COLLIDE, damage=max(e.amount for e in hits),
                       other=names, missile=True)
    if candidate.kind is MoveKind.CRASH:
        return Outlook(candidate, Look.WALL, missile=True)
    if struck:
        return Outlook(candidate, Look.COLLIDE, missile=True)
    return Outlook(candidate, Look.SPECIAL if candidate.note else Look.SAFE, missile=True)


def quick(candidate: Candidate) -> Outlook:
    """A candidate's look from its kind alone, without playing it: what the window draws at
    once, until ``outlooks`` has told the whole story."""
    if not candidate.legal:
        return Outlook(candidate, Look.ILLEGAL)
    if candidate.kind is MoveKind.PLACE:
        return Outlook(candidate, Look.START)
    return Outlook(candidate, _look(candidate, finished=False), missile=candidate.missile)


def _look(candidate: Candidate, finished: bool) -> Look:
    kind = candidate.kind
    if kind is MoveKind.CRASH:
        return Look.WALL
    if kind is MoveKind.COLLISION:
        return Look.COLLIDE
    if kind in (MoveKind.LEAVE, MoveKind.OFF):
        return Look.LEAVE
    if finished or kind is MoveKind.FINISH:
        return Look.FINISH
    return Look.SPECIAL if candidate.note else Look.SAFE


def _line_words(kind: EventKind, amount: int, message: str) -> str:
    """The line a move passes, from its event: "lap 1 of 3", "checkpoint 2"."""
    if kind is EventKind.LAP:
        return message[message.index("lap"):] if "lap" in message else f"lap {amount}"
    return f"checkpoint {amount}" if amount else "over the start line again"


def _hopeless(state: RaceState, index: int, table: CompactTable | None) -> bool:
    """Whether the table says the car cannot reach the finish without hitting the wall.

    The tables know only the ordinary moves, so rules with special moves (good brakes, turbo,
    boosters, collectables) are left to the one-turn look ahead."""
    if table is None or not tables_apply(state):
        return False
    car = state.cars[index]
    found = table.values([car.position], [car.velocity], [car.progress], [car.pitted],
                         [car.launch])
    return int(found[0]) == UNSOLVED


def tables_apply(state: RaceState) -> bool:
    """Whether a moves-to-go table tells the whole truth about this race's cars: no move of
    theirs comes from a kit the table does not know."""
    rules = state.race.rules
    return (rules.equipment_shop == "none" and not rules.equipment_brakes
            and not rules.equipment_turbo and rules.collectables == "ignored")
