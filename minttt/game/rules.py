"""The rules of tic-tac-toe (and its m,n,k and misère cousins), an immutable board, and symmetry.

Conventions (docs/DESIGN.md): cells 0..N-1 row-major from the top left; 0 empty, 1 = X (moves
first), 2 = O; hash ``sum(cell[i] * 3**i)`` (cell 0 is the least significant digit); the canonical
hash is the minimum hash over the symmetries of the board's shape (we keep the transform too).

>>> b = Board.parse("x...o....")
>>> b.to_move, b.hash, b.legal_moves()[:3]
(1, 163, (1, 2, 3))
>>> c = b.canonical()
>>> c.hash, str(c.board), c.transform
(163, 'x...o....', 0)
>>> Board.parse("..x......").canonical().hash     # a corner opening: the corner 0 is canonical
1
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import NamedTuple

from minttt.errors import InputError
from minttt.record import Record

EMPTY, X, O = 0, 1, 2
SYMBOLS = {EMPTY: ".", X: "x", O: "o"}
PARSE_SYMBOLS = {".": EMPTY, "-": EMPTY, "_": EMPTY, " ": EMPTY, "x": X, "o": O}
#: the forms of a game name :meth:`Rules.from_name` reads (``--game``'s help says them)
GAME_NAMES = "3x3, 3x4, 4x4, MxN[kK] or mnk:M,N,K, each with -misere if wanted"
_SHORT_NAME = re.compile(r"(?P<m>\d{1,3})x(?P<n>\d{1,3})(?:k(?P<k>\d{1,3}))?")


def _square_symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Cell permutations of the board's symmetry group, ordered as in 003.

    Transform ``t`` is a 3-bit number b2 b1 b0: b0 flips rows (row -> rows-1-row), b1 flips
    columns, b2 swaps row and column (transpose). Non-square boards cannot transpose, so they keep
    only t in 0..3. ``perm[t][i]`` is the cell that cell ``i`` moves to.
    """
    count = 8 if rows == cols else 4
    perms = []
    for t in range(count):
        perm = []
        for i in range(rows * cols):
            r, c = divmod(i, cols)
            if t & 1:
                r = rows - 1 - r
            if t & 2:
                c = cols - 1 - c
            if t & 4:
                r, c = c, r
            perm.append(r * cols + c)
        perms.append(tuple(perm))
    return tuple(perms)


def _lines(rows: int, cols: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every straight run of ``k`` cells: rows, columns and both diagonals."""
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = []
                for s in range(k):
                    rr, cc = r + dr * s, c + dc * s
                    if not (0 <= rr < rows and 0 <= cc < cols):
                        break
                    cells.append(rr * cols + cc)
                if len(cells) == k:
                    lines.append(tuple(cells))
    return tuple(lines)


class Rules(Record):
    """A game of the tic-tac-toe family: an ``rows`` x ``cols`` board, ``k`` in a row.

    >>> TIC_TAC_TOE.name, len(TIC_TAC_TOE.lines), len(TIC_TAC_TOE.symmetries)
    ('3x3', 8, 8)
    >>> Rules.from_name("mnk:3,4,3").name, len(Rules.from_name("mnk:3,4,3").symmetries)
    ('mnk:3,4,3', 4)

    Parameters
    ----------
    rows, cols
        The board's size.
    k
        How many in a row win.
    misere
        The player who completes ``k`` in a row loses instead.

    Raises
    ------
    InputError
        For an empty board, or a ``k`` that cannot fit on it.
    """

    FIELDS = ("rows", "cols", "k", "misere")
    rows: int
    cols: int
    k: int
    misere: bool

    def __init__(self, rows: int = 3, cols: int = 3, k: int = 3, misere: bool = False) -> None:
        self._fill(rows, cols, k, misere)
        if self.rows < 1 or self.cols < 1:
            raise InputError(
                f"board must have at least one row and column, got {self.rows}x{self.cols}"
            )
        if not 1 <= self.k <= max(self.rows, self.cols):
            raise InputError(
                f"k={self.k} cannot fit on a {self.rows}x{self.cols} board (need 1 <= k <= "
                f"{max(self.rows, self.cols)})"
            )

    @property
    def cells(self) -> int:
        """Cells on the board (rows x cols)."""
        return self.rows * self.cols

    @property
    def center(self) -> int | None:
        """The board's centre cell, or None on a board with an even side (no one cell there)."""
        if self.rows % 2 == 0 or self.cols % 2 == 0:
            return None
        return (self.rows // 2) * self.cols + self.cols // 2

    @property
    def name(self) -> str:
        """The game's name: ``3x3``, ``3x3-misere`` or ``mnk:M,N,K[-misere]``."""
        if (self.rows, self.cols, self.k) == (3, 3, 3):
            return "3x3-misere" if self.misere else "3x3"
        base = f"mnk:{self.rows},{self.cols},{self.k}"
        return base + "-misere" if self.misere else base

    @classmethod
    def from_name(cls, name: str, *, force: bool = False) -> Rules:
        """Parse a game name: the one parser of game names, which every ``--game`` reads.

        The names, any case, each with an optional ``-misere`` suffix:

        - ``MxN``: an M-row, N-column board, ``k = min(M, N)`` in a row (``3x3`` is tic-tac-toe,
          ``3x4`` is m,n,k 3,4,3, ``4x4`` is 4,4,4);
        - ``MxNkK``: the same board, ``K`` in a row (``4x4k3`` is 4,4,3);
        - ``mnk:M,N,K``: the long form, which :attr:`name` gives back (``3x3`` for 3,3,3).

        Boards larger than 4x4 (16 cells) need ``force=True``: their graphs are too large to
        build casually.

        >>> [Rules.from_name(n).name for n in ("3x3", "3x4", "4x4", "4x4k3", "2x4k3-misere")]
        ['3x3', 'mnk:3,4,3', 'mnk:4,4,4', 'mnk:4,4,3', 'mnk:2,4,3-misere']

        Raises
        ------
        InputError
            For a name none of the forms reads, a board ``k`` cannot fit on, or a board over
            16 cells without ``force``.
        """
        text = name.strip().lower()
        misere = text.endswith("-misere")
        if misere:
            text = text[: -len("-misere")]
        short = _SHORT_NAME.fullmatch(text)
        if short is not None:
            m, n = int(short["m"]), int(short["n"])
            rules = cls(m, n, int(short["k"]) if short["k"] else min(m, n), misere)
        elif text.startswith("mnk:"):
            parts = text[4:].split(",")
            if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
                raise InputError(f"game {name!r}: expected mnk:M,N,K with three whole numbers")
            m, n, k = (int(p) for p in parts)
            rules = cls(m, n, k, misere)
        else:
            raise InputError(f"unknown game {name!r}: expected {GAME_NAMES}")
        if rules.cells > 16 and not force:
            raise InputError(f"game {name!r} has {rules.cells} cells; boards over 4x4 need --force")
        return rules

    @cached_property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Every run of ``k`` cells that wins (rows, columns, diagonals)."""
        return _lines(self.rows, self.cols, self.k)

    @cached_property
    def lines_through(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per cell, the winning lines through it: a move can complete only those."""
        return tuple(tuple(line for line in self.lines if i in line) for i in range(self.cells))

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board's symmetries as cell permutations, in 003's order."""
        return _square_symmetries(self.rows, self.cols)

    @cached_property
    def inverse_symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The inverse of each symmetry, same order."""
        inverses = []
        for perm in self.symmetries:
            inv = [0] * len(perm)
            for i, j in enumerate(perm):
                inv[j] = i
            inverses.append(tuple(inv))
        return tuple(inverses)

    @cached_property
    def powers(self) -> tuple[int, ...]:
        """``3**i`` for each cell ``i``: the hash's digit weights."""
        return tuple(3**i for i in range(self.cells))

    def line_winner(self, cells: tuple[int, ...]) -> int:
        """The player who completed a line (0 if none). Does not apply the misère rule."""
        for line in self.lines:
            first = cells[line[0]]
            if first and all(cells[i] == first for i in line[1:]):
                return first
        return EMPTY

    def winner(self, cells: tuple[int, ...]) -> int:
        """The winner of a position: in misère the player who made the line loses."""
        maker = self.line_winner(cells)
        if maker and self.misere:
            return 3 - maker
        return maker

    def hash(self, cells: tuple[int, ...]) -> int:
        """``sum(cells[i] * 3**i)``, read as a base-3 numeral (cell 0 the last digit)."""
        return int("".join(map(str, reversed(cells))), 3) if cells else 0

    @cached_property
    def _chunk_tables(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per symmetry ``t`` and chunk of 3 cells, the hash each of the 27 fillings contributes
        after ``t``: ``hash(transform(cells, t))`` is then a sum of one lookup per chunk."""
        tables = []
        for perm in self.symmetries:
            per_chunk = []
            for start in range(0, self.cells, 3):
                cells = range(start, min(start + 3, self.cells))
                per_chunk.append(
                    tuple(
                        sum(((code // 3**k) % 3) * 3 ** perm[i] for k, i in enumerate(cells))
                        for code in range(27)
                    )
                )
            tables.append(tuple(per_chunk))
        return tuple(tables)

    def transform(self, cells: tuple[int, ...], t: int) -> tuple[int, ...]:
        """The cells after symmetry ``t``: the piece on cell i moves to ``symmetries[t][i]``."""
        out = [0] * len(cells)
        for i, j in enumerate(self.symmetries[t]):
            out[j] = cells[i]
        return tuple(out)

    def hashes(self, cells: tuple[int, ...]) -> tuple[int, ...]:
        """The hash of ``cells`` after each symmetry, in 003's order (the least is canonical)."""
        padded = (*cells, 0, 0)
        codes = [padded[i] + 3 * padded[i + 1] + 9 * padded[i + 2] for i in range(0, self.cells, 3)]
        return tuple(
            [
                sum([table[code] for table, code in zip(chunks, codes, strict=True)])
                for chunks in self._chunk_tables
            ]
        )

    @cached_property
    def move_weights(self) -> tuple[tuple[int, ...], ...]:
        """Per cell ``i``, what an X on it adds to :meth:`hashes` (an O adds twice as much):
        ``3 ** symmetries[t][i]`` for each ``t``. A move changes the hashes by a sum, so the
        hashes of a child are its parent's plus one weight, with no canonicalisation.

        >>> r = TIC_TAC_TOE
        >>> [a + b for a, b in zip(r.hashes((0,) * 9), r.move_weights[2])] == list(
        ...     r.hashes((0, 0, 1, 0, 0, 0, 0, 0, 0)))
        True
        """
        return tuple(tuple(3 ** perm[i] for perm in self.symmetries) for i in range(self.cells))

    @cached_property
    def compositions(self) -> tuple[tuple[int, ...], ...]:
        """``compositions[t][u]``: the one symmetry that is ``t`` then ``u``, so that the hashes
        of a board after ``t`` are its own read in that order (no board rebuilt).

        >>> r, cells = TIC_TAC_TOE, (1, 2, 0, 0, 1, 0, 0, 0, 0)
        >>> seen = r.hashes(cells)
        >>> r.hashes(r.transform(cells, 5)) == tuple(seen[v] for v in r.compositions[5])
        True
        """
        index = {perm: t for t, perm in enumerate(self.symmetries)}
        return tuple(
            tuple(index[tuple(u[i] for i in t)] for u in self.symmetries) for t in self.symmetries
        )

    def canonical(self, cells: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
        """``(canonical hash, transform, canonical cells)``; ties go to the lowest transform."""
        hashes = self.hashes(cells)
        best = min(hashes)
        t = hashes.index(best)
        return best, t, self.transform(cells, t)


TIC_TAC_TOE = Rules()
"""Tic-tac-toe: 3x3, three in a row (the default game everywhere)."""


class Board(Record):
    """An immutable position. ``cells[i]`` is 0 (empty), 1 (X) or 2 (O).

    >>> b = Board.empty().play(4).play(0)
    >>> str(b), b.to_move, b.winner(), b.is_terminal
    ('o...x....', 1, 0, False)
    >>> print(b.pretty())
    o . .
    . x .
    . . .

    Parameters
    ----------
    cells
        One of 0, 1, 2 per cell, row by row. :meth:`parse` reads the ``x.o......`` text and
        :meth:`empty` gives the start.
    rules
        The game (default: tic-tac-toe).
    """

    FIELDS = ("cells", "rules")
    cells: tuple[int, ...]
    rules: Rules

    def __init__(self, cells: tuple[int, ...], rules: Rules = TIC_TAC_TOE) -> None:
        values = self.__dict__  # the hot constructor: two stores, no keyword dict
        values["cells"] = cells
        values["rules"] = rules

    def __eq__(self, other: object) -> bool:  # the hot two: one tuple each, as a dataclass's
        if not isinstance(other, Board):
            return NotImplemented
        return self.cells == other.cells and self.rules == other.rules

    def __hash__(self) -> int:
        return hash((self.cells, self.rules))

    @classmethod
    def empty(cls, rules: Rules = TIC_TAC_TOE) -> Board:
        """The empty board of ``rules``, X to move.

        Parameters
        ----------
        rules
            The game (default: tic-tac-toe).

        Returns
        -------
        Board
            Every cell empty.
        """
        return cls((EMPTY,) * rules.cells, rules)

    @classmethod
    def from_hash(cls, value: int, rules: Rules = TIC_TAC_TOE) -> Board:
        """The board whose base-3 hash is ``value`` (checked like :meth:`parse`).

        >>> Board.from_hash(Board.parse("o...x....").hash)
        Board.parse('o...x....')

        Parameters
        ----------
        value
            ``sum(cell[i] * 3**i)`` (:attr:`hash`).
        rules
            The game (default: tic-tac-toe).

        Returns
        -------
        Board
            The board of that hash.

        Raises
        ------
        InputError
            For a hash outside ``0 .. 3**cells - 1``, or a board no game reaches (see
            :meth:`check_counts`).
        """
        if not 0 <= value < 3**rules.cells:
            raise InputError(f"hash {value} is outside 0..{3**rules.cells - 1}")
        cells = []
        for _ in range(rules.cells):
            value, digit = divmod(value, 3)
            cells.append(digit)
        board = cls(tuple(cells), rules)
        board.check_counts()
        return board

    @classmethod
    def parse(cls, text: str, rules: Rules = TIC_TAC_TOE) -> Board:
        """Read a board written as one character per cell (``x``, ``o``, ``.``).

        >>> Board.parse("x.o/.x./..o").to_move
        1

        Parameters
        ----------
        text
            One character per cell, row by row: ``x``, ``o``, and ``.``, ``-``, ``_`` or a space
            for an empty cell, any case; ``|``, ``/`` and line breaks between rows are dropped,
            as are spaces around the text.
        rules
            The game (default: tic-tac-toe).

        Returns
        -------
        Board
            The board read.

        Raises
        ------
        InputError
            Naming the problem: a wrong length, another character, or impossible piece counts
            or wins (:meth:`check_counts`).
        """
        cleaned = text.strip().lower().replace("\n", "").replace("|", "").replace("/", "")
        if len(cleaned) != rules.cells:
            raise InputError(
                f"board {text!r} has {len(cleaned)} cells, expected {rules.cells} "
                f"(one of x, o, . per cell, row by row)"
            )
        bad = sorted({ch for ch in cleaned if ch not in PARSE_SYMBOLS})
        if bad:
            raise InputError(f"board {text!r} has characters {''.join(bad)!r}; use x, o and . only")
        board = cls(tuple(PARSE_SYMBOLS[ch] for ch in cleaned), rules)
        board.check_counts()
        return board

    def check_counts(self) -> None:
        """Raise InputError unless the position can arise in a real game.

        Raises
        ------
        InputError
            When the counts are impossible (X moves first: as many x as o, or one more), both
            sides have a line, or play went on after a line.
        """
        xs, os = self.cells.count(X), self.cells.count(O)
        if xs - os not in (0, 1):
            raise InputError(
                f"board {self} has impossible counts: {xs} x and {os} o "
                "(x moves first, so x must equal o or o + 1)"
            )
        makers = {
            self.cells[line[0]]
            for line in self.rules.lines
            if self.cells[line[0]] and all(self.cells[i] == self.cells[line[0]] for i in line)
        }
        if len(makers) > 1:
            raise InputError(
                f"board {self} is impossible: both x and o have {self.rules.k} in a row"
            )
        if makers:
            maker = makers.pop()
            if (maker == X and xs != os + 1) or (maker == O and xs != os):
                raise InputError(
                    f"board {self} is impossible: {SYMBOLS[maker]} has a line but play went on"
                )

    def __str__(self) -> str:
        return "".join(SYMBOLS[v] for v in self.cells)

    def __repr__(self) -> str:
        return f"Board.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The board drawn, for notebooks (IPython's display protocol), as ``chess.Board`` does.

        >>> Board.parse("x...o....")._repr_svg_().startswith("<svg")
        True
        """
        from minttt.render.board import board as draw  # display hook: the picture's layer

        return draw(self)

    def pretty(self) -> str:
        """The board as rows of ``x``, ``o`` and ``.``.

        Returns
        -------
        str
            One line per row, its cells separated by spaces.
        """
        text = str(self)
        cols = self.rules.cols
        return "\n".join(" ".join(text[r * cols : (r + 1) * cols]) for r in range(self.rules.rows))

    @cached_property
    def hash(self) -> int:
        """``sum(cell[i] * 3**i)``: the board's base-3 hash."""
        return self.rules.hash(self.cells)

    @property
    def depth(self) -> int:
        """Number of pieces on the board (plies played)."""
        return self.rules.cells - self.cells.count(EMPTY)

    @property
    def to_move(self) -> int:
        """The player whose turn it is: 1 (X) or 2 (O)."""
        return X if self.cells.count(X) == self.cells.count(O) else O

    def winner(self) -> int:
        """1 if X has won, 2 if O has won, 0 otherwise (misère rules applied).

        Returns
        -------
        int
            The winner: under misère rules the side that made the line loses, so the other
            side is returned.
        """
        return self.rules.winner(self.cells)

    @property
    def is_full(self) -> bool:
        """No empty cell left."""
        return EMPTY not in self.cells

    @property
    def is_terminal(self) -> bool:
        """The game is over: a line, or a full board."""
        return self.is_full or self.rules.line_winner(self.cells) != EMPTY

    def legal_moves(self) -> tuple[int, ...]:
        """Empty cells, in increasing order; none once the game is over.

        Returns
        -------
        tuple[int, ...]
            The cells the side to move may play (empty on a terminal board).
        """
        if self.is_terminal:
            return ()
        return tuple(i for i, v in enumerate(self.cells) if v == EMPTY)

    def play(self, cell: int) -> Board:
        """The board after the side to move plays ``cell``.

        Parameters
        ----------
        cell
            The cell to play, ``0 .. cells - 1``, row by row.

        Returns
        -------
        Board
            A new board (this one is unchanged).

        Raises
        ------
        InputError
            For a cell outside the board, a cell already taken, or a finished game.
        """
        if not 0 <= cell < self.rules.cells:
            raise InputError(f"move {cell} is outside the board (cells 0..{self.rules.cells - 1})")
        if self.cells[cell] != EMPTY:
            raise InputError(f"cell {cell} is already taken on board {self}")
        if self.is_terminal:
            raise InputError(f"board {self} is finished; no move can be played")
        cells = list(self.cells)
        cells[cell] = self.to_move
        return Board(tuple(cells), self.rules)

    def transform(self, t: int) -> Board:
        """The board under symmetry ``t`` (see :func:`map_cell`).

        Parameters
        ----------
        t
            An index into ``rules.symmetries`` (0 is the identity).

        Returns
        -------
        Board
            The board with the piece on cell ``i`` moved to ``rules.symmetries[t][i]``.
        """
        return Board(self.rules.transform(self.cells, t), self.rules)

    def canonical(self) -> Canonical:
        """The canonical representative and the transform that reaches it.

        >>> c = Board.parse("..x......").canonical()
        >>> str(c.board), c.board == Board.parse("..x......").transform(c.transform)
        ('x........', True)

        Returns
        -------
        Canonical
            ``(hash, transform, board)``: the least hash over the board's symmetries, the
            lowest symmetry reaching it, and the board under that symmetry.
        """
        h, t, cells = self.rules.canonical(self.cells)
        return Canonical(h, t, Board(cells, self.rules))

    def distinct_moves(self) -> tuple[int, ...]:
        """The legal moves up to symmetry: the lowest cell of each move whose position is not a
        symmetric copy of a lower one's (what a canonical game graph keeps as its children).

        >>> Board.empty().distinct_moves()   # corner, edge, centre
        (0, 1, 4)
        >>> Board.empty().play(4).distinct_moves()
        (0, 1)

        Returns
        -------
        tuple[int, ...]
            Cells in increasing order; none once the game is over.
        """
        seen: set[int] = set()
        moves = []
        for cell in self.legal_moves():
            h = self.rules.canonical(self.play(cell).cells)[0]
            if h not in seen:
                seen.add(h)
                moves.append(cell)
        return tuple(moves)

    def stabilizer(self) -> tuple[int, ...]:
        """The symmetries that leave this board unchanged (always includes 0, the identity).

        Returns
        -------
        tuple[int, ...]
            Indices into ``rules.symmetries``, in increasing order.
        """
        return tuple(
            t
            for t in range(len(self.rules.symmetries))
            if self.rules.transform(self.cells, t) == self.cells
        )


class Canonical(NamedTuple("Canonical", [("hash", int), ("transform", int), ("board", Board)])):
    """A board's canonical form: ``board == original.transform(transform)``.

    Its fields are given as types, not as a class body's annotations: those are strings here
    (``from __future__ import annotations``), and typing compiles each one, the first compile of
    ``minttt solve``'s process costing about 1.5 ms."""

    __slots__ = ()


def map_cell(cell: int, transform: int, rules: Rules = TIC_TAC_TOE) -> int:
    """Where ``cell`` goes under ``transform`` (real board -> canonical board)."""
    return rules.symmetries[transform][cell]


def unmap_cell(cell: int, transform: int, rules: Rules = TIC_TAC_TOE) -> int:
    """The inverse of :func:`map_cell`: a move on the canonical board back on the real board.

    >>> b = Board.parse("..x......")
    >>> c = b.canonical()
    >>> unmap_cell(4, c.transform) == 4 and map_cell(2, c.transform) == 0
    True
    """
    return rules.inverse_symmetries[transform][cell]


def inverse_transform(transform: int, rules: Rules = TIC_TAC_TOE) -> int:
    """The index of the symmetry that undoes ``transform``."""
    inverse = rules.inverse_symmetries[transform]
    return rules.symmetries.index(inverse)


__all__ = [
    "Board",
    "Canonical",
    "GAME_NAMES",
    "PARSE_SYMBOLS",
    "Rules",
    "SYMBOLS",
    "TIC_TAC_TOE",
    "inverse_transform",
    "map_cell",
    "unmap_cell",
]
