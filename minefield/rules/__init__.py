"""The pure rules engine of RULES.md: no I/O, no Textual, no asyncio.

>>> from minefield.rules import Hand, WinContext, analyze, kind_str
>>> [kind_str(v.tile) for v in analyze(Hand.parse("123m456p789s1112z"), WinContext())]
['2z']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minefield._lazy import lazy_exports

if TYPE_CHECKING:
    from minefield.rules.game import (
        BecameFuriten,
        ChooseHand,
        Discard,
        Discarded,
        DiscardsBegin,
        FuritenCause,
        Game,
        GameEnded,
        GameStarted,
        HandChosen,
        IllegalCommand,
        PlayerView,
        Seat,
        parse_command,
    )
    from minefield.rules.hand import Hand, Reading, is_complete, readings, waits
    from minefield.rules.report import WaitReport, YakuEntry
    from minefield.rules.score import Score, WinContext, WinValue, analyze, score_counts, score_win
    from minefield.rules.settings import RuleSettings, SettingsError
    from minefield.rules.tiles import (
        Tile,
        TileError,
        dora_from_indicator,
        kind_from_str,
        kind_str,
        kinds_to_str,
        parse_tiles,
        tiles_to_str,
    )
    from minefield.rules.wall import Deal

#: Each exported name and its module, imported when the name is first used (PEP 562).
_EXPORTS = {
    "BecameFuriten": "minefield.rules.game",
    "ChooseHand": "minefield.rules.game",
    "Discard": "minefield.rules.game",
    "Discarded": "minefield.rules.game",
    "DiscardsBegin": "minefield.rules.game",
    "FuritenCause": "minefield.rules.game",
    "Game": "minefield.rules.game",
    "GameEnded": "minefield.rules.game",
    "GameStarted": "minefield.rules.game",
    "HandChosen": "minefield.rules.game",
    "IllegalCommand": "minefield.rules.game",
    "PlayerView": "minefield.rules.game",
    "Seat": "minefield.rules.game",
    "parse_command": "minefield.rules.game",
    "Hand": "minefield.rules.hand",
    "Reading": "minefield.rules.hand",
    "is_complete": "minefield.rules.hand",
    "readings": "minefield.rules.hand",
    "waits": "minefield.rules.hand",
    "WaitReport": "minefield.rules.report",
    "YakuEntry": "minefield.rules.report",
    "Score": "minefield.rules.score",
    "WinContext": "minefield.rules.score",
    "WinValue": "minefield.rules.score",
    "analyze": "minefield.rules.score",
    "score_counts": "minefield.rules.score",
    "score_win": "minefield.rules.score",
    "RuleSettings": "minefield.rules.settings",
    "SettingsError": "minefield.rules.settings",
    "Tile": "minefield.rules.tiles",
    "TileError": "minefield.rules.tiles",
    "dora_from_indicator": "minefield.rules.tiles",
    "kind_from_str": "minefield.rules.tiles",
    "kind_str": "minefield.rules.tiles",
    "kinds_to_str": "minefield.rules.tiles",
    "parse_tiles": "minefield.rules.tiles",
    "tiles_to_str": "minefield.rules.tiles",
    "Deal": "minefield.rules.wall",
}
if not TYPE_CHECKING:  # type checkers read the imports above
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "BecameFuriten", "ChooseHand", "Deal", "Discard", "Discarded", "DiscardsBegin",
    "FuritenCause", "Game", "GameEnded", "GameStarted", "Hand", "HandChosen", "IllegalCommand",
    "PlayerView", "Reading", "RuleSettings", "Score", "Seat", "SettingsError", "Tile", "TileError",
    "WaitReport", "WinContext", "WinValue", "YakuEntry", "analyze", "dora_from_indicator",
    "is_complete", "kind_from_str", "kind_str", "kinds_to_str", "parse_command", "parse_tiles",
    "readings", "score_counts", "score_win", "tiles_to_str", "waits",
]
