"""Bytes as the cost: firmware for every perfect player, symmetric tables vs raw tables.

For each player (X with the centre opening, X with any opening, O, both sides) and each keying
(``full``: canonical keys + transform code; ``none``: raw keys, no transform) and each layout of
:mod:`minttt.table.layouts` (``bytes``: 16-bit key + 1 byte per move; ``nibbles``: moves packed
two per byte; ``packed``: 15-bit keys + 4-bit moves in a bit stream; ``hash``: a minimal perfect
hash, no keys stored), build the ATmega328P firmware with avr-gcc -Os, measure flash and RAM
with avr-size, split flash into table data and code, and check the firmware plays perfectly in
simavr (the exhaustive verifier).

Reads the minimal entry tables from ``results/tables/`` (``minttt reproduce`` writes them);
writes ``results/bytes.json``. Byte sizes are deterministic for a fixed avr-gcc version, which is
recorded. Run: ``python scripts/bytes.py`` (a few minutes: the simulator plays every line).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from minttt.fileio import write_json_atomic
from minttt.play.simavr import simavr_player
from minttt.table.firmware import build_firmware, table_bytes
from minttt.table.layouts import LAYOUTS
from minttt.table.model import load_table
from minttt.table.verify import verify_player

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = {
    "X (centre opening)": "first-center-lookup-entries",
    "X (any opening)": "first-any-lookup-entries",
    "O": "second-lookup-entries",
    "both sides": "both-center-lookup-entries",
}


def avr_gcc_version() -> str:
    out = subprocess.run(["avr-gcc", "--version"], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()[0]


def measure(tables: Path) -> dict:
    rows = []
    with tempfile.TemporaryDirectory(prefix="minttt-bytes-") as tmp:
        for player, variant in PLAYERS.items():
            for symmetry, suffix in (("full", ""), ("none", "-raw")):
                table = load_table(tables / f"{variant}{suffix}.json")
                for layout in LAYOUTS:
                    elf = Path(tmp) / f"{variant}{suffix}-{layout}.elf"
                    built = build_firmware(table, elf, layout=layout)
                    chip = simavr_player(elf)
                    try:
                        report = verify_player(chip, table.role, table.criterion)
                    finally:
                        chip.close()
                    data = table_bytes(table, layout)
                    rows.append(
                        {
                            "player": player,
                            "variant": variant,
                            "symmetry": symmetry,
                            "layout": layout,
                            "entries": table.size,
                            "flash": built.flash,
                            "table_bytes": data,
                            "code_bytes": built.flash - data,
                            "ram_static": built.ram,
                            "stack": built.stack,
                            "perfect_in_simavr": report.ok,
                        }
                    )
                    print(rows[-1], flush=True)
    return {
        "avr_gcc": avr_gcc_version(),
        "mcu": "atmega328p",
        "flags": "-Os -ffunction-sections -fdata-sections -Wl,--gc-sections",
        "rows": rows,
        "smallest": {
            who: min(
                (r for r in rows if r["player"] in group and r["perfect_in_simavr"]),
                key=lambda r: r["flash"],
            )
            for who, group in (
                ("X", ("X (centre opening)", "X (any opening)")),
                ("either side", ("both sides",)),
            )
        },
    }


def main() -> int:
    result = measure(ROOT / "results" / "tables")
    write_json_atomic(ROOT / "results" / "bytes.json", result)
    return 0 if all(r["perfect_in_simavr"] for r in result["rows"]) else 1


if __name__ == "__main__":
    sys.exit(main())
