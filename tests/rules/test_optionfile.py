"""Rule-set files: bundled variants, inheritance, and errors that name file, line and choices."""

from __future__ import annotations

import textwrap

import pytest

from racetrack.base.errors import RulesError
from racetrack.cli import main
from racetrack.rules import (
    OPTIONS,
    RuleSet,
    bundled_variant_names,
    load_rules,
    rules_from_data,
    rules_from_text,
)

VARIANTS = ("baker", "classroom", "classroom-24", "gardner", "levi", "nystrom", "simulation")


def test_every_variant_ships():
    assert set(VARIANTS) <= set(bundled_variant_names())


@pytest.mark.parametrize("name", VARIANTS)
def test_variants_load_with_a_description_and_a_source(name):
    rules = load_rules(name)
    assert rules.name == name and rules.description and rules.source


@pytest.mark.parametrize("name", VARIANTS)
def test_full_option_data_round_trips(name):
    rules = load_rules(name)
    assert rules_from_data(rules.to_data()) == rules


def test_a_variant_changes_only_what_differs_from_its_base():
    baker, levi = load_rules("baker"), load_rules("levi")
    differing = {k for k, v in levi.options().items() if baker.options()[k] != v}
    assert differing == {"leaving-track", "crawl-return", "start.direction",
                         "start.line-checkpoints"}


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_a_players_file_can_start_from_a_bundled_variant(tmp_path):
    path = write(tmp_path, "mine.yaml", """\
        name: mine
        base: baker
        cars: shared
    """)
    rules = load_rules(path)
    assert rules.cars == "shared" and rules.movement_choices == "plus"


def test_a_base_given_as_a_path_is_relative_to_the_file(tmp_path):
    write(tmp_path, "one.yaml", "base: gardner\nwalls: off-track\n")
    two = write(tmp_path, "two.yaml", "base: one.yaml\ncars: shared\n")
    rules = load_rules(two)
    assert rules.walls == "off-track" and rules.cars == "shared" and rules.name == "two"


def test_a_base_cycle_is_an_error(tmp_path):
    write(tmp_path, "a.yaml", "base: b.yaml\n")
    write(tmp_path, "b.yaml", "base: a.yaml\n")
    with pytest.raises(RulesError, match="goes round in a circle"):
        load_rules(tmp_path / "a.yaml")


def test_unknown_base_names_the_line_and_the_variants(tmp_path):
    path = write(tmp_path, "x.yaml", "name: x\nbase: bakr\n")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert str(info.value).startswith(f"{path}:2:") and "bundled variants: baker" in str(info.value)


def test_unknown_option_names_file_line_and_valid_options(tmp_path):
    path = write(tmp_path, "x.yaml", """\
        name: x
        movement:
          choices: plus
          must_change: true
    """)
    with pytest.raises(RulesError) as info:
        load_rules(path)
    message = str(info.value)
    assert message.startswith(f"{path}:4:") and "unknown option 'movement.must_change'" in message
    assert "movement.must-change" in message


def test_bad_value_lists_the_valid_choices():
    with pytest.raises(RulesError) as info:
        rules_from_text("walls: sometimes\n", "x.yaml")
    message = str(info.value)
    assert message.startswith("x.yaml:1:") and "touching-allowed, off-track" in message


@pytest.mark.parametrize("text, fragment", [
    ("damage-limit: -1\n", "from 0 to 99"),
    ("damage-limit: yes\n", "from 0 to 99"),
    ("movement:\n  must-change: 1\n", "true, false"),
    ("crash: restart\n", "must be a mapping of options"),
    ("colour: red\n", "unknown option 'colour'"),
    ("root:$6$salt$hash:20228:0:99999:7:::\nbin:*:20228::\n",
     "not a rules file: none of its 2 keys is a rule option"),
    ("- a list\n", "must be a YAML mapping"),
    ("!!python/object:os.system {}\n", "no tags that build objects"),
])
def test_bad_files(text, fragment):
    with pytest.raises(RulesError, match=None) as info:
        rules_from_text(text, "x.yaml")
    assert fragment in str(info.value)


def test_every_option_has_docs_and_a_valid_default():
    for option in OPTIONS:
        assert option.doc and option.check(option.default) is None, option.key
    assert RuleSet.from_options("defaults", {}).movement_choices == "square"


def test_cli_lists_variants_and_shows_every_option(capsys):
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out
    for name in VARIANTS:
        assert name in listing
    assert main(["rules", "nystrom"]) == 0
    shown = capsys.readouterr().out
    for option in OPTIONS:
        assert f"\n{option.key}: " in shown
    assert "movement.must-change: true" in shown


def test_cli_reports_a_bad_rules_file_without_a_traceback(tmp_path, capsys):
    path = write(tmp_path, "x.yaml", "walls: sometimes\n")
    assert main(["rules", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}:1:") and "Traceback" not in err


@pytest.mark.parametrize("base, words", [
    ("/etc/shadow", "ending in .yaml"),
    ("../../../../etc/passwd", "ending in .yaml"),
    ("secret.yaml", "is not a rules file"),
    ("big.yaml", "cannot be read: is larger than 256 KiB"),
    ("missing.yaml", "cannot be read: no such file"),
])
def test_a_base_is_only_a_rules_file_and_never_quoted(tmp_path, base, words):
    """A base is a file the game opens for the player: a .yaml rules file, size-limited, and
    when it is not a rules file nothing of it appears in the message."""
    write(tmp_path, "secret.yaml", "password: hunter2\nroot: x:0:0:root:/root:/bin/bash\n")
    write(tmp_path, "big.yaml", "walls: off-track\n" + "# padding\n" * 30_000)
    path = write(tmp_path, "mine.yaml", f"name: mine\nbase: {base}\n")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    message = str(info.value)
    assert message.startswith(f"{path}:2: ") and words in message
    assert "hunter2" not in message and "x:0:0" not in message
    assert len(info.value.problems) == 1


def test_embedded_rules_may_not_name_a_base(tmp_path):
    from racetrack.rules import rules_from_data

    with pytest.raises(RulesError, match="'base' is not allowed in embedded rules"):
        rules_from_data({"name": "x", "base": "gardner"})


def test_racetrack_rules_says_where_each_value_comes_from(capsys):
    from racetrack.cli import main
    from racetrack.rules.ruleset import option_sources

    sources = option_sources("baker-bond")
    assert sources["movement.choices"] == "baker"  # baker-bond < baker-advanced < baker
    assert sources["equipment.brakes"] == "baker-advanced"
    assert sources["gadgets.missile-flight"] == "baker-bond"
    assert sources["max-rounds"] == "default"
    assert main(["rules", "baker-bond"]) == 0
    out = capsys.readouterr().out
    assert "movement.choices: plus   (set by baker)" in out
    assert "max-rounds: null   (default)" in out
