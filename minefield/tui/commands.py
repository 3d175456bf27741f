"""The command palette lists what the footer lists: the current screen's enabled bindings."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider


class ScreenActions(Provider):
    """Every described, enabled binding of the screen the palette was opened on."""

    def _actions(self) -> Iterator[tuple[str, str, Callable[[], Any]]]:
        seen: set[tuple[str, int]] = set()
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if not active.enabled or not binding.show or not binding.description:
                continue
            marker = (binding.action, id(active.node))
            if marker in seen:
                continue
            seen.add(marker)
            help_text = f"key: {self.app.get_key_display(binding)}"
            yield (binding.description, help_text,
                   partial(self.app.run_action, binding.action, active.node))

    async def discover(self) -> Hits:
        """Everything, before the player types."""
        for name, help_text, command in self._actions():
            yield DiscoveryHit(name, command, help=help_text)

    async def search(self, query: str) -> Hits:
        """The actions whose description matches what the player typed."""
        matcher = self.matcher(query)
        for name, help_text, command in self._actions():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), command, help=help_text)
