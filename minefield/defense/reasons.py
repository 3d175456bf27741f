"""Why a tile is safe or dangerous, in short sentences a player can learn from.

Every reason is computed from what the discarding seat sees (R26): its own 34 tiles, both
discard rows and the dora indicator. A tile named here is in mpsz notation.

>>> from minefield.rules.game import Seat
>>> from minefield.rules.hand import Hand
>>> from minefield.rules.tiles import Tile, parse_tiles
>>> position = Position(
...     seat=Seat.EAST, tiles=tuple(parse_tiles("1112345678999m11223344556677p1234567s")),
...     hand=Hand.parse("1112345678999m"), dora_indicator=Tile.parse("9s"),
...     discards={Seat.EAST: (Tile.parse("1p"),), Seat.WEST: (Tile.parse("2p"),)})
>>> reasons_for(position)[Tile.parse("2p").kind]
('genbutsu: West discarded it (discard 2), so it can never win for West (R15a)',)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from minefield.defense.calibration import DEFAULT_OPPONENT, Opponent
from minefield.defense.fast import SuitReading, fast_dangers, possible_wait
from minefield.defense.position import Position
from minefield.rules.game import Seat, ron_context
from minefield.rules.tiles import DRAGONS, NUM_KINDS, counts_of, is_honor, kind_str

_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four"}
SUIT_NAMES = ("manzu", "pinzu", "souzu")
FURITEN_NOTE = 0.10  # the opponent's furiten chance is named from this chance up


def seat_name(seat: Seat) -> str:
    """``"West"`` for :attr:`Seat.WEST`."""
    return str(seat).capitalize()


def discard_number(seat: Seat, index: int) -> int:
    """The game's number (1-34) of ``seat``'s discard at ``index`` (0-based) in its row."""
    return 2 * index + (1 if seat is Seat.EAST else 2)


def _pair(a: int, b: int) -> str:
    """Two tiles of one suit as ``"34p"``."""
    return f"{a % 9 + 1}{b % 9 + 1}{kind_str(a)[1]}"


class _Reader:
    """What the position tells about each kind, shared by the reasons of all kinds."""

    def __init__(self, position: Position, furiten_chance: float | None,
                 opponent: Opponent = DEFAULT_OPPONENT,
                 danger: Sequence[float] | None = None) -> None:
        self.position = position
        self.opponent = seat_name(position.opponent)
        self.own = counts_of(position.tiles)
        self.unseen = position.unseen
        self.opponent_seen = [0] * NUM_KINDS
        for tile in position.opponent_discards:
            self.opponent_seen[tile.kind] += 1
        self.safe = position.genbutsu | position.passed
        self.context = ron_context(position.opponent, position.number)
        self.furiten_chance = furiten_chance
        self.suits = SuitReading.of([tile.kind for tile in position.opponent_discards])
        self.avoided = self.suits.avoided()
        if self.avoided is not None and not self._rated_higher(
                self.avoided, danger if danger is not None
                else fast_dangers(position, opponent).danger):
            self.avoided = None

    @staticmethod
    def _rated_higher(suit: int, danger: Sequence[float]) -> bool:
        """Whether the estimate rates the live tiles of ``suit`` more dangerous, on average,
        than the live tiles of the other number suits (the flush reason says so)."""
        def mean(kinds: Sequence[int]) -> float:
            live = [danger[k] for k in kinds if danger[k] > 0]
            return sum(live) / len(live) if live else 0.0

        mine = mean(range(9 * suit, 9 * suit + 9))
        others = mean([k for k in range(27) if k // 9 != suit])
        return mine > others

    # -- words --------------------------------------------------------------------------------

    def seen_where(self, kind: int) -> str:
        """Where the seen copies of ``kind`` are: ``"3 in your tiles, 1 in West's discards"``."""
        parts = []
        if self.own[kind]:
            parts.append(f"{self.own[kind]} in your tiles")
        if self.opponent_seen[kind]:
            parts.append(f"{self.opponent_seen[kind]} in {self.opponent}'s discards")
        if self.position.dora_indicator.kind == kind:
            parts.append("1 as the dora indicator")
        return ", ".join(parts)

    def safe_because(self, kind: int) -> str:
        """Why a kind is safe: ``"West discarded it"`` or ``"you discarded it"``."""
        if kind in self.position.genbutsu:
            return f"{self.opponent} discarded it"
        return "you discarded it"

    # -- the reasons --------------------------------------------------------------------------

    def exact(self, kind: int) -> tuple[str, ...] | None:
        """Genbutsu or passed: a tile that can never deal in (R13, R15). (A reason follows
        its tile's name: it calls the tile "it".)"""
        for index, tile in enumerate(self.position.opponent_discards):
            if tile.kind == kind:
                number = discard_number(self.position.opponent, index)
                return (f"genbutsu: {self.opponent} discarded it (discard {number}), so it "
                        f"can never win for {self.opponent} (R15a)",)
        for index, tile in enumerate(self.position.own_discards):
            if tile.kind == kind:
                number = discard_number(self.position.seat, index)
                return (f"passed: you discarded it at discard {number} and {self.opponent} "
                        f"did not win, so it is no wait or {self.opponent} is furiten on it "
                        "(R13, R15)",)
        return None

    def sequence_shapes(self, kind: int) -> list[tuple[str, int, int]]:
        """The sequence shapes that win on a number ``kind``: (name, held, held)."""
        pos = kind % 9
        shapes: list[tuple[str, int, int]] = []
        if pos >= 2:
            shapes.append(("penchan" if pos == 2 else "ryanmen", kind - 2, kind - 1))
        if 1 <= pos <= 7:
            shapes.append(("kanchan", kind - 1, kind + 1))
        if pos <= 6:
            shapes.append(("penchan" if pos == 6 else "ryanmen", kind + 1, kind + 2))
        return shapes

    def holdable(self, a: int, b: int) -> bool:
        return self.unseen[a] >= 1 and self.unseen[b] >= 1

    def other_shapes(self, kind: int, skip_ryanmen: bool = True) -> list[str]:
        """The live shapes on ``kind`` other than ryanmen, in words."""
        live = [f"{name} {_pair(a, b)}" for name, a, b in self.sequence_shapes(kind)
                if not (skip_ryanmen and name == "ryanmen") and self.holdable(a, b)]
        if self.unseen[kind] >= 1:
            live.append("tanki")
        if self.unseen[kind] >= 2:
            live.append("shanpon")
        return live

    def suji(self, kind: int) -> str | None:
        """Suji: which safe tiles rule out which ryanmen, and what stays possible."""
        sides = [(a, b, a - 1 if a < kind else b + 1)  # held, held, the ryanmen's other wait
                 for name, a, b in self.sequence_shapes(kind) if name == "ryanmen"]
        if not sides:
            return None
        covered = [(a, b, partner) for a, b, partner in sides if partner in self.safe]
        open_ = [(a, b, partner) for a, b, partner in sides
                 if partner not in self.safe and self.holdable(a, b)]
        others = self.other_shapes(kind)
        if covered and not open_:
            partners = " and ".join(kind_str(p) for _, _, p in covered)
            shapes = " and ".join(_pair(a, b) for a, b, _ in covered)
            verb = "is" if len(others) == 1 else "are"
            tail = (f"but {_join(others)} {verb} still possible" if others
                    else "and nothing else is left")
            return f"suji of {partners} (covers ryanmen {shapes}), {tail}"
        if covered:
            safe = covered[0]
            live = " and ".join(_pair(a, b) for a, b, _ in open_)
            return (f"half suji: {kind_str(safe[2])} is safe, so no ryanmen "
                    f"{_pair(safe[0], safe[1])}, but ryanmen {live} is still possible")
        if open_:
            live = " and ".join(_pair(a, b) for a, b, _ in open_)
            return f"not suji: ryanmen {live} can wait on it"
        return None

    def walls(self, kind: int) -> list[str]:
        """No-chance and one-chance: neighbours whose copies are (almost) all seen."""
        reasons = []
        shapes = self.sequence_shapes(kind)
        for neighbour in sorted({t for _, a, b in shapes for t in (a, b)}):
            through = [_pair(a, b) for _, a, b in shapes if neighbour in (a, b)]
            unseen = self.unseen[neighbour]
            name = kind_str(neighbour)
            names = "/".join(through)
            if unseen == 0:
                if self.own[neighbour] == 4:
                    reasons.append(f"no-chance from your own tiles: you hold all four {name}, "
                                   f"so no {names} shape ({self.opponent} cannot see this)")
                else:
                    reasons.append(f"no-chance: all four {name} are seen "
                                   f"({self.seen_where(neighbour)}), so no {names} shape")
            elif unseen == 1:
                reasons.append(f"one-chance: three {name} are seen "
                               f"({self.seen_where(neighbour)}), so a {names} shape is unlikely")
        return reasons

    def copies(self, kind: int) -> str | None:
        """Honors by copies seen; the counting trap; a kind with no copy left to hold."""
        seen = 4 - self.unseen[kind]
        if is_honor(kind):
            if self.unseen[kind] >= 2:
                return f"honor, {seen} {'copy' if seen == 1 else 'copies'} seen: only tanki or " \
                       "shanpon"
            if self.unseen[kind] == 1:
                if self.own[kind] >= 3:
                    return (f"you hold {_WORDS[self.own[kind]]}, but the fourth can still be a "
                            "tanki")
                return f"honor, {seen} copies seen: only a tanki on the last copy"
            return None
        if self.unseen[kind] == 1 and self.own[kind] >= 3:
            return "you hold three, but the fourth can still be a tanki"
        if self.unseen[kind] == 0:
            return "all four are seen: no tanki or shanpon on it, only sequence waits"
        return None

    def value(self, kind: int) -> str | None:
        """Dora and its neighbours, yakuhai, and what a wait here needs to reach mangan (R14)."""
        dora = self.position.dora
        if kind == dora:
            return "the dora: a wait on it adds han (R24), so cheap shapes reach mangan"
        near = not is_honor(kind) and kind // 9 == dora // 9 and abs(kind - dora) <= 2
        if near:
            return (f"next to the dora {kind_str(dora)}: a shape holding the dora can wait on it "
                    "(R24)")
        if is_honor(kind) and (kind in DRAGONS or kind == self.position.opponent.wind):
            return f"a yakuhai for {self.opponent}: a shanpon on it adds a han (R19)"
        if self.position.settings.minimum != "mangan":
            return None
        bonus = [n for n, on in (("ippatsu", self.context.ippatsu),
                                 ("houtei", self.context.houtei)) if on]
        needed = 3 - len(bonus)
        counted = " and ".join(["riichi", *bonus])
        return (f"no dora near it: a wait here needs about {needed} han beyond {counted} "
                "(yaku or dora elsewhere) to be worth mangan (R14)")

    def flush(self, kind: int) -> str | None:
        """A suit the opponent avoids: a one-suit hand (honitsu or chinitsu, R19) is likely,
        and its tiles are more dangerous (named only when the estimate against this opponent
        does rate them higher than the other suits' tiles)."""
        suit = self.avoided
        if suit is None or is_honor(kind) or kind // 9 != suit:
            return None
        name = SUIT_NAMES[suit]
        count = self.suits.counts[suit]
        thrown = "no" if count == 0 else str(count)
        even = round(self.suits.expected())
        needs = "honitsu is 3 han and chinitsu 6, R19"
        settings = self.position.settings
        if settings.minimum == "mangan":
            fu = "with kiriage" if settings.kiriage else "from 40 fu"
            needs += f"; riichi and honitsu make 4 han, mangan {fu}, R14"
        return (f"{self.opponent} has thrown {thrown} {name} in {self.suits.thrown} discards "
                f"(an even spread of their {self.suits.suited} number tiles would give {even}): "
                f"a {name} flush is likely ({needs}); {name} tiles are more dangerous")

    def furiten(self) -> str | None:
        """The chance the opponent is already furiten (R15b), when it is worth saying."""
        chance = self.furiten_chance
        if chance is None or chance < FURITEN_NOTE:
            return None
        return (f"{self.opponent} is already furiten with about {round(chance * 100)}% chance "
                "(a wait you passed freezes them, R15b)")

    def reasons(self, kind: int) -> tuple[str, ...]:
        """All reasons for one kind, most decisive first."""
        exact = self.exact(kind)
        if exact is not None:
            return exact
        found: list[str | None] = []
        if not possible_wait(self.unseen, kind):
            found.append("absolute no-chance: every tile a wait on it needs is "
                         "seen, so no hand can wait on it")
            if not is_honor(kind):
                found.extend(self.walls(kind))
            return tuple(r for r in found if r)
        if not is_honor(kind):
            found.append(self.flush(kind))
            found.append(self.suji(kind))
            found.extend(self.walls(kind))
        found.append(self.copies(kind))
        found.append(self.value(kind))
        found.append(self.furiten())
        return tuple(r for r in found if r)


def _join(items: Sequence[str]) -> str:
    """``"a, b and c"``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def reasons_for(position: Position, furiten_chance: float | None = None,
                kinds: Iterable[int] | None = None, opponent: Opponent = DEFAULT_OPPONENT,
                danger: Sequence[float] | None = None) -> dict[int, tuple[str, ...]]:
    """Short reasons in words for each kind left in the pool (or each of ``kinds``, which may
    be kinds this seat no longer holds, as an opponent's waits), keyed by kind.

    ``furiten_chance`` is the estimated chance that the opponent is already furiten; it is
    named among the reasons of every live tile when it is 10% or more. A suit the opponent
    avoids is named as a likely flush when the estimate against ``opponent`` (its chances
    ``danger`` per kind, computed here when not given) rates that suit's live tiles higher
    than the other suits'.
    """
    reader = _Reader(position, furiten_chance, opponent, danger)
    wanted = position.pool_kinds if kinds is None else kinds
    return {kind: reader.reasons(kind) for kind in wanted}
