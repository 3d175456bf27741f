"""``minefield lobby``: the daemon's lobby, the first screen over ``minefield ssh-server``.

Who is connected and what they do, the public tables (Enter joins one) and the games being
played (Enter or ``w`` watches one, with only what both players see); ``h`` opens a public
table (rated; ``c`` a casual one, R36), ``b`` plays a bot, ``i`` invites a player in the
lobby (they are asked, accept or decline), ``k`` asks for a quick match (the next player
who asks, or a bot offered after 30 s), ``p`` shows a player's profile (figures, rating
history, last games to replay: :mod:`~minefield.tui.screens.profile`), ``m`` opens the menu
(practice, settings).
The app only chooses: it leaves a :class:`LobbyChoice` in ``choice``, which the
command line then runs (:mod:`minefield.cli.lobby`), coming back to the lobby afterwards.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import BaseModel, ValidationError
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Checkbox, DataTable, Input, Static

from minefield.protocol.lobby import (
    AnswerInvitation,
    Cancel,
    Invitation,
    Invite,
    LobbyState,
    LobbyTable,
    Matching,
    Motd,
    QuickMatch,
    Seated,
    TournamentRound,
)
from minefield.protocol.profiles import AskProfile, Profile, RecordPart
from minefield.protocol.wire import WireError
from minefield.tui.screens.dialogs import FORM_FOCUS_KEYS, ConfirmScreen
from minefield.tui.screens.help import HelpScreen, keys_markdown
from minefield.tui.screens.profile import PlayerPickScreen, ProfileReplayScreen, ProfileScreen
from minefield.tui.screens.replay import ReplayScreen
from minefield.tui.textual_private import FieldFirstScreen, OrderedInput, SteadyHeader
from minefield.tui.viewer_app import ViewerApp
from minefield.tui.widgets.footer import KeysFooter

#: What the lobby's link gives (:class:`~minefield.session.lobby_link.LobbyLink`).
LobbyEvent = (LobbyState | Invitation | Matching | Seated | TournamentRound | Motd | Profile
              | RecordPart | WireError)
States = Callable[[], AsyncIterator[LobbyEvent]]
#: Sends a lobby request to the server.
Send = Callable[[BaseModel], None]
#: What an ended invitation is told as, to each side.
ENDED = {"declined": ("{to} declined your invitation.", "You declined {by}'s invitation."),
         "expired": ("{to} did not answer your invitation.", "{by}'s invitation expired."),
         "cancelled": ("Your invitation to {to} was withdrawn.", "{by} withdrew the invitation."),
         "gone": ("{to} left the lobby.", "")}


class InviteScreen(FieldFirstScreen[tuple[str, bool] | None]):
    """The name of the player to invite and whether the game is rated (casual unless ticked,
    R36); Enter invites, Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Back"),
                                             *FORM_FOCUS_KEYS]

    def __init__(self, names: list[str]) -> None:
        super().__init__()
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Invite whom? (a player in the lobby)", classes="question")
            yield OrderedInput(value=self.names[0] if self.names else "", max_length=32,
                               placeholder="name", id="invite-name")
            yield Checkbox("Rated (else casual: no rating changes)", False,
                           id="invite-rated")
            yield Static("In the lobby: " + (", ".join(self.names) or "nobody else"),
                         classes="hint", markup=False)
        yield KeysFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        name = event.value.strip()
        self.dismiss((name, self.query_one("#invite-rated", Checkbox).value) if name else None)

    def action_cancel(self) -> None:
        """Invite nobody."""
        self.dismiss(None)


@dataclass(frozen=True, slots=True)
class LobbyChoice:
    """What the player chose: join the table ``code``, host (a public table, or a bot game
    with ``bot``), sit at the room ``game`` the lobby made (an invitation, a quick match),
    watch the game ``game``, the menu, or quit (the app returns None)."""

    action: Literal["join", "host", "menu", "resume", "watch"]
    code: str | None = None
    bot: str | None = None
    game: str | None = None
    casual: bool = False  # host: a casual public table (R36)


class LobbyScreen(Screen[None]):
    """The lobby's one screen."""

    # The footer shows the keys that apply now, whole at 80 columns ("q Quit" and "F1 Help"
    # included): Escape only while waiting for a quick match or an answer, in the place of k
    # or i; h opens a public table (said in the hint line above it), w is there and in the
    # help (F1).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join", "Join/watch"),
        Binding("w", "watch", "Watch", show=False),
        Binding("h", "host", "Host"),
        Binding("c", "host_casual", "Host casual", show=False),
        Binding("b", "bot", "Bot"),
        # A priority binding: the keys typed with i go to the form, never to this screen
        # (FieldFirstScreen).
        Binding("i", "invite", "Invite", priority=True),
        Binding("k", "quick", "Quick match"),
        # p: not in the footer (whole at 80 columns without it), in the help (F1). A priority
        # binding: the name typed with it goes to the form.
        Binding("p", "profile", "A player's profile: figures, rating history, last games",
                show=False, priority=True),
        Binding("escape", "cancel", "Stop waiting"),
        Binding("escape", "withdraw", "Withdraw"),
        Binding("m", "menu", "Menu"),
        Binding("q", "quit_lobby", "Quit"),
    ]

    def __init__(self, states: States, choose: Callable[[LobbyChoice | None], None],
                 send: Send | None = None, me: str | None = None) -> None:
        super().__init__()
        self.lobby_states = states
        self.choose = choose
        self.send = send
        self.me = me
        self.tables: list[LobbyTable] = []
        self.state: LobbyState | None = None
        #: The quick match as it stands (None: not asked), the bot offered.
        self.matching: Matching | None = None
        #: The invitations this player is asked, by id, with their dialogs.
        self.asked: dict[str, ConfirmScreen] = {}
        #: The id of the invitation this player sent, while it waits for the answer.
        self.inviting: str | None = None
        #: The tournament games whose notice is shown now.
        self.rounds_asked: set[str] = set()
        #: The server's message of the day (its admins'), shown above the players.
        self.motd: str | None = None

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        yield Static("Connecting to the game server...", id="lobby-online")
        table: DataTable[str] = DataTable(id="lobby-tables", cursor_type="row", zebra_stripes=True)
        table.add_columns("Table", "Host", "Rules", "Players", "Watching")
        yield table
        yield Static("", id="lobby-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.title = "Minefield"
        self.sub_title = "Lobby"
        self.follow()

    @work(exclusive=True, group="session")  # the connection's reader, as a game's is
    async def follow(self) -> None:
        """Show every state of the lobby as it comes."""
        try:
            async for event in self.lobby_states():
                if isinstance(event, Profile | RecordPart) or (
                        isinstance(event, WireError) and self._profile_waits()):
                    self._to_profile(event)
                elif isinstance(event, LobbyState):
                    self.show(event)
                elif isinstance(event, Motd):
                    self.motd = event.text
                    if self.state is not None:
                        self.show(self.state)
                else:
                    self.take(event)
        except Exception as error:  # the server refused or went: one line, the lobby stays
            self.query_one("#lobby-online", Static).update(f"The game server: {error}")
            return
        self.query_one("#lobby-online", Static).update(
            "The game server closed the lobby: q to quit, m for the menu.")

    def take(self, event: Invitation | Matching | Seated | TournamentRound | WireError) -> None:
        """An event of the lobby: an invitation (asked: a notice to accept or decline; sent:
        how it stands), the quick match, a room made for this player, a tournament's round
        begun (a notice: Enter sits the player), a refusal."""
        if isinstance(event, Seated):
            self.choose(LobbyChoice("resume", game=event.game))
        elif isinstance(event, TournamentRound):
            self._tournament_round(event)
        elif isinstance(event, WireError):
            self.notify(event.message, severity="error", markup=False, timeout=8)
        elif isinstance(event, Matching):
            self.matching = None if event.state == "cancelled" else event
            self._hint()
            self.refresh_bindings()
        else:
            self._invitation(event)

    def _profile_screen(self) -> ProfileScreen | None:
        """The profile screen open over the lobby, if there is one."""
        return next((screen for screen in reversed(self.app.screen_stack)
                     if isinstance(screen, ProfileScreen)), None)

    def _profile_waits(self) -> bool:
        """True while a profile screen waits for an answer (a refusal is then its)."""
        screen = self._profile_screen()
        return screen is not None and (screen.profile is None or screen.fetching is not None)

    def _to_profile(self, event: Profile | RecordPart | WireError) -> None:
        screen = self._profile_screen()
        if screen is not None:
            screen.take(event)

    def action_profile(self) -> None:
        """A player's profile: one online (chosen in a list) or any name typed."""
        send = self.send
        if send is None:
            self.notify("This server does not offer profiles.", severity="warning")
            return
        names = [p.name for p in (self.state.online if self.state else [])]

        def open_profile(name: str | None) -> None:
            if not name:
                return
            try:
                AskProfile(player=name)
            except ValidationError:
                self.notify(f"{name[:40]!r} is not a player's name (letters, digits, . _ -).",
                            severity="error", markup=False)
                return
            self.app.push_screen(ProfileScreen(name, send))

        self.app.push_screen(PlayerPickScreen(names, self.me), open_profile)

    def _tournament_round(self, event: TournamentRound) -> None:
        """Round N of a tournament has begun: a notice naming the game and the opponent;
        Enter sits the player (R37: absent 10 minutes after the round began, the game is
        lost by forfeit)."""
        if event.game in self.rounds_asked:  # told again while the notice is up
            return
        dialog = ConfirmScreen(f"{event.tournament}, round {event.round}: your game against "
                               f"{event.opponent} ({event.seat.value.capitalize()}) is "
                               "ready. Not seated within 10 minutes of the round's start, it "
                               "is lost by forfeit.", yes="Sit down (Enter)", no="Later (n)",
                               enter_says_yes=True)
        self.rounds_asked.add(event.game)

        def answered(yes: bool | None) -> None:
            self.rounds_asked.discard(event.game)
            if yes:
                self.choose(LobbyChoice("resume", game=event.game))

        self.app.push_screen(dialog, answered)

    def _invitation(self, event: Invitation) -> None:
        mine = self.me is None or event.to.casefold() != self.me.casefold()
        if mine:
            self.inviting = event.id if event.state == "open" else None
            self.refresh_bindings()
        if event.state == "open":
            if mine:
                self.notify(f"Invitation sent to {event.to}: waiting for the answer "
                            f"({event.seconds} s).", markup=False, timeout=6)
                return
            table = "rated" if event.rated else "casual: no rating changes"
            dialog = ConfirmScreen(f"{event.by} invites you to a game (standard rules, "
                                   f"{table}; {event.seconds} s to answer).",
                                   yes="Accept (y)", no="Decline (n)")
            self.asked[event.id] = dialog
            self.app.push_screen(dialog, lambda yes: self._answer(event.id, bool(yes)))
            return
        shown = self.asked.get(event.id)
        if shown is not None:
            del self.asked[event.id]  # its answer is no longer sent
            if shown.is_attached:
                shown.dismiss(False)
        text = ENDED[event.state][0 if mine else 1].format(to=event.to, by=event.by)
        if text:
            self.notify(text, markup=False, timeout=8)

    def _answer(self, invitation: str, accept: bool) -> None:
        if invitation in self.asked and self.send is not None:
            self.asked.pop(invitation)
            self.send(AnswerInvitation(invitation=invitation, accept=accept))

    def show(self, state: LobbyState) -> None:
        """Put ``state`` on the screen (the cursor stays on the same table if it is there)."""
        self.state = state
        online = ", ".join(
            f"{p.name}{'' if p.rating is None else f' {p.rating}'} "
            f"({p.status}{', program' if p.program else ''})"  # a bot over ssh HOST wire, as who
            for p in state.online) or "nobody"
        running = "".join(f"\nTournament {t.name}: round {t.round} of {t.rounds}"
                          for t in state.tournaments)
        line = f"Online ({len(state.online)}): {online}{running}"
        self.query_one("#lobby-online", Static).update(
            Text.assemble((self.motd, "bold"), "\n", line) if self.motd else line)
        table: DataTable[str] = self.query_one("#lobby-tables", DataTable)
        chosen = self._key(self.tables[table.cursor_row]) if (
            self.tables and 0 <= table.cursor_row < len(self.tables)) else None
        self.tables = list(state.tables)
        table.clear()
        for entry in self.tables:
            where = f"join {entry.code}" if entry.code else "playing"
            rules = entry.rules if entry.rated else f"{entry.rules}, casual"  # R36
            table.add_row(where, entry.host, rules, " vs ".join(entry.players),
                          str(entry.watchers) if entry.game else "")
        keys = [self._key(entry) for entry in self.tables]
        if chosen in keys:
            table.move_cursor(row=keys.index(chosen))
        self._hint()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer shows what applies now: Escape while waiting (for a quick match, for
        the answer to an invitation) instead of k or i; i dimmed where the server takes none."""
        waiting = self.matching is not None
        if action == "cancel":
            return waiting
        if action == "withdraw":
            return self.inviting is not None and not waiting
        if action == "quick":
            return not waiting
        if action == "invite":  # the form lists who is in the lobby; the server answers a name
            return False if self.inviting is not None else (self.send is not None) or None
        if action == "profile":
            return (self.send is not None) or None
        return True

    def _invitable(self) -> list[str]:
        """The players in the lobby (or waiting for a quick match) other than this one."""
        me = (self.me or "").casefold()
        return [p.name for p in (self.state.online if self.state else [])
                if p.status in ("lobby", "waiting") and p.name.casefold() != me]

    def _hint(self) -> None:
        matching = self.matching
        self.query_one("#lobby-hint", Static).update(
            "Looking for a player for a quick match (Escape stops)..."
            if matching is not None and matching.state == "waiting" else
            f"Nobody yet: b plays a bot ({matching.bot}) now, or keep waiting (Escape stops)."
            if matching is not None else
            "No open tables yet: h opens a public one (c casual), b plays a bot, i invites."
            if not self.tables else
            "Enter joins or watches (w) a table; h opens a public one (c casual), F1 help.")

    @staticmethod
    def _key(entry: LobbyTable) -> str:
        return entry.code or entry.game or ""

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click) on a table's row: join it."""
        event.stop()
        self.action_join()

    def _chosen(self) -> LobbyTable | None:
        table: DataTable[str] = self.query_one("#lobby-tables", DataTable)
        if not self.tables or not 0 <= table.cursor_row < len(self.tables):
            return None
        return self.tables[table.cursor_row]

    def action_join(self) -> None:
        """Join the table under the cursor, or watch it if it is a game being played."""
        entry = self._chosen()
        if entry is None:
            self.notify("No table to join: h opens one.", severity="warning")
            return
        if entry.code is None:
            self.action_watch()
            return
        self.choose(LobbyChoice("join", code=entry.code))

    def action_watch(self) -> None:
        """Watch the game under the cursor (no seat: only what both players see, R26)."""
        entry = self._chosen()
        if entry is None or entry.game is None:
            self.notify("No game being played there: a table waiting for a player has "
                        "nothing to watch yet.", severity="warning")
            return
        self.choose(LobbyChoice("watch", game=entry.game))

    def action_host(self) -> None:
        """Open a public table (listed here for anyone to join), rated."""
        self.choose(LobbyChoice("host"))

    def action_host_casual(self) -> None:
        """Open a casual public table: its games never change a rating (R36)."""
        self.choose(LobbyChoice("host", casual=True))

    def action_bot(self) -> None:
        """Play a bot on the server (the bot offered, while waiting for a quick match)."""
        if self.matching is not None and self.send is not None:
            self.send(QuickMatch(bot=self.matching.bot or "normal"))
            return
        self.choose(LobbyChoice("host", bot="normal"))

    def _lobby_only(self) -> bool:
        if self.send is None:
            self.notify("This server does not offer invitations.", severity="warning")
            return False
        return True

    def action_invite(self) -> None:
        """Invite a player in the lobby (they are asked to accept or decline)."""
        if not self._lobby_only():
            return
        names = self._invitable()

        def invite(chosen: tuple[str, bool] | None) -> None:
            if not chosen or self.send is None:
                return
            name, rated = chosen
            try:
                self.send(Invite(player=name, rated=rated))
            except ValidationError:
                self.notify(f"{name[:40]!r} is not a player's name (letters, digits, . _ -).",
                            severity="error", markup=False)

        self.app.push_screen(InviteScreen(names), invite)

    def action_quick(self) -> None:
        """A quick match: the next player who asks (a bot is offered after 30 s)."""
        if self._lobby_only() and self.send is not None:
            self.send(QuickMatch())

    def action_cancel(self) -> None:
        """Stop waiting for a quick match; withdraw an invitation."""
        if self.send is not None:
            self.send(Cancel())

    def action_withdraw(self) -> None:
        """Withdraw the invitation sent (the server answers as for Escape)."""
        self.action_cancel()

    def action_menu(self) -> None:
        """The menu: practice, hot-seat, drills, settings."""
        self.choose(LobbyChoice("menu"))

    def action_quit_lobby(self) -> None:
        """Leave."""
        self.choose(None)


class LobbyApp(ViewerApp):
    """The lobby; after ``run()``, :attr:`choice` is the player's :class:`LobbyChoice` (None:
    quit)."""

    HELP_TITLE = "Lobby"
    SCREEN_BINDINGS = LobbyScreen.BINDINGS

    def __init__(self, states: States, send: Send | None = None, me: str | None = None) -> None:
        super().__init__()
        self.lobby_states = states
        self.lobby_send = send
        self.me = me
        self.choice: LobbyChoice | None = None

    def action_help(self) -> None:
        """The keys of the screen shown: a profile's, a replay's (from a profile), else the
        lobby's."""
        screen = self.screen
        shown = (("Profile", ProfileScreen.BINDINGS) if isinstance(screen, ProfileScreen)
                 else ("Replay", [*(b for b in ReplayScreen.BINDINGS
                                    if not isinstance(b, Binding) or b.action != "close"),
                                  *ProfileReplayScreen.BINDINGS])
                 if isinstance(screen, ProfileReplayScreen) else None)
        if shown is None:
            super().action_help()
            return
        self.push_screen(HelpScreen(keys_markdown(self, [shown, ("Everywhere", self.BINDINGS)])))

    def get_default_screen(self) -> LobbyScreen:
        return LobbyScreen(self.lobby_states, self._choose, self.lobby_send, self.me)

    def _choose(self, choice: LobbyChoice | None) -> None:
        self.choice = choice
        self.exit()


__all__ = ["InviteScreen", "LobbyApp", "LobbyChoice", "LobbyEvent", "LobbyScreen"]
