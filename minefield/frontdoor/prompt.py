r"""The line editor of the front door's prompts (the name asked at a key's first login).

What is typed is kept as typed, every character of it: a letter of another script, an invisible
mark, a control character or an escape sequence that is not a key is text, shown where the
player can see it (``^[`` for Esc, ``<U+200F>`` for a right-to-left mark, in reverse video),
so that the name rules refuse it with their reason and the player can correct it; nothing is
dropped or changed on the way. The keys are those of a shell's line: Left/Right, Home/End (and
Ctrl-A/E/B/F), Backspace, Delete, Ctrl-K/U/W, Enter; Ctrl-C, and Ctrl-D on an empty line,
leave.

Not asyncssh's own line editor (asyncssh 2.24, ``line_editor=True``): it is made only for a
channel with a text encoding (``SSHLineEditorChannel.create_editor``), while the front door's
channels carry a game's bytes unread (``encoding=None``, fixed when the channel opens), and it
drops what is not printable (``str.isprintable``: a right-to-left mark, Esc) with only a bell,
which is how a name changed silently.

>>> editor = LineEditor("Name: ")
>>> _ = editor.feed("\u0430lice\x1b[D\x7f\r".encode())
>>> editor.line
'\u0430lie'
>>> _ = editor.restart("\u200fBob")
>>> _ = editor.feed(b"\x01\x1b[3~\r")
>>> editor.line
'Bob'
"""

from __future__ import annotations

import codecs
import unicodedata

#: Escape sequences' final bytes that are keys (arrows, Home/End, F1-F4, Shift-Tab, ``~``
#: keys): a key is never text. Any other sequence (colours...) is text.
_KEY_FINALS = frozenset("ABCDFHPQRSZ~")
_HIDDEN = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Zs", "Zl", "Zp", "Mn", "Mc", "Me"})
#: The longest line kept (a name is at most 16).
MAX_CHARS = 32


def shown(ch: str) -> tuple[str, int]:
    """How a character of the line is drawn, and how many columns that takes.

    >>> shown("a"), shown("\\x1b"), shown("\\u200f")
    (('a', 1), ('\\x1b[7m^[\\x1b[27m', 2), ('\\x1b[7m<U+200F>\\x1b[27m', 8))
    """
    code = ord(ch)
    if code < 0x20 or code == 0x7F:
        text = "^" + chr(code ^ 0x40)
    elif ch != " " and unicodedata.category(ch) in _HIDDEN:
        text = f"<U+{code:04X}>"
    else:
        wide = unicodedata.east_asian_width(ch) in ("W", "F")
        return ch, 2 if wide else 1
    return f"\x1b[7m{text}\x1b[27m", len(text)


class LineEditor:
    """One line typed after ``prompt``: :meth:`feed` it the bytes typed and write what it
    answers; :attr:`line` is set once Enter is pressed, :attr:`cancelled` when the player
    leaves. ``width``: the terminal's columns (a longer line scrolls)."""

    def __init__(self, prompt: str, width: int = 80) -> None:
        self.prompt = prompt
        self.width = width
        self.text: list[str] = []
        self.cursor = 0
        self.line: str | None = None
        self.cancelled = False
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._escape = ""
        self._after_cr = False
        self._left = 0  # the first character shown, when the line is wider than the window
        self._ahead = ""  # typed after Enter: for the next line

    def restart(self, text: str = "") -> str:
        """A new line holding ``text`` (the cursor at its end); the prompt drawn."""
        self.text = list(text[:MAX_CHARS])
        self.cursor = len(self.text)
        self.line = None
        self._left = 0
        return self.draw()

    def draw(self) -> str:
        """The prompt and the line, the cursor in place (from the line's first column)."""
        cells = [shown(ch) for ch in self.text]
        room = max(10, self.width - len(self.prompt) - 1)
        self._left = min(self._left, self.cursor)
        while sum(width for _, width in cells[self._left:self.cursor]) > room - 1:
            self._left += 1
        end, used = self._left, 0
        while end < len(cells) and used + cells[end][1] <= room:
            used += cells[end][1]
            end += 1
        back = sum(width for _, width in cells[self.cursor:end])
        return ("\r" + self.prompt + "".join(text for text, _ in cells[self._left:end]) +
                "\x1b[K" + (f"\x1b[{back}D" if back else ""))

    def feed(self, data: bytes) -> str:
        """Take the bytes typed; what to write to the terminal. Stops at Enter (the rest waits
        for the next line) or when the player leaves."""
        self._ahead += self._decoder.decode(data)
        changed = bell = False
        while self._ahead and self.line is None and not self.cancelled:
            ch, self._ahead = self._ahead[0], self._ahead[1:]
            after_cr, self._after_cr = self._after_cr, False
            if self._escape:
                changed |= self._escape_char(ch)
            elif ch == "\x1b":
                self._escape = ch
            elif ch == "\r" or (ch == "\n" and not after_cr):
                self._after_cr = ch == "\r"
                self.line = "".join(self.text)
            elif ch == "\n":
                pass  # the \n of a \r\n
            elif ch == "\x03" or (ch == "\x04" and not self.text):
                self.cancelled = True
            else:
                done = self._key(ch)
                bell |= done is None
                changed |= bool(done)
        out = self.draw() if changed else ""
        if bell:
            out += "\a"
        if self.line is not None or self.cancelled:
            out += "\r\n"
        return out

    def _escape_char(self, ch: str) -> bool:
        """One more character of an escape sequence; True when the line changed."""
        sequence = self._escape + ch
        self._escape = ""
        if len(sequence) == 2:
            if ch in "[O":
                self._escape = sequence
                return False
            self._ahead = ch + self._ahead  # Esc then a character (Alt+key): both are text
            return self._insert("\x1b")
        if sequence.startswith("\x1bO"):
            return self._motion({"C": "right", "D": "left", "H": "home", "F": "end"}.get(ch))
        if "\x20" <= ch <= "\x3f":  # a parameter or an intermediate byte
            if len(sequence) > 16:  # no key is this long: text
                return self._insert_all(sequence)
            self._escape = sequence
            return False
        if not "\x40" <= ch <= "\x7e":  # not an escape sequence after all: all of it is text
            self._ahead = ch + self._ahead
            return self._insert_all(sequence[:-1])
        if ch not in _KEY_FINALS:
            return self._insert_all(sequence)  # a colour or another code: text, refused
        number = sequence[2:-1].split(";")[0]
        if ch == "~":
            key = {"1": "home", "7": "home", "4": "end", "8": "end", "3": "delete"}.get(number)
        else:
            key = {"C": "right", "D": "left", "H": "home", "F": "end"}.get(ch)
        return self._motion(key)

    def _key(self, ch: str) -> bool | None:
        """A key that is not Enter nor an escape sequence: True when the line changed, None
        when it could not be done (the bell)."""
        action = {"\x01": "home", "\x05": "end", "\x02": "left", "\x06": "right",
                  "\x7f": "backspace", "\x08": "backspace", "\x04": "delete",
                  "\x0b": "kill-end", "\x15": "kill-start", "\x17": "kill-word",
                  "\x0c": "redraw"}.get(ch)
        if action is None:
            return self._insert(ch) or None
        return self._motion(action)

    def _motion(self, action: str | None) -> bool:
        text, cursor = self.text, self.cursor
        if action == "home":
            self.cursor = 0
        elif action == "end":
            self.cursor = len(text)
        elif action == "left":
            self.cursor = max(0, cursor - 1)
        elif action == "right":
            self.cursor = min(len(text), cursor + 1)
        elif action == "backspace" and cursor:
            del text[cursor - 1]
            self.cursor -= 1
        elif action == "delete" and cursor < len(text):
            del text[cursor]
        elif action == "kill-end":
            del text[cursor:]
        elif action == "kill-start":
            del text[:cursor]
            self.cursor = 0
        elif action == "kill-word":
            start = cursor
            while start and text[start - 1] == " ":
                start -= 1
            while start and text[start - 1] != " ":
                start -= 1
            del text[start:cursor]
            self.cursor = start
        return action is not None

    def _insert(self, ch: str) -> bool:
        if len(self.text) >= MAX_CHARS:
            return False
        self.text.insert(self.cursor, ch)
        self.cursor += 1
        return True

    def _insert_all(self, text: str) -> bool:
        return any([self._insert(ch) for ch in text])


__all__ = ["MAX_CHARS", "LineEditor", "shown"]
