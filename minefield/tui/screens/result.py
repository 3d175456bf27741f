"""The end of a game: everything revealed (R11, R13, R18, R26), who pays whom, and the running
score of the games played one after the other; in a match the scoreboard, the settlement in
words (R31-R33) and the way on: the next game, or the final standings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Label, Static

from minefield.protocol.messages import MatchView, Rated
from minefield.rules.game import TOTAL_DISCARDS, GameEnded, Seat
from minefield.rules.hand import HAND_SIZE
from minefield.rules.names import tile_name
from minefield.rules.report import WaitReport
from minefield.rules.tiles import Tile, parse_tiles
from minefield.tui.command_palette import trainer_commands
from minefield.tui.messages import MenuRequested, NewGameRequested, NextGameRequested
from minefield.tui.render import furiten_reason, objective, possessive, seat_name, verb
from minefield.tui.scores import RunningScore, payment
from minefield.tui.screens.standings import StandingsScreen
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.footer import FitFooter
from minefield.tui.widgets.log import log_lines, paid_to_winner, with_feedback
from minefield.tui.widgets.panels import DeadWall, yaku_name
from minefield.tui.widgets.phrases import PhraseStatic
from minefield.tui.widgets.scoreboard import Scoreboard, payment_lines, scoreboard_text
from minefield.tui.widgets.tiles import TileRow, current_honor_names, named

if TYPE_CHECKING:  # the trainer's doors load with the app
    from minefield.tui.trainer_actions import TrainerDoors


def value_lines(value: WaitReport) -> list[str]:
    """The winning hand's value: each yaku with its han, then dora and ura dora (always both,
    zero or not), fu, han, limit and points."""
    lines = [f"  {escape(yaku_name(y.name)):<18}{y.han:>3} han" for y in value.yaku]
    lines.append(f"  {'dora':<18}{value.dora:>3} han")
    if value.aka:  # red fives exist only when the rules have them (R1)
        lines.append(f"  {'red fives':<18}{value.aka:>3} han")
    lines.append(f"  {'ura dora':<18}{value.ura:>3} han")
    limit = f" · [b]{value.limit}[/]" if value.limit else ""
    lines.append(f"  [b]{value.han} han {value.fu} fu[/]{limit} · [b]{value.points} points[/]")
    lines.append(f"  [dim]{value.wait} wait: {' '.join(value.groups)}[/]")
    return lines


def never_discarded(pool_and_discards: str, discards: Sequence[str]) -> list[str]:
    """The pool tiles left when the game ended (four after 17 discards, R10), sorted.

    >>> never_discarded("1123m", ["1m", "3m"])
    ['1m', '2m']
    """
    left = Counter(discards)
    kept = []
    for tile in (str(t) for t in parse_tiles(pool_and_discards)):
        if left[tile]:
            left[tile] -= 1
        else:
            kept.append(tile)
    return kept


def ratings_line(rated: Rated) -> str:
    """Each player's rating before and after a rated game (Glicko-2).

    >>> from minefield.protocol.messages import RatingChange
    >>> ratings_line(Rated(seat="east", game="g", players=[
    ...     RatingChange(name="ann", before=1500, after=1662, deviation=290),
    ...     RatingChange(name="bob", before=1500, after=1338, deviation=290)]))
    'Rating: ann 1500 → 1662 (+162) · bob 1500 → 1338 (-162)'
    """
    return "Rating: " + " · ".join(
        f"{p.name} {p.before} → {p.after} ({p.after - p.before:+d})" for p in rated.players)


class ResultScreen(Screen[None]):
    """Both hands, discards and pools, the ura indicator, the winning tile, the score, who pays
    whom, the running score and the game's log.

    ``discards`` are both rows in the order discarded (else the pools show with them);
    ``scores`` is the app's running score, which this game joins. In a match, ``match`` is its
    state after this game (the scoreboard, the settlement in words; ``washizu``: with cc of
    blood), and ``n`` leads to the next game or to the final standings. ``link``: where the
    finished game can be opened in a browser (a network game at a server with a browser door),
    shown under the ratings. ``review`` opens the finished game's defense review (``v``), and
    ``trainer`` the trainer's progress and drills (the palette's commands here).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "again", "Play again"),
        Binding("n", "next_game", "Next game"),
        Binding("n", "standings", "Final standings"),
        Binding("escape,m", "menu", "Menu"),
        Binding("v", "review_game", "Review defense"),
    ]

    def __init__(self, end: GameEnded, names: dict[Seat, str], mode: str,
                 dora_indicator: str, discards: Mapping[Seat, Sequence[str]] | None = None,
                 scores: RunningScore | None = None, match: MatchView | None = None,
                 washizu: bool = False, rated: Rated | None = None,
                 notes: Mapping[int, str] | None = None, link: str | None = None,
                 trainer: TrainerDoors | None = None,
                 review: Callable[[], Awaitable[None]] | None = None) -> None:
        super().__init__()
        self._trainer = trainer
        self._review = review
        self.rated = rated
        self.link = link
        self.end = end
        #: The trainer's feedback lines of the discards made here (kept from the play screen).
        self.notes = dict(notes or {})
        self.names = names
        self.mode = mode
        self.match = match
        self.washizu = washizu
        self._dora_indicator = dora_indicator
        self._discards = discards
        self._scores = scores if match is None else None  # a match keeps its own scores
        if self._scores is not None:
            self._scores.record(end, names)

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        if self.match is not None:
            yield Scoreboard(scoreboard_text(self.match, self.washizu), id="scoreboard",
                             classes="-match")
        with Horizontal(id="topbar"):
            yield PhraseStatic(named(self, self._headline()), id="headline")
            yield DeadWall(Tile.parse(self._dora_indicator))
        ratings = PhraseStatic(ratings_line(self.rated) if self.rated else "",
                               id="result-ratings", markup=False)
        ratings.display = self.rated is not None
        yield ratings
        if self.link is not None:
            yield Static(f"Link: {self.link}", id="result-link", markup=False)
        with VerticalScroll(id="result-body"):
            if self.end.value is not None:
                yield PhraseStatic(named(self, "\n".join(value_lines(self.end.value))), id="value")
            for seat in (Seat.EAST, Seat.WEST):
                hand = parse_tiles(self.end.hands[seat] or "")
                with Horizontal(classes="tile-bar"):
                    yield Label(self._who(seat), classes="row-title")
                    yield TileRow(HAND_SIZE, hand, id=f"hand-{seat.value}")
                yield PhraseStatic(named(self, self._seat_text(seat)), classes="seat-result")
            if self._discards is not None:
                yield Static("[b]Game log[/]", classes="result-title")
                paid = paid_to_winner(self.end, self.match)
                yield PhraseStatic(named(self, "\n".join(with_feedback(log_lines(
                    self._discards, self.names, self.end.furiten, self.end, paid),
                    self.notes))), id="result-log")
            ura = tile_name(Tile.parse(self.end.ura_indicator), current_honor_names(self))
            yield Static(f"Ura dora indicator {ura} · seed {self.end.seed}",
                         id="result-seed")
        yield FitFooter()

    def on_mount(self) -> None:
        self.query_one(DeadWall).reveal_ura(Tile.parse(self.end.ura_indicator))
        self.query_one("#result-body").focus()  # arrows and page keys scroll it

    def show_ratings(self, rated: Rated) -> None:
        """The game was rated (it comes after the result): each rating before and after."""
        self.rated = rated
        line = self.query_one("#result-ratings", Static)
        line.update(ratings_line(rated))
        line.display = True

    def _who(self, seat: Seat) -> str:
        name, wind = self.names[seat], seat.value.title()
        return wind if name == wind else f"{escape(name)}\n{wind}"

    def _headline(self) -> str:
        end, names = self.end, self.names
        lines = []
        if end.result == "ron" and end.winner is not None:
            winner, loser = names[end.winner], names[end.winner.other]
            who = seat_name(winner, end.winner)
            who = who if who == winner else f"{who},"  # "Bot (normal), West, wins"
            lines.append(f"[b]Ron![/] {escape(who)} {verb(winner, 'win', 'wins')} on "
                         f"{escape(possessive(loser))} {end.win_tile}.")
        else:
            lines.append(f"[b]Draw[/]: {TOTAL_DISCARDS} discards without a win (R11).")
        settlement = self.match.last if self.match is not None else None
        if settlement is not None:  # R31-R33, in the engine's words
            if end.result == "ron":
                lines.append(f"Discard {end.discard_number} of {TOTAL_DISCARDS}.")
            lines += payment_lines(settlement, names, self.washizu)
            return "\n".join(lines)
        paid = payment(end, names)
        if paid is None:
            lines.append("Nobody pays (a single game has no draw payments).")
        else:
            payer, payee = names[paid[0]], names[paid[1]]
            lines.append(f"Discard {end.discard_number} of {TOTAL_DISCARDS} · {escape(payer)} "
                         f"{verb(payer, 'pay', 'pays')} {escape(objective(payee))} "
                         f"[b]{paid[2]}[/].")
        if self._scores is not None and self._scores.games:
            lines.append(self._scores.text())
        return "\n".join(lines)

    def _seat_text(self, seat: Seat) -> str:
        end = self.end
        waits = " ".join(end.waits[seat]) or "none (not tenpai)"
        lines = [f"  waits: {waits}"]
        if self.match is not None and end.result == "draw":  # what the draw pays on (R33)
            lines = [f"  [b]tenpai[/], waits: {waits}" if end.waits[seat]
                     else "  [b]noten[/]: no wait (R12)"]
        if end.winner is seat and end.win_tile:
            lines[0] += f" · won on [b]{end.win_tile}[/]"
        if self._discards is None:
            lines.append(f"  pool and discards: {escape(end.pools[seat])}")
        else:
            discards = list(self._discards[seat])
            lines.append(f"  discards: {' '.join(discards) or 'none'}")
            kept = never_discarded(end.pools[seat], discards)
            lines.append(f"  never discarded: {' '.join(kept)}")
        furiten = end.furiten[seat]
        if furiten is not None:
            name, other = self.names[seat], self.names[seat.other]
            lines.append(f"  furiten since discard {furiten.discard_number}: "
                         f"{escape(furiten_reason(furiten, name, other))}")
        return "\n".join(lines)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n`` plays again after a single game, starts a match's next game, or shows the
        final standings once the match is over."""
        match = self.match
        if action == "again":
            return match is None
        if action == "next_game":
            return match is not None and not match.over
        if action == "standings":
            return match is not None and match.over
        return True

    def action_again(self) -> None:
        """Another game of the same kind."""
        self.post_message(NewGameRequested(self.mode, again=True))

    def action_next_game(self) -> None:
        """The match's next game (R30, R31)."""
        self.post_message(NextGameRequested())

    def action_standings(self) -> None:
        """The match is over: the final standings (R30)."""
        if self.match is not None and self.match.standings is not None:
            self.app.push_screen(StandingsScreen(self.match, self.mode, self.washizu))

    def action_menu(self) -> None:
        """Back to the menu."""
        self.post_message(MenuRequested())

    async def action_review_game(self) -> None:
        """Review the game's defense: each discard with its danger, the opponent's hand
        revealed."""
        if self._review is not None:
            await self._review()

    def palette_commands(self) -> Iterator[SystemCommand]:
        """The trainer's progress and drills, between two games."""
        if self._trainer is not None:
            yield from trainer_commands(self._trainer.stats, self._trainer.drills)

    def __repr__(self) -> str:
        return "ResultScreen(<tiles shown only after the end>)"


__all__ = ["ResultScreen", "RunningScore", "never_discarded", "payment", "value_lines"]
