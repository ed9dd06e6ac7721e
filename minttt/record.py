"""Frozen value classes without the start-up cost of ``dataclasses``.

A frozen dataclass costs about 0.7 ms to create (it compiles six methods), and importing
``dataclasses`` about 8 ms more (it imports ``inspect``, ``ast``, ``dis``): before it
solved anything, ``minttt solve`` paid about 20 ms for the 13 value classes on its path (rules,
board, graph, variant, formula, solution, ...). A :class:`Record` names its fields in ``FIELDS``
(the constructor's parameters, in order), sets them once in ``__init__`` (``_fill``;
a field may also be a ``cached_property`` that the constructor leaves to be made on first use),
and takes equality, hashing, ``repr`` and :meth:`~Record.replace` from them, as a frozen dataclass
does: assigning an attribute raises :class:`FrozenError` (an AttributeError). ``COMPARED`` is the
subset that equality, hashing and ``repr`` read (a dataclass's ``compare=False`` fields left out).
Instances keep a ``__dict__``, so ``functools.cached_property`` works and they pickle and copy as
they are.

>>> class Point(Record):
...     FIELDS = ("x", "y")
...     def __init__(self, x: int, y: int = 0) -> None:
...         self._fill(x, y)
>>> p = Point(1)
>>> p, p == Point(1, 0), p.replace(y=2)
(Point(x=1, y=0), True, Point(x=1, y=2))
>>> p.x = 3
Traceback (most recent call last):
...
minttt.record.FrozenError: cannot assign to field 'x' of a frozen Point
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

__all__ = ["FrozenError", "Record"]


class FrozenError(AttributeError):
    """An assignment to a field of a frozen :class:`Record`."""


class Record:
    """Base of a frozen value class: ``FIELDS`` set once in ``__init__``, then read-only."""

    #: the constructor's parameters, in order (:meth:`replace` passes them by name)
    FIELDS: ClassVar[tuple[str, ...]] = ()
    #: the fields equality, hashing and ``repr`` read (all of ``FIELDS`` unless narrowed)
    COMPARED: ClassVar[tuple[str, ...] | None] = None

    def _fill(self, *values: Any) -> None:
        """Set the fields, ``FIELDS`` in order, to ``values`` (the constructor's one store)."""
        vars(self).update(zip(self.FIELDS, values, strict=True))

    def _key(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.COMPARED or self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Record):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        fields = self.COMPARED or self.FIELDS
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in fields)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise FrozenError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (field name -> value), built by the constructor, as
        ``dataclasses.replace`` builds one."""
        return type(self)(**{name: getattr(self, name) for name in self.FIELDS} | changes)
