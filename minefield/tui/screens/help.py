"""Rules in brief (the README's rules section, shipped in ``minefield.assets``) and the keys.

The keys are read from the screens' own ``BINDINGS``: one declaration feeds the footer, the
command palette and this screen.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown


def asset_text(name: str) -> str:
    """The text of a file shipped in ``minefield.assets``."""
    return (files("minefield.assets") / name).read_text(encoding="utf-8")


def keys_markdown(app: App[Any], sections: list[tuple[str, list[BindingType]]]) -> str:
    """A Markdown table of every described binding, section by section."""
    out: list[str] = []
    for title, bindings in sections:
        rows = []
        for binding in bindings:
            if not isinstance(binding, Binding) or not binding.description:
                continue
            keys = " / ".join(app.get_key_display(Binding(key, binding.action))
                              for key in binding.key.split(","))
            rows.append(f"| `{keys}` | {binding.description} |")
        if rows:
            out += [f"### {title}", "", "| key | action |", "|---|---|", *rows, ""]
    return "\n".join(out)


class HelpScreen(ModalScreen[None]):
    """The rules in brief and every key."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "close", "Close help"),
    ]

    def __init__(self, keys: str) -> None:
        super().__init__()
        self._keys = keys

    def compose(self) -> ComposeResult:
        text = "\n\n".join([
            "# Rules in brief", asset_text("rules.md"), asset_text("help.md"),
            "## Keys", self._keys,
        ])
        with VerticalScroll(id="help-box"):
            yield Markdown(text, id="help-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-box").focus()

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)
