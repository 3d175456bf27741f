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

from minefield.rules.hand import group_str
from minefield.rules.score import Score, WinValue
from minefield.rules.tiles import kind_str


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
        pair = kind_str(reading.pair)
        groups = [group_str(g) for g in reading.groups] + [pair[0] * 2 + pair[1]]
    else:
        groups = [reading.form]
    basis = value.basis
    return {"tile": kind_str(value.tile), "eligible": value.eligible, "han": paid.han,
            "fu": paid.fu, "points": paid.points, "limit": paid.limit,
            "yaku": [{"name": name, "han": han} for name, han in paid.yaku], "dora": paid.dora,
            "aka": paid.aka, "ura": paid.ura, "wait": paid.wait, "groups": groups,
            "han_without_ura": basis.han, "points_without_ura": basis.points}
