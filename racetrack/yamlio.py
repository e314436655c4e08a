"""Reading untrusted YAML with line numbers, and writing files atomically.

Tracks, rule sets, replays and settings all come from users, so they are read the same careful
way: size-limited, UTF-8 text only, ``yaml.SafeLoader`` only (no tags that build objects), no
alias bombs or runaway nesting, and every value remembers the line it came from so an error can
name it. Writes go to a temporary file in the same folder and are renamed into place, so a crash
mid-write never leaves a half-written file where the user's work was.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from racetrack.errors import FileProblemError, Problem

#: Largest file read, in bytes. A hand-drawn track is a few kilobytes.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Most YAML nodes a document may expand to, counting every use of an alias.
MAX_NODES = 200_000
#: Deepest nesting accepted (a track needs four levels; a self-referring alias has no end).
MAX_DEPTH = 40

PathKey = tuple[Hashable, ...]


@dataclass(frozen=True)
class YamlDocument:
    """A parsed document plus the line of every key and list item in it."""

    data: Any
    file: str
    lines: dict[PathKey, int] = field(default_factory=dict, repr=False)

    def line_of(self, path: Sequence[Hashable]) -> int | None:
        """The line of ``path`` (a tuple of keys and indexes), or of its nearest known parent."""
        key = tuple(path)
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return self.lines.get((), None)

    def problem(self, path: Sequence[Hashable], message: str) -> Problem:
        """A problem located at ``path`` in this document."""
        return Problem(self.file, self.line_of(path), message)


def read_text(path: str | os.PathLike[str], error: type[FileProblemError] = FileProblemError,
              max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a user's file as UTF-8 text, refusing binaries, huge files and unreadable paths."""
    name = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise error(Problem(name, None, "no such file")) from None
    except OSError as exc:
        raise error(Problem(name, None, f"cannot be read ({exc.strerror or exc})")) from None
    if stat.S_ISDIR(info.st_mode):
        raise error(Problem(name, None, "is a folder, not a file"))
    if not stat.S_ISREG(info.st_mode):
        # A pipe or a device would block or never end: only ordinary files are read.
        raise error(Problem(name, None, "is not an ordinary file"))
    try:
        with open(path, "rb") as handle:
            raw = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise error(Problem(name, None, "no such file")) from None
    except IsADirectoryError:
        raise error(Problem(name, None, "is a folder, not a file")) from None
    except OSError as exc:
        raise error(Problem(name, None, f"cannot be read ({exc.strerror or exc})")) from None
    if len(raw) > max_bytes:
        raise error(Problem(name, None,
                            f"is larger than {max_bytes // 1024} KiB; refusing to read it"))
    if b"\x00" in raw:
        raise error(Problem(name, None, "is not a text file (it contains NUL bytes)"))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(Problem(name, None,
                            f"is not UTF-8 text (bad byte at offset {exc.start})")) from None


def parse_yaml(text: str, file: str,
               error: type[FileProblemError] = FileProblemError) -> YamlDocument:
    """Parse one YAML document safely, recording the line of every key and list item."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return YamlDocument(None, file, {(): 1})
        lines = _line_map(node, file, error)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        what = exc.problem or exc.context or "is not valid YAML"
        if isinstance(exc, yaml.constructor.ConstructorError):
            what = f"{what} (only plain YAML data is accepted: no tags that build objects)"
        raise error(Problem(file, line, f"YAML error: {what}")) from None
    except yaml.YAMLError as exc:
        raise error(Problem(file, None, f"YAML error: {exc}")) from None
    except RecursionError:
        raise error(Problem(file, None, "YAML is nested too deeply")) from None
    finally:
        loader.dispose()
    return YamlDocument(data, file, lines)


class _Loader(yaml.SafeLoader):
    """The safe loader, also reading ``1e3`` and ``2.5E-4`` as numbers (YAML 1.1 wants a dot
    in them; files written by JSON tools and numpy often have none)."""


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"))


def load_yaml(path: str | os.PathLike[str],
              error: type[FileProblemError] = FileProblemError,
              max_bytes: int = MAX_FILE_BYTES) -> YamlDocument:
    """Read and parse a user's YAML file; every failure is an ``error`` naming the file."""
    return parse_yaml(read_text(path, error, max_bytes), str(path), error)


def _line_map(root: yaml.Node, file: str, error: type[FileProblemError]) -> dict[PathKey, int]:
    """Walk the node graph once, counting every node an alias expands to.

    Counting expansions (not distinct nodes) is what stops a "billion laughs" document: it is
    small as a graph but enormous once any code iterates over it.
    """
    lines: dict[PathKey, int] = {(): root.start_mark.line + 1}
    stack: list[tuple[yaml.Node, PathKey]] = [(root, ())]
    visited = 0
    while stack:
        node, path = stack.pop()
        visited += 1
        if visited > MAX_NODES:
            raise error(Problem(file, None, f"YAML expands to more than {MAX_NODES} values "
                                            "(an alias bomb or a far too large file)"))
        if len(path) > MAX_DEPTH:
            raise error(Problem(file, node.start_mark.line + 1, "YAML is nested too deeply "
                                                                "(or an alias refers to itself)"))
        if isinstance(node, yaml.MappingNode):
            seen: set = set()
            for key_node, value_node in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
                if key is not None and key in seen and key != "<<":
                    raise error(Problem(file, key_node.start_mark.line + 1,
                                        f"the key {key!r} appears twice in one mapping"))
                seen.add(key)
                child = (*path, key)
                lines.setdefault(child, key_node.start_mark.line + 1)
                stack.append((value_node, child))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                child = (*path, index)
                lines.setdefault(child, item.start_mark.line + 1)
                stack.append((item, child))
    return lines


def dump_yaml(data: Any) -> str:
    """YAML text for plain data: keys in the given order, short lists of numbers on one line."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


class _Dumper(yaml.SafeDumper):
    """A safe dumper that writes flat lists (of numbers or strings) in flow style, ``[3, 4]``,
    and lists of them one per line, so a polygon or a replay's moves read a point a line."""

    def represent_sequence(self, tag, sequence, flow_style=None):  # noqa: D102
        if flow_style is None:
            flow_style = _is_flat(sequence)
        return super().represent_sequence(tag, sequence, flow_style)

    def ignore_aliases(self, data):  # noqa: D102
        return True


def _is_flat(sequence: Any) -> bool:
    return all(isinstance(v, int | float | str | bool) or v is None for v in sequence)


def atomic_write_text(path: str | os.PathLike[str], text: str, make_parents: bool = True) -> None:
    """Write ``text`` to ``path`` so that the file is either the old one or the new one, whole
    (its folder created if missing, unless ``make_parents`` is false)."""
    target = Path(path)
    if make_parents:
        target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
