"""Every rule option: its YAML key, its allowed values, its default and what it means.

This table is the one source of truth: the loader validates files against it, ``racetrack rules
NAME`` prints it, and ``RuleSet`` has one field per entry (``movement.choices`` becomes
``movement_choices``). The engine reads options, never variant names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    """One rule option. ``choices`` maps each allowed word to what it means.

    ``moves`` says the option changes what a lone car may do with its move (so the rules'
    transition reads it, and the solver's tables depend on it); ``state`` names the column a
    car's search state needs for it, where its value asks for one (``pitted``, ``launch``,
    ``off``, ``exit``, ``damage``, ``kit``).

    ``since`` is the generation of saved files (replays, records, games) that list the option:
    a file saved before it existed (``since`` 2) raced with the engine's fixed behaviour of
    that time, so such a file may lack it: it then takes ``before`` where the option's
    default is not that behaviour (the default otherwise), and the log says so; a file
    lacking an older option is refused, and so is a file of a format that lists every option
    (a replay of format 3) lacking any (``racetrack.rules.ruleset.rules_from_document``)."""

    key: str
    default: Any
    doc: str
    choices: dict[str, str] = field(default_factory=dict)
    low: int | None = None
    high: int | None = None
    nullable: bool = False
    is_bool: bool = False
    moves: bool = False
    state: str = ""
    since: int = 1
    before: Any = None  # the value a saved file lacking it raced under, where not the default

    @property
    def legacy(self) -> Any:
        """What a saved file that lacks this (newer) option raced under."""
        return self.default if self.before is None else self.before

    @property
    def field_name(self) -> str:
        return self.key.replace(".", "_").replace("-", "_")

    def allowed(self) -> str:
        """The valid values in words, for error messages and help."""
        if self.choices:
            return ", ".join(self.choices)
        if self.is_bool:
            return "true, false"
        text = f"a whole number from {self.low} to {self.high}"
        return text + " or null" if self.nullable else text

    def check(self, value: Any) -> str | None:
        """``None`` when ``value`` is allowed, else the reason it is not."""
        if value is None and self.nullable:
            return None
        if self.choices:
            if isinstance(value, str) and value in self.choices:
                return None
        elif self.is_bool:
            if isinstance(value, bool):
                return None
        elif isinstance(value, int) and not isinstance(value, bool) \
                and self.low <= value <= self.high:  # type: ignore[operator]
            return None
        shown = repr(value) if len(repr(value)) <= 42 else repr(value)[:40] + "…"
        return f"'{self.key}' must be one of: {self.allowed()}; not {shown}"


OPTIONS: tuple[Option, ...] = (
    Option("movement.choices", "square",
           "Where a car may go: the point its last move repeated leads to, and the points "
           "around it.",
           {"plus": "5 choices: the same move, or one square more or less north, south, east "
                    "or west (Baker)",
            "square": "9 choices: each component of the move changes by at most one "
                      "(Gardner)",
            "square-24": "25 choices: each component changes by at most two (the 24-neighbour "
                         "classroom variant)"}, moves=True),
    Option("movement.must-change", False,
           "When true the move may never be repeated unchanged, except where a zone forces it "
           "(Nystrom: you had to brake and/or turn).", is_bool=True, moves=True),
    Option("movement.launch", False,
           "When true a car that has braked to a full stop may, on its next move, go any "
           "distance in either or both directions: to any point it can reach in a straight "
           "line (David Pope's fast acceleration, Gardner's Addendum I).", is_bool=True,
           moves=True, state="launch"),
    Option("movement.power-braking", False,
           "When true a car may also shorten its move by up to two units in each component, "
           "provided the new move continues the last one in a straight line (Tom Gordon's "
           "power braking, Gardner's Addendum I).", is_bool=True, moves=True),
    Option("movement.power-braking-limit", 2,
           "How far power braking may shorten each component of a move (Tom Gordon, Gardner's "
           "Addendum I: \"reduce both coordinates by two units, provided the move continues "
           "the preceding move in a straight line\").", low=1, high=5, moves=True, since=2),
    Option("movement.skid-speed", None,
           "At this speed or more a car cannot brake and turn in the same move: it would skid "
           "(Vaughan-Williams and Kinory, Gardner's Addendum I). Braking is a move slower than "
           "the last (its larger component smaller); turning is a move not along the same "
           "line as the last. Null means cars never skid.", low=1, high=20, nullable=True,
           moves=True),
    Option("movement.first-move", "free",
           "What a car's first move may be: a car at rest on a start point before it has "
           "passed any line, as every car is at the start.",
           {"free": "any of the movement's choices from rest, staying put included (the "
                    "classroom sheet: \"each player may move into any of the 8 neighboring "
                    "intersections or may stay in the same place\"; Baker: from stationary "
                    "\"you are allowed to move off at a speed of one square\")",
            "moving": "any of the choices but staying put",
            "ahead": "one unit horizontally or vertically, or both, ahead: along the start "
                     "line's arrow, never staying put, sideways or backwards (Gardner: \"The "
                     "first move ... is one unit horizontally or vertically, or both\" and "
                     "\"At each turn a player simply moves his car ahead along the track\"; "
                     "the simulation sheet: the cars move to \"the green circles in front of "
                     "it\"). Where the track has start points but no start line, the first "
                     "move only has to go somewhere"},
           moves=True, since=2),
    Option("walls", "touching-allowed",
           "Whether the track's edge is part of the track.",
           {"touching-allowed": "a move may run along or touch the wall (the closed track)",
            "off-track": "touching the wall is leaving the track (the open interior only)"},
           moves=True),
    Option("leaving-track", "illegal",
           "What a move that leaves the track means.",
           {"illegal": "such a move is not allowed; a car with no allowed move crashes "
                       "(see crash.*)",
            "crash": "a car may hit the wall: it crashes where it leaves the track (see crash.*)",
            "detour": "a car may drive off the track and must come back onto it at a point "
                      "farther from the finish than the point where it left (Nystrom); a "
                      "car on a detour with no legal move left is out",
            "crawl": "a car may end a move off the track; it then moves one square at a time, "
                     "in any direction, until it is back on (Levi's rule 5)"},
           moves=True, state="off"),
    Option("crash.outcome", "out",
           "What happens to a car that crashes.",
           {"out": "the car is out of the race",
            "restart": "the car is put on the track's lattice point nearest to where it left "
                       "the track and starts again from rest",
            "set-back": "the car is put back where it stood crash.set-back moves ago (where it "
                        "started, if it has made fewer) and starts again from rest: "
                        "Karopapier's ZZZ (its own wiki: \"When you can't move to a field, "
                        "because there's a co-player or gras in your way, you'll get reset "
                        "and start again\"; its server walks back \"ZZZ Züge\", ZZZ moves, "
                        "and takes the position found there). A lone car's search (the "
                        "solver, the drivers' tables) knows no history: there a set-back of "
                        "0 moves is exact, and a longer one ends the search of that car, so "
                        "its optimum is the best route that never crashes"}, moves=True),
    Option("crash.set-back", 2,
           "How many of its own moves a crashed car is set back under crash.outcome: set-back "
           "(Karopapier's game setting ZZZ; its server's fallback is 2: \"$aussetzen = 2 // "
           "oder ZZZ aus der Spielangabe\"). 0 leaves the car where it stands, at rest.",
           low=0, high=20, moves=True, since=2),
    Option("crash.damage", "none",
           "Damage a crash costs.",
           {"none": "no damage",
            "speed": "one point for each square of speed of the crashing move (its larger "
                     "component)"}, moves=True, state="damage"),
    Option("crash.miss-turns", 0,
           "Turns a crashed car misses before it moves again.", low=0, high=5, moves=True),
    Option("cars", "forbidden",
           "Whether a car may end its move on a point where another car stands.",
           {"forbidden": "no two cars on one point: such a move is not allowed",
            "shared": "cars may share points (the Westinghouse rule)",
            "collide": "allowed only when every other move is impossible: both cars take one "
                       "damage per square they were apart last turn (the moving car where it "
                       "stood before this move, the other before its own latest move; squares "
                       "counted as speed is, the larger coordinate difference) and both stop "
                       "(Baker: \"head on collisions nearly always fatal, but you can usually "
                       "survive rear-ending another car\")"}),
    Option("blocked", "crash",
           "What a car does when it has points on the track to go to but other cars stand on "
           "every one of them (where cars may not share points).",
           {"crash": "as a car with no legal move: it crashes along its unchanged move and the "
                     "crash rules apply (Gardner: \"A car that collides with another car or "
                     "leaves the track is out of the race\")",
            "wait": "it may not take a taken point, so it must take another legal one; with "
                    "none left it stays where it is, comes to rest and its turn passes. It has "
                    "not crashed: the sheets define a crash by the boundary alone (\"If an "
                    "opponent is already there, you must choose another grid intersection\"; "
                    "\"If all of your grid intersections ... fall on or outside of the race "
                    "track boundary, you have crashed\")"}, since=2),
    Option("damage-limit", None,
           "A car with more damage than this is out; null means damage never puts a car out.",
           low=0, high=99, nullable=True, moves=True, state="damage"),
    Option("start.grid", "spread",
           "Where the cars start.",
           {"spread": "spread evenly along the start line, in the order the players are listed",
            "choose": "each car picks its own start point before the race, the car that moves "
                      "last picking first (the Westinghouse rule: on a slanted start line the "
                      "second player chooses between the two starting points)"}),
    Option("start.direction", "forward",
           "Which way round a circuit the cars race.",
           {"forward": "the way the start line's arrow points",
            "either": "each car is set to race forwards or in reverse before the start, its "
                      "checkpoints then taken in reverse order (Levi: players can go either "
                      "way around the course)"}),
    Option("start.line-checkpoints", "none",
           "Checkpoints on the start/finish line's own straight line (circuits only).",
           {"none": "only the track's own checkpoints",
            "overlaps": "a checkpoint across the track wherever the start line's straight line "
                        "overlaps it, each crossed in order the way a lap meets it (Levi's "
                        "rule 6: \"Checkpoints should be drawn across the track on the same "
                        "line as the start/finish line where the track overlaps the line. All "
                        "of these checkpoints must be crossed in order to win.\"); none where "
                        "a lap could come round over other stretches (a figure of eight): the "
                        "track's own checkpoints say the way there"},
           moves=True, since=2),
    Option("turn-order", "seating",
           "Who moves first.",
           {"seating": "the order the players are listed in",
            "lots": "an order drawn by lot (from the race's seed) before the start"}),
    Option("finish.end", "first-across",
           "When the race ends.",
           {"first-across": "as soon as a car finishes: the first across wins",
            "round": "at the end of the round in which the first car finishes, so every car "
                     "has had the same number of turns; cars finishing in that round are "
                     "ranked by the tie-break",
            "all": "when every car has finished or is out"}),
    Option("finish.tie-break", "farthest",
           "How cars finishing in the same round are ranked.",
           {"farthest": "the car that ends its move farthest beyond the finish line",
            "earliest": "the car whose move meets the line soonest (the smaller fraction of "
                        "its move)",
            "order": "the car that moved first in the round"}),
    Option("finish.landing", "on-track",
           "Where the move that finishes the race may end.",
           {"on-track": "like any other move: it stays on the track all the way and lands on "
                        "it",
            "anywhere": "a move that stays on the track until it first reaches the finish "
                        "(line or area), once everything before it is passed, ends the race "
                        "there, wherever its end would be (off the track, off the paper): the "
                        "rest of the move is not judged (Sutton & Barto's racetrack: \"check "
                        "to see if the projected path of the car intersects the track "
                        "boundary. If it intersects the finish line, the episode ends\"), so a "
                        "finish on the map's edge needs no run-off"},
           moves=True, since=2),
    Option("laps", None,
           "Laps to race; null means the track's own number.", low=1, high=99, nullable=True,
           moves=True),
    Option("checkpoints", "in-order",
           "Whether the track's checkpoints count.",
           {"in-order": "they must be crossed in order every lap",
            "ignored": "only the finish line counts"}, moves=True),
    Option("areas.checkpoints", "any-order",
           "Whether checkpoints drawn as areas (an imported map's checkpoint cells) count.",
           {"any-order": "each must be passed over, in any order and either direction, before "
                         "the finish counts (every lap); one passed on the finishing move "
                         "counts (Karopapier: checkpoints are cells driven over in any order)",
            "ignored": "only the finish counts"}, moves=True, state="areas", since=2),
    Option("crawl-step", 1,
           "How far a car off the track moves each turn under leaving-track: crawl (Levi's rule "
           "5: \"reduced to a single move in any direction until it re-enters the track\"): "
           "any point this many squares away or nearer, in each component.", low=1, high=3,
           moves=True, since=2),
    Option("crawl-return", "anywhere",
           "Where a crawling car (leaving-track: crawl) may come back onto the track.",
           {"anywhere": "at any point it reaches (Levi's rule 5 as written: \"reduced to a "
                        "single move in any direction until it re-enters the track\")",
            "not-ahead": "only at a point no farther along the course than the point where it "
                         "left it, the last point it stood on the track (as for Nystrom's "
                         "detour, farther along means less distance to go along the track to "
                         "the finish: the same lap, the checkpoints still to pass, either way "
                         "round); while off the track it passes no line, and a crawling car "
                         "with no legal move left is out where it stands. This is how we read "
                         "Levi's intent, beyond his literal words: rule 3, \"First person to "
                         "make it all the way around the course once wins\", and rule 6, "
                         "added \"just to keep munchkinism from happening\"; without it a car "
                         "could crawl through the infield to the end of a checkpoint and gain "
                         "half a lap"},
           moves=True, state="exit", since=2),
    Option("zones.oil", "none",
           "The effect of oil zones.",
           {"none": "oil is ordinary track",
            "skid": "if the unchanged move would touch the oil, the car skids and must make "
                    "exactly that move (Baker)",
            "steady": "a move that touches the oil must repeat the last move unchanged "
                      "(Gardner's readers, Nystrom)"}, moves=True),
    Option("zones.jump", "none",
           "The effect of jump zones.",
           {"none": "a jump zone is ordinary track",
            "fly": "a move that touches a jump zone must repeat the last move unchanged, and "
                   "it flies over whatever lies inside the zone (Nystrom)"}, moves=True),
    Option("zones.water", "wall",
           "The effect of water zones.",
           {"wall": "water is off the track for a car that cannot swim",
            "none": "water is ordinary track"}, moves=True),
    Option("zones.slopes", "none",
           "The effect of upgrade and downgrade zones (J. P. Schell, Gardner's Addendum I).",
           {"none": "slopes are ordinary track",
            "force": "a move that touches an upgrade must be slower than the last move (its "
                     "larger component smaller), one that touches a downgrade faster; a car at "
                     "rest is never forced"}, moves=True),
    Option("pit-stop", "none",
           "Whether cars must stop in a pit (Gardner's Addendum I).",
           {"none": "pit zones are ordinary track",
            "required": "once in the race every car must come to zero velocity (a move of no "
                        "length, losing one move) on a point inside a pit zone of its choice; "
                        "until it has, crossing the finish does not count. Tracks without pit "
                        "zones need no stop"}, moves=True, state="pitted"),
    Option("equipment.brakes", 0,
           "Good-brakes uses each car starts with (when it does not design its own car): a use "
           "lets a car slow down by two squares instead of one (Baker allows two a race).",
           low=0, high=20, moves=True, state="kit"),
    Option("equipment.turbo", 0,
           "Turbo-boost uses each car starts with (when it does not design its own car): a use "
           "lets a car speed up by two squares instead of one (Baker allows two a race).",
           low=0, high=20, moves=True, state="kit"),
    Option("equipment.brakes-reach", 2,
           "How many squares a use of good brakes slows a car by (Baker: \"Using 'Good Brakes' "
           "allows a car to slow down by TWO squares instead of the usual one\").", low=2,
           high=5, moves=True, since=2),
    Option("equipment.turbo-reach", 2,
           "How many squares a turbo boost speeds a car up by (Baker: \"Using the 'Turbo "
           "Boost' allows a car to speed up by TWO squares instead of the usual one\").",
           low=2, high=5, moves=True, since=2),
    Option("equipment.boosters-reach", 3,
           "How many squares rocket boosters speed a car up by, once (Baker: \"Once during the "
           "game, you can speed up by THREE squares - like using two turbo boosts at once\").",
           low=2, high=6, moves=True, since=2),
    Option("equipment.shop", "none",
           "Whether the players kit out their cars before the race.",
           {"none": "every car starts with the equipment.* uses and the damage-limit",
            "design": "each car spends its budget in the shop: good brakes $10 a use, turbo "
                      "$10 a use, damage points $5 each; a car is out with more damage than "
                      "the points it bought, so with none it blows up at its first hit (Baker's "
                      "Design Your Own Car)"}, moves=True, state="kit"),
    Option("equipment.budget", 100,
           "Dollars each car has to spend in the shop (a championship adds prize money).",
           low=0, high=10_000),
    Option("equipment.bond", False,
           "When true the shop also sells James Bond gadgets: missiles $30, oil sprayers $10, "
           "rocket boosters $30, submarine $30, rear machine guns $20 a set (Baker).",
           is_bool=True),
    *(Option(f"prices.{item}", price, f"Dollars the shop asks for {what} (Baker: \"{quote}\").",
             low=0, high=1000, since=2) for item, price, what, quote in (
        ("brakes", 10, "a use of good brakes", "Good brakes cost $10"),
        ("turbo", 10, "a turbo boost", "Turbo Boosts cost $10"),
        ("damage", 5, "a damage point", "Damage points cost $5 each"),
        ("missiles", 30, "a missile", "$30 Missile"),
        ("sprayers", 10, "an oil sprayer", "$10 Oil Sprayers"),
        ("boosters", 30, "rocket boosters", "$30 Rocket boosters"),
        ("submarine", 30, "the submarine", "$30 Submarine Capability"),
        ("guns", 20, "a set of rear machine guns", "$20 Rear-shooting machine guns"))),
    Option("collectables", "ignored",
           "What the track's collectables do.",
           {"ignored": "they are drawn but do nothing",
            "taken": "the first car whose move runs through one's point takes it: a penny is "
                     "two turbo boosts, a nickel two good-brakes uses, a dime five damage "
                     "points, money is dollars for the next race, a gadget is one of that "
                     "gadget (Baker)"}),
    Option("pickups.penny", 2,
           "Turbo-boost uses a penny collectable gives (Baker: \"A penny could be worth two "
           "Turbo-boosts\").", low=0, high=20, since=2),
    Option("pickups.nickel", 2,
           "Good-brakes uses a nickel collectable gives (Baker: \"a nickle two Good brakes "
           "uses\").", low=0, high=20, since=2),
    Option("pickups.dime", 5,
           "Damage points a dime collectable gives (Baker: \"a dime could give you five extra "
           "damage points\").", low=0, high=20, since=2),
    Option("pickups.money", 10,
           "Dollars a money collectable holds where the track gives no value (Baker: "
           "\"collectibles that are worth money that you can spend in the next race\"; he "
           "names no sum).", low=0, high=1000, since=2),
    Option("gadgets.missile-damage", 3,
           "Damage a missile does to each car on the point where it explodes (Baker: \"it "
           "explodes and causes 3 points of damage\").", low=0, high=20, since=2),
    Option("gadgets.missile-boost", 2,
           "How much faster a missile may go each turn with its turbo boost (Baker: \"it can "
           "use turbo-boost every turn\"; a turbo boost speeds up by two squares).", low=1,
           high=5, since=2),
    Option("gadgets.missile-flight", "steered",
           "How a missile in flight moves (Baker: \"It moves on your turn just like it was "
           "another car - so it starts off moving the same speed as you are. It's advantage is "
           "that it can use turbo-boost every turn until it hits something. (Not 'good brakes' "
           "though - it's boost only makes it go faster!)\").",
           {"steered": "its owner moves it on each of its turns, after the car, with the car's "
                       "choices plus a turbo boost (gadgets.missile-boost) every turn; it "
                       "explodes where it ends on a car, vanishes where it meets a missile and "
                       "is gone once a move leaves the track (Baker)",
            "straight": "it flies on by itself each of its owner's turns, straight, turbo "
                        "boosted every turn (the engine's missiles before they were steered)"},
           since=2, before="straight"),
    Option("gadgets.oil-size", 3,
           "The side, in squares, of the slick an oil sprayer lays (Baker: \"a 3x3 square oil "
           "slick right behind your car\").", low=1, high=9, since=2),
    Option("gadgets.gun-damage", 1,
           "Damage each set of rear machine guns does to a car one square behind (Baker: "
           "\"you can shoot and cause one point of damage ... If you buy two sets of guns, you "
           "can do two points of damage\").", low=0, high=10, since=2),
    Option("teams.scoring", "none",
           "Team racing.",
           {"none": "every car races for itself",
            "3-2-1": "cars of a team move one after another, and the team scores three points "
                     "for a win, two for second place and one for third; the team with the "
                     "most points wins (Baker)"}),
    Option("stalled", "end",
           "What cars do when they all wait for each other: every car still racing has stood "
           "still, at rest where it was, for three turns running while nothing else changed "
           "(head on in a one-lane passage, say, whatever their distance).",
           {"end": "the race stops; unfinished cars are ranked by how far they still have to "
                   "go",
            "pass": "cars that stood still that long because another of them stands where "
                    "it would go may end their moves on each other's points (and so pass) "
                    "until they have moved on; a standstill twice as long stops the race as "
                    "under end"}, since=2),
    Option("teams.first", 3,
           "Points a team scores for a car's win (Baker's team racing: \"cars score three "
           "points for a win\"); also a championship's points.", low=0, high=100, since=2),
    Option("teams.second", 2,
           "Points for second place (Baker: \"two points for second place\").", low=0,
           high=100, since=2),
    Option("teams.third", 1,
           "Points for third place (Baker: \"and one point for third\").", low=0, high=100,
           since=2),
    Option("prizes.first", 30,
           "A championship's prize money for a race's winner (Baker: \"award prize money to "
           "the winner and allow them to spend that in the next race\"; he names no sums, nor "
           "prizes for other places: $30, $20 and $10 here).", low=0, high=1000, since=2),
    Option("prizes.second", 20,
           "A championship's prize for second place (Baker names a prize for the winner only: "
           "this one is ours).", low=0, high=1000, since=2),
    Option("prizes.third", 10,
           "A championship's prize for third place (ours too, as the second's).", low=0,
           high=1000, since=2),
    Option("max-rounds", None,
           "The race stops after this many rounds; unfinished cars are ranked by how far they "
           "still have to go. Null scales the limit with the course: twice the squares from "
           "the start round every lap to the finish, and never fewer than 500.",
           low=1, high=10_000, nullable=True),
)

OPTIONS_BY_KEY: dict[str, Option] = {option.key: option for option in OPTIONS}
SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(o.key.split(".")[0] for o in OPTIONS
                                                if "." in o.key))
