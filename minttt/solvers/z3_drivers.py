"""Z3 drivers: ``z3-binary`` (003's method, the baseline) and ``z3-opt`` (Z3's Optimize).

``z3-binary`` follows 003's ``FindEdge`` exactly: halve the bound from the number of objective
variables until it fails, double from there until it succeeds, then bisect; every test builds a new
solver with the formula and ``AtMost(objective, bound)``. We keep the best model seen instead of
re-solving at the end (one call fewer than 003, never more).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from minttt import interrupt
from minttt.formula.encode import Formula
from minttt.solvers.outcome import Deadline, RawResult, trivial_lower

#: a call that gave up this long before its own time limit did not time out: it was stopped
_EARLY = 0.05


def _raise_if_stopped(reason: str, started: float, limit: float | None) -> None:
    """Z3 catches Ctrl-C itself and answers ``unknown``: an interruption, never a bound.

    Z3 names a keyboard interrupt (``interrupted from keyboard``) for a solver but reports
    ``canceled`` for Optimize whether the timeout or Ctrl-C stopped it; an ``unknown`` that comes
    well before the time limit (or with no limit at all) is therefore an interruption too. The
    time limit's own :func:`_hard_limit` stops a call with ``interrupted`` (Z3 5.4) or
    ``canceled``, always after the limit: that is a timeout, never Ctrl-C.
    """

    interrupt.check()  # a signal Python saw between Z3 calls
    elapsed = time.monotonic() - started
    early = limit is None or elapsed < limit * (1 - _EARLY)
    if "keyboard" in reason or (early and "memory" not in reason):
        interrupt.raise_interrupt()


#: after its time limit, Z3 is interrupted again this often until its call returns
_REPEAT = 0.02


@contextmanager
def _hard_limit(context: Any, limit: float | None) -> Iterator[None]:
    """Interrupt ``context`` at ``limit`` seconds, and again every :data:`_REPEAT` seconds until
    the call inside returns.

    Z3's own ``timeout`` is not enough: ``Optimize`` can drop the cancellation it receives in
    the middle of a phase and run on to the end (measured: a 0.1 s limit on the misère O
    formula ran 8 s and came back with the optimum). ``Context.interrupt`` is Z3's thread-safe
    way to stop a call; repeating it makes a dropped one harmless.
    """

    if limit is None:
        yield
        return
    with interrupt.repeating(limit, _REPEAT, lambda _n: context.interrupt(), "z3-time-limit"):
        yield


def _z3_clauses(formula: Formula) -> tuple[list[Any], list[Any], list[Any]]:
    import z3

    xs = [z3.Bool(name) for name in formula.names]

    def lit(v: int) -> Any:
        return xs[v - 1] if v > 0 else z3.Not(xs[-v - 1])

    clauses = [z3.Or(*[lit(v) for v in c]) if len(c) > 1 else lit(c[0]) for c in formula.clauses]
    objective = [xs[v - 1] for v in formula.objective]
    return xs, clauses, objective


def _model_true(model: Any, xs: list[Any]) -> frozenset[int]:
    import z3

    return frozenset(
        i + 1 for i, x in enumerate(xs) if z3.is_true(model.eval(x, model_completion=True))
    )


def find_edge(upper: int, predicate: Callable[[int], bool | None]) -> tuple[int, int, bool]:
    """003's FindEdge with honest bounds. ``predicate`` returns None when it gave up (timeout).

    Returns ``(lowest bound proven feasible, highest bound proven infeasible + 1, finished)``.
    """
    best_ok, lower = upper, 0
    max_fail = upper
    while True:
        ok = predicate(max_fail)
        if ok is None:
            return best_ok, lower, False
        if ok:
            best_ok = min(best_ok, max_fail)
            if max_fail == 0:
                return 0, 0, True
            max_fail //= 2
        else:
            lower = max(lower, max_fail + 1)
            break
    min_success = max_fail
    while True:
        ok = predicate(min_success)
        if ok is None:
            return best_ok, lower, False
        if ok:
            best_ok = min(best_ok, min_success)
            break
        lower = max(lower, min_success + 1)
        min_success = max(1, min_success * 2)
        if min_success > upper:
            min_success = upper
    while max_fail != min_success - 1 and max_fail < min_success:
        bound = (max_fail + min_success) // 2
        ok = predicate(bound)
        if ok is None:
            return best_ok, lower, False
        if ok:
            min_success = bound
            best_ok = min(best_ok, bound)
        else:
            max_fail = bound
            lower = max(lower, bound + 1)
    return best_ok, lower, True


def z3_binary(
    formula: Formula, timeout: float | None = None, **_: object
) -> RawResult[frozenset[int]]:
    """003's baseline: a new Z3 solver per bound with ``AtMost``; 003's bound sequence."""
    import z3

    xs, clauses, objective = _z3_clauses(formula)
    deadline = Deadline(timeout)
    calls = 0
    best: frozenset[int] | None = None

    def predicate(bound: int) -> bool | None:
        nonlocal calls, best
        remaining = deadline.remaining()
        if remaining is not None and remaining <= 0:
            return None
        s = z3.Solver()
        if remaining is not None:
            s.set("timeout", max(1, math.ceil(remaining * 1000)))
        s.add(*clauses)
        s.add(z3.AtMost(*objective, bound))
        calls += 1
        started = time.monotonic()
        with _hard_limit(s.ctx, remaining):
            r = s.check()
        if r == z3.sat:
            model = _model_true(s.model(), xs)
            if best is None or formula.cost(model) < formula.cost(best):
                best = model
            return True
        if r == z3.unsat:
            return False
        _raise_if_stopped(s.reason_unknown(), started, remaining)
        return None

    _feasible, lower, finished = find_edge(len(objective), predicate)
    return RawResult(best, max(lower, trivial_lower(formula)), calls, timed_out=not finished)


def _smt2(formula: Formula) -> str:
    """The formula as SMT-LIB text for Z3's ``Optimize``: ``v1 .. vN`` declared, one assertion
    per clause, one soft clause ``(not v)`` per objective variable (weight 1, id ``cost``).
    Z3 parses it in C++: building the same terms through its Python API took longer than
    solving them."""

    def lit(v: int) -> str:
        return f"v{v}" if v > 0 else f"(not v{-v})"

    lines = [f"(declare-const v{i} Bool)" for i in range(1, formula.num_vars + 1)]
    lines += [
        f"(assert (or {' '.join(map(lit, c))}))" if len(c) > 1 else f"(assert {lit(c[0])})"
        for c in formula.clauses
    ]
    lines += [f"(assert-soft (not v{v}) :weight 1 :id cost)" for v in formula.objective]
    return "\n".join(lines)


def _model_from_text(model: Any) -> frozenset[int]:
    """The variables ``v1 ..`` a Z3 model sets true, read from its text (one call, not one per
    variable); a variable the model leaves out is false (model completion)."""
    return frozenset(
        int(m.group(1))
        for m in re.finditer(r"\(define-fun v(\d+) \(\) Bool\s+true\)", model.sexpr())
    )


def z3_opt(
    formula: Formula, timeout: float | None = None, **_: object
) -> RawResult[frozenset[int]]:
    """Z3's ``Optimize`` with one soft clause ``not v`` per objective variable (the formula
    handed over as SMT-LIB text: :func:`_smt2`)."""
    import z3

    opt = z3.Optimize()
    if timeout is not None:
        opt.set("timeout", max(1, math.ceil(timeout * 1000)))
    opt.from_string(_smt2(formula))
    started = time.monotonic()
    with _hard_limit(opt.ctx, timeout):
        r = opt.check()
    if r == z3.unknown:
        _raise_if_stopped(opt.reason_unknown(), started, timeout)
    model = None
    try:
        m = opt.model()
        if m is not None and len(m) > 0:
            model = _model_from_text(m)
    except z3.Z3Exception:
        model = None
    if r == z3.sat and model is not None:
        return RawResult(model, formula.cost(model), 1)
    lower = trivial_lower(formula)
    if formula.objective:
        try:
            lo = z3.OptimizeObjective(opt, 0, False).lower()  # the soft clauses' objective
            if z3.is_int_value(lo):
                lower = max(lower, lo.as_long())
        except z3.Z3Exception:
            pass
    return RawResult(model, lower, 1, timed_out=True)


__all__ = [
    "find_edge",
    "z3_binary",
    "z3_opt",
]
