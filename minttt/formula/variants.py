"""Variants, once: what one minimisation problem is (:class:`~minttt.formula.variants.Variant`),
and the catalogue of the variants the project solves, studies and certifies. The command line,
``reproduce``, ``certify`` and the other-games study all read their lists here.

>>> len(standard_variants()), len(standard_variants(game="mnk:3,4,3"))
(18, 9)
>>> [v.name for v in study_variants("3x3")][:2]
['first-any-tree-positions', 'first-any-lookup-positions']
>>> len(certificate_variants()), [v.name for v in certificate_variants(mnk=True)][-1]
(42, 'second-lookup-entries@mnk:4,4,3')
"""

from __future__ import annotations

from collections.abc import Iterable

from minttt.errors import InputError
from minttt.game.rules import Rules
from minttt.record import Record
from minttt.vocabulary import Criterion, Encoding, Objective, Role

OPENINGS = ("center", "corner", "edge", "any")


class Variant(Record):
    """One minimisation problem: who the table plays, how it opens, encoding, objective, criterion.

    >>> Variant("first", "center", "lookup", "entries").name
    'first-center-lookup-entries'
    >>> Variant.parse("second-lookup-positions-never-lose").criterion
    <Criterion.NEVER_LOSE: 'never-lose'>

    Parameters
    ----------
    role
        ``first`` (X), ``second`` (O) or ``both``, or a :class:`~minttt.vocabulary.Role`.
    opening
        How the table opens. X: ``center``/``corner``/``edge`` (3x3 names), ``any``, or a cell
        number as text (by default ``center`` on a board with a centre cell, odd by odd, and
        ``any`` on the others, for ``first`` and ``both``); a cell ``A`` may be
        followed by ``+B:C``, X's answer ``C`` to O's reply ``B`` fixed (cells of the board after
        ``A`` and ``B`` as the graph stores it). O: ``None`` (any reply), or ``A:B``, its reply
        ``B`` to X's opening ``A`` fixed (cells of X's opening board as the graph stores it),
        several joined by ``+``. These are the parts the tables split into
        (:func:`minttt.formula.arrays.split_variants`).
    encoding
        003's ``tree`` or ``lookup`` formula.
    objective
        Count ``positions`` (003's count) or ``entries`` (lookups).
    criterion
        ``optimal`` or ``never-lose``.
    game
        The game's name, any form :meth:`~minttt.game.rules.Rules.from_name` reads (``3x3``,
        ``3x4``, ``4x4k3``, ``mnk:M,N,K``, ``-misere``), kept by its long name (``mnk:3,4,3``).

    Raises
    ------
    InputError
        For a word outside the vocabulary, an opening the role cannot have (O's is a reply
        ``A:B``), or a combination the encodings do not define.
    """

    FIELDS = ("role", "opening", "encoding", "objective", "criterion", "game")
    role: Role
    opening: str | None
    encoding: Encoding
    objective: Objective
    criterion: Criterion
    game: str

    def __init__(
        self,
        role: Role | str,
        opening: str | None = None,
        encoding: Encoding | str = Encoding.LOOKUP,
        objective: Objective | str = Objective.POSITIONS,
        criterion: Criterion | str = Criterion.OPTIMAL,
        game: str = "3x3",
    ) -> None:
        """Each word is checked and stored as its :mod:`minttt.vocabulary` member."""
        object.__setattr__(self, "role", Role.parse(role))
        object.__setattr__(self, "opening", opening)
        object.__setattr__(self, "encoding", Encoding.parse(encoding))
        object.__setattr__(self, "objective", Objective.parse(objective))
        object.__setattr__(self, "criterion", Criterion.parse(criterion))
        # the game as Rules.from_name reads it, stored by its long name (3x4 -> mnk:3,4,3)
        object.__setattr__(self, "game", Rules.from_name(game).name)
        self._check()

    def _check(self) -> None:
        if self.role is not Role.O:
            default = "center" if self.rules.center is not None else "any"
            opening = default if self.opening is None else str(self.opening).strip().lower()
            if opening == "centre":
                opening = "center"
            head = opening.partition("+")[0]
            if head not in OPENINGS and not head.isdigit():
                raise InputError(
                    f"unknown opening {self.opening!r}: expected one of {', '.join(OPENINGS)} "
                    "or a cell number"
                )
            object.__setattr__(self, "opening", opening)
        lookup_entries = self.encoding is Encoding.LOOKUP and self.objective is Objective.ENTRIES
        if self.replies() and not lookup_entries:  # checks A:B[+..] (O), CELL+B:C[+..] (X)
            who = "O's fixed reply (A:B)" if self.role is Role.O else "X's fixed answer (+B:C)"
            raise InputError(f"{who} is for lookup entries (--encoding lookup --objective entries)")
        if self.objective is Objective.ENTRIES and self.encoding is not Encoding.LOOKUP:
            raise InputError(
                "objective entries needs the lookup encoding (the tree encoding has no edge "
                "variables; it counts positions)"
            )

    @property
    def rules(self) -> Rules:
        """The rules of the variant's game."""
        return Rules.from_name(self.game)

    @property
    def name(self) -> str:
        """``role[-opening]-encoding-objective[-never-lose][@game]``."""
        parts = [self.role.word]
        if self.opening is not None:
            parts.append(self.opening)
        parts += [self.encoding, self.objective]
        if self.criterion is not Criterion.OPTIMAL:
            parts.append(self.criterion)
        text = "-".join(parts)
        return text if self.game == "3x3" else f"{text}@{self.game}"

    @classmethod
    def parse(cls, text: str) -> Variant:
        """Read a :attr:`name` back (raises InputError naming the problem)."""
        raw = text.strip()
        game = "3x3"
        if "@" in raw:
            raw, game = raw.split("@", 1)
        criterion: str = Criterion.OPTIMAL
        for crit in Criterion.values():
            if raw.endswith("-" + crit):
                criterion, raw = crit, raw[: -len(crit) - 1]
                break
        bits = raw.split("-")
        if len(bits) not in (3, 4):
            raise InputError(
                f"variant {text!r}: expected "
                "role[-opening]-encoding-objective[-never-lose][@game], "
                "e.g. first-center-lookup-entries"
            )
        opening = bits[1] if len(bits) == 4 else None
        return cls(bits[0], opening, bits[-2], bits[-1], criterion, game)

    def replies(self) -> tuple[tuple[int, int], ...]:
        """The table's fixed replies, each ``(the opponent's cell, the table's cell)``: O's
        (``A:B``: X's opening, O's reply), or X's after its opening cell (``CELL+B:C``: O's
        reply, X's answer); none for any reply. Several are joined by ``+``, one per move of the
        opponent (a split refined again).

        >>> Variant.parse("second-5:10-lookup-entries@mnk:4,4,4").replies()
        ((5, 10),)
        >>> Variant.parse("second-5:10+0:5-lookup-entries@mnk:4,4,4").replies()
        ((5, 10), (0, 5))
        >>> Variant.parse("first-5+0:6-lookup-entries@mnk:4,4,4").replies()   # X's answer to 0
        ((0, 6),)
        """
        if self.opening is None:
            return ()
        head, plus, rest = str(self.opening).partition("+")
        if self.role is Role.O:
            texts = str(self.opening).split("+")
        elif not plus:
            return ()
        elif self.role is not Role.X or head == "any":
            raise InputError(
                f"opening {self.opening!r}: X's answers (+B:C) follow X's opening cell, e.g. "
                "5+0:6 (role first)"
            )
        else:
            texts = rest.split("+")
        out = []
        for part in texts:
            a, sep, b = part.partition(":")
            if not (sep and a.isdigit() and b.isdigit()):
                raise InputError(
                    f"O's opening {self.opening!r}: expected A:B, its reply B to X's opening A "
                    "(several joined by +; the second player moves second)"
                    if self.role is Role.O
                    else f"X's opening {self.opening!r}: expected CELL+B:C, its answer C to O's "
                    "reply B (several joined by +)"
                )
            cells = self.rules.cells
            if not (int(a) < cells and int(b) < cells) or a == b:
                raise InputError(f"reply {part!r}: two different cells 0-{cells - 1} expected")
            if self.role is Role.X and str(self.opening_cell()) in (a, b):
                raise InputError(f"X's answer {part!r}: X's opening {head} is taken")
            out.append((int(a), int(b)))
        if len({a for a, _ in out}) != len(out):
            who = "one reply per opening of X" if self.role is Role.O else "one answer per reply"
            raise InputError(f"opening {self.opening!r}: {who}")
        return tuple(out)

    def opening_cell(self, rules: Rules | None = None) -> int | None:
        """X's fixed first move as a cell (None for ``any`` and for the second player)."""
        rules = rules or self.rules
        if self.opening is None or self.opening == "any" or self.role is Role.O:
            return None
        head = self.opening.partition("+")[0]
        if head.isdigit():
            cell = int(head)
            if cell >= rules.cells:
                raise InputError(f"opening cell {cell} is outside the board (0..{rules.cells - 1})")
            return cell
        if head == "corner":
            return 0
        if head == "center":
            if rules.center is None:
                raise InputError(
                    f"a {rules.rows}x{rules.cols} board has no center cell; give a cell or any"
                )
            return rules.center
        if head == "edge":
            if (rules.rows, rules.cols) != (3, 3):
                raise InputError("opening 'edge' is a 3x3 name; give a cell number on this board")
            return 1
        raise InputError(f"unknown opening {self.opening!r}")  # pragma: no cover


def standard_variants(
    criteria: Iterable[Criterion | str] = (Criterion.OPTIMAL,), game: str = "3x3"
) -> list[Variant]:
    """Every role/opening combination, both encodings, both objectives where defined.

    Parameters
    ----------
    criteria
        The criteria to include (default: ``optimal`` only).
    game
        The game's name.

    Returns
    -------
    list[Variant]
        18 per criterion for 3x3 (openings center/corner/edge/any, second, both with the center).
        Other games have no named openings that are sure to be allowed, so they get first-any,
        second and both-any (9 per criterion).

    Raises
    ------
    InputError
        For an unknown criterion or a game name :meth:`~minttt.game.rules.Rules.from_name`
        does not read.
    """
    combos: list[tuple[Role, str | None]]
    if game == "3x3":
        combos = [
            (Role.X, "center"),
            (Role.X, "corner"),
            (Role.X, "edge"),
            (Role.X, "any"),
            (Role.O, None),
            (Role.BOTH, "center"),
        ]
    else:
        combos = [(Role.X, "any"), (Role.O, None), (Role.BOTH, "any")]
    encodings = (
        (Encoding.TREE, (Objective.POSITIONS,)),
        (Encoding.LOOKUP, (Objective.POSITIONS, Objective.ENTRIES)),
    )
    out = []
    for criterion in criteria:
        for encoding, objectives in encodings:
            for objective in objectives:
                for role, opening in combos:
                    out.append(Variant(role, opening, encoding, objective, criterion, game))
    return out


#: lookup variants of one role on boards with more cells than this take the array form
ARRAY_FORM_CELLS = 9


def uses_arrays(variant: Variant) -> bool:
    """Whether ``variant`` is solved (and certified) through the array form of its formula
    (:mod:`minttt.formula.arrays`): a lookup variant of one role on a board beyond 3x3 (more than
    :data:`ARRAY_FORM_CELLS` cells). Its driver minimises the table positions with a lookup
    clause rather than the edges (the same optimum, far fewer soft literals: 3x4 k=3 O is proven
    in under a minute where the edge objective stalls), and its certificate bounds them. 3x3
    keeps the object form, whose variable numbering the shipped encodings and certificates use.

    >>> uses_arrays(Variant.parse("first-any-lookup-entries@mnk:4,4,3"))
    True
    >>> uses_arrays(Variant.parse("second-lookup-entries@mnk:3,4,3"))
    True
    >>> uses_arrays(Variant.parse("first-any-tree-positions@mnk:4,4,3"))   # the tree: objects only
    False
    >>> uses_arrays(Variant.parse("second-lookup-entries"))                # 3x3: objects
    False
    >>> uses_arrays(Variant.parse("second-4:0-lookup-entries"))   # O's reply fixed: arrays only
    True
    """
    return (
        variant.encoding is Encoding.LOOKUP
        and variant.role is not Role.BOTH
        and (variant.rules.cells > ARRAY_FORM_CELLS or bool(variant.replies()))
    )


#: the games of the other-games study (``scripts/study_games.py``)
STUDY_GAMES: tuple[str, ...] = ("3x3", "3x3-misere", "mnk:3,4,3", "mnk:4,4,3", "mnk:4,4,4")
#: the games ``reproduce`` studies itself (seconds); the 4x4 boards come from the committed study
QUICK_GAMES: tuple[str, ...] = ("3x3", "3x3-misere", "mnk:3,4,3")


def study_variants(game: str) -> list[Variant]:
    """First player (any opening) and second player, tree and lookup (positions and entries)."""
    kinds = (
        (Encoding.TREE, Objective.POSITIONS),
        (Encoding.LOOKUP, Objective.POSITIONS),
        (Encoding.LOOKUP, Objective.ENTRIES),
    )
    return [
        Variant(role, opening, encoding, objective, Criterion.OPTIMAL, game)
        for role, opening in ((Role.X, "any"), (Role.O, None))
        for encoding, objective in kinds
    ]


#: m,n,k games whose first-player minima are proven in both solver families (the study)
MNK_GAMES = ("mnk:3,4,3",)
#: m,n,k minima RC2 proves and a certificate settles (Z3 does not finish), in the index's order
#: (the last by cube and conquer: ``minttt certify NAME --cubes 2 --sub-cubes 2``)
MNK_MORE = (
    "first-any-lookup-entries@mnk:4,4,3",
    "second-lookup-positions@mnk:3,4,3",
    "first-any-tree-positions@mnk:4,4,3",
    "second-lookup-entries@mnk:3,4,3",
    "second-lookup-entries@mnk:4,4,3",
)


def certificate_variants(mnk: bool = False) -> list[Variant]:
    """Every proven minimum the project reports, in a fixed order.

    The 18 standard 3x3 variants (joint ``both`` minima included), the same 18 under never-lose
    and misère tic-tac-toe (first and second player); with ``mnk``, instead, the first player of
    3x4 k=3, then :data:`MNK_MORE` (certified by ``minttt certify --all``).
    """
    if mnk:
        small = [v for game in MNK_GAMES for v in study_variants(game) if v.role is Role.X]
        return small + [Variant.parse(name) for name in MNK_MORE]
    return standard_variants((Criterion.OPTIMAL, Criterion.NEVER_LOSE)) + study_variants(
        "3x3-misere"
    )


__all__ = [
    "ARRAY_FORM_CELLS",
    "MNK_GAMES",
    "MNK_MORE",
    "OPENINGS",
    "QUICK_GAMES",
    "STUDY_GAMES",
    "Variant",
    "certificate_variants",
    "standard_variants",
    "study_variants",
    "uses_arrays",
]
