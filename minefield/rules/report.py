"""Serializable score breakdowns: the shape shared by the analyzer's JSON, game events and views.

>>> from minefield.rules.hand import Hand
>>> from minefield.rules.score import WinContext, analyze
>>> reports = [WaitReport.from_value(v) for v in analyze(Hand.parse("123m456p789s1112z"),
...                                                          WinContext())]
>>> reports[0].tile, reports[0].eligible, reports[0].han, reports[0].fu
('2z', False, 2, 40)
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from minefield.rules.hand import SEQ, group_str
from minefield.rules.score import Score, WaitRow, WinValue
from minefield.rules.tiles import NUM_KINDS, SUIT_KINDS, kind_str


class YakuEntry(BaseModel):
    """One yaku and its han (yakuman count 13 each)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str
    han: int


class WaitReport(BaseModel):
    """What a ron on one wait is worth: R14's verdict and the best reading as paid (R18)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    tile: str
    eligible: bool
    han: int
    fu: int
    points: int
    limit: str | None
    yaku: list[YakuEntry]
    dora: int
    aka: int = 0
    ura: int
    wait: str
    groups: list[str]
    han_without_ura: int
    points_without_ura: int

    @classmethod
    def from_value(cls, value: WinValue) -> WaitReport:
        """Build the report of one scored wait."""
        return cls.model_validate(wait_report_fields(value))


def wait_report_fields(value: WinValue) -> dict[str, Any]:
    """The fields of :meth:`WaitReport.from_value`'s report as plain values, in the model's
    order: what its ``model_dump()`` gives (the ``--jsonl`` tools write it straight to JSON
    without building the model; a test keeps the two the same)."""
    paid: Score = value.paid
    reading = paid.reading
    if reading.form == "regular":
        groups = [_GROUP_TEXT[g] for g in reading.groups]
        groups.append(_PAIR_TEXT[reading.pair])
    else:
        groups = [reading.form]
    basis = value.basis
    return {"tile": _KIND_TEXT[value.tile], "eligible": value.eligible, "han": paid.han,
            "fu": paid.fu, "points": paid.points, "limit": paid.limit,
            "yaku": [{"name": name, "han": han} for name, han in paid.yaku], "dora": paid.dora,
            "aka": paid.aka, "ura": paid.ura, "wait": reading.wait, "groups": groups,
            "han_without_ura": basis.han, "points_without_ura": basis.points}


def wait_row_fields(row: WaitRow) -> dict[str, Any]:
    """:func:`wait_report_fields` of a :class:`~minefield.rules.score.WaitRow` (the same
    wait's :class:`WinValue` gives the same fields; a test keeps them so)."""
    parts = row.parts
    if parts is None:
        groups = [row.form]
    else:
        honor, man, pin, sou = parts
        groups = [_GROUP_TEXT[g] for g in honor.groups + man.groups + pin.groups + sou.groups]
        groups.append(_PAIR_TEXT[row.pair])
    return {"tile": _KIND_TEXT[row.tile], "eligible": row.eligible, "han": row.han,
            "fu": row.fu, "points": row.points, "limit": row.limit,
            "yaku": [{"name": name, "han": han} for name, han in row.yaku], "dora": row.dora,
            "aka": row.aka, "ura": row.ura, "wait": row.wait, "groups": groups,
            "han_without_ura": row.han_without_ura,
            "points_without_ura": row.points_without_ura}


_KIND_TEXT = tuple(kind_str(kind) for kind in range(NUM_KINDS))
_PAIR_TEXT = tuple(text[0] * 2 + text[1] for text in _KIND_TEXT)
_GROUP_TEXT = tuple(group_str(group) if group < NUM_KINDS or (
    group >= SEQ and (group - SEQ) % 9 < 7) else "" for group in range(SEQ + SUIT_KINDS))
"""The text of each group code (see ``SEQ``): ``'555z'``, ``'123m'``."""
