"""Connection caps of the real daemon process: 3,000 connections from one account at once are
not all accepted, and each refused one gets one line saying why.

A personal account is one person: at most 8 of its connections at once, before the hello too.
The shared SSH account is many people, known only from their hello: at most 1000 of its
connections may wait for their hello at once. Every wait is bounded.
"""

from __future__ import annotations

import json
import socket
from collections import Counter
from pathlib import Path

import pytest

from tests.e2e.harness import Daemon, short_folder

ATTEMPTS = 3000


def _flood(path: Path) -> Counter[str]:
    """Open :data:`ATTEMPTS` connections that never say hello; how each was answered (the
    error code of its first line: ``handshake`` for those accepted, after the hello limit)."""
    connections = []
    try:
        for _ in range(ATTEMPTS):
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.settimeout(60)
            client.connect(str(path))
            connections.append(client)
        answers: Counter[str] = Counter()
        for client in connections:
            data = b""
            while not data.endswith(b"\n"):
                chunk = client.recv(4096)
                if not chunk:
                    break
                data += chunk
            error = json.loads(data.splitlines()[0])
            assert error["type"] == "error" and error["fatal"], error
            key = error["code"]
            if error["code"] == "rate_limited":
                key += ": " + error["message"]
            answers[key] += 1
        return answers
    finally:
        for client in connections:
            client.close()


@pytest.mark.parametrize("shared", [False, True], ids=["personal", "shared"])
def test_three_thousand_connections_from_one_account_are_not_all_accepted(
        shared: bool) -> None:
    with short_folder() as folder:
        daemon = Daemon(folder, "--max-connections", "5000", shared=shared)
        try:
            answers = _flood(daemon.socket)
        finally:
            daemon.stop()
        log = daemon.log.read_text()
    cap = 1000 if shared else 8
    # The harness's own check that the daemon listens may still hold a place at the start.
    accepted = answers["handshake"]
    assert cap - 1 <= accepted <= cap, answers
    refused = (f"too many connections from the account {_me()} waiting to say hello (1000): "
               "try again in a moment" if shared else
               "too many connections for one player (8): close a window or wait a moment")
    assert answers[f"rate_limited: {refused}"] == ATTEMPTS - accepted, answers
    # The operator sees the refusals, in one line a minute rather than one per connection.
    assert log.count(f"a connection from the account {_me()} refused") == 1, log[-2000:]


def _me() -> str:
    from tests.e2e.harness import ME

    return ME
