"""ATmega328P firmware: built with avr-gcc, run in simavr, driven by the exhaustive verifier."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.game.graph import build_graph
from minttt.game.rules import Board
from minttt.play.simavr import SimavrPlayer, build_harness, simavr_missing
from minttt.table.firmware import build_firmware, firmware_source
from minttt.table.model import load_table, table_from_moves
from minttt.table.verify import verify_player

TABLES = Path(__file__).parent.parent / "results" / "tables"
X22 = TABLES / "first-center-lookup-entries.json"
BOTH94 = TABLES / "both-center-lookup-entries.json"

needs_avr_gcc = pytest.mark.skipif(
    shutil.which("avr-gcc") is None, reason="avr-gcc not installed (Debian: gcc-avr avr-libc)"
)
needs_simavr = pytest.mark.skipif(
    simavr_missing() is not None, reason=f"simavr cannot run: {simavr_missing()}"
)


class _Both:
    """Asks the chip and the table at every position; they must agree."""

    def __init__(self, chip: SimavrPlayer, table_player) -> None:
        self.chip, self.table_player, self.name, self.asked = chip, table_player, "chip", 0

    def choices(self, board: Board) -> tuple[int, ...]:
        got = self.chip.choices(board)
        assert got == self.table_player.choices(board), str(board)
        self.asked += 1
        return got


def test_the_source_keeps_the_table_in_flash():
    src = firmware_source(load_table(X22))
    assert src.count("PROGMEM") == 3 and "#define SIZE 22" in src


@needs_avr_gcc
def test_export_avr_builds_elf_and_hex_and_reports_bytes(tmp_path):
    runner = CliRunner()
    elf = tmp_path / "x.elf"
    result = runner.invoke(app, ["export", str(X22), "--format", "avr", "--out", str(elf)])
    assert result.exit_code == 0, result.output
    assert "flash" in result.output and "RAM 0 bytes static" in result.output
    assert elf.read_bytes()[:4] == b"\x7fELF"
    hexfile = tmp_path / "x.hex"
    assert runner.invoke(app, ["export", str(X22), "-f", "avr", "-o", str(hexfile)]).exit_code == 0
    assert hexfile.read_text().startswith(":") and hexfile.read_text().rstrip().endswith(
        ":00000001FF"
    )
    missing = runner.invoke(app, ["export", str(X22), "--format", "avr"])
    assert missing.exit_code == 2 and "--out" in missing.output


@needs_avr_gcc
def test_more_entries_cost_flash_not_ram(tmp_path):
    small, large = (
        build_firmware(load_table(X22), tmp_path / "a.elf"),
        build_firmware(load_table(BOTH94), tmp_path / "b.elf"),
    )
    assert small.ram == large.ram == 0
    # 72 more entries of 3 bytes, plus at most a few bytes of code
    assert 3 * 72 <= large.flash - small.flash <= 3 * 72 + 16
    assert small.flash < 32 * 1024 and small.stack > 0


@needs_avr_gcc
@needs_simavr
@pytest.mark.parametrize("path", [X22, BOTH94], ids=["x22", "both94"])
def test_the_simulated_chip_plays_every_opponent_line(tmp_path, path):
    table = load_table(path)
    build_firmware(table, tmp_path / "fw.elf")
    harness = build_harness(tmp_path)
    with SimavrPlayer(harness, tmp_path / "fw.elf") as chip:
        both = _Both(chip, table.player())
        report = verify_player(both, table.role, table.criterion)
        assert report.ok and report.losses == 0, report.counterexample
        assert both.asked == report.positions == chip.calls
        assert chip.choices(Board.parse("xoxxooxxo")) == ()  # a finished game: no entry


@needs_avr_gcc
@needs_simavr
def test_the_verifier_catches_a_chip_with_a_missing_entry(tmp_path):
    table = table_from_moves(build_graph(), {0: 4}, role="X", opening=None, criterion="optimal")
    build_firmware(table, tmp_path / "fw.elf")
    with SimavrPlayer(build_harness(tmp_path), tmp_path / "fw.elf") as chip:
        report = verify_player(chip, "X")
    assert not report.ok and report.counterexample.reason.startswith("no move")
    assert report.counterexample.moves == (4, 0)


@needs_avr_gcc
@needs_simavr
def test_verify_drives_the_chip_from_the_command_line(tmp_path):
    runner = CliRunner()
    elf = tmp_path / "both.elf"
    assert runner.invoke(app, ["export", str(BOTH94), "-f", "avr", "-o", str(elf)]).exit_code == 0
    result = runner.invoke(app, ["verify", "--player", f"avr:{elf}", "--json"])
    assert result.exit_code == 0, result.output
    assert '"ok": true' in result.output and '"losses": 0' in result.output
    for bad in (tmp_path / "missing.elf", BOTH94):
        result = runner.invoke(app, ["verify", "--player", f"avr:{bad}"])
        assert result.exit_code == 2 and result.output.count("\n") == 1, result.output


X68_RAW = TABLES / "first-any-lookup-entries-raw.json"


@needs_avr_gcc
@needs_simavr
@pytest.mark.parametrize("layout", ["packed", "hash"])
@pytest.mark.parametrize("path", [X68_RAW, BOTH94], ids=["x68raw", "both94"])
def test_compact_layouts_play_every_opponent_line(tmp_path, path, layout):
    table = load_table(path)
    built = build_firmware(table, tmp_path / "fw.elf", layout=layout)
    assert built.layout == layout and built.ram == 0
    with SimavrPlayer(build_harness(tmp_path), tmp_path / "fw.elf") as chip:
        both = _Both(chip, table.player())
        report = verify_player(both, table.role, table.criterion)
        assert report.ok and report.losses == 0, report.counterexample
        assert both.asked == report.positions == chip.calls


@needs_avr_gcc
def test_the_perfect_hash_firmware_is_smaller_and_export_takes_the_layout(tmp_path):
    table = load_table(X68_RAW)
    hashed = build_firmware(table, tmp_path / "h.elf", layout="hash")
    assert hashed.flash < build_firmware(table, tmp_path / "n.elf", layout="nibbles").flash
    runner = CliRunner()
    elf = tmp_path / "cli.elf"
    args = ["export", str(X68_RAW), "-f", "avr", "--layout", "hash", "-o", str(elf)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "hash layout" in result.output, result.output
    assert elf.read_bytes()[:4] == b"\x7fELF"
    for bad in (["-f", "avr", "--layout", "zip", "-o", str(elf)], ["--layout", "hash"]):
        result = runner.invoke(app, ["export", str(X68_RAW), *bad])
        assert result.exit_code == 2 and result.output.count("\n") == 1, result.output


@pytest.mark.slow
@needs_avr_gcc
@needs_simavr
def test_the_hash_layout_on_the_raw_o_table(tmp_path):
    """258 slots: the slot sum wraps at 2^16 on the chip, and the hash search must agree."""
    table = load_table(TABLES / "second-lookup-entries-raw.json")
    build_firmware(table, tmp_path / "fw.elf", layout="hash")
    with SimavrPlayer(build_harness(tmp_path), tmp_path / "fw.elf") as chip:
        report = verify_player(chip, table.role, table.criterion)
    assert report.ok and report.losses == 0, report.counterexample
