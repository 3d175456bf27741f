"""The menu: practice, hot-seat, rules and keys, settings, quit; and the form that sets up a new
game before it starts (a single game or a match, bot level, seat, rules preset)."""

from __future__ import annotations

from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from minefield.bots.base import LEVELS, Level
from minefield.rules.game import Seat
from minefield.rules.settings import PRESETS, RuleSettings
from minefield.session.names import MAX_PLAYER_NAME, PlayerNameError, player_name, two_names
from minefield.tui.config import Preferences
from minefield.tui.games import GameRequest
from minefield.tui.host import preferences_of
from minefield.tui.messages import GameChosen
from minefield.tui.textual_private import SteadyHeader

MENU = (
    ("practice", "Practice against a bot"),
    ("hotseat", "Hot-seat: two players at this keyboard"),
    ("drills", "Defense drills"),
    ("stats", "Defense progress"),
    ("help", "Rules and keys"),
    ("settings", "Settings"),
    ("quit", "Quit"),
)

#: Each rule preset in one line (the help's "Rule presets" says the same at more length).
PRESET_NOTES = {
    "standard": "A ron must be worth at least mangan (R14).",
    "beginner": "Every wait wins, riichi being a yaku (R14: no minimum).",
    "match": "For matches: East, the dealer, is paid dealer values (R23).",
}

#: What the form plays: one game, or a match (R30) under the match preset by default.
KINDS = (("A single game", "single"), ("A match (several games, scores kept)", "match"))

#: The seat choices of practice: drawn from the seed (R6), or East or West.
RANDOM_SEAT = "random"
SEATS = (
    ("drawn from the seed (R6)", RANDOM_SEAT),
    ("East (discards first)", Seat.EAST.value),
    ("West (discards second)", Seat.WEST.value),
)

GameMode = Literal["practice", "hotseat"]


def preset_note(name: str) -> str:
    """What a rule preset means, in one line."""
    return PRESET_NOTES.get(name, "See the rule book (help, r).")


def match_note(name: str) -> str:
    """What a match under the rule preset ``name`` is (R23, R30-R35), in two lines.

    >>> print(match_note("match"))
    A match of 4 hands from 25000 points each (R30); East is paid dealer values (R23).
    Counter sticks 1000 (R32), noten payment 1000 (R33), ryanshi off (R34), paarenchan off (R35).
    """
    rules = RuleSettings.preset(name)
    dealer = ("East is paid dealer values" if rules.dealer_bonus
              else "both seats are paid as non-dealers")
    return (f"A match of {rules.hands} hands from {rules.start_points} points each (R30); "
            f"{dealer} (R23).\nCounter sticks {rules.honba_points} (R32), noten payment "
            f"{rules.noten_payment} (R33), ryanshi {'on' if rules.ryanshi else 'off'} (R34), "
            f"paarenchan {'on' if rules.paarenchan else 'off'} (R35).")


class NewGameScreen(ModalScreen[GameChosen | None]):
    """Before a game starts: the bot level and the seat (practice) and the rules preset, with
    the saved preferences chosen. Dismissed with the choice, or None (Escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start"),
        Binding("escape", "cancel", "Back"),
    ]

    def __init__(self, mode: GameMode, preferences: Preferences) -> None:
        super().__init__()
        self.mode: GameMode = mode
        self.preferences = preferences

    def compose(self) -> ComposeResult:
        prefs = self.preferences
        title = "Practice against a bot" if self.mode == "practice" else "Hot-seat"
        with Vertical(id="new-game-box"):
            yield Static(title, classes="dialog-title")
            with Grid(id="new-game-grid"):
                if self.mode == "hotseat":
                    yield Label("Players")
                    with Horizontal(id="names"):
                        yield Input(placeholder="East", max_length=MAX_PLAYER_NAME, id="east")
                        yield Input(placeholder="West", max_length=MAX_PLAYER_NAME, id="west")
                else:
                    yield Label("Your name")
                    yield Input(placeholder="You", max_length=MAX_PLAYER_NAME, id="name")
                yield Label("Play")
                yield Select(KINDS, value="single", allow_blank=False, id="kind")
                if self.mode == "practice":
                    yield Label("Bot level")
                    yield Select([(level, level) for level in LEVELS], value=prefs.bot_level,
                                 allow_blank=False, id="level")
                    yield Label("Your seat")
                    yield Select(SEATS, value=RANDOM_SEAT, allow_blank=False, id="seat")
                if self.mode == "hotseat":
                    yield Label("Trainer")
                    yield Checkbox("Trainer aids: both agree", id="aids")
                yield Label("Rules")
                yield Select([(name, name) for name in PRESETS], value=prefs.rules,
                             allow_blank=False, id="rules")
            yield Static(preset_note(prefs.rules), id="preset-note", classes="note")
            with Horizontal(classes="buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()  # Enter starts with what is chosen

    @property
    def match(self) -> bool:
        """True when the form asks for a match (R30)."""
        return self.query_one("#kind", Select).value == "match"

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        rules = self.query_one("#rules", Select)
        if event.select.id == "kind":
            # A match plays under the match preset unless another is chosen; its first
            # dealer is drawn from the seed (R30), so no seat is chosen.
            rules.value = "match" if self.match else self.preferences.rules
            for seat in self.query("#seat").results(Select):
                seat.disabled = self.match
            for field, seat_name, player in (("#east", "East", "Player 1"),
                                             ("#west", "West", "Player 2")):
                for names in self.query(field).results(Input):
                    names.placeholder = player if self.match else seat_name
        if isinstance(rules.value, str):
            note = match_note(rules.value) if self.match else preset_note(rules.value)
            self.query_one("#preset-note", Static).update(note)

    def choice(self) -> GameChosen:
        """The game the form describes now; a name that cannot be used raises
        :class:`~minefield.session.names.PlayerNameError`."""
        rules = str(self.query_one("#rules", Select).value)
        if self.mode == "hotseat":
            east, west = (self.query_one(f"#{seat}", Input) for seat in ("east", "west"))
            players = None
            if east.value.strip() or west.value.strip():
                players = two_names(east.value.strip() or east.placeholder,
                                    west.value.strip() or west.placeholder)
            return GameChosen(GameRequest("hotseat", rules=rules, match=self.match,
                                          aids=self.query_one("#aids", Checkbox).value,
                                          players=players))
        typed = self.query_one("#name", Input).value.strip()
        player = player_name(typed) if typed else None
        level_value = self.query_one("#level", Select).value
        level: Level = next((lv for lv in LEVELS if lv == level_value), self.preferences.bot_level)
        seat_value = self.query_one("#seat", Select).value
        seat = None if seat_value == RANDOM_SEAT or self.match else Seat(str(seat_value))
        return GameChosen(GameRequest("practice", rules=rules, level=level, seat=seat,
                                      match=self.match, player=player))

    def action_start(self) -> None:
        """Start the game (a name that cannot be used is said under the form instead)."""
        try:
            choice = self.choice()
        except PlayerNameError as error:
            self.query_one("#preset-note", Static).update(f"Name: {error}.")
            return
        self.dismiss(choice)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a name field starts the game, as the Start button does."""
        event.stop()
        self.action_start()

    def action_cancel(self) -> None:
        """Back to the menu without a game."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()


class MenuScreen(Screen[None]):
    """The first screen of ``minefield``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "choose('practice')", "Practice"),
        Binding("h", "choose('hotseat')", "Hot-seat"),
        Binding("d", "choose('drills')", "Drills"),
        Binding("t", "choose('stats')", "Progress"),
        Binding("s", "choose('settings')", "Settings"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Vertical(id="menu-box"):
            yield Static("MINEFIELD", id="menu-title")
            yield Static("two-player riichi mahjong from Kaiji", id="menu-subtitle")
            yield OptionList(*(Option(label, id=key) for key, label in MENU), id="menu")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            await self.action_choose(event.option.id)

    async def action_choose(self, choice: str) -> None:
        """Run one menu entry; a game first asks how it should be played."""
        if choice in ("practice", "hotseat"):
            mode: GameMode = "practice" if choice == "practice" else "hotseat"
            await self.app.push_screen(NewGameScreen(mode, preferences_of(self.app)),
                                       self._chosen)
        elif choice == "help":
            await self.app.run_action("app.help")
        elif choice == "settings":
            await self.app.run_action("app.settings")
        elif choice in ("stats", "drills"):
            await self.app.run_action(f"app.{choice}")
        elif choice == "quit":
            self.app.exit(0)

    def _chosen(self, choice: GameChosen | None) -> None:
        if choice is not None:
            self.post_message(choice)
