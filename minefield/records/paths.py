"""Where records are kept: ``records/`` in the user data folder.

``MINEFIELD_DATA_DIR`` moves the data folder (tests point it at a temporary directory); the
records are then in ``$MINEFIELD_DATA_DIR/records``.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

DATA_ENV = "MINEFIELD_DATA_DIR"
RECORDS_FOLDER = "records"


def data_dir() -> Path:
    """The user data folder of Minefield (``MINEFIELD_DATA_DIR`` when set)."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("minefield", appauthor=False))


def records_dir() -> Path:
    """The folder of saved game records."""
    return data_dir() / RECORDS_FOLDER
