"""The parts of ``ssh HOST wire`` without a server: the command on both routes, the hello made
the key's player's, the first line's limit, and the program mark (kept by account, shown in
``ladder``, ``who`` and the lobby)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from minefield.frontdoor import reports
from minefield.frontdoor.accounts import Accounts
from minefield.frontdoor.commands import FrontCommand, parse_command
from minefield.frontdoor.grammar import EntryCommand, Refused, parse_original_command
from minefield.frontdoor.programs import is_program, mark_program, program_ids, programs_named
from minefield.frontdoor.wire_link import asks_for_wire
from minefield.protocol.lobby import LobbyPlayer
from minefield.protocol.messages import MAX_LINE_BYTES
from minefield.protocol.program_hello import first_line, own_hello
from minefield.protocol.wire import WireProblem
from minefield.server.identity import Identity
from minefield.server.lobby_state import lobby_state

HELLO = b'{"type": "hello", "version": 1, "action": "resume"}\n'


def test_wire_is_a_command_of_both_routes_and_takes_nothing_after_it() -> None:
    assert parse_command("wire") == FrontCommand("wire")
    assert parse_command("minefield wire") == FrontCommand("wire")
    assert parse_original_command("wire") == EntryCommand("wire")
    assert asks_for_wire("wire") and not asks_for_wire("who") and not asks_for_wire(None)
    assert not asks_for_wire("wire; sh")
    for typed in ("wire --json", "wire now"):
        with pytest.raises(Refused, match="wire takes nothing"):
            parse_command(typed)
        with pytest.raises(Refused):
            parse_original_command(typed)


def test_the_hello_is_made_the_keys_players() -> None:
    sent = json.loads(own_hello(HELLO, "Robo", "Robo"))
    assert (sent["player"], sent["action"]) == ("Robo", "resume")
    # The name in any case is the player (the daemon is sent the name as the route has it).
    named = HELLO.replace(b"}", b', "player": "ROBO"}')
    assert json.loads(own_hello(named, "Robo", "Robo"))["player"] == "Robo"
    # A personal account (OpenSSH without --player): no player goes on.
    assert json.loads(own_hello(named, None, "robo"))["player"] is None
    # Another player: bad_message (fatal as every hello problem is).
    with pytest.raises(WireProblem) as refused:
        own_hello(HELLO.replace(b"}", b', "player": "Ann"}'), "Robo", "Robo")
    assert refused.value.code == "bad_message" and "plays as Robo" in str(refused.value)
    # A line with player twice is refused by what the daemon would be sent, not passed on.
    with pytest.raises(WireProblem):
        own_hello(HELLO.replace(b"}", b', "player": "Robo", "player": "Ann"}'), "Robo",
                  "Robo")
    # The daemon's own checks and codes.
    for line, code in ((b'{"type": "ping"}\n', "handshake"), (b"nope\n", "bad_message"),
                       (HELLO.replace(b"1,", b"2,"), "version")):
        with pytest.raises(WireProblem) as problem:
            own_hello(line, "Robo", "Robo")
        assert problem.value.code == code


def test_the_first_line_is_held_to_the_protocols_limit() -> None:
    longest = b"x" * MAX_LINE_BYTES + b"\n"
    assert first_line(longest + b"more") == (longest, b"more")
    assert first_line(b"x" * MAX_LINE_BYTES) is None  # its newline may still come
    with pytest.raises(WireProblem) as problem:
        first_line(b"x" * (MAX_LINE_BYTES + 1))
    assert problem.value.code == "too_long"


def test_the_program_mark_follows_the_account_and_shows_where_players_are_listed() -> None:
    accounts = Accounts(":memory:")
    robo, ann = accounts.claim("SHA256:r", "Robo"), accounts.claim("SHA256:a", "Ann")
    assert not is_program(accounts, robo.id) and program_ids(accounts) == set()
    mark_program(accounts, robo.id)
    mark_program(accounts, robo.id)  # again: still one mark
    renamed, _ = accounts.rename(robo.id, "Tin")
    assert program_ids(accounts) == {robo.id}
    assert programs_named(accounts, ["tin", "Robo", "Ann"]) == {"tin", "Robo"}
    ladder = json.loads(reports.ladder([renamed, ann], True, {robo.id}))
    assert [(row["name"], row["program"]) for row in ladder] == [("Tin", True),
                                                                  ("Ann", False)]
    who = json.loads(reports.who(True, None, [("Tin", "lobby"), ("Ann", "lobby")], {"Tin"}))
    assert who["online"] == [{"name": "Ann", "status": "lobby"},
                             {"name": "Tin", "status": "lobby", "program": True}]


def test_the_lobby_marks_programs_and_leaves_the_field_out_for_people() -> None:
    def conn(name: str) -> SimpleNamespace:
        return SimpleNamespace(identity=Identity(key=f"{name}@games", name=name), room=None,
                               watching=None)

    state = lobby_state([], [conn("Robo"), conn("Ann")], {"Robo@games": 1600},
                        programs={"Robo@games"})
    assert [player.model_dump() for player in state.online] == [
        {"name": "Ann", "status": "lobby"},
        {"name": "Robo", "status": "lobby", "rating": 1600, "program": True}]
    assert LobbyPlayer(name="Ann", status="lobby").model_dump_json() == (
        '{"name":"Ann","status":"lobby"}')
