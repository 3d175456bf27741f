"""The rules are shown as the player chose them (RULES.md "Rule presets"), never guessed back
from the settings when the preset is known: the header's line of a local game and of a network
game, and the replay's. Without the preset (an older record, an older server) the nearest
preset is named, as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from minefield.protocol.messages import RulesChosen
from minefield.records.header import Players
from minefield.records.reader import read_record
from minefield.records.writer import RecordWriter
from minefield.rules.game import Game, Seat
from minefield.rules.settings import RuleSettings
from minefield.server.connection import Connection
from minefield.server.kept_games import rules_name
from minefield.session import LocalSession
from minefield.session.remote_start import host
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.games import GameRequest
from minefield.tui.screens.replay import rules_text
from tests.server.conftest import make_config, short_dir, start_daemon  # noqa: F401
from tests.tui.conftest import StandInBot, settle, stand_in
from tests.waiting import until


def app_with(request: GameRequest, folder: Path | None = None) -> MinefieldApp:
    return MinefieldApp(request, think_seconds=0, bot_factory=stand_in, catch_errors=False,
                        preferences=Preferences(hint="off"), record_folder=folder)


async def test_the_standard_preset_with_beginners_minimum_is_custom_not_beginner(
        tmp_path: Path) -> None:
    """``practice --rules standard --rule minimum=none``: the settings equal the beginner
    preset's (R14), but the player chose custom rules: the header and the record say so."""
    app = app_with(GameRequest("practice", seed=1, seat=Seat.EAST, rules="standard",
                               rule=("minimum=none",)), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.session is not None
        assert app.session.settings == RuleSettings.preset("beginner")
        assert app.sub_title.endswith(" · custom rules"), app.sub_title
    header = read_record(next(tmp_path.glob("*.jsonl"))).header
    assert header.preset == "standard"
    assert rules_text(header.rules, header.preset) == "custom rules: minimum value none"
    assert rules_name(header) == "standard minimum=none"


async def test_a_preset_with_its_rule_changed_back_is_custom_not_standard() -> None:
    """``hotseat --rules beginner --rule minimum=mangan``: the standard preset's settings,
    chosen as the beginner preset changed."""
    app = app_with(GameRequest("hotseat", seed=1, rules="beginner", rule=("minimum=mangan",)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.session is not None and app.session.settings == RuleSettings()
        assert app.sub_title == "Hot-seat · custom rules"


async def test_a_session_that_does_not_say_its_preset_is_guessed_as_before() -> None:
    app = MinefieldApp(preferences=Preferences(hint="off"), catch_errors=False)
    session = LocalSession.practice(seed=1, bot=StandInBot(), human=Seat.EAST,
                                    settings=RuleSettings(minimum="none"), think_seconds=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.play(session)
        await settle(pilot)
        assert app.sub_title.endswith(" · beginner rules"), app.sub_title


def test_the_replay_names_the_chosen_preset_and_an_old_record_the_nearest(
        tmp_path: Path) -> None:
    """A record written with the preset, then the same header without the key (as records
    older than it are): it still reads, and the replay and the games list name the nearest
    preset for it as they always did."""
    game = Game(seed=1, settings=RuleSettings())
    writer = RecordWriter.start(game, "hotseat", Players(east="a", west="b"), tmp_path,
                                preset="beginner")
    writer.close()
    path = next(tmp_path.glob("*.jsonl"))
    header = read_record(path).header
    assert header.preset == "beginner"
    assert rules_text(header.rules, header.preset) == (
        "custom rules: beginner with minimum value mangan")
    assert rules_name(header) == "beginner minimum=mangan"
    old = json.loads(path.read_text())
    del old["preset"]
    path.write_text(json.dumps(old) + "\n")
    header = read_record(path).header
    assert header.preset is None
    assert rules_text(header.rules, header.preset) == "standard rules"
    assert rules_name(header) == "standard"


async def network_subtitle(socket: Path) -> str:
    """The header's line of a room hosted with ``--rules standard --rule minimum=none``,
    waiting for its second player."""
    session = await host(socket=socket, player="alice", rules="standard",
                         rule={"minimum": "none"})
    app = MinefieldApp(session=session, preferences=Preferences(hint="off"),
                       catch_errors=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: "rules" in app.sub_title, "the header's rules")
        await pilot.pause()
        title = app.sub_title
    return title


async def test_a_network_room_shows_the_preset_its_server_says(
        short_dir: Path) -> None:  # noqa: F811
    daemon = await start_daemon(short_dir)
    try:
        title = await network_subtitle(make_config(short_dir).socket)
    finally:
        await daemon.stop()
    assert title.startswith("Room ") and title.endswith(" · custom rules"), title


async def test_a_server_older_than_the_rules_line_leaves_the_client_to_guess(
        short_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    send = Connection.send

    def old_server_send(self: Connection, message: BaseModel) -> None:
        if not isinstance(message, RulesChosen):  # an older server has no such line
            send(self, message)

    monkeypatch.setattr(Connection, "send", old_server_send)
    daemon = await start_daemon(short_dir)
    try:
        title = await network_subtitle(make_config(short_dir).socket)
    finally:
        await daemon.stop()
    assert title.startswith("Room ") and title.endswith(" · beginner rules"), title
