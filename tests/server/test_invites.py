"""Invitations and quick match in the daemon's lobby: two players seated in a new room (a
standard single game) that both reach with ``resume``; declined, expired, withdrawn and gone
invitations told to the inviter; a bot offered to a quick match nobody answered."""

from __future__ import annotations

from pathlib import Path

import pytest

from minefield.protocol.messages import Snapshot
from minefield.server import invites
from minefield.server.daemon import Daemon
from minefield.session.remote_start import resume
from tests.server.conftest import Raw, next_of, start_daemon


async def in_lobby(daemon: Daemon, name: str) -> Raw:
    client = await Raw.connect(daemon.config.socket)
    client.hello("lobby", player=name)
    await client.until("lobby")
    return client


async def test_an_accepted_invitation_seats_both_in_a_new_room(daemon: Daemon) -> None:
    ann, bob = await in_lobby(daemon, "ann"), await in_lobby(daemon, "bob")
    ann.send({"type": "invite", "player": "BOB"})  # names are found in any case
    asked = await bob.until("invitation")
    assert asked["by"] == "ann" and asked["to"] == "bob" and asked["state"] == "open"
    assert asked["seconds"] == invites.INVITE_SECONDS
    assert (await ann.until("invitation"))["state"] == "open"
    bob.send({"type": "answer", "invitation": asked["id"], "accept": True})
    seated_bob, seated_ann = await bob.until("seated"), await ann.until("seated")
    assert seated_bob["game"] == seated_ann["game"]
    assert seated_bob["opponent"] == "ann" and seated_ann["opponent"] == "bob"
    room = daemon.rooms[seated_ann["game"]]
    assert room.code is None and not room.public and room.rules_name == "standard"
    # Both sit down with resume: the game starts with each in a seat of their own.
    first = await resume(socket=daemon.config.socket, player="ann", game=seated_ann["game"])
    second = await resume(socket=daemon.config.socket, player="bob", game=seated_bob["game"])
    snapshot = await next_of(second, Snapshot)
    assert {p.name for p in snapshot.table.players.values()} == {"ann", "bob"}
    assert first.local_seats != second.local_seats and not room.waiting
    for session in (first, second):
        await session.close()
    ann.close()
    bob.close()


async def test_declined_invitation_is_told_to_the_inviter(daemon: Daemon) -> None:
    ann, bob = await in_lobby(daemon, "ann"), await in_lobby(daemon, "bob")
    ann.send({"type": "invite", "player": "bob"})
    asked = await bob.until("invitation")
    bob.send({"type": "answer", "invitation": asked["id"], "accept": False})
    assert (await ann.until("invitation"))["state"] == "open"
    told = await ann.until("invitation")
    assert told["state"] == "declined" and told["to"] == "bob"
    assert not daemon.by_player  # no room made
    # The answer again: that invitation is no more (one line, nothing changes).
    bob.send({"type": "answer", "invitation": asked["id"], "accept": True})
    error = await bob.until("error")
    assert "expired or been withdrawn" in error["message"] and not error["fatal"]
    assert not daemon.by_player
    ann.close()
    bob.close()


async def test_an_unanswered_invitation_expires(short_dir: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(invites, "INVITE_SECONDS", 0.05)
    daemon = await start_daemon(short_dir)
    try:
        ann, bob = await in_lobby(daemon, "ann"), await in_lobby(daemon, "bob")
        ann.send({"type": "invite", "player": "bob"})
        assert (await ann.until("invitation"))["state"] == "open"
        assert (await ann.until("invitation"))["state"] == "expired"
        assert (await bob.until("invitation"))["state"] == "open"
        assert (await bob.until("invitation"))["state"] == "expired"
        ann.close()
        bob.close()
    finally:
        await daemon.stop()


async def test_leaving_the_lobby_withdraws_and_ends_invitations(daemon: Daemon) -> None:
    ann, bob = await in_lobby(daemon, "ann"), await in_lobby(daemon, "bob")
    ann.send({"type": "invite", "player": "bob"})
    await bob.until("invitation")
    ann.close()  # the inviter goes: the invitation is withdrawn
    assert (await bob.until("invitation"))["state"] == "cancelled"
    cat = await in_lobby(daemon, "cat")
    cat.send({"type": "invite", "player": "bob"})
    await cat.until("invitation")
    bob.close()  # the invited player goes: the inviter is told
    told = await cat.until("invitation")
    assert told["state"] == "gone" and told["to"] == "bob"
    cat.close()


async def test_bad_invitations_get_one_line_and_change_nothing(daemon: Daemon) -> None:
    ann, bob = await in_lobby(daemon, "ann"), await in_lobby(daemon, "bob")
    ann.send({"type": "invite", "player": "zed"})
    assert "zed is not in the lobby" in (await ann.until("error"))["message"]
    ann.send({"type": "invite", "player": "ann"})
    assert "yourself" in (await ann.until("error"))["message"]
    ann.send({"type": "invite", "player": "bad name!"})
    assert "player" in (await ann.until("error"))["message"]
    ann.send({"type": "invite", "player": "bob"})
    await ann.until("invitation")
    ann.send({"type": "invite", "player": "bob"})
    assert "already invited bob" in (await ann.until("error"))["message"]
    ann.send({"type": "cancel"})
    assert (await bob.until("invitation"))["state"] == "open"
    assert (await bob.until("invitation"))["state"] == "cancelled"
    assert not daemon.by_player
    ann.close()
    bob.close()


async def test_invitations_to_one_player_are_limited(daemon: Daemon) -> None:
    bob = await in_lobby(daemon, "bob")
    others = [await in_lobby(daemon, f"p{i}") for i in range(invites.MAX_INVITED + 1)]
    for other in others:
        other.send({"type": "invite", "player": "bob"})
    for other in others[:-1]:
        assert (await other.until("invitation"))["state"] == "open"
    error = await others[-1].until("error")
    assert error["code"] == "rate_limited" and "bob has" in error["message"]
    for client in (bob, *others):
        client.close()


async def test_quick_match_pairs_the_next_two_who_ask(daemon: Daemon) -> None:
    ann, bob = await in_lobby(daemon, "ann"), await in_lobby(daemon, "bob")
    ann.send({"type": "quick_match"})
    assert (await ann.until("matching"))["state"] == "waiting"
    bob.send({"type": "quick_match"})
    seated_ann, seated_bob = await ann.until("seated"), await bob.until("seated")
    assert seated_ann["game"] == seated_bob["game"] and seated_ann["opponent"] == "bob"
    assert not daemon.lobby.invites or not daemon.lobby.invites.queue
    room = daemon.rooms[seated_ann["game"]]
    assert {s.identity.name for s in room.seats.values() if s.identity} == {"ann", "bob"}
    ann.close()
    bob.close()


async def test_quick_match_offers_a_bot_and_waiting_goes_on(
        short_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(invites, "BOT_OFFER_SECONDS", 0.05)
    daemon = await start_daemon(short_dir)
    try:
        ann = await in_lobby(daemon, "ann")
        ann.send({"type": "quick_match"})
        assert (await ann.until("matching"))["state"] == "waiting"
        offer = await ann.until("matching")
        assert offer == {"type": "matching", "state": "bot_offer", "bot": "normal"}
        # Still waiting: the next player who asks is paired with ann.
        bob = await in_lobby(daemon, "bob")
        bob.send({"type": "quick_match"})
        assert (await bob.until("seated"))["opponent"] == "ann"
        # Another waits, takes the bot offered.
        cat = await in_lobby(daemon, "cat")
        cat.send({"type": "quick_match"})
        await cat.until("matching")
        cat.send({"type": "quick_match", "bot": "normal"})
        seated = await cat.until("seated")
        assert seated["opponent"] == "Bot (normal)"
        assert daemon.rooms[seated["game"]].against_bot
        game = await resume(socket=daemon.config.socket, player="cat", game=seated["game"])
        snapshot = await next_of(game, Snapshot)
        assert snapshot.table.players[game.local_seats[0].other].name == "Bot (normal)"
        await game.close()
        for client in (ann, bob, cat):
            client.close()
    finally:
        await daemon.stop()


async def test_cancelling_a_quick_match(daemon: Daemon) -> None:
    ann = await in_lobby(daemon, "ann")
    ann.send({"type": "quick_match"})
    await ann.until("matching")
    ann.send({"type": "cancel"})
    assert (await ann.until("matching"))["state"] == "cancelled"
    bob = await in_lobby(daemon, "bob")
    bob.send({"type": "quick_match"})
    assert (await bob.until("matching"))["state"] == "waiting"  # nobody to pair with
    ann.close()
    bob.close()


async def test_too_many_open_games_refuses_the_pairing(short_dir: Path) -> None:
    daemon = await start_daemon(short_dir, max_games_per_player=1)
    try:
        ann, bob = await in_lobby(daemon, "ann"), await in_lobby(daemon, "bob")
        ann.send({"type": "quick_match", "bot": "easy"})
        await ann.until("seated")
        ann.send({"type": "invite", "player": "bob"})
        asked = await bob.until("invitation")
        bob.send({"type": "answer", "invitation": asked["id"], "accept": True})
        error = await bob.until("error")
        assert "ann already has 1 open games" in error["message"]
        assert len(daemon.rooms) == 1
        ann.close()
        bob.close()
    finally:
        await daemon.stop()
