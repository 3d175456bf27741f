"""The allow-list of ``ssh-server``: an ``authorized_keys``-style file of the keys that may come
in, with OpenSSH's ``from=`` option honoured.

A line is ``[OPTIONS] TYPE BASE64 [COMMENT]``. ``from="PATTERNS"`` limits the key to the
client addresses the patterns match, as OpenSSH's ``authorized_keys`` does: a comma-separated
list of addresses with ``*`` and ``?`` wildcards or ``ADDRESS/BITS`` networks, any of them
negated with ``!`` (a negated match refuses, whatever else matches). Host names are not looked
up: a name pattern matches nothing (as sshd's with ``UseDNS no``). The options that only forbid
what this server never allows (``restrict``, ``no-port-forwarding``, ``no-agent-forwarding``,
``no-X11-forwarding``, ``no-user-rc``) are accepted. Any other option (``command=``,
``environment=``, ``no-pty``, ``permitopen=``, ``expiry-time=``...) would be silently not
done, so its line is refused at load with a log line naming it: that key does not come in.

>>> allowed_from(["10.0.0.0/8", "!10.0.0.7"], "10.1.2.3"), allowed_from(["10.*"], "10.0.0.7")
(True, True)
>>> allowed_from(["10.0.0.0/8", "!10.0.0.7"], "10.0.0.7"), allowed_from(["192.168.1.?"], "::1")
(False, False)
"""

from __future__ import annotations

import ipaddress
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from minefield.errors import MinefieldError

log = logging.getLogger("minefield.frontdoor")

#: Options that forbid only what the front door never does anyway.
HARMLESS_OPTIONS = frozenset({"restrict", "no-port-forwarding", "no-agent-forwarding",
                              "no-x11-forwarding", "no-user-rc"})
#: The beginnings of a public key's type word.
KEY_TYPES = ("ssh-", "ecdsa-", "sk-")


class OptionRefused(MinefieldError, ValueError):
    """A line's options cannot be honoured (the reason, one line)."""


@dataclass(slots=True)
class AllowList:
    """The keys of an allow-list: per fingerprint, the ``from=`` pattern lists of its lines
    (None for a line without ``from=``: any address)."""

    keys: dict[str, list[list[str] | None]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, fingerprint: object) -> bool:
        return fingerprint in self.keys

    def admits(self, fingerprint: str, address: str | None = None) -> bool:
        """True when a line of the key lets it in from ``address`` (None: from anywhere one
        of its lines allows)."""
        lines = self.keys.get(fingerprint)
        if not lines:
            return False
        return any(patterns is None or address is None or allowed_from(patterns, address)
                   for patterns in lines)


def _match_one(pattern: str, address: str) -> bool:
    if "/" in pattern:
        try:
            network = ipaddress.ip_network(pattern, strict=False)
            return ipaddress.ip_address(address) in network
        except ValueError:
            return False
    wildcard = "".join(".*" if char == "*" else "." if char == "?" else re.escape(char)
                       for char in pattern.lower())
    return re.fullmatch(wildcard, address.lower()) is not None


def allowed_from(patterns: list[str], address: str) -> bool:
    """OpenSSH's pattern-list rule for ``from=``: a negated pattern that matches refuses; else
    any pattern that matches lets in."""
    allowed = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        if _match_one(pattern[1:] if negated else pattern, address):
            if negated:
                return False
            allowed = True
    return allowed


def split_options(text: str) -> list[tuple[str, str | None]]:
    """``a,b="x,y"`` as ``[("a", None), ("b", "x,y")]`` (names in lower case);
    :class:`OptionRefused` for an unbalanced quote."""
    options: list[tuple[str, str | None]] = []
    index = 0
    while index < len(text):
        match = re.match(r'([A-Za-z0-9-]+)(="((?:[^"\\]|\\.)*)")?(,|$)', text[index:])
        if match is None:
            raise OptionRefused(f"cannot read the options {text[:40]!r}")
        value = match.group(3)
        options.append((match.group(1).lower(),
                        None if value is None else value.replace('\\"', '"')))
        index += match.end()
    return options


def _split_line(line: str) -> tuple[str, str]:
    """A line's options (maybe empty) and the rest (the key and its comment)."""
    if line.startswith(KEY_TYPES):
        return "", line
    quoted = False
    for index, char in enumerate(line):
        if char == '"' and (index == 0 or line[index - 1] != "\\"):
            quoted = not quoted
        elif char in " \t" and not quoted:
            return line[:index], line[index:].strip()
    return line, ""


def _from_patterns(options: str) -> list[str] | None:
    patterns: list[str] | None = None
    for name, value in split_options(options):
        if name == "from" and value is not None:
            patterns = [word.strip() for word in value.split(",") if word.strip()]
        elif name in HARMLESS_OPTIONS and value is None:
            continue
        else:
            raise OptionRefused(f"the option {name}{'=' if value is not None else ''} is not "
                                "supported here (only from= and the no-forwarding options)")
    return patterns


def read_allowed(path: Path) -> AllowList:
    """The keys of an ``authorized_keys``-style file (see the module's text); a line that holds
    no key, or options that cannot be honoured, is skipped and logged with its number."""
    allowed = AllowList()
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return allowed
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        options, rest = _split_line(line)
        words = rest.split()
        try:
            if len(words) < 2 or not words[0].startswith(KEY_TYPES):
                raise KeyError
            key = asyncssh.import_public_key(f"{words[0]} {words[1]}")
        except (KeyError, asyncssh.KeyImportError, ValueError):
            log.warning("%s line %d holds no public key: skipped", path, number)
            continue
        try:
            patterns = _from_patterns(options)
        except OptionRefused as refusal:
            log.warning("%s line %d refused: %s; that key does not come in until the line "
                        "is fixed", path, number, refusal)
            continue
        allowed.keys.setdefault(key.get_fingerprint("sha256"), []).append(patterns)
    return allowed


__all__ = ["AllowList", "OptionRefused", "allowed_from", "read_allowed", "split_options"]
