"""Working on shapes already drawn: the selection, and deleting, nudging, mirroring,
rotating, copying, pasting and duplicating it; flipping a line's arrow, renumbering a
checkpoint, the laps, and removing what is under the pointer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from racetrack.board.geometry import Coord
from racetrack.board.track.draft import Draft, flipped
from racetrack.editing import parts as P

if TYPE_CHECKING:
    from racetrack.editing.state import EditorState


class Arranging:
    def __init__(self, editor: EditorState):
        self.editor = editor
        self.clipboard: Draft | None = None
        self.pastes = 0  # each paste lands a little further along

    def select_all(self) -> None:
        self.editor.selection = frozenset(P.all_parts(self.editor.draft))

    def delete_selection(self) -> bool:
        editor = self.editor
        if not editor.selection:
            return False
        editor.commit(P.delete(editor.draft, editor.selection))
        editor.selection = frozenset()
        return True

    def delete(self) -> None:
        """Del: the selection, or else what is under the pointer."""
        if not self.delete_selection():
            self.remove_at(self.editor.hand.pointer)

    def nudge(self, dx: int, dy: int) -> None:
        self._change(lambda d, s: P.translate(d, s, dx, dy))

    def mirror(self, vertical: bool = False) -> None:
        self._change(lambda d, s: P.mirror(d, s, vertical))

    def rotate(self, clockwise: bool = True) -> None:
        self._change(lambda d, s: P.rotate(d, s, clockwise))

    def _change(self, how) -> None:
        editor = self.editor
        if editor.selection:
            editor.commit(how(editor.draft, editor.selection))

    def copy(self) -> None:
        if self.editor.selection:
            self.clipboard = P.extract(self.editor.draft, self.editor.selection)
            self.pastes = 0

    def paste(self) -> None:
        if self.clipboard is None:
            return
        self.pastes += 1
        draft, made = P.merge(self.editor.draft, self.clipboard, 2 * self.pastes,
                              2 * self.pastes)
        self._add(draft, made)

    def duplicate(self) -> None:
        draft, made = P.duplicate(self.editor.draft, self.editor.selection)
        self._add(draft, made)

    def _add(self, draft: Draft, made: list[P.Part]) -> None:
        if not made:
            self.editor.notes.append("A track has one outline, start and finish: those are "
                                     "not copied")
            return
        self.editor.commit(draft)
        self.editor.selection = frozenset(made)

    def flip(self, part: P.Part) -> None:
        draft = self.editor.draft
        self.editor.commit(P.with_line(draft, part, flipped(P.line_of(draft, part))))

    def remove_at(self, at: Coord) -> None:
        """Right-click or Del: the point under the pointer, or the whole line, or (while
        drawing) the last point drawn."""
        editor = self.editor
        if editor.pen.remove_last_point():
            return
        found = editor.hand.hit(at, select_inside=False)
        if found is None or found.kind is P.HitKind.MIDPOINT:
            return
        part = found.part
        if found.kind is P.HitKind.VERTEX and part.kind.is_ring:
            ring = P.ring_of(editor.draft, part)
            smaller = ring[:found.vertex] + ring[found.vertex + 1:]
            editor.commit(P.with_ring(editor.draft, part, smaller if len(smaller) >= 3 else ()))
        elif part.kind.is_line or part.kind.is_point:
            editor.commit(P.delete(editor.draft, [part]))

    def renumber(self, by: int) -> None:
        """PgUp / PgDn: the selected checkpoint (or the one under the pointer) comes earlier
        or later in the course."""
        editor = self.editor
        chosen = [p for p in editor.selection if p.kind is P.PartKind.CHECKPOINT]
        if not chosen:
            found = editor.hand.hit(editor.hand.pointer)
            chosen = [found.part] if found and found.part.kind is P.PartKind.CHECKPOINT else []
        if chosen:
            index = chosen[0].index
            target = max(0, min(len(editor.draft.checkpoints) - 1, index + by))
            editor.commit(editor.draft.move_checkpoint(index, by))
            editor.selection = frozenset({P.Part(P.PartKind.CHECKPOINT, target)})

    def set_laps(self, by: int) -> None:
        editor = self.editor
        editor.commit(editor.draft.with_changes(laps=max(1, min(99, editor.draft.laps + by))))
