"""The fitted constants of the fast estimate (:mod:`minefield.defense.fast`), per opponent.

The numbers are data shipped in the package (``danger_fit.json`` beside this module), written
by ``python benchmarks/fit_danger.py --write`` from bot games; do not edit them by hand, re-run
the script. Each opponent level (``easy``, ``normal``, ``strong``: the bot the seat plays
against) has its own fit, because the levels choose their hands differently and so wait on
different tiles; a ``person`` is a blend of the levels' chances (:data:`PERSON_BLEND`).

>>> sorted(FITS)
['easy', 'normal', 'strong']
>>> len(FITS["strong"].danger) == len(DANGER_FEATURES)
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from typing import Literal, get_args

#: Whom the seat plays against: a bot of a level, or a person.
Opponent = Literal["easy", "normal", "strong", "person"]
OPPONENTS: tuple[Opponent, ...] = get_args(Opponent)
DEFAULT_OPPONENT: Opponent = "strong"
FitLevel = Literal["easy", "normal", "strong"]

#: The suit reading's inputs (:class:`minefield.defense.fast.SuitReading`), the last
#: of :data:`DANGER_FEATURES`.
SUIT_FEATURES = ("suit_deficit", "suit_gap", "suit_margin", "honor_flush", "dora_suit_deficit",
                 "suit_unseen")
#: The danger mapping's inputs, in the order of each fit's ``danger`` coefficients.
DANGER_FEATURES = (
    "intercept", "log_share", "discard_number", "honor", "killed", "bonus_han", "full_suji",
    "half_suji", "dora", "near_dora", "suit_share", "recent_suit_share", "dora_unseen",
    "central", "ryanmen_live", "edge_live", "copies_unseen", *SUIT_FEATURES,
)
#: The opponent-furiten mapping's inputs.
FURITEN_FEATURES = ("intercept", "discard_number", "passed_killed")
VALUE_CATEGORIES = ("dora", "near_dora", "other")
DATA_FILE = "danger_fit.json"


@dataclass(frozen=True)
class LevelFit:
    """One opponent level's constants: logistic coefficients for the danger of a live kind
    and for the opponent being furiten, the mean points of an eligible ron (ura included) by
    where the winning tile sits, and the lift of ippatsu (R16) or houtei (R17)."""

    danger: tuple[float, ...]
    furiten: tuple[float, ...]
    mean_ron_points: dict[str, float]
    bonus_han_value_factor: float


def _load() -> tuple[str, dict[FitLevel, LevelFit], dict[FitLevel, float], tuple[float, ...]]:
    """Read and check the shipped data (a wrong file is a packaging bug: fail loudly)."""
    data = json.loads((files("minefield.defense") / DATA_FILE).read_text(encoding="utf-8"))
    if tuple(data["danger_features"]) != DANGER_FEATURES or tuple(
            data["furiten_features"]) != FURITEN_FEATURES:
        raise RuntimeError(f"{DATA_FILE} was fitted on other features: re-run fit_danger.py")
    fits: dict[FitLevel, LevelFit] = {}
    for level in get_args(FitLevel):
        raw = data["levels"][level]
        fit = LevelFit(danger=tuple(float(c) for c in raw["danger"]),
                       furiten=tuple(float(c) for c in raw["furiten"]),
                       mean_ron_points={k: float(raw["mean_ron_points"][k])
                                        for k in VALUE_CATEGORIES},
                       bonus_han_value_factor=float(raw["bonus_han_value_factor"]))
        if len(fit.danger) != len(DANGER_FEATURES) or len(fit.furiten) != len(
                FURITEN_FEATURES):
            raise RuntimeError(f"{DATA_FILE}: {level} has the wrong number of coefficients")
        fits[level] = fit
    blend: dict[FitLevel, float] = {level: float(data["person_blend"].get(level, 0.0))
                                    for level in get_args(FitLevel)}
    if abs(sum(blend.values()) - 1.0) > 1e-6:
        raise RuntimeError(f"{DATA_FILE}: the person blend's weights do not add up to 1")
    bot = tuple(float(c) for c in data["bot_danger"])
    if len(bot) != len(DANGER_FEATURES):
        raise RuntimeError(f"{DATA_FILE}: the bot's read has the wrong number of coefficients")
    return str(data["fit"]), fits, blend, bot


#: How the constants were fitted (games, seed, hold-out), as the script wrote it.
FIT: str
#: The constants of each opponent level.
FITS: dict[FitLevel, LevelFit]
#: A person's chances: the levels' chances weighted by these shares (they add up to 1).
PERSON_BLEND: dict[FitLevel, float]
#: The strong bot's own read: danger coefficients fitted on the ``normal`` and ``strong`` games
#: together (the bot cannot know whom it plays), used by its discards only
#: (:func:`minefield.defense.fast.bot_dangers`); every screen shows the per-level estimates.
BOT_DANGER: tuple[float, ...]
FIT, FITS, PERSON_BLEND, BOT_DANGER = _load()

__all__ = ["BOT_DANGER", "DANGER_FEATURES", "DEFAULT_OPPONENT", "FIT", "FITS", "FURITEN_FEATURES",
           "OPPONENTS", "PERSON_BLEND", "SUIT_FEATURES", "FitLevel", "LevelFit", "Opponent"]
