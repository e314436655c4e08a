"""The editor's keys: each key name (with Ctrl or Shift) and what it does to the drawing.

Only the keys the core has a use for are here; the window keeps its own (panning, zooming,
Home, test drive, race, F1) and gets a key when ``press_key`` answers False.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from racetrack.editing.questions import Asking, Leave
from racetrack.editing.tools import TOOL_KEYS

if TYPE_CHECKING:
    from racetrack.editing.state import EditorState

NUDGES = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


def press_key(editor: EditorState, name: str, ctrl: bool = False, shift: bool = False) -> bool:
    """A key press; False when the editor's core has no use for it (the window may)."""
    if editor.waiting:
        return False
    if ctrl:
        action = _ctrl_keys(editor, shift).get(name)
    elif shift and name in NUDGES and editor.selection:
        editor.arranging.nudge(*NUDGES[name])
        return True
    else:
        action = _plain_keys(editor, shift).get(name)
        if action is None and name in TOOL_KEYS:
            editor.set_tool(TOOL_KEYS[name])
            return True
    if action is None:
        return False
    action()
    return True


def _ctrl_keys(editor: EditorState, shift: bool) -> dict[str, Callable[[], object]]:
    arranging, files = editor.arranging, editor.files
    return {"z": editor.redo if shift else editor.undo, "y": editor.redo,
            "s": files.ask_file_name if shift else files.save,
            "o": lambda: editor.request(Leave.OPEN), "n": lambda: editor.request(Leave.NEW),
            "a": arranging.select_all, "c": arranging.copy, "v": arranging.paste,
            "d": arranging.duplicate}


def _plain_keys(editor: EditorState, shift: bool) -> dict[str, Callable[[], object]]:
    arranging, pen, palette, files = editor.arranging, editor.pen, editor.palette, editor.files
    return {
        "escape": editor.escape, "enter": pen.close_sketch,
        "backspace": lambda: pen.remove_last_point() or arranging.delete(),
        "delete": arranging.delete, "k": palette.cycle_kind,
        "plus": lambda: arranging.set_laps(1), "minus": lambda: arranging.set_laps(-1),
        "[": lambda: palette.widen(-1), "]": lambda: palette.widen(1),
        "m": lambda: arranging.mirror(vertical=shift), "e": lambda: arranging.rotate(not shift),
        "pageup": lambda: arranging.renumber(-1), "pagedown": lambda: arranging.renumber(1),
        "n": lambda: files.ask(Asking.NAME, editor.draft.name),
        "d": lambda: files.ask(Asking.DESCRIPTION, editor.draft.description),
    }
