"""Exports: the compiled C player and the Python player pass the exhaustive verifier."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.game.graph import build_graph
from minttt.table.export import ProgramPlayer, export_table
from minttt.table.model import first_move_table, merge_tables, save_table, table_from_json
from minttt.table.verify import verify_player

GRAPH = build_graph()
TX = first_move_table(GRAPH, "X", opening=4)
TB = merge_tables(TX, first_move_table(GRAPH, "O"))


def _compile(header: str, tmp_path):
    path = tmp_path / "minttt_table.h"
    path.write_text(header)
    prog = tmp_path / "player"
    subprocess.run(
        [
            "gcc",
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O2",
            "-DMINTTT_MAIN",
            "-x",
            "c",
            str(path),
            "-o",
            str(prog),
        ],
        check=True,
        capture_output=True,
    )
    return prog


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("table", [TB, TX], ids=["both", "X-centre"])
def test_compiled_c_player_passes_the_verifier(table, tmp_path):
    prog = _compile(export_table(table, "c"), tmp_path)
    with ProgramPlayer([str(prog)], name="c-export") as player:
        report = verify_player(player, table.role, table.criterion)
        assert player.calls == report.positions
    assert report.ok, report.counterexample
    assert report.losses == 0


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_compiled_c_player_answers_minus_one_without_entry(tmp_path):
    prog = _compile(export_table(TX, "c"), tmp_path)
    out = subprocess.run(
        [str(prog)], input="x........\n.........\nnonsense\n", capture_output=True, text=True
    )
    assert out.stdout.split() == ["-1", "4", "-1"]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_header_includes_cleanly_without_main(tmp_path):
    (tmp_path / "t.h").write_text(export_table(TB, "c"))
    (tmp_path / "use.c").write_text(
        '#include "t.h"\n'
        "int main(void) { uint8_t b[9] = {0}; return minttt_lookup(b) == 4 ? 0 : 1; }\n"
    )
    subprocess.run(
        [
            "gcc",
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            str(tmp_path / "use.c"),
            "-o",
            str(tmp_path / "use"),
        ],
        check=True,
    )
    assert subprocess.run([str(tmp_path / "use")]).returncode == 0


def test_python_export_passes_the_verifier(tmp_path):
    path = tmp_path / "player.py"
    path.write_text(export_table(TB, "python"))
    with ProgramPlayer([sys.executable, str(path)], name="py-export") as player:
        report = verify_player(player, "both", "optimal")
    assert report.ok, report.counterexample


def test_json_export_round_trips():
    assert table_from_json(export_table(TB, "json")) == TB


def test_cli_export(tmp_path):
    src = tmp_path / "t.json"
    save_table(TB, src)
    runner = CliRunner()
    out = tmp_path / "t.h"
    res = runner.invoke(app, ["export", str(src), "--format", "c", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "minttt_lookup" in out.read_text()
    res = runner.invoke(app, ["export", str(src), "--format", "python"])
    assert res.exit_code == 0 and "def move(board)" in res.output
    assert runner.invoke(app, ["export", str(src), "--format", "rust"]).exit_code == 2
    assert runner.invoke(app, ["export", str(tmp_path / "missing.json")]).exit_code == 2


def test_the_firmware_and_the_header_hold_the_same_arrays():
    from minttt.table.export import c_rows, lookup_data, to_c
    from minttt.table.firmware import firmware_source

    table = first_move_table(build_graph(), "X", opening=4)
    data = lookup_data(table)
    assert data.hashes == sorted(e.hash for e in table.entries)
    assert data.length == table.size and data.opening == 4 and len(data.perms) == 8
    for source in (to_c(table), firmware_source(table)):
        assert c_rows(data.hashes) in source and c_rows(data.moves) in source
    empty = type(table)(table.role, 4, table.criterion, (), {}, table.game)
    # C has no empty arrays: an empty table holds one placeholder entry that no board hashes to
    assert (lookup_data(empty).hashes, lookup_data(empty).moves) == ([0xFFFF], [0])
