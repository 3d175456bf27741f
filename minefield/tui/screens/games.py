"""The saved games from the menu: what ``minefield history``, ``replay`` and ``review`` do, with
no file name to type.

The list (:class:`GamesScreen`) holds the records of the records folder newest first, a match
as one line (its games are listed when it is opened), each line fitting 80 columns: date, mode,
players, result and points. Enter replays a game in the replay viewer (a record that does not
replay to its stored result is refused with the reason, as ``minefield replay`` exits 1), ``v``
reviews its defense (both seats; ``w`` switches), ``m`` or the choice at the top filters by
mode. A match opens as its scoreboard (``minefield replay --match``) over its games.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.console import Console
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Select, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from minefield.bots.base import player_seat
from minefield.records.history import HistoryEntry, MatchEntry, group_history, list_history
from minefield.records.reader import ReadRecord, RecordError, read_record
from minefield.records.replay import Replay, load_match, replay_record
from minefield.records.scoreboard import final_line, scoreboard_table
from minefield.rules.game import Seat
from minefield.trainer.defense_review import ReviewError, opponent_of, review_of_game
from minefield.tui.screens.replay import ReplayScreen
from minefield.tui.screens.review import ReviewScreen
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.footer import KeysFooter
from minefield.tui.widgets.tiles import named

Entry = HistoryEntry | MatchEntry

#: The filter choices: every line, a mode of play, or the matches only.
FILTERS: tuple[tuple[str, str], ...] = (
    ("all", "All games and matches"),
    ("practice", "Practice against a bot"),
    ("hotseat", "Hot-seat"),
    ("network", "Network games"),
    ("simulate", "Bot games (simulate)"),
    ("match", "Matches"),
)
MODE_NAMES = {"practice": "practice", "hotseat": "hot-seat", "network": "network",
              "simulate": "bots"}
#: The columns of a line (cells): date, mode, players, result, points: 74 with the spaces
#: (the list's border, padding and scroll bar take the rest of 80 columns).
COLUMNS = (16, 8, 19, 15, 12)


def fit(text: str, width: int) -> str:
    """``text`` in exactly ``width`` cells: cut with ``…`` when longer, padded when shorter;
    control characters (a name from a record) shown as ``?``.

    >>> fit("Bot (normal)", 8), fit("ab", 4)
    ('Bot (no…', 'ab  ')
    """
    shown = "".join(c if c.isprintable() else "?" for c in text)
    if cell_len(shown) > width:
        shown = set_cell_size(shown, width - 1) + "…"
    return set_cell_size(shown, width)


def _side(seat: str | None) -> str:
    return seat.title() if seat else "?"


def result_text(entry: Entry) -> str:
    """The result column: ``East won on 5p``, ``draw``, ``unfinished``, ``match, 4 games``."""
    if isinstance(entry, MatchEntry):
        if not played(entry):
            return "match abandoned"  # quit before a game finished (at its first curtain)
        count = len(entry.games)
        games = f"{count} game{'s' * (count != 1)}"
        return f"match, {games}" if entry.over else f"match so far, {games}"
    if entry.started is None:
        return "unreadable"
    result = entry.result
    if result is None:
        return "unfinished"
    if result.kind == "draw":
        return "draw"
    return f"{_side(result.winner)} won on {result.tile}"


def played(match: MatchEntry) -> bool:
    """True when a game of ``match`` finished (else it was left before any score changed)."""
    return any(game.result is not None for game in match.games)


def points_text(entry: Entry) -> str:
    """The points column: a ron's value, or a match's scores (``27000/23000``; none for a
    match abandoned before a game finished)."""
    if isinstance(entry, MatchEntry):
        if not played(entry):
            return ""
        return "/".join(str(entry.scores.get(name, 0)) for name in entry.players)
    result = entry.result
    if result is None or result.kind == "draw" or result.points is None:
        return ""
    return str(result.points)


def players_text(entry: Entry) -> str:
    """``Ann v Bot (normal)``: East first for a game, the match's players for a match."""
    if isinstance(entry, MatchEntry):
        return " v ".join(entry.players)
    if entry.players is None:
        return entry.path.name
    return f"{entry.players.east} v {entry.players.west}"


def entry_line(entry: Entry) -> str:
    """One line of the list, 74 cells: date, mode, players, result, points (plain text,
    honors in mpsz: the screen renames them)."""
    date = entry.started.astimezone().strftime("%Y-%m-%d %H:%M") if entry.started else "?"
    mode = MODE_NAMES.get(entry.mode or "", entry.mode or "?")
    if isinstance(entry, HistoryEntry) and entry.match is not None:
        mode = f"game {entry.match.game}"  # listed under its match
    widths = COLUMNS
    cells = [fit(date, widths[0]), fit(mode, widths[1]), fit(players_text(entry), widths[2]),
             fit(result_text(entry), widths[3])]
    points = points_text(entry)
    return " ".join(cells) + " " + " " * max(0, widths[4] - len(points)) + points[:widths[4]]


def matches_filter(entry: Entry, choice: str) -> bool:
    """True when ``entry`` is shown under the filter ``choice``."""
    if choice == "all":
        return True
    if choice == "match":
        return isinstance(entry, MatchEntry)
    return entry.mode == choice


class GameReplayScreen(ReplayScreen):
    """The replay viewer opened from the list: q or Escape goes back to it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,escape", "close", "Games")]


class GamesScreen(Screen[None]):
    """The saved games of ``folder``, newest first, or the games of one ``match`` under its
    scoreboard. A review's estimate is fitted for the record's opponent (a bot's level, else a
    person: :func:`~minefield.trainer.defense_review.opponent_of`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Replay"),
        Binding("v", "review", "Review defense"),
        Binding("m", "next_filter", "Filter by mode"),
        Binding("r", "reload", "Reload", show=False),
        Binding("escape,q", "close", "Back"),
        Binding("down", "to_list", "To the list", show=False, priority=True),
    ]

    def __init__(self, folder: Path, match: MatchEntry | None = None) -> None:
        super().__init__()
        self.folder = folder
        self.match = match
        self.entries: list[Entry] = list(match.games) if match is not None else []
        self.shown: list[Entry] = []

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Vertical(id="games-box"):
            if self.match is None:
                with Horizontal(id="games-top"):
                    yield Select([(label, key) for key, label in FILTERS], value="all",
                                 allow_blank=False, id="games-filter")
                    yield Static(id="games-info")
            else:
                yield Static(id="games-scoreboard")
                yield Static(id="games-info")
            yield OptionList(id="games-list")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "Saved games" if self.match is None else (
            f"Match {self.match.id[:8]}")
        self.query_one("#games-list", OptionList).focus()
        if self.match is None:
            self.action_reload()
        else:
            self._show_list()
            self.run_worker(self._scoreboard, thread=True, group="games",
                            exit_on_error=False)

    # -- reading the folder (in a thread: each record is read) ---------------------------------

    def action_reload(self) -> None:
        """Read the records folder again."""
        if self.match is not None:
            return
        self.query_one("#games-info", Static).update("Reading the saved games…")
        self.run_worker(self._read, thread=True, group="games", exit_on_error=False)

    def _read(self) -> list[Entry]:
        return group_history(list_history(self.folder))

    def _scoreboard(self) -> str:
        """The match replayed from its records: the scoreboard as ``replay --match``
        prints it, and what did not agree."""
        assert self.match is not None
        replay = load_match(self.folder, self.match.id)
        console = Console(width=78, record=True, file=io.StringIO(), color_system=None)
        console.print(scoreboard_table(replay))
        lines = [final_line(replay)]
        lines += [f"Not consistent: {problem}" for problem in replay.problems]
        lines.append(console.export_text(styles=False).rstrip())
        return "\n".join(lines)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "games" or not self.is_attached:
            return
        if event.state == WorkerState.SUCCESS:
            result = event.worker.result
            if isinstance(result, str):
                self.query_one("#games-scoreboard", Static).update(named(self, result),
                                                                   layout=True)
            elif isinstance(result, list):
                self.entries = result
                self._show_list()
        elif event.state == WorkerState.ERROR:
            error = event.worker.error
            reason = str(error) if isinstance(error, RecordError) else type(error).__name__
            target = "#games-info" if self.match is None else "#games-scoreboard"
            self.query_one(target, Static).update(f"Could not read the records: {reason}",
                                                  layout=True)

    # -- the list ------------------------------------------------------------------------------

    @property
    def choice(self) -> str:
        """The filter chosen (``all`` for a match's games)."""
        if self.match is not None:
            return "all"
        return str(self.query_one("#games-filter", Select).value)

    def _show_list(self) -> None:
        self.shown = [e for e in self.entries if matches_filter(e, self.choice)]
        options = self.query_one("#games-list", OptionList)
        options.clear_options()
        options.add_options([Option(named(self, entry_line(e)), id=str(i))
                             for i, e in enumerate(self.shown)])
        if self.shown:
            options.highlighted = 0
        total = len(self.entries)
        if self.match is not None:
            info = f"{len(self.shown)} games: Enter replays one, v reviews its defense"
        elif not total:
            info = (f"No saved games yet in {self.folder}: a game you play is saved there "
                    "when Settings has Save games on")
        elif not self.shown:
            label = dict(FILTERS).get(self.choice, self.choice)
            info = (f"None of the {total} saved is of {label}: m shows the next filter, or "
                    "choose All games and matches above")
        else:
            info = (f"{len(self.shown)} of {total} · Enter replays, v reviews\n"
                    "a match opens as its scores and games")
        self.query_one("#games-info", Static).update(info, layout=True)

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._show_list()
        self.query_one("#games-list", OptionList).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A match's games have no filter (the footer leaves it out); Down goes from the
        filter to the list (never a new filter: it opens the filter's choices no more)."""
        if action == "next_filter":
            return self.match is None
        if action == "to_list":
            return self.match is None and self.focused is self.query_one(
                "#games-filter", Select) and not self.query_one("#games-filter", Select).expanded
        return True

    def action_to_list(self) -> None:
        """From the filter down to the list (Enter or Space opens the filter's choices)."""
        self.query_one("#games-list", OptionList).focus()

    def honors_renamed(self) -> None:
        """The Honor names setting changed: the results again with the new names."""
        if self.is_mounted:
            self._show_list()

    def action_next_filter(self) -> None:
        """Show the next mode only: all, practice, hot-seat, network, bots, matches."""
        if self.match is not None:
            return
        keys = [key for key, _ in FILTERS]
        select = self.query_one("#games-filter", Select)
        select.value = keys[(keys.index(self.choice) + 1) % len(keys)]

    def highlighted(self) -> Entry | None:
        """The entry under the cursor."""
        index = self.query_one("#games-list", OptionList).highlighted
        return self.shown[index] if index is not None and index < len(self.shown) else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    # -- replay and review ---------------------------------------------------------------------

    def action_open(self) -> None:
        """Replay the game under the cursor; a match opens as its scoreboard and games."""
        entry = self.highlighted()
        if entry is None:
            return
        if isinstance(entry, MatchEntry):
            self.app.push_screen(GamesScreen(self.folder, match=entry))
            return
        loaded = self._load(entry)
        if loaded is not None:
            record, replay = loaded
            self.app.push_screen(GameReplayScreen(record, replay, quits=False))

    def action_review(self) -> None:
        """Review the defense of the game under the cursor (both seats, ``w`` switches)."""
        entry = self.highlighted()
        if entry is None or isinstance(entry, MatchEntry):
            self._tell("Open the match (Enter) and choose one of its games to review.")
            return
        loaded = self._load(entry)
        if loaded is None:
            return
        record, replay = loaded
        try:
            reviews = {seat: review_of_game(replay.game, seat) for seat in Seat}
        except ReviewError as error:
            self._tell(f"{entry.path.name}: {error}")
            return
        names = {seat: record.header.players.of(seat) for seat in Seat}
        # The player's seat first in practice, as ``minefield review`` without ``--seat``.
        first = player_seat(record.header)
        self.app.push_screen(ReviewScreen(reviews, opponent_of(names[first.other]), names,
                                          first))

    def _load(self, entry: HistoryEntry) -> tuple[ReadRecord, Replay] | None:
        """The record and its replay, or None with the reason told (unreadable, or a record
        that does not replay to its stored result)."""
        try:
            record = read_record(entry.path)
        except RecordError as error:
            self._tell(str(error))
            return None
        replay = replay_record(record)
        if not replay.consistent:
            problems = "; ".join(replay.problems).replace("\n", " ")
            self._tell(f"{entry.path.name}: inconsistent record: {problems}")
            return None
        return record, replay

    def _tell(self, text: str) -> None:
        """Say why the line cannot be opened, where the count was (it stays until the list
        changes) and as a notice."""
        self.query_one("#games-info", Static).update(Content(text), layout=True)
        self.notify(text, severity="warning", markup=False, timeout=8)

    def action_close(self) -> None:
        """Back to the menu (from a match: to the list)."""
        self.dismiss()

    def __repr__(self) -> str:
        return f"GamesScreen(folder={str(self.folder)!r}, {len(self.entries)} entries)"


__all__ = ["FILTERS", "GameReplayScreen", "GamesScreen", "entry_line",
           "fit", "matches_filter"]
