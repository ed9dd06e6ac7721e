"""A table as a printable sheet: every entry as a board, grouped by move number, with a legend.

The sheet is meant to be played from: find the board that shows your position (it may be drawn
turned or mirrored), then play its green cell. Each board is a ``<g class="board entry">`` with
``data-hash`` and ``data-move`` so tests (and programs) can read the sheet back.

>>> from minttt.game.graph import build_graph
>>> from minttt.table.model import table_from_moves
>>> t = table_from_moves(build_graph(), {0: 4}, role="X", opening=None, criterion="optimal")
>>> svg = table(t)
>>> svg.count('class="board entry"')
1
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from minttt.game.rules import Board, Rules, X, map_cell
from minttt.render.board import board_group, svg_document, text
from minttt.vocabulary import Role

if TYPE_CHECKING:
    from minttt.table.model import Entry, Table

#: (transform, label) in the order the legend shows them; transform t maps cell i to perm[t][i].
ORIENTATIONS: tuple[tuple[int, tuple[str, str]], ...] = (
    (0, ("as printed", "")),
    (5, ("turned", "90° right ↻")),
    (3, ("turned", "180°")),
    (6, ("turned", "90° left ↺")),
    (2, ("mirrored", "left ↔ right")),
    (1, ("mirrored", "top ↕ bottom")),
    (4, ("mirrored on", "the ╲ diagonal")),
    (7, ("mirrored on", "the ╱ diagonal")),
)
OPENING_NAMES = {4: "the centre", 0: "a corner", 2: "a corner", 6: "a corner", 8: "a corner"}

MARGIN = 28
BOARD = 92
GAP_X = 22
CAPTION = 18
GAP_Y = 14
COLUMNS = 8


def _depth(board: str) -> int:
    return sum(ch != "." for ch in board)


def _side_name(side: int) -> str:
    return "X" if side == X else "O"


def _outcome(entry: Entry, rules: Rules) -> str:
    """The entry's value in words, from the side to move."""
    side = Board.parse(entry.board, rules).to_move
    mine = entry.value if side == X else -entry.value
    return {1: "win", 0: "draw", -1: "loss"}[mine]


def _wrap(content: str, width: float, size: float) -> list[str]:
    """Wrap text to a pixel width (DejaVu Sans averages about 0.56 em per character)."""
    chars = max(10, int(width / (size * 0.56)))
    return textwrap.wrap(content, chars) or [""]


def _game_words(rules: Rules) -> str:
    """The game in words: ``tic-tac-toe``, or ``3x4 m,n,k (3 in a row)`` (misère said)."""
    if (rules.rows, rules.cols, rules.k) == (3, 3, 3):
        return "tic-tac-toe"  # misère too: the subtitle names the game
    misere = " misère" if rules.misere else ""
    return f"{rules.rows}x{rules.cols}{misere} m,n,k ({rules.k} in a row)"


def _title(table: Table) -> str:
    who = {Role.X: "as X (first player)", Role.O: "as O (second player)", Role.BOTH: "as X or as O"}
    words = _game_words(Rules.from_name(table.game))
    return f"Perfect {words} {who[table.role]}, in {table.size} lookups"


def _subtitle(table: Table) -> str:
    parts = [f"criterion: {table.criterion}"]
    if table.game != "3x3":
        parts.append(f"game: {table.game}")
    if table.opening is not None:
        parts.append(f"X opens in cell {table.opening}")
    prov = table.provenance
    for key in ("encoding", "objective", "solver"):
        if prov.get(key) is not None:
            parts.append(f"{key}: {prov[key]}")
    lo, hi = prov.get("lower_bound"), prov.get("upper_bound")
    if lo is not None and lo == hi == table.size:
        parts.append(f"proven minimum ({lo})")
    elif lo is not None:
        parts.append(f"bounds {lo}..{hi}")
    return " · ".join(parts)


def _orientations(rules: Rules) -> tuple[tuple[int, tuple[str, str]], ...]:
    """The legend's orientations the board has: eight on a square, four on an oblong board."""
    count = len(rules.symmetries)
    return tuple((t, label) for t, label in ORIENTATIONS if t < count)


def _instructions(table: Table, has_opening_board: bool, rules: Rules) -> list[str]:
    sides = {Role.X: "X", Role.O: "O", Role.BOTH: "X or O"}[table.role]
    steps = []
    if table.role == Role.O:
        steps.append("You play O: X moves first. Wait for X's move, then use the sheet.")
    elif table.role == Role.BOTH:
        last = rules.cells
        odd = ", ".join(str(n) for n in range(1, last + 1, 2))
        even = ", ".join(str(n) for n in range(2, last + 1, 2))
        steps.append(f"Play either side. Moves {odd} are X's turns; moves {even} are O's turns.")
    if has_opening_board:
        names = OPENING_NAMES if (rules.rows, rules.cols) == (3, 3) else {}
        where = names.get(table.opening or 0, f"cell {table.opening}")
        steps.append(f"Your first move as X is {where} (the first board below).")
    square = rules.rows == rules.cols
    turns = (
        "turned (90°, 180°, 270°) or mirrored (left-right, top-bottom, or on a diagonal)"
        if square
        else "turned 180° or mirrored (left-right or top-bottom)"
    )
    ways = {8: "eight", 4: "four"}.get(len(rules.symmetries), str(len(rules.symmetries)))
    steps += [
        "On your turn, count the X's and O's already on the board and add one: that is the "
        "move number. Look in that section of the sheet.",
        f"Find the board that shows your position. It may be drawn {turns}: turn or mirror it "
        "in your head, or turn the sheet, until every X and O sits where yours are. The "
        f"example below shows one position in all {ways} ways.",
        f"Play the green cell of that board, turned or mirrored the same way. The green "
        f"{sides} shows whose move it is.",
        "Keep to the sheet and every position you can meet is on it: you never lose. "
        "'win' under a board means you can still force a win from there; 'draw' that best "
        "play on both sides draws.",
    ]
    return [f"{i}. {s}" for i, s in enumerate(steps, 1)]


def _example_entry(entries: tuple[Entry, ...], rules: Rules) -> Entry | None:
    """An entry whose eight orientations all look different (the clearest example)."""
    best: tuple[int, int, int] | None = None
    pick = None
    for e in entries:
        b = Board.parse(e.board, rules)
        key = (
            -len({b.transform(t).cells for t in range(len(rules.symmetries))}),
            abs(b.depth - 3),
            e.hash,
        )
        if best is None or key < best:
            best, pick = key, e
    return pick


def table(table: Table, *, columns: int = COLUMNS, board_size: float = BOARD) -> str:
    """The sheet for ``table`` as a standalone SVG document (see the module docstring)."""
    sheet = _Sheet(table, columns, board_size)
    sheet.heading()
    sheet.instructions()
    sheet.example()
    for depth, members in sheet.groups():
        sheet.section(depth, members)
    sheet.footer()
    return svg_document(sheet.width, sheet.y + MARGIN - 10, "\n".join(sheet.parts), _title(table))


class _Sheet:
    """The sheet being drawn: its SVG parts, top to bottom, and ``y``, where the next one goes."""

    def __init__(self, table: Table, columns: int, board_size: float) -> None:
        self.table = table
        self.rules = Rules.from_name(table.game)
        self.columns = columns
        self.board_size = board_size
        self.col_w = board_size + GAP_X
        self.width = 2 * MARGIN + columns * self.col_w - GAP_X
        self.inner = self.width - 2 * MARGIN
        self.parts: list[str] = []
        self.y: float = MARGIN + 22
        has_root = any(e.hash == 0 for e in table.entries)
        self.opening_board = table.opening is not None and not has_root

    def heading(self) -> None:
        """The title and the subtitle."""
        self.parts.append(text(MARGIN, self.y, _title(self.table), 24, weight="bold"))
        self.y += 24
        self.parts.append(text(MARGIN, self.y, _subtitle(self.table), 13, colour="#475569"))
        self.y += 30

    def instructions(self) -> None:
        """The legend: how to use the sheet."""
        self.parts.append(text(MARGIN, self.y, "How to play from this sheet", 17, weight="bold"))
        self.y += 24
        for step in _instructions(self.table, self.opening_board, self.rules):
            lines = _wrap(step, self.inner - 18, 14)
            for k, line in enumerate(lines):
                self.parts.append(text(MARGIN + (0 if k == 0 else 18), self.y, line, 14))
                self.y += 19
            self.y += 3

    def example(self) -> None:
        """The legend: one position in all eight orientations (none for an empty table)."""
        example = _example_entry(self.table.entries, self.rules)
        if example is None:
            return
        self.y += 8
        orientations = _orientations(self.rules)
        n = len(orientations)
        small = min(self.board_size * 0.75, (self.inner - (n - 1) * 14) / n)
        step_x = (self.inner - small) / (n - 1) if n > 1 else 0.0
        ways = {8: "eight", 4: "four"}.get(n, str(n))
        caption = (
            f"Example: these {ways} boards are all the same position (and the same green move):"
        )
        self.parts.append(text(MARGIN, self.y, caption, 14, weight="bold"))
        self.y += 12
        base = Board.parse(example.board, self.rules)
        for k, (t, label) in enumerate(orientations):
            x = MARGIN + k * step_x
            move = map_cell(example.move, t, self.rules)
            image = base.transform(t)
            self.parts.append(
                board_group(image, x, self.y, small, move, attrs={"class": "example"})
            )
            if t == 0:
                label = (label[0], f"(board #{self.table.entries.index(example) + 1})")
            for j, line in enumerate(label):
                y = self.y + small + 15 + 14 * j
                self.parts.append(
                    text(x + small / 2, y, line, 12, anchor="middle", colour="#475569")
                )
        self.y += small + 58

    def groups(self) -> list[tuple[int, list[tuple[int, Entry]]]]:
        """The entries (numbered from 1) by move number; move 1 for the fixed opening's board."""
        groups: dict[int, list[tuple[int, Entry]]] = {}
        for number, e in enumerate(self.table.entries, 1):
            groups.setdefault(_depth(e.board), []).append((number, e))
        if self.opening_board:
            groups.setdefault(0, [])
        return sorted(groups.items())

    def section(self, depth: int, members: list[tuple[int, Entry]]) -> None:
        """One move number: a header band, then its boards in rows."""
        self.y += 8
        self.parts.append(
            f'<rect x="{MARGIN - 6}" y="{self.y - 17}" width="{self.inner + 12}" height="24" '
            f'rx="4" fill="#f1f5f9"/>'
        )
        self.parts.append(
            text(MARGIN, self.y, self._header(depth, len(members)), 16, weight="bold")
        )
        self.y += 18
        cells = self._cells(depth, members)
        for k, (label, b, move, caption) in enumerate(cells):
            self._board(k, label, b, move, caption)
        rows = (len(cells) + self.columns - 1) // self.columns
        self.y += rows * (self.board_size + CAPTION + GAP_Y) + 4

    def _header(self, depth: int, count: int) -> str:
        if depth == 0 and self.opening_board:
            return "Move 1: X to play (the fixed opening; not a lookup)"
        side = X if depth % 2 == 0 else 3 - X
        noun = "position" if count == 1 else "positions"
        return f"Move {depth + 1}: {_side_name(side)} to play ({count} {noun})"

    def _cells(
        self, depth: int, members: list[tuple[int, Entry]]
    ) -> list[tuple[str, Board, int, str]]:
        """(label, board, move, caption) of each board in a section."""
        cells: list[tuple[str, Board, int, str]] = []
        if depth == 0 and self.opening_board:
            cells.append(("opening", Board.empty(self.rules), self.table.opening or 0, "opening"))
        for number, e in members:
            caption = f"#{number} · {_outcome(e, self.rules)}"
            cells.append((str(number), Board.parse(e.board, self.rules), e.move, caption))
        return cells

    def _board(self, k: int, label: str, b: Board, move: int, caption: str) -> None:
        """The ``k``-th board of a section and its caption."""
        row, col = divmod(k, self.columns)
        x = MARGIN + col * self.col_w
        by = self.y + row * (self.board_size + CAPTION + GAP_Y)
        attrs = (
            {"class": "opening"}
            if label == "opening"
            else {"class": "entry", "data-entry": label, "data-hash": str(b.hash)}
        )
        size = self.board_size
        self.parts.append(board_group(b, x, by, size, move, attrs=attrs))
        high = size * self.rules.rows / max(self.rules.rows, self.rules.cols)  # oblong: lower
        self.parts.append(
            text(x + size / 2, by + high + 14, caption, 12, anchor="middle", colour="#334155")
        )

    def footer(self) -> None:
        """How the cells are numbered and the boards drawn."""
        self.y += 4
        count = len(self.rules.symmetries)
        ways = {8: "eight", 4: "four"}.get(count, str(count))
        foot = (
            f"Cells are numbered 0-{self.rules.cells - 1} row by row from the top left. Each "
            f"board is drawn in its canonical orientation (the smallest of its {ways} hashes, "
            "hash = sum cell[i]·3^i with empty 0, X 1, O 2). Made with minttt."
        )
        for line in _wrap(foot, self.inner, 11):
            self.parts.append(text(MARGIN, self.y, line, 11, colour="#64748b"))
            self.y += 15


__all__ = [
    "BOARD",
    "CAPTION",
    "COLUMNS",
    "GAP_X",
    "GAP_Y",
    "MARGIN",
    "OPENING_NAMES",
    "ORIENTATIONS",
    "table",
]
