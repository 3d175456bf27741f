"""The header's line of a game: who plays whom, under which rules (RULES.md "Rule presets",
named as the player chose them), and, while a network room waits for its second player, its
code with what the friend types to join it."""

from __future__ import annotations

from collections.abc import Mapping

from minefield.protocol.address import player_command
from minefield.protocol.messages import WAITING_NAME, TableView
from minefield.rules.settings import chosen_rules, without_clocks
from minefield.session.base import RoomSession, Session


def join_command(code: str, player: str | None = None,
                 environ: Mapping[str, str] | None = None, user: str | None = None,
                 host: str | None = None) -> str:
    """What the friend types to join the room ``code`` (:func:`~minefield.protocol.address.
    player_command`, then ``join CODE``).

    >>> join_command("K7Q3PX", "ann", {}, user="ann", host="box")
    'minefield join K7Q3PX'
    >>> join_command("K7Q3PX", "ann", {"SSH_CONNECTION": "1"}, user="ann", host="box")
    'ssh -t box join K7Q3PX'
    >>> join_command("K7Q3PX", "alice", {"SSH_CONNECTION": "1"}, user="mahjong", host="box")
    'ssh -t mahjong@box join K7Q3PX'
    >>> join_command("K7Q3PX", "ann", {"MINEFIELD_DOOR": "ssh -t -p 2222 box"})
    'ssh -t -p 2222 box join K7Q3PX'
    """
    return f"{player_command(player, environ, user, host)} join {code}"


def table_subtitle(session: Session, table: TableView, preset: str | None) -> str:
    """The header's line of ``session``'s game, ``table`` being its first local seat's:
    ``preset`` is the rules preset chosen (None: guessed from the settings); the standard
    rules, and a match's own preset beside its scoreboard, go unsaid."""
    chosen = chosen_rules(without_clocks(session.settings), preset)
    name = chosen.preset if chosen.exact else "custom"
    rules = "" if name == "standard" else f" · {name} rules"
    if rules == " · match rules" and table.match:
        rules = ""  # the scoreboard says it is a match
    if session.traits.shared_screen:
        return f"Hot-seat{rules}"
    other = table.seat.other
    code = session.code if isinstance(session, RoomSession) else None
    seated = table.players[other]
    if code and seated.kind == "human" and not seated.present and seated.name == WAITING_NAME:
        player = getattr(session, "player", None)
        return f"Room {code} · to join: {join_command(code, player)}{rules}"
    return f"Playing against {table.name(other)}{rules}"


__all__ = ["join_command", "table_subtitle"]
