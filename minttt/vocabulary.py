"""The words of minttt, defined once: who a table plays, which moves it may make, what is counted,
how the formula is built, how boards are keyed.

Each is a string enum, so a member *is* its text: it compares equal to it, formats as it and is
written to JSON as it. ``parse`` reads the text a user types (any case, surrounding space ignored)
and raises :class:`~minttt.errors.InputError` naming the choices.

A role has one name in the code, ``Role.X``, ``Role.O`` or ``Role.BOTH``; its value is the mark
the table file and the board use. Variant names say ``first`` / ``second`` (003's words: "the
first player"), which is :attr:`Role.word`; :meth:`Role.parse` reads either spelling.

>>> Role.parse("first"), Role.parse("o"), Role.X.word, Role.BOTH.sides
(<Role.X: 'X'>, <Role.O: 'O'>, 'first', (1, 2))
>>> Criterion.parse("never-lose") == "never-lose", f"{Objective.ENTRIES}"
(True, 'entries')
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from minttt.errors import InputError

__all__ = ["Criterion", "Encoding", "Objective", "Role", "Symmetry", "Word"]


class Word(StrEnum):
    """A string enum whose members parse from the text a user types."""

    @classmethod
    def parse(cls, text: object, what: str | None = None) -> Self:
        """The member named by ``text`` (a member, or its text in any case).

        Parameters
        ----------
        text
            A member, or its text.
        what
            What the word names, for the error message (default: the class's name).

        Returns
        -------
        Self
            The member.

        Raises
        ------
        InputError
            For any other text, naming the choices.
        """
        if isinstance(text, cls):
            return text
        key = str(text).strip().lower() if isinstance(text, str) else None
        for member in cls:
            if key == member.value.lower():
                return member
        label = what or cls.__name__.lower()
        raise InputError(
            f"unknown {label} {text!r}: expected one of {', '.join(m.value for m in cls)}"
        )

    @classmethod
    def values(cls) -> tuple[str, ...]:
        """Every member's text, in definition order."""
        return tuple(m.value for m in cls)


class Role(Word):
    """Who a table plays: X (moves first), O, or both sides (one table for either).

    Parameters
    ----------
    value
        ``X``, ``O`` or ``both``, exactly. :meth:`Role.parse` also takes ``first`` and
        ``second``, in any case, and raises :class:`~minttt.errors.InputError` instead.

    Raises
    ------
    ValueError
        For any other text.
    """

    X = "X"
    O = "O"  # noqa: E741 (the second player's mark)
    BOTH = "both"

    @property
    def word(self) -> str:
        """The word in variant names and 003's text: ``first``, ``second``, ``both``."""
        return {"X": "first", "O": "second", "both": "both"}[self.value]

    @property
    def sides(self) -> tuple[int, ...]:
        """The board marks this role moves for: (1,), (2,) or (1, 2)."""
        return {"X": (1,), "O": (2,), "both": (1, 2)}[self.value]

    def plays(self, side: int) -> bool:
        """Whether this role moves for ``side`` (1 = X, 2 = O)."""
        return side in self.sides

    @classmethod
    def parse(cls, text: object, what: str | None = None) -> Self:
        """``X``/``O``/``both`` or ``first``/``second`` (any case)."""
        if isinstance(text, str):
            alias = {"first": "X", "second": "O"}.get(text.strip().lower())
            if alias is not None:
                text = alias
        try:
            return super().parse(text, what)
        except InputError:
            raise InputError(
                f"unknown {what or 'role'} {text!r}: expected one of X, O, both (or first, second)"
            ) from None

    @classmethod
    def of_side(cls, side: int) -> Role:
        """The role that moves for one side: 1 -> X, 2 -> O."""
        if side not in (1, 2):
            raise InputError(f"side {side!r}: expected 1 (X) or 2 (O)")
        return cls.X if side == 1 else cls.O


class Criterion(Word):
    """Which moves a table may play: ``optimal`` keeps the minimax value (003's "best moves");
    ``never-lose`` keeps the mover from being forced to lose (000's notion).

    Parameters
    ----------
    value
        ``optimal`` or ``never-lose``, exactly. :meth:`Word.parse` also takes any case and raises
        :class:`~minttt.errors.InputError` instead.

    Raises
    ------
    ValueError
        For any other text.
    """

    OPTIMAL = "optimal"
    NEVER_LOSE = "never-lose"


class Objective(Word):
    """What a table's size counts: its positions (terminal ones included, 003's count) or its
    entries (lookups).

    Parameters
    ----------
    value
        ``positions`` or ``entries``, exactly. :meth:`Word.parse` also takes any case and raises
        :class:`~minttt.errors.InputError` instead.

    Raises
    ------
    ValueError
        For any other text.
    """

    POSITIONS = "positions"
    ENTRIES = "entries"


class Encoding(Word):
    """003's two formulas: ``tree`` (a variable per position) and ``lookup`` (even-depth
    grandchildren, with edge variables).

    Parameters
    ----------
    value
        ``tree`` or ``lookup``, exactly. :meth:`Word.parse` also takes any case and raises
        :class:`~minttt.errors.InputError` instead.

    Raises
    ------
    ValueError
        For any other text.
    """

    TREE = "tree"
    LOOKUP = "lookup"


class Symmetry(Word):
    """How a table is keyed: by the canonical board (``full``) or by the raw board (``none``).

    Parameters
    ----------
    value
        ``full`` or ``none``, exactly. :meth:`Word.parse` also takes any case and raises
        :class:`~minttt.errors.InputError` instead.

    Raises
    ------
    ValueError
        For any other text.
    """

    FULL = "full"
    NONE = "none"
