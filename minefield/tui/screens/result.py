"""The end of a game: everything revealed (R11, R13, R18, R26)."""

from __future__ import annotations

from typing import ClassVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, Static

from minefield.rules.game import GameEnded, Seat
from minefield.rules.hand import HAND_SIZE
from minefield.rules.report import WaitReport
from minefield.rules.tiles import Tile, parse_tiles
from minefield.tui.messages import MenuRequested, NewGameRequested
from minefield.tui.widgets.panels import DeadWall, yaku_name
from minefield.tui.widgets.tiles import TileRow


def value_lines(value: WaitReport) -> list[str]:
    """The winning hand's value: each yaku with its han, dora, ura, fu, han, limit, points."""
    lines = [f"  {escape(yaku_name(y.name)):<18}{y.han:>3} han" for y in value.yaku]
    if value.dora:
        lines.append(f"  {'dora':<18}{value.dora:>3} han")
    if value.aka:
        lines.append(f"  {'red fives':<18}{value.aka:>3} han")
    lines.append(f"  {'ura dora':<18}{value.ura:>3} han")
    limit = f" · [b]{value.limit}[/]" if value.limit else ""
    lines.append(f"  [b]{value.han} han {value.fu} fu[/]{limit} · [b]{value.points} points[/]")
    lines.append(f"  [dim]{value.wait} wait: {' '.join(value.groups)}[/]")
    return lines


class ResultScreen(Screen[None]):
    """Both hands and pools, the ura indicator, the winning tile and the score."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "again", "Play again"),
        Binding("escape,m", "menu", "Menu"),
    ]

    def __init__(self, end: GameEnded, names: dict[Seat, str], mode: str,
                 dora_indicator: str) -> None:
        super().__init__()
        self.end = end
        self.names = names
        self.mode = mode
        self._dora_indicator = dora_indicator

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="topbar"):
            yield Static(self._headline(), id="headline")
            yield DeadWall(Tile.parse(self._dora_indicator))
        with VerticalScroll(id="result-body"):
            if self.end.value is not None:
                yield Static("\n".join(value_lines(self.end.value)), id="value")
            for seat in (Seat.EAST, Seat.WEST):
                hand = parse_tiles(self.end.hands[seat] or "")
                with Horizontal(classes="tile-bar"):
                    yield Label(self._who(seat, "\n"), classes="row-title")
                    yield TileRow(HAND_SIZE, hand, id=f"hand-{seat.value}")
                yield Static(self._seat_text(seat), classes="seat-result")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DeadWall).reveal_ura(Tile.parse(self.end.ura_indicator))

    def _who(self, seat: Seat, between: str = " ") -> str:
        name, wind = self.names[seat], seat.value.title()
        if name == wind:
            return name
        return f"{name}{between}{wind}" if between == "\n" else f"{name} ({wind})"

    def _headline(self) -> str:
        end = self.end
        if end.result == "ron" and end.winner is not None:
            loser = end.winner.other
            verb = "win" if self.names[end.winner] == "You" else "wins"
            return (f"[b]Ron![/] {self._who(end.winner)} {verb} on {self.names[loser]}'s "
                    f"{end.win_tile}, discard {end.discard_number} of 34.\n"
                    f"Ura dora indicator {end.ura_indicator} · seed {end.seed}")
        return (f"[b]Draw[/]: 34 discards without a win (R11).\n"
                f"Ura dora indicator {end.ura_indicator} · seed {end.seed}")

    def _seat_text(self, seat: Seat) -> str:
        end = self.end
        waits = " ".join(end.waits[seat]) or "none (not tenpai)"
        pool = escape(end.pools[seat])
        lines = [f"  waits: {waits}", f"  pool and discards: {pool}"]
        if end.winner is seat and end.win_tile:
            lines[0] += f" · won on [b]{end.win_tile}[/]"
        furiten = end.furiten[seat]
        if furiten is not None:
            lines.append(f"  furiten since discard {furiten.discard_number}: "
                         f"{escape(furiten.detail)}")
        return "\n".join(lines)

    def action_again(self) -> None:
        """Another game of the same kind."""
        self.post_message(NewGameRequested(self.mode, again=True))

    def action_menu(self) -> None:
        """Back to the menu."""
        self.post_message(MenuRequested())

    def __repr__(self) -> str:
        return "ResultScreen(<tiles shown only after the end>)"


__all__ = ["ResultScreen", "value_lines"]
