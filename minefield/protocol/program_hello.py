"""A program's first line over ``ssh HOST wire``: its hello made the key's player's.

Over ``ssh HOST wire`` (both SSH routes) a program speaks the daemon's protocol itself
(``assets/protocol.md``) as the player its key logs in as. Its first line is checked here
before the daemon sees it: it must be a ``hello`` (the same checks, and the same errors, as the
daemon's :func:`~minefield.protocol.wire.parse_hello`), and its ``player`` must be absent or
that player's name (any case); another name is a ``bad_message``. What goes on to the daemon is
the hello re-encoded with the name the route gives (never the program's bytes: a line with
``player`` twice must not mean one thing here and another there).

>>> ann = b'{"type": "hello", "version": 1, "action": "lobby"}'
>>> own_hello(ann, "Ann", "Ann")
b'{"type":"hello","version":1,"action":"lobby","bot":null,"rules":null,"code":null,\
"game":null,"player":"Ann","seed":null}\\n'
>>> own_hello(ann.replace(b'}', b', "player": "bob"}'), "Ann", "Ann")
Traceback (most recent call last):
...
minefield.protocol.wire.WireProblem: this key plays as Ann: leave "player" out of the hello, \
or give that name
>>> first_line(b'{"type": "ping"}\\n{"type"')
(b'{"type": "ping"}\\n', b'{"type"')
"""

from __future__ import annotations

from minefield.protocol.messages import MAX_LINE_BYTES
from minefield.protocol.wire import (
    ErrorCode,
    WireError,
    WireProblem,
    encode,
    error_text,
    parse_hello,
)


def own_hello(line: bytes, player: str | None, shown_as: str) -> bytes:
    """The hello ``line`` as the daemon is sent it: with ``player`` as its ``player`` (None:
    left out, the daemon then knows the player by the Unix account). ``shown_as`` is the name
    the program plays as: a hello that names another player is a :class:`WireProblem`
    (``bad_message``), as is a line that is no hello (the daemon's own checks and codes)."""
    hello = parse_hello(line)
    if hello.player is not None and hello.player.casefold() != shown_as.casefold():
        raise WireProblem(f'this key plays as {shown_as}: leave "player" out of the hello, '
                          "or give that name")
    return encode(hello.model_copy(update={"player": player}))


def first_line(data: bytes) -> tuple[bytes, bytes] | None:
    """``data`` split after its first line (the newline kept): the line and the rest; None
    while no newline has come. :class:`WireProblem` (``too_long``) once the line is longer
    than the protocol allows (:data:`~minefield.protocol.messages.MAX_LINE_BYTES`)."""
    end = data.find(b"\n", 0, MAX_LINE_BYTES + 1)
    if end < 0:
        if len(data) > MAX_LINE_BYTES:
            raise WireProblem(f"a line is longer than {MAX_LINE_BYTES} bytes: closing",
                              "too_long")
        return None
    return data[:end + 1], data[end + 1:]


def fatal_line(code: ErrorCode, message: str) -> bytes:
    """The one line a refused program is sent: a fatal ``error`` (protocol 6)."""
    return encode(WireError(code=code, message=error_text(message), fatal=True))


__all__ = ["fatal_line", "first_line", "own_hello"]
