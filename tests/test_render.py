"""minttt.render: boards, grid sheets, strategy trees, the 765 picture, PNG, result files."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import pygraphviz
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_render_tables import graph, sample_table

from minttt.errors import InputError
from minttt.game.rules import Board
from minttt.render.board import board, board_group
from minttt.render.files import output_format, picture, render_results
from minttt.render.grid import ORIENTATIONS
from minttt.render.grid import table as grid
from minttt.render.layout import GraphvizMissing, graphviz_version, render_dot
from minttt.render.png import PNG_SIGNATURE, svg_to_png
from minttt.render.positions import positions
from minttt.render.tree import tree
from minttt.table.model import save_table, table_from_moves

NS = "{http://www.w3.org/2000/svg}"


def boards(svg: str, kind: str) -> list[ET.Element]:
    """The ``<g class="board KIND">`` groups of an SVG document (parsing it checks it is XML)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return [g for g in root.iter(f"{NS}g") if kind in g.get("class", "").split()]


def highlighted(group: ET.Element) -> list[int]:
    return [
        int(r.get("data-cell"))
        for r in group.iter(f"{NS}rect")
        if "move" in r.get("class", "").split()
    ]


def glyphs(group: ET.Element) -> tuple[int, int]:
    xs = sum(1 for e in group.iter(f"{NS}path") if e.get("class") == "x")
    os_ = sum(1 for e in group.iter(f"{NS}circle") if e.get("class") == "o")
    return xs, os_


# ------------------------------------------------------------------ one board
def test_board_svg_glyphs_and_move():
    svg = board("x...o....", move=8, caption="hash 163 · draw")
    (g,) = boards(svg, "board")
    assert g.get("data-board") == "x...o...." and g.get("data-move") == "8"
    assert highlighted(g) == [8]
    assert glyphs(g) == (2, 1)  # the two pieces and the green X to play
    assert "X to play" in svg and "hash 163" in svg


def test_board_without_move_and_finished():
    svg = board(Board.parse("xxxoo...."))
    (g,) = boards(svg, "board")
    assert highlighted(g) == [] and glyphs(g) == (3, 2)
    assert "X has won" in svg


@pytest.mark.parametrize("bad", [("x........", 0), ("x........", 9), ("xxxoo....", 5)])
def test_board_rejects_bad_moves(bad):
    text, move = bad
    with pytest.raises(InputError):
        board(text, move=move)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 8), max_size=12))
def test_board_draws_every_piece(moves):
    b = Board.empty()
    for m in moves:
        if b.is_terminal:
            break
        if b.cells[m] == 0:
            b = b.play(m)
    move = None if b.is_terminal else b.legal_moves()[0]
    (g,) = boards(board(b, move=move), "board")
    extra = 0 if move is None else 1
    xs, os_ = glyphs(g)
    assert xs + os_ == b.depth + extra
    assert highlighted(g) == ([] if move is None else [move])


# ---------------------------------------------------------------------- grid
@pytest.mark.parametrize("role", ["X", "O", "both"])
def test_grid_boards_are_the_entries_with_their_moves(role):
    t = sample_table(role)
    svg = grid(t)
    shown = boards(svg, "entry")
    assert len(shown) == t.size
    for g, e in zip(shown, t.entries, strict=True):
        assert g.get("data-board") == e.board and int(g.get("data-hash")) == e.hash
        assert highlighted(g) == [e.move] and g.get("data-move") == str(e.move)
        assert glyphs(g)[0] + glyphs(g)[1] == sum(ch != "." for ch in e.board) + 1
    assert "rotation" in svg or "turned" in svg
    assert "Play the green cell" in svg


def test_grid_example_strip_is_one_position_eight_ways():
    t = sample_table("X")
    examples = boards(grid(t), "example")
    assert len(examples) == 8
    first = Board.parse(examples[0].get("data-board"))
    canon = first.canonical()
    assert canon.hash in t.by_hash  # the example is one of the sheet's boards
    for g, (transform, _) in zip(examples, ORIENTATIONS, strict=True):
        b = Board.parse(g.get("data-board"))
        assert b == canon.board.transform(transform)
        # the green cell of every orientation is the entry's move carried along
        assert t.move(b) == highlighted(g)[0]


def test_grid_headers_say_whose_move():
    svg = grid(sample_table("both"))
    assert "Move 1: X to play" in svg and "Move 2: O to play" in svg


def test_grid_shows_a_fixed_opening_without_an_entry():
    t = sample_table("X", root_entry=False)
    svg = grid(t)
    assert len(boards(svg, "entry")) == t.size
    (opening,) = boards(svg, "opening")
    assert highlighted(opening) == [4] and "not a lookup" in svg


# ---------------------------------------------------------------------- tree
def _tree_json(dot: str) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    drawn = pygraphviz.AGraph(string=dot)
    names = {str(n): str(n) for n in drawn.nodes()}
    edges = [(str(e[0]), str(e[1]), e.attr["label"]) for e in drawn.edges()]
    return names, edges


@pytest.mark.parametrize("role", ["X", "O", "both"])
def test_tree_dot_parses_and_follows_the_table(role):
    t = sample_table(role)
    g = graph()
    names, edges = _tree_json(tree(t, g))
    out: dict[str, list[tuple[str, str]]] = {}
    for tail, head, label in edges:
        out.setdefault(tail, []).append((head, label))
    table_nodes = set()
    for name in names.values():
        side, h = name[0].upper(), int(name[1:])
        kids = out.get(name, [])
        if g.is_terminal(h):
            assert kids == []
        elif g.to_move(h) == (1 if side == "X" else 2):
            e = t.by_hash[h]
            assert kids == [(f"{name[0]}{g.child(h, e.move)}", f"{side} {e.move}")]
            table_nodes.add(h)
        else:  # every reply of the opponent is drawn
            drawn = {int(head[1:]) for head, _ in kids}
            assert drawn == {c for _, c in g.children[h]}
            assert sorted(int(m) for _, lab in kids for m in lab.split()[1].split(",")) == [
                m for m, _ in g.children[h]
            ]
    assert table_nodes == set(t.by_hash)


def test_tree_marks_missing_entries_and_fixed_opening():
    g = graph()
    t = table_from_moves(g, {0: 4}, role="X", opening=None, criterion="optimal")
    dot = tree(t, g)
    pygraphviz.AGraph(string=dot)  # Graphviz accepts it
    assert "no entry!" in dot and 'x0 -> x81 [label="X 4"' in dot
    t2 = sample_table("X", root_entry=False)
    assert "opening: X plays 4" in tree(t2, g)


def test_render_dot_svg_and_png_are_stable():
    dot = tree(sample_table("X"), graph())
    svg = render_dot(dot, "svg")
    ET.fromstring(svg)
    assert render_dot(dot, "svg") == svg
    # the Graphviz that drew it is named in the file, and it is the pinned wheel's
    assert f"Generated by graphviz version {graphviz_version()} ".encode() in svg
    assert b'font-family="DejaVu Sans"' in svg
    png = render_dot(dot, "png")
    assert png.startswith(PNG_SIGNATURE) and render_dot(dot, "png") == png


def test_render_dot_prints_nothing_and_rejects_bad_input(capfd):
    render_dot(tree(sample_table("X"), graph()), "svg")  # Graphviz warns on its C stderr
    assert capfd.readouterr().err == ""
    with pytest.raises(InputError, match="svg, png"):
        render_dot("digraph {}", "gif")
    with pytest.raises(InputError, match="syntax error"):
        render_dot("digraph { a -> }", "svg")
    assert capfd.readouterr().err == ""


def test_render_dot_without_a_pygraphviz_wheel_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygraphviz", None)  # as if no wheel could be installed
    with pytest.raises(GraphvizMissing, match="wheel"):
        render_dot("digraph { a -> b }", "svg")


# --------------------------------------------------------- positions and PNG
def test_positions_picture_has_765_boards_and_counts():
    svg = positions(graph())
    shown = boards(svg, "position")
    assert len(shown) == 765
    assert {int(b.get("data-hash")) for b in shown} == set(graph().boards)
    assert "1 + 3 + 12 + 38 + 108 + 174 + 204 + 153 + 57 + 15 = 765" in svg
    assert "depth 6: 204 positions" in svg


def test_png_is_deterministic():
    svg = board("xo..x....", move=8, caption="a caption")
    png = svg_to_png(svg)
    assert png.startswith(PNG_SIGNATURE) and svg_to_png(svg) == png
    assert svg_to_png(grid(sample_table("X"))).startswith(PNG_SIGNATURE)


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=8))
def test_output_format_accepts_only_svg_png_dot(suffix):
    name = f"out.{suffix}"
    if suffix.lower() in ("svg", "png", "dot"):
        assert output_format(name) == suffix.lower()
    else:
        with pytest.raises(InputError, match=r"\.svg, \.png, \.dot"):
            output_format(name)


def test_picture_rejects_mismatched_style_and_format():
    t = sample_table("X")
    with pytest.raises(InputError, match="DOT"):
        picture(t, "dot", "grid")
    with pytest.raises(InputError, match="DOT"):
        picture(None, "dot")
    with pytest.raises(InputError, match="style"):
        picture(t, "svg", "pie")


def test_board_group_composes():
    svg = f'<svg xmlns="http://www.w3.org/2000/svg">{board_group("x........", 0, 0, 50, 4)}</svg>'
    (g,) = boards(svg, "board")
    assert highlighted(g) == [4]


# ------------------------------------------------------------- result files
@pytest.mark.slow
def test_render_results_writes_every_picture_byte_stable(tmp_path):
    tables = {"sample-x": tmp_path / "x.json", "tiny": tmp_path / "tiny.json"}
    save_table(sample_table("X"), tables["sample-x"])
    save_table(
        table_from_moves(graph(), {0: 4}, role="X", opening=None, criterion="optimal"),
        tables["tiny"],
    )
    first = render_results(tables, tmp_path / "a", graph_picture=False)
    second = render_results(tables, tmp_path / "b", graph_picture=False)
    assert [p.name for p in first] == [p.name for p in second]
    assert {p.name for p in first} == {
        f"{n}-{k}"
        for n in tables
        for k in ("grid.svg", "grid.png", "tree.dot", "tree.svg", "tree.png")
    }
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
        if a.suffix == ".png":
            assert a.read_bytes().startswith(PNG_SIGNATURE)
        if a.suffix == ".svg":
            ET.fromstring(a.read_bytes())


@pytest.mark.slow
def test_render_results_draws_the_765_picture(tmp_path):
    tiny = tmp_path / "tiny.json"
    save_table(table_from_moves(graph(), {0: 4}, role="X", opening=None, criterion="optimal"), tiny)
    written = render_results({"tiny": tiny}, tmp_path, graph_picture=True)
    names = [p.name for p in written]
    assert names[-2:] == ["positions-765.svg", "positions-765.png"]
    assert (tmp_path / "positions-765.svg").read_text() == positions(graph())
    assert (tmp_path / "positions-765.png").read_bytes().startswith(PNG_SIGNATURE)
