"""The browser door without a browser (:mod:`minefield.frontdoor.web_door`): the public URL
and the Content-Security-Policy (:mod:`minefield.frontdoor.public_url`), the per-address limit,
and ``ssh-server --web``'s refusals."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from minefield.frontdoor.public_url import PublicUrl, WebDoorError, content_policy
from tests.e2e.harness import free_port, minefield_command


@pytest.mark.parametrize(("text", "origin", "websocket"), [
    ("http://127.0.0.1:8080", "http://127.0.0.1:8080", "ws://127.0.0.1:8080/ws"),
    ("https://Mahjong.Example.org:443/", "https://mahjong.example.org",
     "wss://mahjong.example.org/ws"),
    ("http://[::1]:9000", "http://[::1]:9000", "ws://[::1]:9000/ws"),
])
def test_public_url(text: str, origin: str, websocket: str) -> None:
    public = PublicUrl.parse(text)
    assert (public.origin, public.websocket) == (origin, websocket)
    policy = content_policy(public)
    assert f"connect-src 'self' {websocket.removesuffix('/ws')};" in policy
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy


@pytest.mark.parametrize("text", ["ftp://x.org", "https://x.org/play", "x.org", "https://",
                                  "https://u@x.org", "http://x.org:99999"])
def test_public_url_refused(text: str) -> None:
    with pytest.raises(WebDoorError, match="--public-url"):
        PublicUrl.parse(text)


class _Front:
    """What the browser door asks of its front door, for requests that need no account."""

    def __init__(self, folder: Path, auth_per_minute: int) -> None:
        from minefield.frontdoor.door_config import FrontDoorConfig
        from minefield.frontdoor.limits import Limits
        from minefield.frontdoor.metrics import DoorMetrics

        self.config = FrontDoorConfig(data=folder, limits=Limits(auth_per_minute=auth_per_minute))
        self.metrics = DoorMetrics()


async def test_requests_past_the_per_address_limit_are_refused_with_a_page(
        tmp_path: Path) -> None:
    """One SSH connection a minute allows four requests (a sign-in's), then 429 with a page;
    static files are not counted; every response has the Content-Security-Policy."""
    import aiohttp

    from minefield.frontdoor.web_door import WebDoor

    web = WebDoor(_Front(tmp_path, auth_per_minute=1), "127.0.0.1", 0,
                  PublicUrl.parse("http://127.0.0.1:1"), tmp_path / "players.sqlite")
    await web.start()
    try:
        base = f"http://127.0.0.1:{web.port}"
        async with aiohttp.ClientSession() as client:
            statuses = []
            for _ in range(5):
                async with client.get(base + "/") as response:
                    statuses.append(response.status)
                    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
                    text = await response.text()
            assert statuses == [401, 401, 401, 401, 429]
            assert "Too many requests from 127.0.0.1" in text
            async with client.get(base + "/") as response:  # still refused
                assert response.status == 429
            async with client.get(base + "/static/js/textual.js") as response:
                assert response.status == 200
                assert "Content-Security-Policy" in response.headers
            async with client.get(base + "/web/nothing-here") as response:
                assert response.status == 404
                assert "Content-Security-Policy" in response.headers
    finally:
        await web.stop()


def ssh_server(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``minefield ssh-server`` that is expected to refuse to start."""
    return subprocess.run([minefield_command(), "ssh-server", "--data", str(folder / "door"),
                           "--listen", f"127.0.0.1:{free_port()}", *options],
                          capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL)


def test_web_on_every_address_needs_a_public_url(tmp_path: Path) -> None:
    done = ssh_server(tmp_path, "--web", "0.0.0.0:8080")
    assert done.returncode == 2
    assert "--web 0.0.0.0:8080 listens on every address: give --public-url" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "door").exists()


def test_a_public_url_with_a_path_is_refused(tmp_path: Path) -> None:
    done = ssh_server(tmp_path, "--web", "127.0.0.1:8080", "--public-url", "https://x.org/a")
    assert done.returncode == 2
    assert "give only the scheme, host and port" in done.stderr and "Traceback" not in done.stderr


def test_a_web_port_in_use_stops_the_server_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = ssh_server(tmp_path, "--open", "--web", f"127.0.0.1:{port}")
    assert done.returncode == 2, done.stderr
    assert f"--web 127.0.0.1:{port}: cannot listen (address already in use)" in done.stderr
    assert "Traceback" not in done.stderr
