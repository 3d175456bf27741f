"""What the front door's text commands print: ``whoami``, ``who``, ``ladder``, ``key list``,
each as text for a person or as JSON (``--json``) for a program; and how a player types the
server's address.

Pure functions of what they are given (accounts, the daemon's lobby): no SQLite, no daemon, no
channel here (:mod:`.routes` asks for the facts and says the answer).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from datetime import UTC, datetime

from minefield.frontdoor.account_keys import AccountKey
from minefield.frontdoor.accounts import Account, utc
from minefield.protocol.lobby import LobbyState, LobbyTable


def ssh_command(host: str, port: int) -> str:
    """What a player types to reach this server at ``host`` and ``port``, in a terminal.

    >>> ssh_command("box", 2222), ssh_command("box", 22)
    ('ssh -t -p 2222 box', 'ssh -t box')
    """
    return f"ssh -t {host}" if port == 22 else f"ssh -t -p {port} {host}"


def whoami(fingerprint: str, account: Account | None, as_json: bool) -> str:
    """``whoami``: the name, the key, the rating."""
    if as_json:
        return json.dumps({"name": account.name if account else None,
                           "fingerprint": fingerprint,
                           "rating": round(account.rating) if account else None})
    if account is None:
        return (f"You have no name yet (key {fingerprint}): ssh -t to this server to "
                "choose one, or: name NEW")
    keys = len(account.fingerprints)
    return (f"{account.name}: rating {account.rating:.0f} (deviation {account.deviation:.0f},"
            f" {account.games} rated games); key {fingerprint}"
            f"{f' and {keys - 1} more' if keys > 1 else ''}")


def ladder(rows: list[Account], as_json: bool, programs: Collection[int] = ()) -> str:
    """``ladder``: every rated player (``rows``), best first; those whose account id is in
    ``programs`` marked as programs (their key has connected over ``wire``)."""
    if as_json:
        return json.dumps([{"name": a.name, "rating": round(a.rating),
                            "deviation": round(a.deviation), "games": a.games,
                            "program": a.id in programs}
                           for a in rows])
    if not rows:
        return "No rated games yet: a game between two players here counts."
    lines = [f"{'#':>3}  {'name':<16} {'rating':>6} {'±':>4} {'games':>5}"]
    for place, a in enumerate(rows, start=1):
        lines.append(f"{place:>3}  {a.name:<16} {a.rating:>6.0f} {a.deviation:>4.0f} "
                     f"{a.games:>5}{'  program' if a.id in programs else ''}")
    return "\n".join(lines)


def _table_line(table: LobbyTable) -> str:
    where = f"join {table.code}" if table.code is not None else f"game {table.game}"
    watching = (f", {table.watchers} watching (watch {table.game})" if table.watchers else "")
    return (f"{where}: {table.host}'s {'rated' if table.rated else 'casual'} table "
            f"({table.rules}), players "
            f"{', '.join(table.players)}{watching}")


def who(as_json: bool, lobby: LobbyState | None,
        sessions: Iterable[tuple[str, str]] = (), programs: Collection[str] = ()) -> str:
    """``who``: the players online and what they do, and the open tables.

    What each player connected to the daemon does there (``lobby``: the embedded daemon's;
    None: a separate daemon, whose lobby is its own) comes first (hosting a table or waiting
    for a quick match from the lobby, on a result); a front door session the daemon does not
    know of (the name prompt, ``history``, the menu) is told by what it was started for:
    ``sessions``, pairs of a name and a status. The names in ``programs`` are programs'
    (``"program": true``, and ``program`` after the status in words)."""
    online: dict[str, str] = ({player.name: player.status for player in lobby.online}
                              if lobby is not None else {})
    for name, status in sessions:
        online.setdefault(name, status)
    tables = lobby.tables if lobby is not None else []
    if as_json:
        return json.dumps({"online": [{"name": n, "status": s, **_program(n, programs)}
                                      for n, s in sorted(online.items())],
                           "tables": [table.model_dump(exclude_none=True)
                                      for table in tables]})
    lines = [f"Online ({len(online)}): " + (", ".join(
        f"{n} ({s}{', program' if n in programs else ''})" for n, s in sorted(online.items()))
                                             or "nobody")]
    if not tables:
        lines.append("No open tables.")
    lines.extend(_table_line(table) for table in tables)
    return "\n".join(lines)


def _program(name: str, programs: Collection[str]) -> dict[str, bool]:
    """``{"program": true}`` for a program's name, nothing for a person's (as in the lobby)."""
    return {"program": True} if name in programs else {}


def key_list(account: Account, keys: list[AccountKey], fingerprint: str, as_json: bool) -> str:
    """``key list``: the account's ``keys`` (``this``: the key asking, ``fingerprint``), and
    the keys offered a code that they have not given yet."""

    def iso(moment: float) -> str:
        return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds")

    if as_json:
        return json.dumps({
            "name": account.name,
            "keys": [{"fingerprint": k.fingerprint, "added": iso(k.since),
                      "this": k.fingerprint == fingerprint} for k in keys if not k.pending],
            "pending": [{"fingerprint": k.fingerprint, "expires": iso(k.since)}
                        for k in keys if k.pending]})
    lines = [f"The keys of {account.name}:"]
    for key in keys:
        if key.pending:
            lines.append(f"  {key.fingerprint}  waiting for its code (key confirm) until "
                         f"{utc(key.since)}")
        else:
            lines.append(f"  {key.fingerprint}  added {utc(key.since)}"
                         f"{'  (this key)' if key.fingerprint == fingerprint else ''}")
    return "\n".join(lines)


__all__ = ["key_list", "ladder", "ssh_command", "who", "whoami"]
