"""The root of Minefield's own exceptions.

Every error the project raises on purpose (bad input, a refused command, a broken file, a
lost link) is a :class:`MinefieldError`, so ``except MinefieldError`` catches those and no bug.
Each keeps the built-in base it had (``ValueError`` for a value that is wrong, ``RuntimeError``
for a state that is), so code that catches those still does.

>>> from minefield.rules.tiles import TileError
>>> issubclass(TileError, MinefieldError) and issubclass(TileError, ValueError)
True
"""

from __future__ import annotations


class MinefieldError(Exception):
    """An error Minefield raises on purpose; its message says what is wrong."""


__all__ = ["MinefieldError"]
