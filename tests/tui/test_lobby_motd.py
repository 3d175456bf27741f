"""The lobby shows the server's message of the day (its admins', ``ssh HOST motd TEXT``)
above the players, as typed (brackets are text, not markup), and drops it when cleared."""

from __future__ import annotations

from minefield.protocol.lobby import Motd
from minefield.tui.lobby_app import LobbyApp
from tests.tui.conftest import screen_text, settle
from tests.tui.test_lobby_app import STATE, scripted


async def test_the_message_of_the_day_is_shown_above_the_players_until_cleared() -> None:
    states, _, more = scripted(STATE, Motd(text="[b]Club night[/b]: Friday (8pm)!"))
    app = LobbyApp(states)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lines = screen_text(app).splitlines()
        shown = [i for i, line in enumerate(lines) if "[b]Club night[/b]: Friday (8pm)!" in line]
        assert shown, "\n".join(lines)
        assert lines[shown[0] + 1].strip().startswith("Online (4): Ann 1662 (waiting)")
        more.put_nowait(Motd(text=None))
        await pilot.pause(0.2)
        await settle(pilot)
        text = screen_text(app)
        assert "Club night" not in text and "Online (4): Ann 1662" in text
