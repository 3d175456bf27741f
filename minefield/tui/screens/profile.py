"""A player's profile, from the lobby: ``p`` chooses a player (one online, or any name), and
the profile shows the figures of ``ssh HOST stats NAME``, the rating history as a small chart
and the player's last ten games that this player may see (Enter replays one, as ``ssh -t HOST
replay GAME``); Escape goes back to the lobby.

The screen asks the game server through the lobby's connection (``ask_profile``,
``ask_record``: :mod:`~minefield.protocol.profiles`) and shows what it answers: the lobby
hands it each answer (:meth:`ProfileScreen.take`). A server that keeps no profiles, or a name
nobody has, is one line in the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from pydantic import BaseModel
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Input, OptionList, Static

from minefield.protocol.profiles import (
    AskProfile,
    AskRecord,
    Profile,
    ProfileFigures,
    ProfileGame,
    RecordPart,
)
from minefield.protocol.wire import WireError
from minefield.records.reader import RecordError, parse_record
from minefield.records.replay import replay_record
from minefield.tui.screens.dialogs import FORM_FOCUS_KEYS
from minefield.tui.screens.replay import ReplayScreen
from minefield.tui.textual_private import FieldFirstScreen, OrderedInput, SteadyHeader
from minefield.tui.widgets.footer import KeysFooter

#: Sends a lobby request to the server.
Send = Callable[[BaseModel], None]
#: The blocks of the chart, lowest first (eighths of a cell).
_BLOCKS = " ▁▂▃▄▅▆▇█"
#: The chart's rows and its widest (columns of data).
CHART_ROWS, CHART_WIDTH = 3, 60


def chart_values(values: Sequence[int], width: int = CHART_WIDTH) -> list[int]:
    """At most ``width`` of ``values``, evenly spread over them, the first and the last kept.

    >>> chart_values([1, 2, 3, 4, 5], 3), chart_values([7, 8], 5)
    ([1, 3, 5], [7, 8])
    """
    if len(values) <= width:
        return list(values)
    if width == 1:
        return [values[-1]]
    last = len(values) - 1
    return [values[round(i * last / (width - 1))] for i in range(width)]


def chart(values: Sequence[int], rows: int = CHART_ROWS) -> list[str]:
    """``values`` as a block chart ``rows`` lines high, top line first: each value a column
    whose height goes from the lowest value (one eighth of a cell) to the highest (full).

    >>> chart([1500, 1550, 1600], rows=1)
    ['▁▅█']
    >>> chart([1500, 1500], rows=2)
    ['  ', '██']
    """
    if not values:
        return []
    low, high = min(values), max(values)
    eighths = rows * 8
    heights = [eighths // 2 if high == low else 1 + round((v - low) * (eighths - 1) / (high - low))
               for v in values]
    lines = []
    for row in range(rows - 1, -1, -1):  # the top row first
        floor = row * 8
        lines.append("".join(_BLOCKS[max(0, min(8, h - floor))] for h in heights))
    return lines


def _percent(share: float) -> str:
    return f"{share:.0%}"


def figures_table(figures: ProfileFigures) -> Table:
    """The figures of ``stats``, three to a line."""
    rating = ("not rated yet" if figures.rating is None
              else f"{figures.rating} ± {figures.deviation}")
    casual = figures.games - figures.rated_games
    cells = [
        f"Rating {rating}",
        f"Games {figures.games} ({figures.rated_games} rated, {casual} casual)",
        f"Won {figures.wins}, lost {figures.losses}, drawn {figures.draws}",
        f"Win rate {_percent(figures.win_rate)}",
        f"Deal-ins {figures.deal_ins} ({_percent(figures.deal_in_rate)})",
        f"Furiten games {figures.furiten_games}",
        f"Average win {figures.average_win}",
        f"Average loss {figures.average_loss}",
        f"Longest streak {figures.longest_game_streak}",
    ]
    grid = Table.grid(padding=(0, 2), expand=True)
    for _ in range(3):
        grid.add_column(no_wrap=True)
    for row in range(0, len(cells), 3):
        grid.add_row(*cells[row:row + 3])
    return grid


def history_text(figures: ProfileFigures) -> Text:
    """The rating history as a small chart with its lowest and highest rating, or a line
    saying there is none yet."""
    history = [rating for _, rating in figures.rating_history]
    if not history:
        return Text("Rating history: no rated games yet.", style="dim")
    shown = chart_values(history)
    # A short history is drawn wider (up to 4 columns a game), to be read at a glance.
    wide = max(1, min(4, CHART_WIDTH // len(shown)))
    lines = chart([rating for rating in shown for _ in range(wide)])
    low, high = str(min(shown)), str(max(shown))
    label = max(len(low), len(high))
    text = Text(f"Rating after each of the last {len(history)} rated games "
                f"(first {history[0]}, now {history[-1]}):\n" if len(history) > 1 else
                f"Rating after its one rated game: {history[0]}\n")
    for index, line in enumerate(lines):
        side = high if index == 0 else low if index == len(lines) - 1 else ""
        text.append(f"{side:>{label}} │", style="dim")
        text.append(line.rstrip() + ("\n" if index < len(lines) - 1 else ""), style="bold")
    return text


def result_words(game: ProfileGame) -> str:
    """Who won the game (by the names the players had then), or ``draw``."""
    if game.result == "draw":
        return "draw"
    return f"{(game.east if game.result == 'east' else game.west)[:12]} won"


class ProfileReplayScreen(ReplayScreen):
    """The replay viewer opened from a profile: q or Escape goes back to it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,escape", "close", "Profile")]

    def on_mount(self) -> None:
        self.title = "Minefield replay"  # as ``ssh -t HOST replay GAME`` says


class ProfileScreen(Screen[None]):
    """The profile of ``name``: asked of the server as the screen opens (``send``), shown
    as the lobby hands over the answer (:meth:`take`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", priority=True),  # before the table's own Enter
        Binding("escape,q", "close", "Lobby"),
        Binding("r", "reload", "Ask again", show=False),
    ]

    def __init__(self, name: str, send: Send) -> None:
        super().__init__()
        self.player = name
        self.send = send
        self.profile: Profile | None = None
        self.games: list[ProfileGame] = []
        #: The game whose record is being received, and its lines so far.
        self.fetching: str | None = None
        self._lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Vertical(id="profile-box"):
            yield Static(f"Asking the server for {self.player}'s profile...", id="profile-name",
                         markup=False)
            yield Static("", id="profile-figures")
            yield Static("", id="profile-chart")
            table: DataTable[str] = DataTable(id="profile-games", cursor_type="row",
                                              zebra_stripes=True)
            table.add_columns("Ended (UTC)", "East", "West", "Result", "Points", "Table")
            yield table
        yield KeysFooter()

    def on_mount(self) -> None:
        self.title = "Minefield"
        self.sub_title = f"Profile of {self.player}"
        self.ask()

    def ask(self) -> None:
        """Ask the server for the profile."""
        self.send(AskProfile(player=self.player))

    def take(self, answer: Profile | RecordPart | WireError) -> None:
        """An answer of the server: the profile, a part of a record asked for, or an error
        (a server that does not know the question)."""
        if isinstance(answer, Profile):
            if answer.player.casefold() != self.player.casefold():
                return
            shown = self.profile is not None and self.profile.figures is not None
            if answer.refused is not None and shown:  # asked again, refused: keep what shows
                self.notify(answer.refused, severity="warning", markup=False, timeout=8)
                return
            self.show(answer)
        elif isinstance(answer, RecordPart):
            self._record_part(answer)
        else:
            line = (f"This game server does not answer profiles (older than this client): "
                    f"{answer.message}" if answer.code == "bad_message" else answer.message)
            if self.profile is None:
                self._refused(line)
            elif self.fetching is not None:
                self.fetching = None
                self.notify(line, severity="error", markup=False, timeout=8)

    def _refused(self, line: str) -> None:
        self.query_one("#profile-name", Static).update(Text(line, style="bold"))
        self.query_one("#profile-games", DataTable).display = False

    def show(self, profile: Profile) -> None:
        """Put ``profile`` on the screen."""
        self.profile = profile
        figures = profile.figures
        if profile.refused is not None or figures is None:
            self._refused(profile.refused or f"no profile of {self.player}")
            return
        name = Text(figures.name, style="bold")
        if figures.program:
            name.append(" (a program)")
        self.query_one("#profile-name", Static).update(name)
        self.query_one("#profile-figures", Static).update(figures_table(figures))
        self.query_one("#profile-chart", Static).update(history_text(figures))
        table: DataTable[str] = self.query_one("#profile-games", DataTable)
        table.display = True
        table.clear()
        self.games = list(profile.games)
        for game in self.games:
            kind = game.tournament or ("rated" if game.rated else "casual")
            table.add_row(game.ended[:16].replace("T", " "), game.east[:14], game.west[:14],
                          result_words(game), str(game.points), kind[:12])
        if not self.games:
            table.add_row("No finished games that you may see.", "", "", "", "", "")
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click) on a game: replay it."""
        event.stop()
        self.action_replay()

    def action_replay(self) -> None:
        """Replay the game under the cursor (its record asked of the server)."""
        table: DataTable[str] = self.query_one("#profile-games", DataTable)
        if not self.games or not 0 <= table.cursor_row < len(self.games):
            self.notify("No game to replay here.", severity="warning")
            return
        game = self.games[table.cursor_row].game
        self.fetching, self._lines = game, []
        self.notify(f"Fetching game {game}...", timeout=3, markup=False)
        self.send(AskRecord(game=game))

    def _record_part(self, part: RecordPart) -> None:
        if part.game != self.fetching:
            return  # a record no longer waited for
        if part.refused is not None:
            self.fetching = None
            self.notify(part.refused, severity="error", markup=False, timeout=8)
            return
        self._lines += part.lines
        if not part.last:
            return
        self.fetching = None
        data = "".join(f"{line}\n" for line in self._lines).encode()
        self._lines = []
        try:
            record = parse_record(data, part.game)
        except RecordError as error:
            self.notify(str(error), severity="error", markup=False, timeout=8)
            return
        replay = replay_record(record)
        if not replay.consistent:
            problems = "; ".join(replay.problems).replace("\n", " ")
            self.notify(f"{part.game}: inconsistent record: {problems}", severity="error",
                        markup=False, timeout=8)
            return
        self.app.push_screen(ProfileReplayScreen(record, replay, quits=False))

    def action_reload(self) -> None:
        """Ask for the profile again."""
        self.ask()

    def action_close(self) -> None:
        """Back to the lobby."""
        self.dismiss()


class PlayerPickScreen(FieldFirstScreen[str | None]):
    """Whose profile: a player online (Up and Down choose, Enter opens) or any name typed;
    Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        *FORM_FOCUS_KEYS,
    ]

    def __init__(self, names: list[str], chosen: str | None = None) -> None:
        super().__init__()
        self.names = names
        self.chosen = chosen

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Whose profile? Enter opens the player chosen below, or the name "
                         "typed.", classes="question")
            yield OrderedInput(max_length=32, placeholder="a name (empty: the one chosen)",
                               id="pick-name")
            players = OptionList(*self.names, id="pick-players")
            players.can_focus = False
            yield players
        yield KeysFooter()

    def on_mount(self) -> None:
        players = self.query_one("#pick-players", OptionList)
        if self.names:
            index = next((i for i, name in enumerate(self.names)
                          if self.chosen is not None and name == self.chosen), 0)
            players.highlighted = index
        else:
            players.display = False

    def action_move(self, delta: int) -> None:
        """Choose the player above or below."""
        players = self.query_one("#pick-players", OptionList)
        if self.names:
            current = players.highlighted or 0
            players.highlighted = max(0, min(len(self.names) - 1, current + delta))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._open(event.value.strip())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.names[event.option_index])

    def _open(self, typed: str) -> None:
        if typed:
            self.dismiss(typed)
            return
        index = self.query_one("#pick-players", OptionList).highlighted
        self.dismiss(self.names[index] if self.names and index is not None else None)

    def action_cancel(self) -> None:
        """Nobody's profile."""
        self.dismiss(None)


__all__ = ["CHART_ROWS", "PlayerPickScreen", "ProfileReplayScreen", "ProfileScreen", "chart",
           "chart_values", "figures_table", "history_text", "result_words"]
