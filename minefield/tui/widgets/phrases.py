"""Text that wraps between phrases, never inside a figure: ``(2500 cc)``, ``discards 33/34``,
``8000 + 1 counter stick x 1000 = 9000`` stay on one line.

Textual wraps at any space. :func:`~minefield.phrasing.line_breaks` (pure, shared with plain
text) chooses the breaks instead. Never broken (unless the figure alone is longer than the
line): the spaces around an arithmetic sign, between
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

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets import Static

from minefield.phrasing import FIGURE, line_breaks

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
