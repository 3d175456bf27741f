"""Text that wraps between phrases, never inside a figure: ``(2500 cc)``, ``discards 33/34``,
``8000 + 1 counter stick x 1000 = 9000`` stay on one line.

Textual wraps at any space. :func:`line_breaks` chooses the breaks instead. Never broken
(unless the figure alone is longer than the line): the spaces around an arithmetic sign, between
a figure and its unit (``2500 cc``, ``30 fu``, ``1 counter stick``, ``1 of 4``), inside an
opened parenthesis (``(2500 cc)``), and before a ``·`` (the separator ends its line). Lines
break after a ``·`` first, then at the other spaces; before a parenthesis (``East (Bob)``,
``8000 (800 cc)``, ``(R32)``) only when the phrase would not fit otherwise, and between a word
and its figure (``discards 33/34``, ``and 8000``) only when both would not fit on one line.
:class:`PhraseStatic` is a ``Static`` that wraps its text so; its ``content`` is what it was
given.

>>> line_breaks("Bob: East · opponent Ann: West · discards 33/34", 40)
[33]
>>> line_breaks("Ann 2500 (250 cc) · Bob 47500 (4750 cc)", 30)
[20]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from rich.cells import cell_len
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets import Static

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


#: How far a paragraph's wrapped lines are indented, from its text (None: not at all).
Hanging = Callable[[str], int]


def leading_indent(paragraph: str) -> int:
    """The hanging indent of a paragraph that starts with spaces: its lines go on under its
    first word.

    >>> leading_indent("   5p: 14% · no dora near it"), leading_indent("Ron!")
    (3, 0)
    """
    return len(paragraph) - len(paragraph.lstrip(" "))


def numbered_indent(paragraph: str) -> int:
    """The hanging indent of a numbered line (``10 Bot (strong) 3s``): its lines go on under
    the word after the number; other lines as :func:`leading_indent`.

    >>> numbered_indent(" 9 You 5p"), numbered_indent("   furiten since 3")
    (3, 3)
    """
    number = _NUMBERED.match(paragraph)
    return number.end() if number is not None else leading_indent(paragraph)


_NUMBERED = re.compile(r" *\d+ ")


def wrap_phrases(content: Content, width: int, hanging: Hanging | None = None) -> Content:
    """``content`` with a newline at each of its lines' :func:`line_breaks`; with ``hanging``,
    the lines a paragraph wraps onto are indented as it says (a hanging indent), and broken
    for the width left."""
    lines: list[Content] = []
    for paragraph in content.split("\n"):
        indent = min(hanging(paragraph.plain), width // 2) if hanging is not None else 0
        rest, room, first = paragraph, width, True
        while True:
            # (the spaces a paragraph starts with are its own: never a break among them)
            lead = leading_indent(rest.plain) if first and indent else 0
            offsets = [lead + offset for offset in line_breaks(rest.plain[lead:], room - lead)]
            if not offsets:
                lines.append(rest if first else Content(" " * indent) + rest)
                break
            if not indent:  # every break at once, as the whole width
                parts = rest.divide(offsets)
                lines.extend(part.rstrip() if index < len(offsets) else part
                             for index, part in enumerate(parts))
                break
            head, rest = rest.divide([offsets[0]])
            lines.append(head.rstrip() if first else Content(" " * indent) + head.rstrip())
            room, first = width - indent, False  # (rest starts at a word)
    return Content("\n").join(lines)


class Phrases(Visual):
    """A :class:`~textual.content.Content` that wraps between phrases (see the module)."""

    def __init__(self, content: Content, hanging: Hanging | None = None) -> None:
        self.content = content
        self.hanging = hanging
        self._wrapped: dict[int, Content] = {}

    def __str__(self) -> str:
        return self.content.plain

    def at(self, width: int) -> Content:
        """The content broken into lines for ``width`` cells."""
        wrapped = self._wrapped.get(width)
        if wrapped is None:
            wrapped = self._wrapped[width] = wrap_phrases(self.content, width, self.hanging)
        return wrapped

    def render_strips(self, width: int, height: int | None, style: Style,
                      options: RenderOptions) -> list[Strip]:
        """Render the lines broken for ``width`` (Textual's Visual protocol)."""
        return self.at(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        """The content's own optimal width (one line per paragraph when it fits)."""
        return self.content.get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        """The widest word."""
        return self.content.get_minimal_width(rules)

    def get_height(self, rules: RulesMap, width: int) -> int:
        """The number of lines at ``width``."""
        return self.at(width).get_height(rules, width)


class PhraseStatic(Static):
    """A ``Static`` whose text (markup or :class:`~textual.content.Content`) wraps between
    phrases, never inside a figure; ``content`` stays what it was given. ``hanging`` (a class
    attribute, or set on an instance) indents the lines a paragraph wraps onto."""

    _phrases: Phrases | None = None
    hanging: Hanging | None = None

    def render(self) -> Visual:
        """The text as :class:`Phrases` (other visuals as they are)."""
        visual = self.visual
        if not isinstance(visual, Content):
            return visual
        if self._phrases is None or self._phrases.content is not visual:
            self._phrases = Phrases(visual, self.hanging)
        return self._phrases


__all__ = ["FIGURE", "Hanging", "PhraseStatic", "Phrases", "leading_indent", "line_breaks",
           "numbered_indent", "wrap_phrases"]
