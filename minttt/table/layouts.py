"""Compact table layouts for the firmware: how the (key, move) pairs sit in flash.

Four layouts, each a C fragment that finds the move of a key ``best`` (a 16-bit board hash):

* ``bytes``: sorted 16-bit keys, a byte per move, binary search (3 bytes an entry);
* ``nibbles``: the same keys, moves packed two per byte (2.5 bytes an entry);
* ``packed``: a bit stream of fixed-width keys (15 bits: 3^9 < 2^15) and 4-bit moves, scanned
  in order (19 bits an entry);
* ``hash``: no keys at all. A minimal perfect hash ``h`` maps the table's keys one-to-one onto
  ``0..n-1`` and only the moves are stored (nibbles), plus a small displacement array:
  with ``hi(x)`` the high byte of the 16-bit product, ``bucket = (hi(key * A) * r) >> 8``,
  ``slot = ((hi(key * B) * n) >> 8) + disp[bucket]``, minus n if it reaches n (above 256
  slots, ``(hi * (n >> k)) >> (8 - k)`` keeps the product in 16 bits) (hash and
  displace, no division; :func:`find_perfect_hash` searches A, B and the displacements in
  Python). Such a firmware cannot tell a board outside its table: it answers *some* nibble.
  It is correct only on the positions its own play reaches, which is all the verifier (and a
  game against it) ever asks.

>>> ph = find_perfect_hash([0, 5, 17, 300, 4711])
>>> sorted(ph.slot(k) for k in (0, 5, 17, 300, 4711))
[0, 1, 2, 3, 4]
>>> pairs = [(3, 4), (70, 0), (19682, 8)]
>>> unpack_stream(pack_stream(pairs, 15), len(pairs), 15) == pairs
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from minttt.errors import InputError
from minttt.table.export import c_rows

LAYOUTS = ("bytes", "nibbles", "packed", "hash")
KEY_BITS = 15  # raw and canonical hashes are < 3^9 = 19,683 < 2^15
MOVE_BITS = 4
# odd 16-bit multipliers tried in order (multiples of 2^16 / golden ratio: they spread small keys)
_MULTIPLIERS = tuple(((i * 0x9E37) & 0xFFFF) | 1 for i in range(1, 256))


def check_layout(layout: str) -> str:
    """``layout`` if known, else InputError naming the choices."""
    if layout not in LAYOUTS:
        raise InputError(
            f"unknown firmware layout {layout!r}: expected one of {', '.join(LAYOUTS)}"
        )
    return layout


# ------------------------------------------------------------------------------ perfect hash


def _high(key: int, mult: int) -> int:
    """The high byte of the 16-bit product ``key * mult`` (as the chip computes it)."""
    return ((key * mult) & 0xFFFF) >> 8


def base_scale(n: int) -> tuple[int, int]:
    """``(c, s)`` with ``base = (hi * c) >> s`` in ``0..n-1`` for every byte ``hi``, the product
    within 16 bits: ``c = n >> k``, ``s = 8 - k`` for the least such k (0 up to n = 256)."""
    k = 0
    while 255 * (n >> k) >= 1 << 16:
        k += 1
    return n >> k, 8 - k


@dataclass(frozen=True)
class PerfectHash:
    """``slot(key) = (base(key) + disp[bucket(key)]) mod n``, one-to-one on its keys, where
    ``bucket = (hi(key * a) * r) >> 8`` and ``base = (hi(key * b) * c) >> s`` (``hi``: the high
    byte of the 16-bit product; ``c, s = base_scale(n)``: ``n, 8`` up to n = 256). No division:
    the chip multiplies, shifts, and subtracts n at most once (``base < n``, ``disp < n``)."""

    a: int
    b: int
    n: int
    disp: tuple[int, ...]

    def bucket(self, key: int) -> int:
        """The bucket of ``key``."""
        return (_high(key, self.a) * len(self.disp)) >> 8

    def base(self, key: int) -> int:
        """The displacement stored for ``key``'s bucket."""
        c, s = base_scale(self.n)
        return (_high(key, self.b) * c) >> s

    def slot(self, key: int) -> int:
        """The slot of ``key`` in the table."""
        return (self.base(key) + self.disp[self.bucket(key)]) % self.n


def _displace(keys: Sequence[int], a: int, b: int, r: int) -> tuple[int, ...] | None:
    """Hash and displace with ``r`` buckets: a byte per bucket, largest buckets first; None if
    some bucket finds no displacement below min(n, 256) onto free slots."""
    n = len(keys)
    buckets: list[list[int]] = [[] for _ in range(r)]
    c, s = base_scale(n)
    for key in keys:
        buckets[(_high(key, a) * r) >> 8].append((_high(key, b) * c) >> s)
    used = [False] * n
    disp = [0] * r
    for i in sorted(range(r), key=lambda j: (-len(buckets[j]), j)):
        if not buckets[i]:
            continue
        for d in range(min(n, 256)):
            slots = {(h + d) % n for h in buckets[i]}
            if len(slots) == len(buckets[i]) and not any(used[s] for s in slots):
                for s in slots:
                    used[s] = True
                disp[i] = d
                break
        else:
            return None
    return tuple(disp)


def _candidates(keys: Sequence[int], r: int, tries: int) -> Iterator[PerfectHash]:
    for a in _MULTIPLIERS[:tries]:
        if len({(_high(k, a) * r) >> 8 for k in keys}) < min(r, len(keys)) // 2:
            continue  # the bucket hash collapses: hopeless
        for b in _MULTIPLIERS[:tries]:
            disp = _displace(keys, a, b, r)
            if disp is not None:
                yield PerfectHash(a, b, len(keys), disp)


def find_perfect_hash(keys: Sequence[int], tries: int = 16) -> PerfectHash:
    """The minimal perfect hash over ``keys`` with the fewest buckets found (deterministic).

    Tries bucket counts from ``n/4`` up to 255, each with ``tries`` x ``tries`` multiplier
    pairs."""
    keys = sorted(set(keys))
    if not keys:
        raise InputError("a perfect hash needs at least one key")
    if max(keys) >= 1 << 16:
        raise InputError("perfect hash keys must be 16-bit")
    for r in range(max(1, len(keys) // 4), 256):
        found = next(_candidates(keys, r, tries), None)
        if found is not None:
            return found
    raise InputError(f"no perfect hash found for {len(keys)} keys")


def nibbles(values: Sequence[int]) -> list[int]:
    """Values 0-15 packed two per byte, low nibble first."""
    return [
        values[i] | ((values[i + 1] if i + 1 < len(values) else 0) << 4)
        for i in range(0, len(values), 2)
    ]


def hashed_moves(pairs: Sequence[tuple[int, int]]) -> tuple[PerfectHash, list[int]]:
    """The perfect hash of the keys and the moves in slot order."""
    ph = find_perfect_hash([k for k, _ in pairs])
    moves = [0] * ph.n
    for key, move in pairs:
        moves[ph.slot(key)] = move
    return ph, moves


# ------------------------------------------------------------------------------ bit stream


def pack_stream(pairs: Sequence[tuple[int, int]], key_bits: int = KEY_BITS) -> list[int]:
    """(key, move) pairs as ``key_bits`` + 4 bits each, most significant bit first, in bytes."""
    bits = "".join(f"{k:0{key_bits}b}{m:0{MOVE_BITS}b}" for k, m in pairs)
    bits += "0" * (-len(bits) % 8)
    return [int(bits[i : i + 8], 2) for i in range(0, len(bits), 8)]


def unpack_stream(data: Sequence[int], n: int, key_bits: int = KEY_BITS) -> list[tuple[int, int]]:
    """The inverse of :func:`pack_stream` for ``n`` pairs."""
    bits = "".join(f"{b:08b}" for b in data)
    width = key_bits + MOVE_BITS
    return [
        (
            int(bits[i * width : i * width + key_bits], 2),
            int(bits[i * width + key_bits : (i + 1) * width], 2),
        )
        for i in range(n)
    ]


# ------------------------------------------------------------------------------ C fragments


@dataclass(frozen=True)
class LayoutC:
    """A layout's C arrays, its search (``FOUND`` marks where the move ``m`` is known; the
    caller substitutes the map-back) and the flash bytes of its data."""

    arrays: str
    search: str
    data_bytes: int
    fallback: bool = True  # after the search: the opening on the empty board, else -1


def _rows(values: Sequence[int]) -> str:
    return c_rows(values)


def _sorted_c(pairs: Sequence[tuple[int, int]], packed_moves: bool) -> LayoutC:
    keys, moves = [k for k, _ in pairs], [m for _, m in pairs]
    if packed_moves:
        data = nibbles(moves)
        read = "(uint8_t)((pgm_read_byte(&table_move[mid >> 1]) >> ((mid & 1) << 2)) & 15)"
    else:
        data, read = moves, "pgm_read_byte(&table_move[mid])"
    arrays = (
        f"static const uint16_t table_hash[{len(keys)}] PROGMEM = {{\n{_rows(keys)}\n}};\n"
        f"static const uint8_t table_move[{len(data)}] PROGMEM = {{\n{_rows(data)}\n}};\n"
    )
    search = f"""    {{
        int16_t lo = 0, hi = {len(keys) - 1};
        while (lo <= hi) {{
            int16_t mid = (lo + hi) / 2;
            uint16_t h = pgm_read_word(&table_hash[mid]);
            if (h == best) {{
                uint8_t m = {read};
                FOUND
            }}
            if (h < best) lo = mid + 1; else hi = mid - 1;
        }}
    }}
"""
    return LayoutC(arrays, search, 2 * len(keys) + len(data))


_READ_BITS = """static uint16_t read_bits(uint16_t *pos, uint8_t n) {
    uint16_t v = 0;
    while (n--) {
        v = (uint16_t)((v << 1) | ((pgm_read_byte(&stream[*pos >> 3]) >> (7 - (*pos & 7))) & 1));
        (*pos)++;
    }
    return v;
}
"""


def _packed_c(pairs: Sequence[tuple[int, int]]) -> LayoutC:
    data = pack_stream(pairs)
    arrays = f"static const uint8_t stream[{len(data)}] PROGMEM = {{\n{_rows(data)}\n}};\n"
    search = f"""    {{
        uint16_t pos = 0, j;
        for (j = 0; j < {len(pairs)}; j++) {{
            uint16_t h = read_bits(&pos, {KEY_BITS});
            uint8_t m = (uint8_t)read_bits(&pos, {MOVE_BITS});
            if (h == best) {{
                FOUND
            }}
            if (h > best) break;
        }}
    }}
"""
    return LayoutC(arrays + _READ_BITS, search, len(data))


def _hash_c(pairs: Sequence[tuple[int, int]]) -> LayoutC:
    ph, moves = hashed_moves(pairs)
    data = nibbles(moves)
    arrays = (
        f"/* minimal perfect hash over the {ph.n} keys: boards outside the table get any move */\n"
        f"static const uint8_t disp[{len(ph.disp)}] PROGMEM = {{\n{_rows(ph.disp)}\n}};\n"
        f"static const uint8_t table_move[{len(data)}] PROGMEM = {{\n{_rows(data)}\n}};\n"
    )
    r, n = len(ph.disp), ph.n
    c, shift = base_scale(n)
    search = f"""    {{
        uint8_t ha = (uint8_t)((uint16_t)(best * {ph.a}u) >> 8);
        uint8_t hb = (uint8_t)((uint16_t)(best * {ph.b}u) >> 8);
        uint8_t b = (uint8_t)(((uint16_t)ha * {r}u) >> 8);
        uint16_t slot = (uint16_t)(((uint16_t)hb * {c}u) >> {shift});
        slot += pgm_read_byte(&disp[b]);
        if (slot >= {n}u) slot -= {n}u;
        uint8_t m = (uint8_t)((pgm_read_byte(&table_move[slot >> 1]) >> ((slot & 1) << 2)) & 15);
        FOUND
    }}
"""
    return LayoutC(arrays, search, len(ph.disp) + len(data), fallback=False)


def layout_c(pairs: Sequence[tuple[int, int]], layout: str, opening: int) -> LayoutC:
    """The C of ``layout`` for sorted (key, move) ``pairs``; ``opening`` (or -1) is X's first
    move on the empty board (key 0) when the table has no entry there. The hash layout stores
    it as an entry, since it has no "not found"."""
    check_layout(layout)
    if layout == "hash":
        if opening >= 0 and all(k != 0 for k, _ in pairs):
            pairs = [(0, opening), *pairs]
        if not pairs:
            raise InputError("the hash layout needs a table with at least one entry")
        return _hash_c(pairs)
    if layout == "packed":  # an empty table: one key above every board (3^9 <= 0x7FFF)
        return _packed_c(pairs or [(0x7FFF, 0)])
    return _sorted_c(pairs or [(0xFFFF, 0)], packed_moves=layout == "nibbles")


__all__ = [
    "KEY_BITS",
    "base_scale",
    "LAYOUTS",
    "LayoutC",
    "PerfectHash",
    "check_layout",
    "find_perfect_hash",
    "hashed_moves",
    "layout_c",
    "nibbles",
    "pack_stream",
    "unpack_stream",
]
