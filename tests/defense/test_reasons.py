"""Reasons in words (minefield.defense.reasons): each kind of reason on a hand-made position.

Each position is what East sees (R26): the hand, the pool, the dora indicator and both rows.
"""

from __future__ import annotations

from minefield.defense.position import Position
from minefield.defense.reasons import reasons_for
from minefield.rules.game import Seat
from minefield.rules.hand import Hand
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile, kind_from_str, kind_str, parse_tiles

HAND = "123456789m1112z"


def position(pool: str, dora: str, east: str = "", west: str = "",
             settings: RuleSettings | None = None) -> Position:
    """East's position: ``pool`` is the 21 pool tiles (discarded ones included)."""
    def row(text: str) -> tuple[Tile, ...]:
        return tuple(Tile.parse(t) for t in text.split())

    return Position(seat=Seat.EAST, tiles=tuple(parse_tiles(HAND + pool)), hand=Hand.parse(HAND),
                    dora_indicator=Tile.parse(dora),
                    discards={Seat.EAST: row(east), Seat.WEST: row(west)},
                    settings=settings or RuleSettings())


# West discarded 5p and 3p; East discarded 4s and 3z (discards 1 and 3).
SUJI = position("2p5p8p6p4s4s7s3z9p9p1s1s2s5z5z6z6z4z4z7z7z", "9s", east="4s 3z",
                west="5p 3p")
# East holds three 7s, West discarded the fourth; East holds three 9p, 4z and 2m.
WALLS = position("777s8s9s999p6z2m2m1m4z4z4z5z5z3z3z7z7z", "1z", east="5z 5z", west="7s 6z")
# East holds all four 3m, 1s and 2s; the indicator is the fourth 1z. Discard 1 (ippatsu, R16).
OWN = position("333m2m1111s2222s5z5z5z6z6z6z7z7z7z", "1z")
# The dora is 5m (indicator 4m).
DORA = position("5m6m5s3z3z3z4z4z4z5z5z5z6z6z6z7z7z7z9p9p9p", "4m")


def reasons(pos: Position, tile: str, furiten: float | None = None) -> tuple[str, ...]:
    return reasons_for(pos, furiten)[kind_from_str(tile)]


def test_one_entry_per_pool_kind() -> None:
    assert sorted(reasons_for(SUJI)) == SUJI.pool_kinds
    assert all(reasons_for(SUJI).values())


def test_genbutsu_is_the_only_reason() -> None:
    """R15a: a tile in West's own discards can never win for West."""
    assert reasons(SUJI, "5p") == (
        "genbutsu: West discarded it (discard 2), so it can never win for West (R15a)",)


def test_passed_tile() -> None:
    """R13, R15: East's own discard that did not end the game is safe for ever."""
    assert reasons(SUJI, "4s") == (
        "passed: you discarded it at discard 1 and West did not win, so it is no wait or West "
        "is furiten on it (R13, R15)",)


def test_suji_names_what_it_does_not_cover() -> None:
    assert reasons(SUJI, "2p")[0] == ("suji of 5p (covers ryanmen 34p), but kanchan 13p, tanki "
                                      "and shanpon are still possible")
    assert reasons(SUJI, "7s")[0] == ("suji of 4s (covers ryanmen 56s), but kanchan 68s, "
                                      "penchan 89s, tanki and shanpon are still possible")
    assert reasons(SUJI, "1s")[0] == ("suji of 4s (covers ryanmen 23s), but tanki and shanpon "
                                      "are still possible")


def test_half_suji_and_not_suji() -> None:
    assert reasons(SUJI, "6p")[0] == ("half suji: 3p is safe, so no ryanmen 45p, but ryanmen "
                                      "78p is still possible")
    assert reasons(SUJI, "9p")[0] == "not suji: ryanmen 78p can wait on it"


def test_no_chance_counts_copies_and_where_they_are() -> None:
    assert ("no-chance: all four 7s are seen (3 in your tiles, 1 in West's discards), so no "
            "78s shape") in reasons(WALLS, "9s")
    assert ("no-chance: all four 7s are seen (3 in your tiles, 1 in West's discards), so no "
            "67s/79s shape") in reasons(WALLS, "8s")


def test_one_chance() -> None:
    assert ("one-chance: three 2m are seen (3 in your tiles), so a 23m shape is unlikely"
            in reasons(WALLS, "1m"))


def test_no_chance_from_own_tiles() -> None:
    """R26: East's whole 34 (hand and pool) is visible to East, never to West."""
    assert reasons(OWN, "2m")[0] == ("no-chance from your own tiles: you hold all four 3m, so "
                                     "no 13m/34m shape (West cannot see this)")
    assert ("all four are seen: no tanki or shanpon on it, only sequence waits"
            in reasons(OWN, "3m"))


def test_absolute_no_chance() -> None:
    """R12: every wait needs tiles the hand holds; with all 1s and 2s seen and kokushi blocked
    (all four 1z seen), nothing can wait on 1s."""
    assert reasons(OWN, "1s")[0].startswith("absolute no-chance: every tile a wait on it needs")


def test_counting_trap() -> None:
    """Holding three copies leaves the fourth for a tanki (R12: only four copies make it dead)."""
    assert "you hold three, but the fourth can still be a tanki" in reasons(WALLS, "9p")
    assert "you hold three, but the fourth can still be a tanki" in reasons(WALLS, "4z")


def test_honors_by_copies_seen() -> None:
    assert reasons(WALLS, "7z")[0] == "honor, 2 copies seen: only tanki or shanpon"
    assert "a yakuhai for West: a shanpon on it adds a han (R19)" in reasons(WALLS, "3z")


def test_dora_and_its_neighbours() -> None:
    """R24."""
    assert ("the dora: a wait on it adds han (R24), so cheap shapes reach mangan"
            in reasons(DORA, "5m"))
    assert ("next to the dora 5m: a shape holding the dora can wait on it (R24)"
            in reasons(DORA, "6m"))


def test_value_reading_counts_ippatsu() -> None:
    """R14: mangan; riichi is 1 han, ippatsu (R16, East's first discard for West) one more."""
    assert ("no dora near it: a wait here needs about 3 han beyond riichi (yaku or dora "
            "elsewhere) to be worth mangan (R14)") in reasons(WALLS, "9p")
    assert ("no dora near it: a wait here needs about 2 han beyond riichi and ippatsu (yaku or "
            "dora elsewhere) to be worth mangan (R14)") in reasons(DORA, "5s")


def test_no_value_reading_without_a_minimum() -> None:
    """R14 with minimum = none (beginner): every wait wins, so value is no reason."""
    beginner = position("5m6m5s3z3z3z4z4z4z5z5z5z6z6z6z7z7z7z9p9p9p", "4m",
                        settings=RuleSettings.preset("beginner"))
    assert not any("mangan" in r for r in reasons(beginner, "5s"))


def test_opponent_furiten_chance_is_named_when_it_matters() -> None:
    """R15b: a passed wait below mangan freezes the opponent."""
    note = "West is already furiten with about 20% chance (a wait you passed freezes them, R15b)"
    assert note in reasons(SUJI, "9p", 0.2)
    assert note not in reasons(SUJI, "5p", 0.2)  # genbutsu needs no furiten
    assert not any("furiten with about" in r for r in reasons(SUJI, "9p", 0.05))


def test_a_reason_never_names_its_own_tile() -> None:
    """A reason follows its tile's name ("5p 14%", "5p: 14% (...)"): "南: no dora near 南"
    said the tile twice; the reason calls it "it"."""
    for pos in (SUJI, WALLS, OWN, DORA):
        for kind, found in reasons_for(pos).items():
            for reason in found:
                assert kind_str(kind) not in reason, (kind_str(kind), reason)
