"""The game log: each discard and who made it, furiten as it happens, and the result.

The log is written from what a seat may see (R26): both discard rows, the seat's own furiten
(R27), and at the end everything the result reveals. :func:`log_lines` is the text;
:class:`GameLog` shows it, scrolled to the newest line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.markup import escape
from textual.widgets import Static

from minefield.protocol.messages import MatchView
from minefield.rules.game import TOTAL_DISCARDS, FuritenCause, GameEnded, Seat
from minefield.tui.render import furiten_reason, possessive, verb
from minefield.tui.widgets.phrases import PhraseStatic, numbered_indent
from minefield.tui.widgets.tiles import named


def discard_order(discards: Mapping[Seat, Sequence[str]]) -> list[tuple[int, Seat, str]]:
    """The discards of both rows in the order they were made: East first, then in turn (R10).

    >>> discard_order({Seat.EAST: ["1z", "2z"], Seat.WEST: ["7p"]})
    [(1, <Seat.EAST: 'east'>, '1z'), (2, <Seat.WEST: 'west'>, '7p'), (3, <Seat.EAST: 'east'>, '2z')]
    """
    made = sum(len(row) for row in discards.values())
    order = []
    for number in range(1, made + 1):
        seat = Seat.EAST if number % 2 else Seat.WEST
        order.append((number, seat, discards[seat][(number - 1) // 2]))
    return order


def result_line(end: GameEnded, names: Mapping[Seat, str], paid: int | None = None) -> str:
    """The result in one sentence (markup): who won on whose tile, and for how much. In a match
    ``paid`` is what the winner was paid: with counter sticks (R32) it is more than the hand,
    and the line says both (``(18000 + counter sticks = 19000, R32)``).

    >>> from minefield.rules.game import GameEnded
    >>> end = GameEnded(result="draw", discard_number=34, seed="0", hands={}, pools={},
    ...                 waits={}, furiten={}, ura_indicator="1m")
    >>> result_line(end, {Seat.EAST: "You", Seat.WEST: "Bot (easy)"})
    'Draw: 34 discards without a win.'
    """
    if end.result != "ron" or end.winner is None:
        return f"Draw: {TOTAL_DISCARDS} discards without a win."
    winner, loser = names[end.winner], names[end.winner.other]
    points = f" ({end.value.points})" if end.value is not None else ""
    if end.value is not None and paid is not None and paid != end.value.points:
        points = f" ({end.value.points} + counter sticks = {paid}, R32)"
    return (f"[b]Ron![/] {escape(winner)} {verb(winner, 'win', 'wins')} on "
            f"{escape(possessive(loser))} {end.win_tile}{points}.")


def log_lines(discards: Mapping[Seat, Sequence[str]], names: Mapping[Seat, str],
              furiten: Mapping[Seat, FuritenCause | None],
              end: GameEnded | None = None, paid: int | None = None) -> list[str]:
    """The log as markup lines. ``furiten`` holds only what the reader may know: their own
    seat's cause during the game (R26, R27), both seats' at the end. ``paid``: what the
    winner was paid in a match (:func:`result_line`)."""
    causes = {cause.discard_number: (seat, cause) for seat, cause in furiten.items()
              if cause is not None}
    lines = []
    for number, seat, tile in discard_order(discards):
        lines.append(f"{number:>2} {escape(names[seat])} [b]{tile}[/]")
        if number in causes:
            seat, cause = causes[number]
            name = names[seat]
            reason = furiten_reason(cause, name, names[seat.other], short=True)
            lines.append(f"[$text-error]   {escape(name)} {verb(name, 'are', 'is')} furiten: "
                         f"{escape(reason)}[/]")
    if end is not None:
        lines.append(result_line(end, names, paid))
    return lines


def paid_to_winner(end: GameEnded | None, match: MatchView | None) -> int | None:
    """What the winner of the ended game was paid in its match (None: no match, no win, or
    not settled yet)."""
    if end is None or end.winner is None or match is None or match.last is None:
        return None
    if match.last.game != match.game:  # the settlement of an earlier game
        return None
    return match.last.payments.get(end.winner)


class GameLog(VerticalScroll, can_focus=False):
    """The log, newest line at the bottom and in view. It never takes the focus: the arrow keys
    belong to the tiles (the screen scrolls it with keys of its own)."""

    def compose(self) -> ComposeResult:
        text = PhraseStatic(id="log-text")
        text.hanging = numbered_indent  # wrapped lines go on under the name or the note
        yield text

    def show(self, lines: Sequence[str]) -> None:
        """Show these lines and scroll to the newest."""
        self.query_one("#log-text", Static).update(named(self, "\n".join(lines))
                                                   or "No discards yet.")
        self.call_after_refresh(self.scroll_end, animate=False)

    def clear_lines(self) -> None:
        """Empty the log (hot-seat curtain)."""
        self.query_one("#log-text", Static).update("")

#: Feedback lines go into the game log under the discard they are about.
FEEDBACK_PREFIX = "   "



def with_feedback(lines: Sequence[str], notes: Mapping[int, str]) -> list[str]:
    """The game log's lines with each feedback note under its discard's line (the lines of
    :func:`minefield.tui.widgets.log.log_lines` start with the discard number).

    >>> with_feedback(["1 You [b]5p[/]", " 2 Bot 1z"], {1: "5p: 14%"})
    ['1 You [b]5p[/]', '[dim]   5p: 14%[/]', ' 2 Bot 1z']
    """
    if not notes:
        return list(lines)
    out = []
    for line in lines:
        out.append(line)
        head = line.split(maxsplit=1)[0] if line.strip() else ""
        if head.isdigit() and int(head) in notes:
            out.append(f"[dim]{FEEDBACK_PREFIX}{escape_markup(notes[int(head)])}[/]")
    return out


def escape_markup(text: str) -> str:
    """``text`` safe inside Textual markup (reasons hold no brackets today; this keeps it so)."""
    return text.replace("[", "\\[")
