"""SVG snapshots of a match at 80x24: the table with the scoreboard over it, and a result with
the scoreboard and the payments in words (R31, R32).

Regenerate with ``pytest tests/tui/test_match_snapshots.py --snapshot-update`` only after
looking at the new SVGs.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from minefield.rules.tiles import parse_tiles
from minefield.tui.app import MinefieldApp
from tests.tui.test_match import (
    LOSER,
    WINNER,
    app_for,
    deal,
    prepared_match,
    ron_on_the_first_discards,
)


def test_match_result_80x24(snap_compare: Any) -> None:
    """The dealer's second ron: paid 12000 + 1 counter stick x 1000, the scoreboard above."""

    async def two_rons(pilot: Pilot[Any]) -> None:
        assert isinstance(pilot.app, MinefieldApp)
        await pilot.app.play(prepared_match(deal(WINNER, LOSER), deal(WINNER, LOSER)))
        await pilot.pause()
        await ron_on_the_first_discards(pilot, east_wins=True)
        await pilot.press("n")
        await pilot.pause()
        await ron_on_the_first_discards(pilot, east_wins=True)

    assert snap_compare(app_for(), terminal_size=(80, 24), run_before=two_rons)


def test_match_table_80x24(snap_compare: Any) -> None:
    """The table in a match: one scoreboard line between the header and the table."""

    async def to_the_table(pilot: Pilot[Any]) -> None:
        assert isinstance(pilot.app, MinefieldApp)
        await pilot.app.play(prepared_match(deal(WINNER, LOSER)))
        await pilot.pause()
        for hand in ("123456789m1199p", "123456789m2345p"):
            await pilot.press("enter")  # the curtain
            await pilot.pause()
            for key in "".join(str(tile) for tile in parse_tiles(hand)):
                await pilot.press(key)
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("enter")  # East at the keyboard, its turn
        await pilot.pause()

    assert snap_compare(app_for(), terminal_size=(80, 24), run_before=to_the_table)
