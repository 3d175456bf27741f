"""The pure rules engine of RULES.md: no I/O, no Textual, no asyncio.

>>> from minefield.rules import Hand, WinContext, analyze, kind_str
>>> [kind_str(v.tile) for v in analyze(Hand.parse("123m456p789s1112z"), WinContext())]
['2z']
"""

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

__all__ = [
    "BecameFuriten", "ChooseHand", "Deal", "Discard", "Discarded", "DiscardsBegin",
    "FuritenCause", "Game", "GameEnded", "GameStarted", "Hand", "HandChosen", "IllegalCommand",
    "PlayerView", "Reading", "RuleSettings", "Score", "Seat", "SettingsError", "Tile", "TileError",
    "WaitReport", "WinContext", "WinValue", "YakuEntry", "analyze", "dora_from_indicator",
    "is_complete", "kind_from_str", "kind_str", "kinds_to_str", "parse_command", "parse_tiles",
    "readings", "score_counts", "score_win", "tiles_to_str", "waits",
]
