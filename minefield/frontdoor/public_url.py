"""Where players reach the browser door (``--public-url``), and what its pages may load.

:class:`PublicUrl` is the door's origin as the browser sees it (its websocket's too);
:func:`content_policy` is the Content-Security-Policy of every response of
:mod:`.web_door`, which allows this origin and nothing else.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from minefield.errors import MinefieldError

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
        minefield.frontdoor.public_url.WebDoorError: --public-url https://x.org/play: give only \
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


def is_loopback(address: str) -> bool:
    """Whether ``address`` (an IP address, or ``localhost``) is this host's own."""
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


__all__ = ["ANY_ADDRESS", "CLIENT_STYLES", "PublicUrl", "WebDoorError", "content_policy",
           "is_loopback"]
