"""The track editor's core: tools, selection, undo, checks and autosave, without a window.

``EditorState`` is the editor as a state machine over an immutable ``Draft``: the window turns
mouse and keys into its calls (in lattice coordinates), draws what it holds, and shows the
questions it asks. Everything a designer can do can be driven and tested here without pygame.
"""

from racetrack.editing.state import Choice, EditorState, Leave, Question
from racetrack.editing.tools import Tool

__all__ = ["Choice", "EditorState", "Leave", "Question", "Tool"]
