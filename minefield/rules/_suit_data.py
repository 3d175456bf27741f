"""The per-suit tables, computed ahead and shipped with the package as data (private).

:mod:`minefield.rules._suit_tables` fills its tables the first time each suit shape is seen;
working a shape out (does it split, every way it does, which tiles complete it) costs tens of
microseconds, far more than using it, so a fresh process analysing thousands of new hands
(``minefield analyze --jsonl``) spent most of its time there. This module holds the answers
for every suit shape that splits or is one tile from splitting, computed by the tables' own
functions (:func:`generate`), in ``suit_tables.bin`` beside it:

* a header: ``MAGIC``, the number of records ``N`` and the CRC-32 of everything after it;
* ``N`` keys, sorted (``uint32``, little-endian): a suit's counts as a number in base 5 (the
  first count the highest digit), the honors' plus ``HONOR_KEYS``;
* ``BUCKETS`` starts (``uint32``): the index of the first key of each bucket of 1024 keys
  (the keys ``k`` with ``k >> BUCKET_BITS`` equal), then ``N``, so that a look-up searches
  one bucket (some 40 keys) instead of all of them;
* ``N + 1`` offsets (``uint32``) of each record in the records area, then that area. A record
  is the waits (``uint16``: bit ``i`` set when one more tile ``i`` makes the suit split), the
  number of ways the suit splits (``uint8``, 0 when it does not), then for a numbered suit
  each way as pair (``uint8``, 255 for none), totals (``uint16``), shared (3 bytes), the number
  of groups (``uint8``) and their codes (one byte each): the fields of a ``SuitPart`` at offset
  0. An honors record has no ways after the count (1 when they split): their one way is made
  from the counts.

A shape with no record neither splits nor has waits. The file is read once, on the first
look-up (about a millisecond), and a record is decoded only when its shape is first seen. A
missing, short or corrupt file (wrong magic, size or checksum) is ignored: the tables then
compute every shape as before (:func:`load` returns None), with no message and no traceback.
``tests/rules/test_suit_data.py`` regenerates the whole file and compares it byte for byte,
so it cannot go stale unnoticed. Regenerate it with ``python -m minefield.rules._suit_data``.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from pathlib import Path
from struct import Struct

FILE = Path(__file__).with_name("suit_tables.bin")
MAGIC = b"MFSUIT2\n"
_HEADER = Struct("<8sII")  # magic, record count, CRC-32 of the rest
HONOR_KEYS = 5 ** 9  # honors' keys come after every numbered suit's
BUCKET_BITS = 10  # keys >> BUCKET_BITS index the buckets, which say where their keys are
BUCKETS = (HONOR_KEYS + 5 ** 7 >> BUCKET_BITS) + 2
NO_PAIR = 255
MAX_SUIT_TILES = 14  # no suit of a 13- or 14-tile hand holds more
# bytes(counts).translate(_BASE5): the base-5 digits of counts 0-4, an "x" for any other
_BASE5 = bytes(b"01234"[value] if value < 5 else ord("x") for value in range(256))
_NOTHING = (0, 0, 0)

RawPart = tuple[int, int, int, tuple[int, ...]]
"""A numbered suit's way to split, as stored: pair (-1 for none), totals, shared, groups."""


def suit_key(counts: Sequence[int], honors: bool) -> int | None:
    """The key of a suit's counts in the file; None for counts the file does not cover
    (more than 4 of a kind or more than 14 tiles: no hand holds such a suit)."""
    if sum(counts) > MAX_SUIT_TILES or max(counts) > 4 or min(counts) < 0:
        return None
    key = int(bytes(counts).translate(_BASE5), 5)
    return key + HONOR_KEYS if honors else key


class SuitData:
    """The shipped tables, read from the file's bytes; records decoded on demand."""

    __slots__ = ("buckets", "keys", "offsets", "records")

    def __init__(self, keys: array[int], buckets: array[int], offsets: array[int],
                 records: bytes) -> None:
        self.keys = keys
        self.buckets = buckets
        self.offsets = offsets
        self.records = records

    def record(self, counts: Sequence[int], size: int, honors: bool
               ) -> tuple[int, int, int] | None:
        """``(waits, ways, start of the ways)`` of a suit's ``counts`` (``size`` tiles):
        ``(0, 0, 0)`` when it has no record (it neither splits nor has waits), None when the
        file does not cover such counts (see :func:`suit_key`)."""
        if size > MAX_SUIT_TILES:
            return None
        try:  # bytes() refuses counts below 0 or over 255, int() any "x" (a count over 4)
            key = int(bytes(counts).translate(_BASE5), 5)
        except ValueError:
            return None
        if honors:
            key += HONOR_KEYS
        keys = self.keys
        bucket = key >> BUCKET_BITS
        end = self.buckets[bucket + 1]
        index = bisect_left(keys, key, self.buckets[bucket], end)
        if index == end or keys[index] != key:
            return _NOTHING
        start = self.offsets[index]
        data = self.records
        return data[start] | data[start + 1] << 8, data[start + 2], start + 3

    def parts(self, ways: int, start: int, base: int = 0) -> list[RawPart]:
        """The ``ways`` ways a numbered suit splits, stored from ``start``, with ``base`` (the
        suit's first kind) added to the pair and the groups."""
        data = self.records
        shift = _SHIFTS[base]
        found = []
        for _ in range(ways):
            pair = data[start]
            end = start + 7 + data[start + 6]
            found.append((-1 if pair == NO_PAIR else pair + base,
                          data[start + 1] | data[start + 2] << 8,
                          data[start + 3] | data[start + 4] << 8 | data[start + 5] << 16,
                          tuple(data[start + 7:end].translate(shift))))
            start = end
        return found


_SHIFTS = {base: bytes((value + base) & 255 for value in range(256)) for base in (0, 9, 18)}
"""bytes.translate tables adding a suit's first kind to group codes (all below 128)."""


def parse(blob: bytes) -> SuitData | None:
    """The tables in a file's bytes; None when they are not a whole, intact file."""
    if len(blob) < _HEADER.size:
        return None
    magic, count, checksum = _HEADER.unpack_from(blob)
    body = memoryview(blob)[_HEADER.size:]
    tables = 4 * (2 * count + 1 + BUCKETS)  # keys, buckets, offsets
    if magic != MAGIC or zlib.crc32(body) != checksum or len(body) < tables:
        return None
    keys, buckets, offsets = array("I"), array("I"), array("I")
    if keys.itemsize != 4:  # pragma: no cover - every supported platform has 4-byte "I"
        return None
    keys.frombytes(body[:4 * count])
    buckets.frombytes(body[4 * count:4 * (count + BUCKETS)])
    offsets.frombytes(body[4 * (count + BUCKETS):tables])
    if sys.byteorder == "big":  # pragma: no cover - the file is little-endian
        keys.byteswap()
        buckets.byteswap()
        offsets.byteswap()
    records = bytes(body[tables:])
    if offsets[-1] != len(records) or buckets[-1] != count:
        return None
    return SuitData(keys, buckets, offsets, records)


def load(path: Path | None = None) -> SuitData | None:
    """The shipped tables (``path``, default :data:`FILE`), or None when the file is missing,
    unreadable or corrupt."""
    try:
        blob = (FILE if path is None else path).read_bytes()
    except OSError:
        return None
    return parse(blob)


def encode(records: dict[int, tuple[int, int, tuple[RawPart, ...]]]) -> bytes:
    """The file of ``records``: key -> (waits, number of ways, the ways of a numbered
    suit)."""
    keys = array("I", sorted(records))
    offsets = array("I")
    area = bytearray()
    for key in keys:
        waits, ways, parts = records[key]
        offsets.append(len(area))
        area += bytes((waits & 255, waits >> 8, ways))
        for pair, totals, shared, groups in parts:
            area += bytes((NO_PAIR if pair < 0 else pair, totals & 255, totals >> 8,
                           shared & 255, shared >> 8 & 255, shared >> 16, len(groups),
                           *groups))
    offsets.append(len(area))
    buckets = array("I", (bisect_left(keys, bucket << BUCKET_BITS) for bucket in range(BUCKETS)))
    if sys.byteorder == "big":  # pragma: no cover - the file is little-endian
        keys.byteswap()
        buckets.byteswap()
        offsets.byteswap()
    body = keys.tobytes() + buckets.tobytes() + offsets.tobytes() + bytes(area)
    return _HEADER.pack(MAGIC, len(keys), zlib.crc32(body)) + body


def generate() -> bytes:
    """The file's contents, computed by :mod:`minefield.rules._suit_tables`'s own functions
    (:func:`~minefield.rules._suit_tables.shipped_records`)."""
    from minefield.rules._suit_tables import shipped_records

    return encode(shipped_records())


if __name__ == "__main__":
    FILE.write_bytes(generate())
    print(f"wrote {FILE} ({FILE.stat().st_size} bytes)")
