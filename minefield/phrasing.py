"""Where a line of text breaks: between phrases, never inside a figure. ``(2500 cc)``,
``discards 33/34`` and ``8000 + 1 counter stick x 1000 = 9000`` stay on one line.

:func:`line_breaks` chooses the breaks. The screens wrap with it
(:class:`~minefield.tui.widgets.phrases.PhraseStatic`) and so does plain text
(``review --text``); this module is pure Python and Rich's cell widths, so a command that
prints loads nothing of Textual. The rules are in :mod:`minefield.tui.widgets.phrases`.

>>> line_breaks("Bob: East · opponent Ann: West · discards 33/34", 40)
[33]
"""

from __future__ import annotations

import re
from itertools import pairwise

from rich.cells import cell_len

__all__ = ["FIGURE", "SEPARATOR", "SIGNS", "UNITS", "UNIT_WORDS", "line_breaks"]

#: A figure: a number with its signs and punctuation (``(2500``, ``-12000``, ``33/34``,
#: ``1,000``, ``12%``, ``0:45``, ``9000.``).
FIGURE = re.compile(r"[(\[]?[-+−]?\d[\d,.:/%]*[)\]]?[.,;:!?]?")
#: Signs that bind the figures on both sides (``8000 + 1000 = 9000``).
SIGNS = frozenset({"+", "-", "−", "x", "×", "=", "/", "→"})
#: The words that go with the figure before them (``2500 cc``, ``30 fu``, ``1 of 4``).
UNIT_WORDS = frozenset({"cc", "fu", "han", "point", "points", "counter", "stick", "sticks",
                        "of", "copy", "copies", "live", "tiles", "tile", "games", "game",
                        "hands", "hand", "s", "ms", "seconds"})
#: Word pairs that are one unit.
UNITS = frozenset({("counter", "stick"), ("counter", "sticks")})
#: The phrase separator: a line may end after it, never start with it.
SEPARATOR = "·"

#: How strongly a space holds its words together: a line breaks first after a separator, then
#: at a free space, then before a parenthesis, then between a word and its figure, and inside a
#: figure only when the figure alone is longer than the line.
_PHRASE, _FREE, _WEAK, _LABEL, _STRONG = 0, 1, 2, 3, 4
_TOKEN = re.compile(r"\S+")


def _figure(token: str) -> bool:
    return FIGURE.fullmatch(token) is not None


def _glue(left: str, right: str) -> int:
    """How strongly the space between two words holds them together."""
    if right == SEPARATOR:
        return _STRONG
    if left == SEPARATOR:
        return _PHRASE
    if left in SIGNS or right in SIGNS:
        return _STRONG
    if right.startswith("("):  # East (Bob), 8000 (800 cc), (R32): each side stays whole
        return _WEAK
    if _figure(right):  # discards 33/34, Ann 25000; 1 of 4
        return _STRONG if _figure(left) else _LABEL
    if _figure(left) and left[-1] not in ".;:!?,":  # the figure that ends a sentence does not
        # Its unit (2500 cc, 30 fu, 1 counter stick, 1 of 4), or what closes its parenthesis.
        unit = right.lower().strip("().,;:") in UNIT_WORDS
        return _STRONG if unit or (left.startswith("(") and ")" not in left) else _LABEL
    if (left.lower(), right.lower().rstrip(".,;:)")) in UNITS:
        return _STRONG
    return _FREE


def line_breaks(line: str, width: int) -> list[int]:
    """Where ``line`` (one paragraph, no newline) is broken to fit ``width`` cells: the offsets
    of the words that begin a new line."""
    tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(line)]
    if not tokens or width <= 0:
        return []
    glue = [_glue(line[a:b], line[c:d]) for (a, b), (c, d) in pairwise(tokens)]
    breaks: list[int] = []

    def pack(first: int, last: int, level: int, line_start: int) -> int:
        """Lay tokens ``first``..``last`` on lines from ``line_start`` on, breaking only at
        spaces whose glue is below ``level``; a run wider than a line is laid out again at the
        next level. Returns where the last line starts."""
        runs: list[tuple[int, int]] = []
        start = first
        for index in range(first, last):
            if glue[index] < level:
                runs.append((start, index))
                start = index + 1
        runs.append((start, last))
        for run_first, run_last in runs:
            begin, end = tokens[run_first][0], tokens[run_last][1]
            if cell_len(line[line_start:end]) <= width:
                continue  # on the current line
            if cell_len(line[begin:end]) <= width or level > _STRONG:
                if begin != line_start:
                    breaks.append(begin)
                    line_start = begin
            else:  # wider than a line: its parts go on from the current line
                line_start = pack(run_first, run_last, level + 1, line_start)
        return line_start

    pack(0, len(tokens) - 1, _FREE, 0)
    return sorted(set(breaks))
