"""What the editor asks before it would lose work, and the texts it waits for.

A ``Question`` is shown with a button per ``Choice``; ``then`` is what happens once it is
answered (the template list, the file list, leaving for the menu, quitting). The drawing left
unsaved last time is offered back by a question too, before any file is opened. A ``Prompt`` asks
for a line of text: the track's name, its description, or the name to save it under.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path


class Leave(Enum):
    """What would replace the drawing: a template, another file, the menu, or quitting."""

    NEW = "new"
    OPEN = "open"
    MENU = "menu"
    QUIT = "quit"


class Choice(Enum):
    """An answer; the window takes the first letter as its key."""

    SAVE = "Save"
    DISCARD = "Discard"
    CANCEL = "Cancel"
    REPLACE = "Replace"
    RESTORE = "Restore"
    KEEP_ASIDE = "Keep aside"


class Asking(Enum):
    """The text the editor is waiting for."""

    NAME = "name"
    DESCRIPTION = "description"
    SAVE_AS = "save as"


@dataclass(frozen=True)
class Question:
    """A question the window shows with a button per choice; ``then`` happens after it."""

    text: str
    choices: tuple[Choice, ...]
    then: Leave | None = None
    target: Path | None = None  # the file a Replace writes, or the one to open after
    title: str = "Unsaved changes"


@dataclass(frozen=True)
class Prompt:
    asking: Asking
    text: str
    then: Leave | None = None
