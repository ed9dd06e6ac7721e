"""Tables as artifacts: the ``minttt-table/1`` file, lookup, and the table player.

A table maps canonical positions to a move on the canonical board. Looking up a real board means
canonicalising it, reading the entry, and mapping the move back through the inverse symmetry.

>>> from minttt.game.graph import build_graph
>>> g = build_graph()
>>> t = table_from_moves(g, {0: 4}, role="X", opening=None, criterion="optimal", provenance={})
>>> t.size, t.move(Board.empty())
(1, 4)
>>> Table.from_dict(t.to_dict()) == t
True

The file (see ``minttt/schemas/table.schema.json``)::

    {"format": "minttt-table/1", "game": "3x3", "role": "X", "opening": 4,
     "criterion": "optimal", "hash": "sum(cell[i] * 3**i); ...", "size": 22,
     "entries": [{"hash": 0, "board": ".........", "move": 4, "value": 0}, ...],
     "provenance": {"encoding": "lookup", "solver": "rc2", "lower_bound": 22, ...}}
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from minttt.errors import InputError
from minttt.fileio import write_text_atomic, write_texts_atomic
from minttt.game.graph import own_play
from minttt.game.rules import EMPTY, Board, O, Rules, X, unmap_cell
from minttt.vocabulary import Criterion, Role, Symmetry

if TYPE_CHECKING:
    import numpy as np

    from minttt.game.graph import Graph

FORMAT = "minttt-table/1"
HASH_CONVENTION = (
    "sum(cell[i] * 3**i); cells 0..8 row-major from the top left; 0 empty, 1 x, 2 o; "
    "canonical = minimum over the 8 symmetries of the square"
)
GAMES = ("3x3", "3x3-misere", "mnk:M,N,K[-misere]")


def hash_convention(rules: Rules) -> str:
    """The hash convention of a game, spelled out (for tic-tac-toe: :data:`HASH_CONVENTION`).

    >>> hash_convention(Rules.from_name("mnk:3,4,3"))[:52]
    'sum(cell[i] * 3**i); cells 0..11 row-major from the '
    """
    if (rules.rows, rules.cols) == (3, 3):
        return HASH_CONVENTION
    shape = "square" if rules.rows == rules.cols else "rectangle"
    return (
        f"sum(cell[i] * 3**i); cells 0..{rules.cells - 1} row-major from the top left "
        f"({rules.rows} rows, {rules.cols} columns); 0 empty, 1 x, 2 o; canonical = minimum over "
        f"the {len(rules.symmetries)} symmetries of the {shape}"
    )


_KEYS = ("format", "game", "role", "opening", "criterion", "hash", "size", "entries", "provenance")


@dataclass(frozen=True)
class Entry:
    """One lookup: at the canonical position ``hash`` (board ``board``) play ``move``."""

    hash: int
    board: str
    move: int
    value: int

    def to_dict(self) -> dict[str, Any]:
        """The entry as it is written in the table file."""
        return {"hash": self.hash, "board": self.board, "move": self.move, "value": self.value}


def _depth(board: str) -> int:
    return sum(ch != "." for ch in board)


@dataclass(frozen=True)
class Table:
    """A lookup table: the positions it answers, on canonical boards, each with a move.

    Parameters
    ----------
    role
        Who it plays: X, O or both.
    opening
        X's fixed first move (a real cell), or ``None``. With an opening and no entry for the empty
        board, the table plays the opening there.
    criterion
        Which moves it was made to play: ``optimal`` or ``never-lose``.
    entries
        The answered positions, sorted by (depth, hash).
    provenance
        How it was made (variant, solver, bounds): kept in its file, not compared.
    game
        The game's name.
    symmetry
        Keyed by canonical boards (``full``) or raw ones (``none``).
    """

    role: Role
    opening: int | None
    criterion: Criterion
    entries: tuple[Entry, ...]
    provenance: dict = field(default_factory=dict, compare=False, hash=False)
    game: str = "3x3"
    symmetry: Symmetry = Symmetry.FULL

    # ----------------------------------------------------------------- lookup
    @property
    def size(self) -> int:
        """Number of lookups (entries)."""
        return len(self.entries)

    @cached_property
    def rules(self) -> Rules:
        """The rules of the table's game."""
        return Rules.from_name(self.game)

    @cached_property
    def by_hash(self) -> dict[int, Entry]:
        """The entries by hash."""
        return {e.hash: e for e in self.entries}

    def plays(self, side: int) -> bool:
        """Whether the table plays ``side`` (1 = X, 2 = O).

        Parameters
        ----------
        side
            1 (X) or 2 (O).

        Returns
        -------
        bool
            True when the table's role is that side or ``both``.
        """
        return self.role.plays(side)

    @property
    def raw(self) -> bool:
        """Keyed by the raw board (``symmetry: none``): no transform when playing."""
        return self.symmetry == Symmetry.NONE

    def entry(self, board: Board) -> Entry | None:
        """The entry for ``board``'s canonical position (raw tables: the board itself), or None.

        Parameters
        ----------
        board
            A real board of the table's game.

        Returns
        -------
        Entry or None
            The entry keyed by the board's canonical hash (a raw table: its own hash), its move
            on the canonical board; None when the table has no such entry.
        """
        return self.by_hash.get(board.hash if self.raw else board.canonical().hash)

    def move(self, board: Board) -> int:
        """The move on the real ``board``; KeyError when the table has no answer there.

        Parameters
        ----------
        board
            A real board of the table's game, with the table's side to move.

        Returns
        -------
        int
            The cell to play on ``board`` itself: the entry's move mapped back from the
            canonical board, or the fixed opening on the empty board when no entry holds it.

        Raises
        ------
        KeyError
            When the table has no entry for the board (and it is no empty board with a fixed
            opening).
        """
        if self.raw:
            e = self.by_hash.get(board.hash)
            if e is not None:
                return e.move
            if self.opening is not None and board.depth == 0:
                return self.opening
            raise KeyError(f"no entry for {board} (raw table, hash {board.hash})")
        canon = board.canonical()
        e = self.by_hash.get(canon.hash)
        if e is None:
            if self.opening is not None and board.depth == 0:
                return self.opening
            raise KeyError(f"no entry for {board} (canonical {canon.board}, hash {canon.hash})")
        return unmap_cell(e.move, canon.transform, board.rules)

    def player(self, name: str | None = None) -> TablePlayer:
        """A player (``minttt.game.player.Player``) that follows this table.

        Parameters
        ----------
        name
            The player's name (default: the provenance's ``name``, else ``table(SIZE)``).

        Returns
        -------
        TablePlayer
            A player answering by one array read per move (:attr:`move_array`); its
            ``choices`` are empty and its ``choose`` raises KeyError where the table has no
            answer.
        """
        return TablePlayer(self, name)

    @cached_property
    def move_array(self) -> np.ndarray:
        """Raw hash -> real move (int8, -1 where the table has no answer), over all 3^9 hashes.

        Built by applying every symmetry to every entry, so one array read replaces the
        canonicalisation; it agrees with :meth:`move` on every board.
        """
        import numpy as np

        rules = self.rules
        arr = np.full(3**rules.cells, -1, dtype=np.int8)
        code = {".": 0, "x": 1, "o": 2}
        powers = rules.powers
        symmetries = rules.symmetries if not self.raw else [tuple(range(rules.cells))]
        inverses = rules.inverse_symmetries if not self.raw else [tuple(range(rules.cells))]
        for e in self.entries:
            cells = [code[ch] for ch in e.board]
            for perm, inverse in zip(symmetries, inverses, strict=True):
                # real[i] = canonical[perm[i]]: symmetry t maps this real board onto the entry's.
                # Transforms run in increasing order, so the first t reaching a real board is the
                # lowest one, the transform canonicalisation keeps: the same move as move().
                h = sum(cells[perm[i]] * powers[i] for i in range(rules.cells))
                if arr[h] < 0:
                    arr[h] = inverse[e.move]
        if self.opening is not None and arr[0] < 0:
            arr[0] = self.opening
        return arr

    # --------------------------------------------------------------- file I/O
    def _repr_svg_(self) -> str:
        """The table's printable sheet, for notebooks (IPython's display protocol): every
        entry's board with its move, as ``minttt render`` draws it."""
        from minttt.render.grid import table as sheet  # display hook: the picture's layer

        return sheet(self)

    def to_dict(self) -> dict[str, Any]:
        """The ``minttt-table/1`` document (keys in a fixed order, provenance keys sorted);
        ``symmetry`` appears only for raw tables, so symmetric files are unchanged.

        Returns
        -------
        dict[str, Any]
            ``format``, ``game``, ``role``, ``opening``, ``criterion``, (``symmetry``),
            ``hash``, ``size``, ``entries`` and ``provenance``: what :meth:`from_dict` reads.
        """
        head = {
            "format": FORMAT,
            "game": self.game,
            "role": self.role,
            "opening": self.opening,
            "criterion": self.criterion,
        }
        if self.raw:
            head["symmetry"] = self.symmetry
        return {
            **head,
            "hash": hash_convention(self.rules),
            "size": self.size,
            "entries": [e.to_dict() for e in self.entries],
            "provenance": _sorted(self.provenance),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Table:
        """Validate (schema, then meaning) and build; InputError names the first bad field.

        Parameters
        ----------
        data
            A parsed ``minttt-table/1`` document (:meth:`to_dict`'s shape).

        Returns
        -------
        Table
            The table the document describes.

        Raises
        ------
        InputError
            Naming the first field the schema refuses or whose meaning is wrong: another
            format, an unknown role, criterion or game, a hash convention not the game's, an
            entry that does not fit the game, a size that is not the count of entries.
        """
        _check_schema(data)
        return build_table(
            role=data["role"],
            opening=data["opening"],
            criterion=data["criterion"],
            game=data["game"],
            hash_text=data["hash"],
            raw_entries=data["entries"],
            provenance=data["provenance"],
            size=data["size"],
            symmetry=data.get("symmetry", Symmetry.FULL),
        )

    def to_json(self) -> str:
        """Deterministic text: one entry per line, no timestamps, trailing newline.

        Returns
        -------
        str
            The JSON of :meth:`to_dict`, as the table file holds it (:func:`save_table`).
        """
        d = self.to_dict()
        lines = ["{"]
        for key in _KEYS[:5] + (("symmetry",) if self.raw else ()) + _KEYS[5:]:
            if key == "entries":
                if not self.entries:
                    lines.append('  "entries": [],')
                    continue
                lines.append('  "entries": [')
                body = [f"    {json.dumps(e, separators=(', ', ': '))}" for e in d["entries"]]
                lines.append(",\n".join(body))
                lines.append("  ],")
            elif key == "provenance":
                text = json.dumps(d[key], indent=2, ensure_ascii=False)
                lines.append('  "provenance": ' + text.replace("\n", "\n  "))
            else:
                lines.append(f"  {json.dumps(key)}: {json.dumps(d[key], ensure_ascii=False)},")
        lines.append("}")
        return "\n".join(lines) + "\n"


def _sorted(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return {str(k): _sorted(obj[k]) for k in sorted(obj, key=str)}
    if isinstance(obj, list | tuple):
        return [_sorted(v) for v in obj]
    return obj


class TablePlayer:
    """Plays a table: one array read per move (the precomputed raw-hash -> move array).

    ``choices`` is empty where the table has no answer (the verifier reports that);
    ``choose`` raises KeyError there.
    """

    def __init__(self, table: Table, name: str | None = None) -> None:
        self.table = table
        self.name = name or str(table.provenance.get("name") or f"table({table.size})")
        self.move_array = table.move_array
        self._moves = self.move_array

    def __repr__(self) -> str:
        return f"TablePlayer({self.name!r}, role={self.table.role!r}, size={self.table.size})"

    def choices(self, board: Board) -> tuple[int, ...]:
        """The table's move at ``board`` (by its canonical or raw key)."""
        m = int(self._moves[board.hash])
        return () if m < 0 else (m,)

    def choose(self, board: Board, rng: random.Random) -> int:
        """The table's move (it names one)."""
        m = int(self._moves[board.hash])
        if m < 0:
            raise KeyError(f"{self.name} has no entry for board {board}")
        return m


# ------------------------------------------------------------------ building
def table_from_moves(
    graph: Graph,
    moves: Mapping[int, int],
    *,
    role: str,
    opening: int | None,
    criterion: str,
    provenance: Mapping[str, Any] | None = None,
) -> Table:
    """A table from ``moves`` (hash -> move on that hash's board): canonical hashes on the
    symmetric graph, raw hashes (a ``symmetry: none`` table) on the raw graph.

    The moves are checked against the graph, which already holds every board, its canonical
    hash and its legal moves: each hash a position of the graph, unfinished, with the table's
    side to move, each move one of its legal moves (InputError naming the first that is not).
    Nothing is recomputed: a solver's answer becomes a table in one pass over its entries (the
    full check of :func:`build_table` is for files, whose hashes and boards are claims).
    """
    header = _check_header(Symmetry.FULL, role, criterion, graph.rules.name, None)
    _check_opening(opening, role, header)
    playing = Role(role)
    entries = sorted(
        (_graph_entry(graph, h, m, playing) for h, m in moves.items()),
        key=lambda e: (_depth(e.board), e.hash),
    )
    _check_root(opening, entries)
    return Table(
        playing,
        opening,
        Criterion(criterion),
        tuple(entries),
        dict(provenance or {}),
        graph.rules.name,
        Symmetry.FULL if graph.symmetric else Symmetry.NONE,
    )


def _graph_entry(graph: Graph, h: int, move: int, role: Role) -> Entry:
    """The entry ``h -> move`` read off ``graph``; InputError unless the graph allows it."""
    kids = graph.children.get(h)
    if kids is None:
        raise InputError(f"position {h} is not a position of the {graph.rules.name} graph")
    board = str(graph.board(h))
    if not kids:
        raise InputError(f"position {h} ({board}) is a finished game; it needs no entry")
    side = graph.to_move(h)
    if not role.plays(side):
        raise InputError(f"position {h} ({board}) has {'xo'[side - 1]} to move, not {role}")
    if isinstance(move, bool) or not any(m == move for m, _ in kids):
        raise InputError(f"cell {move!r} is not a legal move at position {h} ({board})")
    return Entry(h, board, move, graph.value(h))


def first_move_table(
    graph: Graph, role: str, *, opening: int | None = None, criterion: str = Criterion.OPTIMAL
) -> Table:
    """A full (not minimal) table: at every canonical position its own play reaches, the first
    allowed move. A baseline for tests and comparisons; role ``both`` merges X and O tables.

    >>> from minttt.game.graph import build_graph
    >>> first_move_table(build_graph(), "X", opening=4).size
    46
    """
    if role == Role.BOTH:
        return merge_tables(
            first_move_table(graph, Role.X, opening=opening, criterion=criterion),
            first_move_table(graph, Role.O, criterion=criterion),
            {"name": "first-move", "encoding": "none", "objective": "none"},
        )
    if role not in (Role.X, Role.O):
        raise InputError(f"role {role!r}: expected X, O or both")

    side = X if role == Role.X else O

    def policy(h: int) -> int:
        if h == graph.root and opening is not None:
            return opening
        return graph.allowed(h, criterion)[0]

    moves = own_play(graph, side, policy)
    if opening is not None and side == X:
        del moves[graph.root]  # the opening is the table's "opening" field, not an entry
    prov = {"name": "first-move", "encoding": "none", "objective": "none"}
    return table_from_moves(
        graph, moves, role=role, opening=opening, criterion=criterion, provenance=prov
    )


def merge_tables(
    x_table: Table, o_table: Table, provenance: Mapping[str, Any] | None = None
) -> Table:
    """One table for both sides: ``x_table``'s X entries, ``o_table``'s O entries (003's 96)."""
    if (x_table.game, x_table.criterion, x_table.symmetry) != (
        o_table.game,
        o_table.criterion,
        o_table.symmetry,
    ):
        raise InputError("merge_tables: the tables must share game, criterion and symmetry")
    if not x_table.plays(X) or not o_table.plays(O):
        raise InputError("merge_tables: need a table playing X and a table playing O")
    xs = [e for e in x_table.entries if _depth(e.board) % 2 == 0]
    os_ = [e for e in o_table.entries if _depth(e.board) % 2 == 1]
    prov = dict(provenance or {"merged_from": [x_table.provenance, o_table.provenance]})
    return build_table(
        role=Role.BOTH,
        opening=x_table.opening,
        criterion=x_table.criterion,
        game=x_table.game,
        raw_entries=[e.to_dict() for e in xs + os_],
        provenance=prov,
        size=len(xs) + len(os_),
        symmetry=x_table.symmetry,
    )


# ---------------------------------------------------------------- validation
SCHEMA = "table.schema.json"  # in minttt/schemas/


def _field_path(path: Any) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(document)"


def _check_schema(data: Any) -> None:

    if not isinstance(data, dict):
        raise InputError(f"(document): expected a JSON object, got {type(data).__name__}")
    fmt = data.get("format")
    if fmt != FORMAT:
        if isinstance(fmt, str) and fmt.startswith("minttt-table/"):
            raise InputError(f"format: unknown version {fmt!r}; this minttt reads {FORMAT!r}")
        raise InputError(f"format: expected {FORMAT!r}, got {_short(fmt)}")
    from minttt.schema import first_problem  # files only: a solver's table is never a file

    # JSON Schema's integers include 2.0; the entry checks name such a field themselves. Entries
    # plainly within the schema (most files: all) are left out of its validation, which in
    # Python costs a third of a millisecond an entry; any other, and the schema speaks.
    entries = data.get("entries")
    if isinstance(entries, list) and all(map(_plain_entry, entries)):
        data = {**data, "entries": []}
    problem = first_problem(SCHEMA, data, strict_integers=False)
    if problem is not None:
        path, message = problem
        raise InputError(f"{_field_path(path)}: {message}")


_ENTRY_KEYS = frozenset(("hash", "board", "move", "value"))
_BOARD_TEXT = re.compile(r"[xo.]+")


def _plain_entry(raw: Any) -> bool:
    """Whether ``raw`` is an entry the schema's ``entries.items`` accepts, by a check stricter
    than it (JSON integers only, no bool; a board of x, o and . alone), so that leaving such
    entries out of the schema's validation leaves every verdict as it was.

    >>> _plain_entry({"hash": 0, "board": ".........", "move": 4, "value": 0})
    True
    >>> _plain_entry({"hash": 0, "board": ".........", "move": 4, "value": True})
    False
    """
    if type(raw) is not dict or raw.keys() != _ENTRY_KEYS:
        return False
    h, board, move, value = raw["hash"], raw["board"], raw["move"], raw["value"]
    return (
        type(h) is int
        and h >= 0
        and type(board) is str
        and _BOARD_TEXT.fullmatch(board) is not None
        and type(move) is int
        and move >= 0
        and type(value) is int
        and value in (-1, 0, 1)
    )


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def build_table(
    *,
    role: Any,
    opening: Any,
    criterion: Any,
    game: Any,
    raw_entries: Any,
    provenance: Any,
    size: Any,
    hash_text: Any = None,
    symmetry: Any = Symmetry.FULL,
) -> Table:
    """A :class:`Table` from its header and raw entries (``{"hash", "board", "move", "value"}``),
    every field checked for meaning (what the schema cannot check); InputError names the field.
    The entries are sorted by depth, then hash: the file's order."""
    rules = _check_header(symmetry, role, criterion, game, hash_text)
    _check_opening(opening, role, rules)
    if not isinstance(provenance, dict):
        raise InputError("provenance: expected an object")
    seen: set[int] = set()
    canonical = symmetry == Symmetry.FULL
    entries = [
        _check_entry(i, raw, rules, role, seen, canonical) for i, raw in enumerate(raw_entries)
    ]
    _check_size(size, len(entries))
    _check_root(opening, entries)
    entries.sort(key=lambda e: (_depth(e.board), e.hash))
    return Table(
        Role(role),
        opening,
        Criterion(criterion),
        tuple(entries),
        dict(provenance),
        game,
        Symmetry(symmetry),
    )


def _check_header(symmetry: Any, role: Any, criterion: Any, game: Any, hash_text: Any) -> Rules:
    """The rules of ``game``, once the symmetry, role, criterion, game and hash are known words."""
    if symmetry not in Symmetry.values():
        raise InputError(
            f"symmetry: {_short(symmetry)} is not one of {', '.join(Symmetry.values())}"
        )
    if role not in Role.values():
        raise InputError(f"role: {_short(role)} is not one of {', '.join(Role.values())}")
    if criterion not in Criterion.values():
        raise InputError(
            f"criterion: {_short(criterion)} is not one of {', '.join(Criterion.values())}"
        )
    try:
        rules = Rules.from_name(game)
    except InputError as exc:
        raise InputError(f"game: {exc}") from None
    if rules.name != game:
        raise InputError(f"game: {_short(game)} is not one of {', '.join(GAMES)}")
    if hash_text is not None and hash_text != hash_convention(rules):
        raise InputError(f"hash: {_short(hash_text)} is not the convention of game {game}")
    return rules


def _check_opening(opening: Any, role: Any, rules: Rules) -> None:
    """InputError unless ``opening`` is None or a cell, for a table that plays X."""
    if opening is None:
        return
    if isinstance(opening, bool) or not isinstance(opening, int) or opening >= rules.cells:
        raise InputError(f"opening: {_short(opening)} is not a cell 0-{rules.cells - 1}")
    if opening < 0:
        raise InputError(f"opening: {opening} is not a cell 0-{rules.cells - 1}")
    if role == Role.O:
        raise InputError("opening: a table that plays only O cannot fix X's opening")


def _check_size(size: Any, count: int) -> None:
    if isinstance(size, bool) or not isinstance(size, int):
        raise InputError(f"size: {_short(size)} is not an integer")
    if size != count:
        raise InputError(f"size: {_short(size)} but the table has {count} entries")


def _check_root(opening: int | None, entries: list[Entry]) -> None:
    """InputError when the empty board's entry plays another move than the fixed opening."""
    if opening is None:
        return
    root = next((e for e in entries if e.hash == 0), None)
    if root is not None and root.move != opening:
        raise InputError(f"opening: {opening} but the entry for the empty board plays {root.move}")


def _check_entry(
    i: int, raw: Any, rules: Rules, role: str, seen: set[int], canonical: bool = True
) -> Entry:
    """``entries[i]`` checked: its fields, hash (canonical, once), board, side to move, move and
    value."""
    where = f"entries[{i}]"
    if not isinstance(raw, Mapping):
        raise InputError(f"{where}: expected an object")
    for key in ("hash", "board", "move", "value"):
        if key not in raw:
            raise InputError(f"{where}: missing {key!r}")
    h, text, move, value = raw["hash"], raw["board"], raw["move"], raw["value"]
    from_hash = _check_hash(where, h, rules, seen, canonical)
    board = _check_board(where, text, h, from_hash, rules, role)
    _check_move(where, move, board, rules)
    if isinstance(value, bool) or not isinstance(value, int) or value not in (-1, 0, 1):
        raise InputError(f"{where}.value: {_short(value)} is not -1, 0 or 1")
    return Entry(h, text, move, value)


def _check_hash(where: str, h: Any, rules: Rules, seen: set[int], canonical: bool) -> Board:
    """The board of hash ``h``: an integer, canonical (a symmetric table's), not seen before."""
    if isinstance(h, bool) or not isinstance(h, int):
        raise InputError(f"{where}.hash: {_short(h)} is not an integer")
    try:
        from_hash = Board.from_hash(h, rules)
    except InputError as exc:
        raise InputError(f"{where}.hash: {exc}") from None
    if canonical:
        canon = from_hash.canonical()
        if canon.hash != h:
            raise InputError(
                f"{where}.hash: {h} is not canonical (canonical form: {canon.hash}, {canon.board})"
            )
    if h in seen:
        raise InputError(f"{where}.hash: duplicate entry for position {h}")
    seen.add(h)
    return from_hash


def _check_board(where: str, text: Any, h: int, from_hash: Board, rules: Rules, role: str) -> Board:
    """The board ``text``: the one of hash ``h``, unfinished, with the table's side to move."""
    if not isinstance(text, str):
        raise InputError(f"{where}.board: {_short(text)} is not a string")
    try:
        board = Board.parse(text, rules)
    except InputError as exc:
        raise InputError(f"{where}.board: {exc}") from None
    if board.hash != h or str(board) != text:
        raise InputError(f"{where}.board: {text!r} does not match hash {h} (that is {from_hash})")
    if board.is_terminal:
        raise InputError(f"{where}.board: {text!r} is a finished game; it needs no entry")
    side = board.to_move
    if not Role(role).plays(side):
        raise InputError(
            f"{where}.board: {text!r} has {'xo'[side - 1]} to move but the table plays {role}"
        )
    return board


def _check_move(where: str, move: Any, board: Board, rules: Rules) -> None:
    """InputError unless ``move`` is an empty cell of ``board``."""
    if isinstance(move, bool) or not isinstance(move, int):
        raise InputError(f"{where}.move: {_short(move)} is not an integer")
    if not 0 <= move < rules.cells:
        raise InputError(f"{where}.move: {_short(move)} is outside 0-{rules.cells - 1}")
    if board.cells[move] != EMPTY:
        raise InputError(f"{where}.move: cell {move} is occupied on board {str(board)!r}")


# ------------------------------------------------------------------- files
#: the longest table file read (characters): far above any real table (3x3: under 10 kB), and
#: small enough that validating it takes seconds, not minutes
MAX_TABLE_CHARS = 4_000_000


def load_table(path: str | os.PathLike[str]) -> Table:
    """Read and validate a table file.

    Parameters
    ----------
    path
        A ``minttt-table/1`` JSON file (``minttt solve --out``, :func:`save_table`).

    Returns
    -------
    Table
        The table, every entry checked for meaning (legal move, hash of its board, ...).

    Raises
    ------
    InputError
        One line naming the file and the field, for a file that is missing, unreadable, too
        large, not JSON, against the schema, or whose entries do not mean what they say.
    """
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as handle:
            text = handle.read(MAX_TABLE_CHARS + 1)
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a directory, not a table file") from None
    except UnicodeDecodeError:
        raise InputError(f"{name}: not UTF-8 text") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise InputError(f"{name}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    return table_from_json(text, source=name)


def table_from_json(text: str, source: str = "<table>") -> Table:
    """Parse and validate table text (see :func:`load_table`); at most MAX_TABLE_CHARS long."""
    if len(text) > MAX_TABLE_CHARS:
        raise InputError(f"{source}: larger than {MAX_TABLE_CHARS:,} characters; not a table")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise InputError(f"{source}: malformed JSON at {where}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{source}: malformed JSON: {type(exc).__name__}") from None
    try:
        _check_unicode(data, "")
        return Table.from_dict(data)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None
    except RecursionError:
        raise InputError(f"{source}: (document): nested too deeply") from None


def _utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_unicode(value: Any, where: str) -> None:
    """InputError for a string holding a lone surrogate (JSON allows ``"\\ud800"``; UTF-8 not)."""
    if isinstance(value, str):
        if not value.isascii() and not _utf8(value):
            raise InputError(f"{where or '(document)'}: holds a lone surrogate, not valid Unicode")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_unicode(key, where)
            _check_unicode(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_unicode(item, f"{where}[{i}]")


def save_table(table: Table, path: str | os.PathLike[str]) -> None:
    """Write ``table`` atomically; the same table always gives the same bytes.

    Parameters
    ----------
    table
        The table.
    path
        The file to write (its folder is made if needed).

    Raises
    ------
    InputError
        If the path cannot be written (one line naming it).
    """
    write_text_atomic(path, table.to_json())


def save_tables(tables: Mapping[Path, Table]) -> None:
    """Write every table to its path, all or none: the files are staged and renamed shielded from
    Ctrl-C (a command's final result)."""
    write_texts_atomic({path: table.to_json() for path, table in tables.items()}, final=True)


__all__ = [
    "build_table",
    "FORMAT",
    "HASH_CONVENTION",
    "hash_convention",
    "Entry",
    "Table",
    "TablePlayer",
    "first_move_table",
    "load_table",
    "merge_tables",
    "save_table",
    "save_tables",
    "table_from_json",
    "table_from_moves",
]
