"""The table: which screen shows which seat, fed by the session's updates.

:class:`TableController` is the one place that knows a game is on. It opens the session, reads
its updates in one long-lived worker (each becomes a :class:`~minefield.tui.messages.
SessionUpdate` message on the app's loop), keeps the latest :class:`~minefield.protocol.messages.
TableView` of every local seat, and routes: the hand builder, the play screen, the result, and
in hot-seat the curtain between the two players (R26). Screens render from the table they are
given and post intents; the controller turns them into session commands. Nothing here knows
whether the other seat is a bot, a person at this keyboard or one far away: only the session's
:class:`~minefield.session.base.SessionTraits`.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from textual.app import App
from textual.css.query import NoMatches
from textual.screen import Screen

from minefield.protocol.address import game_link
from minefield.protocol.messages import (
    Applied,
    Clocks,
    Link,
    MatchView,
    Notice,
    Presence,
    Rated,
    Rejected,
    RulesChosen,
    ServerMessageType,
    Snapshot,
    TableView,
)
from minefield.rules.game import TOTAL_DISCARDS, ChooseHand, Discard, Discarded, PlayerView, Seat
from minefield.session.base import (
    ChosenPreset,
    MatchSession,
    RoomSession,
    Session,
    SharedKeyboard,
)
from minefield.tui.games import HintSource
from minefield.tui.host import PreferencesSource, TableHost
from minefield.tui.hotseat_screens import HotseatScreens, empty_screen
from minefield.tui.messages import (
    CommandChosen,
    CurtainLifted,
    DraftChanged,
    NextGameRequested,
    SessionUpdate,
    TableIntent,
    TurnPassed,
)
from minefield.tui.screens.base import SeatScreen
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import CurtainScreen, LinkScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.table_subtitle import table_subtitle

if TYPE_CHECKING:
    from minefield.tui.trainer_actions import TrainerDoors

ScreenKind = Literal["build", "play", "result", "curtain"]
ScreenKey = tuple[ScreenKind, Seat]
HintFactory = Callable[[], HintSource | None]


class TableController:
    """The game on this terminal: its session, its tables and the screen that shows them.

    ``app`` runs the session's worker and shows the screens, as its ``host`` asks (the game
    app is both); ``hint_factory`` gives the hand builder its hint (None: no hint). The play
    and result screens get the trainer's doors (``trainer``) and the preferences (``prefs``).
    """

    def __init__(self, app: App[Any], session: Session, host: TableHost,
                 hint_factory: HintFactory, *, trainer: TrainerDoors,
                 prefs: PreferencesSource) -> None:
        self.app = app
        self.host = host
        self.trainer_doors = trainer
        self.prefs = prefs  # as they are now (the settings may change them during a game)
        self.session = session
        self.tables: dict[Seat, TableView] = {}
        self._hint_factory = hint_factory
        self._screen_key: ScreenKey | None = None
        self.game_screen: SeatScreen | None = None
        self._holding: Seat | None = None
        #: Hot-seat: the held discard was the clock's (R25), not the player's.
        self._clock_moved = False
        self._link: LinkScreen | None = None
        self._ready: Seat | None = None  # hot-seat: the seat whose curtain was lifted
        #: Hot-seat: each player's play screen, kept between turns and built behind the curtain.
        self.hotseat = HotseatScreens(self)
        #: The ratings of the game that has just ended (a server that rates sends them).
        self.rated: Rated | None = None
        #: The rules preset the player chose: the local session's, or the game server's
        #: ``rules`` line (None: an older server; the subtitle guesses it from the settings).
        self.preset = session.preset if isinstance(session, ChosenPreset) else None
        self.closed = False

    def __repr__(self) -> str:
        return f"TableController(session={self.session!r})"

    # -- life ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the session and read its updates in a worker for as long as the game lasts."""
        await self.session.open()
        self.app.run_worker(self._read_updates(), group="session", exit_on_error=True)

    async def _read_updates(self) -> None:
        async for message in self.session.updates():
            if self.closed:
                return
            self.app.post_message(SessionUpdate(self, message))

    async def close(self, on_purpose: bool = False) -> None:
        """Leave the game (its screens are off the stack): the session closes and every private
        widget is emptied.

        ``on_purpose`` (the player chose to leave or quit): a network game against a bot is
        left for good, so the server closes it rather than waiting for the player.
        """
        self.closed = True
        self.app.workers.cancel_group(self.app, "session")
        if self.game_screen is not None:
            empty_screen(self.game_screen)
        self.forget_screen()
        if on_purpose and self.against_bot:
            from minefield.session.remote import RemoteSession

            if isinstance(self.session, RemoteSession):
                await self.session.leave()
        await self.session.close()

    @property
    def against_bot(self) -> bool:
        """True when a bot plays the other seat of a network game (leaving closes it)."""
        seats = [seat for seat in self.session.local_seats if seat in self.tables]
        if not seats or self.session.traits.mode != "network":
            return False
        players = self.tables[seats[0]].players
        return any(info.kind == "bot" for info in players.values())

    @property
    def ready(self) -> bool:
        """True once every local seat has its table, all at the same command: in hot-seat each
        command reaches both seats, and the screen waits for the second update."""
        seqs = {self.tables[seat].seq for seat in self.session.local_seats if seat in self.tables}
        return len(seqs) == 1 and all(seat in self.tables for seat in self.session.local_seats)

    @property
    def game_on(self) -> bool:
        """A game is being played and has not ended, or a match is not over (leaving it would
        lose it)."""
        if not self.ready:
            return True
        match = self.match
        return self.first_view().phase != "ended" or (match is not None and not match.over)

    @property
    def match(self) -> MatchView | None:
        """The match this game belongs to, as the latest table shows it (None: a single game)."""
        seats = [seat for seat in self.session.local_seats if seat in self.tables]
        return self.tables[seats[0]].match if seats else None

    async def next_game(self) -> None:
        """Start the match's next game (its snapshots bring the new screens); over a network,
        say that it starts when the other player is ready too."""
        match = self.match
        if not (isinstance(self.session, MatchSession) and match is not None and not match.over
                and self.ready and self.first_view().phase == "ended"):
            return
        try:
            await self.session.next_game()
        except Exception as error:
            self.host.recover_from(error)
            return
        if self.session.traits.mode == "network":  # both players must be ready
            self.app.notify("You are ready for the next game: it starts when the other player "
                            "is.", markup=False)

    async def rematch(self) -> bool:
        """A network room plays again in place: ask for it (True), else False (a local game
        starts anew instead)."""
        if not isinstance(self.session, RoomSession) or self.session.traits.mode != "network":
            return False
        await self.session.rematch()
        self.app.notify("You asked for a rematch: it starts when the other player agrees.",
                        markup=False)
        return True

    def leaving_question(self, question: str) -> str:
        """``question`` (leave, quit) with what leaving does to this game."""
        if self.against_bot:
            return f"{question} A game against a bot is closed when you leave it."
        if self.session.traits.resumable:
            return (f"{question} The game goes on without you (the clocks play for you); come "
                    "back to it with `minefield resume`.")
        return f"{question} This game cannot be resumed."

    def first_view(self) -> PlayerView:
        """The view of the first local seat (East first)."""
        return self.tables[self.session.local_seats[0]].view

    def names(self) -> dict[Seat, str]:
        """How to call the player in each seat."""
        table = self.tables[self.session.local_seats[0]]
        return {seat: table.name(seat) for seat in Seat}

    # -- updates ---------------------------------------------------------------------------------

    async def update(self, message: ServerMessageType) -> None:
        """One message from the session: keep the tables, then bring the screen up to date."""
        if isinstance(message, Snapshot):
            self._new_game_check(message)
            self.tables[message.seat] = message.table
        elif isinstance(message, Applied):
            self.tables[message.seat] = message.table
            self._hold_after_own_discard(message)
        elif isinstance(message, Clocks | Presence):
            table = self.tables.get(message.seat)
            if table is not None:
                # Clocks come only from the server (R25b): a presence brings both clocks as
                # they are now, so none is counted from an older message's time.
                change: dict[str, object] = (
                    {"clocks": message.clocks} if isinstance(message, Clocks)
                    else {"players": message.players} if message.clocks is None
                    else {"players": message.players, "clocks": message.clocks})
                self.tables[message.seat] = table.model_copy(update=change)
        else:
            await self._aside(message)
            return
        if self.ready:
            title = self.subtitle()
            if self.app.sub_title != title:
                self.app.sub_title = title
            await self.show()

    async def _aside(self, message: ServerMessageType) -> None:
        """A message that leaves the tables as they are: a refusal, a notice, the link, the
        ratings, the rules preset, the end."""
        if isinstance(message, Rejected):
            if self.game_screen is not None:
                self.game_screen.typing_status(f"Not allowed: {message.reason}")
        elif isinstance(message, Notice):
            if message.seat is self.session.local_seats[0]:  # hot-seat: once, not per seat
                self.app.notify(message.text, severity=message.severity, markup=False,
                                timeout=8)
        elif isinstance(message, Link):
            await self._show_link(message)
        elif isinstance(message, Rated):
            self.rated = message
            if isinstance(self.app.screen, ResultScreen):
                self.app.screen.show_ratings(message)
        elif isinstance(message, RulesChosen):
            self.preset = message.preset
            if self.ready:
                self.app.sub_title = self.subtitle()

    def subtitle(self) -> str:
        """The header's line: who plays whom, under which rules (and the room code while a
        network room waits for its second player)."""
        return table_subtitle(self.session, self.tables[self.session.local_seats[0]],
                              self.preset)

    def _new_game_check(self, snapshot: Snapshot) -> None:
        """A snapshot of another game (a rematch in the same room, maybe in the other seat):
        the old tables and screen go."""
        old = self.tables.get(snapshot.seat)
        stale = [seat for seat in self.tables if seat not in self.session.local_seats]
        next_game = (old is not None and old.match is not None and snapshot.table.match is not None
                     and old.match.game != snapshot.table.match.game)
        if stale or next_game or (old is not None and snapshot.table.seq < old.seq):
            self.tables = {}
            self._holding = None
            self.rated = None
            if self.game_screen is not None:
                self.game_screen.clear_private()
            self.forget_screen()

    def _hold_after_own_discard(self, message: Applied) -> None:
        """Hot-seat: after a discard the screen stays with the discarder until they pass the
        keyboard (so that the next player never sees the previous one's tiles)."""
        if (self.session.traits.shared_screen and message.by is message.seat
                and message.table.view.phase == "discarding"
                and any(isinstance(e, Discarded) and e.seat is message.by
                        for e in message.events)):
            self._holding = message.seat
            self._clock_moved = message.automatic

    async def _show_link(self, message: Link) -> None:
        if message.state == "connected":
            if self._link is not None and self._link in self.app.screen_stack:
                self._link.dismiss()
            self._link = None
        else:
            detail = message.detail
            if message.state == "lost":
                detail = (f"The connection to the game server is lost ({detail}). The game "
                          "goes on there: come back with `minefield resume`. Ctrl+Q quits.")
            if self._link is None:
                self._link = LinkScreen(detail)
                await self.app.push_screen(self._link)
            else:
                self._link.detail = detail

    # -- intents from the screens --------------------------------------------------------------

    async def intent(self, intent: TableIntent) -> None:
        """What a screen asked for: a command, the hand builder's draft (R25), the hot-seat
        hand-over, or a match's next game."""
        if isinstance(intent, CommandChosen):
            await self.command_chosen(intent.seat, intent.command)
        elif isinstance(intent, DraftChanged):
            await self.session.draft(intent.seat, intent.tiles)
        elif isinstance(intent, TurnPassed):
            await self.turn_passed()
        elif isinstance(intent, CurtainLifted):
            await self.curtain_lifted()
        elif isinstance(intent, NextGameRequested):
            await self.next_game()

    async def command_chosen(self, seat: Seat, command: ChooseHand | Discard) -> None:
        """A local player chose their hand or a discard (the trainer keeps the danger a discard
        took, for its feedback line and the progress)."""
        table = self.tables.get(seat)
        if isinstance(command, Discard) and table is not None:
            self.trainer_doors.trainer.discarding(table.view, command.tile)
        try:
            await self.session.send(seat, command)
        except Exception as error:
            self.host.recover_from(error)

    async def turn_passed(self) -> None:
        """Hot-seat: the discarder hands the keyboard over."""
        self._holding = None
        await self.show()

    async def curtain_lifted(self) -> None:
        """Hot-seat: the next player is at the keyboard."""
        if self._screen_key is not None and self._screen_key[0] == "curtain":
            self._ready = self._screen_key[1]
            if isinstance(self.session, SharedKeyboard):  # that player's clock starts (R25)
                await self.session.at_keyboard(self._ready)
        await self.show()

    # -- routing -------------------------------------------------------------------------------

    def _game_link(self) -> str | None:
        """The finished network game's link at the browser door this client was reached
        through (``ssh-server --web``), for the result screen; None otherwise."""
        if self.session.traits.mode != "network":
            return None
        game = getattr(self.session, "game_id", None)
        return game_link(game if isinstance(game, str) else None)

    def target(self) -> ScreenKey:
        """Which screen to show now, for which seat."""
        seats = self.session.local_seats
        first = self.tables[seats[0]].view
        if first.phase == "ended":
            return "result", seats[0]
        seat = seats[0]
        if self.session.traits.shared_screen:
            if first.phase == "choosing":
                seat = next((s for s in seats if self.tables[s].view.own_hand is None), seat)
            else:
                seat = self._holding or first.turn or seat
        return ("build" if self.tables[seat].view.own_hand is None else "play"), seat

    async def show(self) -> None:
        """Bring the screen up to date (switching screens when needed); an error is reported
        and recovered from by the app, never left to stop its loop."""
        try:
            await self._show()
        except NoMatches:
            # The screen's widgets are gone under it (the app is closing, or Textual removed
            # them): it is not shown any more, and the next update builds a new one.
            self.forget_screen()
        except Exception as error:
            self.host.recover_from(error)

    async def _show(self) -> None:
        if self.closed or not self.ready:
            return
        kind, seat = self.target()
        table = self.tables[seat]
        view, names = table.view, self.names()
        key: ScreenKey = (kind, seat)
        if kind == "result":
            if self._screen_key != key and view.end is not None:
                doors, prefs = self.trainer_doors, self.prefs.preferences
                await self._replace(ResultScreen(
                    view.end, names, self.session.traits.mode, view.dora_indicator, view.discards,
                    self.host.scores, match=table.match, washizu=prefs.washizu, rated=self.rated,
                    notes=doors.feedback_notes(self.session.local_seats), link=self._game_link(),
                    trainer=doors, review=partial(doors.review, self)), key)
            return
        if key == self._screen_key and self.game_screen is not None:
            if isinstance(self.game_screen, PlayScreen):
                self.game_screen.hold = self._holding is not None
                self.game_screen.clock_moved = self._clock_moved
            self.game_screen.update_view(view)
            self.game_screen.update_table(table)
            return
        previous = self._screen_key
        if previous is not None and previous[0] == "curtain" and previous[1] == seat and (
                self._ready is not seat):
            return  # the curtain stays until that player says they are at the keyboard
        if self.session.traits.shared_screen and (previous is None or previous[1] != seat):
            self._ready = None
            reason = ("Build your hand: choose 13 of your 34 tiles." if kind == "build"
                      else f"Discard {view.discards_made + 1} of {TOTAL_DISCARDS}.")
            name = names[seat] if names[seat] != seat.value.title() else None
            curtain = CurtainScreen(seat, reason, name)
            await self._replace(curtain, ("curtain", seat))
            if kind == "play":  # the seat's screen built (if new) and the garbage collected
                self.hotseat.curtain_drawn(seat, curtain)
            return
        await self.hotseat.built(seat)
        if previous is not None and previous[0] == "curtain" and gc.isenabled():
            # The hand-over: no collection pause between Enter and the table (a full one takes
            # 100 ms and more once the app has grown); collected behind the curtain instead.
            gc.disable()
            try:
                await self._show_seat(kind, seat, key)
            finally:
                self.app.call_after_refresh(gc.enable)
            return
        await self._show_seat(kind, seat, key)

    async def _show_seat(self, kind: ScreenKind, seat: Seat, key: ScreenKey) -> None:
        """Show the seat's builder or play screen (the one kept for it if there is one)."""
        table = self.tables[seat]
        view, names = table.view, self.names()
        screen: SeatScreen
        kept = self.hotseat.kept.get(key)
        if isinstance(kept, PlayScreen):
            kept.hold = self._holding is not None
            kept.clock_moved = self._clock_moved
            kept.update_view(view)
            kept.update_table(table)
            screen = kept
        elif kind == "build":
            screen = HandBuilderScreen(view, names, self._hint_factory(), table=table,
                                       prefs=self.prefs)
            screen.shared_screen = self.session.traits.shared_screen
        else:
            screen = PlayScreen(view, names, trainer=self.trainer_doors, prefs=self.prefs,
                                hold=self._holding is not None,
                                announce_furiten=not self.session.traits.shared_screen,
                                table=table)
            screen.shared_screen = self.session.traits.shared_screen
            screen.clock_moved = self._clock_moved
            if self.session.traits.shared_screen:
                self.hotseat.keep(key, screen)
        await self._replace(screen, key)

    async def _replace(self, screen: Screen[None], key: ScreenKey) -> None:
        """Show ``screen`` in place of the game's current one."""
        if self.game_screen is not None:
            self.game_screen.clear_private()
        self.game_screen = None
        await self.host.show_game_screen(screen)
        self._screen_key = key
        self.game_screen = screen if isinstance(screen, SeatScreen) else None
        self.hotseat.remove_released()

    @property
    def screen_key(self) -> ScreenKey | None:
        """The screen shown now, for which seat (None: none yet)."""
        return self._screen_key

    @property
    def kept_screens(self) -> tuple[SeatScreen, ...]:
        """Hot-seat: the players' play screens kept between their turns (emptied of every
        private tile while the other player or the curtain is shown)."""
        return tuple(self.hotseat.kept.values())

    async def prebuilt(self) -> None:
        """Wait until the play screens being built behind a curtain are (tests, benchmarks)."""
        await self.hotseat.prebuilt()

    def forget_screen(self) -> None:
        """The screen is gone (an error is being recovered from, a new game starts, the game is
        left): the next update builds a new one (in hot-seat behind the curtain)."""
        self._screen_key = None
        self.game_screen = None
        self.hotseat.forget()


