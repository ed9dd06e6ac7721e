"""Precomputed 9-bit tables for one small 3x3 board (cell ``i`` is bit ``1 << i``).

Everything the rules and both engines need about a small board is a list lookup by mask:

>>> WIN[0b000000111], WIN[0b000000011]
(True, False)
>>> bin(COMPLETE[0b000000011])       # cells 0 and 1 held: cell 2 completes the top row
'0b100'
>>> TWOS[(0b000000011 << 9) | 0], TWOS[(0b000000011 << 9) | 0b100]   # blocked two does not count
(1, 0)
"""

from __future__ import annotations

FULL = 0b111111111

LINES: tuple[int, ...] = (
    0b000000111,
    0b000111000,
    0b111000000,
    0b001001001,
    0b010010010,
    0b100100100,
    0b100010001,
    0b001010100,
)


def _win_table() -> list[bool]:
    return [any(mask & line == line for line in LINES) for mask in range(512)]


def _complete_table() -> list[int]:
    """COMPLETE[own]: the cells not in ``own`` that would give ``own`` a three in a row."""
    table = []
    for own in range(512):
        cells = 0
        for line in LINES:
            rest = line & ~own
            if rest and rest & (rest - 1) == 0:  # exactly one cell of the line missing
                cells |= rest
        table.append(cells)
    return table


def _twos_table() -> list[int]:
    """TWOS[own << 9 | opp]: lines holding two of ``own`` and an empty third cell (an open two)."""
    table = [0] * (512 * 512)
    for own in range(512):
        for opp in range(512):
            if own & opp:
                continue
            count = 0
            for line in LINES:
                if (own & line).bit_count() == 2 and not opp & line:
                    count += 1
            table[(own << 9) | opp] = count
    return table


WIN: list[bool] = _win_table()
COMPLETE: list[int] = _complete_table()
POPCOUNT: list[int] = [m.bit_count() for m in range(512)]
TWOS: list[int] = _twos_table()


__all__ = [
    "COMPLETE",
    "FULL",
    "LINES",
    "POPCOUNT",
    "TWOS",
    "WIN",
]
