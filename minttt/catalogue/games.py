"""The games of the catalogue, once: every m,n,k game with ``m <= n`` and ``m * n <= 16`` (2x2 ..
2x8, 3x3 .. 3x5, 4x4), every ``k`` from 2 to ``n``, standard and, where cheap, misère; and each
game's *cells*: the smallest lookup table for X (any opening) and for O, under the optimal
criterion and under never-lose.

>>> len(catalogue_games()), catalogue_games()[0], catalogue_games()[-1]
(57, 'mnk:2,2,2', 'mnk:4,4,2-misere')
>>> [c.key for c in cells("3x3")]
['X optimal', 'X never-lose', 'O optimal', 'O never-lose']
>>> cell_variant("3x3", "X", "optimal").name
'first-any-lookup-entries'
"""

from __future__ import annotations

from dataclasses import dataclass

from minttt.formula.variants import Variant
from minttt.game.rules import Rules
from minttt.vocabulary import Criterion, Role

#: the boards (rows, columns): m <= n, m * n <= 16
BOARDS: tuple[tuple[int, int], ...] = (
    (2, 2),
    (2, 3),
    (2, 4),
    (2, 5),
    (2, 6),
    (2, 7),
    (2, 8),
    (3, 3),
    (3, 4),
    (3, 5),
    (4, 4),
)
#: misère games are catalogued on boards of at most this many cells (cheap: seconds each)
MISERE_CELLS = 16
#: misère only where the game has at most this many canonical positions (standard play's count)
MISERE_POSITIONS = 25_000
#: canonical positions of the standard games (``build_array_graph``; the largest, not listed,
#: have more), to pick the cheap misère ones and to run the small games first without building
#: every graph (tests/test_catalogue.py recounts the small ones)
POSITIONS = {
    "mnk:2,2,2": 6,
    "mnk:2,3,2": 38,
    "mnk:2,4,2": 155,
    "mnk:2,5,2": 668,
    "mnk:2,6,2": 2774,
    "mnk:2,7,2": 11566,
    "mnk:2,8,2": 47395,
    "mnk:3,3,2": 186,
    "mnk:3,4,2": 2732,
    "mnk:3,5,2": 21914,
    "mnk:4,4,2": 20100,
    "mnk:2,3,3": 75,
    "mnk:2,4,3": 525,
    "mnk:2,5,3": 4055,
    "3x3": 765,
    "mnk:2,4,4": 544,
    "mnk:2,5,4": 4364,
    "mnk:2,5,5": 4390,
    "mnk:2,6,3": 31625,
    "mnk:2,6,4": 35410,
    "mnk:2,6,5": 35912,
    "mnk:2,6,6": 35946,
    "mnk:3,4,3": 28275,
    "mnk:3,4,4": 35957,
    "mnk:2,7,3": 250856,
    "mnk:2,7,4": 293220,
    "mnk:2,7,5": 300158,
    "mnk:2,7,6": 300934,
    "mnk:2,7,7": 300977,
    "mnk:3,5,3": 573900,
    "mnk:4,4,3": 756387,
    "mnk:2,8,3": 1999232,
}
CRITERIA = (Criterion.OPTIMAL, Criterion.NEVER_LOSE)


def game_name(rows: int, cols: int, k: int, misere: bool = False) -> str:
    """The game's name as :class:`~minttt.game.rules.Rules` writes it (``3x3`` for 3,3,3)."""
    return Rules(rows, cols, k, misere).name


def catalogue_games(misere: bool = True) -> list[str]:
    """Every game of the catalogue: the standard ones by board then ``k``, then the cheap misère
    ones (:data:`MISERE_POSITIONS`) in the same order."""
    standard = [game_name(m, n, k) for m, n in BOARDS for k in range(2, n + 1)]
    if not misere:
        return standard
    cheap = [
        game_name(m, n, k, True)
        for m, n in BOARDS
        for k in range(2, n + 1)
        if m * n <= MISERE_CELLS and POSITIONS.get(game_name(m, n, k), 1 << 30) <= MISERE_POSITIONS
    ]
    return standard + cheap


def by_size(games: list[str]) -> list[str]:
    """``games`` smallest first (:data:`POSITIONS`; a misère game as its standard one): a run
    finishes the quick games before the long ones hold its workers.

    >>> by_size(["mnk:4,4,4", "3x3", "mnk:2,2,2-misere"])
    ['mnk:2,2,2-misere', '3x3', 'mnk:4,4,4']
    """
    return sorted(games, key=lambda g: POSITIONS.get(g.removesuffix("-misere"), 1 << 40))


@dataclass(frozen=True)
class Cell:
    """One entry of the catalogue: a game, the table's player (``X`` or ``O``) and criterion."""

    game: str
    role: str
    criterion: str

    @property
    def key(self) -> str:
        """``"X optimal"``, ``"O never-lose"``: the cell's key inside its game."""
        return f"{self.role} {self.criterion}"

    @property
    def variant(self) -> Variant:
        """The cell's lookup-entries variant."""
        return cell_variant(self.game, self.role, self.criterion)


def cell_variant(game: str, role: str, criterion: str) -> Variant:
    """The lookup-entries variant of a cell: X with any opening, or O."""
    r = Role.parse(role)
    return Variant(r, "any" if r is Role.X else None, "lookup", "entries", criterion, game)


def cells(game: str) -> list[Cell]:
    """The four cells of ``game``: X then O, optimal then never-lose."""
    return [Cell(game, role, str(c)) for role in ("X", "O") for c in CRITERIA]


__all__ = [
    "BOARDS",
    "CRITERIA",
    "Cell",
    "by_size",
    "catalogue_games",
    "cell_variant",
    "cells",
    "game_name",
]
