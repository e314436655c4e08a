"""The one reader of the players' YAML files, and the writer that agrees with it.

Tracks, rule sets, replays, saved games, championships, records, settings and drafts all come
from users, so they are all read here, the same careful way:

- only ordinary files, at most ``Limits.bytes`` long, UTF-8 text without control characters;
- parsed event by event (libyaml's C parser where it is installed, PyYAML's own otherwise), and
  built into plain data (mappings, lists, text, numbers, yes/no, dates) by this module: no tag
  builds an object, and the node, depth and alias limits are counted while parsing, so a huge
  or hostile file is refused before any big tree exists;
- every parser error, of whatever kind, becomes one ``Problem`` with the file and the line;
- every key and list item remembers its line, so a later check can name it.

``write_yaml`` writes with the same limits the file is read with, so the game never writes a
file it would refuse to read back.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import stat
import threading
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from racetrack.base.errors import FileProblemError, Problem
from racetrack.base.files import atomic_write_text, create_new_text
from racetrack.base.yamlnumbers import LARGEST, NumberTooLarge, real_number, whole_number

__all__ = ["Limits", "YamlDocument", "atomic_write_text", "count_nodes", "dump_yaml",
           "load_yaml", "parse_yaml", "paused_gc", "read_bytes", "read_text", "write_yaml"]

#: Largest file read by default, in bytes. A hand-drawn track is a few kilobytes.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Most YAML nodes a document may hold by default, counting every use of an alias.
MAX_NODES = 200_000
#: Deepest nesting accepted (a track needs four levels; a self-referring alias has no end).
MAX_DEPTH = 40


@dataclass(frozen=True)
class Limits:
    """How much of a kind of file is read (and written): bytes, values, nesting."""

    bytes: int = MAX_FILE_BYTES
    nodes: int = MAX_NODES
    depth: int = MAX_DEPTH


DEFAULT_LIMITS = Limits()

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

    def sub(self, path: Sequence[Hashable]) -> YamlDocument:
        """The part of this document at ``path`` (a replay's embedded track, say) as a
        document of its own, in the same file and with the same lines."""
        data = self.data
        for key in path:
            if isinstance(data, dict):
                data = data.get(key)
            elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
                data = data[key]
            else:
                data = None
        prefix = tuple(path)
        lines: dict[PathKey, int] = {}
        # Only the part's own keys and items are looked up (not every line of the file), so
        # taking a part of each of ten thousand records stays linear in the file.
        stack: list[tuple[PathKey, Any]] = [((), data)]
        while stack:
            relative, value = stack.pop()
            line = self.lines.get(prefix + relative)
            if line is not None:
                lines[relative] = line
            if isinstance(value, dict):
                stack.extend(((*relative, key), item) for key, item in value.items())
            elif isinstance(value, list):
                stack.extend(((*relative, index), item) for index, item in enumerate(value))
        if () not in lines:
            lines[()] = self.line_of(path) or 1
        return YamlDocument(data, self.file, lines)


# --------------------------------------------------------------------------------------------
# Reading


def read_text(path: str | os.PathLike[str], error: type[FileProblemError] = FileProblemError,
              max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a user's file as UTF-8 text, refusing binaries, huge files and unreadable paths."""
    name = str(path)
    raw = read_bytes(path, error, max_bytes)
    if b"\x00" in raw:
        raise error(Problem(name, None, "is not a text file (it contains NUL bytes)"))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(Problem(name, None,
                            f"is not UTF-8 text (bad byte at offset {exc.start})")) from None


def read_bytes(path: str | os.PathLike[str], error: type[FileProblemError] = FileProblemError,
               max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """Read a user's file whole, refusing huge files, pipes, folders and unreadable paths."""
    name = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise error(Problem(name, None, "no such file")) from None
    except (OSError, ValueError) as exc:
        raise error(Problem(name, None, f"cannot be read ({_reason(exc)})")) from None
    if stat.S_ISDIR(info.st_mode):
        raise error(Problem(name, None, "is a folder, not a file"))
    if not stat.S_ISREG(info.st_mode):
        # A pipe or a device would block or never end: only ordinary files are read.
        raise error(Problem(name, None, "is not an ordinary file"))
    if info.st_size > max_bytes:
        raise error(Problem(name, None, f"is larger than {_size(max_bytes)}; refusing to "
                                        "read it"))
    try:
        with open(path, "rb") as handle:
            raw = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise error(Problem(name, None, "no such file")) from None
    except IsADirectoryError:
        raise error(Problem(name, None, "is a folder, not a file")) from None
    except OSError as exc:
        raise error(Problem(name, None, f"cannot be read ({_reason(exc)})")) from None
    if len(raw) > max_bytes:
        raise error(Problem(name, None, f"is larger than {_size(max_bytes)}; refusing to "
                                        "read it"))
    return raw


def load_yaml(path: str | os.PathLike[str],
              error: type[FileProblemError] = FileProblemError,
              limits: Limits = DEFAULT_LIMITS) -> YamlDocument:
    """Read and parse a user's YAML file; every failure is an ``error`` naming the file."""
    return parse_yaml(read_text(path, error, limits.bytes), str(path), error, limits)


def parse_yaml(text: str, file: str, error: type[FileProblemError] = FileProblemError,
               limits: Limits = DEFAULT_LIMITS) -> YamlDocument:
    """Parse one YAML document of plain data, recording the line of every key and list item.

    Raises ``error`` (one problem, with the line where known) for text that is not printable,
    not YAML, holds a tag that would build an object, or goes past ``limits``.
    """
    if len(text) > limits.bytes:
        raise error(Problem(file, None, f"is larger than {_size(limits.bytes)}; refusing to "
                                        "read it"))
    bad = _NON_PRINTABLE.search(text)
    if bad is not None:
        line = _line_at(text, bad.start())
        raise error(Problem(file, line, f"a control character (U+{ord(bad.group()):04X}) is "
                                        "not allowed in a YAML file"))
    builder = _Builder(file, error, limits)
    loader = None
    try:
        loader = _Parser(text)
        with paused_gc():
            return YamlDocument(builder.build(_events(loader)), file, builder.lines)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        what = exc.problem or exc.context or "is not valid YAML"
        if what in _NESTING_PROBLEMS:
            # libyaml (from PyYAML 6.0.4) stops deep nesting itself, ahead of the depth the
            # builder counts: one message for it, whichever parser read the file.
            raise error(Problem(file, line, _TOO_DEEP)) from None
        raise error(Problem(file, line, f"YAML error: {what}")) from None
    except yaml.YAMLError as exc:
        reason = getattr(exc, "reason", None) or "is not valid YAML"
        raise error(Problem(file, None, f"YAML error: {reason}")) from None
    except RecursionError:
        raise error(Problem(file, None, "YAML is nested too deeply")) from None
    finally:
        if loader is not None:
            loader.dispose()


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the block (on every thread, until the
    last block that paused it ends).

    Building a big document makes hundreds of thousands of small lists, dicts and tuples
    and frees none; each few hundred of them start a collection that walks everything made
    so far, which doubles the time a large file takes to read. The values read hold no
    cycles, so nothing is left for the collector afterwards either.
    """
    global _PAUSES
    with _PAUSES_LOCK:
        if _PAUSES == 0:
            _WAS_ENABLED[0] = gc.isenabled()
            gc.disable()
        _PAUSES += 1
    try:
        yield
    finally:
        with _PAUSES_LOCK:
            _PAUSES -= 1
            if _PAUSES == 0 and _WAS_ENABLED[0]:
                gc.enable()


_PAUSES = 0
_PAUSES_LOCK = threading.Lock()
_WAS_ENABLED = [True]

#: The one message for nesting past the limit, from the builder's count or from libyaml's own.
_TOO_DEEP = "YAML is nested too deeply (or an alias refers to itself)"
#: libyaml's words when it stops nesting itself.
_NESTING_PROBLEMS = frozenset({"exceeded maximum nesting depth"})

#: What YAML does not allow in a stream (PyYAML's own rule, also applied for libyaml, which
#: has a few more exceptions): controls other than tab and line breaks, lone surrogates, and
#: the non-characters U+FFFE and U+FFFF.
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd"
                            "\U00010000-\U0010ffff]")
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _line_at(text: str, index: int) -> int:
    return len(_LINE_BREAK.findall(text, 0, index)) + 1


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit // 1024} KiB"


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


class _PurePythonParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's own parser, for where it was installed without libyaml."""

    def __init__(self, text: str):
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


#: libyaml's parser in C where PyYAML was built with it (parsing is most of the time a big
#: file takes); the events, and so the data, lines and limits, are the same either way.
try:
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - depends on how PyYAML was installed
    _Parser = _PurePythonParser


def _events(parser) -> Iterator[yaml.Event]:
    get = parser.get_event
    while True:
        event = get()
        yield event
        if event is None or type(event) is yaml.StreamEndEvent:
            return


class _Resolver(yaml.resolver.Resolver):
    """YAML 1.1's implicit types, also reading ``1e3`` and ``2.5E-4`` as numbers (YAML 1.1
    wants a dot in them; files written by JSON tools and numpy often have none)."""


_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"))

_TAG = "tag:yaml.org,2002:"
#: The scalar types built (every other tag is refused: no tag may build an object).
_SCALAR_TAGS = {f"{_TAG}{name}" for name in ("str", "int", "float", "bool", "null",
                                             "timestamp")}
_STR = f"{_TAG}str"
_INT = f"{_TAG}int"
_FLOAT = f"{_TAG}float"
_MERGE = f"{_TAG}merge"
#: YAML 1.1's base-60 numbers (``1:30``, ``190:20:30.15``), possessive: no place once read is
#: gone back over, so a long line that is no such number is rejected in one pass.
_BASE_60_WHOLE = re.compile(r"[-+]?[1-9][0-9_]*+(?::[0-5]?[0-9])++")
_BASE_60_REAL = re.compile(r"[-+]?[0-9][0-9_]*+(?::[0-5]?[0-9])++\.[0-9_]*+")
#: YAML 1.1's date and time, as PyYAML's resolver has it (its pattern does not backtrack).
_TIMESTAMP = next(pattern for tag, pattern in _Resolver.yaml_implicit_resolvers["0"]
                  if tag == f"{_TAG}timestamp")
#: A plain scalar that is a whole number in decimal, short enough to convert at once.
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]{0,17})")
#: The first characters of the plain scalars that may be something other than text.
_TYPED_STARTS = frozenset(_Resolver.yaml_implicit_resolvers)


@dataclass
class _Frame:
    """A mapping or list being built."""

    value: Any
    path: PathKey
    line: int
    anchor: str | None
    first_node: int  # the node count when it started
    depth: int
    deepest: int  # the deepest nesting reached inside it
    fallback: int  # the line ``line_of`` gives an item whose own line is not recorded
    key: Any = None
    has_key: bool = False  # a mapping's key is read, its value not yet
    key_line: int = 0
    merges: list = field(default_factory=list)
    explicit: set = field(default_factory=set)


@dataclass(frozen=True)
class _Anchored:
    value: Any
    nodes: int
    depth: int


class _Builder:
    """Plain data from parser events, counting nodes (aliases by what they expand to) and
    nesting as it goes."""

    def __init__(self, file: str, error: type[FileProblemError], limits: Limits):
        self.file = file
        self.error = error
        self.limits = limits
        self.lines: dict[PathKey, int] = {}
        self.nodes = 0
        self.anchors: dict[str, _Anchored] = {}
        self.open_anchors: set[str] = set()
        self.resolver = _Resolver()
        self.constructor = yaml.constructor.SafeConstructor()
        self.scalars: dict[str, Any] = {}  # plain scalars already built, by their text

    def fail(self, line: int | None, message: str) -> FileProblemError:
        return self.error(Problem(self.file, line, message))

    def build(self, events: Iterator[yaml.Event]) -> Any:
        stack: list[_Frame] = []
        root: Any = None
        documents = 0
        self.lines[()] = 1
        for event in events:
            if event is None:
                break
            line = event.start_mark.line + 1 if event.start_mark is not None else None
            kind = type(event)
            if kind is yaml.ScalarEvent:
                value = self.scalar(event, line)
                self.nodes += 1
                if self.nodes > self.limits.nodes:
                    self.count(0, 0, line)
                if event.anchor is not None:
                    self.anchors[event.anchor] = _Anchored(value, 1, 0)
                root = self.add(stack, value, line, root, is_scalar=True)
            elif kind is yaml.SequenceStartEvent or kind is yaml.MappingStartEvent:
                mapping = kind is yaml.MappingStartEvent
                self.check_tag(event.tag, "map" if mapping else "seq", line)
                self.count(1, len(stack) + 1, line)
                path = self.child_path(stack, line)
                fallback = stack[-1].key_line if stack and isinstance(stack[-1].value, dict) \
                    else line or 0
                frame = _Frame({} if mapping else [], path, line or 0, event.anchor,
                               self.nodes, len(stack) + 1, len(stack) + 1, fallback)
                if event.anchor is not None:
                    self.open_anchors.add(event.anchor)
                stack.append(frame)
            elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                frame = stack.pop()
                if kind is yaml.MappingEndEvent:
                    self.apply_merges(frame)
                if frame.anchor is not None:
                    self.open_anchors.discard(frame.anchor)
                    self.anchors[frame.anchor] = _Anchored(
                        frame.value, self.nodes - frame.first_node + 1,
                        frame.deepest - frame.depth + 1)
                if stack:
                    stack[-1].deepest = max(stack[-1].deepest, frame.deepest)
                root = self.add(stack, frame.value, frame.line, root, path=frame.path)
            elif kind is yaml.AliasEvent:
                if event.anchor in self.open_anchors:
                    raise self.fail(line, "YAML is nested too deeply: an alias refers to "
                                          "itself (or to a value that contains it)")
                anchored = self.anchors.get(event.anchor)
                if anchored is None:
                    raise self.fail(line, f"an alias to an unknown anchor {event.anchor!r}")
                self.count(anchored.nodes, len(stack) + anchored.depth if anchored.depth else 0,
                           line)
                if stack:
                    stack[-1].deepest = max(stack[-1].deepest, len(stack) + anchored.depth)
                root = self.add(stack, anchored.value, line, root,
                                is_scalar=not isinstance(anchored.value, dict | list))
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise self.fail(line, "YAML error: expected a single document in the "
                                          "file, but found another")
        return root

    # -- pieces ---------------------------------------------------------------------------

    def count(self, nodes: int, depth: int, line: int | None) -> None:
        """Add ``nodes`` values, the deepest of them ``depth`` containers down."""
        self.nodes += nodes
        if self.nodes > self.limits.nodes:
            raise self.fail(None, f"YAML expands to more than {self.limits.nodes:,} values "
                                  "(an alias bomb or a far too large file)")
        if depth > self.limits.depth:
            raise self.fail(line, _TOO_DEEP)

    def check_tag(self, tag: str | None, kind: str, line: int | None) -> None:
        if tag is not None and tag != "!" and tag != f"{_TAG}{kind}":
            raise self.fail(line, f"YAML error: the tag {_shown(tag)} is not allowed (only "
                                  "plain YAML data is accepted: no tags that build objects)")

    def scalar(self, event: yaml.ScalarEvent, line: int | None) -> Any:
        text = event.value
        plain = event.implicit[0] and event.tag is None
        if plain:
            if text[:1] not in _TYPED_STARTS:
                return text
            if _DECIMAL.fullmatch(text):
                return int(text)
            if text in self.scalars:
                return self.scalars[text]
        if event.tag is None or event.tag == "!":
            tag = self.resolve(text, event.implicit) if event.tag is None else _STR
        else:
            tag = event.tag
            if tag not in _SCALAR_TAGS:
                raise self.fail(line, f"YAML error: the tag {_shown(tag)} is not allowed (only "
                                      "plain YAML data is accepted: no tags that build "
                                      "objects)")
        if tag == _MERGE:
            return _MergeKey
        if tag not in _SCALAR_TAGS:
            tag = _STR  # "=" and the like: YAML 1.1 types no loader builds; plain text here
        try:
            value = self.construct(tag, text, event)
        except NumberTooLarge:
            raise self.fail(line, f"the number {_shown(text)} is far too large (a number in "
                                  "a game file must fit in a float, within ±1.8e308)") from None
        except (ValueError, OverflowError, yaml.YAMLError):
            raise self.fail(line, f"YAML error: {_shown(text)} is not a valid "
                                  f"{tag.removeprefix(_TAG)}") from None
        if plain and len(text) <= 24 and len(self.scalars) < 50_000:
            self.scalars[text] = value
        return value

    def resolve(self, text: str, implicit: tuple[bool, bool]) -> str:
        """The type of an untagged scalar, as PyYAML's resolver gives it, except that text
        with a colon is typed here: PyYAML's patterns for base-60 numbers backtrack through
        every place of a long one that does not match, holding hundreds of megabytes for a
        16 MiB line. Text with a colon can only be a base-60 number, a date and time, or text.
        """
        if implicit[0] and ":" in text:
            if _BASE_60_WHOLE.fullmatch(text):
                return _INT
            if _BASE_60_REAL.fullmatch(text):
                return _FLOAT
            if _TIMESTAMP.match(text):
                return f"{_TAG}timestamp"
            return _STR
        return self.resolver.resolve(yaml.ScalarNode, text, implicit)

    def construct(self, tag: str, text: str, event: yaml.ScalarEvent) -> Any:
        """The value of a scalar of a known ``tag``: numbers by the game's own linear-time
        readers (``yamlnumbers``), everything else by PyYAML's safe constructors."""
        if tag == _INT:
            return whole_number(text)
        if tag == _FLOAT:
            return real_number(text)
        node = yaml.ScalarNode(tag, text, event.start_mark, event.end_mark, event.style)
        return self.constructor.yaml_constructors[tag](self.constructor, node)

    def child_path(self, stack: list[_Frame], line: int | None) -> PathKey:
        if not stack:
            return ()
        parent = stack[-1]
        if isinstance(parent.value, list):
            return (*parent.path, len(parent.value))
        if not parent.has_key:
            raise self.fail(line, "YAML error: a key must be a plain value, not a list or a "
                                  "mapping")
        return (*parent.path, parent.key)

    def add(self, stack: list[_Frame], value: Any, line: int | None, root: Any,
            is_scalar: bool = False, path: PathKey | None = None) -> Any:
        """Put a finished value in its parent (or make it the document)."""
        if not stack:
            if line is not None:
                self.lines[()] = line
            return "<<" if value is _MergeKey else value
        parent = stack[-1]
        if value is _MergeKey and (isinstance(parent.value, list) or parent.has_key):
            value = "<<"  # a merge only means something as a key
        if isinstance(parent.value, list):
            index = len(parent.value)
            parent.value.append(value)
            if line is not None and (not is_scalar or line != parent.fallback):
                self.lines[(*parent.path, index)] = line
            return root
        if not parent.has_key:
            if value is _MergeKey or not is_scalar:
                if value is _MergeKey:
                    parent.key, parent.has_key, parent.key_line = _MergeKey, True, line or 0
                    return root
                raise self.fail(line, "YAML error: a key must be a plain value, not a list or "
                                      "a mapping")
            try:
                duplicate = value in parent.explicit
            except TypeError:
                raise self.fail(line, "YAML error: a key must be a plain value") from None
            if duplicate:
                raise self.fail(line, f"the key {_shown(value)} appears twice in one mapping")
            parent.key, parent.has_key, parent.key_line = value, True, line or 0
            return root
        key, parent.has_key = parent.key, False
        if key is _MergeKey:
            parent.merges.append((value, parent.key_line))
            return root
        parent.explicit.add(key)
        parent.value[key] = value
        self.lines[(*parent.path, key)] = parent.key_line
        return root

    def apply_merges(self, frame: _Frame) -> None:
        """``<<: *defaults`` (or a list of them): keys the mapping does not set itself."""
        merged: dict = {}
        for value, line in frame.merges:
            sources = value if isinstance(value, list) else [value]
            if not all(isinstance(source, dict) for source in sources):
                raise self.fail(line, "YAML error: '<<' merges only mappings")
            for source in sources:
                for key, item in source.items():
                    merged.setdefault(key, item)
        for key, item in merged.items():
            if key not in frame.explicit:
                frame.value[key] = item
                self.lines.setdefault((*frame.path, key), frame.line)


class _MergeKeyType:
    def __repr__(self) -> str:
        return "<<"


_MergeKey = _MergeKeyType()


def _shown(value: Any) -> str:
    """A value for a message: quoted, with anything unprintable escaped, and kept short."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > LARGEST:
        return "a number far too large"
    text = repr(value)
    return text if len(text) <= 42 else text[:40] + "…" + text[-1]


# --------------------------------------------------------------------------------------------
# Writing


def dump_yaml(data: Any) -> str:
    """YAML text for plain data: keys in the given order, short lists of numbers on one line."""
    return yaml.dump(data, Dumper=_Writer, sort_keys=False, allow_unicode=True, width=100)


def count_nodes(data: Any, limit: int | None = None) -> int:
    """How many YAML values ``data`` is written as, counted as the reader counts them: each
    mapping, list, key and scalar is one. Stops counting past ``limit``."""
    count = 0
    stack = [data]
    while stack and (limit is None or count <= limit):
        value = stack.pop()
        count += 1
        if isinstance(value, dict):
            count += len(value)
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return count


def write_yaml(path: str | os.PathLike[str], data: Any, limits: Limits = DEFAULT_LIMITS,
               error: type[FileProblemError] = FileProblemError,
               make_parents: bool = True, exclusive: bool = False) -> None:
    """Write ``data`` atomically, refusing (``error``) what would be refused when read back;
    where ``exclusive``, only as a new file (``FileExistsError`` if ``path`` is taken).

    The reader counts every key, value and list item as a node; so does this.
    """
    nodes = count_nodes(data, limits.nodes)
    if nodes > limits.nodes:
        raise error(Problem(str(path), None, f"too large to save: more than "
                                             f"{limits.nodes:,} values, which the game "
                                             "would refuse to read back"))
    text = dump_yaml(data)
    if len(text.encode("utf-8")) > limits.bytes:
        raise error(Problem(str(path), None, f"too large to save: more than "
                                             f"{_size(limits.bytes)}, which the game would "
                                             "refuse to read back"))
    if exclusive:
        create_new_text(path, text, make_parents=make_parents)
    else:
        atomic_write_text(path, text, make_parents=make_parents)


class _Layout:
    """How the game writes YAML: flat lists (of numbers or strings) in flow style, ``[3, 4]``,
    and lists of them one per line, so a polygon or a replay's moves read a point a line; no
    anchors or aliases."""

    def represent_sequence(self, tag, sequence, flow_style=None):  # noqa: D102
        if flow_style is None:
            flow_style = _is_flat(sequence)
        return super().represent_sequence(tag, sequence, flow_style)

    def ignore_aliases(self, data):  # noqa: D102
        return True


class _Dumper(_Layout, _Resolver, yaml.SafeDumper):
    """PyYAML's own emitter, quoting what the reader would take for something other than
    text (the reader's resolver: ``'0E0'`` is quoted, as the reader reads ``0E0`` as 0.0)."""


#: libyaml's emitter where PyYAML was built with it (the same text, three times as fast: the
#: race in progress is rewritten after every move); PyYAML's own otherwise.
_Writer: type = type("_CDumper", (_Layout, _Resolver, yaml.CSafeDumper), {}) \
    if hasattr(yaml, "CSafeDumper") else _Dumper


def _is_flat(sequence: Any) -> bool:
    return all(isinstance(v, int | float | str | bool) or v is None for v in sequence)
