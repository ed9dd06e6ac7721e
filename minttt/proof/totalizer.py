"""Totalizers that grow: the relaxation of a core-guided lower bound, made the same way by the
search (:func:`minttt.proof.lower.relaxed_cores`) and by whoever makes its certificate's CNF
again (:func:`minttt.proof.cnf.relaxed_cnf`).

A totalizer over inputs ``I`` (positive literals) is a binary tree whose node over ``m`` inputs
has outputs ``r_1 .. r_u`` (``u <= m`` its bound), ``r_j`` meaning "at least ``j`` of the node's
inputs are true"; a leaf's one output is its input. It has only the *upward* clauses
``-a_i OR -b_k OR r_(i+k)`` (``a``, ``b`` the children's outputs, ``i + k <= u``; a zero index
drops its literal): every one holds when each output means what it says, so any assignment of
the inputs extends to one that satisfies them (what a certificate's soundness needs), and under
the assumption ``-r_j`` of a root output they propagate "at most ``j - 1`` of ``I``" (what the
search needs). :meth:`Totalizers.grow` raises a tree's bound. Variables are numbered in the
order the operations happen, so the operations' log (``Totalizers.log``) is all it takes to
make the clauses again (:func:`replay`).

>>> tot = Totalizers(top=3)
>>> index, clauses = tot.new([1, 2, 3], bound=2)
>>> tot.outputs(index), clauses
([6, 7], [[-3, 4], [-2, 4], [-2, -3, 5], [-4, 6], [-1, 6], [-5, 7], [-1, -4, 7]])
>>> tot.grow(index, 3)
[[-1, -5, 8]]
>>> replay(tot.log, top=3)[1] == clauses + [[-1, -5, 8]]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from minttt.errors import InputError


@dataclass
class _Node:
    """A tree node over ``size`` inputs: its outputs so far (a leaf's: its input), children."""

    size: int
    outputs: list[int] = field(default_factory=list)
    left: _Node | None = None
    right: _Node | None = None


class Totalizers:
    """Totalizers numbered from variable ``top + 1`` on, in the order they are made and grown;
    its ``log`` records each operation (``["new", bound, *inputs]``, ``["grow", index,
    bound]``)."""

    def __init__(self, top: int) -> None:
        self.top = top
        self.log: list[list[int | str]] = []
        self._roots: list[_Node] = []

    def new(self, inputs: Sequence[int], bound: int) -> tuple[int, list[list[int]]]:
        """A totalizer over ``inputs`` (at least two distinct positive literals) with outputs up
        to ``bound``: its index and its clauses."""
        lits = [int(x) for x in inputs]
        if len(lits) < 2 or len(set(lits)) != len(lits) or min(lits) < 1 or bound < 1:
            raise InputError("a totalizer needs two or more distinct positive inputs, bound >= 1")
        root = _tree(lits)
        clauses: list[list[int]] = []
        self._grow(root, bound, clauses)
        self._roots.append(root)
        self.log.append(["new", int(bound), *lits])
        return len(self._roots) - 1, clauses

    def grow(self, index: int, bound: int) -> list[list[int]]:
        """Raise totalizer ``index``'s outputs to ``bound`` (at most its inputs): the new
        clauses (none when it has them already)."""
        if not 0 <= index < len(self._roots) or bound < 1:
            raise InputError(f"no totalizer {index} to grow to {bound}")
        clauses: list[list[int]] = []
        self._grow(self._roots[index], bound, clauses)
        self.log.append(["grow", int(index), int(bound)])
        return clauses

    def outputs(self, index: int) -> list[int]:
        """Totalizer ``index``'s root outputs ``r_1 ..`` so far."""
        return list(self._roots[index].outputs)

    def inputs(self, index: int) -> int:
        """How many inputs totalizer ``index`` counts."""
        return self._roots[index].size

    def __len__(self) -> int:
        return len(self._roots)

    def _grow(self, node: _Node, bound: int, clauses: list[list[int]]) -> None:
        """Outputs of ``node`` (children first) up to ``min(bound, size)``, and their clauses."""
        want = min(bound, node.size)
        have = len(node.outputs)
        if node.left is None or node.right is None or want <= have:
            return
        left, right = node.left, node.right
        self._grow(left, want, clauses)
        self._grow(right, want, clauses)
        for _ in range(have, want):
            self.top += 1
            node.outputs.append(self.top)
        for j in range(have + 1, want + 1):
            for i in range(max(0, j - right.size), min(j, left.size) + 1):
                k = j - i
                clause = [-left.outputs[i - 1]] if i else []
                if k:
                    clause.append(-right.outputs[k - 1])
                clauses.append([*clause, node.outputs[j - 1]])


def _tree(lits: list[int]) -> _Node:
    """The balanced tree over ``lits`` (the left half first), outputs not yet made."""
    if len(lits) == 1:
        return _Node(1, [lits[0]])
    half = len(lits) // 2
    return _Node(len(lits), [], _tree(lits[:half]), _tree(lits[half:]))


def apply(tot: Totalizers, op: Sequence[Any]) -> tuple[int, list[list[int]]]:
    """One operation of a log (``["new", bound, *inputs]`` or ``["grow", index, bound]``)
    applied to ``tot``: the totalizer it made or grew, and the new clauses; InputError on an
    operation that is not one."""
    ints = all(isinstance(x, int) and not isinstance(x, bool) for x in op[1:])
    if op and op[0] == "new" and ints and len(op) >= 4:
        return tot.new(op[2:], op[1])
    if op and op[0] == "grow" and ints and len(op) == 3:
        return op[1], tot.grow(op[1], op[2])
    raise InputError(f"not a totalizer operation: {list(op)[:4]}")


def replay(log: Sequence[Sequence[Any]], top: int) -> tuple[Totalizers, list[list[int]]]:
    """The totalizers of ``log`` made again from variable ``top + 1`` on, and their clauses in
    order (:func:`apply`, one operation after another)."""
    tot = Totalizers(top)
    clauses: list[list[int]] = []
    for op in log:
        clauses += apply(tot, op)[1]
    return tot, clauses


__all__ = ["Totalizers", "apply", "replay"]
