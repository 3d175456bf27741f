"""Tournaments played through the daemon (R37): rooms for each round's pairings, the lobby's
notice, forfeits, byes, the next round once every game is over, and a restart between rounds.

The players are scripted: each comes to the lobby, waits for its ``tournament_round`` notice
and sits down with a ``resume`` hello, then plays R25's automatic moves (``autoplay``). The
standings the daemon gives are checked against a computation by hand from the results it
recorded (win 1, draw 0.5, loss 0; byes a win; Buchholz or Sonneborn-Berger, R37).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minefield.protocol.messages import MatchView
from minefield.server.daemon import Daemon
from minefield.server.identity import Identity
from minefield.server.tournament_terms import NewTournament, TournamentError
from minefield.session.remote_start import resume
from tests.server.conftest import ME, Raw, autoplay, start_daemon
from tests.server.test_match_server import last_table, next_game_snapshot, play

#: Forfeits come quickly in tests (R37 gives 10 minutes).
FORFEIT = 4.0


def who(name: str) -> Identity:
    """A player of the shared account, as the daemon knows them."""
    return Identity(key=f"{name}@{ME}", name=name)


async def sit_and_play(daemon: Daemon, name: str, game: str) -> None:
    """``name`` sits down at ``game`` and plays it to its end (or its closing)."""
    session = await resume(socket=daemon.config.socket, player=name, game=game)
    await session.open()
    try:
        await autoplay(session)
    finally:
        await session.close()


async def play_round(daemon: Daemon, name: str, absent: frozenset[str] = frozenset()
                     ) -> list[dict[str, Any]]:
    """Every player of the round's games but ``absent`` comes to the lobby, takes its notice
    and plays; the notices received."""
    assert daemon.tournaments is not None
    shown = daemon.tournaments.show(name)
    playing = [p[side] for p in shown["pairings"] if p["round"] == shown["round"]
               and p["west"] is not None for side in ("east", "west")]
    lobbies = {}
    for player in playing:
        if player in absent:
            continue
        client = await Raw.connect(daemon.config.socket)
        client.hello("lobby", player=player)
        lobbies[player] = client
    notices = [await client.until("tournament_round") for client in lobbies.values()]
    await asyncio.gather(*(sit_and_play(daemon, player, notice["game"])
                           for player, notice in zip(lobbies, notices, strict=True)))
    for client in lobbies.values():
        client.close()
    return notices


async def round_over(daemon: Daemon, name: str, number: int) -> dict[str, Any]:
    """Until round ``number`` of ``name`` is over (the next began, or it finished)."""
    assert daemon.tournaments is not None
    for _ in range(600):
        shown = daemon.tournaments.show(name)
        if shown["round"] > number or shown["status"] == "finished":
            return shown
        await asyncio.sleep(0.05)
    raise AssertionError(f"round {number} never ended")


def by_hand(shown: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Each player's score and tie-break computed here from the recorded pairings (R37)."""
    score = dict.fromkeys(shown["players"], 0.0)
    for p in shown["pairings"]:
        if p["west"] is None:
            score[p["east"]] += 1
        elif p["result"] == "draw":
            score[p["east"]] += 0.5
            score[p["west"]] += 0.5
        elif p["result"] in ("east", "west"):
            score[p[p["result"]]] += 1
    tiebreak = dict.fromkeys(shown["players"], 0.0)
    for p in shown["pairings"]:
        if p["west"] is None:
            continue
        for me, other, side in ((p["east"], p["west"], "east"), (p["west"], p["east"], "west")):
            if shown["format"] == "swiss" or p["result"] == side:
                tiebreak[me] += score[other]
            elif p["result"] == "draw":
                tiebreak[me] += score[other] / 2
    return {name: (score[name], tiebreak[name]) for name in shown["players"]}


def check_standings(shown: dict[str, Any]) -> None:
    expected = by_hand(shown)
    got = {s["name"]: (s["score"], s["tiebreak"]) for s in shown["standings"]}
    assert got == expected
    keys = [(s["score"], s["tiebreak"], s["points"]) for s in shown["standings"]]
    assert keys == sorted(keys, reverse=True)


async def test_round_robin_of_four_through_the_daemon(short_dir: Path) -> None:
    """R37: 4 players, 3 rounds by the circle method, each pair once; each round's games in
    rooms of the daemon, East and West as paired; the standings as computed by hand."""
    daemon = await start_daemon(short_dir, tournament_forfeit_seconds=60.0)
    assert daemon.tournaments is not None
    names = ["ann", "bob", "cat", "dan"]
    try:
        daemon.tournaments.new(who("ann"), NewTournament("club", "round-robin"))
        for name in names:
            daemon.tournaments.join(who(name), "club")
        assert "round 1 of 3" in await daemon.tournaments.start(who("ann"), "CLUB")
        # The lobby lists the running tournament and its round.
        onlooker = await Raw.connect(daemon.config.socket)
        onlooker.hello("lobby", player="eve")
        lobby = await onlooker.until("lobby")
        assert lobby["tournaments"] == [{"name": "club", "round": 1, "rounds": 3}]
        onlooker.close()
        for number in (1, 2, 3):
            notices = await play_round(daemon, "club")
            assert len(notices) == 4 and all(n["round"] == number for n in notices)
            for notice in notices:
                room_seat = {n["opponent"]: n["seat"] for n in notices
                             if n["game"] == notice["game"]}
                assert sorted(room_seat.values()) == ["east", "west"]
            shown = await round_over(daemon, "club", number)
        assert shown["status"] == "finished" and shown["rounds"] == 3
        pairs = {frozenset((p["east"], p["west"])) for p in shown["pairings"]}
        assert len(pairs) == 6 and len(shown["pairings"]) == 6
        assert all(p["result"] in ("east", "west", "draw") and not p["forfeit"]
                   for p in shown["pairings"])
        check_standings(shown)
        assert sum(s["score"] for s in shown["standings"]) == 6  # one point a game
        # Each game is kept by its id as the tournament's, visible to all and rated (R36).
        assert daemon.kept is not None
        for p in shown["pairings"]:
            kept = None
            for _ in range(200):
                kept = await daemon.run_io(daemon.kept.find, p["game"])
                if kept is not None:
                    break
                await asyncio.sleep(0.05)
            assert kept is not None and kept.tournament == "club" and kept.rated
            assert kept.public and {kept.east, kept.west} == {f"{p['east']}@{ME}",
                                                              f"{p['west']}@{ME}"}
    finally:
        await daemon.stop()


async def test_swiss_of_seven_with_byes_a_forfeit_and_a_restart(short_dir: Path) -> None:
    """R37: a casual Swiss of 7 over 3 rounds: each round one bye (a win, never twice), no pair
    twice; in round 2 gus never sits down and loses by forfeit; the daemon is stopped and
    started again between rounds 1 and 2 and after round 2's pairings, and nothing is lost."""
    names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
    daemon = await start_daemon(short_dir, tournament_forfeit_seconds=FORFEIT)
    assert daemon.tournaments is not None
    daemon.tournaments.new(who("ann"), NewTournament("open7", "swiss", rounds=3, casual=True))
    for name in names:
        daemon.tournaments.join(who(name), "open7")
    await daemon.tournaments.start(who("ann"), "open7")
    games = [p["game"] for p in daemon.tournaments.show("open7")["pairings"] if p["game"]]
    assert len(games) == 3  # and a bye
    for game in games:  # a casual tournament's tables are never rated (R36)
        room = daemon.rooms[game]
        assert room.table_header().kind == "tournament" and not room.table_header().rated
    await play_round(daemon, "open7")
    first = await round_over(daemon, "open7", 1)
    # A restart between rounds (round 2's rooms made, nobody seated yet).
    await daemon.stop()
    daemon = await start_daemon(short_dir, tournament_forfeit_seconds=FORFEIT)
    assert daemon.tournaments is not None
    try:
        again = daemon.tournaments.show("open7")
        assert again["pairings"][:4] == first["pairings"][:4]  # round 1 kept
        assert again["round"] == 2 and again["status"] == "running"
        # gus (the lowest seed) had round 1's bye, so is paired in round 2 (R37).
        byes = [(p["round"], p["east"]) for p in again["pairings"] if p["west"] is None]
        assert byes[0] == (1, "gus") and byes[1][0] == 2 and byes[1][1] != "gus"
        await play_round(daemon, "open7", absent=frozenset({"gus"}))
        second = await round_over(daemon, "open7", 2)
        lost = next(p for p in second["pairings"] if p["round"] == 2
                    and "gus" in (p["east"], p["west"]))
        assert lost["west"] is not None and lost["forfeit"] is True
        assert lost["result"] == ("west" if lost["east"] == "gus" else "east")
        await play_round(daemon, "open7")
        shown = await round_over(daemon, "open7", 3)
    finally:
        await daemon.stop()
    assert shown["status"] == "finished"
    byes = [p["east"] for p in shown["pairings"] if p["west"] is None]
    assert len(byes) == 3 and len(set(byes)) == 3
    pairs = [frozenset((p["east"], p["west"])) for p in shown["pairings"]
             if p["west"] is not None]
    assert len(pairs) == 9 and len(set(pairs)) == 9
    assert all(p["result"] is not None for p in shown["pairings"])
    check_standings(shown)
    assert [p["forfeit"] for p in shown["pairings"]].count(True) == 1
    # What was kept on disk: every round, pairing and forfeit.
    with sqlite3.connect(short_dir / "data" / "club.sqlite") as db:
        assert db.execute("SELECT count(*) FROM rounds WHERE ended IS NOT NULL").fetchone() \
            == (3,)
        assert db.execute("SELECT count(*) FROM pairings").fetchone() == (12,)


async def test_bad_tournament_commands_are_one_line_and_change_nothing(short_dir: Path
                                                                     ) -> None:
    """Errors say what is wrong; nothing is stored."""
    daemon = await start_daemon(short_dir)
    assert daemon.tournaments is not None
    t = daemon.tournaments
    try:
        for bad, text in ((NewTournament("a b", "swiss"), "1 to 40 letters"),
                          (NewTournament("x", "swiss", rounds=0), "--rounds"),
                          (NewTournament("x", "round-robin", rounds=3), "leave --rounds out"),
                          (NewTournament("x", "swiss", rule=(("ryanshi", "maybe"),)),
                           "ryanshi"),
                          (NewTournament("x", "swiss", rules="nosuch"), "nosuch")):
            try:
                t.new(who("ann"), bad)
            except TournamentError as error:
                assert text in str(error) and "\n" not in str(error)
            else:
                raise AssertionError(f"{bad} was accepted")
        assert t.listing() == []
        t.new(who("ann"), NewTournament("x", "swiss"))
        t.join(who("bob"), "x")
        refusals: tuple[tuple[Callable[[], object], str], ...]
        refusals = ((lambda: t.join(who("bob"), "x"), "already in"),
                    (lambda: t.leave(who("cat"), "x"), "not in"),
                    (lambda: t.join(who("bob"), "y"), "no tournament"))
        for call, text in refusals:
            try:
                call()
            except TournamentError as error:
                assert text in str(error)
            else:
                raise AssertionError(text)
        for asker, text in ((who("bob"), "only the organizer"), (who("ann"), "at least 2")):
            try:
                await t.start(asker, "x")
            except TournamentError as error:
                assert text in str(error)
            else:
                raise AssertionError(text)
        assert t.show("x")["status"] == "open" and t.show("x")["players"] == ["bob"]
    finally:
        await daemon.stop()


async def play_match(daemon: Daemon, name: str, game: str) -> MatchView:
    """``name`` sits down at ``game`` (a match, R30) and plays it to its end, asking for each
    next game; the match as it ended."""
    session = await resume(socket=daemon.config.socket, player=name, game=game)
    await session.open()
    try:
        for number in range(1, 30):
            table = last_table(await play(session, number))
            assert table.match is not None
            if table.match.over:
                return table.match
            await session.next_game()
            await next_game_snapshot(session, number + 1)
    finally:
        await session.close()
    raise AssertionError("the match never ended")


async def test_with_matches_a_match_is_one_game_of_the_tournament(short_dir: Path) -> None:
    """R37 with ``--match``: each pairing plays a whole match (R30, one hand here), won on
    the final scores; the tournament's game is over only when the match is."""
    daemon = await start_daemon(short_dir)
    assert daemon.tournaments is not None
    try:
        daemon.tournaments.new(who("ann"), NewTournament(
            "duel", "round-robin", rules="match", rule=(("hands", 1),), match=True))
        for name in ("ann", "bob"):
            daemon.tournaments.join(who(name), "duel")
        await daemon.tournaments.start(who("ann"), "duel")
        game = daemon.tournaments.show("duel")["pairings"][0]["game"]
        ended = await asyncio.gather(play_match(daemon, "ann", game),
                                     play_match(daemon, "bob", game))
        shown = await round_over(daemon, "duel", 1)
    finally:
        await daemon.stop()
    scores = ended[0].scores
    pairing = shown["pairings"][0]
    assert shown["status"] == "finished" and pairing["game"] == game
    east, west = scores[pairing["east"]], scores[pairing["west"]]
    expected = "draw" if east == west else "east" if east > west else "west"
    assert pairing["result"] == expected and not pairing["forfeit"]
    winner = next(s for s in shown["standings"] if s["rank"] == 1)
    if expected != "draw":
        assert winner["name"] == pairing[expected] and winner["score"] == 1.0
        assert winner["points"] == max(east, west) - 25000  # R30: from 25,000 each
