"""The replay viewer (``minefield replay FILE``): steps, perspectives (R26, R27), the end,
unfinished records, notices, help, and the command line around it.

Records are games played by two normal bots (seeds below), written to a temporary folder.
Regenerate the snapshot with ``pytest tests/tui/test_replay.py --snapshot-update`` only after
looking at it (snapshot_report.html).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.dom import DOMNode
from textual.pilot import Pilot
from textual.widgets import Label, Markdown

from minefield.bots.levels import make_bot
from minefield.bots.simulate import play_game
from minefield.cli import main
from minefield.cli import records as records_cli
from minefield.records.header import Players
from minefield.records.reader import read_record
from minefield.records.replay import replay_record
from minefield.records.writer import write_game
from minefield.rules.game import Discard, Game, Seat
from minefield.rules.names import tile_name
from minefield.rules.tiles import Tile, parse_tiles
from minefield.tui.config import Preferences
from minefield.tui.replay_app import ReplayApp
from minefield.tui.screens.help import HelpScreen
from minefield.tui.screens.replay import ReplayScreen, replay_steps
from minefield.tui.widgets.panels import DeadWall, DiscardRow
from minefield.tui.widgets.replay import SeatTiles
from minefield.tui.widgets.tiles import TileRow, TileWidget
from tests.tui.conftest import screen_text

#: Normal bots (seeds ``seed`` and ``seed + 100``): East wins 12000 by ron on discard 20.
RON_SEED = 2
RON_DISCARDS, RON_POINTS = 20, 12000
#: Normal bots: an exhaustive draw; East becomes furiten on discard 28 (a passed wait, R15b).
FURITEN_SEED = 25
FURITEN_AT = 28
STARTED = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
PLAYERS = Players(east="Ann", west="Bot normal")


def played(seed: int) -> Game:
    """The seeded game played to its end by two normal bots."""
    game = Game(seed)
    play_game(game, make_bot("normal", seed), make_bot("normal", seed + 100))
    return game


def record_file(folder: Path, seed: int, commands: int | None = None,
                players: Players = PLAYERS) -> Path:
    """The record of ``seed``'s game, whole or of its first ``commands`` commands."""
    game = played(seed)
    if commands is not None:
        game = Game.replay(game.seed, game.settings, game.commands[:commands])
    return write_game(game, "practice", players, folder, clock=lambda: STARTED)


def viewer(path: Path, **preferences: Any) -> ReplayApp:
    """The viewer of the record at ``path``, with default preferences (and these)."""
    record = read_record(path)
    return ReplayApp(record, replay_record(record), preferences=Preferences(**preferences))


def game_at(path: Path, discards: int) -> Game:
    """The record's game replayed independently up to its discard number ``discards``."""
    record = read_record(path)
    game = Game(record.header.seed, record.header.rules)
    for line in record.commands:
        if isinstance(line.command, Discard) and game.discard_count == discards:
            break
        game.apply(line.seat, line.command)
    return game


def screen_of(app: ReplayApp) -> ReplayScreen:
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


def shown(widget: Any) -> list[Tile]:
    """The face-up tiles a widget renders, in order (empty places and hidden rows left out)."""
    return [place.tile for place in widget.query(TileWidget)
            if place.tile is not None and not place.face_down and place.parent.display
            and place.parent.parent.display]


def panel_tiles(app: ReplayApp) -> Counter[str]:
    """Every face-up tile in the seat panels (hands, pools, 34 tiles), as a multiset."""
    return Counter(str(tile) for panel in app.screen.query(SeatTiles) for tile in shown(panel))


def open_tiles(game: Game, seat: Seat) -> Counter[str]:
    """What ``seat`` itself sees of its tiles: hand and pool, or its 34 tiles."""
    view = game.view(seat)
    text = view.own_hand + view.own_pool if view.own_hand else view.own_tiles
    return Counter(str(tile) for tile in parse_tiles(text))


def discards_shown(app: ReplayApp, seat: Seat) -> list[str]:
    for row in app.screen.query(DiscardRow):
        if seat.value.title() in row_title(row):
            return [str(tile) for tile in row.query_one(TileRow).tiles]
    raise AssertionError(f"no discard row for {seat}")


def row_title(row: Any) -> str:
    """The text of a row's title (its labels)."""
    return " ".join(str(label.render()) for label in row.query(Label))


def latest_marked(app: ReplayApp) -> list[str]:
    return [str(place.tile) for row in app.screen.query(DiscardRow)
            for place in row.query(TileWidget) if place.has_class("-latest")]


# -- steps --------------------------------------------------------------------------------------

def test_steps_are_the_game_replayed_discard_by_discard(tmp_path: Path) -> None:
    path = record_file(tmp_path, RON_SEED)
    record = read_record(path)
    steps = replay_steps(record.header, record.commands)
    assert [step.discards for step in steps] == list(range(RON_DISCARDS + 1))
    for step in (steps[0], steps[7], steps[-1]):
        game = game_at(path, step.discards)
        assert step.views == {seat: game.view(seat) for seat in Seat}
    assert "tiles hidden" in repr(steps[3]) and "hand" not in repr(steps[3])


async def test_stepping_forward_and_back_and_jumping(tmp_path: Path) -> None:
    path = record_file(tmp_path, RON_SEED)
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # A finished game opens at its start.
        assert "The hands are chosen · step 0/20" in screen_text(app)
        assert discards_shown(app, Seat.EAST) == [] == latest_marked(app)
        for key, step in (("right", 1), ("n", 2), ("space", 3), ("left", 2), ("p", 1),
                          ("right", 2), ("end", RON_DISCARDS), ("right", RON_DISCARDS),
                          ("home", 0), ("left", 0), ("right", 1)):
            await pilot.press(key)
            await pilot.pause()
            assert screen_of(app).step == step, key
            assert f"step {step}/{RON_DISCARDS}" in screen_text(app)
            game = game_at(path, step)
            if step:  # the caption says who discarded what (East first, R10)
                seat = Seat.EAST if step % 2 else Seat.WEST
                tile = tile_name(Tile.parse(game.view(seat).discards[seat][-1]), "letters")
                who = "Ann (East)" if seat is Seat.EAST else "Bot normal (West)"
                assert f"{who} discards {tile} · step {step}/" in screen_text(app)
            view = game.view(Seat.EAST)
            for seat in Seat:
                assert discards_shown(app, seat) == view.discards[seat]
            last = [command.tile for _, command in game.commands[-1:]
                    if isinstance(command, Discard)]
            assert latest_marked(app) == last  # one mark: the game's latest discard


# -- perspectives (R26, R27) --------------------------------------------------------------------

async def test_each_seat_sees_only_its_own_tiles_until_the_end(tmp_path: Path) -> None:
    """From one seat the other hand and pool stay face down (R26); both shows both; the end
    reveals everything from either seat."""
    path = record_file(tmp_path, RON_SEED)
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(6):
            await pilot.press("right")
        await pilot.pause()
        game = game_at(path, 6)
        east, west = open_tiles(game, Seat.EAST), open_tiles(game, Seat.WEST)
        assert panel_tiles(app) == east
        assert "Bot normal): hand ▒▒×13 and pool ▒▒×18 face down" in screen_text(app)
        await pilot.press("w")
        await pilot.pause()
        assert panel_tiles(app) == west
        assert "Ann): hand ▒▒×13 and pool ▒▒×18 face down" in screen_text(app)
        await pilot.press("b")
        await pilot.pause()
        assert panel_tiles(app) == east + west
        assert "face down" not in screen_text(app)
        for key, expected in (("tab", east), ("tab", west), ("tab", east + west),
                              ("e", east)):
            await pilot.press(key)
            await pilot.pause()
            assert panel_tiles(app) == expected, key
        await pilot.press("end")
        await pilot.pause()
        end = played(RON_SEED)
        hands = {seat: parse_tiles(str(end.hand_of(seat))) for seat in Seat}
        for key in ("e", "w"):
            await pilot.press(key)
            await pilot.pause()
            panels = list(app.screen.query(SeatTiles))
            assert {tuple(shown(panel.query_one(".replay-hand"))) for panel in panels} == {
                tuple(hands[Seat.EAST]), tuple(hands[Seat.WEST])}
            assert "face down" not in screen_text(app)


async def test_a_seats_new_look_restyles_its_tiles_once(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat panel turning from face down to open (``b``: both hands) or back (``e``) gets its
    look's classes at once: the panel and its 68 tile places are restyled once, not once per
    class changed, and each panel shows what it should."""
    restyled: list[object] = []
    update_styles = App.update_styles

    def counted(app: App[Any], node: DOMNode, animate: bool = True) -> None:
        if isinstance(node, SeatTiles):
            restyled.append(node)
        update_styles(app, node, animate)

    path = record_file(tmp_path, RON_SEED)
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(6):
            await pilot.press("right")
        await pilot.pause()
        game = game_at(path, 6)
        east, west = open_tiles(game, Seat.EAST), open_tiles(game, Seat.WEST)
        monkeypatch.setattr(App, "update_styles", counted)
        for key, expected, changed in (("b", east + west, 1), ("e", east, 1), ("e", east, 0)):
            restyled.clear()
            await pilot.press(key)
            await pilot.pause()
            assert panel_tiles(app) == expected, key
            assert len(restyled) == changed, key  # West's panel: -hidden to -open, and back


async def test_a_seat_sees_its_own_furiten_with_its_cause(tmp_path: Path) -> None:
    path = record_file(tmp_path, FURITEN_SEED)
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(FURITEN_AT - 1):
            await pilot.press("right")
        await pilot.pause()
        assert "East: waits" in screen_text(app) and "FURITEN" not in screen_text(app)
        await pilot.press("right")
        await pilot.pause()
        cause = game_at(path, FURITEN_AT).furiten_of(Seat.EAST)
        assert cause is not None and cause.discard_number == FURITEN_AT
        note = str(app.screen.query_one("#near-seat .seat-note").render())
        assert f"FURITEN since discard {FURITEN_AT}: {cause.detail}" in note.replace("\n", " ")
        assert app.screen.query_one("#near-seat").has_class("-new")
        await pilot.press("w")  # West does not see East's furiten (R26)
        await pilot.pause()
        assert "FURITEN" not in screen_text(app)
        await pilot.press("b", "right")
        await pilot.pause()
        assert "FURITEN since discard 28" in screen_text(app)
        assert not app.screen.query_one("#near-seat").has_class("-new")


# -- the end ------------------------------------------------------------------------------------

def wall_rows(app: ReplayApp) -> list[str]:
    return str(app.screen.query_one(DeadWall).render()).splitlines()


async def test_the_end_shows_the_breakdown_and_the_ura_indicator(tmp_path: Path) -> None:
    path = record_file(tmp_path, RON_SEED)
    record = read_record(path)
    assert record.result is not None
    result = record.result.result
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "▒▒ ▒▒ ▒▒ ▒▒ ▒▒ ▒▒ ▒▒" in wall_rows(app)[2]  # no ura before the end
        assert not app.screen.query_one("#replay-end").display
        await pilot.press("end")
        await pilot.pause()
        end = app.screen.query_one("#replay-end")
        assert end.display
        text = str(end.render())
        assert result.points == RON_POINTS
        assert f"{result.points} points" in text and f"{result.han} han {result.fu} fu" in text
        assert "Ron! Ann (East) wins on Bot normal (West)'s" in text
        for yaku in result.yaku:
            assert yaku.name.replace("_", " ") in text
        ura = tile_name(Tile.parse(record.result.deal.ura_indicator), "letters")
        assert ura in wall_rows(app)[2]  # by the honor's name (the default setting)
        await pilot.press("left")
        await pilot.pause()
        assert "▒▒ ▒▒ ▒▒ ▒▒ ▒▒ ▒▒ ▒▒" in wall_rows(app)[2]  # hidden again
        assert not app.screen.query_one("#replay-end").display


async def test_a_draw_says_so(tmp_path: Path) -> None:
    app = viewer(record_file(tmp_path, FURITEN_SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        assert "Draw: 34 discards without a win (R11)" in screen_text(app)
        assert "step 34/34 · the end" in screen_text(app)


async def test_keys_pressed_fast_leave_one_wall(tmp_path: Path) -> None:
    app = viewer(record_file(tmp_path, RON_SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end", "left", "end", "left", "end")
        await pilot.pause()
        assert len(app.screen.query(DeadWall)) == 1
        assert "Ron!" in screen_text(app)


# -- unfinished records, notices ----------------------------------------------------------------

async def test_an_unfinished_record_opens_at_its_last_step(tmp_path: Path) -> None:
    path = record_file(tmp_path, RON_SEED, commands=2 + 7)
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert screen_of(app).step == 7
        assert "step 7/7 · unfinished" in screen_text(app)
        assert panel_tiles(app) == open_tiles(game_at(path, 7), Seat.EAST)
        await pilot.press("right")
        await pilot.pause()
        assert screen_of(app).step == 7


@pytest.mark.parametrize("commands", [0, 1])
async def test_a_record_before_the_hands_are_chosen_shows_the_34_tiles(
        tmp_path: Path, commands: int) -> None:
    path = record_file(tmp_path, RON_SEED, commands=commands)
    game = game_at(path, 0)
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "choosing the hands · unfinished" in text
        assert panel_tiles(app) == open_tiles(game, Seat.EAST)
        assert "Bot normal): 34 tiles face down, choosing a hand" in text
        if commands == 0:
            assert sum(panel_tiles(app).values()) == 34
        await pilot.press("b")
        await pilot.pause()
        assert panel_tiles(app) == open_tiles(game, Seat.EAST) + open_tiles(game, Seat.WEST)
        assert sum(panel_tiles(app).values()) == 2 * 34


async def test_problems_of_the_reader_show_as_a_notice(tmp_path: Path) -> None:
    path = record_file(tmp_path, RON_SEED, commands=5)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([*lines[:3], b"not json\n", *lines[3:]]))
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        notice = app.screen.query_one("#replay-notice")
        assert notice.display
        assert "Notice: 1 problem in this record: line 4: not JSON" in str(notice.render())
        assert "step 3/3" in screen_text(app)  # the good lines are all kept


async def test_names_and_problems_show_as_written(tmp_path: Path) -> None:
    """Names and quoted lines are text, never markup."""
    path = record_file(tmp_path, RON_SEED, players=Players(east="[b]Ann", west="Bot [/]"))
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([*lines[:3], b'{"seq": 3, "[red]x": 1}\n', *lines[3:]]))
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        text = screen_text(app)
        assert "[b]Ann (East) vs Bot [/] (West)" in text  # the header
        assert "[b]Ann" in row_title(app.screen.query_one("#near-discards"))
        assert "Ron! [b]Ann (East) wins on Bot [/] (West)'s" in str(
            app.screen.query_one("#replay-end").render())
        assert "'[red]x'" in str(app.screen.query_one("#replay-notice").render())


async def test_a_clean_record_has_no_notice(tmp_path: Path) -> None:
    app = viewer(record_file(tmp_path, RON_SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#replay-notice").display


# -- the app: style, help, quitting, reprs ------------------------------------------------------

async def test_the_tile_style_preference_applies(tmp_path: Path) -> None:
    app = viewer(record_file(tmp_path, RON_SEED), tile_style="text")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.has_class("-tiles-text") and not app.has_class("-tiles-box")
        tile = next(t for t in app.screen.query(TileWidget) if t.tile is not None)
        assert tile.size.height == 1


async def test_help_lists_the_keys_and_q_quits(tmp_path: Path) -> None:
    app = viewer(record_file(tmp_path, RON_SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = app.screen.query_one(Markdown).source
        for description in ("Next discard", "Back", "Start", "End", "East/West/both",
                            "From East's seat", "From West's seat", "Both hands open", "Quit",
                            "Help"):
            assert f"| {description} |" in keys
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


async def test_a_step_number_typed_and_enter_jumps_there(tmp_path: Path) -> None:
    path = record_file(tmp_path, RON_SEED)
    app = viewer(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("1", "2")
        await pilot.pause()
        assert screen_of(app).step == 0 and "go to step 12: Enter" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert screen_of(app).step == 12 and "step 12/20" in screen_text(app)
        assert discards_shown(app, Seat.WEST) == game_at(path, 12).view(Seat.EAST).discards[
            Seat.WEST]
        await pilot.press("9", "9", "enter")  # past the end: said, and nothing moves
        await pilot.pause()
        assert screen_of(app).step == 12 and "There is no step 99" in screen_text(app)
        await pilot.press("3", "escape")  # Escape forgets a number: the viewer stays
        await pilot.pause()
        assert app.is_running and "go to step" not in screen_text(app)
        await pilot.press("0", "enter")
        await pilot.pause()
        assert screen_of(app).step == 0


async def test_reprs_hide_the_tiles(tmp_path: Path) -> None:
    app = viewer(record_file(tmp_path, RON_SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        reprs = [repr(app), repr(app.screen), *(repr(p) for p in app.screen.query(SeatTiles))]
        for text in reprs:
            assert "tiles hidden" in text and "Tile" not in text.replace("SeatTiles", "")


# -- the command line ---------------------------------------------------------------------------

def test_a_bad_file_exits_2_before_any_ui(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    def no_ui(self: ReplayApp, *args: object, **kwargs: object) -> None:
        raise AssertionError("the viewer started")

    monkeypatch.setattr(ReplayApp, "run", no_ui)
    monkeypatch.setattr(records_cli, "_terminal_attached", lambda: True)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"[[[[\n")
    assert main(["replay", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"minefield: {bad}: line 1: ")
    inconsistent = record_file(tmp_path, RON_SEED)
    inconsistent.write_bytes(inconsistent.read_bytes().replace(b'"points":12000',
                                                               b'"points":9000'))
    assert main(["replay", str(inconsistent)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "inconsistent record" in err


def test_a_good_file_opens_the_viewer(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self, *a, **k: opened.append(self))
    monkeypatch.setattr(records_cli, "_terminal_attached", lambda: True)
    path = record_file(tmp_path, RON_SEED)
    assert main(["replay", str(path)]) == 0
    assert len(opened) == 1
    assert capsys.readouterr() == ("", "")
    assert main(["replay", str(path), "--json"]) == 0  # --json never opens it
    assert len(opened) == 1 and '"points":12000' in capsys.readouterr().out


def test_without_a_terminal_the_viewer_says_so(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records_cli, "_terminal_attached", lambda: False)
    path = record_file(tmp_path, RON_SEED)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"minefield: {path}: the replay viewer needs a terminal "
                                 "(--json prints the result)\n")


# -- snapshot -----------------------------------------------------------------------------------

def test_replay_80x24(snap_compare: Any, tmp_path: Path) -> None:
    """East's seat at the discard that made East furiten: both rows, the latest discard marked,
    East's hand and pool, the cause, West face down."""
    app = viewer(record_file(tmp_path, FURITEN_SEED))

    async def to_furiten(pilot: Pilot[Any]) -> None:
        await pilot.press("end", *["left"] * (34 - FURITEN_AT))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=to_furiten)
