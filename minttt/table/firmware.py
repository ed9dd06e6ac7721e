"""A table as firmware for an ATmega328P: ``minttt export --format avr``.

The firmware keeps the table in flash (``PROGMEM``: sorted 16-bit canonical hashes, 8-bit moves,
the 8 symmetries) and talks over the UART (115200 baud, 8N1, 16 MHz): it reads one board per line
(9 characters of ``x``, ``o``, ``.``) and answers the move, a cell ``0``-``8``, or ``-1`` without
an entry, then a newline. It is the C header's lookup with ``pgm_read`` instead of RAM reads.

Building needs avr-gcc and avr-libc (Debian: ``gcc-avr avr-libc``); :func:`build_firmware`
writes an ELF (or an Intel HEX for a programmer such as avrdude when the name ends in ``.hex``)
and reports the flash and RAM bytes as avr-size counts them.

>>> from minttt.game.graph import build_graph
>>> from minttt.table.model import table_from_moves
>>> t = table_from_moves(build_graph(), {0: 4}, role="X", opening=None, criterion="optimal")
>>> src = firmware_source(t)
>>> "PROGMEM" in src and "UDR0" in src
True
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from minttt import __version__
from minttt.errors import InputError
from minttt.fileio import write_bytes_atomic
from minttt.table.export import c_perms, c_rows, lookup_data
from minttt.table.model import HASH_CONVENTION, Table

MCU = "atmega328p"
F_CPU = 16_000_000
BAUD = 115_200


@dataclass(frozen=True)
class FirmwareBuild:
    """A built firmware: where it is, and its flash and RAM bytes (static RAM, without stack)."""

    path: str
    mcu: str
    flash: int
    ram: int
    stack: int
    entries: int

    def summary(self) -> str:
        return (
            f"{self.path}: {self.mcu}, {self.entries} entries, flash {self.flash:,} bytes, "
            f"RAM {self.ram:,} bytes static + {self.stack} bytes of stack"
        )


LAYOUTS = ("bytes", "nibbles")


def _lookup_c(table: Table, layout: str) -> str:
    """The table arrays and ``lookup()``: canonicalise (symmetric tables only), binary search."""
    data = lookup_data(table)
    hashes, moves, n = data.hashes, data.moves, data.length
    if layout == "nibbles":  # two moves per byte, low nibble first
        packed = [
            moves[i] | ((moves[i + 1] if i + 1 < len(moves) else 0) << 4)
            for i in range(0, len(moves), 2)
        ]
        move_array = (
            f"static const uint8_t table_move[{len(packed)}] PROGMEM = {{\n{c_rows(packed)}\n}};"
        )
        read_move = "(uint8_t)((pgm_read_byte(&table_move[mid >> 1]) >> ((mid & 1) << 2)) & 15)"
    elif layout == "bytes":
        move_array = f"static const uint8_t table_move[{n}] PROGMEM = {{\n{c_rows(moves)}\n}};"
        read_move = "pgm_read_byte(&table_move[mid])"
    else:
        raise InputError(
            f"unknown firmware layout {layout!r}: expected one of {', '.join(LAYOUTS)}"
        )
    arrays = f"static const uint16_t table_hash[{n}] PROGMEM = {{\n{c_rows(hashes)}\n}};\n"
    arrays += move_array + "\n"
    search = f"""    lo = 0;
    hi = SIZE - 1;
    while (lo <= hi) {{
        int16_t mid = (lo + hi) / 2;
        uint16_t h = pgm_read_word(&table_hash[mid]);
        if (h == best) {{
            uint8_t m = {read_move};
            MAP_BACK
        }}
        if (h < best) lo = mid + 1; else hi = mid - 1;
    }}
    if (best == 0 && OPENING >= 0) return OPENING;
    return -1;
}}
"""
    if table.raw:  # keyed by the raw board: hash it, search, play the move as it is
        body = """static int8_t lookup(const uint8_t cells[9]) {
    uint16_t best = 0;
    uint8_t i;
    int16_t lo, hi;
    for (i = 9; i-- > 0;) best = (uint16_t)(best * 3 + cells[i]);
"""
        return arrays + body + search.replace("MAP_BACK", "return (int8_t)m;")
    arrays += f"static const uint8_t sym[8][9] PROGMEM = {{\n{c_perms(data.perms)}\n}};\n"
    body = """static int8_t lookup(const uint8_t cells[9]) {
    uint16_t best = 0xFFFF;
    uint8_t best_t = 0, t, i;
    int16_t lo, hi;
    for (t = 0; t < 8; t++) {
        uint8_t image[9];
        uint16_t h = 0;
        for (i = 0; i < 9; i++) image[pgm_read_byte(&sym[t][i])] = cells[i];
        for (i = 9; i-- > 0;) h = (uint16_t)(h * 3 + image[i]);
        if (h < best) { best = h; best_t = t; }
    }
"""
    back = """for (i = 0; i < 9; i++)
                if (pgm_read_byte(&sym[best_t][i]) == m) return (int8_t)i;
            return -1;"""
    return arrays + body + search.replace("MAP_BACK", back)


def table_bytes(table: Table, layout: str = "bytes") -> int:
    """Flash bytes of the table data alone: keys, moves, and the 72 bytes of symmetries."""
    n = max(table.size, 1)
    moves = (n + 1) // 2 if layout == "nibbles" else n
    return 2 * n + moves + (0 if table.raw else 72)


def firmware_source(table: Table, layout: str = "bytes") -> str:
    """The firmware as one C file for avr-gcc (see the module docstring).

    ``layout``: ``bytes`` (a 16-bit key and a byte per move) or ``nibbles`` (moves packed two per
    byte). A raw table (``symmetry: none``) gets no symmetry array and no transform code.
    """
    if table.rules.cells != 9:
        raise InputError(f"--format avr: the firmware is for 3x3 boards, not {table.game}")
    opening = lookup_data(table).opening
    ubrr = round(F_CPU / (8 * BAUD)) - 1  # double speed (U2X0)
    keys = "raw boards, no transform" if table.raw else "canonical boards"
    return f"""\
/* minttt firmware: plays {table.role}, criterion {table.criterion}, {table.size} entries
 * (generated by minttt {__version__}). ATmega328P at {F_CPU // 1_000_000} MHz, UART {BAUD} 8N1.
 * Protocol: one board per line ("x...o...."), the answer is the move 0-8 (or -1) and a newline.
 * Hash: {HASH_CONVENTION}. Keys: {keys}; layout {layout}.
 */
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <stdint.h>

#define SIZE {table.size}
#define OPENING ({opening})

{_lookup_c(table, layout)}
static uint8_t rx(void) {{
    while (!(UCSR0A & _BV(RXC0))) {{}}
    return UDR0;
}}

static void tx(uint8_t c) {{
    while (!(UCSR0A & _BV(UDRE0))) {{}}
    UDR0 = c;
}}

int main(void) {{
    uint8_t cells[9];
    uint8_t n = 0;
    UBRR0H = 0;
    UBRR0L = {ubrr};
    UCSR0A = _BV(U2X0);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    for (;;) {{
        uint8_t c = rx();
        if (c == '\\n' || c == '\\r') {{
            if (n == 0) continue;
            if (n == 9) {{
                int8_t m = lookup(cells);
                if (m < 0) {{ tx('-'); tx('1'); }} else tx((uint8_t)('0' + m));
            }} else {{ tx('-'); tx('1'); }}
            tx('\\n');
            n = 0;
        }} else {{
            uint8_t v = (c == 'x' || c == 'X') ? 1 : (c == 'o' || c == 'O') ? 2 : 0;
            if (v || c == '.' || c == '-' || c == '_') {{
                if (n < 9) cells[n] = v;
                if (n < 10) n++;
            }}
        }}
    }}
}}
"""


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise InputError(
            f"{name} not found: install gcc-avr and avr-libc (Debian) to build firmware"
        )
    return path


def _run_tool(cmd: list[str], cwd: str | None = None) -> str:
    """Run an AVR tool; its failure is one line (InputError), never a traceback."""
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[0]
        raise InputError(f"{Path(cmd[0]).name} failed: {first}")
    return done.stdout


def avr_size(elf: str | Path) -> tuple[int, int]:
    """(flash, RAM) bytes of an AVR ELF: flash = .text + .data, RAM = .data + .bss + .noinit."""
    out = _run_tool([_tool("avr-size"), "-A", str(elf)])
    sizes: dict[str, int] = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    flash = sizes.get(".text", 0) + sizes.get(".data", 0)
    ram = sizes.get(".data", 0) + sizes.get(".bss", 0) + sizes.get(".noinit", 0)
    return flash, ram


def build_firmware(
    table: Table,
    out: str | Path,
    *,
    mcu: str = MCU,
    layout: str = "bytes",
    final: bool = False,
) -> FirmwareBuild:
    """Compile the firmware for ``table`` with avr-gcc into ``out`` (``.elf``, or ``.hex``);
    ``final``: the command's last result (see :func:`minttt.fileio.write_many_atomic`)."""
    gcc = _tool("avr-gcc")
    source = firmware_source(table, layout)
    out = Path(out)
    with tempfile.TemporaryDirectory(prefix="minttt-avr-") as tmp:
        src, elf = Path(tmp) / "firmware.c", Path(tmp) / "firmware.elf"
        src.write_text(source, encoding="utf-8")
        cmd = [gcc, f"-mmcu={mcu}", f"-DF_CPU={F_CPU}UL", "-Os", "-std=gnu99", "-Wall"]
        cmd += ["-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections", "-fstack-usage"]
        _run_tool([*cmd, str(src), "-o", str(elf)], cwd=tmp)
        flash, ram = avr_size(elf)
        stack = _stack_bytes(Path(tmp))
        built = Path(tmp) / ("firmware.hex" if out.suffix.lower() == ".hex" else "firmware.elf")
        if built != elf:
            objcopy = _tool("avr-objcopy")
            _run_tool([objcopy, "-O", "ihex", "-R", ".eeprom", str(elf), str(built)])
        write_bytes_atomic(out, built.read_bytes(), final=final)
    return FirmwareBuild(str(out), mcu, flash, ram, stack, table.size)


def _stack_bytes(directory: Path) -> int:
    """Stack bytes from avr-gcc's ``-fstack-usage`` (main's frame plus the deepest callee's,
    plus 2 bytes of return address per call level; lookup is usually inlined into main)."""
    frames: dict[str, int] = {}
    for su in directory.glob("*.su"):
        for line in su.read_text(encoding="utf-8").splitlines():
            parts = line.split("\t")
            if len(parts) >= 2 and parts[1].strip().isdigit():
                frames[parts[0].rsplit(":", 1)[-1]] = int(parts[1])
    main = frames.pop("main", 0)
    return 2 + main + max((2 + v for v in frames.values()), default=0)


__all__ = [
    "BAUD",
    "F_CPU",
    "LAYOUTS",
    "MCU",
    "FirmwareBuild",
    "avr_size",
    "build_firmware",
    "firmware_source",
    "table_bytes",
]
