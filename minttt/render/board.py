"""One tic-tac-toe board as SVG, in the spirit of ``chess.svg.board``.

Pieces are drawn as real glyphs (two strokes for X, a ring for O), never as letters, so the
picture reads the same in every font. The move to play is a green cell holding a green copy of
the mover's glyph. Every board is a ``<g class="board">`` whose cells carry ``data-cell`` and
whose move cell has class ``move``, so a program can read back what a person sees.

>>> svg = board("x...o....", move=8, caption="X to play")
>>> svg.startswith("<svg") and 'data-move="8"' in svg
True
"""

from __future__ import annotations

from html import escape

from minttt.errors import InputError
from minttt.game.rules import EMPTY, TIC_TAC_TOE, Board, O, X

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
X_COLOUR = "#1d4ed8"  # blue
O_COLOUR = "#c2410c"  # orange-red
MOVE_FILL = "#bbf7d0"  # light green
MOVE_COLOUR = "#15803d"  # dark green
GRID_COLOUR = "#334155"
FRAME_COLOUR = "#cbd5e1"
NUMBER_COLOUR = "#94a3b8"
PIECE_NAMES = {X: "X", O: "O"}


def _num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (stable text output)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def as_board(board: Board | str | tuple[int, ...]) -> Board:
    """Accept a :class:`Board`, a 9-character string or a tuple of cells."""
    if isinstance(board, Board):
        return board
    if isinstance(board, str):
        return Board.parse(board)
    cells = tuple(board)
    if len(cells) != TIC_TAC_TOE.cells or any(c not in (EMPTY, X, O) for c in cells):
        raise InputError(f"board {cells!r}: expected 9 cells of 0 (empty), 1 (X) or 2 (O)")
    return Board(cells)


def glyph(piece: int, cx: float, cy: float, cell: float, colour: str | None = None) -> str:
    """The SVG of an X or O centred at ``(cx, cy)`` in a cell of side ``cell``."""
    r = cell * 0.3
    width = _num(max(1.0, cell * 0.1))
    if piece == X:
        colour = colour or X_COLOUR
        a, b = _num(cx - r), _num(cx + r)
        c, d = _num(cy - r), _num(cy + r)
        return (
            f'<path class="x" d="M{a} {c}L{b} {d}M{b} {c}L{a} {d}" stroke="{colour}" '
            f'stroke-width="{width}" stroke-linecap="round" fill="none"/>'
        )
    if piece == O:
        colour = colour or O_COLOUR
        return (
            f'<circle class="o" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" '
            f'stroke="{colour}" stroke-width="{width}" fill="none"/>'
        )
    return ""


def board_group(
    board: Board | str | tuple[int, ...],
    x: float,
    y: float,
    size: float,
    move: int | None = None,
    *,
    numbers: bool = False,
    fill: str = "#ffffff",
    attrs: dict[str, str] | None = None,
) -> str:
    """A board as an SVG ``<g>`` with its top-left corner at ``(x, y)``, to compose into pictures;
    its longer side is ``size`` long (any m,n board: a 3x4 board is ``size`` wide, 3/4 as high).

    ``move`` (a cell) is shaded green with a green glyph of the side to move. ``numbers`` writes
    each empty cell's index (0..8) in small grey digits. ``fill`` is the background colour.
    """
    b = as_board(board)
    cols, rows = b.rules.cols, b.rules.rows
    if move is not None and not (0 <= move < b.rules.cells and b.cells[move] == EMPTY):
        raise InputError(f"move {move} is not an empty cell of board {b}")
    if move is not None and b.is_terminal:
        raise InputError(f"board {b} is finished; it has no move to show")
    cell = size / max(cols, rows)  # the longer side is ``size`` long
    wide, high = cols * cell, rows * cell
    attrs = dict(attrs or {})
    classes = " ".join(["board", *attrs.pop("class", "").split()])
    extra = "".join(f' {k}="{escape(v)}"' for k, v in sorted(attrs.items()))
    move_attr = f' data-move="{move}"' if move is not None else ""
    parts = [
        f'<g class="{classes}" data-board="{b}"{move_attr}{extra} '
        f'transform="translate({_num(x)} {_num(y)})">',
        f'<rect width="{_num(wide)}" height="{_num(high)}" fill="{fill}" '
        f'stroke="{FRAME_COLOUR}" stroke-width="1"/>',
    ]
    for i, piece in enumerate(b.cells):
        r, c = divmod(i, cols)
        cx, cy = (c + 0.5) * cell, (r + 0.5) * cell
        is_move = i == move
        if is_move:
            parts.append(
                f'<rect class="cell move" data-cell="{i}" x="{_num(c * cell)}" '
                f'y="{_num(r * cell)}" width="{_num(cell)}" height="{_num(cell)}" '
                f'fill="{MOVE_FILL}"/>'
            )
        if piece != EMPTY:
            parts.append(glyph(piece, cx, cy, cell))
        elif is_move:
            parts.append(glyph(b.to_move, cx, cy, cell, MOVE_COLOUR))
        elif numbers:
            parts.append(
                f'<text x="{_num(cx)}" y="{_num(cy + cell * 0.12)}" font-family="{FONT}" '
                f'font-size="{_num(cell * 0.32)}" fill="{NUMBER_COLOUR}" '
                f'text-anchor="middle">{i}</text>'
            )
    width = _num(max(1.0, size / 45))
    inset = _num(cell * 0.08)
    bottom, right = _num(high - cell * 0.08), _num(wide - cell * 0.08)
    strokes = [f"M{_num(k * cell)} {inset}L{_num(k * cell)} {bottom}" for k in range(1, cols)]
    strokes += [f"M{inset} {_num(k * cell)}L{right} {_num(k * cell)}" for k in range(1, rows)]
    parts.append(
        f'<path class="grid" d="{"".join(strokes)}" stroke="{GRID_COLOUR}" '
        f'stroke-width="{width}" stroke-linecap="round" fill="none"/>'
    )
    parts.append("</g>")
    return "".join(parts)


def svg_document(width: float, height: float, body: str, title: str | None = None) -> str:
    """Wrap SVG elements in a standalone document with a white background."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(width)}" '
        f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}">'
    )
    title_el = f"<title>{escape(title)}</title>" if title else ""
    background = f'<rect width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>'
    return f"{head}\n{title_el}{background}\n{body}\n</svg>\n"


def text(
    x: float,
    y: float,
    content: str,
    size: float = 12,
    *,
    anchor: str = "start",
    weight: str = "normal",
    colour: str = "#0f172a",
) -> str:
    """One line of SVG text (escaped)."""
    bold = f' font-weight="{weight}"' if weight != "normal" else ""
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" font-family="{FONT}" font-size="{_num(size)}"{bold} '
        f'fill="{colour}" text-anchor="{anchor}">{escape(content)}</text>'
    )


def board(
    board: Board | str | tuple[int, ...],
    move: int | None = None,
    size: float = 180,
    caption: str | None = None,
    *,
    numbers: bool = False,
    to_move: bool = True,
) -> str:
    """One board as a standalone SVG document.

    ``move`` highlights a cell (the move to play). ``caption`` is written under the board (for
    instance a hash, value and depth). With ``to_move`` a line above the board says whose turn
    it is (or who won).

    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(board(Board.empty(), move=4, caption="hash 0"))
    >>> root.tag.endswith("svg")
    True
    """
    b = as_board(board)
    pad = 8
    font = max(11.0, size / 12)
    top = pad + (font * 1.4 if to_move else 0)
    bottom = pad + (font * 1.4 if caption else 0)
    parts = []
    if to_move:
        winner = b.winner()
        if winner:
            status = f"{PIECE_NAMES[winner]} has won"
        elif b.is_terminal:
            status = "draw: the board is full"
        else:
            status = f"{PIECE_NAMES[b.to_move]} to play"
        parts.append(text(pad + size / 2, pad + font, status, font, anchor="middle", weight="bold"))
    parts.append(board_group(b, pad, top, size, move, numbers=numbers))
    if caption:
        parts.append(text(pad + size / 2, top + size + font * 1.1, caption, font, anchor="middle"))
    title = f"board {b}" + (f", move {move}" if move is not None else "")
    widest = max(size, 0.6 * font * len(caption or ""))
    if widest > size:  # centre the board under a caption wider than it
        shift = (widest - size) / 2
        parts = [f'<g transform="translate({_num(shift)} 0)">{"".join(parts)}</g>']
    return svg_document(widest + 2 * pad, top + size + bottom, "\n".join(parts), title)


__all__ = [
    "FONT",
    "FRAME_COLOUR",
    "GRID_COLOUR",
    "MOVE_COLOUR",
    "MOVE_FILL",
    "NUMBER_COLOUR",
    "O_COLOUR",
    "PIECE_NAMES",
    "X_COLOUR",
    "as_board",
    "board",
    "board_group",
    "glyph",
    "svg_document",
    "text",
]
