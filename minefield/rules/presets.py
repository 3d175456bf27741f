"""The rule presets of RULES.md: each a name and the settings it changes from the defaults.

Kept apart from :mod:`minefield.rules.settings` (and pydantic) so that the command line can
offer the names without loading the rules (:class:`~minefield.rules.settings.RuleSettings`
builds a preset).

>>> list(PRESETS)
['standard', 'beginner', 'match']
"""

from __future__ import annotations

from typing import Any

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "beginner": {"minimum": "none"},
    "match": {"dealer_bonus": True},
}
