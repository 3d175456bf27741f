"""One seat's tiles in the replay viewer, as a chosen seat's view may see them (R26, R27).

A :class:`SeatTiles` is given a :class:`~minefield.rules.game.PlayerView` and a seat: the
view's own seat shows its 34 tiles (while choosing) or its hand and pool; the other seat stays
face down, as counts only, until the view holds the end, which reveals both hands (R26).
Nothing is hidden after the fact: tiles the view does not hold are never given to a widget.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.markup import escape
from textual.widget import Widget
from textual.widgets import Label, Static

from minefield.rules.game import POOL_SIZE, FuritenCause, PlayerView, Seat
from minefield.rules.hand import HAND_SIZE, Hand, waits
from minefield.rules.tiles import Tile, kind_str, parse_tiles
from minefield.rules.wall import DEAL_SIZE
from minefield.tui.render import BACK_LABEL
from minefield.tui.widgets.tiles import TileRow, named


def without(tiles: Iterable[Tile], removed: Iterable[str]) -> list[Tile]:
    """``tiles`` less one copy of each tile written in ``removed`` (red fives kept apart).

    >>> [str(t) for t in without(parse_tiles("1m1m0p5p"), ["1m", "5p"])]
    ['1m', '0p']
    """
    left = Counter(removed)
    kept: list[Tile] = []
    for tile in tiles:
        if left[str(tile)]:
            left[str(tile)] -= 1
        else:
            kept.append(tile)
    return kept


def furiten_text(cause: FuritenCause | None) -> str:
    """A seat's furiten and its cause in markup (R15, R27), or ``not furiten``."""
    if cause is None:
        return "not furiten"
    return (f"[b]FURITEN[/] since discard {cause.discard_number}: {escape(cause.detail)} "
            "(R15)")


class SeatTiles(Widget):
    """One seat's hand and pool (or its 34 tiles while choosing), with its waits and furiten.

    One of the CSS classes ``-open`` (hand and pool), ``-choosing`` (the 34 tiles) and
    ``-hidden`` (face down: the note alone) says what shows, and ``-furiten`` and ``-new`` (it
    began at this discard) how the note looks; the stylesheet lays it out.
    """

    def compose(self) -> ComposeResult:
        with Horizontal(classes="tile-bar all-tiles-bar"):
            yield Label(classes="row-title all-tiles-title")
            yield TileRow(DEAL_SIZE, classes="replay-tiles")
        with Horizontal(classes="tile-bar hand-bar"):
            yield Label(classes="row-title hand-title")
            yield TileRow(HAND_SIZE, classes="replay-hand")
        with Horizontal(classes="tile-bar pool-bar"):
            yield Label(classes="row-title pool-title")
            yield TileRow(POOL_SIZE, classes="replay-pool")
        yield Static(classes="seat-note")

    def show(self, view: PlayerView, seat: Seat, name: str, discards_now: int) -> None:
        """Show ``seat`` as ``view`` may see it: its own seat, or the other one face down
        until the end (R26). A furiten that began at discard ``discards_now`` is marked new."""
        wind, end = seat.value.title(), view.end
        won_on = end.win_tile if end is not None and end.winner is seat else None
        if seat is view.seat and view.own_hand is None:
            self._show_choosing(wind, parse_tiles(view.own_tiles))
        elif seat is view.seat and view.own_hand is not None:
            hand = parse_tiles(view.own_hand)
            kinds = (end.waits[seat] if end is not None
                     else [kind_str(kind) for kind in waits(Hand(hand).counts)])
            self._show_open(wind, hand, parse_tiles(view.own_pool), kinds, view.own_furiten,
                            won_on, discards_now)
        elif end is not None:  # the end reveals the other seat (R26)
            pool = without(parse_tiles(end.pools[seat]), view.discards[seat])
            self._show_open(wind, parse_tiles(end.hands[seat] or ""), pool, end.waits[seat],
                            end.furiten[seat], won_on, discards_now)
        else:
            self._show_face_down(view, seat, wind, name)

    def _set_look(self, look: str, furiten: bool = False, new: bool = False) -> None:
        """Set the look's classes and restyle the seat's widgets once, if they changed (each
        class set alone restyled the seat and its 68 tile places again)."""
        wanted = {"-hidden": look == "-hidden", "-choosing": look == "-choosing",
                  "-open": look == "-open", "-furiten": furiten, "-new": new}
        before = set(self.classes)
        self.remove_class(*(name for name, on in wanted.items() if not on), update=False)
        self.add_class(*(name for name, on in wanted.items() if on), update=False)
        if set(self.classes) != before:
            self.update_node_styles()

    def _show_choosing(self, wind: str, tiles: list[Tile]) -> None:
        self._set_look("-choosing")
        self._fill(tiles, [], [])
        self.query_one(".all-tiles-title", Label).update(f"{wind}\n34 tiles")
        self._set_note(f"{wind} is choosing 13 of these 34 tiles as a hand (R7).")

    def _show_open(self, wind: str, hand: list[Tile], pool: list[Tile], wait_kinds: list[str],
                   cause: FuritenCause | None, won_on: str | None, discards_now: int) -> None:
        self._set_look("-open", furiten=cause is not None,
                       new=cause is not None and cause.discard_number == discards_now)
        self._fill([], hand, pool)
        self.query_one(".hand-title", Label).update(f"{wind}\nhand")
        self.query_one(".pool-title", Label).update(f"{wind} pool\n{len(pool)} left")
        wait_text = "waits " + " ".join(wait_kinds) if wait_kinds else "not tenpai"
        won = f" · [b]won on {won_on}[/]" if won_on else ""
        self._set_note(f"{wind}: {wait_text}{won} · {furiten_text(cause)}")

    def _fill(self, tiles: list[Tile], hand: list[Tile], pool: list[Tile]) -> None:
        self.query_one(".replay-tiles", TileRow).set_tiles(tiles)
        self.query_one(".replay-hand", TileRow).set_tiles(hand)
        self.query_one(".replay-pool", TileRow).set_tiles(pool)

    def _show_face_down(self, view: PlayerView, seat: Seat, wind: str, name: str) -> None:
        self._set_look("-hidden")
        for row in self.query(TileRow):
            row.clear()
        who = wind if name == wind else f"{wind} ({escape(name)})"
        if not view.opponent_ready:
            note = f"{who}: 34 tiles face down, choosing a hand"
        else:
            pool = POOL_SIZE - len(view.discards[seat])
            note = (f"{who}: hand {BACK_LABEL}×{HAND_SIZE} and pool {BACK_LABEL}×{pool} face "
                    "down until the end (R26)")
        self._set_note(note)

    def _set_note(self, note: str) -> None:
        self.query_one(".seat-note", Static).update(named(self, note))

    def __repr__(self) -> str:
        return f"SeatTiles(id={self.id!r}, <tiles hidden>)"


__all__ = ["SeatTiles", "furiten_text", "without"]
