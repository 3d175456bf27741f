"""The line editor of the name prompt: what is typed is kept as typed, shown where it can be
seen, and edited with a shell's keys."""

from __future__ import annotations

import pytest

from minefield.frontdoor.prompt import MAX_CHARS, LineEditor

LEFT, RIGHT, HOME, END, DELETE = b"\x1b[D", b"\x1b[C", b"\x1b[H", b"\x1b[F", b"\x1b[3~"


def typed(*parts: bytes, text: str = "") -> LineEditor:
    """An editor holding ``text`` fed ``parts`` one after the other."""
    editor = LineEditor("Name: ")
    editor.restart(text)
    for part in parts:
        editor.feed(part)
    return editor


@pytest.mark.parametrize(("keys", "line"), [
    # Nothing is dropped: another script's letter, an invisible mark, escape codes, controls.
    ("\u0430lice\r".encode(), "\u0430lice"),
    ("\u200fBob\r".encode(), "\u200fBob"),
    (b"\x1b[31mCat\r", "\x1b[31mCat"),
    (b"Ann\x1b]0;x\x07\r", "Ann\x1b]0;x\x07"),  # a title-setting code: all of it
    (b"a\tb\x00\r", "a\tb\x00"),
    (b"\x1bx\r", "\x1bx"),  # Esc then a letter (Alt+x)
    (b"ab\x1b\r", "ab\x1b"),  # a lone Esc before Enter: kept, and Enter still ends the line
    (b"A\xffB\r", "A\ufffdB"),  # a byte that is not UTF-8: shown as such, refused
    # The keys that edit.
    (b"Ann" + LEFT + LEFT + b"x\r", "Axnn"),
    (b"Ann" + HOME + b"x" + END + b"y\r", "xAnny"),
    (b"Ann\x01x\x05y\r", "xAnny"),  # Ctrl-A, Ctrl-E
    (b"Ann" + LEFT + b"\x7f\r", "An"),  # Backspace
    (b"Ann" + HOME + DELETE + b"\r", "nn"),
    (b"Ann" + HOME + b"\x04\r", "nn"),  # Ctrl-D deletes on a line with text
    (b"Ann Bob\x17\r", "Ann "),  # Ctrl-W
    (b"Ann" + LEFT + b"\x0b\r", "An"),  # Ctrl-K
    (b"Ann" + LEFT + b"\x15\r", "n"),  # Ctrl-U
    (b"Ann" + b"\x1b[1;5D" + b"x\r", "Anxn"),  # Ctrl+Left is a key, not text
    (b"Ann\x1bOP\x1b[15~\x1b[A\r", "Ann"),  # F1, F5, Up: keys that do nothing here
    (b"A" + RIGHT * 3 + LEFT * 5 + b"x\r", "xA"),
])
def test_a_line_is_kept_as_typed_and_edited(keys: bytes, line: str) -> None:
    assert typed(keys).line == line


def test_a_key_split_between_reads_is_one_key() -> None:
    editor = typed(b"Ann\x1b", b"[", b"D", "\u0430".encode()[:1], "\u0430".encode()[1:], b"\r")
    assert editor.line == "An\u0430n"


def test_the_refused_text_comes_back_to_be_corrected() -> None:
    editor = typed(b"\x1b[31mCat\r")
    drawn = editor.restart(editor.line or "")
    assert drawn == "\rName: \x1b[7m^[\x1b[27m[31mCat\x1b[K"  # Esc shown, not obeyed
    editor.feed(HOME + DELETE * 5 + b"\r")
    assert editor.line == "Cat"


def test_what_is_typed_after_enter_waits_for_the_next_line() -> None:
    editor = typed(b"one\rtwo\r")
    assert editor.line == "one"
    editor.restart("")
    editor.feed(b"")
    assert editor.line == "two"


@pytest.mark.parametrize("keys", [b"An\x03", b"\x04"])
def test_ctrl_c_and_ctrl_d_on_an_empty_line_leave(keys: bytes) -> None:
    editor = typed(keys)
    assert editor.cancelled and editor.line is None


def test_the_line_is_drawn_safely_and_scrolls_in_a_narrow_terminal() -> None:
    editor = LineEditor("Name: ", width=20)
    editor.restart()
    out = editor.feed("\u200f\u0430\u4e2d".encode())
    # The invisible mark is named in reverse video; a wide letter takes two columns.
    assert out == "\rName: \x1b[7m<U+200F>\x1b[27m\u0430\u4e2d\x1b[K"
    out = editor.feed(b"x" * 20)
    assert out.startswith("\rName: ") and out.endswith("\x1b[K")
    assert "x" * 12 in out and "<U+200F>" not in out  # the end of the line, where the cursor is
    assert editor.feed(b"y" * MAX_CHARS).endswith("\a")  # past the longest line: the bell
    assert len(editor.text) == MAX_CHARS
