"""Maps mutated byte by byte (the bundled ones: Karopapier codes, grids, pictures) are imported
or refused with the project's own error, never anything else; an import that succeeds is a
valid track or a drawing whose problems are named."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from racetrack.base.errors import FileProblemError
from racetrack.board.track.maps import bundled_map_paths, import_map
from tests.test_fuzz_files import EXAMPLES

MAPS = {path.name: path.read_bytes() for path in bundled_map_paths()}
EDITS = st.lists(st.tuples(st.sampled_from(["flip", "insert", "cut", "repeat"]),
                           st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=6)


def mutated(data: bytes, edits) -> bytes:
    found = bytearray(data)
    for kind, where, value in edits:
        at = where % max(1, len(found))
        if kind == "flip" and found:
            found[at] ^= value or 1
        elif kind == "insert":
            found[at:at] = bytes([value])
        elif kind == "cut":
            del found[at:at + value % 40 + 1]
        else:
            found[at:at] = found[at:at + value % 40 + 1] * (value % 5 + 1)
    return bytes(found)


@EXAMPLES
@given(name=st.sampled_from(sorted(MAPS)), edits=EDITS)
def test_mutated_maps_are_imported_or_refused_with_the_projects_error(tmp_path, name, edits):
    path = tmp_path / name
    path.write_bytes(mutated(MAPS[name], edits))
    try:
        imported = import_map(path)
    except FileProblemError as exc:
        assert len(exc.problems) == 1 and str(exc.problems[0]).isprintable()
        return
    try:
        imported.track()
    except FileProblemError as exc:
        assert exc.problems and all(str(p).isprintable() for p in exc.problems)
