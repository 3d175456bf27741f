"""Hot-seat's play screens (R26): each player's is kept between their turns, emptied of every
private tile while the other player or the curtain is shown (building a screen anew is most of
a hand-over's time), and a player's first one is built behind the curtain once it is drawn,
from the public part of the table only.

:class:`HotseatScreens` belongs to a :class:`~minefield.tui.table_controller.TableController`,
which says which screen shows which seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from textual.css.query import NoMatches
from textual.screen import Screen

from minefield.rules.game import Seat
from minefield.tui.screens.base import SeatScreen
from minefield.tui.screens.play import PlayScreen, public_table
from minefield.tui.textual_private import lay_out_offstage, mount_offstage

if TYPE_CHECKING:
    from minefield.tui.table_controller import ScreenKey, TableController


@dataclass
class _Prebuild:
    """A seat's play screen to be built behind its curtain, once the curtain has been drawn
    (``started``: the building has begun; ``done``: it is over, built or not)."""

    started: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)


class HotseatScreens:
    """The play screens kept for the players of ``table``'s hot-seat game, and those being
    built behind a curtain."""

    def __init__(self, table: TableController) -> None:
        self.table = table
        self.app = table.app
        #: Each player's play screen, emptied behind the curtain and filled again on their turn.
        self.kept: dict[ScreenKey, SeatScreen] = {}
        self._released: list[SeatScreen] = []  # kept screens to remove once out of the stack
        #: The play screens being built behind their curtain, by seat.
        self._prebuilds: dict[Seat, _Prebuild] = {}

    def keep(self, key: ScreenKey, screen: SeatScreen) -> None:
        """Keep ``screen`` for its player's next turns (installed in the app)."""
        self.kept[key] = screen
        self.app.install_screen(screen, f"minefield-{key[0]}-{key[1].value}-{id(self.table)}")

    def curtain_drawn(self, seat: Seat, curtain: Screen[None]) -> None:
        """The curtain before ``seat``'s turn is up: its play screen is built behind it (if
        new) and the garbage collected, once the curtain has been drawn."""
        prebuild = self._prebuilds[seat] = _Prebuild()
        curtain.call_after_refresh(self._start_prebuild, seat, prebuild)

    async def built(self, seat: Seat) -> None:
        """Wait for ``seat``'s play screen if it is being built (it is ready in a moment)."""
        building = self._prebuilds.pop(seat, None)
        if building is not None and building.started:
            await building.done.wait()

    def _start_prebuild(self, seat: Seat, prebuild: _Prebuild) -> None:
        """The curtain is drawn: build the seat's play screen behind it if it has none yet, in
        the app's idle time (building it is most of a first hand-over's time)."""
        if self._prebuilds.get(seat) is prebuild and not self.table.closed:
            prebuild.started = True
            self.app.run_worker(self._prebuild(seat, prebuild), group="prebuild")
        else:
            prebuild.done.set()

    async def _prebuild(self, seat: Seat, prebuild: _Prebuild) -> None:
        """Build and mount the seat's play screen out of the screen stack, from the public part
        of its table only: its tiles fill it when its player is at the keyboard. Nothing of
        the seat is in it while the curtain is up (R26). Then, the curtain still up, a full
        garbage collection, so that none falls inside the hand-over or the next turn."""
        key: ScreenKey = ("play", seat)
        try:
            table = self.table.tables.get(seat)
            if (self.table.screen_key != ("curtain", seat) or key in self.kept or table is None
                    or table.view.phase != "discarding"):
                return
            public = public_table(table)
            screen = PlayScreen(public.view, self.table.names(), trainer=self.table.trainer_doors,
                                prefs=self.table.prefs, announce_furiten=False,
                                table=public)
            screen.shared_screen = True  # kept behind the curtain: hot-seat only
            self.keep(key, screen)
            await mount_offstage(self.app, screen)
            screen.clear_private()  # as a screen kept behind the curtain is: no log either
            lay_out_offstage(screen)
        except Exception:  # the screen is built when shown instead
            kept = self.kept.pop(key, None)
            if kept is not None:
                self._released.append(kept)
                self.remove_released()
        finally:
            if self.table.screen_key == ("curtain", seat):
                # The keyboard is changing hands: a full collection now (the curtain does not
                # move) rather than in the middle of the next player's turn.
                gc.collect()
            prebuild.done.set()

    async def prebuilt(self) -> None:
        """Wait until the play screens being built behind a curtain are (tests, benchmarks)."""
        for prebuild in list(self._prebuilds.values()):
            if prebuild.started:
                await prebuild.done.wait()

    def forget(self) -> None:
        """Let every kept screen go (a screen being built goes with it)."""
        self._released.extend(self.kept.values())
        self.kept = {}
        for prebuild in self._prebuilds.values():
            if not prebuild.started:
                prebuild.done.set()
        self._prebuilds = {}
        self.remove_released()

    def remove_released(self) -> None:
        """Remove the screens no longer kept that are out of the stack (emptied first)."""
        stack = self.app.screen_stack
        for screen in [s for s in self._released if s not in stack]:
            self._released.remove(screen)
            empty_screen(screen)
            self.app.uninstall_screen(screen)
            if screen.is_attached:
                screen.remove()


def empty_screen(screen: SeatScreen) -> None:
    """Empty a screen's private widgets, if it still has them (a screen already removed has
    none left)."""
    if screen.is_attached:
        with contextlib.suppress(NoMatches):  # its widgets are being removed
            screen.clear_private()


__all__ = ["HotseatScreens", "empty_screen"]
