"""The strategy a table plays, as Graphviz DOT text (drawn by :mod:`minttt.render.layout`).

Starting from the empty board, the table's side plays its entry's move and the opponent tries
every reply. Nodes are canonical positions, drawn as small boards: a table position (``#n``, the
entry number on the grid sheet) shows its move in green; opponent positions show every reply as
an edge labelled with the cell(s) played; finished games are coloured by outcome. Cells are
numbered 0..8 row by row; empty cells show their number.

The DOT text needs nothing but Python; :func:`minttt.render.layout.render_dot` lays it out.

>>> from minttt.game.graph import build_graph
>>> from minttt.table.model import table_from_moves
>>> g = build_graph()
>>> t = table_from_moves(g, {0: 4}, role="X", opening=None, criterion="optimal")
>>> dot = tree(t, g)
>>> dot.startswith("digraph strategy {") and 'x0 -> x81' in dot
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from minttt.game.graph import Visit, build_graph, walk_own_play
from minttt.game.rules import EMPTY, O, Rules, X
from minttt.render.board import MOVE_COLOUR, MOVE_FILL, NUMBER_COLOUR, O_COLOUR, X_COLOUR
from minttt.vocabulary import Role

if TYPE_CHECKING:
    from minttt.game.graph import Graph
    from minttt.table.model import Table

OUTCOME_FILL = {"win": "#fcd34d", "draw": "#e5e7eb", "loss": "#fca5a5"}
FONT = "DejaVu Sans"


def _name(side: int) -> str:
    return "X" if side == X else "O"


def _cell_html(piece: int, index: int, move: int | None, mover: int, numbers: bool) -> str:
    size = 'WIDTH="18" HEIGHT="18" FIXEDSIZE="TRUE"'
    if index == move:
        colour = MOVE_COLOUR
        return (
            f'<TD {size} BGCOLOR="{MOVE_FILL}"><FONT COLOR="{colour}" POINT-SIZE="13">'
            f"<B>{_name(mover)}</B></FONT></TD>"
        )
    if piece == EMPTY and not numbers:
        return f"<TD {size}> </TD>"
    if piece == EMPTY:
        return f'<TD {size}><FONT COLOR="{NUMBER_COLOUR}" POINT-SIZE="8">{index}</FONT></TD>'
    colour = X_COLOUR if piece == X else O_COLOUR
    return f'<TD {size}><FONT COLOR="{colour}" POINT-SIZE="13"><B>{_name(piece)}</B></FONT></TD>'


def _board_html(
    cells: tuple[int, ...],
    header: str,
    move: int | None,
    *,
    fill: str = "white",
    border: str = "#94a3b8",
    thick: bool = False,
    numbers: bool = True,
) -> str:
    mover = X if cells.count(X) == cells.count(O) else O
    rows = []
    for r in range(3):
        row = "".join(
            _cell_html(cells[3 * r + c], 3 * r + c, move, mover, numbers) for c in range(3)
        )
        rows.append(f"<TR>{row}</TR>")
    width = 2 if thick else 1
    return (
        f'<<TABLE BORDER="{width}" COLOR="{border}" CELLBORDER="1" CELLSPACING="0" '
        f'CELLPADDING="0" BGCOLOR="{fill}">'
        f'<TR><TD COLSPAN="3"><FONT POINT-SIZE="9">{header}</FONT></TD></TR>'
        f"{''.join(rows)}</TABLE>>"
    )


def _legend(table: Table) -> str:
    rows = [
        f'<TR><TD COLSPAN="2"><B>Strategy of a {table.size}-lookup table '
        f"({table.role}, {table.criterion})</B></TD></TR>",
        f'<TR><TD BGCOLOR="{MOVE_FILL}" BORDER="1">#n</TD>'
        '<TD ALIGN="LEFT">table position: entry #n of the sheet, its move in green</TD></TR>',
        '<TR><TD BORDER="1">O to move</TD><TD ALIGN="LEFT">opponent to move: one edge per '
        "reply, labelled with the cells it may play</TD></TR>",
    ]
    for outcome, text in (
        ("win", "game over: the table won"),
        ("draw", "game over: draw"),
        ("loss", "game over: the table lost"),
    ):
        rows.append(
            f'<TR><TD BGCOLOR="{OUTCOME_FILL[outcome]}" BORDER="1">{outcome}</TD>'
            f'<TD ALIGN="LEFT">{text}</TD></TR>'
        )
    rows.append(
        '<TR><TD COLSPAN="2" ALIGN="LEFT">Boards are canonical (turned/mirrored); '
        "cells 0-8 row by row, edge labels are the cells played.</TD></TR>"
    )
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2">{"".join(rows)}</TABLE>>'


def _answer(table: Table, graph: Graph) -> Callable[[int], tuple[int, ...]]:
    """The table's move at a position: its entry's, else the opening at the root, else none."""
    by_hash = {e.hash: e.move for e in table.entries}

    def answer(h: int) -> tuple[int, ...]:
        if h in by_hash:
            return (by_hash[h],)
        if h == graph.root and table.opening is not None:
            return (table.opening,)
        return ()

    return answer


def _label(graph: Graph, visit: Visit, side: int, number: dict[int, int]) -> str:
    """The board drawn for one position of the walk."""
    h = visit.position
    cells = graph.boards[h]
    if visit.terminal:
        w = graph.winner(h)
        outcome = "draw" if w == 0 else ("win" if w == side else "loss")
        header = "draw" if w == 0 else f"{_name(w)} wins"
        return _board_html(cells, header, None, fill=OUTCOME_FILL[outcome], numbers=False)
    if not visit.own:
        return _board_html(cells, f"{_name(graph.to_move(h))} to move", None)
    if not visit.moves:
        return _board_html(
            cells, "no entry!", None, fill=OUTCOME_FILL["loss"], border="#b91c1c", thick=True
        )
    move = visit.moves[0][0]
    if h in number:
        header = f"#{number[h]}: {_name(side)} plays {move}"
    else:
        header = f"opening: X plays {move}"
    return _board_html(cells, header, move, border=MOVE_COLOUR, thick=True)


def _edges(graph: Graph, visit: Visit) -> list[tuple[int, str, bool]]:
    """``(child, label, own)`` for each edge out of a position: the table's one move, or every
    reply grouped by the position it leads to."""
    mover = _name(graph.to_move(visit.position))
    if visit.own:
        return [(c, f"{mover} {m}", True) for m, c in visit.moves]
    replies: dict[int, list[int]] = {}
    for m, c in visit.moves:
        replies.setdefault(c, []).append(m)
    return [(c, f"{mover} {','.join(map(str, ms))}", False) for c, ms in replies.items()]


def _side_lines(table: Table, graph: Graph, side: int, indent: str) -> list[str]:
    """The nodes and edges of the strategy as one side, in the order the walk reaches them."""
    prefix = _name(side).lower()
    number = {e.hash: i for i, e in enumerate(table.entries, 1)}
    lines = []
    for visit in walk_own_play(graph, side, _answer(table, graph)):
        node = f"{prefix}{visit.position}"
        lines.append(f"{indent}{node} [label={_label(graph, visit, side, number)}];")
        for child, text, own in _edges(graph, visit):
            style = (
                f'color="{MOVE_COLOUR}", fontcolor="{MOVE_COLOUR}", penwidth="2"'
                if own
                else 'color="#64748b", fontcolor="#334155"'
            )
            lines.append(f'{indent}{node} -> {prefix}{child} [label="{text}", {style}];')
    return lines


def tree(table: Table, graph: Graph | None = None) -> str:
    """The DOT text of ``table``'s strategy (every opponent reply, the table's one move).

    Positions the table should answer but does not are drawn red ("no entry").
    """
    if graph is None:
        graph = build_graph(Rules.from_name(table.game))
    sides = Role.parse(table.role).sides
    lines = [
        "digraph strategy {",
        f'  graph [fontname="{FONT}", ranksep="0.45", nodesep="0.12", labelloc="t", '
        f"label={_legend(table)}];",
        f'  node [shape="plain", fontname="{FONT}"];',
        f'  edge [fontname="{FONT}", fontsize="10", arrowsize="0.6"];',
    ]
    for side in sides:
        if len(sides) == 1:
            lines += _side_lines(table, graph, side, "  ")
            continue
        lines.append(f"  subgraph cluster_{_name(side).lower()} {{")
        lines.append(f'    label="The table plays {_name(side)}"; fontsize="16"; color="#cbd5e1";')
        lines += _side_lines(table, graph, side, "    ")
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


__all__ = [
    "FONT",
    "OUTCOME_FILL",
    "tree",
]
