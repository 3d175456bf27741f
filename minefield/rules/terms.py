"""What a win is judged by in one game: the win context of a ron (R16, R17, R23) and a match's
terms for the game (R23, R34, R35), with the judgement of a wait (R14, R34, R35)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from minefield.rules.report import WaitReport, YakuEntry
from minefield.rules.score import YAKUMAN_POINTS, WinContext, WinValue, score_win
from minefield.rules.seats import Seat

DISCARDS_PER_SEAT = 17  # R10
TOTAL_DISCARDS = 2 * DISCARDS_PER_SEAT  # R10, R11


def first_discard_of(seat: Seat) -> int:
    """The number (1-34) of ``seat``'s first discard: East discards first (R6, R10)."""
    return 1 if seat is Seat.EAST else 2


def ron_context(winner: Seat, number: int, dora_indicator: int | None = None,
                ura_indicator: int | None = None, dealer: bool = False) -> WinContext:
    """The win context of a ron by ``winner`` on discard ``number`` (1-34): R16 ippatsu on the
    opponent's first discard, R17 houtei on discard 34 (only East can win on it). ``dealer``:
    the winner is paid dealer values (East in a match with ``dealer_bonus``, R23).

    >>> ron_context(Seat.WEST, 1).ippatsu, ron_context(Seat.EAST, 34).houtei
    (True, True)
    """
    return WinContext(seat_wind=winner.wind, ippatsu=number == first_discard_of(winner.other),
                      houtei=number == TOTAL_DISCARDS, dora_indicator=dora_indicator,
                      ura_indicator=ura_indicator, dealer=dealer)


class GameTerms(BaseModel):
    """What one game of a match needs beyond the settings (R23, R34, R35); all off for a
    single game. The match (:mod:`minefield.rules.match`) decides them before each game.

    * ``dealer_bonus``: East, the dealer, is paid dealer values (R23).
    * ``ryanshi``: a win needs two han from yaku (R34), except East's with ``paarenchan``.
    * ``paarenchan``: East's next ron on any wait is eligible and paid as a yakuman (R35).

    >>> GameTerms() == GameTerms(dealer_bonus=False, ryanshi=False, paarenchan=False)
    True
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    dealer_bonus: bool = False
    ryanshi: bool = False
    paarenchan: bool = False


RYANSHI_YAKU_HAN = 2  # R34


def yaku_han(value: WinValue) -> int:
    """The han from yaku (riichi, ippatsu and houtei included; dora, ura, red fives not) of
    the reading R18 picks without ura: what ryanshi judges (R34)."""
    return sum(han for _, han in value.basis.yaku)


def paarenchan_report(value: WinValue, dealer_bonus: bool) -> WaitReport:
    """A paarenchan win (R35): the hand's reading, paid as one yakuman (a dealer's yakuman with
    ``dealer_bonus``, R23), whatever its yaku and dora."""
    points = YAKUMAN_POINTS * (6 if dealer_bonus else 4) // 4
    return WaitReport.from_value(value).model_copy(update={
        "eligible": True, "han": 13, "points": points, "limit": "yakuman",
        "yaku": [YakuEntry(name="paarenchan", han=13)], "dora": 0, "aka": 0, "ura": 0,
        "han_without_ura": 13, "points_without_ura": points})


def judge_wait(value: WinValue, seat: Seat, terms: GameTerms) -> tuple[WaitReport | None, str]:
    """R14, R34, R35: the report of a ron on a wait of ``seat`` worth ``value`` when the win is
    eligible under ``terms``, else None and why not (the end of a furiten cause's sentence).

    >>> from minefield.rules.hand import Hand
    >>> from minefield.rules.tiles import kind_from_str
    >>> value = score_win(Hand.parse("123m456p789s3332z"), kind_from_str("2z"),
    ...                   ron_context(Seat.EAST, 5))
    >>> judge_wait(value, Seat.EAST, GameTerms())[1]
    'worth only 1 han 40 fu without ura, below mangan'
    >>> judge_wait(value, Seat.EAST, GameTerms(paarenchan=True))[0].points
    32000
    """
    if terms.paarenchan and seat is Seat.EAST:  # R35: any complete hand
        return paarenchan_report(value, terms.dealer_bonus), ""
    basis = value.basis
    if not value.eligible:
        return None, f"worth only {basis.han} han {basis.fu} fu without ura, below mangan"
    if terms.ryanshi and (han := yaku_han(value)) < RYANSHI_YAKU_HAN:
        return None, (f"it has only {han} han from yaku: with four or more counter sticks "
                      f"a win needs {RYANSHI_YAKU_HAN} (ryanshi, R34)")
    return WaitReport.from_value(value), ""


__all__ = ["DISCARDS_PER_SEAT", "RYANSHI_YAKU_HAN", "TOTAL_DISCARDS", "GameTerms",
           "first_discard_of", "judge_wait", "paarenchan_report", "ron_context", "score_win",
           "yaku_han"]
