"""GameTable: commands applied once, per-seat messages (R26), clocks and automatic moves (R25)."""

from __future__ import annotations

import pytest

from minefield.protocol.messages import (
    Applied,
    Clocks,
    Notice,
    PlayerInfo,
    Presence,
    Rejected,
    SeatClock,
    Snapshot,
    parse_server_message,
)
from minefield.rules.auto import auto_command
from minefield.rules.game import BecameFuriten, ChooseHand, Discard, Game, Seat
from minefield.rules.prepared import game_with_hands
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import parse_tiles, tiles_to_str
from minefield.table.game_table import GameTable

EAST, WEST = Seat.EAST, Seat.WEST
PLAYERS = {EAST: PlayerInfo(name="Ann"), WEST: PlayerInfo(name="Bob", kind="bot")}


class ListRecorder:
    """Records in memory; can be told to fail like a full disk."""

    def __init__(self, fail: bool = False) -> None:
        self.lines: list[tuple[int, Seat, str]] = []
        self.marks: list[tuple[str | None, bool]] = []  # each line's command id and mark
        self.ended = False
        self.fail = fail

    def command(self, seq: int, seat: Seat, command: ChooseHand | Discard, *,
                command_id: str | None = None, automatic: bool = False) -> None:
        if self.fail:
            raise OSError(28, "No space left on device")
        self.lines.append((seq, seat, command.model_dump_json()))
        self.marks.append((command_id, automatic))

    def result(self, game: Game) -> None:
        self.ended = True


def lowest_hand(table: GameTable, seat: Seat) -> ChooseHand:
    command = auto_command(table.game.view(seat))
    assert isinstance(command, ChooseHand)
    return command


def test_each_seat_gets_its_own_table_and_events_only() -> None:
    table = GameTable(Game(4), PLAYERS)
    east_hand = lowest_hand(table, EAST)
    messages = table.submit(EAST, "e1", east_hand, now=0.0)
    assert [(m.type, m.seat) for m in messages] == [("applied", EAST), ("applied", WEST)]
    to_east, to_west = messages
    assert isinstance(to_east, Applied) and isinstance(to_west, Applied)
    assert to_east.command_id == "e1" and to_west.command_id is None  # R26: ids are private
    assert to_east.table.view.own_hand == east_hand.tiles
    west_text = to_west.model_dump_json()
    assert east_hand.tiles not in west_text  # R26: West never sees East's hand
    assert tiles_to_str(table.game.tiles_of(EAST)) not in west_text
    assert to_west.table.view.opponent_ready and to_west.table.seq == 1
    # every message is a valid wire message
    assert parse_server_message(to_west.model_dump_json()) == to_west


def test_a_resent_command_id_is_applied_once() -> None:
    table = GameTable(Game(4), PLAYERS)
    hand = lowest_hand(table, EAST)
    table.submit(EAST, "same", hand, now=0.0)
    again = table.submit(EAST, "same", hand, now=1.0)
    assert [type(m) for m in again] == [Snapshot] and table.seq == 1
    assert len(table.game.commands) == 1


def test_an_illegal_command_is_rejected_to_its_seat_and_changes_nothing() -> None:
    table = GameTable(Game(4), PLAYERS)
    before = table.game.state_key()
    messages = table.submit(WEST, "w1", Discard(tile="1m"), now=0.0)
    assert len(messages) == 1 and isinstance(messages[0], Rejected)
    assert messages[0].seat is WEST and "both hands are not chosen" in messages[0].reason
    assert table.game.state_key() == before and table.seq == 0


def test_furiten_reaches_only_its_own_seat() -> None:
    # R15a, R26, R27: East discards its own wait; West's messages say nothing of it.
    game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1m", dora="2m")
    table = GameTable(game, PLAYERS)
    to_east, to_west = table.submit(EAST, None, Discard(tile="1m"), now=0.0)
    assert isinstance(to_east, Applied) and isinstance(to_west, Applied)
    assert any(isinstance(e, BecameFuriten) for e in to_east.events)
    assert not any(isinstance(e, BecameFuriten) for e in to_west.events)
    assert to_west.table.view.own_furiten is None
    assert "own_discard" not in to_west.model_dump_json()


def test_commands_are_recorded_before_anyone_hears_of_them() -> None:
    recorder = ListRecorder()
    table = GameTable(Game(4), PLAYERS, recorder=recorder)
    table.submit(EAST, None, lowest_hand(table, EAST), now=0.0)
    table.submit(WEST, None, Discard(tile="1m"), now=0.0)  # rejected: not recorded
    assert [(seq, seat) for seq, seat, _ in recorder.lines] == [(1, EAST)]


def test_the_record_keeps_each_commands_id_and_marks_automatic_moves() -> None:
    """A command's line carries the id its seat sent it with (a restart still knows it,
    protocol 7); a move played because a clock ran out is marked automatic (R25, R25b)."""
    recorder = ListRecorder()
    settings = RuleSettings(hand_seconds=30, discard_seconds=10)
    table = GameTable(Game(4, settings), PLAYERS, recorder=recorder, now=0.0)
    table.submit(EAST, "east-1", lowest_hand(table, EAST), now=1.0)
    table.expire(30.0)  # West's hand clock runs out
    assert recorder.marks == [("east-1", False), (None, True)]


def test_a_table_rebuilt_after_a_restart_remembers_the_ids_applied_before() -> None:
    table = GameTable(Game(4), PLAYERS)
    hand = lowest_hand(table, EAST)
    table.game.apply(EAST, hand)  # the record's line, replayed
    table.seq = 1
    table.remember(1, EAST, "east-1")
    (answer,) = table.submit(EAST, "east-1", lowest_hand(table, WEST), now=0.0)
    assert answer.type == "snapshot" and table.seq == 1


def test_a_record_that_cannot_be_written_is_told_and_the_game_goes_on() -> None:
    table = GameTable(Game(4), PLAYERS, recorder=ListRecorder(fail=True))
    messages = table.submit(EAST, None, lowest_hand(table, EAST), now=0.0)
    notices = [m for m in messages if isinstance(m, Notice)]
    assert {n.seat for n in notices} == {EAST, WEST}
    assert "No space left on device" in notices[0].text and table.seq == 1
    assert table.recorder is None  # not tried again for every command


# --- R25: clocks -------------------------------------------------------------------------------

def timed(hand: int | None = 30, discard: int | None = 10) -> GameTable:
    settings = RuleSettings(hand_seconds=hand, discard_seconds=discard)
    return GameTable(Game(4, settings), PLAYERS, now=100.0)


def test_r25_no_clock_without_the_setting() -> None:
    table = GameTable(Game(4), PLAYERS)
    assert table.next_deadline() is None
    assert all(c.limit is None and not c.running for c in table.clocks(5.0).values())


def test_r25_hand_clocks_run_for_both_seats_and_the_draft_is_kept() -> None:
    table = timed()
    clocks = table.clocks(110.0)
    assert clocks[EAST].remaining == pytest.approx(20.0) and clocks[EAST].running
    assert table.next_deadline() == (130.0, EAST)
    east_tiles = parse_tiles(table.game.view(EAST).own_tiles)
    draft = tiles_to_str(east_tiles[-5:])  # the five highest tiles
    table.draft(EAST, draft)
    table.submit(WEST, None, lowest_hand(table, WEST), now=120.0)
    assert table.expire(129.9) == []
    messages = table.expire(130.0)
    applied = [m for m in messages if isinstance(m, Applied)]
    assert [m.by for m in applied] == [EAST, EAST] and all(m.automatic for m in applied)
    hand = parse_tiles(table.game.view(EAST).own_hand or "")
    for tile in parse_tiles(draft):  # R25: the chosen tiles are kept ...
        assert tile in hand
    assert len(hand) == 13  # ... and the rest are the lowest unchosen ones
    assert any(isinstance(m, Notice) and m.seat is EAST and "for you" in m.text
               for m in messages)
    # Phase 2 begins: East's discard clock starts when the hand is in.
    assert table.next_deadline() == (140.0, EAST)


def test_r25_discard_clock_plays_the_safest_tile_and_the_game_is_never_aborted() -> None:
    table = timed(hand=None, discard=10)
    for seat in Seat:
        table.submit(seat, None, lowest_hand(table, seat), now=100.0)
    now = 100.0
    while table.game.phase == "discarding":
        due = table.next_deadline()
        assert due is not None and due[1] is table.game.turn
        now = due[0]
        table.expire(now)
    assert table.game.phase == "ended" and table.seq == len(table.game.commands)
    assert now == pytest.approx(100.0 + 10 * table.game.discard_count)


# --- R25b: a player away has their clock stopped ------------------------------------------------

def test_r25b_a_stopped_clock_keeps_its_time_and_is_found_with_at_least_5_seconds() -> None:
    table = timed(hand=None, discard=10)
    for seat in Seat:
        table.submit(seat, None, lowest_hand(table, seat), now=100.0)
    turn = table.game.turn
    assert turn is not None and table.next_deadline() == (110.0, turn)
    table.stop_clock(turn, now=107.0)  # away with 3 s left
    assert table.clocks(150.0)[turn] == SeatClock(limit=10, remaining=3.0, running=False)
    assert table.next_deadline() is None and table.expire(150.0) == []  # nothing played
    table.run_clock(turn, now=150.0, at_least=5.0)  # back: never below 5 s
    assert table.clocks(150.0)[turn] == SeatClock(limit=10, remaining=5.0, running=True)
    table.stop_clock(turn, now=151.0)
    table.run_clock(turn, now=200.0)  # the grace is spent: it runs on from where it stopped
    assert table.next_deadline() == (204.0, turn)


def test_r25b_a_step_that_starts_while_its_player_is_away_starts_stopped() -> None:
    table = timed(hand=None, discard=10)
    for seat in Seat:
        table.submit(seat, None, lowest_hand(table, seat), now=100.0)
    turn = table.game.turn
    assert turn is not None
    table.stop_clock(turn.other, now=100.0)  # the other player is away, not to move yet
    view = table.game.view(turn)
    table.submit(turn, None, auto_command(view), now=101.0)
    assert table.clocks(120.0)[turn.other] == SeatClock(limit=10, remaining=10.0,
                                                        running=False)
    messages = table.set_presence(turn.other, False, grace_left=30.0, now=120.0)
    assert all(isinstance(m, Presence) and m.clocks == table.clocks(120.0) for m in messages)


def test_r25_at_one_keyboard_a_clock_runs_only_while_its_player_is_there() -> None:
    """Hot-seat: the players build and discard one after the other at one keyboard, so a
    seat's clock waits until its player lifts the curtain; the hand-over is nobody's time."""
    settings = RuleSettings(hand_seconds=30, discard_seconds=10)
    table = GameTable(Game(4, settings), PLAYERS, now=100.0, one_keyboard=True)
    assert table.next_deadline() is None  # behind the first curtain
    assert not any(c.running for c in table.clocks(100.0).values())
    clocks = [m for m in table.at_keyboard(EAST, 105.0) if m.seat is EAST]
    assert len(clocks) == 1 and isinstance(clocks[0], Clocks)
    assert clocks[0].clocks[EAST].remaining == pytest.approx(30.0)
    assert not clocks[0].clocks[WEST].running  # West is not at the keyboard yet
    assert table.at_keyboard(EAST, 110.0) == []  # a redrawn curtain lifted restarts nothing
    assert table.next_deadline() == (135.0, EAST)
    table.submit(EAST, None, lowest_hand(table, EAST), now=120.0)
    assert table.next_deadline() is None  # East's 15 s left over count for nobody
    assert table.expire(1000.0) == []  # West's hand is not played for them behind the curtain
    table.at_keyboard(WEST, 1000.0)
    assert table.next_deadline() == (1030.0, WEST)
    table.submit(WEST, None, lowest_hand(table, WEST), now=1001.0)
    assert table.next_deadline() is None  # East's first discard waits for East
    table.at_keyboard(EAST, 1004.0)
    assert table.next_deadline() == (1014.0, EAST)
    messages = table.expire(1014.0)  # R25: East's clock runs out, the engine discards
    assert any(isinstance(m, Applied) and m.automatic for m in messages)
    assert table.next_deadline() is None  # and the keyboard goes to West, behind the curtain


def test_r25_one_clock_per_seat_as_before_when_the_keyboards_are_two() -> None:
    table = GameTable(Game(4, RuleSettings(hand_seconds=30)), PLAYERS, now=100.0)
    assert not table.one_keyboard and table.at_keyboard(EAST, 101.0) == []
    assert all(c.running for c in table.clocks(101.0).values())

