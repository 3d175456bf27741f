"""The running score of a network room, kept on disk so that it survives a resume.

A room's games follow one another ("play again": a rematch is a new game with a new id). The
app counts their points in a :class:`~minefield.tui.scores.RunningScore`; this store
keeps that tally under every game id of the room, so that ``ssh -t HOST resume`` (a new
process) finds it again under the id it resumes. The file is the player's own
(``room-scores.json`` in the data folder), holds only what the result screens showed (names,
points, the seeds of ended games) and the newest :data:`KEEP` games. Reading or writing it
never stops a game: a problem only means the tally starts again.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from minefield.files import UnusableFileError, read_bounded
from minefield.paths import data_dir

#: Games remembered (the oldest are forgotten).
KEEP = 64
#: The file is never read past this size.
MAX_BYTES = 1 << 20
FILE_NAME = "room-scores.json"


def store_path() -> Path:
    """Where the tallies are kept."""
    return data_dir() / FILE_NAME


def _read(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(read_bounded(path, MAX_BYTES))
    except (OSError, ValueError, UnusableFileError):
        return {}
    return value if isinstance(value, dict) else {}


def load(game_id: str, path: Path | None = None) -> dict[str, Any] | None:
    """The tally kept for ``game_id`` (as :meth:`RunningScore.to_dict` made it), or None."""
    entry = _read(path or store_path()).get(game_id)
    return entry if isinstance(entry, dict) else None


def save(game_id: str, tally: dict[str, Any], path: Path | None = None) -> None:
    """Keep ``tally`` under ``game_id`` (best effort: a disk problem is ignored)."""
    path = path or store_path()
    data = _read(path)
    data.pop(game_id, None)
    data[game_id] = tally
    while len(data) > KEEP:
        del data[next(iter(data))]
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".room-scores.")
        try:
            with os.fdopen(handle, "w") as file:
                json.dump(data, file)
            os.replace(temporary, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


__all__ = ["FILE_NAME", "KEEP", "load", "save", "store_path"]
