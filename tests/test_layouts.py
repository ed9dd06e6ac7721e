"""Compact firmware layouts in Python: the perfect hash and the bit stream round-trip."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from minttt.errors import InputError
from minttt.table.export import lookup_data
from minttt.table.firmware import firmware_source, table_bytes
from minttt.table.layouts import (
    KEY_BITS,
    base_scale,
    check_layout,
    find_perfect_hash,
    hashed_moves,
    layout_c,
    nibbles,
    pack_stream,
    unpack_stream,
)
from minttt.table.model import load_table

TABLES = Path(__file__).parent.parent / "results" / "tables"
SMALL = ["first-any-lookup-entries", "first-center-lookup-entries", "second-lookup-entries"]
RAW = [
    "first-any-lookup-entries-raw",
    "second-lookup-entries-raw",
    "both-center-lookup-entries-raw",
]


def _pairs(name: str) -> tuple[list[tuple[int, int]], int]:
    data = lookup_data(load_table(TABLES / f"{name}.json"))
    return list(zip(data.hashes, data.moves, strict=True)), data.opening


def _check_hash(name: str) -> None:
    pairs, _ = _pairs(name)
    ph, moves = hashed_moves(pairs)
    assert sorted(ph.slot(k) for k, _ in pairs) == list(range(len(pairs)))  # one slot per key
    assert all(moves[ph.slot(k)] == m for k, m in pairs)
    assert all(0 <= d < 256 for d in ph.disp) and len(ph.disp) < len(pairs) / 2


@pytest.mark.parametrize("name", SMALL)
def test_the_perfect_hash_gives_every_key_its_own_slot(name):
    _check_hash(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", RAW)
def test_the_perfect_hash_of_raw_tables(name):
    _check_hash(name)


def test_the_perfect_hash_is_deterministic_and_minimal():
    keys = random.Random(7).sample(range(3**9), 40)
    first, again = find_perfect_hash(keys), find_perfect_hash(list(reversed(keys)))
    assert first == again and first.n == 40
    assert sorted(first.slot(k) for k in keys) == list(range(40))
    with pytest.raises(InputError):
        find_perfect_hash([])


def test_the_hash_needs_no_division_on_the_chip():
    for n in (1, 68, 256, 257, 326, 600, 5000):
        c, s = base_scale(n)
        assert 255 * c < 1 << 16 and (255 * c) >> s < n  # 16-bit product, base below n
    keys = random.Random(3).sample(range(3**9), 300)  # above 256 slots: the scaled base
    ph = find_perfect_hash(keys)
    assert sorted(ph.slot(k) for k in keys) == list(range(300))
    for k in keys:
        assert ph.base(k) < ph.n and ph.disp[ph.bucket(k)] < ph.n and ph.bucket(k) < len(ph.disp)


def test_the_bit_stream_round_trips():
    rng = random.Random(1)
    pairs = sorted((rng.randrange(3**9), rng.randrange(9)) for _ in range(101))
    data = pack_stream(pairs)
    assert len(data) == (101 * (KEY_BITS + 4) + 7) // 8
    assert unpack_stream(data, 101) == pairs
    assert nibbles([1, 2, 3]) == [0x21, 0x03]


def test_layout_bytes_are_the_arrays():
    table = load_table(TABLES / "first-any-lookup-entries-raw.json")
    pairs, opening = _pairs("first-any-lookup-entries-raw")
    ph, _ = hashed_moves(pairs if 0 in dict(pairs) or opening < 0 else [(0, opening), *pairs])
    assert table_bytes(table, "hash") == len(ph.disp) + (ph.n + 1) // 2
    assert table_bytes(table, "packed") == (68 * 19 + 7) // 8
    assert table_bytes(table, "nibbles") == 2 * 68 + 34
    symmetric = load_table(TABLES / "first-center-lookup-entries.json")
    assert table_bytes(symmetric, "bytes") == 3 * 22 + 72


def test_the_hash_layout_stores_no_keys_and_the_opening_as_an_entry():
    table = load_table(TABLES / "first-center-lookup-entries.json")
    src = firmware_source(table, "hash")
    assert "table_hash" not in src and "disp[" in src and "OPENING >= 0" not in src
    assert "OPENING >= 0" in firmware_source(table, "nibbles")
    without_root = layout_c([(5, 1), (70, 2)], "hash", 4)  # the empty board gets a slot
    assert without_root.data_bytes == layout_c([(0, 4), (5, 1), (70, 2)], "hash", -1).data_bytes
    assert without_root.data_bytes > layout_c([(5, 1), (70, 2)], "hash", -1).data_bytes


def test_unknown_layouts_are_input_errors():
    with pytest.raises(InputError, match="expected one of"):
        check_layout("zip")
    with pytest.raises(InputError):
        layout_c([], "hash", -1)
