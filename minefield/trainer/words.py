"""Drill kinds and patterns in words, as screens and ``minefield stats`` show them (the progress
file and ``stats --json`` keep the codes). No imports beyond the standard library: ``stats``
uses this without loading the drills.
"""

from __future__ import annotations

#: Each kind of drill in words (screens and ``stats`` show these; the progress file and
#: ``stats --json`` keep the codes).
KIND_NAMES: dict[str, str] = {
    "safest": "Safest discard", "read_wait": "Read the wait", "is_mangan": "Mangan or not",
    "safe_hand": "Choose the hand", "from_games": "From my games",
}
#: The patterns in words (a yaku name not listed is shown as itself, spaced).
PATTERN_NAMES: dict[str, str] = {
    "suji_trap": "suji trap", "no_chance_own": "no chance from your own four",
    "passed_suji": "suji of your passed tile", "genbutsu": "genbutsu", "plain": "plain reading",
    "chiitoitsu": "seven pairs", "multi_wait": "three or more waits",
    "kanchan": "kanchan (middle wait)", "penchan": "penchan (edge wait)",
    "tanki": "tanki (pair wait)", "shanpon": "shanpon (two pairs)",
    "ryanmen": "ryanmen (two-sided wait)", "ippatsu": "ippatsu lifts it",
    "houtei": "houtei lifts it", "chiitoitsu_25": "seven pairs at 25 fu",
    "kiriage": "kiriage mangan", "dora": "dora make it", "just_below": "just below mangan",
    "clear": "clearly mangan", "cheap": "far below mangan",
    "no_mangan_wait": "no wait reaches mangan", "noten": "no wait (noten)",
    "seat_wind": "seat wind", "sanshoku_doujun": "sanshoku (sequences)",
    "sanshoku_doukou": "sanshoku (triplets)", "game_discard": "a costly discard of yours",
    "game_build": "your build", "game_wait": "your readable wait",
}


def kind_words(kind: str) -> str:
    """A drill kind as a player reads it.

    >>> kind_words("read_wait"), kind_words("is_mangan")
    ('Read the wait', 'Mangan or not')
    """
    return KIND_NAMES.get(kind, kind.replace("_", " ").capitalize())


def pattern_words(pattern: str) -> str:
    """A drill pattern as a player reads it.

    >>> pattern_words("no_chance_own"), pattern_words("honitsu"), pattern_words("iipeikou")
    ('no chance from your own four', 'honitsu', 'iipeikou')
    """
    return PATTERN_NAMES.get(pattern, pattern.replace("_", " "))


__all__ = ["KIND_NAMES", "PATTERN_NAMES", "kind_words", "pattern_words"]
