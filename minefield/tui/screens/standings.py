"""The end of a match: the final standings (R30), places shared on equal points (the club's
decision, assets/match_decisions.md), with cc of blood under Washizu's stakes."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Static

from minefield.protocol.messages import MatchView
from minefield.tui.messages import MenuRequested, NewGameRequested
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.footer import FitFooter
from minefield.tui.widgets.phrases import PhraseStatic
from minefield.tui.widgets.scoreboard import blood, points_text

PLACES = {1: "1st", 2: "2nd"}


def standings_title(match: MatchView) -> str:
    """``Final standings after 3 games, in hand 1 of 4 (R30)``: the games played and the hand
    the match ended in (fewer than all when a player went below zero)."""
    games = match.last.game if match.last is not None else match.game
    hand = match.last.hand if match.last is not None else match.hand
    plural = "s" if games != 1 else ""
    return f"Final standings after {games} game{plural}, in hand {hand} of {match.hands} (R30)"


def standings_lines(match: MatchView, washizu: bool) -> list[str]:
    """The standings in words (markup): each place with its points and, beside them, the
    player's change over the match; why the match ended when it ended early (R30); then who
    won the match, or that the first place is shared."""
    standings = match.standings or []
    # Every payment is from one player to the other (R23, R32, R33), so the start is the mean.
    start = (sum(match.scores.values()) // len(match.scores)) if match.scores else 0
    lines = []
    for line in standings:
        change = line.points - start
        sign = "+" if change > 0 else ""
        lines.append(f"[b]{PLACES.get(line.place, str(line.place))}[/]  {escape(line.player)}  "
                     f"[b]{points_text(line.points, washizu)}[/]  ({sign}{change} over the "
                     "match)")
    below = [line.player for line in standings if line.points < 0]
    if below:
        lines.append(f"The match ended early: {' and '.join(escape(b) for b in below)} went "
                     "below zero (R30).")
    winners = [line.player for line in standings if line.place == 1]
    lines.append("")
    if len(winners) == 1:
        lines.append(f"[b]{escape(winners[0])} wins the match.[/]")
    elif winners:
        lines.append(f"[b]A drawn match[/]: {' and '.join(escape(w) for w in winners)} share "
                     "first place on equal points (no tie-break).")
    if washizu and len(standings) == 2 and standings[0].points != standings[1].points:
        lines.append(f"Washizu's stakes: {escape(standings[1].player)} has given "
                     f"{blood(start - standings[1].points)} of blood.")
    return lines


class StandingsScreen(Screen[None]):
    """The final standings of a match: places, points, the winner (or a shared first place).
    ``n`` starts a new match of the same kind, ``m`` goes back to the menu."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "again", "New match"),
        Binding("escape,m", "menu", "Menu"),
    ]

    def __init__(self, match: MatchView, mode: str, washizu: bool = False) -> None:
        super().__init__()
        self.match = match
        self.mode = mode
        self.washizu = washizu

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        match = self.match
        with Vertical(id="standings-box"):
            yield Static(standings_title(match), classes="dialog-title")
            yield PhraseStatic("\n".join(standings_lines(match, self.washizu)), id="standings")
        yield FitFooter()

    def action_again(self) -> None:
        """A new match of the same kind."""
        self.post_message(NewGameRequested(self.mode, again=True))

    def action_menu(self) -> None:
        """Back to the menu."""
        self.post_message(MenuRequested())


__all__ = ["StandingsScreen", "standings_lines", "standings_title"]
