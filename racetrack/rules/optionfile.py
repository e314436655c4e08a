"""Files of named rule options: the reading shared by racing and Graph Trees rule sets.

A rules file names its options at the top (``walls: off-track``) or in sections (``movement:
{choices: plus}``), says a few words about itself (``name``, ``description``, ``source``) and
may start from another rule set (``base: gardner``), changing only what differs. Both games'
rule sets are such files; each brings its own table of options (``OptionTable``) and this
module reads a file against it: unknown keys and bad values are ``RulesError``s naming the
file, the line and the valid choices, all of them at once.

A ``base`` is another file the game opens on the player's behalf, so it is held to more than
the file naming it: it must be a bundled rule set's name or a path ending in ``.yaml``, it is
read with the rules' size limits, a chain of bases may not go round or run long, and a base
that turns out not to be a rules file is refused without quoting a word of it. Rules embedded
in a saved file (a replay, a saved game, a record) list every option and may not name a base.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racetrack.base.errors import Problem, RulesError
from racetrack.base.fields import MAX_TEXT, Reader, describe_key
from racetrack.base.yamlio import Limits, YamlDocument, load_yaml
from racetrack.rules.options import Option

META_KEYS = ("name", "description", "source", "base")
#: How much of a rules file is read: a few dozen options and a paragraph about them.
RULES_LIMITS = Limits(bytes=256 * 1024, nodes=10_000)
#: The longest chain of bases.
MAX_BASE_DEPTH = 16
#: The longest ``base`` path.
MAX_PATH = 1_000


@dataclass(frozen=True)
class OptionTable:
    """The options a kind of rules file may set, and how each value is checked."""

    options: tuple[Option, ...]
    sections: tuple[str, ...]
    what: str  # "a rules file", "a Graph Trees rules file"
    check: Callable[[Option, Any], str | None] = Option.check
    kind: str = "rule set"  # "rule set", "Graph Trees rule set"

    @property
    def by_key(self) -> Mapping[str, Option]:
        return {o.key: o for o in self.options}

    @property
    def top_keys(self) -> tuple[str, ...]:
        return (*META_KEYS, *dict.fromkeys(o.key.split(".")[0] for o in self.options))

    def section_keys(self, section: str) -> list[str]:
        return [o.key for o in self.options if o.key.startswith(section + ".")]


#: What an option's name looks like: words of small letters and digits joined by dashes,
#: a dot between a section and its option (``crash.miss-turns``).
_OPTION_SHAPE = re.compile(r"[a-z][a-z0-9_-]{0,40}(?:\.[a-z][a-z0-9_-]{0,40})?")


@dataclass(frozen=True)
class OptionFile:
    """A rules file, read and checked: the options it sets and what it says about itself."""

    values: dict[str, Any]
    name: str | None
    description: str
    source: str
    base: str | None


def read_option_file(doc: YamlDocument, table: OptionTable,
                     embedded: bool = False) -> OptionFile:
    """Check a parsed rules file against ``table``; ``RulesError`` lists every problem."""
    reader = Reader(doc, RulesError, collect=True)
    root = reader.root
    if not isinstance(doc.data, dict):
        reader.fail((), f"{table.what} must be a YAML mapping of options")
        reader.check()
    by_key = table.by_key
    if any(isinstance(key, str) and key.startswith("racetrack-") for key in doc.data):
        reader.fail((), f"not {table.what} (a mapping of rule options) but a file of another "
                        "kind")
        reader.check()
    known = (*META_KEYS, *table.sections, *by_key)
    if doc.data and not any(isinstance(key, str) and key in known for key in doc.data) \
            and not all(isinstance(key, str) and _OPTION_SHAPE.fullmatch(key)
                        for key in doc.data):
        # Not one key is a rule option, and some are not even shaped like one: some other
        # file (a password file parses as a mapping of its lines). Its keys are its content,
        # so none of them is quoted. (A key shaped like an option is a typo, and is named.)
        reader.fail((), f"not {table.what}: none of its {len(doc.data)} keys is a rule "
                        f"option (valid keys: {', '.join(table.top_keys)})")
        reader.check()
    values: dict[str, tuple[Any, tuple]] = {}
    for key, value in doc.data.items():
        if key in META_KEYS:
            continue
        if key in table.sections:
            valid = ", ".join(table.section_keys(key))
            if not isinstance(value, dict):
                reader.fail((key,), f"'{key}' must be a mapping of options: {valid}")
                continue
            for sub, sub_value in value.items():
                full = f"{key}.{sub}"
                if full in by_key:
                    values[full] = (sub_value, (key, sub))
                else:
                    reader.fail((key, sub), f"unknown option {describe_key(full)}; valid "
                                            f"options: {valid}")
        elif key in by_key:
            values[key] = (value, (key,))
        else:
            reader.fail((key,), f"unknown option {describe_key(key)}; valid keys: "
                                f"{', '.join(table.top_keys)}")
    for key, (value, where) in values.items():
        reason = table.check(by_key[key], value)
        if reason:
            reader.fail(where, reason)
    name = root["name"].text(MAX_TEXT, default=None, nullable=True)
    description = root["description"].text(MAX_TEXT, default="", empty=True, lines=True,
                                           nullable=True)
    source = root["source"].text(MAX_TEXT, default="", empty=True, lines=True, nullable=True)
    base = root["base"].text(MAX_PATH, default=None, nullable=True)
    if embedded and base is not None:
        reader.fail(("base",), "'base' is not allowed in embedded rules: they list every "
                               "option")
    reader.check()
    return OptionFile({key: value for key, (value, _) in values.items()}, name,
                      description or "", source or "", base)


#: Where an option's value came from when no file in the chain sets it.
DEFAULT_SOURCE = "default"


def read_rules(doc: YamlDocument, table: OptionTable, path: Path | None,
               chain: tuple[Path, ...], bundled: Path, embedded: bool = False,
               sources: dict[str, str] | None = None) -> tuple[OptionFile, dict[str, Any]]:
    """A rules file read and checked, and the value of every option: the file's own, else
    its base's (down the chain of bases, each read and checked alike), else the default.

    ``path`` is the file's (None for text), ``chain`` the files already on the way here
    (to refuse a circle), ``bundled`` the folder of the bundled rule sets. ``sources``, if
    given, is filled with where each option's value came from: the name of the file in the
    chain that sets it (its ``name``, else its file's stem), or ``DEFAULT_SOURCE``.
    """
    read = read_option_file(doc, table, embedded)
    if read.base:
        base_file = base_path(read.base, doc, path, bundled, table)
        base_doc, base_chain = load_base(base_file, doc, table, chain)
        options = read_rules(base_doc, table, base_file, base_chain, bundled,
                             sources=sources)[1]
    else:
        options = {o.key: o.default for o in table.options}
        if sources is not None:
            sources.update(dict.fromkeys(options, DEFAULT_SOURCE))
    if sources is not None:
        own = read.name or (path.stem if path is not None else "this file")
        sources.update(dict.fromkeys(read.values, own))
    return read, {**options, **read.values}


def base_path(base: str, doc: YamlDocument, relative_to: Path | None, bundled: Path,
              table: OptionTable) -> Path:
    """The file a ``base`` names: a bundled rule set by its name, or a ``.yaml`` file (a
    relative path from the folder of the file naming it). Anything else is refused before
    a byte of it is read."""
    looks_like_path = "/" in base or os.sep in base or base.endswith((".yaml", ".yml"))
    if not looks_like_path:
        candidate = bundled / f"{base}.yaml"
        if candidate.is_file():
            return candidate
        names = ", ".join(sorted(p.stem for p in bundled.glob("*.yaml")))
        raise RulesError(doc.problem(("base",), f"no such {table.kind} {describe_key(base)}; "
                                                f"bundled variants: {names}"))
    if not base.endswith((".yaml", ".yml")):
        raise RulesError(doc.problem(("base",), f"'base' must be a bundled {table.kind}'s name "
                                                "or a rules file ending in .yaml"))
    path = Path(base)
    if relative_to is not None and not path.is_absolute():
        path = relative_to.parent / path
    return path


def load_base(path: Path, doc: YamlDocument, table: OptionTable,
              chain: tuple[Path, ...]) -> tuple[YamlDocument, tuple[Path, ...]]:
    """Read a base file for a rules file (``doc``), refusing a circle, a chain too long and
    a file that is not a rules file (without quoting it). Returns the base's document and
    the chain with it added."""
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError, ValueError):
        resolved = path
    if resolved in chain:
        cycle = " -> ".join(p.stem for p in (*chain, resolved))
        raise RulesError(doc.problem(("base",), f"'base' goes round in a circle: {cycle}"))
    if len(chain) > MAX_BASE_DEPTH:
        raise RulesError(doc.problem(("base",), "'base' chain is too long"))
    try:
        base = load_yaml(path, RulesError, RULES_LIMITS)
    except RulesError as exc:
        raise RulesError(doc.problem(("base",), f"'base' cannot be read: "
                                                f"{exc.problems[0].message}")) from None
    data = base.data
    if not isinstance(data, dict) or not all(isinstance(key, str) and key in table.top_keys
                                             for key in data):
        raise RulesError(doc.problem(("base",), f"'base' {path.name!r} is not {table.what} "
                                                "(a YAML mapping of rule options)"))
    return base, (*chain, resolved)


def refuse_base(data: Any, file: str) -> None:
    """A saved file (replay, game, record) embeds every option itself: it may not name a
    ``base`` and so reach out to other files on the disk."""
    if isinstance(data, dict) and data.get("base") is not None:
        raise RulesError(Problem(file, None, "'base' is not allowed in embedded rules: they "
                                             "list every option"))
