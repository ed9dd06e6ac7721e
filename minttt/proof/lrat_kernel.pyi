"""Types of the compiled LRAT checker (``lrat_kernel.c``): see :mod:`minttt.proof.lrat`."""

from array import array
from typing import NewType

State = NewType("State", object)  # a capsule holding the checker's arrays

def new(formula: array[int], clauses: int, max_line: int, /) -> State: ...
def feed(state: State, piece: bytes, final: bool, /) -> tuple[int, int]: ...
def stats(state: State, /) -> tuple[int, int, bytes]: ...
