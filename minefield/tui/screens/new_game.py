"""The form that sets up a new game before it starts (a single game or a match, bot level,
seat, rules preset, clocks); the menu opens it for practice and hot-seat. Apart from the menu
(:mod:`minefield.tui.screens.menu`) so that the menu's first frame does without the rule
settings and pydantic."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from minefield.bots.base import LEVELS, Level
from minefield.rules.game import Seat
from minefield.rules.settings import (
    CLOCK_SETTINGS,
    MATCH_PRESETS,
    PRESETS,
    RuleSettings,
    SettingsError,
    clock_words,
    parse_clock,
)
from minefield.session.names import MAX_PLAYER_NAME, PlayerNameError, player_name, two_names
from minefield.tui.config import Preferences
from minefield.tui.host import PreferencesSource
from minefield.tui.messages import GameChosen
from minefield.tui.screens.dialogs import FORM_FOCUS_KEYS
from minefield.tui.screens.rules import RulesScreen
from minefield.tui.textual_private import OrderedInput
from minefield.tui.widgets.footer import KeysFooter
from minefield.tui.widgets.tickbox import TickBox

#: Each rule preset in one line (the help's "Rule presets" says the same at more length).
PRESET_NOTES = {
    "standard": "A ron must be worth at least mangan (R14).",
    "beginner": "Every wait wins, riichi being a yaku (R14: no minimum).",
    "match": "For matches: East, the dealer, is paid dealer values (R23).",
    "club": "The Dutch club's match: ryanshi and paarenchan on (R34, R35).",
}

#: The clocks of R25 the form offers, as HAND+DISCARD seconds (``custom``: typed beside it).
CUSTOM_CLOCK = "custom"
CLOCKS = (("off", "off"), ("180+15 (as online)", "180+15"), ("60+10", "60+10"),
          ("30+5", "30+5"), ("custom", CUSTOM_CLOCK))

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


def match_note(name: str, rule: tuple[str, ...] = ()) -> str:
    """What a match under the rule preset ``name`` (with ``rule`` over it) is (R23, R30-R35),
    in two lines.

    >>> print(match_note("match"))
    A match of 4 hands from 25000 points each (R30); East is paid dealer values (R23).
    Counter sticks 1000 (R32), noten payment 1000 (R33), ryanshi off (R34), paarenchan off (R35).
    """
    rules = RuleSettings.chosen(name, rule)
    dealer = ("East is paid dealer values" if rules.dealer_bonus
              else "both seats are paid as non-dealers")
    return (f"A match of {rules.hands} hands from {rules.start_points} points each (R30); "
            f"{dealer} (R23).\nCounter sticks {rules.honba_points} (R32), noten payment "
            f"{rules.noten_payment} (R33), ryanshi {'on' if rules.ryanshi else 'off'} (R34), "
            f"paarenchan {'on' if rules.paarenchan else 'off'} (R35).")


class NewGameScreen(ModalScreen[GameChosen | None]):
    """Before a game starts: the bot level and the seat (practice), the rules preset with the
    settings changed over it ("Rules...", every setting) and the clocks (R25), with the saved
    preferences chosen. Start posts the choice (:class:`GameChosen`) to the app and the form
    stays up until the game's first screen replaces it; Escape dismisses it with None. The
    clock, the settings changed over the preset and the bot level are remembered in the
    preferences when a game starts, and a form opens with them (the changes of each preset
    apart). The focus starts on the first field. ``prefs``: the player's preferences (the form
    starts from them as they are when it opens)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Ctrl+S starts and Ctrl+R opens "Rules..." from any field, a text field too (s and r
        # type there: the focus starts in the first field, a name); s and r from the others.
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("s", "start", "Start", show=False),
        Binding("ctrl+r", "rules", "Rules...", priority=True),
        Binding("r", "rules", "Rules...", show=False),
        Binding("escape", "cancel", "Back"),
        *FORM_FOCUS_KEYS,
    ]

    def __init__(self, mode: GameMode, prefs: PreferencesSource) -> None:
        super().__init__()
        self.mode: GameMode = mode
        self._prefs = prefs
        #: The preferences when the form opened: it starts from them.
        self.preferences = preferences = prefs.preferences
        #: The settings changed over the preset with "Rules..." (``NAME=VALUE``), clocks apart.
        self.rule: tuple[str, ...] = preferences.rule_changes.get(preferences.rules, ())
        #: True once Start was pressed: the game is starting and replaces the form.
        self.started = False

    def compose(self) -> ComposeResult:
        prefs = self.preferences
        title = "Practice against a bot" if self.mode == "practice" else "Hot-seat"
        with Vertical(id="new-game-box"):
            yield Static(title, classes="dialog-title")
            with Grid(id="new-game-grid"):
                if self.mode == "hotseat":
                    yield Label("Players")
                    with Horizontal(id="names"):
                        yield OrderedInput(placeholder="East", max_length=MAX_PLAYER_NAME,
                                           id="east", compact=True)
                        yield OrderedInput(placeholder="West", max_length=MAX_PLAYER_NAME,
                                           id="west", compact=True)
                else:
                    yield Label("Your name")
                    yield OrderedInput(placeholder="You", max_length=MAX_PLAYER_NAME, id="name",
                                       compact=True)
                yield Label("Play")
                yield Select(KINDS, value="single", allow_blank=False, id="kind", compact=True)
                if self.mode == "practice":
                    yield Label("Bot level")
                    yield Select([(level, level) for level in LEVELS], value=prefs.bot_level,
                                 allow_blank=False, id="level", compact=True)
                    yield Label("Your seat")
                    yield Select(SEATS, value=RANDOM_SEAT, allow_blank=False, id="seat",
                                 compact=True)
                if self.mode == "hotseat":
                    yield Label("Trainer")
                    yield TickBox("Trainer aids: both agree", id="aids", compact=True)
                yield Label("Rules")
                with Horizontal(classes="form-pair"):
                    yield Select([(name, name) for name in PRESETS], value=prefs.rules,
                                 allow_blank=False, id="rules", compact=True)
                    yield Button("Rules...", id="edit-rules", compact=True)
                yield Label("Clock")
                with Horizontal(classes="form-pair"):
                    offered = prefs.clock in (value for _, value in CLOCKS)
                    yield Select(CLOCKS, value=prefs.clock if offered else CUSTOM_CLOCK,
                                 allow_blank=False, id="clock", compact=True)
                    yield OrderedInput("" if offered else prefs.clock, placeholder="HAND+DISCARD",
                                       id="custom-clock", compact=True, disabled=offered)
            yield Static(preset_note(prefs.rules), id="preset-note", classes="note")
            with Horizontal(classes="buttons"):
                yield Button("Start", id="start", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        # The first field (Tab Tab Enter no longer starts a game unseen); s or Start starts.
        self.query_one("#east" if self.mode == "hotseat" else "#name", Input).focus()
        self._show_note()

    @property
    def match(self) -> bool:
        """True when the form asks for a match (R30)."""
        return self.query_one("#kind", Select).value == "match"

    @property
    def preset(self) -> str:
        """The rules preset chosen."""
        return str(self.query_one("#rules", Select).value)

    def clock_rule(self) -> list[str]:
        """The clock chosen, as its two settings (R25); raises :class:`SettingsError` for a
        custom clock that is not ``HAND+DISCARD``."""
        clock = self.query_one("#clock", Select).value
        if clock == CUSTOM_CLOCK:
            return parse_clock(self.query_one("#custom-clock", Input).value)
        return parse_clock(str(clock))

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        rules = self.query_one("#rules", Select)
        if event.select.id == "kind":
            # A match plays under the match preset unless another is chosen; its first
            # dealer is drawn from the seed (R30), so no seat is chosen.
            if self.match and rules.value not in MATCH_PRESETS:
                rules.value = "match"
            elif not self.match and rules.value in MATCH_PRESETS:
                rules.value = self.preferences.rules
            for seat in self.query("#seat").results(Select):
                seat.disabled = self.match
            for field, seat_name, player in (("#east", "East", "Player 1"),
                                             ("#west", "West", "Player 2")):
                for names in self.query(field).results(Input):
                    names.placeholder = player if self.match else seat_name
        elif event.select.id == "rules":  # the changes made over this preset before
            self.rule = self.preferences.rule_changes.get(str(event.value), ())
            if (event.value in MATCH_PRESETS) != self.match:
                self.query_one("#kind", Select).value = (
                    "match" if event.value in MATCH_PRESETS else "single")
        elif event.select.id == "clock":
            custom = self.query_one("#custom-clock", Input)
            custom.disabled = event.value != CUSTOM_CLOCK
            if not custom.disabled:
                custom.focus()
        self._show_note()

    def _show_note(self, problem: str | None = None) -> None:
        """What the rules chosen are, with the changes over the preset (or what is wrong)."""
        note = self.query_one("#preset-note", Static)
        if problem is not None:
            note.update(f"[$text-error]{escape(problem)}[/]")
            return
        name = self.preset
        if name not in PRESETS:
            return
        text = match_note(name, self.rule) if self.match else preset_note(name)
        if self.rule:
            text += f"\nChanged: {escape(', '.join(self.rule))}"
        note.update(text)

    def choice(self) -> GameChosen:
        """The game the form describes now; raises :class:`SettingsError` for a bad clock and
        :class:`~minefield.session.names.PlayerNameError` for a name that cannot be used."""
        from minefield.tui.games import GameRequest

        rules = self.preset
        rule = (*self.rule, *self.clock_rule())
        RuleSettings.chosen(rules, rule)  # every setting checked before the game starts
        if self.mode == "hotseat":
            east, west = (self.query_one(f"#{seat}", Input) for seat in ("east", "west"))
            players = None
            if east.value.strip() or west.value.strip():
                players = two_names(east.value.strip() or east.placeholder,
                                    west.value.strip() or west.placeholder)
            return GameChosen(GameRequest("hotseat", rules=rules, match=self.match, rule=rule,
                                          aids=self.query_one("#aids", Checkbox).value,
                                          players=players))
        typed = self.query_one("#name", Input).value.strip()
        player = player_name(typed) if typed else None
        level_value = self.query_one("#level", Select).value
        level: Level = next((lv for lv in LEVELS if lv == level_value), self.preferences.bot_level)
        seat_value = self.query_one("#seat", Select).value
        seat = None if seat_value == RANDOM_SEAT or self.match else Seat(str(seat_value))
        return GameChosen(GameRequest("practice", rules=rules, level=level, seat=seat,
                                      match=self.match, rule=rule, player=player))

    def action_start(self) -> None:
        """Start the game (a bad clock is named and nothing starts)."""
        if self.started:
            return  # started already: the game's first screen is on its way
        try:
            choice = self.choice()
        except SettingsError as error:
            self._show_note(str(error))
            return
        except PlayerNameError as error:
            self._show_note(f"Name: {error}.")
            return
        self._remember()
        # The form stays until the game's first screen replaces it (the curtain in hot-seat):
        # dismissed first, the menu showed for a moment in between.
        self.started = True
        self.app.post_message(choice)

    def _remember(self) -> None:
        """Keep the clock, the changes over the preset and (practice) the bot level in the
        preferences (saved): the next form opens with them."""
        from minefield.tui.screens.settings import SettingsScreen

        levels = [select.value for select in self.query("#level").results(Select)]
        clock = str(self.query_one("#clock", Select).value)
        if clock == CUSTOM_CLOCK:
            clock = self.query_one("#custom-clock", Input).value.strip()
        changes = {**self.preferences.rule_changes, self.preset: self.rule}
        if not self.rule:
            del changes[self.preset]
        preferences = self._prefs.preferences  # as they are now (the palette's theme, say)
        try:  # checked as a saved file is (a custom clock too long to keep is not kept)
            remembered = Preferences.model_validate(
                {**preferences.model_dump(), "clock": clock, "rule_changes": changes,
                 "bot_level": levels[0] if levels else preferences.bot_level})
        except ValidationError:
            return
        if remembered != preferences:
            self.app.post_message(SettingsScreen.Changed(remembered))

    async def action_rules(self) -> None:
        """Every rule setting over the preset, each with its rule number ("Rules...")."""
        try:
            clock = self.clock_rule()
        except SettingsError:
            clock = []
        await self.app.push_screen(RulesScreen(self.preset, (*self.rule, *clock)),
                                   self._rules_edited)

    def _rules_edited(self, rule: tuple[str, ...] | None) -> None:
        if rule is None:
            return
        settings = RuleSettings.chosen(self.preset, rule)
        self.rule = tuple(r for r in rule if r.partition("=")[0] not in CLOCK_SETTINGS)
        clock = clock_words(settings)
        clocks = [value for _, value in CLOCKS]
        self.query_one("#clock", Select).value = clock if clock in clocks else CUSTOM_CLOCK
        custom = self.query_one("#custom-clock", Input)
        custom.value = "" if clock in clocks else clock
        custom.disabled = clock in clocks
        self._show_note()

    def action_cancel(self) -> None:
        """Back to the menu without a game."""
        if not self.started:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "edit-rules":
            await self.action_rules()
        else:
            self.action_cancel()
