"""R2 in the app: a game without --seed gets 128 unguessable bits; the bot never holds the seed."""

from __future__ import annotations

import re

from minefield.bots import make_bot
from minefield.bots.base import Bot
from minefield.rules.game import Seat
from minefield.rules.seed import derive_int, parse_seed
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.games import GameRequest
from tests.tui.conftest import StandInBot, make_app


async def test_practice_bot_seed_is_derived_from_the_game_seed_not_equal_to_it() -> None:
    seeds: list[int] = []

    def factory(level: str, seed: int) -> Bot:
        seeds.append(seed)
        return StandInBot(level)

    app = make_app(seed=5, seat=Seat.EAST, bot_factory=factory)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
    game_seed = parse_seed(5)
    assert seeds == [derive_int(game_seed, "practice bot")]
    assert seeds[0] != int(game_seed, 16) and f"{seeds[0]:x}" not in game_seed


async def test_a_game_without_a_seed_gets_128_random_bits() -> None:
    app = make_app(seed=None)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app, MinefieldApp) and isinstance(app.session, LocalSession)
        session_text = repr(app.session)
        assert "seed" not in session_text or "hidden" in session_text
        seed = app.session._table.game.seed
        assert re.fullmatch(r"[0-9a-f]{32}", seed)
        assert seed not in repr(app)
        await app.start_game(GameRequest("practice", seat=Seat.EAST))
        await pilot.pause()
        assert isinstance(app.session, LocalSession)  # the new game's session
        again = app.session._table.game.seed
        assert re.fullmatch(r"[0-9a-f]{32}", again) and again != seed


def test_a_bot_s_repr_shows_no_seed() -> None:
    bot = make_bot("strong", seed=123456789)
    assert "123456789" not in repr(bot) and "hidden" in repr(bot)
