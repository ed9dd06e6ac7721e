"""The HiGHS driver: linear-programming lower bounds of an array formula (scipy's HiGHS, if scipy
is installed).

Each clause ``l_1 OR .. OR l_k`` becomes ``sum(x_pos) - sum(x_neg) >= 1 - #neg`` with
``0 <= x <= 1`` (the start positions fixed to 1). Minimising the objective's sum over this
polytope bounds every table from below: :func:`lp_bound`, the relaxation. With the variables
integer the same program *is* the formula (a 0/1 point satisfies each inequality exactly when it
satisfies the clause), so :func:`mip_bound`'s branch and bound proves a bound at any moment: its
dual bound, the least objective any integer point left in the search can have. Both are rounded
up, less a tolerance of 1e-6 for HiGHS's floating point. scipy is optional: both return ``None``
without it.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from minttt.formula.arrays import ArrayFormula

TOLERANCE = 1e-6
#: HiGHS looks at its own time limit only between phases (a large presolve or root LP can run on
#: for minutes past it): past the limit by this many seconds, or a tenth of the limit if more, its
#: process is stopped and its answer is none (no bound, no point)
GRACE_SECONDS = 5.0
#: scipy's status for "a time or iteration limit was reached"
LIMIT_STATUS = 1


@dataclass(frozen=True)
class LPBound:
    """The LP relaxation's optimum (``lp_value``) and the bound it proves (``lower``: rounded
    up), ``None`` both when HiGHS did not solve it (its ``status`` says why)."""

    lower: int | None
    lp_value: float | None
    status: str
    seconds: float


@dataclass(frozen=True)
class MIPBound:
    """HiGHS's branch and bound: the ``lower`` bound its ``dual_bound`` proves, its best integer
    point's objective (``upper``, ``None`` if it found none), ``optimal`` when they meet, its
    ``status`` and ``seconds``; ``point`` is that point as a bool array indexed by variable
    (index 0 unused), or ``None``. A run stopped by its time limit still proves its dual bound."""

    lower: int
    dual_bound: float
    upper: int | None
    optimal: bool
    status: str
    seconds: float
    point: np.ndarray | None = None

    def record(self) -> dict[str, Any]:
        """The figures a checkpoint keeps (the point is not one of them)."""
        return {
            "lower": self.lower,
            "dual_bound": self.dual_bound,
            "upper": self.upper,
            "optimal": self.optimal,
            "status": self.status,
            "seconds": self.seconds,
        }


def _program(formula: ArrayFormula) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray]:
    """``(A, b, bounds, c)``: ``A x <= b`` (the clauses but the units, which fix the start
    positions to 1 in ``bounds`` (n, 2)), the objective ``c``."""
    from scipy.sparse import csr_matrix

    n = formula.num_vars
    lits, starts = formula.clauses_csr()
    n_units = len(formula.units)  # the first clauses: they go into the variable bounds
    units, lits = lits[: starts[n_units]], lits[starts[n_units] :]
    sizes = np.diff(starts[n_units:])
    n_rows = len(sizes)
    rows = np.repeat(np.arange(n_rows), sizes)
    cols = np.abs(lits) - 1
    vals = np.sign(lits).astype(np.float64)
    negs = np.bincount(rows, weights=(lits < 0).astype(np.float64), minlength=n_rows)
    a = csr_matrix((-vals, (rows, cols)), shape=(n_rows, n))  # as A_ub x <= b_ub
    lower = np.zeros(n)
    lower[units - 1] = 1.0
    c = np.zeros(n)
    c[formula.objective - 1] = 1.0
    return a, -(1.0 - negs), np.stack([lower, np.ones(n)], axis=1), c


def lp_bound(formula: ArrayFormula, time_limit: float | None = None) -> LPBound | None:
    """The LP relaxation's bound, or ``None`` when scipy is missing."""
    try:
        import scipy.optimize  # noqa: F401  (solved in a process of its own: _highs_worker)
    except ImportError:
        return None
    start = time.perf_counter()
    status, message, fun, _x, _dual = _in_child(_program(formula), time_limit, integer=False)
    seconds = round(time.perf_counter() - start, 2)
    if status != 0 or fun is None:
        return LPBound(None, None, message, seconds)
    return LPBound(math.ceil(fun - TOLERANCE), fun, message, seconds)


def mip_bound(formula: ArrayFormula, time_limit: float) -> MIPBound | None:
    """HiGHS's branch and bound on the 0/1 program for ``time_limit`` seconds, in a process of
    its own; ``None`` when scipy is missing.

    >>> from minttt.formula.variants import Variant
    >>> from minttt.formula.arrays import encode_arrays
    >>> from minttt.game.arrays import build_array_graph
    >>> v = Variant.parse("second-lookup-entries")
    >>> r = mip_bound(encode_arrays(build_array_graph(v.rules), v), 60)
    >>> r is None or (r.lower, r.optimal) == (72, True)  # None: no scipy
    True
    """
    try:
        import scipy.optimize  # noqa: F401
    except ImportError:
        return None
    start = time.perf_counter()
    status, message, fun, x, dual = _in_child(_program(formula), float(time_limit), integer=True)
    if dual is None or not math.isfinite(dual):
        dual = fun if status == 0 and fun is not None else 0.0
    point = None if x is None else np.concatenate([[False], x > 0.5])
    upper = None if point is None else int(point[formula.objective].sum())
    lower = max(0, math.ceil(dual - TOLERANCE))
    return MIPBound(
        lower=lower,
        dual_bound=float(dual),
        upper=upper,
        optimal=upper is not None and lower >= upper,
        status=message,
        seconds=round(time.perf_counter() - start, 2),
        point=point,
    )


_Answer = tuple[int, str, float | None, np.ndarray | None, float | None]
_Program = tuple[Any, np.ndarray, np.ndarray, np.ndarray]


def _in_child(
    program: _Program,
    seconds: float | None,
    integer: bool,
    grace: float | None = None,
) -> _Answer:
    """HiGHS (:func:`_highs_worker`: branch and bound if ``integer``, else the LP) in a process
    of its own, ``seconds`` at most. Its C loop does not look at signals, so Ctrl-C here
    terminates the child at once (and raises in this process) instead of waiting for the time
    limit; and a child still busy ``grace`` seconds (default :data:`GRACE_SECONDS`; a tenth of
    ``seconds`` if more) past its limit is terminated, its answer none (:data:`LIMIT_STATUS`, no
    objective, no point, no bound). Returns ``(status, message, objective, x, dual bound)``."""
    mp = multiprocessing.get_context("spawn")
    receive, send = mp.Pipe(duplex=False)
    child = mp.Process(target=_highs_worker, args=(program, seconds, integer, send), daemon=True)
    start = time.monotonic()
    child.start()
    send.close()
    grace = GRACE_SECONDS if grace is None else grace
    limit = None if seconds is None else seconds + max(grace, 0.1 * seconds)
    try:
        while not receive.poll(0.2):  # a bare recv would not wake for a signal's handler
            if not child.is_alive() and not receive.poll(0):
                raise RuntimeError(f"the HiGHS process died (exit {child.exitcode})")
            if limit is not None and time.monotonic() - start > limit:
                late = f"HiGHS ran {limit - (seconds or 0):g} s past its {seconds:g} s limit"
                return LIMIT_STATUS, f"{late}: stopped, no answer", None, None, None
        answer: _Answer = receive.recv()
        return answer
    finally:
        if child.is_alive():
            child.terminate()
        child.join()
        receive.close()


def _highs_worker(program: _Program, seconds: float | None, integer: bool, send: Any) -> None:
    """The child: scipy's HiGHS on ``program`` for ``seconds`` (``integer``: milp's branch and
    bound; else linprog's relaxation, whose optimum is the bound: no point, no dual bound); the
    answer to ``send``."""
    from scipy.optimize import Bounds, LinearConstraint, linprog, milp

    from minttt.interrupt import worker_init

    worker_init()
    a, b_ub, bounds, c = program
    options = {} if seconds is None else {"time_limit": float(seconds)}
    if integer:
        res = milp(
            c,
            constraints=LinearConstraint(a, -np.inf, b_ub),
            bounds=Bounds(bounds[:, 0], bounds[:, 1]),
            integrality=np.ones(len(c)),
            options=options,
        )
        x = None if res.x is None else np.asarray(res.x)
        answer = (res.fun, x, getattr(res, "mip_dual_bound", None))
    else:
        res = linprog(c, A_ub=a, b_ub=b_ub, bounds=bounds, method="highs", options=options)
        answer = (res.fun if res.status == 0 else None, None, None)
    fun, x, dual = answer
    send.send((int(res.status), str(res.message), None if fun is None else float(fun), x, dual))
    send.close()


__all__ = ["LPBound", "MIPBound", "lp_bound", "mip_bound"]
