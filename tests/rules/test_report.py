"""Score breakdowns as plain fields (minefield/rules/report.py)."""

from __future__ import annotations

import random

from minefield.rules.hand import Hand
from minefield.rules.random_hands import random_case
from minefield.rules.report import WaitReport, wait_report_fields, wait_row_fields
from minefield.rules.score import WinContext, analyze, analyze_rows, make_situation
from minefield.rules.settings import PRESETS, RuleSettings


def test_rows_give_the_fields_of_the_values() -> None:
    """``analyze --jsonl`` writes :class:`WaitRow` values without building the
    scores; their fields are those of :func:`analyze`'s values (and so of the model), on
    random tenpai hands of every shape, under every preset, with and without red fives,
    dealer values and indicators."""
    rng = random.Random(181)
    presets = [RuleSettings.chosen(name, ()) for name in PRESETS] + [
        RuleSettings(red_fives=True),
        RuleSettings(kiriage=False, double_yakuman_waits=True, minimum="none")]
    red_hands = 0
    for number in range(1500):
        case = random_case(rng)
        settings = presets[number % len(presets)]
        ctx = WinContext(seat_wind=case.seat_wind, ippatsu=case.discard == "first",
                         houtei=case.discard == "last",
                         dora_indicator=None if number % 7 == 0 else case.dora_indicator,
                         ura_indicator=None if number % 5 == 0 else case.ura_indicator,
                         dealer=settings.dealer_bonus and number % 2 == 0)
        hand = Hand.parse("".join(f"{k % 9 + 1}{'mpsz'[k // 9]}"
                                  for k, n in enumerate(case.counts) for _ in range(n)))
        if settings.red_fives and number % 3:  # some fives red: R1's aka dora
            hand = _with_reds(hand, number % 3)
        red_hands += hand.reds > 0
        expected = [wait_report_fields(v) for v in analyze(hand, ctx, settings)]
        rows = analyze_rows(hand.counts, make_situation(ctx, settings, hand.reds))
        assert [wait_row_fields(row) for row in rows] == expected, (hand, ctx, settings)
    assert red_hands > 50


def _with_reds(hand: Hand, reds: int) -> Hand:
    """``hand`` with up to ``reds`` of its fives made red (as many as it has suits of fives)."""
    text = str(hand)
    out, made = [], 0
    digits: dict[str, list[str]] = {}
    current: list[str] = []
    for char in text:
        if char.isdigit():
            current.append(char)
        else:
            digits[char] = current
            current = []
    for suit, row in digits.items():
        if suit != "z" and made < reds and "5" in row:
            row[row.index("5")] = "0"
            made += 1
        out.append("".join(row) + suit)
    return Hand.parse("".join(out))


def test_row_fields_are_the_models_dump() -> None:
    """The fields of a row validate as a :class:`WaitReport` and dump back unchanged."""
    rows = analyze_rows(Hand.parse("23m456m345p678s55s").counts,
                        make_situation(WinContext(dora_indicator=0, ura_indicator=27)))
    assert rows
    for row in rows:
        fields = wait_row_fields(row)
        assert WaitReport.model_validate(fields).model_dump() == fields
