"""Who a browser is: signing in with a link or a passkey, signing out, and letting an SSH key
log in as the signed-in player (:class:`SignIn`, the browser door's account routes).

A link (``ssh HOST web``) is only looked at by a GET and used by the *Sign in* button's POST,
so a chat program's link preview cannot burn it. Every POST and every passkey step must come
from this door's own pages (its ``Origin``). A sign-in sets the session cookie (HttpOnly,
SameSite=Strict, Secure and ``__Host-`` when the public URL is https); the links, sessions and
passkeys are kept by :mod:`.web_logins` and :mod:`.web_passkeys`.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from aiohttp import web

from minefield.frontdoor.web_logins import SESSION_SECONDS, LinkRefused
from minefield.frontdoor.web_pages import (
    html_response,
    key_offered,
    key_refused,
    keys_page,
    link_page,
    notice,
    passkey_page,
)
from minefield.frontdoor.web_passkeys import PasskeyRefused

if TYPE_CHECKING:
    from minefield.frontdoor.web_door import WebDoor

log = logging.getLogger("minefield.frontdoor")


class SignIn:
    """The browser door's routes for who a browser is (``/login``, ``/sign-out``,
    ``/passkey``, ``/keys``), for the :class:`~minefield.frontdoor.web_door.WebDoor` ``door``
    (its sign-ins, its open sessions, its front door's accounts)."""

    def __init__(self, door: WebDoor) -> None:
        self.door = door

    def add_routes(self, app: web.Application) -> None:
        """Add this job's routes to ``app`` (the passkey's on an ``--open`` server only)."""
        app.router.add_get("/login/{token}", self.handle_link)
        app.router.add_post("/login/{token}", self.handle_sign_in)
        app.router.add_post("/sign-out", self.handle_sign_out)
        if self.door.passkeys is not None:
            app.router.add_get("/passkey", self.handle_passkey_page)
            app.router.add_post("/passkey/{step}", self.handle_passkey)
        app.router.add_get("/keys", self.handle_keys)
        app.router.add_post("/keys", self.handle_key_add)

    def _set_cookie(self, response: web.StreamResponse, cookie: str) -> None:
        """The session cookie, on the response that signs a browser in."""
        response.set_cookie(self.door.cookie_name, cookie, max_age=SESSION_SECONDS, path="/",
                            httponly=True, samesite="Strict", secure=self.door.public.secure)

    async def handle_link(self, request: web.Request) -> web.Response:
        """A sign-in link opened: whose it is and a button to sign in (the link is not used
        yet)."""
        door = self.door
        token = request.match_info["token"]
        try:
            account = door.front.accounts.by_id(door.logins.peek(token))
        except LinkRefused as refusal:
            return self._refused_link(request, refusal)
        return html_response(link_page(account.name if account is not None else "?", token))

    def _refused_link(self, request: web.Request, refusal: LinkRefused) -> web.Response:
        door = self.door
        door.refused("link")
        log.info("browser sign-in refused from %s: %s", door.address(request), refusal)
        return html_response(notice("Minefield: not signed in", f"Not signed in: {refusal}.",
                                    "For a new link, run in a terminal:", door.ssh_hint()), 403)

    async def handle_sign_in(self, request: web.Request) -> web.Response:
        """The *Sign in* button: use the link, set the session cookie, go to the client."""
        door = self.door
        if not door.from_here(request):
            door.refused("origin")
            log.info("browser sign-in from %s refused: a form of another site (Origin %r)",
                     door.address(request), request.headers.get("Origin", "")[:80])
            return html_response(notice("Minefield: not signed in",
                                        "Not signed in: the form was not this server's own."),
                                 403)
        try:
            account_id, cookie = door.logins.redeem(request.match_info["token"])
        except LinkRefused as refusal:
            return self._refused_link(request, refusal)
        account = door.front.accounts.by_id(account_id)
        session = door.logins.session(cookie)
        log.info("browser sign-in: %s from %s (%s)", account.name if account else account_id,
                 door.address(request), session.tag if session else "?")
        response = web.HTTPSeeOther("/")
        self._set_cookie(response, cookie)
        return response

    async def handle_sign_out(self, request: web.Request) -> web.Response:
        """Sign this browser out (its session ends everywhere)."""
        door = self.door
        found = door.signed_in(request)
        if found is not None and door.from_here(request):
            session, account = found
            door.logins.sign_out(session)
            for live in [s for s in door.sessions if s.session.digest == session.digest]:
                live.end("signed out")
            log.info("browser sign-out: %s (%s)", account.name, session.tag)
        response = html_response(notice("Minefield", "Signed out."))
        response.del_cookie(door.cookie_name, path="/")
        return response

    async def handle_passkey_page(self, request: web.Request) -> web.Response:
        """Sign up with a name and a passkey, or sign in with one."""
        return html_response(passkey_page())

    async def handle_passkey(self, request: web.Request) -> web.Response:
        """The passkey ceremonies' steps (JSON in and out; this origin's pages only)."""
        door = self.door
        assert door.passkeys is not None
        if not door.from_here(request):
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
            door.refused("passkey")
            log.info("browser passkey %s from %s refused: %s", step, door.address(request),
                     refusal)
            return web.json_response({"error": str(refusal)}, status=403)

    async def _passkey_step(self, request: web.Request, step: str,
                            asked: dict[str, Any]) -> web.Response:
        from minefield.frontdoor.account_names import NameRefused, check_name

        passkeys, accounts = self.door.passkeys, self.door.front.accounts
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
            banned = self.door.front.moderator.account_refusal(account_id)
            if banned is not None:  # the line an SSH login of theirs gets
                raise PasskeyRefused(banned)
            return self._signed_in(request, account_id, "passkey")
        raise web.HTTPNotFound()

    def _signed_in(self, request: web.Request, account_id: int, how: str) -> web.Response:
        """A browser session for ``account_id``: its cookie, and the sign-in's log line."""
        door = self.door
        cookie = door.logins.start_session(account_id)
        account = door.front.accounts.by_id(account_id)
        session = door.logins.session(cookie)
        log.info("browser sign-in: %s from %s (%s, %s)", account.name if account else account_id,
                 door.address(request), how, session.tag if session else "?")
        response = web.json_response({"ok": True})
        self._set_cookie(response, cookie)
        return response

    async def handle_keys(self, request: web.Request) -> web.Response:
        """(Signed in) let an SSH key log in as this player: ``key add``'s form."""
        found = self.door.signed_in(request)
        if found is None:
            return html_response(notice("Minefield", "Sign in first."), 401)
        return html_response(keys_page(found[1].name))

    async def handle_key_add(self, request: web.Request) -> web.Response:
        """``key add`` from the browser (a passkey's player has no SSH key to run it with):
        the code, and the command the new key runs with it, as over SSH."""
        import asyncssh

        from minefield.frontdoor.account_keys import KeyRefused
        from minefield.frontdoor.accounts import utc

        door = self.door
        found = door.signed_in(request)
        if found is None or not door.from_here(request):
            return html_response(notice("Minefield", "Sign in first (from this server's page)."),
                                 403)
        session, account = found
        form = await request.post()
        try:
            key = asyncssh.import_public_key(str(form.get("key", "")).strip())
            new = key.get_fingerprint("sha256")
            offer = door.front.accounts.keys.offer(account.id, new, session.tag)
        except (asyncssh.KeyImportError, ValueError) as error:
            why = str(error) if isinstance(error, KeyRefused) else (
                "that is not a public key (ssh-ed25519 AAAA...)")
            return html_response(keys_page(account.name, key_refused(why)), 400)
        log.info("%s offered the key %s a code (browser %s from %s)", account.name, new,
                 session.tag, door.address(request))
        command = f"{door.ssh_command().replace('ssh -t', 'ssh', 1)} key confirm {offer.code}"
        said = key_offered(new, account.name, utc(offer.expires), command)
        return html_response(keys_page(account.name, said))


__all__ = ["SignIn"]
