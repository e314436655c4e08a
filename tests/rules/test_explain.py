"""How to play's rule lines: each under what it is about, only what applies, no sources."""

from __future__ import annotations

import pytest

from racetrack.rules import bundled_variant_names, load_rules
from racetrack.rules.explain import plain, rule_lines
from racetrack.track import find_track, load_track


@pytest.mark.parametrize("name", bundled_variant_names())
def test_every_variant_says_its_rules_in_short_lines_with_their_topics(name):
    lines = rule_lines(load_rules(name), load_track(find_track("oval")))
    assert lines and lines[0].topic == "Moves"
    for line in lines:
        assert line.topic and line.words
        assert '"' not in line.words and "see " not in line.words  # no sources, no pointers
        assert len(line.words) < 300, line
        assert not any(key in line.words for key in ("crash.set-back", "missile-boost"))


def test_lines_that_cannot_matter_are_left_out():
    oval, hazards = load_track(find_track("oval")), load_track(find_track("hazards"))
    baker = [line.topic for line in rule_lines(load_rules("baker"), oval)]
    assert "Crawling back" not in baker  # Baker's cars never crawl
    assert "Oil" not in baker  # the oval has no oil
    assert "Oil" in [line.topic for line in rule_lines(load_rules("baker"), hazards)]
    assert "Crawling back" in [line.topic for line in rule_lines(load_rules("levi"), oval)]
    # Without a track, what the rules say about zones shows where it is not the default.
    plain_baker = [line.topic for line in rule_lines(load_rules("baker"))]
    assert "Oil" in plain_baker and "Water" not in plain_baker
    assert "Cars finishing in the same round" not in baker  # the first across wins
    gardner = [line.topic for line in rule_lines(load_rules("gardner"), oval)]
    assert "Cars finishing in the same round" in gardner  # the round is finished


def test_numbers_are_said_in_words_under_their_topic():
    lines = [str(line) for line in rule_lines(load_rules("karopapier"))]
    assert "After a crash: the car is put back where it stood 2 moves ago and starts again " \
           "from rest" in lines
    assert "Damage: more than 5 damage and the car is out" in \
        [str(line) for line in rule_lines(load_rules("baker"))]


def test_plain_words_keep_a_short_aside_and_drop_quotations_and_later_sentences():
    assert plain('a car may crash (Baker) here (Gardner: "no") and more. Second one.') == \
        "a car may crash (Baker) here and more"
