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
  Content-Security-Policy forbids. So the page is this door's own (:mod:`.web_pages`: the
  same terminal element, styles and script in files of ``minefield/assets``), and
  :mod:`.browser_session` reads and writes the packets itself: through the child's
  pseudo-terminal, put in raw mode, which passes every byte unchanged (the client's standard
  error is that terminal too, so that it is a terminal as the client expects; Textual
  captures what is written there while an app runs, and a line written between apps is
  passed over). File downloads (``P`` packets) and ``open_url`` are not passed on: the app
  offers neither.

Signing in (:mod:`.web_sign_in`; the links and sessions are kept by :mod:`.web_logins`):
``ssh HOST web`` prints ``PUBLIC_URL/login/TOKEN``; opening it shows whose link it is and a
*Sign in* button, whose POST (from this origin only) uses the link and sets the session
cookie. The page and the websocket need a live session; the websocket also needs its
``Origin`` to be the public URL's. Every response carries a Content-Security-Policy
(:mod:`.public_url`), and a session counts under the SSH door's caps.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from minefield.frontdoor.accounts import Account
from minefield.frontdoor.browser_session import MAX_MESSAGE, BrowserSession, query_cells
from minefield.frontdoor.grammar import GAME_ID
from minefield.frontdoor.limits import reason_of
from minefield.frontdoor.public_url import (
    ANY_ADDRESS,
    PublicUrl,
    WebDoorError,
    content_policy,
    is_loopback,
)
from minefield.frontdoor.review_pages import REVIEW_POLICY, ReviewPages
from minefield.frontdoor.web_logins import WebLogins, WebSession
from minefield.frontdoor.web_pages import client_page, html_response, notice
from minefield.frontdoor.web_passkeys import Passkeys
from minefield.frontdoor.web_sign_in import SignIn
from minefield.paths import make_player_home
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
#: The websocket's keepalive: a browser that answers no ping this long is gone.
HEARTBEAT_SECONDS = 15.0


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
        #: The game reviews' pages (``/game/GAME/review``), made once each.
        self.reviews = ReviewPages()
        #: Passkeys (sign-up in the browser) on an ``--open`` server only.
        self.passkeys = (Passkeys(logins_path, public.host, public.origin)
                         if front.config.open else None)
        #: The routes of who a browser is (sign-in, sign-out, passkeys, keys).
        self.sign_in = SignIn(self)

    # -- life ----------------------------------------------------------------------------------

    def make_app(self) -> web.Application:
        """The routes: the page, the sign-in link, the websocket, sign-out, the files."""
        app = web.Application(client_max_size=64 * 1024, middlewares=[self._limit])
        app.router.add_get("/", self.handle_index)
        self.sign_in.add_routes(app)
        app.router.add_get("/ws", self.handle_websocket)
        app.router.add_get("/game/{game}", self.handle_game_page)
        app.router.add_get("/game/{game}/review", self.handle_review_page)
        app.router.add_get("/ws/game/{game}", self.handle_game_websocket)
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
        if not self.public.secure and not is_loopback(self.public.host):
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
        make_player_home(Path(env["HOME"]))
        return env

    # -- requests ------------------------------------------------------------------------------

    def address(self, request: web.Request) -> str:
        """The player's address: the peer's, or behind a proxy on this host the last one the
        proxy added to ``X-Forwarded-For``."""
        peer = request.remote or "?"
        if self.behind_proxy and is_loopback(peer):
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
            return html_response(notice("Slow down", f"Too many requests from {address}: try "
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

    @property
    def cookie_name(self) -> str:
        """The session cookie's name (``__Host-``: the browser keeps it to this host, https
        only)."""
        return "__Host-minefield" if self.public.secure else "minefield"

    def signed_in(self, request: web.Request) -> tuple[WebSession, Account] | None:
        """The browser's live session and its player (None: signed out)."""
        session = self.logins.session(request.cookies.get(self.cookie_name))
        if session is None:
            return None
        account = self.front.accounts.by_id(session.account)
        if account is None:
            return None
        return session, account

    def from_here(self, request: web.Request) -> bool:
        """The request comes from this door's own pages (its ``Origin`` is the public URL)."""
        return request.headers.get("Origin") == self.public.origin

    def ssh_command(self) -> str:
        """What a player types to reach the SSH door (its address, or the public URL's host
        when it listens on every address)."""
        from minefield.frontdoor.reports import ssh_command

        config = self.front.config
        host = self.public.host if config.host in ANY_ADDRESS else config.host
        return ssh_command(host, config.port)

    def ssh_hint(self) -> str:
        """The command that asks for a sign-in link."""
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
        found = self.signed_in(request)
        if found is None:
            lines = ["Sign in with a link: in a terminal, run", self.ssh_hint(),
                     "and open the link it prints (it serves once, for 10 minutes)."]
            if self.passkeys is not None:
                lines.append(f"No SSH key? Sign up or in with a passkey: "
                             f"{self.public.origin}/passkey")
            return html_response(notice("Minefield", *lines), 401)
        session, account = found
        full = self._over_caps(self.address(request), session.tag)
        if full is not None:
            return html_response(notice("Minefield", f"{account.name}: {full}."), 429)
        return html_response(client_page(f"Minefield: {account.name}", self.public.websocket))

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
        found = self.signed_in(request)
        if found is not None:
            return found
        address = self.address(request)
        guest = Account(id=0, name="guest", fingerprints=(), rating=0.0, deviation=0.0,
                        volatility=0.0, games=0)
        return WebSession(0, f"guest{address}"), guest

    def _not_visible(self, request: web.Request, signed_in: bool) -> web.Response:
        game = request.match_info["game"][:80]
        return html_response(notice("Minefield", f"No finished game {game} that you may see"
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
        return html_response(client_page(f"Minefield: game {request.match_info['game'][:80]}",
                                         f"{self.public.websocket_origin}/ws/game/{path}"))

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
            return html_response(notice("Minefield", f"The review of game {game} cannot be made "
                                     "from its record."), 500)
        response = html_response(text)
        response.headers["Content-Security-Policy"] = REVIEW_POLICY
        return response

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
        if not self.from_here(request):
            self.refused("origin")
            log.info("browser websocket from %s refused: Origin %r is not %s", address,
                     request.headers.get("Origin", "")[:80], self.public.origin)
            return web.Response(status=403, text="this websocket is for this server's page")
        found = viewer or self.signed_in(request)
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
            await live.run(query_cells(request, "width", 80), query_cells(request, "height",
                                                                            24))
        finally:
            self.sessions.discard(live)
            self.front.gate.close_session(address, session.tag)
        return websocket


__all__ = ["WebDoor"]
