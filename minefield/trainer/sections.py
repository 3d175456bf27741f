"""The review's parts as lines of plain text: a heading, then bullets at two depths, so that
``review --text`` and the review screen say the same words and wrap them the same way (a
wrapped bullet's later lines start under its text, never under its marker).

>>> line = Line("Discard 12, 6s: 23%, where 4z was 0%: 2881 expected points lost", 1, "1.")
>>> line.prefix, line.indent
('  1. ', '     ')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Line", "Section"]


@dataclass(frozen=True)
class Line:
    """One line of a part: ``depth`` 0 is a heading or a paragraph, 1 and 2 are bullets with
    their ``marker`` (``"•"``, ``"1."``)."""

    text: str
    depth: int = 0
    marker: str = ""

    @property
    def prefix(self) -> str:
        """What comes before the text on its first line."""
        if not self.depth:
            return ""
        return "  " * self.depth + (f"{self.marker} " if self.marker else "")

    @property
    def indent(self) -> str:
        """What comes before the text on its later lines (under the text, past the marker)."""
        return " " * len(self.prefix)


@dataclass(frozen=True)
class Section:
    """One part of the review: its title and its lines."""

    title: str
    lines: tuple[Line, ...]
