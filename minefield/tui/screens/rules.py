"""The new-game form's "Rules..." editor: every rule setting with its rule number and a line of
explanation, over the chosen preset (RULES.md "Rule presets"; R1, R14, R20, R23, R25, R30-R35).

It answers with the ``NAME=VALUE`` settings that differ from the preset, exactly what
``--rule`` takes, or None when left with Escape. A bad value is named in one line and nothing
is changed.
"""

from __future__ import annotations

from typing import Any, ClassVar, get_args

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from minefield.rules.settings import (
    RuleSettings,
    SettingsError,
    rule_arguments,
    rule_names,
    rule_text,
    rule_value_text,
    rule_words,
)
from minefield.tui.screens.dialogs import FORM_FOCUS_KEYS
from minefield.tui.textual_private import OrderedInput
from minefield.tui.widgets.footer import KeysFooter

#: The on/off choices of a yes-or-no setting.
ON_OFF = (("on", "on"), ("off", "off"))


def rule_number(name: str) -> str:
    """The rule a setting belongs to: ``R34`` for ``ryanshi``."""
    return rule_text(name).partition(":")[0]


def explanation(name: str) -> str:
    """A setting's line of explanation, without its rule number."""
    return rule_text(name).partition(":")[2].strip()


class RulesScreen(ModalScreen[tuple[str, ...] | None]):
    """Every rule setting over ``preset``, starting from ``rule`` (``NAME=VALUE`` settings over
    it). Dismissed with the settings that differ from the preset, or None (Escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "done", "Done"),
        Binding("ctrl+r", "reset", "The preset's rules"),
        Binding("escape", "cancel", "Back"),
        *FORM_FOCUS_KEYS,
    ]

    def __init__(self, preset: str, rule: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.preset = preset
        self.settings = RuleSettings.chosen(preset, rule)

    def compose(self) -> ComposeResult:
        with Vertical(id="rules-box"):
            yield Static(f"Rules: the {self.preset} preset and your changes",
                         classes="dialog-title")
            with VerticalScroll(id="rules-list"):
                for name in rule_names():
                    with Horizontal(classes="rule-row"):
                        yield Label(f"{rule_number(name):<4} {rule_words(name)}",
                                    classes="rule-name")
                        yield self._editor(name)
                    yield Static(f"{explanation(name)} · [dim]{name}[/]", classes="rule-note")
            yield Static("", id="rules-status")
            with Horizontal(classes="buttons"):
                yield Button("Done", id="done", variant="primary", compact=True)
                yield Button("Preset", id="reset", compact=True)
                yield Button("Back", id="back", compact=True)
        yield KeysFooter()

    def _editor(self, name: str) -> Select[str] | Input:
        """A choice for on/off settings and the minimum, a text field for numbers."""
        value = getattr(self.settings, name)
        field = RuleSettings.model_fields[name]
        widget_id = f"rule-{name}"
        if field.annotation is bool:
            return Select(ON_OFF, value=rule_value_text(value), allow_blank=False,
                          id=widget_id, compact=True)
        words = [str(choice) for choice in get_args(field.annotation)
                 if isinstance(choice, str)]
        if words:
            return Select([(word, word) for word in words], value=str(value),
                          allow_blank=False, id=widget_id, compact=True)
        return OrderedInput(rule_value_text(value), id=widget_id, compact=True,
                            placeholder="none" if value is None else "")

    def on_mount(self) -> None:
        self.query_one("#rules-list").focus()

    def _show(self, settings: RuleSettings) -> None:
        for name in rule_names():
            value = rule_value_text(getattr(settings, name))
            widget = self.query_one(f"#rule-{name}")
            if isinstance(widget, Input | Select):
                widget.value = value

    def chosen(self) -> tuple[str, ...]:
        """The settings shown, as ``NAME=VALUE`` over the preset; raises
        :class:`SettingsError` naming a bad one."""
        typed: list[str] = []
        for name in rule_names():
            widget: Any = self.query_one(f"#rule-{name}")
            typed.append(f"{name}={str(widget.value).strip() or 'none'}")
        settings = RuleSettings.chosen(self.preset, typed)
        return tuple(rule_arguments(settings, self.preset))

    def action_done(self) -> None:
        """Play these rules (a bad value is named and nothing changes)."""
        try:
            rule = self.chosen()
        except SettingsError as error:
            self.query_one("#rules-status", Static).update(f"[$text-error]{escape(str(error))}[/]")
            return
        self.dismiss(rule)

    def action_reset(self) -> None:
        """Back to the preset's rules (not yet kept: Done keeps them)."""
        self._show(RuleSettings.preset(self.preset))
        self.query_one("#rules-status", Static).update(f"The {self.preset} preset's rules.")

    def action_cancel(self) -> None:
        """Back to the form, the rules unchanged."""
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_done()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {"done": self.action_done, "reset": self.action_reset}
        actions.get(event.button.id or "", self.action_cancel)()


__all__ = ["RulesScreen", "explanation", "rule_number"]
