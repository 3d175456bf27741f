"""What the browser door's pages say: their HTML, escaped here, and nothing else.

Pure functions of what they are given (a title, a name, a token): no request, no account
store, no session. :mod:`.web_door` and :mod:`.web_sign_in` decide which page a request gets
and its status; the stylesheet and scripts the pages name are files of ``minefield/assets``.
"""

from __future__ import annotations

import html

from aiohttp import web

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


def html_response(text: str, status: int = 200) -> web.Response:
    """A page as the response to a request."""
    return web.Response(text=text, status=status, content_type="text/html")


def client_page(title: str, websocket: str) -> str:
    """The client's page: the terminal, driven over ``websocket``."""
    body = (f'<div class="ended"><div class="box"><p>The session has ended.</p>'
            f'<button type="button" id="again">Start again</button></div></div>\n'
            f'<div id="terminal" class="textual-terminal" '
            f'data-session-websocket-url="{html.escape(websocket)}" '
            f'data-font-size="16"></div>')
    head = ('<link rel="stylesheet" href="/static/css/xterm.css">\n'
            '<script src="/static/js/textual.js"></script>\n'
            '<script src="/web/web.js"></script>\n')
    return page(title, body, head=head, body_class="client")


def link_page(name: str, token: str) -> str:
    """A sign-in link opened: whose it is (``name``) and a *Sign in* button that posts
    ``token``."""
    form = (f'<main class="box"><h1>Minefield</h1>\n<p>Sign in as <b>{html.escape(name)}</b> '
            f'in this browser?</p>\n<form method="post" action="/login/{html.escape(token)}">'
            f'<button type="submit" id="sign-in">Sign in</button></form>\n'
            f'<p class="small">The link serves once. Not yours? Close this page.</p>'
            f'</main>')
    return page("Minefield: sign in", form)


def passkey_page() -> str:
    """Sign up with a name and a passkey, or sign in with one (its steps are
    ``minefield/assets/passkey.js``)."""
    body = ('<main class="box"><h1>Minefield</h1>\n'
            '<p>Sign up: the name other players will see (2-16 letters, digits, - or _), '
            'and a passkey of this device.</p>\n'
            '<p><input id="name" maxlength="16" autocomplete="username"> '
            '<button type="button" id="sign-up">Sign up with a passkey</button></p>\n'
            '<p>Signed up already? <button type="button" id="sign-in">Sign in with a '
            'passkey</button></p>\n<p id="message" class="small"></p></main>')
    return page("Minefield: passkey", body, head='<script src="/web/passkey.js"></script>\n')


def keys_page(name: str, said: str = "") -> str:
    """``key add``'s form for the player ``name``; ``said``: what the last offer answered
    (HTML, already escaped)."""
    form = (f'<main class="box"><h1>Minefield: {html.escape(name)}</h1>\n'
            f'<p>Let an SSH key log in as {html.escape(name)}: paste its public key line '
            f'(ssh-ed25519 AAAA...).</p>\n<form method="post" action="/keys">'
            f'<p><textarea name="key" id="key" rows="3" cols="60"></textarea></p>'
            f'<p><button type="submit" id="add-key">Offer it a code</button></p></form>\n'
            f'{said}</main>')
    return page("Minefield: keys", form)


def key_refused(why: str) -> str:
    """What the keys page says of a key it refused (HTML)."""
    return f'<p id="message">Refused: {html.escape(why)}.</p>'


def key_offered(fingerprint: str, name: str, expires: str, command: str) -> str:
    """What the keys page says of a key offered a code: the ``command`` that key runs before
    ``expires`` (HTML)."""
    return (f'<p id="message">To let the key {html.escape(fingerprint)} log in as '
            f'{html.escape(name)}, run this with that key before '
            f'{html.escape(expires)} (the code serves once):</p>\n'
            f'<p><code id="command">{html.escape(command)}</code></p>')


__all__ = ["client_page", "html_response", "key_offered", "key_refused", "keys_page",
           "link_page", "notice", "page", "passkey_page"]
