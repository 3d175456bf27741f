"""The browser door (``minefield ssh-server --web ADDR:PORT``): the ordinary client in a web page.

An HTTP listener in the front door's own event loop. Each browser session is a child of the
same process server as an SSH session (:mod:`.spawner`), running the same ``minefield lobby``
with the player's own environment, so a browser player is in the same lobby, at the same
tables, with the same name and rating, and can play an SSH player.

What comes from ``textual-serve`` (pinned in ``pyproject.toml``), and what is changed:

- Its *client* is used as it is: ``textual.js`` (xterm.js and the protocol's browser side), its
  stylesheet and fonts, served from the installed package at ``/static/``.
- Its *protocol* is spoken as it is: the browser sends JSON text frames (``["stdin", text]``,
  ``["resize", {width, height}]``, ``["ping", x]``, ``["focus"]``, ``["blur"]``) and gets the
  terminal's bytes as binary frames; the app (Textual's own ``WebDriver``) writes
  ``__GANGLION__`` and then packets of one type byte, a 4-byte big-endian length and the
  payload (``D`` screen bytes, ``M`` JSON meta, ``P`` file chunks) and reads the same packets.
- Its *server* (``textual_serve.server.Server`` and ``AppService``) is not used, for three
  reasons. It starts each app with ``asyncio.create_subprocess_shell`` and a copy of the
  server's whole environment, where a session here must be a fork of the pre-imported process
  server with the player's own environment (never the server's). It has no authentication and
  accepts a websocket from any ``Origin`` (any web page could open a session). And its page
  template loads Google Fonts and has inline scripts and handlers, which a strict
  Content-Security-Policy forbids. So the page is this module's own (the same terminal
  element, styles and script in files of ``minefield/assets``), and this module reads and
  writes the packets itself: through the child's pseudo-terminal, put in raw mode, which
  passes every byte unchanged (the client's standard error is that terminal too, so that it
  is a terminal as the client expects; Textual captures what is written there while an app
  runs, and a line written between apps is passed over). File downloads (``P`` packets) and
  ``open_url`` are not passed on: the app offers neither.

Signing in (the links and sessions are kept by :mod:`.web_logins`): ``ssh HOST web`` prints
``PUBLIC_URL/login/TOKEN``; opening it shows whose link it is and a *Sign in* button, whose
POST (from this origin only) uses the link and sets the session cookie (HttpOnly,
SameSite=Strict, Secure and ``__Host-`` when the public URL is https). A GET never uses a
link, so a chat program's link preview cannot burn it. The page and the websocket need a live
session; the websocket also needs its ``Origin`` to be the public URL's. Every response
carries a Content-Security-Policy, and a session counts under the SSH door's caps.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from minefield.errors import MinefieldError
from minefield.frontdoor.accounts import Account
from minefield.frontdoor.grammar import GAME_ID
from minefield.frontdoor.limits import reason_of
from minefield.frontdoor.review_pages import REVIEW_POLICY, ReviewPages
from minefield.frontdoor.spawner import Child, SpawnError
from minefield.frontdoor.web_logins import SESSION_SECONDS, LinkRefused, WebLogins, WebSession
from minefield.frontdoor.web_passkeys import PasskeyRefused, Passkeys
from minefield.protocol.address import DOOR_ENV
from minefield.rules.seats import Seat
from minefield.server.limits import TokenBucket

log = logging.getLogger("minefield.frontdoor")

#: The textual-serve package's browser side (textual.js, xterm.css, the fonts).
CLIENT_PACKAGE = "textual_serve"
#: Requests (pages, sign-ins, websockets; not static files) per address per minute, for each
#: connection per minute the SSH door allows (``--auth-per-minute``): a sign-in is four (the
#: link's page, its button, the client's page, the websocket).
REQUESTS_PER_CONNECTION = 4
#: The largest websocket message a browser may send (a paste, a resize).
MAX_MESSAGE = 64 * 1024
#: The websocket's keepalive: a browser that answers no ping this long is gone.
HEARTBEAT_SECONDS = 15.0
#: How long an ended session's process is given to leave before it is killed.
LEAVE_SECONDS = 5.0
#: A browser's terminal: the most rows and columns taken from it.
MAX_CELLS = 1000
#: Listening addresses that mean every address of the host.
ANY_ADDRESS = frozenset({"", "0.0.0.0", "::", "*"})


class WebDoorError(MinefieldError):
    """The browser door cannot start (one line)."""


@dataclass(frozen=True, slots=True)
class PublicUrl:
    """Where players reach the browser door (``--public-url``), as the browser sees it."""

    origin: str
    secure: bool

    @classmethod
    def parse(cls, text: str) -> PublicUrl:
        """``http(s)://HOST[:PORT]`` (a trailing ``/`` allowed, no path).

        >>> PublicUrl.parse("https://mahjong.example.org/")
        PublicUrl(origin='https://mahjong.example.org', secure=True)
        >>> PublicUrl.parse("http://LOCALHOST:8080").origin
        'http://localhost:8080'
        >>> PublicUrl.parse("https://x.org/play")
        Traceback (most recent call last):
        ...
        minefield.frontdoor.web_door.WebDoorError: --public-url https://x.org/play: give only \
the scheme, host and port (https://HOST[:PORT]), no path
        """
        try:
            parts = urlsplit(text.strip())
            port = parts.port
        except ValueError:
            raise WebDoorError(f"--public-url {text}: not a URL") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise WebDoorError(f"--public-url {text}: give http(s)://HOST[:PORT]")
        if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
            raise WebDoorError(f"--public-url {text}: give only the scheme, host and port "
                               "(https://HOST[:PORT]), no path")
        host = parts.hostname.lower()
        if ":" in host:
            host = f"[{host}]"
        default = 443 if parts.scheme == "https" else 80
        netloc = host if port in (None, default) else f"{host}:{port}"
        return cls(f"{parts.scheme}://{netloc}", parts.scheme == "https")

    @property
    def websocket(self) -> str:
        """The websocket's URL."""
        return self.websocket_origin + "/ws"

    @property
    def websocket_origin(self) -> str:
        """The websockets' origin (``ws://`` or ``wss://`` and the host)."""
        return ("wss:" if self.secure else "ws:") + self.origin.partition(":")[2]

    @property
    def host(self) -> str:
        """The host name (or address) alone."""
        return urlsplit(self.origin).hostname or ""


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return address == "localhost"


#: The two ``<style>`` elements textual.js adds (its webpack style loader): their SHA-256, so
#: that the policy allows exactly them and no other inline style.
CLIENT_STYLES = ("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
                 "'sha256-03EiY9OLVCaCQVNKUgCYxdI11BJ8pKsqSKUlTlszVsE='")


def content_policy(public: PublicUrl) -> str:
    """The Content-Security-Policy of every response: this origin's scripts, styles, fonts
    and images only; the websocket to this door only; no frames, no forms elsewhere."""
    return (f"default-src 'none'; script-src 'self'; style-src 'self' {' '.join(CLIENT_STYLES)}; "
            "font-src 'self'; "
            f"img-src 'self'; connect-src 'self' {public.websocket_origin}; form-action 'self'; "
            "base-uri 'none'; frame-ancestors 'none'")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/web/web.css">
{head}</head>
<body class="{body_class}">
{body}
</body>
</html>
"""


def page(title: str, body: str, *, head: str = "", body_class: str = "notice") -> str:
    """A page of this door (``body`` is HTML, already escaped)."""
    return _PAGE.format(title=html.escape(title), head=head, body=body, body_class=body_class)


def notice(title: str, *lines: str) -> str:
    """A page that says something in a few plain lines (escaped here)."""
    paragraphs = "\n".join(f"<p>{html.escape(line)}</p>" for line in lines)
    return page(title, f'<main class="box"><h1>{html.escape(title)}</h1>\n{paragraphs}</main>')


class BrowserSession:
    """One browser's websocket and the client process it drives."""

    def __init__(self, door: WebDoor, websocket: web.WebSocketResponse, account: Account,
                 session: WebSession, address: str, argv: list[str] | None = None) -> None:
        self.door = door
        #: The client's arguments (None: the lobby, as the player).
        self.argv = argv
        self.websocket = websocket
        self.account = account
        self.session = session
        self.address = address
        self.child: Child | None = None
        self.last_input = time.monotonic()
        self._writer: asyncio.StreamWriter | None = None
        self._transports: list[asyncio.BaseTransport] = []
        self._closing: asyncio.Future[bool] | None = None
        #: The browser's terminal size, once it has said (columns, rows).
        self.size: tuple[int, int] | None = None

    async def run(self, columns: int, rows: int) -> None:
        """Start the client, pass bytes both ways until either side ends, then end both."""
        door = self.door
        argv = self.argv or ["lobby", "--player", self.account.name, "--socket",
                             str(door.front.socket)]
        env = door.client_env(self.account, columns, rows)
        try:
            child = await door.front.spawn(argv, env, rows, columns, False)
            self.child = child
            pid = await child.started()
        except SpawnError as error:
            log.error("browser session of %s from %s: %s", self.account.name, self.address,
                      error)
            await self.websocket.close(code=1011, message=b"the game could not start")
            return
        log.info("browser session of %s (%s) from %s: %s, pid %d", self.account.name,
                 self.session.tag, self.address, argv[0], pid)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_MESSAGE, loop=loop)
        read_file = os.fdopen(os.dup(child.master), "rb", buffering=0)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader, loop=loop), read_file)
        self._transports.append(transport)
        write_file = os.fdopen(os.dup(child.master), "wb", buffering=0)
        write_transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader(loop=loop), loop=loop),
            write_file)
        self._transports.append(write_transport)
        self._writer = asyncio.StreamWriter(write_transport, protocol, None, loop)
        tasks = [asyncio.create_task(_quietly(self._from_child(reader))),
                 asyncio.create_task(_quietly(self._from_browser())),
                 asyncio.create_task(child.exited()),
                 asyncio.create_task(self._idle_watch())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks[:2] + tasks[3:]:
                task.cancel()
            await self._end(tasks[2])

    async def _end(self, exited: asyncio.Task[int]) -> None:
        child = self.child
        assert child is not None
        if not exited.done():
            child.hang_up()
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(exited), LEAVE_SECONDS)
            if not exited.done():
                child.kill()
                exited.cancel()
        for transport in self._transports:
            transport.close()
        child.close()
        self.child = None
        if not self.websocket.closed:
            with contextlib.suppress(Exception):
                await self.websocket.close(code=1000, message=b"the session has ended")

    def end(self, reason: str) -> None:
        """End this session from outside (signed out, the server stopping)."""
        log.info("browser session of %s (%s): %s", self.account.name, self.session.tag, reason)
        if self.child is not None:
            self.child.hang_up()
        self._closing = asyncio.ensure_future(
            self.websocket.close(code=1000, message=reason.encode()[:120]))

    async def _from_child(self, reader: asyncio.StreamReader) -> None:
        """The app's packets: its screen to the browser, until the process is done (or says
        something that is not a packet). One client runs one app after another (the lobby,
        then a game in a child of its own, then the lobby again): each starts with its
        ``__GANGLION__`` line and ends with an ``exit`` meta packet."""
        while await self._next_app(reader):
            if self.size is not None:  # the browser's size now, not the one at the start
                await self._resize(*self.size)
            while True:
                kind = await reader.readexactly(1)
                size = int.from_bytes(await reader.readexactly(4), "big")
                if size > 16 * 1024 * 1024:
                    return
                payload = await reader.readexactly(size)
                if kind == b"D":
                    await self.websocket.send_bytes(payload)
                elif kind == b"M":
                    with contextlib.suppress(ValueError, AttributeError):
                        if json.loads(payload).get("type") == "exit":
                            break
                elif kind != b"P":
                    return

    @staticmethod
    async def _next_app(reader: asyncio.StreamReader) -> bool:
        """Read up to the next app's ``__GANGLION__`` line (a line or two the client prints
        between apps is passed over); False when the process is done first."""
        for _ in range(20):
            try:
                line = await reader.readline()
            except ValueError:  # a long run of bytes without a line: not this protocol
                return False
            if not line:
                return False
            if line == b"__GANGLION__\n":
                return True
        return False

    async def _resize(self, width: int, height: int) -> None:
        await self._to_child(b"M", json.dumps(
            {"type": "resize", "width": width, "height": height}).encode())

    async def _to_child(self, kind: bytes, payload: bytes) -> None:
        assert self._writer is not None
        self._writer.write(kind + len(payload).to_bytes(4, "big") + payload)
        await self._writer.drain()

    async def _from_browser(self) -> None:
        """The browser's messages: keys, sizes, focus to the app; pings answered."""
        async for message in self.websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                self.last_input = time.monotonic()
                await self._to_child(b"D", data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                width, height = _cells(data.get("width")), _cells(data.get("height"))
                if width and height:
                    self.size = (width, height)
                    await self._resize(width, height)
            elif kind == "ping" and isinstance(data, str | int | float) and len(str(data)) < 64:
                await self.websocket.send_json(["pong", data])
            elif kind in ("focus", "blur"):
                await self._to_child(b"M", json.dumps({"type": kind}).encode())

    async def _idle_watch(self) -> None:
        idle = self.door.front.config.limits.idle_seconds
        while True:
            left = self.last_input + idle - time.monotonic()
            if left <= 0:
                log.info("browser session of %s idle: closed", self.session.tag)
                return
            await asyncio.sleep(min(left, 60.0))


async def _quietly(work: Awaitable[None]) -> None:
    """``work`` until it ends, or its side of the connection does (nothing to report)."""
    with contextlib.suppress(asyncio.IncompleteReadError, OSError, RuntimeError):
        await work


def _cells(value: Any) -> int:
    """A terminal dimension from the browser, within 1 to :data:`MAX_CELLS` (0: not one)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return min(value, MAX_CELLS)
    return 0


def _query_cells(request: web.Request, name: str, default: int) -> int:
    try:
        return _cells(int(request.query.get(name, default))) or default
    except ValueError:
        return default


class WebDoor:
    """The HTTP listener: ``await web.start()``, ``await web.stop()``. ``front`` is the
    :class:`minefield.frontdoor.server.FrontDoor` it belongs to (its accounts, caps, process
    server and daemon)."""

    def __init__(self, front: Any, host: str, port: int, public: PublicUrl,
                 logins_path: Path, clock: Callable[[], float] = time.time) -> None:
        self.front = front
        self.host = host
        self.port = port
        self.public = public
        self.logins = WebLogins(logins_path, clock=clock)
        self.sessions: set[BrowserSession] = set()
        #: The client processes started (a refusal never starts one; tests read this).
        self.started = 0
        listen_origin = f"http://{host}:{port}"
        #: Behind a reverse proxy (the public URL is not this listener), a loopback peer's
        #: ``X-Forwarded-For`` names the player's address.
        self.behind_proxy = public.origin != listen_origin
        self._buckets: dict[str, TokenBucket] = {}
        self._runner: web.AppRunner | None = None
        self._policy = content_policy(public)
        #: Passkeys (sign-up in the browser) on an ``--open`` server only.
        #: The game reviews' pages (``/game/GAME/review``), made once each.
        self.reviews = ReviewPages()
        self.passkeys = (Passkeys(logins_path, public.host, public.origin)
                         if front.config.open else None)

    # -- life ----------------------------------------------------------------------------------

    def make_app(self) -> web.Application:
        """The routes: the page, the sign-in link, the websocket, sign-out, the files."""
        app = web.Application(client_max_size=64 * 1024, middlewares=[self._limit])
        app.router.add_get("/", self.handle_index)
        app.router.add_get("/login/{token}", self.handle_link)
        app.router.add_post("/login/{token}", self.handle_sign_in)
        app.router.add_post("/sign-out", self.handle_sign_out)
        app.router.add_get("/ws", self.handle_websocket)
        app.router.add_get("/game/{game}", self.handle_game_page)
        app.router.add_get("/game/{game}/review", self.handle_review_page)
        app.router.add_get("/ws/game/{game}", self.handle_game_websocket)
        if self.passkeys is not None:
            app.router.add_get("/passkey", self.handle_passkey_page)
            app.router.add_post("/passkey/{step}", self.handle_passkey)
        app.router.add_get("/keys", self.handle_keys)
        app.router.add_post("/keys", self.handle_key_add)
        app.router.add_get("/web/{name}", self.handle_asset)
        app.router.add_get("/favicon.ico", self.handle_no_icon)
        client = resources.files(CLIENT_PACKAGE) / "static"
        app.router.add_static("/static/", Path(str(client)), follow_symlinks=False)
        app.on_response_prepare.append(self._headers)
        return app

    async def start(self) -> None:
        """Listen (WebDoorError if the address cannot be used)."""
        self._runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except OSError as error:
            await self._runner.cleanup()
            self._runner = None
            why = os.strerror(error.errno) if error.errno else str(error)
            raise WebDoorError(f"--web {self.host}:{self.port}: cannot listen "
                               f"({why.lower()})") from None
        if self.port == 0 and self._runner.addresses:  # port 0: any free port (tests)
            self.port = int(self._runner.addresses[0][1])
        log.info("browser door on %s:%d, players open %s", self.host, self.port,
                 self.public.origin)
        if not self.public.secure and not _is_loopback(self.public.host):
            log.warning("the browser door's public URL %s is plain HTTP on a public address: "
                        "put it behind a TLS reverse proxy (README)", self.public.origin)

    async def stop(self) -> None:
        """End every browser session, stop listening."""
        for session in list(self.sessions):
            session.end("the server is stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.logins.close()
        if self.passkeys is not None:
            self.passkeys.close()

    # -- the front door's commands -------------------------------------------------------------

    def link(self, account: Account) -> tuple[str, float]:
        """``ssh HOST web``: a new sign-in link for ``account``, and when it expires."""
        token, expires = self.logins.issue(account.id)
        log.info("%s asked for a browser sign-in link", account.name)
        return f"{self.public.origin}/login/{token}", expires

    def sign_out_all(self, account: Account) -> int:
        """``ssh HOST web --sign-out-all``: end every browser session of ``account`` (the open
        ones at once); how many there were."""
        count = self.logins.sign_out_all(account.id)
        live = [s for s in self.sessions if s.account.id == account.id]
        for session in live:
            session.end("signed out")
        log.info("%s signed out of every browser (%d sessions)", account.name, count)
        return max(count, len({s.session.digest for s in live}))

    def client_env(self, account: Account, columns: int, rows: int) -> dict[str, str]:
        """A browser session's environment: the player's own (as an SSH session's), with
        Textual's web driver in a true-colour xterm of the browser's size."""
        env: dict[str, str] = self.front.spawn_env(account, "xterm-256color", "truecolor", True)
        env.update({"TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
                    "TEXTUAL_COLOR_SYSTEM": "truecolor", "TERM_PROGRAM": "textual",
                    "COLUMNS": str(columns), "ROWS": str(rows)})
        env[DOOR_ENV] = self.ssh_command()
        for folder in ("data", "config"):
            (Path(env["HOME"]) / folder).mkdir(parents=True, exist_ok=True, mode=0o700)
        return env

    # -- requests ------------------------------------------------------------------------------

    def address(self, request: web.Request) -> str:
        """The player's address: the peer's, or behind a proxy on this host the last one the
        proxy added to ``X-Forwarded-For``."""
        peer = request.remote or "?"
        if self.behind_proxy and _is_loopback(peer):
            forwarded = request.headers.get("X-Forwarded-For", "")
            last = forwarded.rsplit(",", 1)[-1].strip()
            if last:
                with contextlib.suppress(ValueError):
                    return str(ipaddress.ip_address(last))
        return peer

    @web.middleware
    async def _limit(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        """Per-address rate limit on everything but the static files."""
        if request.path.startswith(("/static/", "/web/")):
            return await handler(request)
        address = self.address(request)
        now = time.monotonic()
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) > 100_000:
                self._buckets.clear()
            per_minute = REQUESTS_PER_CONNECTION * self.front.config.limits.auth_per_minute
            bucket = self._buckets[address] = TokenBucket(per_minute, per_minute / 60.0, now)
        if not bucket.take(now):
            self.refused("rate")
            log.info("browser door: %s is over its rate limit", address)
            return self._html(notice("Slow down", f"Too many requests from {address}: try "
                                     "again in a minute."), 429)
        return await handler(request)

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        headers = response.headers
        # A page that sets its own (stricter) policy keeps it: the game review's.
        headers.setdefault("Content-Security-Policy", self._policy)
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "same-origin"  # Origin stays on our POSTs
        headers["Cross-Origin-Opener-Policy"] = "same-origin"
        if not request.path.startswith(("/static/", "/web/")):
            headers["Cache-Control"] = "no-store"

    @staticmethod
    def _html(text: str, status: int = 200) -> web.Response:
        return web.Response(text=text, status=status, content_type="text/html")

    @property
    def cookie_name(self) -> str:
        """The session cookie's name (``__Host-``: the browser keeps it to this host, https
        only)."""
        return "__Host-minefield" if self.public.secure else "minefield"

    def _session(self, request: web.Request) -> tuple[WebSession, Account] | None:
        session = self.logins.session(request.cookies.get(self.cookie_name))
        if session is None:
            return None
        account = self.front.accounts.by_id(session.account)
        if account is None:
            return None
        return session, account

    def _from_here(self, request: web.Request) -> bool:
        """The request comes from this door's own pages (its ``Origin`` is the public URL)."""
        return request.headers.get("Origin") == self.public.origin

    def ssh_command(self) -> str:
        """What a player types to reach the SSH door (its address, or the public URL's host
        when it listens on every address)."""
        from minefield.frontdoor.reports import ssh_command

        config = self.front.config
        host = self.public.host if config.host in ANY_ADDRESS else config.host
        return ssh_command(host, config.port)

    def _ssh_hint(self) -> str:
        return f"{self.ssh_command().replace('ssh -t', 'ssh', 1)} web"

    def _over_caps(self, address: str, key: str) -> str | None:
        """Why one more session from ``address`` under ``key`` would not pass the caps
        (None: it would; nothing is counted)."""
        refusal = self._open_session(address, key)
        if refusal is None:
            self.front.gate.close_session(address, key)
        return refusal

    def _open_session(self, address: str, key: str) -> str | None:
        """Count a browser session under the caps (None), or why it may not open: as an SSH
        session's, where a browser's sign-in counts as a key."""
        refusal: str | None = self.front.gate.open_session(address, key)
        if refusal is None:
            return None
        self.refused(reason_of(refusal))
        return refusal.replace("this key", "this browser")

    def refused(self, reason: str) -> None:
        """A sign-in or a session refused, for the metrics (:mod:`.metrics`)."""
        self.front.metrics.login_refused(reason, door="web")

    async def handle_index(self, request: web.Request) -> web.Response:
        """The client's page (signed in), or how to sign in."""
        found = self._session(request)
        if found is None:
            lines = ["Sign in with a link: in a terminal, run", self._ssh_hint(),
                     "and open the link it prints (it serves once, for 10 minutes)."]
            if self.passkeys is not None:
                lines.append(f"No SSH key? Sign up or in with a passkey: "
                             f"{self.public.origin}/passkey")
            return self._html(notice("Minefield", *lines), 401)
        session, account = found
        full = self._over_caps(self.address(request), session.tag)
        if full is not None:
            return self._html(notice("Minefield", f"{account.name}: {full}."), 429)
        return self._client_page(f"Minefield: {account.name}", self.public.websocket)

    def _client_page(self, title: str, websocket: str) -> web.Response:
        """The client's page: the terminal, driven over ``websocket``."""
        body = (f'<div class="ended"><div class="box"><p>The session has ended.</p>'
                f'<button type="button" id="again">Start again</button></div></div>\n'
                f'<div id="terminal" class="textual-terminal" '
                f'data-session-websocket-url="{html.escape(websocket)}" '
                f'data-font-size="16"></div>')
        head = ('<link rel="stylesheet" href="/static/css/xterm.css">\n'
                '<script src="/static/js/textual.js"></script>\n'
                '<script src="/web/web.js"></script>\n')
        return self._html(page(title, body, head=head, body_class="client"))

    async def _visible_game(self, request: web.Request, viewer: Account | None
                            ) -> tuple[Path, Seat] | None:
        """The record of this request's game and the viewer's seat in it (East's for a game
        they did not play), when ``viewer`` (None: signed out) may see it (the club's rule: a
        public table's, a quick match's or a tournament's game to anyone, a private one to its
        players)."""
        game = request.match_info["game"]
        if not GAME_ID.fullmatch(game) or self.front.kept is None:
            return None

        def look(club: Any) -> tuple[Path, Seat] | None:
            kept = club.kept.find(game)
            mine = club.keys_of(viewer) if viewer is not None else set()
            path = club.kept.record_path(game) if kept is not None else None
            if kept is None or path is None or not kept.visible_to(mine):
                return None
            return Path(path), kept.seat_of(mine) or Seat.EAST

        found: tuple[Path, Seat] | None = await self.front.ask_club(look)
        return found

    async def _game_argv(self, request: web.Request, viewer: Account | None) -> list[str] | None:
        """``replay PATH`` for the game of this request, when ``viewer`` may see it."""
        found = await self._visible_game(request, viewer)
        return None if found is None else ["replay", str(found[0])]

    def _viewer(self, request: web.Request) -> tuple[WebSession, Account]:
        """The signed-in player, or a guest (signed out) who may see public games only."""
        found = self._session(request)
        if found is not None:
            return found
        address = self.address(request)
        guest = Account(id=0, name="guest", fingerprints=(), rating=0.0, deviation=0.0,
                        volatility=0.0, games=0)
        return WebSession(0, f"guest{address}"), guest

    def _not_visible(self, request: web.Request, signed_in: bool) -> web.Response:
        game = request.match_info["game"][:80]
        return self._html(notice("Minefield", f"No finished game {game} that you may see"
                                 + ("." if signed_in else ": sign in to see your private "
                                    "games.")), 404)

    async def handle_game_page(self, request: web.Request) -> web.Response:
        """``/game/GAME``: a finished game's replay, for a viewer who may see it, signed in or
        not."""
        session, account = self._viewer(request)
        signed_in = session.account != 0
        if await self._game_argv(request, account if signed_in else None) is None:
            return self._not_visible(request, signed_in)
        path = request.path.removeprefix("/game/")
        return self._client_page(f"Minefield: game {request.match_info['game'][:80]}",
                                 f"{self.public.websocket_origin}/ws/game/{path}")

    async def handle_game_websocket(self, request: web.Request) -> web.StreamResponse:
        """A game's replay in the client, for a viewer who may see it."""
        session, account = self._viewer(request)
        signed_in = session.account != 0
        argv = await self._game_argv(request, account if signed_in else None)
        if argv is None:
            return web.Response(status=404, text="no such game that you may see")
        return await self.handle_websocket(request, (session, account), argv)

    async def handle_review_page(self, request: web.Request) -> web.Response:
        """``/game/GAME/review``: a finished game's defense review from the viewer's seat
        (East's for a game they did not play) as one static page, the one ``review --html``
        writes (:mod:`minefield.trainer.review_page`): no client process, no script, its own
        stylesheet the only thing its Content-Security-Policy allows."""
        session, account = self._viewer(request)
        signed_in = session.account != 0
        found = await self._visible_game(request, account if signed_in else None)
        if found is None:
            return self._not_visible(request, signed_in)
        game = request.match_info["game"]
        text = await self.reviews.page(game, *found)
        if text is None:
            return self._html(notice("Minefield", f"The review of game {game} cannot be made "
                                     "from its record."), 500)
        response = self._html(text)
        response.headers["Content-Security-Policy"] = REVIEW_POLICY
        return response

    async def handle_link(self, request: web.Request) -> web.Response:
        """A sign-in link opened: whose it is and a button to sign in (the link is not used
        yet)."""
        token = request.match_info["token"]
        try:
            account = self.front.accounts.by_id(self.logins.peek(token))
        except LinkRefused as refusal:
            return self._refused_link(request, refusal)
        name = html.escape(account.name if account is not None else "?")
        form = (f'<main class="box"><h1>Minefield</h1>\n<p>Sign in as <b>{name}</b> in this '
                f'browser?</p>\n<form method="post" action="/login/{html.escape(token)}">'
                f'<button type="submit" id="sign-in">Sign in</button></form>\n'
                f'<p class="small">The link serves once. Not yours? Close this page.</p>'
                f'</main>')
        return self._html(page("Minefield: sign in", form))

    def _refused_link(self, request: web.Request, refusal: LinkRefused) -> web.Response:
        self.refused("link")
        log.info("browser sign-in refused from %s: %s", self.address(request), refusal)
        return self._html(notice("Minefield: not signed in", f"Not signed in: {refusal}.",
                                 "For a new link, run in a terminal:", self._ssh_hint()), 403)

    async def handle_sign_in(self, request: web.Request) -> web.Response:
        """The *Sign in* button: use the link, set the session cookie, go to the client."""
        if not self._from_here(request):
            self.refused("origin")
            log.info("browser sign-in from %s refused: a form of another site (Origin %r)",
                     self.address(request), request.headers.get("Origin", "")[:80])
            return self._html(notice("Minefield: not signed in",
                                     "Not signed in: the form was not this server's own."), 403)
        try:
            account_id, cookie = self.logins.redeem(request.match_info["token"])
        except LinkRefused as refusal:
            return self._refused_link(request, refusal)
        account = self.front.accounts.by_id(account_id)
        session = self.logins.session(cookie)
        log.info("browser sign-in: %s from %s (%s)", account.name if account else account_id,
                 self.address(request), session.tag if session else "?")
        response = web.HTTPSeeOther("/")
        response.set_cookie(self.cookie_name, cookie, max_age=SESSION_SECONDS, path="/",
                            httponly=True, samesite="Strict", secure=self.public.secure)
        return response

    async def handle_sign_out(self, request: web.Request) -> web.Response:
        """Sign this browser out (its session ends everywhere)."""
        found = self._session(request)
        if found is not None and self._from_here(request):
            session, account = found
            self.logins.sign_out(session)
            for live in [s for s in self.sessions if s.session.digest == session.digest]:
                live.end("signed out")
            log.info("browser sign-out: %s (%s)", account.name, session.tag)
        response = self._html(notice("Minefield", "Signed out."))
        response.del_cookie(self.cookie_name, path="/")
        return response

    async def handle_passkey_page(self, request: web.Request) -> web.Response:
        """Sign up with a name and a passkey, or sign in with one."""
        body = ('<main class="box"><h1>Minefield</h1>\n'
                '<p>Sign up: the name other players will see (2-16 letters, digits, - or _), '
                'and a passkey of this device.</p>\n'
                '<p><input id="name" maxlength="16" autocomplete="username"> '
                '<button type="button" id="sign-up">Sign up with a passkey</button></p>\n'
                '<p>Signed up already? <button type="button" id="sign-in">Sign in with a '
                'passkey</button></p>\n<p id="message" class="small"></p></main>')
        return self._html(page("Minefield: passkey", body,
                               head='<script src="/web/passkey.js"></script>\n'))

    async def handle_passkey(self, request: web.Request) -> web.Response:
        """The passkey ceremonies' steps (JSON in and out; this origin's pages only)."""
        assert self.passkeys is not None
        if not self._from_here(request):
            return web.json_response({"error": "not this server's page"}, status=403)
        try:
            asked = await request.json()
        except ValueError:
            asked = None
        if not isinstance(asked, dict):
            return web.json_response({"error": "not a request"}, status=400)
        step = request.match_info["step"]
        try:
            return await self._passkey_step(request, step, asked)
        except PasskeyRefused as refusal:
            self.refused("passkey")
            log.info("browser passkey %s from %s refused: %s", step, self.address(request),
                     refusal)
            return web.json_response({"error": str(refusal)}, status=403)

    async def _passkey_step(self, request: web.Request, step: str,
                            asked: dict[str, Any]) -> web.Response:
        from minefield.frontdoor.accounts import NameRefused, check_name

        passkeys, accounts = self.passkeys, self.front.accounts
        assert passkeys is not None
        if step == "sign-up-options":
            try:
                name = check_name(str(asked.get("name", "")))
            except NameRefused as refusal:
                raise PasskeyRefused(str(refusal)) from None
            if accounts.by_name(name) is not None:
                raise PasskeyRefused(f"the name {name!r} is taken: choose another")
            ceremony, options = passkeys.sign_up_options(name)
            return web.json_response({"ceremony": ceremony, "options": json.loads(options)})
        if step == "sign-in-options":
            ceremony, options = passkeys.sign_in_options()
            return web.json_response({"ceremony": ceremony, "options": json.loads(options)})
        if step == "sign-up":
            name, fingerprint, public_key, count = passkeys.sign_up(
                asked.get("ceremony"), asked.get("credential"))
            try:
                account = accounts.claim(fingerprint, name)
            except NameRefused as refusal:
                raise PasskeyRefused(str(refusal)) from None
            passkeys.keep(fingerprint, account.id, public_key, count)
            log.info("passkey %s claimed the name %s", fingerprint[:40], account.name)
            return self._signed_in(request, account.id, "passkey sign-up")
        if step == "sign-in":
            account_id = passkeys.sign_in(asked.get("ceremony"), asked.get("credential"))
            banned = self.front.moderator.account_refusal(account_id)
            if banned is not None:  # the line an SSH login of theirs gets
                raise PasskeyRefused(banned)
            return self._signed_in(request, account_id, "passkey")
        raise web.HTTPNotFound()

    def _signed_in(self, request: web.Request, account_id: int, how: str) -> web.Response:
        """A browser session for ``account_id``: its cookie, and the sign-in's log line."""
        cookie = self.logins.start_session(account_id)
        account = self.front.accounts.by_id(account_id)
        session = self.logins.session(cookie)
        log.info("browser sign-in: %s from %s (%s, %s)", account.name if account else account_id,
                 self.address(request), how, session.tag if session else "?")
        response = web.json_response({"ok": True})
        response.set_cookie(self.cookie_name, cookie, max_age=SESSION_SECONDS, path="/",
                            httponly=True, samesite="Strict", secure=self.public.secure)
        return response

    async def handle_keys(self, request: web.Request) -> web.Response:
        """(Signed in) let an SSH key log in as this player: ``key add``'s form."""
        found = self._session(request)
        if found is None:
            return self._html(notice("Minefield", "Sign in first."), 401)
        return self._html(page("Minefield: keys", self._key_form(found[1].name)))

    @staticmethod
    def _key_form(name: str, said: str = "") -> str:
        return (f'<main class="box"><h1>Minefield: {html.escape(name)}</h1>\n'
                f'<p>Let an SSH key log in as {html.escape(name)}: paste its public key line '
                f'(ssh-ed25519 AAAA...).</p>\n<form method="post" action="/keys">'
                f'<p><textarea name="key" id="key" rows="3" cols="60"></textarea></p>'
                f'<p><button type="submit" id="add-key">Offer it a code</button></p></form>\n'
                f'{said}</main>')

    async def handle_key_add(self, request: web.Request) -> web.Response:
        """``key add`` from the browser (a passkey's player has no SSH key to run it with):
        the code, and the command the new key runs with it, as over SSH."""
        import asyncssh

        from minefield.frontdoor.accounts import KeyRefused, utc

        found = self._session(request)
        if found is None or not self._from_here(request):
            return self._html(notice("Minefield", "Sign in first (from this server's page)."),
                              403)
        session, account = found
        form = await request.post()
        try:
            key = asyncssh.import_public_key(str(form.get("key", "")).strip())
            new = key.get_fingerprint("sha256")
            offer = self.front.accounts.offer_key(account.id, new, session.tag)
        except (asyncssh.KeyImportError, ValueError) as error:
            why = str(error) if isinstance(error, KeyRefused) else (
                "that is not a public key (ssh-ed25519 AAAA...)")
            said = f'<p id="message">Refused: {html.escape(why)}.</p>'
            return self._html(page("Minefield: keys", self._key_form(account.name, said)), 400)
        log.info("%s offered the key %s a code (browser %s from %s)", account.name, new,
                 session.tag, self.address(request))
        command = f"{self.ssh_command().replace('ssh -t', 'ssh', 1)} key confirm {offer.code}"
        said = (f'<p id="message">To let the key {html.escape(new)} log in as '
                f'{html.escape(account.name)}, run this with that key before '
                f'{html.escape(utc(offer.expires))} (the code serves once):</p>\n'
                f'<p><code id="command">{html.escape(command)}</code></p>')
        return self._html(page("Minefield: keys", self._key_form(account.name, said)))

    async def handle_no_icon(self, request: web.Request) -> web.Response:
        """No icon (the browser asks for one)."""
        return web.Response(status=204)

    async def handle_asset(self, request: web.Request) -> web.Response:
        """This door's own stylesheet and script (``minefield/assets``)."""
        name = request.match_info["name"]
        types = {"web.css": "text/css", "web.js": "text/javascript",
                 "passkey.js": "text/javascript"}
        if name not in types:
            raise web.HTTPNotFound()
        text = (resources.files("minefield.assets") / name).read_text(encoding="utf-8")
        return web.Response(text=text, content_type=types[name],
                            headers={"Cache-Control": "max-age=3600"})

    async def handle_websocket(self, request: web.Request,
                               viewer: tuple[WebSession, Account] | None = None,
                               argv: list[str] | None = None) -> web.StreamResponse:
        """The client's websocket: a live session, from this door's page, under the caps
        (``viewer`` and ``argv``: a game's viewer and its client, else the player's lobby)."""
        address = self.address(request)
        if not self._from_here(request):
            self.refused("origin")
            log.info("browser websocket from %s refused: Origin %r is not %s", address,
                     request.headers.get("Origin", "")[:80], self.public.origin)
            return web.Response(status=403, text="this websocket is for this server's page")
        found = viewer or self._session(request)
        if found is None:
            self.refused("signed_out")
            log.info("browser websocket from %s refused: not signed in", address)
            return web.Response(status=403, text="not signed in")
        session, account = found
        refusal = self._open_session(address, session.tag)
        if refusal is not None:
            log.info("browser session of %s from %s refused: %s", account.name, address,
                     refusal)
            return web.Response(status=429, text=refusal)
        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS, max_msg_size=MAX_MESSAGE)
        live = BrowserSession(self, websocket, account, session, address, argv)
        try:
            await websocket.prepare(request)
            self.sessions.add(live)
            self.started += 1
            await live.run(_query_cells(request, "width", 80), _query_cells(request, "height",
                                                                            24))
        finally:
            self.sessions.discard(live)
            self.front.gate.close_session(address, session.tag)
        return websocket


def web_answer(web: WebDoor | None, account: Account | None, sign_out_all: bool) -> str:
    """What ``ssh HOST web`` (``--sign-out-all``) answers for ``account``; CommandRefused
    when the server has no browser door."""
    from minefield.frontdoor.routes import CommandRefused

    if web is None:
        raise CommandRefused("this server has no browser door (ssh-server --web ADDR:PORT)", 1)
    assert account is not None
    if sign_out_all:
        count = web.sign_out_all(account)
        return (f"Signed out of every browser ({count} session{'s' if count != 1 else ''} "
                "ended); links not yet used no longer work.")
    url, expires = web.link(account)
    when = time.strftime("%H:%M UTC", time.gmtime(expires))
    return (f"Open this link in your browser to play as {account.name} (it serves once, "
            f"until {when}; never share it):\n{url}")


__all__ = ["BrowserSession", "PublicUrl", "WebDoor", "WebDoorError", "content_policy",
           "web_answer"]
