"""``minttt render``: files written, unsupported suffixes and bad tables exit 2 in one line."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_render_tables import sample_table
from typer.testing import CliRunner

from minttt.cli import app
from minttt.render.files import TREE_CELLS, picture
from minttt.render.png import PNG_SIGNATURE
from minttt.table.model import load_table, save_table

runner = CliRunner()


@pytest.fixture
def table_file(tmp_path):
    path = tmp_path / "t.json"
    save_table(sample_table("X"), path)
    return path


def _run(*args: str):
    return runner.invoke(app, ["render", *args])


def test_grid_svg_and_png(table_file, tmp_path):
    svg, png = tmp_path / "g.svg", tmp_path / "g.png"
    assert _run(str(table_file), "--out", str(svg)).exit_code == 0
    ET.fromstring(svg.read_bytes())
    assert _run(str(table_file), "--out", str(png), "--style", "grid").exit_code == 0
    assert png.read_bytes().startswith(PNG_SIGNATURE)


def test_tree_dot_needs_no_graphviz(table_file, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pygraphviz", None)
    out = tmp_path / "t.dot"
    result = _run(str(table_file), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("digraph strategy {")


def test_tree_svg_without_pygraphviz_says_why(table_file, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pygraphviz", None)
    result = _run(str(table_file), "--out", str(tmp_path / "t.svg"), "--style", "tree")
    assert result.exit_code == 2
    assert "pygraphviz" in result.output and "wheel" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "t.svg").exists()


def test_tree_png(table_file, tmp_path):
    out = tmp_path / "t.png"
    assert _run(str(table_file), "--out", str(out), "--style", "tree").exit_code == 0
    assert out.read_bytes().startswith(PNG_SIGNATURE)


def test_graph_picture(tmp_path):
    out = tmp_path / "all.svg"
    result = _run("--graph", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text().count('class="board position"') == 765


@pytest.mark.parametrize("name", ["x.jpg", "x", "x.svg.txt", "x.PDF"])
def test_unsupported_suffix_lists_the_supported(table_file, tmp_path, name):
    result = _run(str(table_file), "--out", str(tmp_path / name))
    assert result.exit_code == 2
    assert ".svg, .png, .dot" in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (None, "no such file"),
        ("{not json", "malformed JSON"),
        ('{"format": "minttt-table/1"}', "t.json"),
        ("[]", "t.json"),
    ],
)
def test_bad_table_exits_2(tmp_path, content, needle):
    path = tmp_path / "t.json"
    if content is not None:
        path.write_text(content)
    result = _run(str(path), "--out", str(tmp_path / "o.svg"))
    assert result.exit_code == 2
    assert needle in result.output and "Traceback" not in result.output
    assert not (tmp_path / "o.svg").exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--out", "o.svg"], "give a table file"),
        (["TABLE", "--graph", "--out", "o.svg"], "--graph"),
        (["--graph", "--out", "o.dot"], "not DOT"),
        (["TABLE", "--out", "o.dot", "--style", "grid"], "--style tree"),
        (["TABLE", "--out", "o.svg", "--style", "pie"], "grid, tree"),
    ],
)
def test_bad_option_combinations_exit_2(table_file, tmp_path, args, needle):
    args = [str(table_file) if a == "TABLE" else a for a in args]
    args = [str(tmp_path / a) if a.startswith("o.") else a for a in args]
    result = _run(*args)
    assert result.exit_code == 2, result.output
    assert needle in result.output


# ------------------------------------------------------------ m,n,k tables

RESULTS = Path(__file__).resolve().parents[1] / "results"
GAME_TABLES = sorted((RESULTS / "games").glob("*.table.json"))


def _one_per_shape() -> list[Path]:
    """The smallest catalogue table of each board shape and rule (normal, misère)."""
    best: dict[tuple[str, bool], Path] = {}
    for path in sorted((RESULTS / "catalogue").glob("*.table.json")):
        shape = path.name.partition("@")[2].split(".")[0] or "3x3"
        dims = "-".join(shape.replace("mnk-", "").split("-")[:2])
        key = (dims, "misere" in shape)
        if key not in best or path.stat().st_size < best[key].stat().st_size:
            best[key] = path
    return sorted(best.values())


@pytest.mark.parametrize("path", GAME_TABLES + _one_per_shape(), ids=lambda p: p.name)
def test_every_shipped_board_shape_draws_as_a_grid(path: Path) -> None:
    """3x4 and 4x4 tables (results/games) and every board of the catalogue: one board a
    table entry, each drawn on its own rows x cols grid."""
    table = load_table(path)
    root = ET.fromstring(picture(table, "svg", "grid"))
    svg = "{http://www.w3.org/2000/svg}"
    boards = [g for g in root.iter(f"{svg}g") if "entry" in g.get("class", "")]
    assert sorted(int(g.get("data-hash")) for g in boards) == sorted(e.hash for e in table.entries)
    assert all(len(g.get("data-board")) == table.rules.cells for g in boards)
    text = " ".join(t.text or "" for t in root.iter(f"{svg}text"))
    assert f"0-{table.rules.cells - 1}" in text


def test_cli_renders_a_3x4_table_and_its_tree(tmp_path):
    path = next(p for p in GAME_TABLES if "mnk343" in p.name)
    assert _run(str(path), "--out", str(tmp_path / "g.svg")).exit_code == 0
    result = _run(str(path), "--out", str(tmp_path / "t.dot"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "t.dot").read_text("utf-8").startswith("digraph strategy")


def test_cli_refuses_the_tree_of_a_4x4_table_in_one_line(tmp_path):
    path = next(p for p in GAME_TABLES if "mnk444" in p.name)
    result = _run(str(path), "--out", str(tmp_path / "t.dot"))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert f"up to {TREE_CELLS} cells" in line and "grid" in line
    assert not (tmp_path / "t.dot").exists()
