"""Reading a small file that a person or another program may have replaced by anything.

A settings file or a game record is read only if it is a regular file of bounded size: a FIFO
would block, a link to ``/dev/zero`` would never end, a huge file would eat memory. The type is
checked before opening (a device is not even opened) and again on the open file; ``O_NONBLOCK``
makes the open itself return at once even if a FIFO took the file's place in between, and the
read stops one byte past the cap whatever size the file claims.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Literal

from minefield.errors import MinefieldError

Unusable = Literal["directory", "special", "too large"]


class UnusableFileError(MinefieldError, ValueError):
    """The path exists but is not a file to read: ``kind`` says why (callers word it)."""

    def __init__(self, kind: Unusable, limit: int) -> None:
        super().__init__(kind)
        self.kind: Unusable = kind
        self.limit = limit


def _check(info: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise UnusableFileError("directory", limit)
    if not stat.S_ISREG(info.st_mode):
        raise UnusableFileError("special", limit)
    if info.st_size > limit:
        raise UnusableFileError("too large", limit)


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Raises :class:`UnusableFileError` for anything else (unread) and :class:`OSError` when the
    file cannot be opened or read.
    """
    _check(os.stat(path), limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags | getattr(os, "O_BINARY", 0) | os.O_CLOEXEC)
    try:
        _check(os.fstat(descriptor), limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(descriptor)
    if size > limit:
        raise UnusableFileError("too large", limit)
    return b"".join(chunks)
