"""The pump between a player's channel and the client's terminal (a real pseudo-terminal)."""

from __future__ import annotations

import asyncio
import os
import tty
from collections.abc import Callable

from minefield.frontdoor.pty_pump import MAX_PENDING, PtyPump


def _terminal() -> tuple[int, int]:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave


async def _until(done: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait for ``done`` (a safety net of ``seconds``, never an assertion on time)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not done() and loop.time() < deadline:
        await asyncio.sleep(0.01)


def test_what_the_client_draws_reaches_the_player_and_typing_reaches_the_client() -> None:
    async def run() -> tuple[bytes, bytes]:
        master, slave = _terminal()
        drawn = bytearray()
        pump = PtyPump(drawn.extend)
        try:
            pump.attach(master)
            pump.start()
            os.write(slave, b"\x1b[2Jthe table")
            await _until(lambda: bytes(drawn) == b"\x1b[2Jthe table")
            pump.send(b"d3m\r")
            typed = b""
            while len(typed) < 4:
                await asyncio.sleep(0.01)
                typed += os.read(slave, 64)
            return bytes(drawn), typed
        finally:
            pump.detach()
            os.close(master)
            os.close(slave)

    drawn, typed = asyncio.run(run())
    assert drawn == b"\x1b[2Jthe table"
    assert typed == b"d3m\r"


def test_a_paused_channel_is_not_drawn_on_until_it_resumes() -> None:
    async def run() -> tuple[bytes, bytes]:
        master, slave = _terminal()
        drawn = bytearray()
        pump = PtyPump(drawn.extend)
        try:
            pump.attach(master)
            pump.paused = True
            pump.start()  # paused: not read
            os.write(slave, b"frame")
            await asyncio.sleep(0.2)
            while_paused = bytes(drawn)
            pump.paused = False
            pump.start()
            await _until(lambda: bytes(drawn) == b"frame")
            return while_paused, bytes(drawn)
        finally:
            pump.detach()
            os.close(master)
            os.close(slave)

    while_paused, after = asyncio.run(run())
    assert while_paused == b""
    assert after == b"frame"


def test_a_paste_the_client_does_not_take_is_dropped_past_the_limit() -> None:
    async def run() -> int:
        master, slave = _terminal()
        pump = PtyPump(lambda data: None)
        try:
            pump.attach(master)
            pump.send(b"x" * (MAX_PENDING + 100_000))  # nobody reads the terminal
            return len(pump._to_child)
        finally:
            pump.detach()
            os.close(master)
            os.close(slave)

    assert asyncio.run(run()) == 0


def test_nothing_typed_reaches_a_terminal_once_detached() -> None:
    async def run() -> bytes:
        master, slave = _terminal()
        pump = PtyPump(lambda data: None)
        try:
            pump.attach(master)
            pump.detach()
            pump.send(b"late keys")
            os.set_blocking(slave, False)
            try:
                return os.read(slave, 64)
            except BlockingIOError:
                return b""
        finally:
            os.close(master)
            os.close(slave)

    assert asyncio.run(run()) == b""
