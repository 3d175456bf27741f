"""Every tenpai 13-tile hand that can be kept from 34 tiles (R7, R12).

A hand is a 34-entry count vector. A 13-tile hand waits on ``w`` when adding ``w`` gives four
groups and a pair, seven distinct pairs or thirteen orphans (R12). Taking the winning tile out
of its place in such a reading shows that every regular tenpai hand is one of

* four groups and a single (a tanki wait on the single), or
* three groups, a pair and a two-tile partial: a second pair (shanpon), two neighbours
  (ryanmen or penchan) or a gapped pair (kanchan),

so walking the multisets of groups the 34 tiles allow, then the pairs, partials and singles
that are left, meets every (hand, wait) pair at least once. The hands are deduplicated by their
count vector and each collects the union of the waits it was met with, which is exactly its
wait set (a kind the hand holds four of is a dead wait and is left out, R12). Seven pairs and
thirteen orphans are added directly.

>>> from minefield.rules.tiles import parse_tiles, counts_of, kind_str
>>> found = tenpai_hands(counts_of(parse_tiles("123m456p789s11122z")))
>>> hand = tuple(counts_of(parse_tiles("123m456p789s1112z")))
>>> [kind_str(k) for k in sorted(found[hand])]
['2z']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from minefield.rules.tiles import NUM_KINDS, SUIT_KINDS, TERMINALS_AND_HONORS

Counts = tuple[int, ...]

def _groups_available(counts: Sequence[int]) -> list[tuple[int, int]]:
    """Every group the tiles allow, as ``(kind, is_sequence)``, in kind order."""
    groups: list[tuple[int, int]] = []
    for kind in range(NUM_KINDS):
        if counts[kind] >= 3:
            groups.append((kind, 0))
        if (kind < SUIT_KINDS and kind % 9 <= 6 and counts[kind] and counts[kind + 1]
                and counts[kind + 2]):
            groups.append((kind, 1))
    return groups


def _pair_and_partial(rest: list[int], hand: list[int], add: Callable[[int], None]) -> None:
    """After three groups: each pair of ``rest`` moved to ``hand`` with a second pair
    (shanpon) or a partial run (ryanmen, penchan, kanchan), each wait given to ``add``;
    ``rest`` and ``hand`` are as they were on return."""
    for pair in range(NUM_KINDS):
        if rest[pair] < 2:
            continue
        rest[pair] -= 2
        hand[pair] += 2
        for other in range(pair + 1, NUM_KINDS):  # shanpon: a second pair
            if rest[other] >= 2:
                rest[other] -= 2
                hand[other] += 2
                add(pair)
                add(other)
                rest[other] += 2
                hand[other] -= 2
        for low in range(SUIT_KINDS):
            if not rest[low]:
                continue
            pos = low % 9
            rest[low] -= 1
            hand[low] += 1
            if pos <= 7 and rest[low + 1]:  # ryanmen or penchan
                rest[low + 1] -= 1
                hand[low + 1] += 1
                if pos >= 1:
                    add(low - 1)
                if pos <= 6:
                    add(low + 2)
                rest[low + 1] += 1
                hand[low + 1] -= 1
            if pos <= 6 and rest[low + 2]:  # kanchan
                rest[low + 2] -= 1
                hand[low + 2] += 1
                add(low + 1)
                rest[low + 2] += 1
                hand[low + 2] -= 1
            rest[low] += 1
            hand[low] -= 1
        rest[pair] += 2
        hand[pair] -= 2


def tenpai_hands(counts: Sequence[int]) -> dict[Counts, set[int]]:
    """All distinct tenpai 13-tile sub-hands of ``counts`` (any number of tiles), with waits.

    Keys are 34-entry count vectors of 13 tiles, values the set of kinds each waits on (dead
    waits excluded, R12). Waits may have no copy left to win on; callers judge that.
    """
    found: dict[Counts, set[int]] = {}
    rest = list(counts)
    hand = [0] * NUM_KINDS
    groups = _groups_available(counts)

    def add(wait: int) -> None:
        if hand[wait] >= 4:
            return  # R12: a dead wait
        key = tuple(hand)
        known = found.get(key)
        if known is None:
            found[key] = {wait}
        else:
            known.add(wait)

    def walk(start: int, depth: int) -> None:
        if depth == 3:
            _pair_and_partial(rest, hand, add)
        elif depth == 4:
            for single in range(NUM_KINDS):
                if rest[single]:
                    hand[single] += 1
                    add(single)
                    hand[single] -= 1
            return
        for index in range(start, len(groups)):
            kind, sequence = groups[index]
            if sequence:
                if not (rest[kind] and rest[kind + 1] and rest[kind + 2]):
                    continue
                for k in (kind, kind + 1, kind + 2):
                    rest[k] -= 1
                    hand[k] += 1
                walk(index, depth + 1)
                for k in (kind, kind + 1, kind + 2):
                    rest[k] += 1
                    hand[k] -= 1
            else:
                if rest[kind] < 3:
                    continue
                rest[kind] -= 3
                hand[kind] += 3
                walk(index, depth + 1)
                rest[kind] += 3
                hand[kind] -= 3

    walk(0, 0)
    _add_chiitoitsu(counts, found)
    _add_kokushi(counts, found)
    return found


def _add_to(found: dict[Counts, set[int]], hand: Sequence[int], waits: set[int]) -> None:
    key = tuple(hand)
    if key in found:
        found[key] |= waits
    else:
        found[key] = set(waits)


def _add_chiitoitsu(counts: Sequence[int], found: dict[Counts, set[int]]) -> None:
    """Six distinct pairs and a single of another kind, waiting on the single."""
    pairs = [k for k in range(NUM_KINDS) if counts[k] >= 2]
    if len(pairs) < 6:
        return
    hand = [0] * NUM_KINDS

    def choose(start: int, left: int) -> None:
        if left == 0:
            for single in range(NUM_KINDS):
                if counts[single] and not hand[single]:
                    hand[single] = 1
                    _add_to(found, hand, {single})
                    hand[single] = 0
            return
        for index in range(start, len(pairs) - left + 1):
            hand[pairs[index]] = 2
            choose(index + 1, left - 1)
            hand[pairs[index]] = 0

    choose(0, 6)


def _add_kokushi(counts: Sequence[int], found: dict[Counts, set[int]]) -> None:
    """Thirteen orphans: all thirteen once (13-sided), or twelve with one of them twice."""
    held = [k for k in TERMINALS_AND_HONORS if counts[k]]
    if len(held) < 12:
        return
    if len(held) == 13:
        hand = [0] * NUM_KINDS
        for k in TERMINALS_AND_HONORS:
            hand[k] = 1
        _add_to(found, hand, set(TERMINALS_AND_HONORS))
    for missing in TERMINALS_AND_HONORS:
        others = [k for k in TERMINALS_AND_HONORS if k != missing]
        if any(not counts[k] for k in others):
            continue
        for double in others:
            if counts[double] < 2:
                continue
            hand = [0] * NUM_KINDS
            for k in others:
                hand[k] = 1
            hand[double] = 2
            _add_to(found, hand, {missing})
