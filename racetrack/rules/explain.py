"""The rules in a player's words (How to play): one line for each thing a rule set says about
play, under the topic it is about, and only what applies.

The words come from the options table (``rules.options``), so each variant explains itself;
the table's sources and quotations, written for the curious, are left out here. A line is
left out where it cannot matter: an option at its quiet default (no shop, no teams), one that
another option makes moot (how a crawling car comes back, under rules where cars never crawl),
and, where the track is known, a zone, pit or collectable the track does not have.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from racetrack.rules.options import OPTIONS_BY_KEY
from racetrack.rules.ruleset import RuleSet
from racetrack.track import Track


@dataclass(frozen=True)
class RuleLine:
    """What a rule is about (``topic``), and what it says."""

    topic: str
    words: str

    def __str__(self) -> str:
        return f"{self.topic}: {self.words}"


def _zones(track: Track | None, *kinds: str) -> bool | None:
    """Whether the track has zones of these kinds (``None``: no track to tell)."""
    if track is None:
        return None
    return any(zone.kind in kinds for zone in track.zones)


@dataclass(frozen=True)
class Topic:
    """An option shown as a line: its topic, the value that goes without saying (if any),
    and when it applies at all (``applies(rules, track)``; ``None`` from it: no track to
    tell, so shown unless quiet)."""

    key: str
    topic: str
    quiet: object = None
    applies: Callable[[RuleSet, Track | None], bool | None] = lambda rules, track: True


def _not_first_across(rules: RuleSet, track: Track | None) -> bool:
    return rules.finish_end != "first-across"


TOPICS = (
    Topic("movement.choices", "Moves"),
    Topic("movement.first-move", "First move", quiet="free"),
    Topic("walls", "Walls"),
    Topic("leaving-track", "Leaving the track"),
    Topic("crawl-return", "Crawling back", applies=lambda r, t: r.leaving_track == "crawl"),
    Topic("crash.outcome", "After a crash"),
    Topic("crash.damage", "Damage from a crash", quiet="none"),
    Topic("cars", "Other cars"),
    Topic("blocked", "Boxed in by cars", quiet="crash",
          applies=lambda r, t: r.cars != "shared"),
    Topic("stalled", "Cars holding each other up", quiet="end",
          applies=lambda r, t: r.cars != "shared"),
    Topic("start.grid", "Start", quiet="spread"),
    Topic("start.direction", "Way round", quiet="forward",
          applies=lambda r, t: None if t is None else t.is_circuit),
    Topic("start.line-checkpoints", "Checkpoints on the start line", quiet="none",
          applies=lambda r, t: None if t is None else t.is_circuit),
    Topic("turn-order", "Order of play"),
    Topic("finish.end", "The race ends"),
    Topic("finish.tie-break", "Cars finishing in the same round", applies=_not_first_across),
    Topic("finish.landing", "The finishing move", quiet="on-track"),
    Topic("checkpoints", "Checkpoints",
          applies=lambda r, t: None if t is None else bool(t.checkpoints)),
    Topic("areas.checkpoints", "Checkpoint cells",
          applies=lambda r, t: None if t is None else bool(t.checkpoint_areas)),
    Topic("zones.oil", "Oil", quiet="none", applies=lambda r, t: _zones(t, "oil")),
    Topic("zones.jump", "Jumps", quiet="none", applies=lambda r, t: _zones(t, "jump")),
    Topic("zones.water", "Water", applies=lambda r, t: _zones(t, "water")),
    Topic("zones.slopes", "Slopes", quiet="none",
          applies=lambda r, t: _zones(t, "upgrade", "downgrade")),
    Topic("pit-stop", "Pit stop", quiet="none", applies=lambda r, t: _zones(t, "pit")),
    Topic("equipment.shop", "Shop", quiet="none"),
    Topic("collectables", "Collectables", quiet="ignored",
          applies=lambda r, t: None if t is None else bool(t.collectables)),
    Topic("gadgets.missile-flight", "Missiles",
          applies=lambda r, t: r.equipment_bond),
    Topic("teams.scoring", "Teams", quiet="none"),
)


def plain(text: str) -> str:
    """An option's meaning without its sources: parentheses that quote or point elsewhere
    (or run long) and every sentence after the first are left out."""
    kept, depth, group = [], 0, []
    for char in text:
        if char == "(":
            depth += 1
            group.append(char)
        elif depth:
            group.append(char)
            if char == ")":
                depth -= 1
                if not depth:
                    inside = "".join(group)
                    if '"' not in inside and "see " not in inside and len(inside) <= 40 \
                            and not re.fullmatch(r"\([a-z-]+\.[a-z.-]+\)", inside):
                        kept.append(inside)
                    group = []
        else:
            kept.append(char)
    words = re.sub(r"\s+", " ", "".join(kept)).strip()
    words = re.sub(r"\s+([,;:.])", r"\1", words)
    words = re.split(r"(?<=\S)\. (?=[A-Z])", words)[0].rstrip(" .;:,")
    return words[:1].lower() + words[1:] if words[:2] != words[:2].upper() else words


def _option_line(topic: Topic, rules: RuleSet) -> RuleLine | None:
    option = OPTIONS_BY_KEY[topic.key]
    value = rules.option(topic.key)
    if topic.key == "crash.outcome" and value == "set-back":  # its number said in words
        back = rules.crash_set_back
        return RuleLine(topic.topic, f"the car is put back where it stood {back} "
                                     f"move{'s' if back != 1 else ''} ago and starts again "
                                     "from rest")
    meaning = option.choices.get(value) if option.choices else None
    if meaning is None:
        return None
    return RuleLine(topic.topic, plain(meaning))


def rule_lines(rules: RuleSet, track: Track | None = None) -> list[RuleLine]:
    """The rules in short lines, each with its topic; only what applies (to ``track``, where
    it is given)."""
    lines = []
    for topic in TOPICS:
        value = rules.option(topic.key)
        applies = topic.applies(rules, track)
        if applies is False or (topic.quiet is not None and value == topic.quiet):
            continue
        if applies is None and value == OPTIONS_BY_KEY[topic.key].default:
            continue  # no track to tell, and these rules say nothing special
        line = _option_line(topic, rules)
        if line is not None:
            lines.append(line)
    return _numbers(rules, track, lines)


def _numbers(rules: RuleSet, track: Track | None, lines: list[RuleLine]) -> list[RuleLine]:
    """The options that are numbers or switches, said where they fit among the lines."""
    extra: dict[str, list[str]] = {}

    def say(topic: str, words: str) -> None:
        extra.setdefault(topic, []).append(words)

    if rules.movement_must_change:
        say("Moves", "the move may never be repeated unchanged, except where a zone forces it")
    if rules.movement_power_braking:
        say("Moves", f"power braking: a move may be shortened by up to "
                     f"{rules.movement_power_braking_limit} squares in each part, going on "
                     "in a straight line")
    if rules.movement_launch:
        say("Moves", "a car that has braked to a full stop may launch any distance in a "
                     "straight line")
    if rules.movement_skid_speed is not None:
        say("Moves", f"at speed {rules.movement_skid_speed} or more a car cannot brake and "
                     "turn in the same move")
    if rules.leaving_track == "crawl":
        step = rules.option("crawl-step")
        say("Leaving the track", f"off the track a car moves {step} square{'s' if step > 1 else ''}"
                                 " a turn")
    if rules.crash_miss_turns:
        say("After a crash", f"a crashed car misses {rules.crash_miss_turns} "
                             f"turn{'s' if rules.crash_miss_turns > 1 else ''}")
    if rules.damage_limit is not None:
        say("Damage", f"more than {rules.damage_limit} damage and the car is out")
    if rules.equipment_shop == "none" and (rules.equipment_brakes or rules.equipment_turbo):
        say("Special moves", f"each car has {rules.equipment_brakes} good-brakes uses and "
                             f"{rules.equipment_turbo} turbo boosts (hollow diamonds)")
    if rules.equipment_shop != "none":
        say("Shop", f"each car has ${rules.equipment_budget} to spend")
    if rules.equipment_bond:
        say("Gadgets", "the shop also sells missiles, oil sprayers, rocket boosters, a "
                       "submarine and rear machine guns")
    laps = rules.laps or (track.laps if track is not None else None)
    if laps and laps > 1:
        say("Laps", f"{laps} laps")
    if rules.max_rounds is not None:
        say("The race ends", f"after {rules.max_rounds} rounds at the most")
    found = []
    for line in lines:
        found.append(line)
        for words in extra.pop(line.topic, []):
            found.append(RuleLine(line.topic, words))
    return found + [RuleLine(topic, words) for topic, said in extra.items() for words in said]
