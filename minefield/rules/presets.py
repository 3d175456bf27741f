"""The rule presets of RULES.md: each a name and the settings it changes from the defaults.

Kept apart from :mod:`minefield.rules.settings` (and pydantic) so that the command line can
offer the names without loading the rules (:class:`~minefield.rules.settings.RuleSettings`
builds a preset).

>>> list(PRESETS)
['standard', 'beginner', 'match', 'club']
"""

from __future__ import annotations

from typing import Any

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "beginner": {"minimum": "none"},
    "match": {"dealer_bonus": True},
    # The Dutch club's match (RULES.md presets): sticks and noten payment are said outright so
    # that the club's rule holds whatever the defaults become.
    "club": {"dealer_bonus": True, "ryanshi": True, "paarenchan": True,
             "honba_points": 1000, "noten_payment": 1000},
}
#: The presets that are matches (R30): choosing one plays a match.
MATCH_PRESETS = ("match", "club")
