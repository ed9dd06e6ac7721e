"""Run a firmware in simavr and play it: the exhaustive verifier drives the simulated chip.

A small C harness linked with libsimavr (Debian: ``simavr libsimavr-dev``, built with the host's
``gcc``) loads the ELF into a simulated ATmega328P at 16 MHz, and forwards each line it reads on
stdin byte by byte into the chip's UART receiver; it runs the chip until the firmware has sent a
whole line back over the UART transmitter and prints that line. :class:`SimavrPlayer` is then an
ordinary program player (:class:`~minttt.table.export.ProgramPlayer`).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from minttt.errors import InputError
from minttt.table.export import ProgramPlayer
from minttt.table.firmware import F_CPU, MCU

HARNESS = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_irq.h>
#include <simavr/avr_uart.h>

static char out[64];
static int outn, done;

static void on_tx(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)param;
    if (outn < (int)sizeof out - 1) out[outn++] = (char)value;
    if ((char)value == '\n') done = 1;
}

int main(int argc, char **argv) {
    elf_firmware_t fw;
    char line[128];
    uint32_t flags = 0;
    if (argc != 4) { fprintf(stderr, "usage: harness FIRMWARE.elf MCU HZ\n"); return 2; }
    int saved = dup(1), quiet = open("/dev/null", O_WRONLY);
    dup2(quiet, 1); /* simavr logs while loading: keep stdout for the answers */
    close(quiet);
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw)) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }
    avr_t *avr = avr_make_mcu_by_name(argv[2]);
    if (!avr) { fprintf(stderr, "unknown mcu %s\n", argv[2]); return 2; }
    avr_init(avr);
    fw.frequency = (uint32_t)strtoul(argv[3], NULL, 10);
    avr_load_firmware(avr, &fw);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_tx, NULL);
    avr_irq_t *rx = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    while (avr->cycle < 20000) avr_run(avr); /* boot: the firmware enables its receiver */
    while (fgets(line, sizeof line, stdin)) {
        avr_cycle_count_t start = avr->cycle;
        outn = 0;
        done = 0;
        for (char *p = line; *p; p++) avr_raise_irq(rx, (uint8_t)*p);
        while (!done) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "the simulated chip stopped\n");
                return 1;
            }
            if (avr->cycle - start > 100000000ULL) { printf("timeout\n"); fflush(stdout); break; }
        }
        out[outn] = 0;
        fputs(out, stdout);
        fflush(stdout);
    }
    return 0;
}
"""


def simavr_missing() -> str | None:
    """Why the simulator cannot run here (a one-line reason), or None when it can."""
    if shutil.which("gcc") is None:
        return "gcc not found (needed to build the simavr harness)"
    if not Path("/usr/include/simavr/sim_avr.h").is_file():
        return "libsimavr headers not found: install simavr and libsimavr-dev (Debian)"
    return None


def build_harness(directory: str | Path) -> Path:
    """Compile the harness into ``directory``; returns the executable."""
    reason = simavr_missing()
    if reason:
        raise InputError(reason)
    directory = Path(directory)
    src, exe = directory / "harness.c", directory / "harness"
    src.write_text(HARNESS, encoding="utf-8")
    done = subprocess.run(
        ["gcc", "-O2", "-I/usr/include/simavr", str(src), "-o", str(exe), "-lsimavr"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["gcc failed"])[0]
        raise InputError(f"cannot build the simavr harness: {first}")
    return exe


class SimavrPlayer(ProgramPlayer):
    """A firmware ELF running in simavr, asked one board per line over its UART."""

    def __init__(
        self, harness: str | Path, elf: str | Path, *, mcu: str = MCU, name: str = "avr"
    ) -> None:
        super().__init__([str(harness), str(elf), mcu, str(F_CPU)], name=name)


def simavr_player(elf: str | Path, *, name: str | None = None) -> SimavrPlayer:
    """A :class:`SimavrPlayer` for ``elf`` with a freshly built harness (``--player avr:PATH``).

    The harness is built in a temporary directory that is removed once the process has started.
    """
    path = Path(elf)
    if not path.is_file():
        raise InputError(f"avr:{elf}: no such firmware file")
    if path.read_bytes()[:4] != b"\x7fELF":
        raise InputError(f"avr:{elf}: not an ELF file (build it with --format avr --out NAME.elf)")
    with tempfile.TemporaryDirectory(prefix="minttt-simavr-") as tmp:
        return SimavrPlayer(build_harness(tmp), path, name=name or f"avr:{elf}")


__all__ = ["HARNESS", "SimavrPlayer", "build_harness", "simavr_missing", "simavr_player"]
