"""Passkeys: a player without an SSH key signs up and in on the browser door (``--open`` only).

A passkey (WebAuthn, checked by the maintained ``webauthn`` package) is an identity as a key is
over SSH: its credential joins the account as a key whose fingerprint is ``passkey:ID`` (so the
name rules, the ratings and ``key list`` treat it as one of the player's keys), and its public
key and signature counter are kept here, in the players' file. Each ceremony (a sign-up or a
sign-in) has a random challenge kept in memory for :data:`CEREMONY_SECONDS` and used once.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from minefield.errors import MinefieldError

#: How long a sign-up or sign-in may take, from its options to the browser's answer.
CEREMONY_SECONDS = 120.0
#: Ceremonies waiting at once (past this, the oldest are forgotten).
MAX_CEREMONIES = 1000
#: How a passkey is named among an account's keys.
PREFIX = "passkey:"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS web_passkeys (
    credential TEXT PRIMARY KEY,
    account INTEGER NOT NULL,
    public_key BLOB NOT NULL,
    sign_count INTEGER NOT NULL,
    added REAL NOT NULL
);
"""


class PasskeyRefused(MinefieldError, ValueError):
    """A passkey sign-up or sign-in that did not work (one line)."""


class Passkeys:
    """The passkeys of the players' file at ``path``, for the relying party ``rp_id`` (the
    public URL's host) at ``origin``."""

    def __init__(self, path: Path | str, rp_id: str, origin: str,
                 clock: Callable[[], float] = time.time) -> None:
        self.rp_id = rp_id
        self.origin = origin
        self.clock = clock
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(_SCHEMA)
        #: ceremony id -> (challenge, expires, the name asked for at a sign-up)
        self._ceremonies: dict[str, tuple[bytes, float, str | None]] = {}

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    def _ceremony(self, challenge: bytes, name: str | None) -> str:
        now = self.clock()
        for key in [k for k, (_c, expires, _n) in self._ceremonies.items() if expires < now]:
            del self._ceremonies[key]
        while len(self._ceremonies) >= MAX_CEREMONIES:
            del self._ceremonies[next(iter(self._ceremonies))]
        ceremony = secrets.token_urlsafe(16)
        self._ceremonies[ceremony] = (challenge, now + CEREMONY_SECONDS, name)
        return ceremony

    def _take(self, ceremony: Any) -> tuple[bytes, str | None]:
        found = self._ceremonies.pop(ceremony, None) if isinstance(ceremony, str) else None
        if found is None or found[1] < self.clock():
            raise PasskeyRefused("this page waited too long: try again")
        return found[0], found[2]

    def sign_up_options(self, name: str) -> tuple[str, str]:
        """A sign-up's ceremony id and the options for ``navigator.credentials.create``, as
        JSON (``name`` is checked by the caller)."""
        options = generate_registration_options(
            rp_id=self.rp_id, rp_name="Minefield", user_name=name,
            user_id=secrets.token_bytes(16),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED))
        return self._ceremony(options.challenge, name), options_to_json(options)

    def sign_up(self, ceremony: Any, credential: Any) -> tuple[str, str, bytes, int]:
        """Check a new passkey: the name asked for, its fingerprint (``passkey:ID``), its
        public key and counter (PasskeyRefused if it does not verify)."""
        challenge, name = self._take(ceremony)
        assert name is not None
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=challenge,
                expected_rp_id=self.rp_id, expected_origin=self.origin)
        except (InvalidRegistrationResponse, ValueError, TypeError, KeyError) as error:
            raise PasskeyRefused(f"the passkey was not accepted ({str(error)[:80]})") from None
        credential_id = bytes_to_base64url(verified.credential_id)
        return (name, PREFIX + credential_id, verified.credential_public_key,
                verified.sign_count)

    def keep(self, fingerprint: str, account: int, public_key: bytes, sign_count: int) -> None:
        """Keep a passkey that now signs ``account`` in."""
        self.db.execute("INSERT INTO web_passkeys (credential, account, public_key, sign_count,"
                        " added) VALUES (?, ?, ?, ?, ?)",
                        (fingerprint.removeprefix(PREFIX), account, public_key, sign_count,
                         self.clock()))

    def sign_in_options(self) -> tuple[str, str]:
        """A sign-in's ceremony id and the options for ``navigator.credentials.get`` (any
        passkey of this site: the browser offers the player's own)."""
        options = generate_authentication_options(
            rp_id=self.rp_id, user_verification=UserVerificationRequirement.PREFERRED)
        return self._ceremony(options.challenge, None), options_to_json(options)

    def sign_in(self, ceremony: Any, credential: Any) -> int:
        """The account a passkey's answer signs in (PasskeyRefused if none)."""
        challenge, _name = self._take(ceremony)
        credential_id = credential.get("id") if isinstance(credential, dict) else None
        row = self.db.execute("SELECT account, public_key, sign_count FROM web_passkeys WHERE "
                              "credential = ?", (str(credential_id),)).fetchone()
        if row is None:
            raise PasskeyRefused("this passkey is not one of this server's players")
        account, public_key, sign_count = row
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=self.rp_id,
                expected_origin=self.origin, credential_public_key=public_key,
                credential_current_sign_count=sign_count)
        except (InvalidAuthenticationResponse, ValueError, TypeError, KeyError) as error:
            raise PasskeyRefused(f"the passkey was not accepted ({str(error)[:80]})") from None
        self.db.execute("UPDATE web_passkeys SET sign_count = ? WHERE credential = ?",
                        (verified.new_sign_count, str(credential_id)))
        return int(account)


__all__ = ["PREFIX", "PasskeyRefused", "Passkeys"]
