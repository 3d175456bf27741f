"""The match's scoreboard (R30-R35), and points in words, with Washizu's stakes when they are on.

The Washizu scoring page converts 1,000 points to 100 cc of blood: with the ``washizu``
preference on, every score and payment of a match also shows its cc.

>>> points_text(8000, washizu=True), points_text(-1000, washizu=False)
('8000 (800 cc)', '-1000')
"""

from __future__ import annotations

from textual.markup import escape

from minefield.protocol.messages import MatchView, SettlementView
from minefield.rules.game import Seat
from minefield.tui.widgets.phrases import PhraseStatic

#: Points per cc of blood (Washizu: 1,000 points are 100 cc).
POINTS_PER_CC = 10


def blood(points: int) -> str:
    """Points as cc of blood: ``800 cc`` for 8000."""
    return f"{points // POINTS_PER_CC} cc"


def points_text(points: int, washizu: bool) -> str:
    """``8000``, or ``8000 (800 cc)`` with Washizu's stakes."""
    return f"{points} ({blood(points)})" if washizu else str(points)


def sticks_text(count: int) -> str:
    """``1 counter stick``, ``3 counter sticks``."""
    return f"{count} counter stick{'' if count == 1 else 's'}"


def scoreboard_text(match: MatchView, washizu: bool) -> str:
    """One line (two with cc) for one moment of the match (markup). During a game: the game
    and hand, each player's points with the dealer marked, the counter sticks and the rules
    that bind this game. Once it has ended: the points after it and what the next game will
    be (:func:`after_game_text`), never the points of one moment beside the sticks of another.
    """
    settlement = match.last
    if settlement is not None and settlement.game == match.game:
        return after_game_text(match, settlement, washizu)
    parts = [f"[b]Game {match.game}[/] · hand {match.hand} of {match.hands}"]
    for seat in (Seat.EAST, Seat.WEST):
        name = match.players[seat]
        dealer = " [reverse]dealer[/]" if seat is Seat.EAST else ""
        parts.append(f"{escape(name)}{dealer} [b]{points_text(match.scores[name], washizu)}[/]")
    if match.honba:
        parts.append(sticks_text(match.honba))
    if match.ryanshi:
        parts.append("[$text-warning]ryanshi: 2 han of yaku (R34)[/]")
    if match.paarenchan:
        parts.append(f"[$text-warning]paarenchan: {escape(match.dealer)}'s next ron is a "
                     "yakuman (R35)[/]")
    if match.over:
        parts.append("[b]match over[/]")
    return " · ".join(parts)


def after_game_text(match: MatchView, settlement: SettlementView, washizu: bool) -> str:
    """The match after the game on the table ended (markup): ``After game 2 · Ann 43000 ·
    Bob 7000 · next, game 3 (hand 1 of 4): Ann dealer, 2 counter sticks`` (R31), or that the
    match is over (R30)."""
    parts = [f"[b]After game {settlement.game}[/]"]
    parts += [f"{escape(name)} [b]{points_text(match.scores[name], washizu)}[/]"
              for name in (match.players[Seat.EAST], match.players[Seat.WEST])]
    if match.over:
        parts.append("[b]match over[/]")
        return " · ".join(parts)
    if settlement.renchan:  # R31: the dealer stays, one stick more
        dealer, honba, hand = match.dealer, settlement.honba + 1, settlement.hand
    else:  # the deal passes: a non-dealer's win clears the sticks, a draw hands them on
        dealer = match.players[Seat.WEST]
        honba = 0 if settlement.result == "ron" else settlement.honba
        hand = settlement.hand + 1
    sticks = sticks_text(honba) if honba else "no counter sticks"
    parts.append(f"next, game {settlement.game + 1} (hand {hand} of {match.hands}): "
                 f"{escape(dealer)} dealer, {sticks}")
    return " · ".join(parts)


def payment_lines(settlement: SettlementView, names: dict[Seat, str],
                  washizu: bool) -> list[str]:
    """The settlement in words (markup): the engine's lines ("West (Bob) pays East (Ann) 8000
    + 1 counter stick x 1000 = 9000 (R32)"), and with Washizu's stakes the blood that flows."""
    lines = [escape(line) for line in settlement.lines]
    if washizu:
        for seat, amount in settlement.payments.items():
            if amount < 0:
                payee = seat.other
                lines.append(f"In blood: {escape(names[seat])} gives {escape(names[payee])} "
                             f"[b]{blood(-amount)}[/] (1,000 points = 100 cc)")
    return lines


class Scoreboard(PhraseStatic):
    """The match at a glance, always shown during a match: game and hand, points, dealer,
    counter sticks, ryanshi and paarenchan when they bind (R30-R35). Every screen of a game has
    one; it shows (class ``-match``) once it is given a match, and a single game has none."""

    def show(self, match: MatchView, washizu: bool) -> None:
        """Show ``match`` (with cc of blood when ``washizu``)."""
        self.update(scoreboard_text(match, washizu))
        self.add_class("-match")


__all__ = ["POINTS_PER_CC", "Scoreboard", "after_game_text", "blood", "payment_lines",
           "points_text", "scoreboard_text", "sticks_text"]
